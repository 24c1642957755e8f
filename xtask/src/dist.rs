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
use crate::tools::Toolbox;

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
    crate::bundle::build(root, toolbox)?;
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
        .map(|p| crate::tools::target_dir(root).join(format!("package/{p}-{version}.crate")))
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
