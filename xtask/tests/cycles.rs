//! No import circles between the top-level modules of the product's crates: in `core`, `cli`
//! and `app` (the worker is one file), the graph of `crate::<module>` paths that a top-level module's code
//! (its tests and comments aside) names has no cycle. The model sits at the bottom: it names
//! nothing above it. (Cycles among a module's own files, and `xtask`'s own, are not checked
//! yet.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

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
