//! `cargo xtask lint`: formatting and clippy with warnings denied, natively and on wasm32, and
//! the house rules (`xtask/tests/`): no import circle between modules (`cycles.rs`), no function
//! over 100 lines (`fn_length.rs`), and ARCHITECTURE.md naming every top-level module and only
//! paths that exist (`architecture.rs`).
//!
//! Two clippy passes: the native workspace with every target, then the browser's crates on
//! wasm32 in one pass (the app and the worker with every target, the core with its library and
//! its wasm test; its unit tests are native: they read snapshot files and use proptest).

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
    cargo(&[
        "test",
        "--quiet",
        "--package",
        "xtask",
        "--test",
        "cycles",
        "--test",
        "fn_length",
        "--test",
        "architecture",
    ])?;
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
    // The app, the worker and the core on wasm32 in one pass, so the core and the
    // dependencies they share are checked once: the app and the worker with every target (the
    // benchmark page too: the published build leaves it out), the core with its library and its
    // wasm test (its unit tests are native: they read snapshot files and use proptest).
    clippy(&[
        "--package",
        "benchdeck-app",
        "--package",
        "benchdeck-worker",
        "--package",
        "benchdeck-core",
        "--features",
        "benchdeck-app/bench,benchdeck-core/svg",
        "--target",
        tools::WASM_TARGET,
        "--lib",
        "--bins",
        "--test",
        "wasm",
    ])
}
