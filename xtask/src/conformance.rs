//! `cargo xtask conformance`: every sample and reference file in `../shared` through
//! `benchdeck inspect`, to see what each gave. `../shared` is material for the team, not part of
//! the product, so its absence is a printed notice, not a failure.

use std::path::Path;
use std::process::Command;

use anyhow::Result;

use crate::run::{self, step};

/// The folders of `../shared` that hold result files (`real-world`: files as people publish
/// them, the round-3 formats among them).
const FOLDERS: [&str; 3] = ["formats", "reference-data", "real-world"];

/// Runs `inspect` over the shared result files; `json` asks for the JSON form.
pub fn run(root: &Path, json: bool) -> Result<()> {
    let shared = root.join("..").join("shared");
    let shared = shared.canonicalize().unwrap_or(shared);
    let folders: Vec<_> = FOLDERS
        .iter()
        .map(|f| shared.join(f))
        .filter(|p| p.is_dir())
        .collect();
    if folders.is_empty() {
        step(&format!(
            "conformance skipped: {} has no formats/, reference-data/ or real-world/ folder",
            shared.display()
        ));
        return Ok(());
    }
    step("conformance: what `benchdeck inspect` understands of every shared result file");
    let mut cargo = Command::new("cargo");
    cargo
        .current_dir(root)
        .args(["run", "--quiet", "--package", "benchdeck", "--", "inspect"])
        .args(&folders);
    if json {
        cargo.arg("--json");
    }
    // inspect exits 1 when a file failed to import; that is the finding, shown above.
    if let Err(e) = run::status(&mut cargo) {
        step(&format!("some files did not import: {e:#}"));
    }
    // The real files of each round, not copied into the repository, against the numbers read
    // off them by hand (an ignored test of the core per round).
    for round in ["round-3", "round-4", "engine-metrics"] {
        if !shared.join("real-world").join(round).is_dir() {
            continue;
        }
        step(&format!(
            "conformance: the {round} real files against the numbers read off them by hand"
        ));
        let test_name = format!("{}_real_samples_import", round.replace('-', ""));
        let mut test = Command::new("cargo");
        test.current_dir(root).args([
            "test",
            "--quiet",
            "--package",
            "benchdeck-core",
            "--lib",
            &test_name,
            "--",
            "--ignored",
        ]);
        run::status(&mut test)?;
    }
    Ok(())
}
