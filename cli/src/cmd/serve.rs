//! `benchdeck serve`: build the project's site, serve it at `http://127.0.0.1:PORT/` and build
//! it again whenever a file in `reports/` or `results/` changes (a reload shows it). Errors in
//! reports are shown on their pages instead of stopping the server.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use anyhow::{anyhow, Result};

use super::build::build;
use crate::files;

/// Arguments of `serve`.
#[derive(clap::Args)]
pub struct Args {
    /// The project folder, holding `reports/` and `results/`.
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// The port on 127.0.0.1.
    #[arg(long, default_value_t = 8080)]
    port: u16,
}

/// How often the folders are looked at for changes.
const POLL: Duration = Duration::from_millis(500);

/// Runs `serve`: never returns unless the first build or the server fails.
pub fn execute(args: &Args) -> Result<ExitCode> {
    let out = args.root.join("dist");
    build(&args.root, &out, "/", None, true)?;
    let server = tiny_http::Server::http(("127.0.0.1", args.port)).map_err(|e| {
        anyhow!(
            "cannot serve at 127.0.0.1:{}: {e}; is another server using that port? Give \
             another with --port",
            args.port
        )
    })?;
    eprintln!(
        "benchdeck: serving {} at http://127.0.0.1:{}/ (rebuilds when reports/ or results/ \
         change; Ctrl-C stops)",
        out.display(),
        args.port
    );
    let root = out.clone();
    std::thread::spawn(move || {
        for request in server.incoming_requests() {
            let response = respond(&root, request.url());
            // A reader who closed the tab is no error of ours.
            let _ = request.respond(response);
        }
    });
    let mut seen = fingerprint(&args.root);
    loop {
        std::thread::sleep(POLL);
        let now = fingerprint(&args.root);
        if now != seen {
            seen = now;
            eprintln!("benchdeck: a file changed; building again");
            if let Err(error) = build(&args.root, &out, "/", None, true) {
                eprintln!("error: {error:#}");
            }
        }
    }
}

/// Every file below `reports/` and `results/` with its size and modification time.
fn fingerprint(root: &Path) -> Vec<(PathBuf, u64, Option<SystemTime>)> {
    ["reports", "results"]
        .iter()
        .filter_map(|dir| files::collect(&root.join(dir)).ok())
        .flatten()
        .map(|path| {
            let meta = std::fs::metadata(&path).ok();
            let size = meta.as_ref().map_or(0, |m| m.len());
            let modified = meta.and_then(|m| m.modified().ok());
            (path, size, modified)
        })
        .collect()
}

/// The file a URL asks for: `/a/` is `a/index.html`; a missing file is `404.html`, status 404.
fn respond(site: &Path, url: &str) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
    let found = site_path(url)
        .map(|relative| site.join(relative))
        .map(|path| {
            if path.is_dir() {
                path.join("index.html")
            } else {
                path
            }
        })
        .and_then(|path| std::fs::read(&path).ok().map(|bytes| (path, bytes)));
    let (status, path, bytes) = match found {
        Some((path, bytes)) => (200, path, bytes),
        None => {
            let path = site.join("404.html");
            let bytes = std::fs::read(&path).unwrap_or_else(|_| b"not found".to_vec());
            (404, path, bytes)
        }
    };
    let header =
        tiny_http::Header::from_bytes("Content-Type", content_type(&path)).expect("a valid header");
    tiny_http::Response::from_data(bytes)
        .with_status_code(status)
        .with_header(header)
}

/// The path below the site that `url` names, percent-decoded; `None` for one that would leave
/// the site (`..`) or is not UTF-8.
fn site_path(url: &str) -> Option<PathBuf> {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let decoded = percent_decode(path)?;
    let mut out = PathBuf::new();
    for part in decoded.split('/').filter(|p| !p.is_empty() && *p != ".") {
        if part == ".." || part.contains('\\') {
            return None;
        }
        out.push(part);
    }
    Some(out)
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        Some("csv") => "text/csv; charset=utf-8",
        Some("xml") => "application/xml",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_map_into_the_site_and_never_out_of_it() {
        assert_eq!(site_path("/"), Some(PathBuf::new()));
        assert_eq!(
            site_path("/a%20b/c.svg?x=1"),
            Some(PathBuf::from("a b/c.svg"))
        );
        assert_eq!(site_path("/../etc/passwd"), None);
        assert_eq!(site_path("/a/%2e%2e/%2e%2e/x"), None);
        assert_eq!(site_path("/%zz"), None);
    }

    #[test]
    fn missing_files_get_the_sites_404_page() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("404.html"), "gone").unwrap();
        std::fs::create_dir(dir.path().join("r")).unwrap();
        std::fs::write(dir.path().join("r/index.html"), "report").unwrap();
        assert_eq!(respond(dir.path(), "/r/").status_code().0, 200);
        assert_eq!(respond(dir.path(), "/nothing/").status_code().0, 404);
        assert_eq!(respond(dir.path(), "/../x").status_code().0, 404);
    }
}
