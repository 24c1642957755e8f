//! No function over 100 lines outside tests: in the sources of every crate (`core`, `cli`, `app`,
//! `worker`, `xtask`), each `fn` counted from its `fn` line to its closing brace, with files
//! named `tests.rs`, anything under a `tests/` folder and the code after a file's `#[cfg(test)]`
//! left out. A long function is split into named helpers, each saying what it does.

use std::path::{Path, PathBuf};

/// The longest a function may be, in lines from its `fn` line to its closing brace.
const MOST: usize = 100;

/// Functions over `MOST` lines that are still to be split (module path and name), while the
/// splitting goes on: each is taken off the list as it is split. Temporary; empty when done.
const NOT_YET_SPLIT: [&str; 3] = [
    "components::chart::ChartView",
    "components::wizard::Guided",
    "bench::page_loads",
];

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

/// `text` with every comment, string and character literal blanked out (newlines kept, so
/// line numbers hold): what is left is code whose braces can be matched.
fn code_only(text: &str) -> Vec<char> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let end = literal_or_comment_end(&chars, i);
        if end == i {
            out.push(chars[i]);
            i += 1;
        } else {
            out.extend(
                chars[i..end]
                    .iter()
                    .map(|&c| if c == '\n' { '\n' } else { ' ' }),
            );
            i = end;
        }
    }
    out
}

/// Where the comment, string or character literal starting at `i` ends (just past it), or `i`
/// when none starts there.
fn literal_or_comment_end(chars: &[char], i: usize) -> usize {
    let at = |k: usize| chars.get(k).copied().unwrap_or('\0');
    let after_word = i > 0 && (at(i - 1).is_alphanumeric() || at(i - 1) == '_');
    match at(i) {
        '/' if at(i + 1) == '/' => (i..chars.len())
            .find(|&k| chars[k] == '\n')
            .unwrap_or(chars.len()),
        '/' if at(i + 1) == '*' => block_comment_end(chars, i),
        '"' => string_end(chars, i + 1),
        '\'' => char_end(chars, i),
        'b' if !after_word && at(i + 1) == '\'' => char_end(chars, i + 1),
        'b' | 'c' if !after_word && at(i + 1) == 'r' => raw_string_end(chars, i + 2).unwrap_or(i),
        'r' if !after_word => raw_string_end(chars, i + 1).unwrap_or(i),
        _ => i,
    }
}

/// The end of the (possibly nested) block comment opening at `i`.
fn block_comment_end(chars: &[char], i: usize) -> usize {
    let mut depth = 0;
    let mut k = i;
    while k + 1 < chars.len() {
        match (chars[k], chars[k + 1]) {
            ('/', '*') => {
                depth += 1;
                k += 2;
            }
            ('*', '/') => {
                depth -= 1;
                k += 2;
                if depth == 0 {
                    return k;
                }
            }
            _ => k += 1,
        }
    }
    chars.len()
}

/// The end of a string whose text starts at `k` (after its opening quote), escapes skipped.
fn string_end(chars: &[char], mut k: usize) -> usize {
    while k < chars.len() {
        match chars[k] {
            '\\' => k += 2,
            '"' => return k + 1,
            _ => k += 1,
        }
    }
    chars.len()
}

/// The end of a raw string whose hashes (or quote) start at `k`, just after its `r`; none when
/// what follows the `r` is not a raw string (an identifier starting with `r`).
fn raw_string_end(chars: &[char], k: usize) -> Option<usize> {
    let hashes = chars[k..].iter().take_while(|&&c| c == '#').count();
    if chars.get(k + hashes) != Some(&'"') {
        return None;
    }
    let mut j = k + hashes + 1;
    while j < chars.len() {
        if chars[j] == '"'
            && chars[j + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == '#')
                .count()
                == hashes
        {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(chars.len())
}

/// The end of the character literal at `i` (its opening quote), or `i` when the quote opens a
/// lifetime or a label (`'a`, `'static`, `'outer:`).
fn char_end(chars: &[char], i: usize) -> usize {
    match chars.get(i + 1) {
        Some('\\') => (i + 2..chars.len())
            .find(|&k| chars[k] == '\'' && k > i + 2)
            .map_or(chars.len(), |k| k + 1),
        Some(_) if chars.get(i + 2) == Some(&'\'') => i + 3,
        _ => i,
    }
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
                let waiting = NOT_YET_SPLIT.contains(&format!("{module}::{name}").as_str());
                if lines > MOST && !waiting {
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
