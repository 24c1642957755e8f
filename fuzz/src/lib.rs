//! What every fuzz target checks, whatever the bytes: nothing panics or hangs, and what comes out
//! keeps its promises.
//!
//! - [`check`]: an importer returns, every problem names the file, a file that gave no run says
//!   why, and the result serialises (the site build writes it as JSON).
//! - [`site`]: what a report author or a reader controls (Markdown, front matter, directives,
//!   inline values, flowcharts, the app's data and address): a page's problems name its file,
//!   its HTML holds no script, it survives the wire, and its diagrams lay out.
//! - [`files`]: a multi-file input split into its files.

pub mod site;

use benchdeck_core::import::{import_as, Format};

/// The name every fuzzed input is imported under.
pub const FILE: &str = "fuzz-input";

/// Imports `data` as `format` and checks the invariants.
pub fn check(format: Format, data: &[u8]) {
    let imported = import_as(format, FILE, data);
    for problem in imported.all_problems() {
        assert_eq!(
            problem.file, FILE,
            "a problem names another file: {problem}"
        );
        assert!(!problem.message.is_empty(), "a problem without a message");
    }
    for run in &imported.runs {
        assert_eq!(run.provenance.file, FILE);
    }
    assert!(
        !imported.runs.is_empty() || imported.problems.iter().next().is_some(),
        "no run and no reason"
    );
    serde_json::to_string(&imported).expect("an import serialises");
}

/// The files of a multi-file input (the `siblings` and `mapping_file` targets): each line
/// `=== <path>` starts one, at most `most` of them.
pub fn files(text: &str, most: usize) -> Vec<benchdeck_core::input::InputFile> {
    let mut out = Vec::new();
    for part in text.split("=== ").filter(|p| !p.is_empty()) {
        let (path, body) = part.split_once('\n').unwrap_or((part, ""));
        out.push(benchdeck_core::input::InputFile {
            path: path.trim().to_string(),
            bytes: body.as_bytes().to_vec(),
        });
    }
    out.truncate(most);
    out
}
