//! `benchdeck build`: the whole site from a project folder's `reports/` and `results/`, the same
//! `dist/` that `cargo xtask build` writes, with the web app this binary carries
//! ([`crate::bundle`]) instead of trunk.
//!
//! The site is written to a fresh folder beside `--out` and swapped in only when it is
//! complete, so a failed build never leaves a half site over a good one; an `--out` that holds
//! something other than a site benchdeck built is never replaced. An `--out` that is a symbolic
//! link is followed: the site replaces the folder it leads to, and the link stays. When the new
//! site cannot be moved in, the old one is moved back.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

mod session;

pub(crate) use session::Session;

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
    /// Publish result files that hold what looks like a secret (a token, a key) all the same;
    /// without it they are listed as not published, with the line.
    #[arg(long)]
    pub(crate) publish_secrets: bool,
}

/// How a site is built.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Options {
    /// The path the site is served under, with slashes at both ends.
    pub public_url: String,
    /// The site's public address, when known.
    pub site_url: Option<String>,
    /// Write the site even when a report has errors (shown on its page), as `serve` does.
    pub keep_going: bool,
    /// Publish result files that hold what looks like a secret.
    pub publish_secrets: bool,
    /// Leave the charts' PNGs to whoever serves the site (`serve` makes one when asked).
    pub pngs_on_request: bool,
}

/// Runs `build`.
pub fn execute(args: &Args) -> Result<ExitCode> {
    let out = args.out.clone().unwrap_or_else(|| args.root.join("dist"));
    let options = Options {
        public_url: public_url(args.public_url.as_deref(), args.site_url.as_deref())?,
        site_url: args.site_url.clone(),
        keep_going: false,
        publish_secrets: args.publish_secrets,
        pngs_on_request: false,
    };
    build(&args.root, &out, &options)
}

/// Builds the site of `root` into `out` (see the module documentation).
pub(crate) fn build(root: &Path, out: &Path, options: &Options) -> Result<ExitCode> {
    Session::default().build(root, out, options)
}

/// Fails unless `root` is a project folder: a folder with `reports/` or `results/`.
fn check_project(root: &Path) -> Result<()> {
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
    Ok(())
}

/// Writes a whole site with `write` into a staging folder beside `out` and swaps it in when
/// `write` succeeds; else `out` is left as it was.
fn replace_site(out: &Path, write: impl FnOnce(&Path) -> Result<ExitCode>) -> Result<ExitCode> {
    let out = &followed(out)?;
    check_replaceable(out)?;
    let staging = staging_folder(out)?;
    match write(&staging) {
        Ok(ExitCode::SUCCESS) => {
            if let Err(error) = swap_in(&staging, out, |from, to| std::fs::rename(from, to)) {
                let _ = std::fs::remove_dir_all(&staging);
                return Err(error);
            }
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

/// `out`, or the folder it leads to when it is a symbolic link (the site replaces that folder, and
/// the link stays); a link that leads nowhere is an error.
fn followed(out: &Path) -> Result<PathBuf> {
    let is_link = std::fs::symlink_metadata(out).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return Ok(out.to_path_buf());
    }
    std::fs::canonicalize(out).with_context(|| {
        format!(
            "`{}` is a symbolic link that leads nowhere; point it at a folder, or remove it",
            out.display()
        )
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

/// Replaces `out` by `staging` with `rename`: the old site is moved aside first and removed
/// last; when the new site cannot be moved in, the old one is moved back. An old site left aside
/// by a build that stopped between the two moves is put back first, never deleted.
fn swap_in(
    staging: &Path,
    out: &Path,
    rename: impl Fn(&Path, &Path) -> std::io::Result<()>,
) -> Result<()> {
    let old = staging.with_extension("old");
    if old.exists() {
        if out.exists() {
            std::fs::remove_dir_all(&old)
                .with_context(|| format!("cannot remove the old site in `{}`", old.display()))?;
        } else {
            rename(&old, out).with_context(|| {
                format!(
                    "the site of an interrupted build is in `{}`; cannot move it back to `{}`",
                    old.display(),
                    out.display()
                )
            })?;
        }
    }
    if out.exists() {
        rename(out, &old)
            .with_context(|| format!("cannot move the old `{}` aside", out.display()))?;
    }
    if let Err(error) = rename(staging, out) {
        let restored = !old.exists() || rename(&old, out).is_ok();
        let old_site = if restored {
            "the old site is back in place".to_string()
        } else {
            format!("the old site is in `{}`", old.display())
        };
        return Err(anyhow::Error::new(error).context(format!(
            "cannot move the new site to `{}`; {old_site}",
            out.display()
        )));
    }
    if old.exists() {
        std::fs::remove_dir_all(&old)
            .with_context(|| format!("cannot remove the old site in `{}`", old.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
