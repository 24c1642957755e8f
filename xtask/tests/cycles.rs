//! No import circles between the top-level modules of the product's crates: in `core`, `cli`
//! and `app` (the worker is one file), the graph of `crate::<module>` paths that a top-level module's code
//! (its tests and comments aside) names has no cycle. The model sits at the bottom: it names
//! nothing above it.
//!
//! Nor between the files of `core/src/import` and `core/src/report`: a file that names
//! `super::x` or `crate::report::x` (`crate::import::x`) depends on file `x` (on its parent
//! when `x` is an item of the parent), and those dependencies form no cycle. (The files of
//! other modules, and `xtask`'s own, are not checked yet.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

mod source;

type Graph = BTreeMap<String, BTreeSet<String>>;

/// Each top-level module of the crate at `src` and the top-level modules its code names.
fn graph(src: &Path) -> Graph {
    let mut graph = Graph::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a readable folder") {
            let path = entry.expect("a readable entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let relative = path
                .strip_prefix(src)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let top = relative
                .split('/')
                .next()
                .unwrap()
                .trim_end_matches(".rs")
                .to_string();
            let is_test = relative.split('/').any(|p| p == "tests" || p == "tests.rs");
            if !relative.ends_with(".rs") || is_test || top == "lib" || top == "main" {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a readable file");
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            let names = graph.entry(top.clone()).or_default();
            for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
                for part in line.split("crate::").skip(1) {
                    let name: String = part
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() && name != top {
                        names.insert(name);
                    }
                }
            }
        }
    }
    graph
}

/// A cycle of `graph`, if it has one (modules named that are not in it are leaves).
fn cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        graph: &Graph,
        node: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            return Some(path[at..].to_vec());
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if graph.contains_key(next) {
                if let Some(found) = visit(graph, next, path, done) {
                    return Some(found);
                }
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(graph, node, &mut Vec::new(), &mut done))
}

#[test]
fn the_top_level_modules_of_each_crate_form_no_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (krate, at_least) in [("core", 20), ("cli", 3), ("app", 4)] {
        let graph = graph(&root.join(krate).join("src"));
        assert!(
            graph.len() >= at_least,
            "{krate}: only {} modules found",
            graph.len()
        );
        if let Some(found) = cycle(&graph) {
            panic!(
                "{krate}: the modules {} name each other in a circle",
                found.join(" -> ")
            );
        }
    }
}

#[test]
fn a_circle_is_found() {
    let mut graph = Graph::new();
    for (from, to) in [
        ("model", "cost"),
        ("cost", "chart"),
        ("chart", "model"),
        ("a", "b"),
    ] {
        graph.entry(from.into()).or_default().insert(to.into());
        graph.entry(to.into()).or_default();
    }
    assert_eq!(cycle(&graph).map(|c| c.len()), Some(3));
    graph.get_mut("chart").unwrap().clear();
    assert_eq!(cycle(&graph), None);
}

/// The file trees whose files must not name each other in a circle, under `core/src`.
const FILE_TREES: [&str; 2] = ["import", "report"];

/// The module path of a source file under a crate's `src` (`import/vllm/sweep.rs` →
/// `import::vllm::sweep`, `import.rs` → `import`); none for test files.
fn module_path(relative: &Path) -> Option<String> {
    let text = relative.to_string_lossy();
    let is_test = text.split('/').any(|p| p == "tests" || p == "tests.rs");
    let path = text.strip_suffix(".rs").filter(|_| !is_test)?;
    let path = path.strip_suffix("/mod").unwrap_or(path);
    Some(path.replace('/', "::"))
}

/// The code's words and punctuation, `::` as one token.
fn tokens(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() || c == '_' {
            let word: String = chars[i..]
                .iter()
                .take_while(|c| c.is_alphanumeric() || **c == '_')
                .collect();
            i += word.chars().count();
            tokens.push(word);
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            tokens.push("::".to_string());
            i += 2;
        } else {
            if !c.is_whitespace() {
                tokens.push(c.to_string());
            }
            i += 1;
        }
    }
    tokens
}

/// The paths of a use tree starting at `tokens[*at]` under `prefix`, into `out`: `a::{b, c::d}`
/// is `a::b` and `a::c::d`.
fn use_tree(tokens: &[String], at: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut segments = prefix;
    while let Some(token) = tokens.get(*at) {
        if token == "{" {
            *at += 1;
            while tokens.get(*at).is_some_and(|t| t != "}") {
                use_tree(tokens, at, segments.clone(), out);
                // Past a renaming (`a as b`) to the next item.
                while tokens.get(*at).is_some_and(|t| t != "," && t != "}") {
                    *at += 1;
                }
                if tokens.get(*at).is_some_and(|t| t == ",") {
                    *at += 1;
                }
            }
            *at += 1;
            return;
        }
        segments.push(token.clone());
        *at += 1;
        if tokens.get(*at).is_some_and(|t| t == "::") {
            *at += 1;
        } else {
            break;
        }
    }
    out.push(segments);
}

/// Every path `code` names from `super` or `crate` (visibilities such as `pub(super)` and
/// `pub(in crate::x)` aside), each as its segments.
fn named_paths(code: &str) -> Vec<Vec<String>> {
    let tokens = tokens(code);
    let mut paths = Vec::new();
    for i in 0..tokens.len() {
        let before = |k: usize| i.checked_sub(k).map(|j| tokens[j].as_str());
        let starts = (tokens[i] == "super" || tokens[i] == "crate")
            && tokens.get(i + 1).is_some_and(|t| t == "::")
            && before(1) != Some("::")
            && before(1) != Some("in")
            && !(before(1) == Some("(") && before(2) == Some("pub"));
        if starts {
            use_tree(&tokens, &mut i.clone(), Vec::new(), &mut paths);
        }
    }
    paths
}

/// The file a path named in module `from` leads to: the deepest of `modules` along it (the
/// parent itself for an item of the parent), if any.
fn file_named(modules: &BTreeSet<String>, from: &str, path: &[String]) -> Option<String> {
    let mut base: Vec<&str> = from.split("::").collect();
    let rest = match path.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            &path[1..]
        }
        Some("super") => {
            let ups = path.iter().take_while(|s| *s == "super").count();
            base.truncate(base.len().checked_sub(ups)?);
            &path[ups..]
        }
        _ => return None,
    };
    for segment in rest {
        base.push(segment);
        if !modules.contains(&base.join("::")) {
            base.pop();
            break;
        }
    }
    let file = base.join("::");
    modules.contains(&file).then_some(file)
}

/// Each file of the `trees` under `src` and the files of those trees it names.
fn file_graph(src: &Path, trees: &[&str]) -> Graph {
    let mut codes = BTreeMap::new();
    let mut stack: Vec<std::path::PathBuf> = trees.iter().map(|t| src.join(t)).collect();
    stack.extend(trees.iter().map(|t| src.join(format!("{t}.rs"))));
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).expect("a readable folder") {
                stack.push(entry.expect("a readable entry").path());
            }
            continue;
        }
        let Some(module) = path.strip_prefix(src).ok().and_then(module_path) else {
            continue;
        };
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        codes.insert(
            module,
            source::code_only(code).into_iter().collect::<String>(),
        );
    }
    let modules: BTreeSet<String> = codes.keys().cloned().collect();
    let mut graph = Graph::new();
    for (module, code) in &codes {
        let names = graph.entry(module.clone()).or_default();
        for path in named_paths(code) {
            if let Some(file) = file_named(&modules, module, &path) {
                if file != *module {
                    names.insert(file);
                }
            }
        }
    }
    graph
}

/// The knots of `graph`: each set of two or more nodes that all reach each other (its strongly
/// connected components, by Tarjan's algorithm).
fn knots(graph: &Graph) -> Vec<Vec<String>> {
    struct Walk<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        knots: Vec<Vec<String>>,
    }
    fn visit<'g>(w: &mut Walk<'g>, node: &'g str) {
        let n = w.index.len();
        w.index.insert(node, n);
        w.low.insert(node, n);
        w.stack.push(node);
        for next in w.graph.get(node).into_iter().flatten() {
            let next = next.as_str();
            if !w.graph.contains_key(next) {
                continue;
            }
            if !w.index.contains_key(next) {
                visit(w, next);
                let low = w.low[node].min(w.low[next]);
                w.low.insert(node, low);
            } else if w.stack.contains(&next) {
                let low = w.low[node].min(w.index[next]);
                w.low.insert(node, low);
            }
        }
        if w.low[node] == w.index[node] {
            let at = w.stack.iter().rposition(|n| *n == node).unwrap_or(0);
            let knot: Vec<String> = w.stack.drain(at..).map(str::to_string).collect();
            if knot.len() > 1 {
                w.knots.push(knot);
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        knots: Vec::new(),
    };
    for node in graph.keys() {
        if !walk.index.contains_key(node.as_str()) {
            visit(&mut walk, node);
        }
    }
    walk.knots
}

#[test]
fn the_files_of_import_and_report_form_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/src");
    let graph = file_graph(&src, &FILE_TREES);
    assert!(graph.len() > 100, "only {} files found", graph.len());
    let knots: Vec<String> = knots(&graph)
        .iter()
        .map(|knot| {
            let circle = cycle(
                &knot
                    .iter()
                    .map(|n| {
                        (
                            n.clone(),
                            graph[n]
                                .iter()
                                .filter(|m| knot.contains(m))
                                .cloned()
                                .collect(),
                        )
                    })
                    .collect(),
            );
            format!(
                "{} files: {}; for one, {}",
                knot.len(),
                knot.join(", "),
                circle
                    .map(|c| [&c[..], &c[..1]].concat())
                    .unwrap_or_default()
                    .join(" -> ")
            )
        })
        .collect();
    assert!(
        knots.is_empty(),
        "files of core/src/{{import,report}} name each other in a circle:\n{}",
        knots.join("\n")
    );
}

#[test]
fn super_and_crate_paths_lead_to_files() {
    let code = "use super::{vllm, fields::{Fields, set_stat as set}, ImportedFile};\n\
                pub(super) fn f() { crate::report::charts::tokens::fit(x); }\n\
                pub(in crate::import) struct S; use super::super::model::Run;";
    let paths: Vec<String> = named_paths(code).iter().map(|p| p.join("::")).collect();
    assert_eq!(
        paths,
        [
            "super::vllm",
            "super::fields::Fields",
            "super::fields::set_stat",
            "super::ImportedFile",
            "crate::report::charts::tokens::fit",
            "super::super::model::Run"
        ]
    );
    let modules: BTreeSet<String> = [
        "import",
        "import::vllm",
        "import::vllm::sweep",
        "import::fields",
        "report",
        "report::charts",
        "report::charts::tokens",
    ]
    .map(String::from)
    .into();
    let file = |from: &str, path: &str| {
        let path: Vec<String> = path.split("::").map(String::from).collect();
        file_named(&modules, from, &path)
    };
    assert_eq!(
        file("import::vllm::sweep", "super::read_serve_document").as_deref(),
        Some("import::vllm")
    );
    assert_eq!(
        file("import::vllm", "super::fields::Fields").as_deref(),
        Some("import::fields")
    );
    assert_eq!(
        file("import::vllm", "super::ImportedFile").as_deref(),
        Some("import")
    );
    assert_eq!(file("import", "super::model::Run"), None);
    assert_eq!(
        file("report", "crate::report::charts::tokens::fit").as_deref(),
        Some("report::charts::tokens")
    );
    assert_eq!(file("report::charts", "crate::model::Run"), None);
}

#[test]
fn a_knot_is_found() {
    let mut graph = Graph::new();
    for (from, to) in [
        ("a", "b"),
        ("b", "a"),
        ("b", "c"),
        ("c", "d"),
        ("d", "c"),
        ("e", "a"),
    ] {
        graph.entry(from.into()).or_default().insert(to.into());
        graph.entry(to.into()).or_default();
    }
    let mut found = knots(&graph);
    found.iter_mut().for_each(|k| k.sort());
    found.sort();
    assert_eq!(found, [["a", "b"], ["c", "d"]]);
}
