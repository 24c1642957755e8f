//! No import circles between the top-level modules of the product's crates: in `core`, `cli`
//! and `app` (the worker is one file), the file graph below seen module by module has no cycle.
//! The model sits at the bottom: it names nothing above it.
//!
//! Nor between the files of `core`, `cli`, `app` and `xtask`, counting parent and child edges:
//! a file that names an item of another file (by `crate::…`, `super::…` or a child's name)
//! depends on it, and those dependencies form no cycle (`modules/mod.rs` reads them). A parent
//! that declares its children and re-exports their items is a facade they never name: what
//! parent and children share lives in a file of its own.

use std::path::Path;

mod modules;
mod source;

use modules::{cycle, knots, Crate, Graph};

/// The file graph `files` seen from the top-level modules: each top-level module and the others
/// its files name.
fn top_level(files: &Graph) -> Graph {
    let top = |module: &str| module.split("::").next().unwrap_or(module).to_string();
    let mut graph = Graph::new();
    for (file, named) in files {
        let from = top(file);
        let names = graph.entry(from.clone()).or_default();
        names.extend(named.iter().map(|n| top(n)).filter(|n| *n != from));
    }
    graph
}

#[test]
fn the_top_level_modules_of_each_crate_form_no_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (krate, at_least) in [("core", 20), ("cli", 3), ("app", 4)] {
        let graph = top_level(&Crate::read(&root.join(krate).join("src")).graph());
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

/// The crates whose files are checked, under the workspace root (the worker is one file).
const CRATES: [&str; 4] = ["core", "cli", "app", "xtask"];

/// A knot of `graph` told for a reader: its files, and one circle through them.
fn describe(graph: &Graph, knot: &[String]) -> String {
    let inside: Graph = knot
        .iter()
        .map(|n| {
            let next = graph[n].iter().filter(|m| knot.contains(m)).cloned();
            (n.clone(), next.collect())
        })
        .collect();
    let circle = cycle(&inside)
        .map(|c| [&c[..], &c[..1]].concat())
        .unwrap_or_default();
    format!(
        "{} files: {}; for one, {}",
        knot.len(),
        knot.join(", "),
        circle.join(" -> ")
    )
}

#[test]
fn the_files_of_each_crate_form_no_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for krate in CRATES {
        let graph = Crate::read(&root.join(krate).join("src")).graph();
        assert!(
            graph.len() > 10,
            "{krate}: only {} files found",
            graph.len()
        );
        for knot in knots(&graph) {
            found.push(format!("{krate}: {}", describe(&graph, &knot)));
        }
    }
    assert!(
        found.is_empty(),
        "{} knots of files that name each other in a circle (parent and child edges \
         counted):\n{}",
        found.len(),
        found.join("\n")
    );
}

/// A crate of these modules and codes.
fn crate_of(codes: &[(&str, &str)]) -> Crate {
    Crate::from_codes(
        codes
            .iter()
            .map(|(m, c)| (m.to_string(), c.to_string()))
            .collect(),
    )
}

#[test]
fn paths_lead_to_the_files_that_define_what_they_name() {
    let krate = crate_of(&[
        (
            "import",
            "mod vllm; mod fields; pub use fields::{Fields, set_stat as set};",
        ),
        (
            "import::vllm",
            "mod sweep; use super::{fields::Fields, set};",
        ),
        ("import::vllm::sweep", "use super::super::Fields;"),
        ("import::fields", "pub struct Fields;"),
        ("report", "mod charts;"),
        ("report::charts", "mod tokens; fn f() { tokens::fit(); }"),
        (
            "report::charts::tokens",
            "pub fn fit() { crate::import::set(); }",
        ),
    ]);
    let file = |from: &str, path: &str| {
        let path: Vec<String> = path.split("::").map(String::from).collect();
        krate.file_named(from, &path)
    };
    assert_eq!(
        file("import::vllm::sweep", "super::read").as_deref(),
        Some("import::vllm")
    );
    assert_eq!(
        file("import::vllm", "super::Fields").as_deref(),
        Some("import::fields"),
        "a re-exported item leads to the file that defines it"
    );
    assert_eq!(
        file("report::charts::tokens", "crate::import::set").as_deref(),
        Some("import::fields"),
        "by its new name too"
    );
    assert_eq!(file("import", "super::model::Run"), None);
    assert_eq!(file("import", "std::fs::read"), None);
    assert_eq!(
        file("report::charts", "tokens::fit").as_deref(),
        Some("report::charts::tokens"),
        "a child by its name"
    );
    let graph = krate.graph();
    assert!(graph["import"].contains("import::fields"));
    assert!(graph["import::vllm"].contains("import::fields"));
    assert!(!graph["import::vllm"].contains("import"));
    assert!(graph["report::charts"].contains("report::charts::tokens"));
    assert_eq!(knots(&graph), Vec::<Vec<String>>::new());
}

#[test]
fn a_parent_and_a_child_that_name_each_other_are_a_knot() {
    let krate = crate_of(&[
        (
            "model",
            "mod repeats; pub struct Run; pub use repeats::Repeats;",
        ),
        ("model::repeats", "use super::Run; pub struct Repeats;"),
    ]);
    assert_eq!(knots(&krate.graph()).len(), 1);
    let krate = crate_of(&[
        (
            "model",
            "mod repeats; mod run; pub use {run::Run, repeats::Repeats};",
        ),
        ("model::run", "pub struct Run;"),
        ("model::repeats", "use super::Run; pub struct Repeats;"),
    ]);
    assert_eq!(knots(&krate.graph()), Vec::<Vec<String>>::new());
}

#[test]
fn use_trees_are_read_with_their_new_names() {
    let code = "use super::{vllm, fields::{Fields, set_stat as set}, ImportedFile};\n\
                pub(super) fn f() { crate::report::charts::tokens::fit(x); }\n\
                pub(in crate::import) struct S; use super::super::model::Run;";
    let paths: Vec<String> = modules::named_paths(code)
        .iter()
        .map(|p| {
            p.segments.join("::")
                + &p.alias
                    .as_ref()
                    .map(|a| format!(" as {a}"))
                    .unwrap_or_default()
        })
        .collect();
    assert_eq!(
        paths,
        [
            "super::vllm",
            "super::fields::Fields",
            "super::fields::set_stat as set",
            "super::ImportedFile",
            "crate::report::charts::tokens::fit",
            "super::super::model::Run"
        ]
    );
    let reexported: Vec<String> = modules::reexported("pub(crate) use a::{b, c as d}; use e::f;")
        .iter()
        .map(|p| p.segments.join("::"))
        .collect();
    assert_eq!(reexported, ["a::b", "a::c"]);
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
