//! The prebuilt web app inside the binary (see `build.rs`): the app's and the worker's wasm and
//! JavaScript, the stylesheet, the icon, and trunk's `index.html` that every page starts from.
//! `cargo xtask dist` builds it with [`PUBLIC_URL_PLACEHOLDER`] as trunk's public URL, and
//! [`write`] puts the site's real one in its place.
//!
//! For benchdeck's own developers, a debug build of benchdeck writes the app in the folder that
//! [`APP_DIR_VAR`] names instead, read at each whole build (a `serve` reads it when it starts):
//! `cargo xtask serve` builds the app there quickly, without `--release`, and starts the server
//! again when it changed, so benchdeck need not be compiled again for the app's sake. A release
//! build ignores the variable.

use std::path::Path;

use anyhow::{bail, Context, Result};

include!(concat!(env!("OUT_DIR"), "/bundle.rs"));

/// The public URL the bundle is built with, replaced in every text file when it is written.
pub const PUBLIC_URL_PLACEHOLDER: &str = "/benchdeck-public-url-placeholder/";

/// The environment variable naming a folder whose app is written instead of the bundled one.
pub const APP_DIR_VAR: &str = "BENCHDECK_APP_DIR";

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

/// Writes the web app into `dist`, served under `public_url` (`/` or `/repo/`): the bundled
/// one, or the one in the folder [`APP_DIR_VAR`] names.
pub fn write(dist: &Path, public_url: &str) -> Result<()> {
    let Some(dir) = std::env::var_os(APP_DIR_VAR).filter(|_| cfg!(debug_assertions)) else {
        return write_files(dist, public_url, files());
    };
    let dir = Path::new(&dir);
    let owned = read_app_dir(dir).with_context(|| {
        format!(
            "cannot read the app in `{}`, which {APP_DIR_VAR} names",
            dir.display()
        )
    })?;
    if !owned.iter().any(|(name, _)| name == "index.html") {
        bail!(
            "`{}`, which {APP_DIR_VAR} names, holds no app: its `index.html` is missing",
            dir.display()
        );
    }
    let files: Vec<(&str, &[u8])> = owned
        .iter()
        .map(|(path, bytes)| (path.as_str(), bytes.as_slice()))
        .collect();
    write_files(dist, public_url, &files)
}

/// The files directly in `dir` (the app's are all at its top), as (name, contents).
fn read_app_dir(dir: &Path) -> Result<Vec<(String, Vec<u8>)>> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read `{}`", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry
            .with_context(|| format!("cannot read `{}`", dir.display()))?
            .path();
        if !path.is_file() {
            continue;
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let bytes =
            std::fs::read(&path).with_context(|| format!("cannot read `{}`", path.display()))?;
        files.push((name, bytes));
    }
    Ok(files)
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
    fn an_app_folder_is_read_as_the_bundle_is() {
        let app = tempfile::tempdir().unwrap();
        let (name, template) = TEST_APP[0];
        std::fs::write(app.path().join(name), template).unwrap();
        std::fs::write(app.path().join("app_bg.wasm"), [0u8, 97, 115, 109]).unwrap();
        let files = read_app_dir(app.path()).unwrap();
        assert_eq!(files.len(), 2);
        let files: Vec<(&str, &[u8])> = files
            .iter()
            .map(|(p, b)| (p.as_str(), b.as_slice()))
            .collect();
        let site = tempfile::tempdir().unwrap();
        write_files(site.path(), "/", &files).unwrap();
        assert!(std::fs::read_to_string(site.path().join("index.html"))
            .unwrap()
            .contains("<base href=\"/\">"));
        assert_eq!(
            std::fs::read(site.path().join("app_bg.wasm")).unwrap(),
            [0, 97, 115, 109]
        );
        let missing = read_app_dir(&app.path().join("none")).unwrap_err();
        assert!(format!("{missing:#}").contains("none"), "{missing:#}");
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
