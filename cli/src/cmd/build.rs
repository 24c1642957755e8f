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

use anyhow::{bail, Result};

mod cache;
mod kept;
mod options;
mod replace;
mod session;
mod stopped;

pub(crate) use options::Options;
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

/// Builds the site of `root` into `out` (see the module documentation), from and into the
/// project's build cache ([`cache`]).
pub(crate) fn build(root: &Path, out: &Path, options: &Options) -> Result<ExitCode> {
    Session::cached(root).build(root, out, options)
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

#[cfg(test)]
mod tests;
