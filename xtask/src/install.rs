//! The installed `benchdeck`, tested as a user gets it.
//!
//! [`test`] (`cargo xtask install-test`, the last part of `cargo xtask test`):
//!
//! 1. `cargo xtask dist`'s bundle: the web app built into `cli/bundle/`
//!    ([`crate::bundle::build`]);
//! 2. the test run's dev binary of `benchdeck`, which embeds it, packaged by maturin as a wheel
//!    ([`crate::wheel::dev_wheel`]: seconds, where a release build takes minutes);
//! 3. a fresh virtual environment (`python3 -m venv`) and `pip install --no-index` of that
//!    wheel, with a `PATH` that holds neither cargo, rustc nor rustup, nor trunk, wasm-bindgen,
//!    wasm-opt or Node;
//! 4. [`check_project`], with that `PATH`: the installed binary starts a project outside the
//!    repository (`benchdeck init`), gets folders of result files and no report, builds the site
//!    (`benchdeck build`), headless Chromium checks it (`tests/e2e/installed.mjs`), and
//!    `benchdeck serve` serves it and builds it again when a folder of results is added
//!    ([`served`]).
//!
//! [`check_cargo_install`] (`cargo xtask dist --check-install`): the packaged crates installed
//! with `cargo install benchdeck --locked` in a fresh `CARGO_HOME` whose crates.io is a vendored
//! copy, with the Rust toolchain and the system's C linker on `PATH` but no web tool (nothing is
//! compiled for wasm32), then the same [`check_project`].
//!
//! Both print how long the install took: the figures the README states.

pub(crate) mod served;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::run::{self, step};
use crate::tools::Toolbox;

/// Programs that must not be found by an installed benchdeck: the web tools it does without.
const WEB_TOOLS: [&str; 6] = ["trunk", "wasm-bindgen", "wasm-opt", "node", "npm", "npx"];

/// And what the wheel does without, too: the Rust toolchain.
const RUST_TOOLS: [&str; 3] = ["cargo", "rustc", "rustup"];

/// Result files the test project gets (fixtures, under the folder names a user might use).
const RESULTS: [(&str, &str); 4] = [
    ("vllm/sweep", "vllm/sweep"),
    ("sglang", "sglang/sglang_0314_mixed.jsonl"),
    ("console", "console/by-rate.md"),
    ("latency", "../../results/latency-analysis"),
];

/// Runs the install test of the wheel: the web app built, the test run's binary packaged,
/// installed and tried.
pub fn test(root: &Path, toolbox: &Toolbox) -> Result<()> {
    let wheel = wheel(root, toolbox)?;
    test_wheel(root, toolbox, &wheel)
}

/// The web app built into `cli/bundle/` ([`crate::bundle`]) and the test run's binary, which
/// embeds it, packaged as a wheel (its binary is left at `target/debug/benchdeck`).
pub fn wheel(root: &Path, toolbox: &Toolbox) -> Result<PathBuf> {
    crate::bundle::build(root, toolbox)?;
    let packaging = Instant::now();
    let wheel = crate::wheel::dev_wheel(root, toolbox, &root.join("target/install-wheel"))?;
    step(&format!(
        "{} in {:.1} s",
        wheel.display(),
        packaging.elapsed().as_secs_f64()
    ));
    Ok(wheel)
}

/// Installs `wheel` into a fresh virtual environment with neither the Rust nor the web tools
/// on `PATH`, and checks the installed binary's `init`, `build` and `serve` in the browser.
pub fn test_wheel(root: &Path, toolbox: &Toolbox, wheel: &Path) -> Result<()> {
    let started = Instant::now();
    let work = fresh_dir(&root.join("target/install"))?;
    let absent: Vec<&str> = WEB_TOOLS.iter().chain(&RUST_TOOLS).copied().collect();
    let path = bare_path(&work, &absent, None)?;
    step(&format!(
        "pip install --no-index {}, into a fresh virtual environment, with none of {} on PATH",
        wheel.display(),
        absent.join(", ")
    ));
    let venv = pip_install(&work, wheel, &path)?;
    let path = format!("{}:{path}", venv.join("bin").display());
    check_project(root, toolbox, &venv.join("bin/benchdeck"), &path)?;
    step(&format!(
        "the install test took {}",
        minutes(started.elapsed().as_secs())
    ));
    Ok(())
}

/// `python3 -m venv`, then `pip install --no-index` of the wheel with only `path`; returns the
/// environment.
fn pip_install(work: &Path, wheel: &Path, path: &str) -> Result<PathBuf> {
    let venv = work.join("venv");
    run::status(Command::new("python3").args(["-m", "venv"]).arg(&venv)).context(
        "cannot make a Python virtual environment: the install test needs python3 with its venv \
         module (Debian: `apt-get install python3-venv`)",
    )?;
    let started = Instant::now();
    run::status(
        Command::new(venv.join("bin/python"))
            .args([
                "-m",
                "pip",
                "install",
                "--no-index",
                "--disable-pip-version-check",
            ])
            .arg(wheel)
            .env("PATH", path),
    )?;
    step(&format!(
        "installed in {:.1} s (the README states this)",
        started.elapsed().as_secs_f64()
    ));
    let binary = venv.join("bin/benchdeck");
    if !binary.is_file() {
        bail!(
            "pip installed `{}` but no `{}`",
            wheel.display(),
            binary.display()
        );
    }
    Ok(venv)
}

/// Runs `cargo install` of the packaged crates from scratch and checks the installed binary.
pub fn check_cargo_install(root: &Path, toolbox: &Toolbox, crates: &[PathBuf]) -> Result<()> {
    let work = fresh_dir(&root.join("target/install-cargo"))?;
    let vendor = work.join("vendor");
    step("a local crates.io: the workspace's dependencies (vendored) and the packaged crates");
    run::status(
        Command::new("cargo")
            .current_dir(root)
            .args(["vendor", "--offline", "--versioned-dirs", "--quiet"])
            .arg(&vendor)
            .stdout(std::process::Stdio::null()),
    )?;
    for file in crates {
        add_package(file, &vendor)?;
    }
    let installed = cargo_install(&work, &vendor)?;
    let path = bare_path(&work, &WEB_TOOLS, None)?;
    check_project(root, toolbox, &installed, &path)
}

/// The installed binary, run with only `path`: `init` of a project outside the repository, as a
/// user's own (nothing of this checkout can be found from it), result files copied in, `build`,
/// the site in headless Chromium, then `serve`.
fn check_project(root: &Path, toolbox: &Toolbox, binary: &Path, path: &str) -> Result<()> {
    let project = std::env::temp_dir().join(format!(
        "benchdeck-installed-project-{}",
        std::process::id()
    ));
    fresh_dir(&project)?;
    let benchdeck = || {
        let mut command = Command::new(binary);
        // The binary's own app is tested, never one a developer's `cargo xtask serve` named.
        command
            .env("PATH", path)
            .env_remove(crate::bundle::APP_DIR_VAR);
        command
    };
    run::status(benchdeck().arg("init").arg(&project))?;
    for (folder, fixture) in RESULTS {
        copy_tree(
            &root.join("tests/fixtures").join(fixture),
            &project.join("results").join(folder),
        )?;
    }
    step("benchdeck build, by the installed binary, of a project with results and no report");
    run::status(benchdeck().args(["build", "--root"]).arg(&project))?;
    step("the installed binary's site in headless Chromium");
    let mut node = toolbox.command("node");
    node.current_dir(root.join("tests/e2e"))
        .args(["--test", "--test-reporter=spec", "installed.mjs"])
        .env("BENCHDECK_DIST", project.join("dist"))
        .env("BENCHDECK_BASE", "/")
        .env("BENCHDECK_SCREENSHOTS", root.join("target/e2e"));
    run::status(&mut node)?;
    let added = root.join("tests/fixtures/vllm/concurrency2-qwen.json");
    let mut node = toolbox.command("node");
    node.current_dir(root.join("tests/e2e"))
        .env("BENCHDECK_SCREENSHOTS", root.join("target/e2e"));
    served::check(&mut benchdeck(), &mut node, &project, &added)?;
    std::fs::remove_dir_all(&project)
        .with_context(|| format!("cannot remove `{}`", project.display()))
}

/// `cargo install benchdeck --locked` from the local crates.io in a fresh `CARGO_HOME`;
/// returns the installed binary.
fn cargo_install(work: &Path, vendor: &Path) -> Result<PathBuf> {
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
    let cargo = toolchain_cargo()?;
    let toolchain = cargo.parent().map(Path::to_path_buf).unwrap_or_default();
    let path = bare_path(work, &WEB_TOOLS, Some(&toolchain))?;
    step(&format!(
        "cargo install benchdeck --locked, in a fresh CARGO_HOME, with none of {} on PATH",
        WEB_TOOLS.join(", ")
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
    step(&format!(
        "installed in {} (the README states this)",
        minutes(started.elapsed().as_secs())
    ));
    if target.join("wasm32-unknown-unknown").exists() {
        bail!("the install compiled something for wasm32; it must need only the native toolchain");
    }
    Ok(work.join("root/bin/benchdeck"))
}

/// A `PATH` of links to every program in `/usr/bin` and `/bin` except `absent`, behind the
/// toolchain's own folder when given: the system's linker and Python stay, the web tools go
/// (and the Rust tools, for the wheel).
fn bare_path(work: &Path, absent: &[&str], toolchain: Option<&Path>) -> Result<String> {
    let shims = work.join("bin");
    std::fs::create_dir_all(&shims)?;
    for dir in ["/usr/bin", "/bin"] {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let left_out = absent.iter().any(|a| name.to_string_lossy() == *a);
            let link = shims.join(&name);
            if !left_out && !link.exists() {
                std::os::unix::fs::symlink(entry.path(), &link)?;
            }
        }
    }
    let path = match toolchain {
        Some(dir) => format!("{}:{}", dir.display(), shims.display()),
        None => shims.display().to_string(),
    };
    for program in absent {
        if std::env::split_paths(&path).any(|dir| dir.join(program).exists()) {
            bail!("`{program}` is still on the install's PATH");
        }
    }
    Ok(path)
}

/// `m:ss`.
fn minutes(seconds: u64) -> String {
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// Removes `dir` if it exists and makes it again, empty; returns it.
fn fresh_dir(dir: &Path) -> Result<PathBuf> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)
            .with_context(|| format!("cannot remove `{}`", dir.display()))?;
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create `{}`", dir.display()))?;
    Ok(dir.to_path_buf())
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

    /// The action and the workflow `init` writes are valid YAML and install benchdeck as the
    /// install test does (with pip, the wheel of `benchdeck-cli`, into a fresh virtual
    /// environment), falling back to what `dist --check-install` tests (`cargo install
    /// benchdeck --locked`) at the same version, then run `benchdeck build`.
    #[test]
    fn the_action_and_the_workflows_install_as_the_install_tests_do() {
        let pip = |version: &str| {
            format!(
                "-m pip install -q --disable-pip-version-check --only-binary=:all: \"{}=={version}\"",
                crate::wheel::DIST_NAME
            )
        };
        let action_file = load("action.yml");
        let action = commands(&action_file["runs"]["steps"]);
        assert!(
            action.iter().any(|c| c.contains("python3 -m venv")),
            "{action:?}"
        );
        assert!(
            action.iter().any(|c| c.contains(&pip("$VERSION"))),
            "{action:?}"
        );
        let cargo = "cargo install benchdeck --version \"$VERSION\" --locked".to_string();
        assert!(action.contains(&cargo), "{action:?}");
        assert!(
            action
                .iter()
                .any(|c| c.starts_with("benchdeck build --root ")),
            "{action:?}"
        );
        // The comparison step writes the Markdown verdict with the gate's flags, against the
        // baseline or, with `compare-history`, against the history.
        assert!(
            action.iter().any(|c| c.contains(
                "benchdeck compare \"${against[@]}\" \"$NEW\" --format markdown \"${gate[@]}\""
            ) && c.contains("gate=(--fail-on worse)")
                && c.contains("against=(\"$BASE\")")
                && c.contains("against=(--history \"$HISTORY\")")),
            "{action:?}"
        );
        assert_eq!(
            action_file["inputs"]["version"]["default"].as_str(),
            Some(env!("CARGO_PKG_VERSION")),
            "action.yml installs this benchdeck by default"
        );
        let init_file = load("cli/src/cmd/init/pages.yml");
        let init = commands(&init_file["jobs"]["build"]["steps"]);
        assert!(
            init.iter().any(|c| c.contains(&pip("$BENCHDECK_VERSION"))),
            "{init:?}"
        );
        let cargo = "cargo install benchdeck --version \"$BENCHDECK_VERSION\" --locked".to_string();
        assert!(init.contains(&cargo), "{init:?}");
        assert!(
            init.iter()
                .any(|c| c.starts_with("benchdeck build --site-url ")),
            "{init:?}"
        );
        assert_eq!(
            init_file["jobs"]["build"]["env"]["BENCHDECK_VERSION"].as_str(),
            Some("@BENCHDECK_VERSION@"),
            "init writes its own version there"
        );
        let ours = commands(&load(".github/workflows/pages.yml")["jobs"]["build"]["steps"]);
        assert!(
            ours.iter()
                .any(|c| c.starts_with("cargo xtask build --site-url ")),
            "{ours:?}"
        );
    }
}
