//! `benchdeck serve`: build the project's site, serve it at `http://127.0.0.1:PORT/` and build
//! it again whenever a file in `reports/` or `results/` changes; open pages then reload by
//! themselves, where the reader was ([`reload`]). Errors in reports are shown on their pages
//! instead of stopping the server.
//!
//! Only this machine's browser is answered: a request whose `Host` is not `127.0.0.1:PORT`,
//! `localhost:PORT` or `[::1]:PORT` is refused (a page elsewhere that rebinds its own name to
//! 127.0.0.1 would otherwise read what is served), and a URL's path is decoded by
//! [`benchdeck_core::site::served_file`], which refuses any segment that could leave the site.
//! Text files are sent as `text/plain` and nothing is left to the browser's sniffing.
//!
//! A rebuild writes only what changed ([`Session`]) and no chart's PNG: a PNG is rasterised from
//! its SVG when the browser first asks for it ([`Server::png`]), so a save shows in the open page
//! within a second.

mod reload;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};
use benchdeck_core::printable::printable;

use super::build::{Options, Session};
use super::site::{png::Rasterizer, PNG_WIDTH};
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
    /// Publish result files that hold what looks like a secret (a token, a key) all the same.
    #[arg(long)]
    publish_secrets: bool,
}

/// How often the folders are looked at for changes.
const POLL: Duration = Duration::from_millis(100);

/// Runs `serve`: never returns unless the first build or the server fails.
pub fn execute(args: &Args) -> Result<ExitCode> {
    let out = args.root.join("dist");
    let options = Options {
        public_url: "/".to_string(),
        keep_going: true,
        publish_secrets: args.publish_secrets,
        pngs_on_request: true,
        ..Options::default()
    };
    let mut session = Session::keeping();
    session.build(&args.root, &out, &options)?;
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
    let builds = Arc::new(reload::Builds::started_now());
    let site = Server {
        root: out.clone(),
        port: args.port,
        builds: Arc::clone(&builds),
        rasterizer: OnceLock::new(),
    };
    std::thread::spawn(move || {
        for request in server.incoming_requests() {
            site.answer(request);
        }
    });
    let folders = [args.root.join("reports"), args.root.join("results")];
    let mut seen = files::fingerprint(&folders);
    loop {
        std::thread::sleep(POLL);
        let now = files::fingerprint(&folders);
        if now != seen {
            seen = now;
            eprintln!("benchdeck: a file changed; building again");
            let start = Instant::now();
            match session.build(&args.root, &out, &options) {
                Ok(_) => eprintln!(
                    "benchdeck: built in {:.2} s; open pages reload",
                    start.elapsed().as_secs_f64()
                ),
                Err(error) => eprintln!("error: {}", printable(&format!("{error:#}"))),
            }
            builds.ended();
        }
    }
}

/// What answers the browser: the site in `root`, served at `port`, the `builds` that
/// open pages wait on, and the rasteriser of the charts' PNGs (loaded when first needed).
struct Server {
    root: PathBuf,
    port: u16,
    builds: Arc<reload::Builds>,
    rasterizer: OnceLock<Result<Rasterizer, String>>,
}

impl Server {
    /// Answers one request: a refusal when its `Host` is not this machine's; the next build's
    /// name for a page waiting for it (on a thread of its own, as it waits); the reload
    /// script; else the site's file.
    fn answer(&self, request: tiny_http::Request) {
        let host = request
            .headers()
            .iter()
            .find(|h| h.field.equiv("Host"))
            .map(|h| h.value.as_str().to_string());
        let path = request.url().split('?').next().unwrap_or("").to_string();
        let response = if !is_local_host(host.as_deref(), self.port) {
            refuse_host(host.as_deref())
        } else if path == reload::CHANGES_PATH {
            let builds = Arc::clone(&self.builds);
            std::thread::spawn(move || {
                let latest = builds.after(reload::seen(request.url()), None);
                let response = text_response(200, latest.into_bytes(), "text/plain")
                    .with_header(header("Cache-Control", "no-store"));
                let _ = request.respond(response);
            });
            return;
        } else if path == reload::SCRIPT_PATH {
            text_response(200, reload::SCRIPT.into(), "text/javascript")
        } else {
            self.png(request.url())
                .unwrap_or_else(|| respond(&self.root, request.url()))
        };
        // A reader who closed the tab is no error of ours.
        let _ = request.respond(response);
    }
}

impl Server {
    /// The PNG of a chart that the build left to be made when asked for: the chart's SVG beside
    /// it (`charts/<slug>/<id>.svg`) rasterised as `benchdeck site` does, kept for the next
    /// request. `None` when `url` asks for anything else, or for a PNG that is there.
    fn png(&self, url: &str) -> Option<Response> {
        let relative = site_path(url)?;
        let is_chart =
            relative.starts_with("charts") && relative.extension().is_some_and(|e| e == "png");
        let path = self.root.join(&relative);
        if !is_chart || path.is_file() {
            return None;
        }
        let svg = std::fs::read_to_string(path.with_extension("svg")).ok()?;
        let rasterizer = self
            .rasterizer
            .get_or_init(|| Rasterizer::new().map_err(|e| format!("{e:#}")));
        let what = format!("`{}`", relative.display());
        let png = rasterizer
            .as_ref()
            .map_err(String::clone)
            .and_then(|r| r.png(&svg, PNG_WIDTH, &what).map_err(|e| format!("{e:#}")));
        Some(match png {
            Ok(png) => {
                // Kept for the next request; a rebuild that removed the folder meanwhile only
                // means it is made again.
                let _ = std::fs::write(&path, &png);
                text_response(200, png, "image/png")
            }
            Err(error) => {
                eprintln!("error: {}", printable(&error));
                text_response(500, error.into_bytes(), "text/plain; charset=utf-8")
            }
        })
    }
}

/// True when `host` (a request's `Host` header) names this machine at `port`, as the address
/// printed by `serve` or its equivalents: `127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`.
fn is_local_host(host: Option<&str>, port: u16) -> bool {
    let Some(host) = host else { return false };
    let host = host.trim().to_ascii_lowercase();
    ["127.0.0.1", "localhost", "[::1]"]
        .iter()
        .any(|name| host == format!("{name}:{port}"))
}

/// The answer to a request for another host: 403, saying which hosts are answered.
fn refuse_host(host: Option<&str>) -> Response {
    let text = format!(
        "benchdeck serve answers requests for 127.0.0.1, localhost and [::1] at its port only, \
         not for host `{}`\n",
        host.unwrap_or("(none)")
    );
    text_response(403, text.into_bytes(), "text/plain; charset=utf-8")
}

/// What `serve` answers with.
type Response = tiny_http::Response<std::io::Cursor<Vec<u8>>>;

/// The file a URL asks for: `/a/` is `a/index.html`; a missing file is `404.html`, status 404.
fn respond(site: &Path, url: &str) -> Response {
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
    let kind = content_type(&path);
    // Every page sent reloads itself when the site is built again.
    let bytes = if kind.starts_with("text/html") {
        reload::with_script(&bytes)
    } else {
        bytes
    };
    text_response(status, bytes, kind)
}

/// A response of `bytes` as `kind`, which the browser may not sniff into another type.
fn text_response(status: u16, bytes: Vec<u8>, kind: &str) -> Response {
    tiny_http::Response::from_data(bytes)
        .with_status_code(status)
        .with_header(header("Content-Type", kind))
        .with_header(header("X-Content-Type-Options", "nosniff"))
}

/// A response header; `name` and `value` are this module's constants.
fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name, value).expect("a valid header")
}

/// The path below the site that `url` names ([`benchdeck_core::site::served_file`]).
fn site_path(url: &str) -> Option<PathBuf> {
    benchdeck_core::site::served_file(url).map(|segments| segments.iter().collect())
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
        // Published result files that are text: shown as text, never run.
        Some("txt" | "log" | "md" | "yaml" | "yml" | "jsonl" | "prom") => {
            "text/plain; charset=utf-8"
        }
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
        assert_eq!(site_path("/C:/Windows/win.ini"), None);
        assert_eq!(site_path("/results/c%3A%5Cx"), None);
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

    #[test]
    fn a_charts_png_is_made_from_its_svg_when_first_asked_for() {
        let dir = tempfile::tempdir().unwrap();
        let charts = dir.path().join("charts/r");
        std::fs::create_dir_all(&charts).unwrap();
        std::fs::write(
            charts.join("c.svg"),
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"960\" height=\"480\">\
             <rect width=\"960\" height=\"480\" fill=\"#fff\"/></svg>",
        )
        .unwrap();
        let site = Server {
            root: dir.path().to_path_buf(),
            port: 8080,
            builds: Arc::new(reload::Builds::new("test")),
            rasterizer: OnceLock::new(),
        };
        let made = site.png("/charts/r/c.png").expect("made from the SVG");
        assert_eq!(made.status_code().0, 200);
        let png = std::fs::read(charts.join("c.png")).expect("kept for the next request");
        assert_eq!(super::super::site::png::png_size(&png), Some((1200, 600)));
        // Once there, it is served as any file; nothing else is made.
        assert!(site.png("/charts/r/c.png").is_none());
        assert!(site.png("/charts/r/none.png").is_none());
        assert!(site.png("/r/c.png").is_none());
    }

    #[test]
    fn text_files_are_plain_text() {
        for name in ["a.txt", "a.log", "a.md", "a.yaml", "a.jsonl"] {
            assert_eq!(
                content_type(Path::new(name)),
                "text/plain; charset=utf-8",
                "{name}"
            );
        }
    }

    /// One request to a running server, with `host` as its `Host` header: the status line.
    fn status_for_host(port: u16, host: &str) -> String {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        write!(
            stream,
            "GET /r/ HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer.lines().next().unwrap_or_default().to_string()
    }

    #[test]
    fn only_this_machines_names_at_its_port_are_answered() {
        assert!(is_local_host(Some("127.0.0.1:8080"), 8080));
        assert!(is_local_host(Some("LocalHost:8080"), 8080));
        assert!(is_local_host(Some("[::1]:8080"), 8080));
        for forged in [
            None,
            Some("evil.example:8080"),
            Some("127.0.0.1"),
            Some("127.0.0.1:9090"),
            Some("localhost.evil.example:8080"),
        ] {
            assert!(!is_local_host(forged, 8080), "{forged:?}");
        }
    }

    #[test]
    fn a_forged_host_is_refused_by_the_running_server() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("r")).unwrap();
        std::fs::write(dir.path().join("r/index.html"), "report").unwrap();
        let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
        let port = server.server_addr().to_ip().unwrap().port();
        let site = Server {
            root: dir.path().to_path_buf(),
            port,
            builds: Arc::new(reload::Builds::new("test")),
            rasterizer: OnceLock::new(),
        };
        std::thread::spawn(move || {
            for request in server.incoming_requests().take(2) {
                site.answer(request);
            }
        });
        assert!(status_for_host(port, "attacker.example").contains(" 403"));
        assert!(status_for_host(port, &format!("localhost:{port}")).contains(" 200"));
    }
}
