//! The web app that `benchdeck` carries (`cli/bundle/`): built once with trunk from empty
//! `reports/` and `results/`, under a placeholder public URL that `benchdeck build` replaces;
//! trunk's own files and the page template, kept as they are when nothing changed so nothing
//! that embeds them compiles again. `cargo xtask dist`, the install test and the bench build it;
//! `cargo xtask serve` builds the same app in the dev profile into a folder of its own
//! ([`build_app`], [`write_app`]).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::run::step;
use crate::tools::Toolbox;
use crate::trunk::{self, BuildOptions, Inputs, Profile, Variant};

/// Must equal `benchdeck::bundle::PUBLIC_URL_PLACEHOLDER` (checked by [`check_bundle`]).
const PLACEHOLDER: &str = "/benchdeck-public-url-placeholder/";
/// The variable naming the folder of an app that a debug `benchdeck` writes instead of its own
/// (`cargo xtask serve`'s); must equal `benchdeck::bundle::APP_DIR_VAR` (checked by
/// [`check_bundle`]).
pub const APP_DIR_VAR: &str = "BENCHDECK_APP_DIR";

/// Writes `cli/bundle/`: `index.html` (trunk's, the template of every page) and trunk's
/// hashed scripts, wasm, stylesheet and icon.
pub fn build(root: &Path, toolbox: &Toolbox) -> Result<()> {
    let work = crate::tools::target_dir(root).join("dist");
    let files = build_app(root, toolbox, &work, Profile::Release)?;
    let bundle = root.join("cli/bundle");
    if holds_exactly(&bundle, &files)? {
        step(&format!(
            "the web app in {} is unchanged (kept, so nothing that embeds it compiles again)",
            bundle.display()
        ));
        return Ok(());
    }
    write_app(&bundle, &files)?;
    check_bundle(&bundle)?;
    step(&format!("the web app is in {}", bundle.display()));
    Ok(())
}

/// Builds the web app with trunk in `work` (emptied first) from empty `reports/` and
/// `results/`; its files as (name in the app, path): the template `index.html` first.
pub fn build_app(
    root: &Path,
    toolbox: &Toolbox,
    work: &Path,
    profile: Profile,
) -> Result<Vec<(String, PathBuf)>> {
    if work.exists() {
        std::fs::remove_dir_all(work)
            .with_context(|| format!("cannot remove `{}`", work.display()))?;
    }
    let (reports, results) = (work.join("empty/reports"), work.join("empty/results"));
    for dir in [&reports, &results] {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create `{}`", dir.display()))?;
    }
    let staging = work.join("site");
    let template = work.join("index.html");
    trunk::build_variant(
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
            profile,
            ..Variant::default()
        },
    )?;
    let mut files = vec![("index.html".to_string(), template)];
    let entries = std::fs::read_dir(&staging)
        .with_context(|| format!("cannot read `{}`", staging.display()))?;
    for entry in entries {
        let path = entry
            .with_context(|| format!("cannot read `{}`", staging.display()))?
            .path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        // The hooks' pages (home, 404) are written again by every `benchdeck build`.
        if path.is_file() && name != "index.html" && name != "404.html" {
            files.push((name.into_owned(), path));
        }
    }
    Ok(files)
}

/// Replaces the folder `dir` by one holding `files` (name, source).
pub fn write_app(dir: &Path, files: &[(String, PathBuf)]) -> Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)
            .with_context(|| format!("cannot remove `{}`", dir.display()))?;
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create `{}`", dir.display()))?;
    for (name, path) in files {
        copy(path, &dir.join(name))?;
    }
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
    if !cli_source.contains(&format!("\"{}\"", APP_DIR_VAR)) {
        bail!("xtask's APP_DIR_VAR and cli/src/bundle.rs's APP_DIR_VAR differ");
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

fn copy(from: &Path, to: &Path) -> Result<()> {
    std::fs::copy(from, to)
        .with_context(|| format!("cannot copy `{}` to `{}`", from.display(), to.display()))?;
    Ok(())
}
