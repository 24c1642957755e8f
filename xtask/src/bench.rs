//! `cargo xtask bench`: the page-load comparison against seed 002's Plotly page and the criterion
//! benchmarks, measured in one run on this machine, written to `docs/PERFORMANCE.md`.
//!
//! The page-load script and the Plotly reference page come from `../shared/bench` (material for
//! the team, not part of the product); without it only the criterion benchmarks run.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use anyhow::{bail, Context, Result};

use crate::run::{self, step};
use crate::site::{self, BuildOptions};
use crate::tools::{self, Toolbox};

/// The Plotly build seed 002 was made with.
const PLOTLY: &str = "3.0.1";
/// Cold loads per page; the median is reported.
const RUNS: &str = "5";
/// The report that reproduces seed 002.
const REPORT: &str = "inference-framework-benchmarks";

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

/// Runs everything and writes the report.
pub fn all(root: &Path, toolbox: &Toolbox) -> Result<()> {
    let shared_bench = root.join("..").join("shared").join("bench");
    let mut doc = String::new();
    let _ = writeln!(doc, "# Performance\n");
    let _ = writeln!(
        doc,
        "Written by `cargo xtask bench` on {} ({}). Times on shared machines are noisy: compare \
         the ratios, which are measured in the same run.\n",
        run::output(Command::new("date").arg("-u").arg("+%Y-%m-%d %H:%M UTC"))
            .unwrap_or_default()
            .trim(),
        machine()
    );
    if shared_bench.join("page-load.cjs").is_file() {
        page_loads(root, toolbox, &shared_bench, &mut doc)?;
    } else {
        step("page-load comparison skipped: ../shared/bench is absent");
        let _ = writeln!(
            doc,
            "Page-load comparison skipped: `../shared/bench` was absent.\n"
        );
    }
    criterion(root, &mut doc)?;
    let path = root.join("docs").join("PERFORMANCE.md");
    std::fs::create_dir_all(root.join("docs"))?;
    std::fs::write(&path, doc).with_context(|| format!("cannot write `{}`", path.display()))?;
    step(&format!("wrote {}", path.display()));
    Ok(())
}

fn machine() -> String {
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

fn page_loads(root: &Path, toolbox: &Toolbox, bench: &Path, doc: &mut String) -> Result<()> {
    let work = root.join("target").join("bench");
    let site_dir = work.join("site");
    site::build(
        root,
        toolbox,
        &BuildOptions {
            dist: &site_dir,
            public_url: "/",
        },
    )?;
    let plotly_js = ensure_plotly()?;
    let plotly_page = work.join("plotly-page");
    let seed = root
        .join("..")
        .join("shared")
        .join("seeds")
        .join("002_b815cef7710eda19.txt");
    step("building the Plotly reference page (seed 002)");
    run::status(
        Command::new("python3")
            .arg(bench.join("plotly-baseline.py"))
            .arg(&seed)
            .arg(&plotly_js)
            .arg(&plotly_page),
    )?;
    let _servers = (
        Server::start(&plotly_page, 8766)?,
        Server::start(&site_dir, 8767)?,
    );
    let node_path = root.join("tests").join("e2e").join("node_modules");
    let measure = |url: &str, ready: &str| -> Result<PageLoad> {
        step(&format!("page load: {url}"));
        let out = run::output(
            toolbox
                .command("node")
                .arg(bench.join("page-load.cjs"))
                .args([url, ready, RUNS])
                .env("NODE_PATH", &node_path),
        )?;
        let line = out.lines().last().unwrap_or_default();
        serde_json::from_str(line).with_context(|| format!("page-load printed `{line}`"))
    };
    let plotly = measure(
        "http://127.0.0.1:8766/",
        "document.querySelectorAll('.plotly-graph-div').length === 9 && \
         [...document.querySelectorAll('.plotly-graph-div')].every(d => d.querySelector('.main-svg'))",
    )?;
    let ready = "performance.getEntriesByName('charts-ready').length > 0";
    let report = measure(&format!("http://127.0.0.1:8767/{REPORT}/"), ready)?;
    let home = measure("http://127.0.0.1:8767/", ready)?;

    let charts = std::fs::read_dir(site_dir.join("charts").join(REPORT))
        .map(|d| d.count())
        .unwrap_or(0);
    let _ = writeln!(doc, "## Page load against seed 002's Plotly page\n");
    let _ = writeln!(
        doc,
        "Medians of {RUNS} cold loads each in headless Chromium on loopback (`../shared/bench/page-load.cjs`).\n"
    );
    let _ = writeln!(
        doc,
        "| page | charts | ready, median | every run | bytes | gzip bytes | requests |"
    );
    let _ = writeln!(doc, "|---|---|---|---|---|---|---|");
    for (name, n, p) in [
        ("Plotly reference (seed 002)", "9".to_string(), &plotly),
        ("benchdeck report", charts.to_string(), &report),
        ("benchdeck home", "0".to_string(), &home),
    ] {
        let runs: Vec<String> = p.ready_ms.iter().map(|ms| format!("{ms:.0}")).collect();
        let _ = writeln!(
            doc,
            "| {name} | {n} | {:.0} ms | {} | {} | {} | {} |",
            p.median_ms,
            runs.join(", "),
            p.bytes,
            p.gzip_bytes,
            p.requests
        );
    }
    let _ = writeln!(
        doc,
        "\nThe report is ready **{:.1}x sooner** and transfers **{:.1}%** of the reference's gzip \
         bytes ({:.1}x less).\n",
        plotly.median_ms / report.median_ms.max(1.0),
        100.0 * report.gzip_bytes as f64 / plotly.gzip_bytes.max(1) as f64,
        plotly.gzip_bytes as f64 / report.gzip_bytes.max(1) as f64
    );
    let wasm: Vec<PathBuf> = std::fs::read_dir(&site_dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "wasm"))
        .collect();
    if let Some(wasm) = wasm.first() {
        let bytes = std::fs::read(wasm)?;
        let gz = run::output(
            Command::new("sh")
                .arg("-c")
                .arg(format!("gzip -9 -c '{}' | wc -c", wasm.display())),
        )
        .unwrap_or_default();
        let _ = writeln!(
            doc,
            "The app's wasm: {} bytes, {} gzip.\n",
            bytes.len(),
            gz.trim()
        );
    }
    Ok(())
}

/// `plotly.min.js` from npm, cached with the other tools.
fn ensure_plotly() -> Result<PathBuf> {
    let prefix = tools::cache_dir().join(format!("plotly-{PLOTLY}"));
    let js = prefix
        .join("node_modules")
        .join("plotly.js-dist-min")
        .join("plotly.min.js");
    if js.is_file() {
        return Ok(js);
    }
    step(&format!(
        "installing plotly.js-dist-min {PLOTLY} for the reference page"
    ));
    std::fs::create_dir_all(&prefix)?;
    run::status(
        Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&prefix)
            .arg(format!("plotly.js-dist-min@{PLOTLY}")),
    )?;
    if !js.is_file() {
        bail!(
            "plotly.js-dist-min installed but `{}` is missing",
            js.display()
        );
    }
    Ok(js)
}

/// A static file server on loopback for the length of the benchmark.
struct Server(Child);

impl Server {
    fn start(dir: &Path, port: u16) -> Result<Server> {
        let child = Command::new("python3")
            .args(["-m", "http.server", "--bind", "127.0.0.1"])
            .arg(port.to_string())
            .arg("--directory")
            .arg(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot start `python3 -m http.server`")?;
        std::thread::sleep(std::time::Duration::from_millis(500));
        Ok(Server(child))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn criterion(root: &Path, doc: &mut String) -> Result<()> {
    step("criterion benchmarks (core)");
    let out = run::output(Command::new("cargo").current_dir(root).args([
        "bench",
        "--package",
        "benchdeck-core",
    ]))?;
    let _ = writeln!(
        doc,
        "## Criterion benchmarks (native, `cargo bench -p benchdeck-core`)\n"
    );
    let _ = writeln!(
        doc,
        "| benchmark | time (low, estimate, high) | throughput |"
    );
    let _ = writeln!(doc, "|---|---|---|");
    let mut name = String::new();
    let mut time = String::new();
    // After `change:` criterion repeats time and thrpt as changes against the last run.
    let mut in_change = false;
    for line in out.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("change:") {
            in_change = true;
        } else if let Some((head, rest)) = trimmed.split_once("time:") {
            if !head.trim().is_empty() {
                name = head.trim().to_string();
                in_change = false;
            } else if !line.starts_with(' ') {
                in_change = false;
            }
            if !in_change {
                time = rest.trim().to_string();
            }
        } else if let Some(rest) = trimmed.strip_prefix("thrpt:") {
            if !in_change {
                let _ = writeln!(doc, "| {name} | {time} | {} |", rest.trim());
            }
        } else if !trimmed.is_empty() && !trimmed.contains(' ') && trimmed.contains('/') {
            // Criterion prints long names on a line of their own.
            name = trimmed.to_string();
            in_change = false;
        }
    }
    let _ = writeln!(doc);
    Ok(())
}
