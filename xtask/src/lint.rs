//! `cargo xtask lint`: formatting and clippy with warnings denied, natively and on wasm32.
//!
//! On wasm32 the app and the worker are linted with all their targets; the core with its library and its wasm
//! test (its unit tests are native: they read snapshot files and use proptest).

use std::path::Path;
use std::process::Command;

use anyhow::Result;

use crate::run::{self, step};
use crate::tools;

/// Runs every check.
pub fn all(root: &Path) -> Result<()> {
    let cargo = |args: &[&str]| -> Result<()> {
        step(&format!("cargo {}", args.join(" ")));
        run::status(Command::new("cargo").current_dir(root).args(args))
    };
    cargo(&["fmt", "--all", "--check"])?;
    // Every clippy run denies warnings.
    let clippy = |args: &[&str]| cargo(&[&["clippy"], args, &["--", "-D", "warnings"]].concat());
    clippy(&[
        "--workspace",
        "--exclude",
        "benchdeck-app",
        "--exclude",
        "benchdeck-worker",
        "--all-targets",
    ])?;
    clippy(&[
        "--package",
        "benchdeck-app",
        "--package",
        "benchdeck-worker",
        // The benchmark page too (the published build leaves it out; the worker's is a no-op).
        "--features",
        "bench",
        "--target",
        tools::WASM_TARGET,
        "--all-targets",
    ])?;
    clippy(&[
        "--package",
        "benchdeck-core",
        "--features",
        "svg",
        "--target",
        tools::WASM_TARGET,
        "--lib",
        "--test",
        "wasm",
    ])
}
