//! The installed `benchdeck`, tested as a user gets it (part of `cargo xtask test`):
//!
//! 1. `cargo xtask dist` builds the web app into `cli/bundle/` and packages the three crates as
//!    crates.io would serve them ([`crate::dist`]);
//! 2. a fresh `CARGO_HOME` whose crates.io is a local copy (the workspace's dependencies,
//!    vendored, and the three packaged crates) runs `cargo install benchdeck --locked` with a
//!    `PATH` that holds the Rust toolchain and the system's C linker, but neither trunk, nor
//!    wasm-bindgen, nor wasm-opt, nor Node; nothing is compiled for wasm32;
//! 3. the installed binary starts a project outside the repository (`benchdeck init` in the
//!    system's temporary folder), gets a
//!    folder of result files and no report, builds the site (`benchdeck build`), and headless
//!    Chromium checks it (`tests/e2e/installed.mjs`).
//!
//! The install's duration is printed: it is the figure the README states.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::run::{self, step};
use crate::tools::Toolbox;

/// Programs that must not be found while installing: what the installable tool does without.
const ABSENT: [&str; 6] = ["trunk", "wasm-bindgen", "wasm-opt", "node", "npm", "npx"];

/// Result files the test project gets (fixtures, under the folder names a user might use).
const RESULTS: [(&str, &str); 4] = [
    ("vllm/sweep", "vllm/sweep"),
    ("sglang", "sglang/sglang_0314_mixed.jsonl"),
    ("console", "console/by-rate.md"),
    ("latency", "../../results/latency-analysis"),
];

/// Runs the test.
pub fn test(root: &Path, toolbox: &Toolbox) -> Result<()> {
    let crates = crate::dist::run(root, toolbox)?;
    let work = root.join("target/install");
    if work.exists() {
        std::fs::remove_dir_all(&work)
            .with_context(|| format!("cannot remove `{}`", work.display()))?;
    }
    let vendor = work.join("vendor");
    step("a local crates.io: the workspace's dependencies (vendored) and the packaged crates");
    run::status(
        Command::new("cargo")
            .current_dir(root)
            .args(["vendor", "--offline", "--versioned-dirs", "--quiet"])
            .arg(&vendor)
            .stdout(std::process::Stdio::null()),
    )?;
    for file in &crates {
        add_package(file, &vendor)?;
    }
    let installed = install(&work, &vendor)?;
    // Outside the repository, as a user's own: nothing of this checkout can be found from it.
    let project = std::env::temp_dir().join("benchdeck-installed-project");
    if project.exists() {
        std::fs::remove_dir_all(&project)
            .with_context(|| format!("cannot remove `{}`", project.display()))?;
    }
    run::status(Command::new(&installed).arg("init").arg(&project))?;
    for (folder, fixture) in RESULTS {
        copy_tree(
            &root.join("tests/fixtures").join(fixture),
            &project.join("results").join(folder),
        )?;
    }
    step("benchdeck build, by the installed binary, of a project with results and no report");
    run::status(
        Command::new(&installed)
            .args(["build", "--root"])
            .arg(&project),
    )?;
    step("the installed binary's site in headless Chromium");
    let mut node = toolbox.command("node");
    node.current_dir(root.join("tests/e2e"))
        .args(["--test", "--test-reporter=spec", "installed.mjs"])
        .env("BENCHDECK_DIST", project.join("dist"))
        .env("BENCHDECK_BASE", "/")
        .env("BENCHDECK_SCREENSHOTS", root.join("target/e2e"));
    run::status(&mut node)
}

/// `cargo install benchdeck --locked` from the local crates.io in a fresh `CARGO_HOME`;
/// returns the installed binary.
fn install(work: &Path, vendor: &Path) -> Result<PathBuf> {
    let home = work.join("cargo-home");
    std::fs::create_dir_all(&home)?;
    std::fs::write(
        home.join("config.toml"),
        format!(
            "[source.crates-io]\nreplace-with = \"local\"\n\n[source.local]\ndirectory = {:?}\n\n\
             [net]\noffline = true\n",
            vendor.display().to_string()
        ),
    )?;
    let path = bare_path(work)?;
    let cargo = toolchain_cargo()?;
    step(&format!(
        "cargo install benchdeck --locked, in a fresh CARGO_HOME, with none of {} on PATH",
        ABSENT.join(", ")
    ));
    let started = Instant::now();
    let target = work.join("target");
    run::status(
        Command::new(&cargo)
            .args(["install", "benchdeck", "--locked", "--root"])
            .arg(work.join("root"))
            .env("CARGO_HOME", &home)
            .env("CARGO_TARGET_DIR", &target)
            .env("PATH", &path)
            .env_remove("RUSTFLAGS")
            .env_remove("RUSTUP_TOOLCHAIN"),
    )?;
    let seconds = started.elapsed().as_secs();
    step(&format!(
        "installed in {}:{:02} (the README states this)",
        seconds / 60,
        seconds % 60
    ));
    if target.join("wasm32-unknown-unknown").exists() {
        bail!("the install compiled something for wasm32; it must need only the native toolchain");
    }
    Ok(work.join("root/bin/benchdeck"))
}

/// A folder of links to every program in `/usr/bin` and `/bin` except [`ABSENT`], behind the
/// toolchain's own folder: the system's linker stays, the web tools go.
fn bare_path(work: &Path) -> Result<String> {
    let shims = work.join("bin");
    std::fs::create_dir_all(&shims)?;
    for dir in ["/usr/bin", "/bin"] {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let absent = ABSENT.iter().any(|a| name.to_string_lossy() == *a);
            let link = shims.join(&name);
            if !absent && !link.exists() {
                std::os::unix::fs::symlink(entry.path(), &link)?;
            }
        }
    }
    let toolchain = toolchain_cargo()?
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let path = format!("{}:{}", toolchain.display(), shims.display());
    for program in ABSENT {
        if std::env::split_paths(&path).any(|dir| dir.join(program).exists()) {
            bail!("`{program}` is still on the install's PATH");
        }
    }
    Ok(path)
}

/// The toolchain's `cargo` itself (not rustup's proxy, which would look for its home).
fn toolchain_cargo() -> Result<PathBuf> {
    let out = run::output(Command::new("rustup").args(["which", "cargo"]))
        .context("rustup is needed to find the toolchain's cargo")?;
    Ok(PathBuf::from(out.trim()))
}

/// Unpacks a `.crate` into the vendored folder with the checksum file cargo expects.
fn add_package(file: &Path, vendor: &Path) -> Result<()> {
    run::status(
        Command::new("tar")
            .arg("-xzf")
            .arg(file)
            .arg("-C")
            .arg(vendor),
    )?;
    let stem = file
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .trim_end_matches(".crate")
        .to_string();
    let sum = run::output(Command::new("sha256sum").arg(file))?;
    let sum = sum.split_whitespace().next().unwrap_or_default();
    std::fs::write(
        vendor.join(stem).join(".cargo-checksum.json"),
        format!("{{\"files\":{{}},\"package\":\"{sum}\"}}"),
    )?;
    Ok(())
}

/// Copies a file or a folder's files to `to` (a folder).
fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    if from.is_file() {
        let name = from.file_name().unwrap_or_default();
        std::fs::copy(from, to.join(name))
            .with_context(|| format!("cannot copy `{}`", from.display()))?;
        return Ok(());
    }
    for entry in
        std::fs::read_dir(from).with_context(|| format!("cannot read `{}`", from.display()))?
    {
        let path = entry?.path();
        if path.is_dir() {
            copy_tree(&path, &to.join(path.file_name().unwrap_or_default()))?;
        } else {
            copy_tree(&path, to)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use yaml_rust2::{Yaml, YamlLoader};

    fn load(relative: &str) -> Yaml {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(relative);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut docs = YamlLoader::load_from_str(&text)
            .unwrap_or_else(|e| panic!("{relative} is not valid YAML: {e}"));
        docs.remove(0)
    }

    fn commands(steps: &Yaml) -> Vec<String> {
        steps
            .as_vec()
            .expect("a list of steps")
            .iter()
            .filter_map(|step| step["run"].as_str().map(str::to_string))
            .collect()
    }

    /// The action and the workflows are valid, and run what the install test runs: `cargo
    /// install benchdeck --locked`, then `benchdeck build --root` of a project folder.
    #[test]
    fn the_action_and_the_workflows_run_the_commands_the_install_test_runs() {
        let action = commands(&load("action.yml")["runs"]["steps"]);
        assert!(
            action
                .iter()
                .any(|c| c.starts_with("cargo install benchdeck ") && c.contains("--locked")),
            "{action:?}"
        );
        assert!(
            action
                .iter()
                .any(|c| c.starts_with("benchdeck build --root ")),
            "{action:?}"
        );
        // The comparison step writes the Markdown verdict with the gate's flags.
        assert!(
            action.iter().any(|c| c
                .contains("benchdeck compare \"$BASE\" \"$NEW\" --format markdown \"${gate[@]}\"")
                && c.contains("gate=(--fail-on worse)")),
            "{action:?}"
        );
        let init = commands(&load("cli/src/cmd/init/pages.yml")["jobs"]["build"]["steps"]);
        assert!(
            init.contains(&"cargo install benchdeck --locked".to_string()),
            "{init:?}"
        );
        assert!(
            init.iter()
                .any(|c| c.starts_with("benchdeck build --site-url ")),
            "{init:?}"
        );
        let ours = commands(&load(".github/workflows/pages.yml")["jobs"]["build"]["steps"]);
        assert!(
            ours.iter()
                .any(|c| c.starts_with("cargo xtask build --site-url ")),
            "{ours:?}"
        );
    }
}
