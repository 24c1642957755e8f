//! ARCHITECTURE.md tells the truth about the files: every path it names exists, and every
//! top-level module of each crate is named in it.

use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn architecture() -> String {
    std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md is readable")
}

/// The folders of the repository that a path in the map starts with.
const TOP: [&str; 14] = [
    "core/", "cli/", "app/", "worker/", "xtask/", "fuzz/", "tests/", "docs/", "style/", "reports/",
    "results/", ".github/", ".ci/", ".cargo/",
];

/// Every `code span` of `text` that is a plain path from the repository's root (no pattern
/// such as `{a,b}`, `*` or `<slug>`).
fn named_paths(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| TOP.iter().any(|top| span.starts_with(top)))
        .filter(|span| !span.contains(['{', '}', '*', '<', '>', ' ', '(', ',']))
        .map(|span| span.trim_end_matches('/').to_string())
        .collect()
}

#[test]
fn every_path_the_map_names_exists() {
    let text = architecture();
    let paths = named_paths(&text);
    assert!(paths.len() > 50, "only {} paths found", paths.len());
    let missing: Vec<&String> = paths.iter().filter(|p| !root().join(p).exists()).collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names missing paths: {missing:?}"
    );
}

#[test]
fn every_top_level_module_is_in_the_map() {
    let text = architecture();
    let mut unnamed = Vec::new();
    for crate_src in ["core/src", "cli/src", "app/src", "worker/src", "xtask/src"] {
        let entries = std::fs::read_dir(root().join(crate_src)).expect("a crate's src folder");
        for entry in entries {
            let path = entry.expect("a readable entry").path();
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let stem = name.strip_suffix(".rs").unwrap_or(&name).to_string();
            let is_module = path.is_dir() || name.ends_with(".rs");
            let entry_point = ["lib", "main", "mod", "tests", "snapshots"].contains(&stem.as_str());
            if !is_module || entry_point {
                continue;
            }
            let named = [
                format!("{stem}.rs"),
                format!("{stem}/"),
                format!("`{stem}`"),
            ]
            .iter()
            .any(|form| text.contains(form.as_str()));
            if !named {
                unnamed.push(format!("{crate_src}/{name}"));
            }
        }
    }
    assert!(
        unnamed.is_empty(),
        "ARCHITECTURE.md does not name: {unnamed:?}"
    );
}
