//! What the benchmarks share ([`crate::bench`] and [`crate::scale::measure`]): a static file
//! server on loopback, the page-load script's result, and a description of the machine.

use std::path::Path;
use std::process::{Child, Command, Stdio};

use anyhow::{bail, Context, Result};

use crate::run;

/// One page-load measurement, as `page-load.cjs` prints it.
#[derive(Debug, serde::Deserialize)]
pub struct PageLoad {
    /// Median time to the readiness condition, ms.
    pub median_ms: f64,
    /// Every run's time, ms.
    pub ready_ms: Vec<f64>,
    /// Bytes transferred on the first load.
    pub bytes: u64,
    /// The same bytes as gzip -9 would send them.
    pub gzip_bytes: u64,
    /// Requests on the first load.
    pub requests: u64,
}

/// The machine, as the report names it: cores and CPU model.
pub fn machine() -> String {
    let cores = run::output(&mut Command::new("nproc"))
        .unwrap_or_default()
        .trim()
        .to_string();
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string());
    format!("{cores} cores, {cpu}")
}

/// A static file server on loopback for the length of the benchmark, on a port that was free
/// (a fixed port could be held by a server left over from another run, which would then be
/// measured instead without a word).
pub struct Server {
    child: Child,
    port: u16,
}

impl Server {
    /// Serves `dir` on a free loopback port until dropped.
    pub fn start(dir: &Path) -> Result<Server> {
        let port = std::net::TcpListener::bind(("127.0.0.1", 0))
            .and_then(|l| l.local_addr())
            .context("cannot find a free port on 127.0.0.1")?
            .port();
        let child = Command::new("python3")
            .args(["-m", "http.server", "--bind", "127.0.0.1"])
            .arg(port.to_string())
            .arg("--directory")
            .arg(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot start `python3 -m http.server`")?;
        let mut server = Server { child, port };
        // Wait until it answers (or has exited: the port was taken in the meantime).
        for _ in 0..100 {
            if let Ok(Some(status)) = server.child.try_wait() {
                bail!("`python3 -m http.server {port}` exited at once ({status})");
            }
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Ok(server);
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let _ = server.child.kill();
        bail!("`python3 -m http.server {port}` did not answer within 10 seconds")
    }

    /// `http://127.0.0.1:<port>/<path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}/{path}", self.port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
