//! `cargo xtask dist`: the installable `benchdeck`. The web app is built once with trunk (from
//! empty `reports/` and `results/`, under a placeholder public URL that `benchdeck build`
//! replaces), trunk's own files and the page template go into `cli/bundle/`, the three
//! crates are packaged as crates.io would serve them (`target/package/*.crate`), the bundle
//! inside `benchdeck`'s, so `cargo install` of that package needs only the Rust toolchain, and
//! the wheels and the static tarball are built ([`crate::wheel`]). `--check-install` then
//! installs the packaged crates with `cargo install` from scratch ([`crate::install`]);
//! `--bundle-only` stops after the bundle (the release workflow's first job).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::run::{self, step};
use crate::site::{self, BuildOptions, Inputs, Variant};
use crate::tools::Toolbox;

/// Must equal `benchdeck::bundle::PUBLIC_URL_PLACEHOLDER` (checked by [`check_bundle`]).
const PLACEHOLDER: &str = "/benchdeck-public-url-placeholder/";

/// The crates of the installable tool, dependencies first.
pub const PACKAGES: [&str; 3] = ["benchdeck-core", "benchdeck-app", "benchdeck"];

/// What `cargo xtask dist` does besides the bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// `--bundle-only`: the bundle alone.
    Bundle,
    /// The bundle, the crates, the wheels and the tarball.
    All,
    /// `--check-install`: all of it, then `cargo install` of the crates, tested.
    CheckInstall,
}

impl Scope {
    /// The scope an option asks for (none: [`Scope::All`]).
    pub fn parse(args: &[String]) -> Result<Scope> {
        match args {
            [] => Ok(Scope::All),
            [one] if one == "--bundle-only" => Ok(Scope::Bundle),
            [one] if one == "--check-install" => Ok(Scope::CheckInstall),
            _ => bail!(
                "`dist` takes `--bundle-only` or `--check-install`, found `{}`; see `cargo xtask help`",
                args.join(" ")
            ),
        }
    }
}

/// Builds the bundle, then what `scope` adds.
pub fn run(root: &Path, toolbox: &Toolbox, scope: Scope) -> Result<()> {
    build_bundle(root, toolbox)?;
    if scope == Scope::Bundle {
        return Ok(());
    }
    let crates = package(root)?;
    crate::wheel::release(root, toolbox)?;
    if scope == Scope::CheckInstall {
        crate::install::check_cargo_install(root, toolbox, &crates)?;
    }
    Ok(())
}

/// Cargo's target folder: `CARGO_TARGET_DIR` (relative to the repository), else `target/`.
pub fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), |dir| root.join(dir))
}

/// Writes `cli/bundle/`: `index.html` (trunk's, the template of every page) and trunk's
/// hashed scripts, wasm, stylesheet and icon.
pub fn build_bundle(root: &Path, toolbox: &Toolbox) -> Result<()> {
    let work = root.join("target/dist");
    if work.exists() {
        std::fs::remove_dir_all(&work)
            .with_context(|| format!("cannot remove `{}`", work.display()))?;
    }
    let (reports, results) = (work.join("empty/reports"), work.join("empty/results"));
    for dir in [&reports, &results] {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create `{}`", dir.display()))?;
    }
    let staging = work.join("site");
    let template = work.join("index.html");
    site::build_variant(
        root,
        toolbox,
        &BuildOptions {
            dist: &staging,
            public_url: PLACEHOLDER,
            site_url: None,
        },
        Variant {
            inputs: Some(Inputs {
                reports: &reports,
                results: &results,
            }),
            template: Some(&template),
            ..Variant::default()
        },
    )?;
    let mut files = vec![("index.html".to_string(), template)];
    for entry in std::fs::read_dir(&staging)? {
        let path = entry?.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        // The hooks' pages (home, 404) are written again by every `benchdeck build`.
        if path.is_file() && name != "index.html" && name != "404.html" {
            files.push((name.into_owned(), path));
        }
    }
    let bundle = root.join("cli/bundle");
    if holds_exactly(&bundle, &files)? {
        step(&format!(
            "the web app in {} is unchanged (kept, so nothing that embeds it compiles again)",
            bundle.display()
        ));
        return Ok(());
    }
    if bundle.exists() {
        std::fs::remove_dir_all(&bundle)
            .with_context(|| format!("cannot remove `{}`", bundle.display()))?;
    }
    std::fs::create_dir_all(&bundle)
        .with_context(|| format!("cannot create `{}`", bundle.display()))?;
    for (name, path) in &files {
        copy(path, &bundle.join(name))?;
    }
    check_bundle(&bundle)?;
    step(&format!("the web app is in {}", bundle.display()));
    Ok(())
}

/// Whether `dir` holds exactly `files` (name, source), byte for byte.
fn holds_exactly(dir: &Path, files: &[(String, PathBuf)]) -> Result<bool> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(false);
    };
    if entries.count() != files.len() {
        return Ok(false);
    }
    for (name, source) in files {
        let new =
            std::fs::read(source).with_context(|| format!("cannot read `{}`", source.display()))?;
        if std::fs::read(dir.join(name)).ok() != Some(new) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The placeholder may only be where `benchdeck build` can replace it without breaking a
/// Subresource Integrity hash: the template (its scripts are hashed afterwards) and scripts
/// loaded without one.
fn check_bundle(bundle: &Path) -> Result<()> {
    let cli_source = std::fs::read_to_string(bundle.join("../src/bundle.rs"))?;
    if !cli_source.contains(&format!("\"{PLACEHOLDER}\"")) {
        bail!("xtask's PLACEHOLDER and cli/src/bundle.rs's PUBLIC_URL_PLACEHOLDER differ");
    }
    let template = std::fs::read_to_string(bundle.join("index.html"))?;
    if !template.contains(PLACEHOLDER) {
        bail!("trunk's index.html does not use the public URL `{PLACEHOLDER}`");
    }
    for entry in std::fs::read_dir(bundle)? {
        let path = entry?.path();
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let bytes = std::fs::read(&path)?;
        let has = bytes
            .windows(PLACEHOLDER.len())
            .any(|w| w == PLACEHOLDER.as_bytes());
        if has && name.ends_with(".css") {
            bail!("`{name}` names the public URL, but its integrity hash would break");
        }
    }
    Ok(())
}

/// `cargo package` of [`PACKAGES`], without verifying (the install test compiles them).
fn package(root: &Path) -> Result<Vec<PathBuf>> {
    step("packaging benchdeck-core, benchdeck-app and benchdeck as crates.io would serve them");
    let mut cargo = std::process::Command::new("cargo");
    cargo
        .current_dir(root)
        .args(["package", "--allow-dirty", "--no-verify"]);
    for package in PACKAGES {
        cargo.args(["--package", package]);
    }
    run::status(&mut cargo)?;
    let version = env!("CARGO_PKG_VERSION");
    let crates: Vec<PathBuf> = PACKAGES
        .iter()
        .map(|p| target_dir(root).join(format!("package/{p}-{version}.crate")))
        .collect();
    for file in &crates {
        let size = std::fs::metadata(file)
            .with_context(|| format!("cargo package wrote no `{}`", file.display()))?
            .len();
        step(&format!(
            "{} ({:.1} MB)",
            file.display(),
            size as f64 / 1_000_000.0
        ));
    }
    Ok(crates)
}

fn copy(from: &Path, to: &Path) -> Result<()> {
    std::fs::copy(from, to)
        .with_context(|| format!("cannot copy `{}` to `{}`", from.display(), to.display()))?;
    Ok(())
}
