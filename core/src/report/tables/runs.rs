//! ```` ```table ```` `kind: runs`: every run of the report, one row each: its configuration and
//! load, its requests, its latencies and its throughput, sorted by configuration, load and
//! date. Every night of a nightly folder is a row (with a date column when the runs span
//! several days), though charts and other tables show the newest. An automatic page ends with
//! it, so a run's own numbers (a GuideLLM "max throughput" benchmark's TTFT, say) are on the
//! page, not only in a canvas' tooltip. Long tables are collapsed.

use super::super::context::ReportContext;
use super::super::values::escape;
use super::directive::TableDirective;
use super::figure::figure;
use crate::format;
use crate::model::{Metric, Run, Stat};
use crate::quantity::Quantity;

/// Above this many rows the table is collapsed under its title.
const COLLAPSE_ABOVE: usize = 12;

/// The columns after the configuration and the load.
const COLUMNS: [(&str, Quantity); 5] = [
    (
        "TTFT p50",
        Quantity::Latency {
            metric: Metric::Ttft,
            stat: Stat::P(50.0),
        },
    ),
    (
        "TTFT p99",
        Quantity::Latency {
            metric: Metric::Ttft,
            stat: Stat::P(99.0),
        },
    ),
    (
        "TPOT p50",
        Quantity::Latency {
            metric: Metric::Tpot,
            stat: Stat::P(50.0),
        },
    ),
    (
        "End-to-end p50",
        Quantity::Latency {
            metric: Metric::E2e,
            stat: Stat::P(50.0),
        },
    ),
    ("Output tok/s", Quantity::OutputThroughput),
];

/// Every run of the configurations the block names (all by default).
pub(super) fn runs_table(ctx: &ReportContext<'_>, d: &TableDirective) -> Result<String, String> {
    let keys = ctx.config_keys(d.configs.as_deref())?;
    let runs: Vec<(String, Vec<&Run>)> = keys
        .iter()
        .map(|key| (ctx.display(key).0, ctx.every_run_of(key)))
        .collect();
    let days: Vec<&str> = runs
        .iter()
        .flat_map(|(_, runs)| runs.iter())
        .filter_map(|r| r.provenance.date.as_ref().map(|d| d.day()))
        .collect();
    let dated = days.iter().any(|d| Some(d) != days.first());
    let mut rows = Vec::new();
    for (name, runs) in &runs {
        rows.extend(runs.iter().map(|run| row(name, run, dated)));
    }
    if rows.is_empty() {
        return Err(format!("no run of {}", keys.join(", ")));
    }
    let lead: &[&str] = if dated {
        &["Configuration", "Date", "Load", "Requests ok / failed"]
    } else {
        &["Configuration", "Load", "Requests ok / failed"]
    };
    let head: String = lead
        .iter()
        .chain(COLUMNS.iter().map(|(title, _)| title))
        .map(|t| format!("<th scope=\"col\">{t}</th>"))
        .collect();
    let title = d
        .title
        .clone()
        .unwrap_or_else(|| format!("Every run ({})", rows.len()));
    let caption = d.caption.as_deref().unwrap_or(
        "Each run's own numbers, by configuration and load; a cell's title gives its source \
         and, where the data bounds it, its 95% interval. – where the file does not say.",
    );
    let table = figure(&title, caption, &head, &rows);
    Ok(if rows.len() > COLLAPSE_ABOVE {
        format!(
            "<details class=\"every-run\"><summary>{}</summary>{table}</details>",
            escape(&title)
        )
    } else {
        table
    })
}

/// One run's row, with its date when `dated`.
fn row(name: &str, run: &Run, dated: bool) -> String {
    let repeats = run
        .repeats
        .as_ref()
        .map_or(String::new(), |r| format!(" <small>({})</small>", r.text()));
    let requests = match (run.requests.succeeded, run.requests.failed) {
        (Some(ok), Some(failed)) => format!("{} / {}", count(ok), count(failed)),
        (Some(ok), None) => format!("{} / –", count(ok)),
        (None, Some(failed)) => format!("– / {}", count(failed)),
        (None, None) => "–".to_string(),
    };
    let cells: String = COLUMNS.iter().map(|(_, q)| cell(*q, run)).collect();
    let date = match (dated, &run.provenance.date) {
        (false, _) => String::new(),
        (true, Some(date)) => format!("<td>{}</td>", escape(&date.label())),
        (true, None) => "<td>–</td>".to_string(),
    };
    format!(
        "<tr><th scope=\"row\">{}</th>{date}<td title=\"{}\">{}{repeats}</td><td>{requests}</td>{cells}</tr>",
        escape(name),
        escape(&run.source()),
        escape(&run.load.target.to_string()),
    )
}

/// A request count as people read it.
fn count(n: u64) -> String {
    format::number(n as f64)
}

/// A value with its interval in the title; – when the run does not report it.
fn cell(q: Quantity, run: &Run) -> String {
    match crate::noise::estimate(q, run) {
        None => "<td>–</td>".to_string(),
        Some(e) => {
            let value = escape(&format::with_unit(e.value, q.unit()));
            match e.interval_text(q.unit()) {
                Some(ci) => format!("<td title=\"{}\">{value}</td>", escape(&ci)),
                None => format!("<td>{value}</td>"),
            }
        }
    }
}
