//! The chart part of `cargo xtask bench`: the synthetic 100,000-point scatter
//! (`benchdeck_core::chart::synthetic::scatter`) drawn by benchdeck on a canvas (the app's hidden
//! `/_bench/scatter/` page) and by uPlot (`xtask/bench/uplot.html`, the same points) in one
//! headless Chromium run, next to the native criterion figures of `core/benches/chart.rs`;
//! written as the "Charts: 100k-point scatter" section of `docs/PERFORMANCE.md`.
//!
//! `xtask/bench/charts.cjs` serves both pages on loopback from inside its own Node process (so
//! nothing outlives it), loads them in turn and prints what they measured as JSON.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::Deserialize;

use super::criterion::Bench;
use crate::run::{self, step};
use crate::tools::{self, Toolbox};

/// The uPlot release compared against, from npm.
pub const UPLOT: &str = "1.6.32";
/// Loads of each page (interleaved); each load draws 21 times.
const LOADS: usize = 3;
/// The goals of the charts issue.
const REDRAW_GOAL_MS: f64 = 50.0;
const NEAREST_GOAL_US: f64 = 1000.0;

/// What `charts.cjs` prints.
#[derive(Debug, Deserialize)]
pub struct Runs {
    /// Chromium's version.
    chromium: String,
    /// One result per load of the benchdeck page.
    benchdeck: Vec<Run>,
    /// One result per load of the uPlot page.
    uplot: Vec<Run>,
}

/// One page load's measurements (`app/src/pages/bench.rs` and `uplot-bench.js` write them).
#[derive(Debug, Deserialize)]
struct Run {
    points: usize,
    size: (u32, u32),
    first_ms: f64,
    redraw_ms: Vec<f64>,
    toggle_ms: Vec<f64>,
    raster_ms: Vec<f64>,
    nearest: Option<Nearest>,
    checksum: f64,
    error: Option<String>,
}

/// `Frame::nearest` in the browser.
#[derive(Debug, Deserialize)]
struct Nearest {
    build_ms: f64,
    queries: usize,
    per_query_us: f64,
}

/// Loads both pages in headless Chromium; `site` is a built site (served at `/`).
pub fn measure(root: &Path, toolbox: &Toolbox, site: &Path, work: &Path) -> Result<Runs> {
    let page = uplot_page(root, work)?;
    step(&format!(
        "charts: benchdeck's /_bench/scatter/ and uPlot {UPLOT}, {LOADS} loads each"
    ));
    let out = run::output(
        toolbox
            .command("node")
            .arg(root.join("xtask").join("bench").join("charts.cjs"))
            .arg(site)
            .arg(&page)
            .arg(LOADS.to_string())
            .env(
                "NODE_PATH",
                root.join("tests").join("e2e").join("node_modules"),
            ),
    )?;
    let line = out.lines().last().unwrap_or_default();
    let runs: Runs =
        serde_json::from_str(line).with_context(|| format!("charts.cjs printed `{line}`"))?;
    check(&runs)?;
    Ok(runs)
}

/// Every load worked and both pages drew the same data.
fn check(runs: &Runs) -> Result<()> {
    let all = || runs.benchdeck.iter().chain(&runs.uplot);
    if runs.benchdeck.is_empty() || runs.uplot.is_empty() {
        bail!("the chart benchmark returned no results");
    }
    for (name, list) in [("benchdeck", &runs.benchdeck), ("uPlot", &runs.uplot)] {
        if let Some(e) = list.iter().find_map(|r| r.error.as_deref()) {
            bail!("the {name} chart page failed: {e}");
        }
    }
    let first = &runs.benchdeck[0];
    if let Some(other) = all().find(|r| r.checksum != first.checksum || r.points != first.points) {
        bail!(
            "the pages drew different data: {} points with checksum {} against {} with {}; \
             xtask/bench/uplot-bench.js must generate what core's chart::synthetic does",
            first.points,
            first.checksum,
            other.points,
            other.checksum
        );
    }
    if runs.benchdeck.iter().any(|r| r.nearest.is_none()) {
        bail!("the benchdeck chart page timed no nearest-point lookups");
    }
    Ok(())
}

/// The uPlot page in `work/uplot-page`: our page and script, uPlot's files from npm.
fn uplot_page(root: &Path, work: &Path) -> Result<PathBuf> {
    let dist = ensure_uplot()?;
    let page = work.join("uplot-page");
    std::fs::create_dir_all(&page)
        .with_context(|| format!("cannot create `{}`", page.display()))?;
    let ours = root.join("xtask").join("bench");
    for (from, to) in [
        (ours.join("uplot.html"), "index.html"),
        (ours.join("uplot-bench.js"), "uplot-bench.js"),
        (dist.join("uPlot.iife.min.js"), "uPlot.iife.min.js"),
        (dist.join("uPlot.min.css"), "uPlot.min.css"),
    ] {
        std::fs::copy(&from, page.join(to))
            .with_context(|| format!("cannot copy `{}`", from.display()))?;
    }
    Ok(page)
}

/// uPlot's `dist` folder from npm, cached with the other tools.
fn ensure_uplot() -> Result<PathBuf> {
    let prefix = tools::cache_dir().join(format!("uplot-{UPLOT}"));
    let dist = prefix.join("node_modules").join("uplot").join("dist");
    if dist.join("uPlot.iife.min.js").is_file() {
        return Ok(dist);
    }
    step(&format!(
        "installing uplot {UPLOT} for the chart comparison"
    ));
    std::fs::create_dir_all(&prefix)?;
    run::status(
        std::process::Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&prefix)
            .arg(format!("uplot@{UPLOT}")),
    )?;
    if !dist.join("uPlot.iife.min.js").is_file() {
        bail!(
            "uplot installed but `{}` is missing",
            dist.join("uPlot.iife.min.js").display()
        );
    }
    Ok(dist)
}

/// The median (the mean of the middle two for an even count); `NaN` when empty.
pub(super) fn median(values: impl IntoIterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = values.into_iter().collect();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Per-library summary of the loads.
struct Summary {
    first: f64,
    redraw: f64,
    redraws: usize,
    hide: f64,
    show: f64,
    toggles: usize,
    raster_share: f64,
}

fn summarise(runs: &[Run]) -> Summary {
    let toggles = |parity: usize| {
        median(runs.iter().flat_map(|r| {
            r.toggle_ms
                .iter()
                .enumerate()
                .filter(move |(i, _)| i % 2 == parity)
                .map(|(_, ms)| *ms)
        }))
    };
    let drawn: f64 = runs
        .iter()
        .map(|r| r.first_ms + r.redraw_ms.iter().sum::<f64>() + r.toggle_ms.iter().sum::<f64>())
        .sum();
    let raster: f64 = runs.iter().flat_map(|r| &r.raster_ms).sum();
    Summary {
        first: median(runs.iter().map(|r| r.first_ms)),
        redraw: median(runs.iter().flat_map(|r| r.redraw_ms.iter().copied())),
        redraws: runs.iter().map(|r| r.redraw_ms.len()).sum(),
        hide: toggles(0),
        show: toggles(1),
        toggles: runs.iter().map(|r| r.toggle_ms.len()).sum(),
        raster_share: 100.0 * raster / drawn.max(f64::MIN_POSITIVE),
    }
}

/// `1.8x faster` / `1.3x slower` for benchdeck's time `a` against uPlot's `b`.
fn versus(a: f64, b: f64) -> String {
    if !(a > 0.0 && b > 0.0) {
        return "–".to_string();
    }
    if a <= b {
        format!("{:.2} ({:.1}x faster)", a / b, b / a)
    } else {
        format!("{:.2} ({:.1}x slower)", a / b, a / b)
    }
}

/// The native figure of criterion benchmark `name`, formatted in `unit` (`ms` or `µs`).
fn native(benches: &[Bench], name: &str, unit: &str) -> String {
    let factor = if unit == "µs" { 1000.0 } else { 1.0 };
    benches
        .iter()
        .find(|b| b.name == name)
        .and_then(|b| b.estimate_ms)
        .map_or_else(
            || "not measured".to_string(),
            |ms| format!("{:.2} {unit}", ms * factor),
        )
}

/// Writes the section; `benches` are the criterion results, `runs` the browser's.
pub fn section(doc: &mut String, benches: &[Bench], runs: &Runs) {
    native_table(doc, benches);
    browser_table(doc, runs);
}

/// The scatter, its goals, and the native timings of criterion.
fn native_table(doc: &mut String, benches: &[Bench]) {
    let _ = writeln!(doc, "## Charts: 100k-point scatter\n");
    let _ = writeln!(
        doc,
        "The synthetic scatter of `benchdeck_core::chart::synthetic::scatter`: two series of \
         50,000 points from a fixed xorshift generator, drawn at 960 × 460 pixels with no Pareto \
         frontier. Goals (the charts issue): a redraw in the browser under {REDRAW_GOAL_MS} ms, a \
         nearest-point lookup for the tooltip under 1 ms.\n"
    );
    let _ = writeln!(doc, "Native, criterion (`core/benches/chart.rs`):\n");
    let _ = writeln!(doc, "| what | time |\n|---|---|");
    for (what, name, unit) in [
        (
            "SVG document (`chart::to_svg`)",
            "chart/svg/scatter-100k",
            "ms",
        ),
        (
            "bitmap (`chart::draw` on plotters' `BitMapBackend`, text skipped)",
            "chart/bitmap/scatter-100k",
            "ms",
        ),
        (
            "bitmap with the dots as one layer (`chart::dots::DotBatcher`, as the app draws)",
            "chart/layered/scatter-100k",
            "ms",
        ),
        (
            "`Frame::nearest`, first call (builds the index over 100,000 targets)",
            "nearest/build/scatter-100k",
            "ms",
        ),
        (
            "`Frame::nearest`, per lookup (28-pixel radius)",
            "nearest/query/scatter-100k",
            "µs",
        ),
    ] {
        let _ = writeln!(doc, "| {what} | {} |", native(benches, name, unit));
    }
    let _ = writeln!(doc);
}

/// The browser's timings against uPlot's, and the goals met or not.
fn browser_table(doc: &mut String, runs: &Runs) {
    let (b, u) = (summarise(&runs.benchdeck), summarise(&runs.uplot));
    let nearest: Vec<&Nearest> = runs
        .benchdeck
        .iter()
        .filter_map(|r| r.nearest.as_ref())
        .collect();
    let build = median(nearest.iter().map(|n| n.build_ms));
    let per_query = median(nearest.iter().map(|n| n.per_query_us));
    let queries = nearest.first().map_or(0, |n| n.queries);
    let (w, h) = runs.benchdeck[0].size;
    let _ = writeln!(
        doc,
        "In the browser, against uPlot {UPLOT} (npm) drawing the same points in the same run: \
         headless Chromium {} (software rendering), {} loads of each page, interleaved, on a \
         {w} × {h} canvas. benchdeck is the app's hidden page `/_bench/scatter/` (wasm, \
         `chart::draw` through plotters-canvas, with the dots painted as one image by \
         `chart::dots`, exactly as a report draws); uPlot is \
         `xtask/bench/uplot.html` (scatter mode), whose copy of the generator gives the same \
         checksum. Every timing ends with a one-pixel `getImageData`, so it includes the \
         rasterisation the browser would otherwise defer.\n",
        runs.chromium,
        runs.benchdeck.len(),
    );
    let _ = writeln!(
        doc,
        "| | benchdeck | uPlot | benchdeck ÷ uPlot |\n|---|---|---|---|"
    );
    let rows = [
        (
            format!("first draw (median of {} loads)", runs.benchdeck.len()),
            b.first,
            u.first,
        ),
        (
            format!("redraw, whole chart (median of {})", b.redraws),
            b.redraw,
            u.redraw,
        ),
        (
            format!(
                "redraw after hiding series B: 50,000 points (median of {})",
                b.toggles / 2
            ),
            b.hide,
            u.hide,
        ),
        (
            format!(
                "redraw after showing it again: 100,000 points (median of {})",
                b.toggles - b.toggles / 2
            ),
            b.show,
            u.show,
        ),
    ];
    for (what, ours, theirs) in rows {
        let _ = writeln!(
            doc,
            "| {what} | {ours:.0} ms | {theirs:.0} ms | {} |",
            versus(ours, theirs)
        );
    }
    let _ = writeln!(
        doc,
        "| share of draw time spent rasterising (`getImageData`) | {:.0}% | {:.0}% | |",
        b.raster_share, u.raster_share
    );
    let _ = writeln!(
        doc,
        "| nearest-point lookup, first call (builds the index) | {build:.1} ms | – | |"
    );
    let _ = writeln!(
        doc,
        "| nearest-point lookup, per query (median over loads of {queries} queries) | \
         {per_query:.1} µs | – | |"
    );
    let verdict = |met: bool| if met { "met" } else { "**not met**" };
    let _ = writeln!(
        doc,
        "\nGoals: redraw under {REDRAW_GOAL_MS} ms {} (benchdeck {:.0} ms, uPlot {:.0} ms for the \
         whole chart); nearest-point lookup under 1 ms {} ({per_query:.1} µs per query). The \
         first lookup after a draw also builds the index: {build:.1} ms, {} 1 ms.\n",
        verdict(b.redraw < REDRAW_GOAL_MS),
        b.redraw,
        u.redraw,
        verdict(per_query < NEAREST_GOAL_US),
        if build < 1.0 { "under" } else { "over" },
    );
}
