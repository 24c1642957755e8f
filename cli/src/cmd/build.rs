//! `benchdeck build`: the whole site from a project folder's `reports/` and `results/`, the same
//! `dist/` that `cargo xtask build` writes, with the web app this binary carries
//! ([`crate::bundle`]) instead of trunk.
//!
//! The site is written to a fresh folder beside `--out` and swapped in only when it is
//! complete, so a failed build never leaves a half site over a good one; an `--out` that holds
//! something other than a site benchdeck built is never replaced.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use super::{pages, site};
use crate::bundle;

/// Arguments of `build`.
#[derive(clap::Args)]
pub struct Args {
    /// The project folder, holding `reports/` and `results/`.
    #[arg(long, default_value = ".")]
    pub(crate) root: PathBuf,
    /// Where the site goes (default: `dist/` in the project folder).
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// The path the site is served under, such as `/repo/` on GitHub Pages (default: the path
    /// of `--site-url`, else `/`).
    #[arg(long)]
    pub(crate) public_url: Option<String>,
    /// The site's public address, such as `https://user.github.io/repo/`: absolute link-preview
    /// URLs, canonical links, a sitemap and a feed.
    #[arg(long)]
    pub(crate) site_url: Option<String>,
}

/// Runs `build`.
pub fn execute(args: &Args) -> Result<ExitCode> {
    let out = args.out.clone().unwrap_or_else(|| args.root.join("dist"));
    let public_url = public_url(args.public_url.as_deref(), args.site_url.as_deref())?;
    build(&args.root, &out, &public_url, args.site_url.clone(), false)
}

/// Builds the site of `root` into `out`, served under `public_url`. `keep_going` writes it even
/// when a report has errors (shown on its page), as `serve` does.
pub(crate) fn build(
    root: &Path,
    out: &Path,
    public_url: &str,
    site_url: Option<String>,
    keep_going: bool,
) -> Result<ExitCode> {
    if !root.is_dir() {
        bail!(
            "`{}` is not a folder; expected a project folder with `reports/` and `results/` \
             (`benchdeck init` makes one)",
            root.display()
        );
    }
    let (reports, results) = (root.join("reports"), root.join("results"));
    if !reports.is_dir() && !results.is_dir() {
        bail!(
            "`{}` has neither `reports/` nor `results/`; put result files in `{}` (or run \
             `benchdeck init`)",
            root.display(),
            results.display()
        );
    }
    check_replaceable(out)?;
    let staging = staging_folder(out)?;
    let written = write_site(&staging, reports, results, public_url, site_url, keep_going);
    match written {
        Ok(ExitCode::SUCCESS) => {
            swap_in(&staging, out)?;
            eprintln!("benchdeck: the site is in {}", out.display());
            Ok(ExitCode::SUCCESS)
        }
        other => {
            let _ = std::fs::remove_dir_all(&staging);
            eprintln!(
                "benchdeck: the site was not written; {} is unchanged",
                out.display()
            );
            other
        }
    }
}

/// The app, the data and every page, in `staging`.
fn write_site(
    staging: &Path,
    reports: PathBuf,
    results: PathBuf,
    public_url: &str,
    site_url: Option<String>,
    keep_going: bool,
) -> Result<ExitCode> {
    bundle::write(staging, public_url)?;
    let data = site::execute(&site::Args {
        reports,
        results,
        out: staging.to_path_buf(),
        keep_going,
    })?;
    if data != ExitCode::SUCCESS {
        return Ok(data);
    }
    pages::execute(&pages::Args {
        dist: staging.to_path_buf(),
        site_url,
        public_url: public_url.to_string(),
        dev: false,
        bench_page: false,
        save_template: None,
    })
}

/// The public URL: the one given, else the path of the site URL, else `/`; always with
/// slashes at both ends.
fn public_url(given: Option<&str>, site_url: Option<&str>) -> Result<String> {
    let from_site = site_url.map(|url| {
        let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
        rest.find('/').map_or("/", |i| &rest[i..]).to_string()
    });
    let url = match (given, from_site) {
        (Some(given), Some(site)) if given.trim_end_matches('/') != site.trim_end_matches('/') => {
            bail!(
                "--public-url `{given}` and the path of --site-url `{site}` differ; give one, \
                 or make them agree"
            )
        }
        (Some(given), _) => given.to_string(),
        (None, Some(site)) => site,
        (None, None) => "/".to_string(),
    };
    let url = url.trim();
    let url = if url.starts_with('/') {
        url.to_string()
    } else {
        format!("/{url}")
    };
    Ok(if url.ends_with('/') {
        url
    } else {
        format!("{url}/")
    })
}

/// An `--out` may be replaced when it does not exist, is empty, or holds a site benchdeck built.
fn check_replaceable(out: &Path) -> Result<()> {
    if !out.exists() {
        return Ok(());
    }
    let empty = std::fs::read_dir(out)
        .with_context(|| format!("cannot read `{}`", out.display()))?
        .next()
        .is_none();
    let a_site =
        out.join("index.html").is_file() && out.join(benchdeck_core::site::INDEX_PATH).is_file();
    if empty || a_site {
        Ok(())
    } else {
        bail!(
            "`{}` exists and is not a site benchdeck built; choose another --out or remove it",
            out.display()
        )
    }
}

/// A new, empty folder beside `out` (so the swap is a rename on one file system).
fn staging_folder(out: &Path) -> Result<PathBuf> {
    let name = out
        .file_name()
        .map_or_else(|| "dist".into(), |n| n.to_string_lossy().into_owned());
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)
        .with_context(|| format!("cannot create `{}`", parent.display()))?;
    let staging = parent.join(format!(".{name}.building-{}", std::process::id()));
    if staging.exists() {
        std::fs::remove_dir_all(&staging)
            .with_context(|| format!("cannot remove `{}`", staging.display()))?;
    }
    std::fs::create_dir(&staging)
        .with_context(|| format!("cannot create `{}`", staging.display()))?;
    Ok(staging)
}

/// Replaces `out` by `staging`: the old site is moved aside first and removed last.
fn swap_in(staging: &Path, out: &Path) -> Result<()> {
    let old = staging.with_extension("old");
    if out.exists() {
        std::fs::rename(out, &old)
            .with_context(|| format!("cannot move the old `{}` aside", out.display()))?;
    }
    std::fs::rename(staging, out)
        .with_context(|| format!("cannot move the new site to `{}`", out.display()))?;
    if old.exists() {
        std::fs::remove_dir_all(&old)
            .with_context(|| format!("cannot remove the old site in `{}`", old.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
