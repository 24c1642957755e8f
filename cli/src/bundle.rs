//! The prebuilt web app inside the binary (see `build.rs`): the app's and the worker's wasm and
//! JavaScript, the stylesheet, the icon, and trunk's `index.html` that every page starts from.
//! `cargo xtask dist` builds it with [`PUBLIC_URL_PLACEHOLDER`] as trunk's public URL, and
//! [`write`] puts the site's real one in its place.

use std::path::Path;

use anyhow::{bail, Context, Result};

include!(concat!(env!("OUT_DIR"), "/bundle.rs"));

/// The public URL the bundle is built with, replaced in every text file when it is written.
pub const PUBLIC_URL_PLACEHOLDER: &str = "/benchdeck-public-url-placeholder/";

/// True when `files` hold the app's page template.
fn carries_app(files: &[(&str, &[u8])]) -> bool {
    files.iter().any(|(path, _)| *path == "index.html")
}

/// The web app's files: the bundle's, or in the tests of a binary built without one (as
/// `cargo xtask test` builds it), [`TEST_APP`], so that building a site is tested either way.
fn files() -> &'static [(&'static str, &'static [u8])] {
    if cfg!(test) && !carries_app(FILES) {
        TEST_APP
    } else {
        FILES
    }
}

/// The smallest app a site can be built with: trunk's page template with its loader, no wasm.
const TEST_APP: &[(&str, &[u8])] = &[(
    "index.html",
    b"<!doctype html>\n<html lang=\"en\">\n  <head>\n    <meta charset=\"utf-8\">\n    \
      <base href=\"/benchdeck-public-url-placeholder/\">\n    <!-- benchdeck:head -->\n  \
      </head>\n  <body>\n    <div id=\"app\"></div>\n<script type=\"module\">\nimport init, * \
      as bindings from '/benchdeck-public-url-placeholder/app.js';\nconst wasm = await init({ \
      module_or_path: '/benchdeck-public-url-placeholder/app_bg.wasm' });\n</script></body>\n\
      </html>\n",
)];

/// Writes the web app into `dist`, served under `public_url` (`/` or `/repo/`).
pub fn write(dist: &Path, public_url: &str) -> Result<()> {
    write_files(dist, public_url, files())
}

/// Writes `files`, the web app, into `dist`, served under `public_url`.
fn write_files(dist: &Path, public_url: &str, files: &[(&str, &[u8])]) -> Result<()> {
    if !carries_app(files) {
        bail!(
            "this benchdeck was compiled without the web app, so it cannot build a site; install a \
             packaged release (`cargo install benchdeck`), or in a checkout of benchdeck run \
             `cargo xtask dist` before compiling it, or build with `cargo xtask build`"
        );
    }
    for (path, bytes) in files {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_without_the_app_says_how_to_get_one() {
        let dir = tempfile::tempdir().unwrap();
        let error = write_files(dir.path(), "/", &[]).unwrap_err().to_string();
        assert!(error.contains("cargo xtask dist"), "{error}");
    }

    #[test]
    fn the_public_url_replaces_the_placeholder() {
        let dir = tempfile::tempdir().unwrap();
        write_files(dir.path(), "/repo/", TEST_APP).unwrap();
        let page = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
        assert!(page.contains("<base href=\"/repo/\">"), "{page}");
        assert!(!page.contains(PUBLIC_URL_PLACEHOLDER));
    }
}
