//! Building the site with trunk, with the pinned tools on `PATH`.
//!
//! trunk runs two hooks (see `Trunk.toml`): `benchdeck site` before the build turns `reports/`
//! and `results/` into the site's data, `benchdeck pages` after it writes one entry page per
//! report and `404.html`.

use std::path::Path;

use anyhow::{Context, Result};

use crate::run::{self, step};
use crate::tools::Toolbox;

/// Where and how to build.
#[derive(Debug, Clone)]
pub struct BuildOptions<'a> {
    /// The folder the site is written to.
    pub dist: &'a Path,
    /// The path the site is served under: `/`, or `/<repo>/` on GitHub Pages.
    pub public_url: &'a str,
    /// The site's full address (`https://user.github.io/repo/`), when known: `benchdeck pages`
    /// reads it from `BENCHDECK_SITE_URL` for the absolute image URLs of link previews.
    pub site_url: Option<&'a str>,
}

/// The folders a site is built from when they are not the repository's `reports/` and
/// `results/` (the synthetic project of `cargo xtask scale`).
#[derive(Debug, Clone, Copy)]
pub struct Inputs<'a> {
    /// The Markdown reports.
    pub reports: &'a Path,
    /// The result files.
    pub results: &'a Path,
}

/// How a build differs from the published one: for the benchmarks, the app's bundle and
/// `cargo xtask serve`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Variant<'a> {
    /// Other folders than the repository's: trunk passes its environment to the `benchdeck site`
    /// hook, which reads `BENCHDECK_REPORTS` and `BENCHDECK_RESULTS` (absolute paths, since the
    /// hook's working folder is trunk's).
    pub inputs: Option<Inputs<'a>>,
    /// Where trunk's own output goes instead of the terminal: its log lines carry the time
    /// each hook started and finished.
    pub log: Option<&'a Path>,
    /// The benchmark build: the app with its feature `bench` (the hidden drawing benchmark page,
    /// which the published site does not carry) and that page written (`BENCHDECK_BENCH_PAGE`).
    pub bench_page: bool,
    /// Where `benchdeck pages` copies trunk's `index.html` before replacing it
    /// (`BENCHDECK_SAVE_TEMPLATE`): `cargo xtask dist` bundles it.
    pub template: Option<&'a Path>,
    /// How the app is compiled.
    pub profile: Profile,
}

/// How the app is compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Profile {
    /// As published: `--release`, and made smaller by wasm-opt.
    #[default]
    Release,
    /// The dev profile, without `--release`: quick to compile, large and slow
    /// (`cargo xtask serve`).
    Dev,
}

/// Builds the release site from the repository's `reports/` and `results/`.
pub fn build(root: &Path, toolbox: &Toolbox, options: &BuildOptions<'_>) -> Result<()> {
    build_variant(root, toolbox, options, Variant::default())
}

/// Builds the site as [`build`] does, with the differences of `variant`.
pub fn build_variant(
    root: &Path,
    toolbox: &Toolbox,
    options: &BuildOptions<'_>,
    variant: Variant<'_>,
) -> Result<()> {
    prebuild_cli(root)?;
    step(&format!(
        "building the site into {} (served under {})",
        options.dist.display(),
        options.public_url
    ));
    let mut trunk = toolbox.command("trunk");
    trunk
        .current_dir(root)
        .args(["build", "--offline", "--public-url"])
        .arg(options.public_url)
        .arg("--dist")
        .arg(options.dist);
    if variant.profile == Profile::Release {
        trunk.arg("--release");
    }
    if let Some(url) = options.site_url {
        trunk.env("BENCHDECK_SITE_URL", url);
    }
    if let Some(log) = variant.log {
        let file = std::fs::File::create(log)
            .with_context(|| format!("cannot create `{}`", log.display()))?;
        trunk.stdout(file);
    }
    if variant.bench_page {
        trunk.args(["--features", "bench"]);
        trunk.env("BENCHDECK_BENCH_PAGE", "1");
    }
    if let Some(template) = variant.template {
        trunk.env("BENCHDECK_SAVE_TEMPLATE", template);
    }
    if let Some(inputs) = variant.inputs {
        for (var, dir) in [
            ("BENCHDECK_REPORTS", inputs.reports),
            ("BENCHDECK_RESULTS", inputs.results),
        ] {
            let dir = dir
                .canonicalize()
                .with_context(|| format!("cannot find `{}`", dir.display()))?;
            trunk.env(var, dir);
        }
    }
    run::status(&mut trunk)
}

/// Gets everything trunk needs that it cannot get itself: trunk runs cargo with `--offline`, so
/// every crate in `Cargo.lock` is fetched first (instant when present). The trunk hooks run the
/// CLI with `cargo run`; building it first shows that compile step here instead of in a hook.
fn prebuild_cli(root: &Path) -> Result<()> {
    let mut fetch = std::process::Command::new("cargo");
    fetch.current_dir(root).args(["fetch", "--quiet"]);
    run::status(&mut fetch)?;
    let mut cargo = std::process::Command::new("cargo");
    cargo
        .current_dir(root)
        .args(["build", "--quiet", "--package", "benchdeck"]);
    run::status(&mut cargo)
}
