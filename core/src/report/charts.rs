//! ```` ```chart ```` blocks: a directive (YAML) naming the kind, the data and the options,
//! turned into a [`ChartSpec`] from the report's runs. Every name a directive uses (metric,
//! statistic, configuration, load point) is checked, and a mistake is an error at its line.
//!
//! | kind | what it draws | keys |
//! |---|---|---|
//! | `bars` (default) | a metric by load point, a bar per configuration | `metric`, `stat`, `error_bars: std`, `sla` |
//! | `lines` | a metric against load, a line per configuration; or against each run's mean output (prompt) tokens | `metric`, `stat`, `band: [p50, p99]`, `error_bars: std`, `x_scale`, `y_scale`, `sla`, `breaking`, `speedup`; `x: output_tokens\|input_tokens`, `series: [{name, configs}]`, `fit: true` |
//! | `percentiles` | p50/p90/p95/p99 bars per configuration at one load | `metric`, `load`, `percentiles`, `sla` |
//! | `hbars` | head to head: several metrics at one load (or over the sweep), the better side marked | `metrics: [ttft:p50, output_throughput:max, success_rate:overall, stable_rate]`, `load` |
//! | `scatter` | one quantity against another over the sweep, with Pareto frontiers | `x`, `y`, `x_scale`, `y_scale` |
//! | `cdf` | share of requests under each latency (per-request samples) | `metric`, `load`, `sla` |
//! | `histogram` | distribution of per-request latencies | `metric`, `load` |
//! | `box` | per-request latency spread at each load point | `metric` |
//! | `tokens` | per-request latency against output or prompt tokens, with each configuration's least-squares line | `x: output_tokens\|input_tokens`, `metric: e2e\|ttft\|tpot`, `load` |
//! | `lengths` | per-request latency by sequence-length category (seed 004's Tiny to Very long), with the scaling factor | `categories: [50, 150, 300, 500]`, `tokens: total\|output\|input`, `metric`, `stat` (p95 by default), `load` |
//! | `breakdown` | where the time goes: mean TTFT and mean decoding stacked per configuration | `load` (else every load point), `stat`, `parts`, `share: true` |
//! | `cv` | coefficient of variation by load point, with 5% and 10% guides | `metric` (a latency; e2e by default) |
//! | `windows` | distributions over time (seed 003): each run's requests in windows by start time, a box of the windows' p95 (or `tok_s`) per configuration, or with `x: tok_s` each window's tokens/s against its p95 | `stat: p50\|p90\|p95\|p99\|tok_s`, `window` (seconds), `metric`, `load`, `x: tok_s` |
//! | `trend` | when did it change? a metric at one load point over dated runs (or their folders), a line per configuration read as a history: a step per stretch between change points with its band, change points, outliers and a newest run unlike its level ringed, and a table of the changes under it | `metric`, `stat`, `load`, `x: date\|folder`, `min_change` (5, percent) |
//! | `grid` | small multiples: any of the above side by side | `panels: [{kind: lines, metric: ttft, span: 2}, ...]`, `columns` |
//!
//! Every kind takes `id`, `title`, `caption` and `configs` (which configurations, in order);
//! `sla` is one value or a list. A key the kind does not read is an error (`keys`).
//!
//! This module parses a directive and sends it to its kind; each kind is built in a child
//! module (`bars`, `breakdown`, `consistency`, `hbars`, `lengths`, `lines`, `scatter`,
//! `samples`, `tokens`, `trend`, `windows`) from what `call.rs` holds: the directive, the call
//! each kind gets, and the helpers they share.

use super::context::ReportContext;
use crate::chart::ChartSpec;
use crate::model::differences::Aspect;
use crate::model::{Location, Run};
use crate::problem::Problem;
use crate::site::{Block, ChartGrid};
use call::{quantity, ChartCall, ChartDirective, KEYS};

mod bars;
mod breakdown;
mod call;
mod consistency;
mod hbars;
mod keys;
mod lengths;
mod lines;
mod samples;
mod scatter;
pub(super) mod tokens;
mod trend;
mod windows;

pub(super) use lines::{slope_text, TokensX};
pub(super) use windows::{quoted_windows, QuotedWindow};

/// What a chart block gave: one chart or a grid of them.
#[derive(Debug, Clone, PartialEq)]
pub enum Built {
    /// One chart, and what a trend found beside it (its table of changes, its change points).
    Chart(Box<ChartSpec>, Option<trend::Findings>),
    /// Small multiples, and what their trend panels found.
    Grid(ChartGrid, Vec<trend::Findings>),
}

impl Built {
    /// Every id it takes: the chart's, or the grid's and its panels'.
    pub fn ids(&self) -> Vec<String> {
        match self {
            Built::Chart(c, _) => vec![c.id.clone()],
            Built::Grid(g, _) => std::iter::once(g.id.clone())
                .chain(g.panels.iter().map(|p| p.id.clone()))
                .collect(),
        }
    }

    /// The change points its trends found.
    pub fn changes(&self) -> Vec<crate::site::ChangeEntry> {
        match self {
            Built::Chart(_, found) => found.iter().flat_map(|f| f.changes.clone()).collect(),
            Built::Grid(_, found) => found.iter().flat_map(|f| f.changes.clone()).collect(),
        }
    }

    /// As blocks of the page: the chart or grid, then what goes under it.
    pub fn into_blocks(self) -> Vec<Block> {
        match self {
            Built::Chart(chart, None) => vec![Block::Chart { chart: *chart }],
            Built::Chart(chart, Some(found)) => vec![
                Block::Chart { chart: *chart },
                Block::Html {
                    html: crate::markdown::sanitize(&found.table),
                },
            ],
            Built::Grid(grid, found) => std::iter::once(Block::Grid { grid })
                .chain(found.into_iter().map(|f| Block::Html {
                    html: crate::markdown::sanitize(&f.table),
                }))
                .collect(),
        }
    }
}

/// How many of the grid's `columns` a panel spans: its `span`, 1 by default.
fn panel_span(panel: &ChartDirective, columns: usize) -> Result<usize, String> {
    match panel.span {
        None => Ok(1),
        Some(span) if (1..=columns).contains(&span) => Ok(span),
        Some(span) => Err(format!(
            "`span: {span}`: a panel spans 1 to {columns} of the grid's {columns} columns"
        )),
    }
}

/// A chart id must be usable as a file name and in a URL.
fn check_id(id: &str) -> Result<(), String> {
    if crate::site::is_valid_chart_id(id) {
        Ok(())
    } else {
        Err(format!(
            "chart block: id `{id}` cannot be a file name; expected letters, digits, `-` and `_` (at most 64)"
        ))
    }
}

/// The most panels a grid takes: six rows of four. The grid's picture (its PNG and SVG) grows
/// with its panels, so a grid of 300 made a PNG 80,000 pixels high and a build of 3,000 took
/// 12.7 GB.
pub const MAX_GRID_PANELS: usize = 24;

/// Builds the chart (or grid of charts) of the block whose body starts at `line`; `n`
/// numbers it for its default id.
pub fn build(ctx: &ReportContext<'_>, body: &str, line: usize, n: usize) -> Result<Built, Problem> {
    let at = Location::line(line as u64);
    let error = |message: String| Problem::error(ctx.file, at.clone(), message);
    let pod = crate::yaml::Document::parse(body, line)
        .map_err(|e| error(format!("chart block is not valid YAML: {e}")))?;
    let d: ChartDirective = pod
        .deserialize()
        .map_err(|e| error(format!("chart block: {e}; expected keys {KEYS}")))?;
    let id = d.id.clone().unwrap_or_else(|| format!("chart-{n}"));
    keys::check(&d, false).map_err(|e| error(format!("chart `{id}`: {e}")))?;
    if d.kind.as_deref() != Some("grid") {
        return spec(ctx, &id, d)
            .map(|(chart, under)| Built::Chart(Box::new(chart), under))
            .map_err(error);
    }
    let panels = d
        .panels
        .clone()
        .filter(|p| !p.is_empty())
        .ok_or_else(|| error(format!("grid `{id}`: expected `panels`, a list of charts")))?;
    if panels.len() > MAX_GRID_PANELS {
        return Err(error(format!(
            "grid `{id}`: {} panels, expected at most {MAX_GRID_PANELS} (the grid is drawn as \
             one picture; split it into several grids)",
            panels.len()
        )));
    }
    let columns = d.columns.unwrap_or(2).clamp(1, 4);
    let mut specs = Vec::new();
    let mut spans = Vec::new();
    let mut found = Vec::new();
    for (i, mut panel) in panels.into_iter().enumerate() {
        if panel.kind.as_deref() == Some("grid") {
            return Err(error(format!("grid `{id}`: a panel cannot be a grid")));
        }
        let panel_id = panel
            .id
            .clone()
            .unwrap_or_else(|| format!("{id}-{}", i + 1));
        keys::check(&panel, true).map_err(|e| error(format!("chart `{panel_id}`: {e}")))?;
        // Panels inherit the grid's configurations unless they name their own (or group
        // them into `series`).
        if panel.configs.is_none() && panel.series.is_none() {
            panel.configs = d.configs.clone();
        }
        spans.push(
            panel_span(&panel, columns).map_err(|e| error(format!("chart `{panel_id}`: {e}")))?,
        );
        let (panel_spec, panel_found) = spec(ctx, &panel_id, panel).map_err(&error)?;
        specs.push(panel_spec);
        found.extend(panel_found);
    }
    check_id(&id).map_err(error)?;
    Ok(Built::Grid(
        ChartGrid {
            id,
            title: d.title.unwrap_or_default(),
            caption: d.caption.unwrap_or_default(),
            columns,
            panels: specs,
            spans,
        },
        found,
    ))
}

/// One chart from its directive, and what a trend found beside it.
fn spec(
    ctx: &ReportContext<'_>,
    id: &str,
    d: ChartDirective,
) -> Result<(ChartSpec, Option<trend::Findings>), String> {
    check_id(id)?;
    let grouped: Option<Vec<String>> = match (&d.series, &d.configs) {
        (Some(_), Some(_)) => {
            return Err(format!(
                "chart `{id}`: give `configs` or `series` (which names each line's \
                 configurations), not both"
            ))
        }
        (Some(groups), None) => Some(groups.iter().flat_map(|g| g.configs.clone()).collect()),
        (None, _) => None,
    };
    let keys = ctx
        .config_keys(grouped.as_deref().or(d.configs.as_deref()))
        .map_err(|e| format!("chart `{id}`: {e}"))?;
    let kind = d.kind.as_deref().unwrap_or("bars");
    let c = ChartCall {
        id,
        d: &d,
        keys: &keys,
    };
    let mut under = None;
    let spec = match kind {
        "bars" => bars::bars(ctx, c),
        "lines" => lines::lines(ctx, c),
        "percentiles" => bars::percentiles(ctx, c),
        "hbars" => hbars::hbars(ctx, c),
        "scatter" => scatter::scatter(ctx, c),
        "cdf" | "histogram" => samples::samples_chart(ctx, c, kind),
        "box" => samples::boxes(ctx, c),
        "tokens" => tokens::tokens(ctx, c),
        "breakdown" => breakdown::breakdown(ctx, c),
        "cv" => consistency::cv_chart(ctx, c),
        "lengths" => lengths::lengths(ctx, c),
        "windows" => windows::windows_chart(ctx, c),
        "trend" => trend::trend(ctx, c).map(|(spec, found)| {
            under = Some(found);
            spec
        }),
        other => Err(format!(
            "unknown kind `{other}`; expected bars, lines, percentiles, hbars, scatter, cdf, histogram, box, tokens, lengths, breakdown, cv, windows, trend or grid"
        )),
    }
    .map_err(|e| format!("chart `{id}`: {e}"))?;
    if spec
        .series
        .iter()
        .all(|s| s.points.iter().all(|p| p.y.is_none()))
    {
        let what =
            quantity(&d).map_or_else(|_| "data for it".to_string(), |q| format!("reports {q}"));
        return Err(format!(
            "chart `{id}`: no run of {} {what}",
            keys.join(", ")
        ));
    }
    // A chart against output (or prompt) tokens sets runs of different lengths side by
    // side on purpose: that difference is its x axis, not a note.
    let drawn_along = match (kind, TokensX::parse(d.x.as_deref())) {
        ("lines", Ok(Some(TokensX::Output))) => Some(Aspect::OutputLength),
        ("lines", Ok(Some(TokensX::Input))) => Some(Aspect::InputLength),
        _ => None,
    };
    let caption = d.caption.unwrap_or(spec.caption);
    let chart = ChartSpec {
        title: d.title.unwrap_or(spec.title),
        caption: with_workload_note(ctx, caption, &keys, drawn_along),
        ..spec
    };
    Ok((chart, under))
}

/// `caption`, followed by a note naming what differs between the workloads of the
/// configurations `keys` where they were measured at one load point, but `drawn_along`,
/// the aspect the chart's axis sets out.
fn with_workload_note(
    ctx: &ReportContext<'_>,
    caption: String,
    keys: &[String],
    drawn_along: Option<Aspect>,
) -> String {
    if keys.len() < 2 {
        return caption;
    }
    let names: Vec<String> = keys.iter().map(|k| ctx.display(k).0).collect();
    let runs: Vec<Vec<&Run>> = keys.iter().map(|k| ctx.runs_of(k)).collect();
    let side_by_side: Vec<Vec<(&str, &Run)>> = ctx
        .loads_of(keys)
        .iter()
        .map(|load| {
            names
                .iter()
                .zip(&runs)
                .filter_map(|(name, runs)| {
                    let run = runs.iter().find(|r| r.load.target == *load)?;
                    Some((name.as_str(), *run))
                })
                .collect()
        })
        .collect();
    let mut differences = crate::model::differences::among(&side_by_side);
    differences.retain(|d| Some(d.aspect) != drawn_along);
    match crate::model::differences::note(&differences) {
        Some(note) if caption.is_empty() => note,
        Some(note) => format!("{caption} {note}"),
        None => caption,
    }
}

/// For the kinds' tests: the chart whose block holds `body`, in a report on `results` read as
/// the file `name` (under `vllm/`), or the report's problems.
#[cfg(test)]
fn chart_on(name: &str, results: &str, body: &str) -> Result<ChartSpec, Vec<String>> {
    let results = [crate::import::import(name, results.as_bytes())];
    let text =
        format!("---\ntitle: T\nresults: [\"vllm/*\"]\n---\n\n```chart\nid: c\n{body}\n```\n");
    let page = super::build_report("reports/r.md", "r", &text, &results, &super::Palette::new());
    let chart = page.charts().next().cloned();
    chart.ok_or_else(|| page.problems.iter().map(ToString::to_string).collect())
}
