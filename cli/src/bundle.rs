//! The prebuilt web app inside the binary (see `build.rs`): the app's and the worker's wasm and
//! JavaScript, the stylesheet, the icon, and trunk's `index.html` that every page starts from.
//! `cargo xtask dist` builds it with [`PUBLIC_URL_PLACEHOLDER`] as trunk's public URL, and
//! [`write`] puts the site's real one in its place.

use std::path::Path;

use anyhow::{bail, Context, Result};

include!(concat!(env!("OUT_DIR"), "/bundle.rs"));

/// The public URL the bundle is built with, replaced in every text file when it is written.
pub const PUBLIC_URL_PLACEHOLDER: &str = "/benchdeck-public-url-placeholder/";

/// True when this binary carries the web app.
pub fn present() -> bool {
    FILES.iter().any(|(path, _)| *path == "index.html")
}

/// Writes the web app into `dist`, served under `public_url` (`/` or `/repo/`).
pub fn write(dist: &Path, public_url: &str) -> Result<()> {
    if !present() {
        bail!(
            "this benchdeck was compiled without the web app, so it cannot build a site; install a \
             packaged release (`cargo install benchdeck`), or in a checkout of benchdeck run \
             `cargo xtask dist` before compiling it, or build with `cargo xtask build`"
        );
    }
    for (path, bytes) in FILES {
        let target = dist.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create `{}`", parent.display()))?;
        }
        let bytes = if is_text(path) {
            let text = std::str::from_utf8(bytes)
                .with_context(|| format!("the bundled `{path}` is not UTF-8"))?;
            text.replace(PUBLIC_URL_PLACEHOLDER, public_url)
                .into_bytes()
        } else {
            bytes.to_vec()
        };
        std::fs::write(&target, bytes)
            .with_context(|| format!("cannot write `{}`", target.display()))?;
    }
    Ok(())
}

/// Files that may name the public URL: HTML, JavaScript and CSS.
fn is_text(path: &str) -> bool {
    [".html", ".js", ".css"]
        .iter()
        .any(|ext| path.ends_with(ext))
}
