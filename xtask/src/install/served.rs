//! `benchdeck serve` of the installed binary: the project's pages answer over HTTP (an
//! automatic page, the 404 page for a missing one), a folder of results added while it runs
//! gets its page without a restart, and a report saved while its page is open in headless
//! Chromium reloads that page by itself (`tests/e2e/live-reload.mjs`).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::run::step;

/// How long the first build, and the build after a change, may take.
const PATIENCE: Duration = Duration::from_secs(120);

/// Starts `benchdeck serve --root project` (from `benchdeck`, the installed binary with its
/// `PATH`), checks it, and stops it.
pub fn check(
    benchdeck: &mut Command,
    node: &mut Command,
    project: &Path,
    added: &Path,
) -> Result<()> {
    let port = free_port()?;
    step(&format!(
        "benchdeck serve at http://127.0.0.1:{port}/: its pages, and a folder of results added"
    ));
    let mut server = benchdeck
        .args(["serve", "--root"])
        .arg(project)
        .args(["--port", &port.to_string()])
        .spawn()
        .context("cannot start the installed `benchdeck serve`")?;
    let checked = pages(&mut server, port, project, added).and_then(|()| {
        step("live reload: a report saved while its page is open in headless Chromium");
        node.args(["--test", "--test-reporter=spec", "live-reload.mjs"])
            .env("BENCHDECK_SERVE_URL", format!("http://127.0.0.1:{port}/"))
            .env("BENCHDECK_PROJECT", project);
        crate::run::status(node)
    });
    // Ours, started above: stopped whatever the checks found.
    let _ = server.kill();
    let _ = server.wait();
    checked
}

fn pages(server: &mut Child, port: u16, project: &Path, added: &Path) -> Result<()> {
    let home = wait_for(server, port, "/")?;
    if !home.contains("About these benchmarks") {
        bail!("`benchdeck serve`'s home page does not list the starter report");
    }
    if wait_for(server, port, "/latency/")?.is_empty() {
        bail!("`benchdeck serve`'s automatic page /latency/ is empty");
    }
    let (status, _) = get(port, "/no-such-page/")?;
    if status != 404 {
        bail!("`benchdeck serve` answered /no-such-page/ with {status}, expected 404");
    }
    let folder = project.join("results/added");
    std::fs::create_dir_all(&folder)?;
    let name = added
        .file_name()
        .context("the added result file has no name")?;
    std::fs::copy(added, folder.join(name))
        .with_context(|| format!("cannot copy `{}`", added.display()))?;
    wait_for(server, port, "/added/").context("the page of a folder added while serving")?;
    Ok(())
}

/// Asks for `path` until it answers 200 (the server builds before it listens, and again after a
/// change); returns the body.
pub(crate) fn wait_for(server: &mut Child, port: u16, path: &str) -> Result<String> {
    wait_until_served(|| server.try_wait(), port, path)
}

/// [`wait_for`] a server that `exited` tells about: its exit status once it has stopped.
pub(crate) fn wait_until_served(
    mut exited: impl FnMut() -> std::io::Result<Option<ExitStatus>>,
    port: u16,
    path: &str,
) -> Result<String> {
    let started = Instant::now();
    loop {
        if let Some(status) = exited()? {
            bail!("`benchdeck serve` stopped ({status}) before serving {path}");
        }
        if let Ok((200, body)) = get(port, path) {
            return Ok(body);
        }
        if started.elapsed() > PATIENCE {
            bail!(
                "`benchdeck serve` did not serve {path} within {} s",
                PATIENCE.as_secs()
            );
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// An HTTP/1.0 GET on 127.0.0.1: the status and the body.
fn get(port: u16, path: &str) -> Result<(u16, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    write!(
        stream,
        "GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    )?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response)?;
    let text = String::from_utf8_lossy(&response);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .with_context(|| format!("no HTTP status in the answer to {path}: {head}"))?;
    Ok((status, body.to_string()))
}

/// A port nothing listens on now.
pub(crate) fn free_port() -> Result<u16> {
    let listener =
        TcpListener::bind(("127.0.0.1", 0)).context("cannot find a free port on 127.0.0.1")?;
    Ok(listener.local_addr()?.port())
}
