//! The "Pages" part of the scale section: the home page and one report page loaded in headless
//! Chromium from the repository's site and the small and large synthetic ones, their
//! charts-ready time, bytes and memory, and how much they grow from the small site to the large.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::Deserialize;

use super::built::Site;
use super::figures::{mb, median, thousands, GOAL};
use crate::measuring::{PageLoad, Server};
use crate::run::{self, step};
use crate::tools::Toolbox;

/// Cold loads per page for charts-ready, as in the page-load comparison.
const RUNS: &str = "5";
/// Loads per page for the memory figures.
const MEMORY_LOADS: &str = "3";
/// What every page of the app marks once its charts are drawn.
const READY: &str = "performance.getEntriesByName('charts-ready').length > 0";

/// What `memory.cjs` prints.
#[derive(Debug, Deserialize)]
struct Memory {
    js_heap_used: Vec<f64>,
    wasm_memory: Vec<f64>,
    dom_nodes: Vec<f64>,
}

/// One page measured.
struct Page {
    load: PageLoad,
    memory: Memory,
}

/// Charts-ready (`page-load.cjs` in `bench`) and memory of the page at `path` of `server`.
fn measure_page(
    root: &Path,
    toolbox: &Toolbox,
    bench: &Path,
    server: &Server,
    path: &str,
) -> Result<Page> {
    let node_path = root.join("tests").join("e2e").join("node_modules");
    let url = server.url(path);
    step(&format!("scale: page load and memory of {url}"));
    let out = run::output(
        toolbox
            .command("node")
            .arg(bench.join("page-load.cjs"))
            .args([url.as_str(), READY, RUNS])
            .env("NODE_PATH", &node_path),
    )?;
    let line = out.lines().last().unwrap_or_default();
    let load: PageLoad =
        serde_json::from_str(line).with_context(|| format!("page-load printed `{line}`"))?;
    let out = run::output(
        toolbox
            .command("node")
            .arg(root.join("xtask").join("bench").join("memory.cjs"))
            .args([url.as_str(), READY, MEMORY_LOADS])
            .env("NODE_PATH", &node_path),
    )?;
    let line = out.lines().last().unwrap_or_default();
    let memory: Memory =
        serde_json::from_str(line).with_context(|| format!("memory.cjs printed `{line}`"))?;
    if memory.js_heap_used.is_empty() {
        bail!("memory.cjs measured no load of {url}");
    }
    Ok(Page { load, memory })
}

pub(super) fn pages_section(
    doc: &mut String,
    root: &Path,
    toolbox: &Toolbox,
    bench: &Path,
    (repo, small, large): (&Site, &Site, &Site),
    slug: &str,
) -> Result<()> {
    let servers = [
        Server::start(&repo.dir)?,
        Server::start(&small.dir)?,
        Server::start(&large.dir)?,
    ];
    let measure = |server: &Server, path: &str| measure_page(root, toolbox, bench, server, path);
    let report_path = format!("{slug}/");
    let rows = [
        ("home", repo, measure(&servers[0], "")?),
        ("home", small, measure(&servers[1], "")?),
        ("home", large, measure(&servers[2], "")?),
        ("report", small, measure(&servers[1], &report_path)?),
        ("report", large, measure(&servers[2], &report_path)?),
    ];
    let charts = std::fs::read_dir(large.dir.join("charts").join(slug))
        .map(|d| {
            d.filter_map(|e| e.ok())
                // `<id>.svg`, not a chart's other drawings (`<id>.dark.svg`, `<id>.card.svg`).
                .filter(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    name.strip_suffix(".svg")
                        .is_some_and(|stem| !stem.contains('.'))
                })
                .count()
        })
        .unwrap_or(0);
    pages_table(doc, &rows, slug, charts);
    let over = growth_table(doc, &rows, small, large);
    page_size_and_goal(doc, small, large, &over);
    Ok(())
}

/// Each page measured, one row per page and site, with how it was measured.
fn pages_table(doc: &mut String, rows: &[(&str, &Site, Page)], slug: &str, charts: usize) {
    let _ = writeln!(doc, "### Pages\n");
    let _ = writeln!(
        doc,
        "Charts-ready: median of {RUNS} cold loads each in headless Chromium on loopback \
         (`../shared/bench/page-load.cjs`); bytes and requests of the first load. Memory: median \
         of {MEMORY_LOADS} loads, read once the page is ready and the network idle, after a \
         garbage collection (`xtask/bench/memory.cjs`): the JS heap in use \
         (`Performance.getMetrics` JSHeapUsedSize over CDP), the size of the app's \
         `WebAssembly.Memory` (its wasm heap, which JSHeapUsedSize does not count; trunk's \
         loader hands it over in its `TrunkApplicationStarted` event), and the DOM nodes. The report page is `/{slug}/` ({charts} chart images: charts, \
         grid panels and the grid), the same report in both synthetic sites.\n"
    );
    let _ = writeln!(
        doc,
        "| page | site | ready, median | every run | bytes | gzip bytes | requests | JS heap used | wasm memory | DOM nodes |"
    );
    let _ = writeln!(doc, "|---|---|---|---|---|---|---|---|---|---|");
    for (page, site, m) in rows {
        let every: Vec<String> = m.load.ready_ms.iter().map(|v| format!("{v:.0}")).collect();
        let _ = writeln!(
            doc,
            "| {page} | {} | {:.0} ms | {} | {} | {} | {} | {} | {} | {:.0} |",
            site.name,
            m.load.median_ms,
            every.join(", "),
            thousands(m.load.bytes),
            thousands(m.load.gzip_bytes),
            m.load.requests,
            mb(median(&m.memory.js_heap_used) as u64),
            mb(median(&m.memory.wasm_memory) as u64),
            median(&m.memory.dom_nodes),
        );
    }
    let _ = writeln!(doc);
}

/// The large site's pages against the small site's; returns the pages that miss the goal.
fn growth_table(
    doc: &mut String,
    rows: &[(&str, &Site, Page)],
    small: &Site,
    large: &Site,
) -> Vec<&'static str> {
    let _ = writeln!(
        doc,
        "Large site ({} reports) against small ({} reports), the same page:\n",
        large.reports, small.reports
    );
    let _ = writeln!(
        doc,
        "| page | charts-ready | gzip bytes | JS heap used | wasm memory | DOM nodes | charts-ready within {GOAL}x |"
    );
    let _ = writeln!(doc, "|---|---|---|---|---|---|---|");
    let mut over = Vec::new();
    for (name, s, l) in [
        ("home", &rows[1].2, &rows[2].2),
        ("report", &rows[3].2, &rows[4].2),
    ] {
        let ratio = |a: f64, b: f64| b / a.max(1e-9);
        let ready = ratio(s.load.median_ms, l.load.median_ms);
        let gzip = ratio(s.load.gzip_bytes as f64, l.load.gzip_bytes as f64);
        let heap = ratio(
            median(&s.memory.js_heap_used),
            median(&l.memory.js_heap_used),
        );
        let wasm = ratio(median(&s.memory.wasm_memory), median(&l.memory.wasm_memory));
        let nodes = ratio(median(&s.memory.dom_nodes), median(&l.memory.dom_nodes));
        let met = ready <= GOAL;
        if !met {
            over.push(name);
        }
        let _ = writeln!(
            doc,
            "| {name} | {ready:.2}x | {gzip:.2}x | {heap:.2}x | {wasm:.2}x | {nodes:.2}x | {} |",
            if met { "yes" } else { "**no**" }
        );
    }
    let _ = writeln!(doc);
    over
}

/// Whether the pages themselves grow with the site, and whether the goal is met.
fn page_size_and_goal(doc: &mut String, small: &Site, large: &Site, over: &[&str]) {
    let mean_page = |site: &Site| site.html_bytes / site.html_pages.max(1) as u64;
    let _ = writeln!(
        doc,
        "What a page carries as the site grows: an HTML page is {} bytes on average with {} \
         reports and {} bytes with {}. A page carries its own head tags and its own content, \
         rendered at build time; the app fetches the data a page shows (the home page the \
         index, a report page its own data), so no page grows with the number of reports but \
         the home page, which lists them all.\n",
        thousands(mean_page(small)),
        small.reports,
        thousands(mean_page(large)),
        large.reports,
    );
    if over.is_empty() {
        let _ = writeln!(
            doc,
            "Goal met: both pages are ready within {GOAL}x of their small-site time.\n"
        );
    } else {
        let _ = writeln!(
            doc,
            "Goal missed for the {} page: see the ratios above.\n",
            over.join(" and the ")
        );
    }
}
