//! No function over 100 lines outside tests: in the sources of every crate (`core`, `cli`, `app`,
//! `worker`, `xtask`), each `fn` counted from its `fn` line to its closing brace, with files
//! named `tests.rs`, anything under a `tests/` folder and the code after a file's `#[cfg(test)]`
//! left out. A long function is split into named helpers, each saying what it does.

use std::path::{Path, PathBuf};

mod source;

use source::code_only;

/// The longest a function may be, in lines from its `fn` line to its closing brace.
const MOST: usize = 100;

/// The source folders checked, from the repository's root.
const SOURCES: [&str; 5] = ["core/src", "cli/src", "app/src", "worker/src", "xtask/src"];

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.rs` file under `dir` that is not a test file, sorted.
fn source_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a readable folder") {
            let path = entry.expect("a readable entry").path();
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if path.is_dir() {
                if name != "tests" {
                    stack.push(path);
                }
            } else if name.ends_with(".rs") && name != "tests.rs" {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Each function of `code` (blanked by `code_only`) with a body: its name and its length in
/// lines, from its `fn` line to its closing brace.
fn functions(code: &[char]) -> Vec<(String, usize)> {
    let line_of = |k: usize| code[..k].iter().filter(|&&c| c == '\n').count();
    let word_char = |c: char| c.is_alphanumeric() || c == '_';
    let mut found = Vec::new();
    for k in 0..code.len().saturating_sub(3) {
        let starts_word = k == 0 || !word_char(code[k - 1]);
        if !(starts_word && code[k] == 'f' && code[k + 1] == 'n' && code[k + 2].is_whitespace()) {
            continue;
        }
        let name_at = (k + 2..code.len()).find(|&j| !code[j].is_whitespace());
        let Some(name_at) = name_at.filter(|&j| word_char(code[j])) else {
            continue;
        };
        let name: String = code[name_at..]
            .iter()
            .take_while(|&&c| word_char(c))
            .collect();
        let Some(open) = body_start(code, name_at) else {
            continue;
        };
        let close = matching_brace(code, open);
        found.push((name, line_of(close) - line_of(k) + 1));
    }
    found
}

/// The opening brace of the body of the function whose name is at `k`; none for a declaration
/// without a body (`fn name(…);` in a trait).
fn body_start(code: &[char], k: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (j, &c) in code.iter().enumerate().skip(k) {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '{' if depth == 0 => return Some(j),
            ';' if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// The brace that closes the one at `open`.
fn matching_brace(code: &[char], open: usize) -> usize {
    let mut depth = 0;
    for (j, &c) in code.iter().enumerate().skip(open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return j;
                }
            }
            _ => {}
        }
    }
    code.len() - 1
}

/// The module path of a source file for messages: `core/src/report/tables.rs` → `report::tables`.
fn module_of(relative: &str) -> String {
    let path = relative.trim_end_matches(".rs");
    let path = path.split_once("/src/").map_or(path, |(krate, rest)| {
        if rest == "lib" || rest == "main" {
            krate
        } else {
            rest
        }
    });
    path.trim_end_matches("/mod").replace('/', "::")
}

/// Every non-test function over `MOST` lines, as `path: module::name (lines)`.
fn long_functions() -> Vec<String> {
    let root = root();
    let mut long = Vec::new();
    for src in SOURCES {
        for path in source_files(&root.join(src)) {
            let text = std::fs::read_to_string(&path).expect("a readable file");
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            let relative = path
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let module = module_of(&relative);
            for (name, lines) in functions(&code_only(code)) {
                if lines > MOST {
                    long.push(format!("{relative}: {module}::{name} ({lines} lines)"));
                }
            }
        }
    }
    long
}

#[test]
fn no_function_is_over_100_lines() {
    let long = long_functions();
    assert!(
        long.is_empty(),
        "{} functions are over {MOST} lines; split each into named helpers:\n{}",
        long.len(),
        long.join("\n")
    );
}

#[test]
fn the_scanner_counts_bodies_and_skips_literals() {
    let text = r##"
fn short<'a>(x: &'a str) -> char {
    let _ = "}"; let _ = '{'; let _ = '\'';
    let _ = r#"}"#; let _ = br"{"; // }
    /* { /* } */ */
    'outer: loop { break 'outer; }
    '}'
}
trait T { fn declared(&self); }
fn pointer(f: fn(u8) -> u8) { f(1); }
"##;
    let found = functions(&code_only(text));
    let expected = [("short", 7), ("pointer", 1)].map(|(name, lines)| (name.to_string(), lines));
    assert_eq!(found, expected);
}
