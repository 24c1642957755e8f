//! `cargo xtask test`: every check and every test, in the order that fails fastest.
//!
//! 0. `cargo fmt --check` and clippy with warnings denied, natively and on wasm32
//!    ([`crate::lint`]), so style cannot drift in CI;
//! 1. native tests of the workspace (core, CLI, xtask);
//! 2. the core's WebAssembly tests (`core/tests/wasm.rs`), run by `wasm-bindgen-test-runner` in
//!    Node.js;
//! 3. the web app built once as published (`cli/bundle/`) and embedded in the test run's
//!    binary, whose `benchdeck build` makes the site at `/`; the developers' trunk build makes it
//!    under a sub-path as on GitHub Pages (with the hidden drawing benchmark page); each is
//!    tested end to end in headless Chromium (`tests/e2e`). Screenshots land in `target/e2e/`;
//! 4. the installable `benchdeck`: the test run's binary with the web app embedded, as a wheel
//!    installed with pip into a fresh virtual environment without the Rust or the web tools,
//!    its `init`, `build` and `serve` of a folder of results, and its site checked in the
//!    browser ([`crate::install`]; `cargo xtask dist --check-install` tests `cargo install`).

use std::path::Path;
use std::process::Command;

use anyhow::Result;

use crate::run::{self, step};
use crate::tools::{self, Toolbox};
use crate::trunk::{self, BuildOptions};

/// The sub-path the second build is served under, as `/<repo>/` on GitHub Pages.
const SUB_PATH: &str = "/benchdeck/";

/// Runs every test.
pub fn all(root: &Path, toolbox: &Toolbox) -> Result<()> {
    crate::lint::all(root)?;
    native(root)?;
    wasm(root, toolbox)?;
    // The web app built once with trunk, as published: the bundle the test run's binary
    // embeds, packaged as the install test's wheel. That binary builds the site at `/` as a
    // user's `benchdeck build` does; the one under a sub-path is the developers' trunk build
    // with the hidden drawing benchmark page, so its e2e run checks that page as well.
    let wheel = crate::install::wheel(root, toolbox)?;
    let sites = root.join("target").join("site");
    let published = sites.join("root");
    build_with_binary(root, &published)?;
    let wasm = crate::wasm_budget::check(&published)?;
    step(&format!(
        "the app's wasm: {} bytes gzipped, within its budget of {}",
        wasm.gzip_bytes,
        crate::wasm_budget::APP_WASM_GZIP_BUDGET
    ));
    end_to_end(root, toolbox, &published, "/", false)?;
    let sub_path = sites.join("sub-path");
    trunk::build_variant(
        root,
        toolbox,
        &BuildOptions {
            dist: &sub_path,
            public_url: SUB_PATH,
            site_url: None,
        },
        trunk::Variant {
            bench_page: true,
            ..trunk::Variant::default()
        },
    )?;
    end_to_end(root, toolbox, &sub_path, SUB_PATH, true)?;
    crate::install::test_wheel(root, toolbox, &wheel)
}

/// The repository's site built into `dist` by the test run's `benchdeck build` (the binary the
/// wheel holds, with the web app embedded), as a user's site is.
fn build_with_binary(root: &Path, dist: &Path) -> Result<()> {
    let binary = tools::target_dir(root).join("debug").join("benchdeck");
    step(&format!(
        "benchdeck build of the repository's site into {} (served under /)",
        dist.display()
    ));
    run::status(
        Command::new(binary)
            .current_dir(root)
            .args(["build", "--root", ".", "--public-url", "/", "--out"])
            .arg(dist),
    )
}

fn native(root: &Path) -> Result<()> {
    step("native tests");
    run::status(Command::new("cargo").current_dir(root).args([
        "test",
        "--workspace",
        "--exclude",
        "benchdeck-app",
    ]))
}

fn wasm(root: &Path, toolbox: &Toolbox) -> Result<()> {
    step("WebAssembly tests (wasm-bindgen-test-runner in Node.js)");
    let mut cargo = toolbox.command("cargo");
    cargo
        .current_dir(root)
        .args([
            "test",
            "--package",
            "benchdeck-core",
            "--features",
            "svg",
            "--target",
            tools::WASM_TARGET,
            "--test",
            "wasm",
        ])
        .env(
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
            "wasm-bindgen-test-runner",
        );
    run::status(&mut cargo)
}

fn end_to_end(
    root: &Path,
    toolbox: &Toolbox,
    dist: &Path,
    base: &str,
    bench_page: bool,
) -> Result<()> {
    step(&format!(
        "end-to-end tests in headless Chromium, site under {base}"
    ));
    let mut node = toolbox.command("node");
    node.current_dir(root.join("tests").join("e2e"))
        .args(["--test", "--test-concurrency=1", "--test-reporter=spec"])
        .env("BENCHDECK_DIST", dist)
        .env("BENCHDECK_BASE", base)
        .env("BENCHDECK_BENCH_PAGE", if bench_page { "1" } else { "" })
        .env("BENCHDECK_SCREENSHOTS", root.join("target").join("e2e"));
    run::status(&mut node)
}
