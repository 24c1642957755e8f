//! The summaries AIPerf and GenAI-Perf print to the console, as rich box tables, in any text
//! file (a log, a README, a CI transcript):
//!
//! ```text
//!                       NVIDIA AIPerf | LLM Metrics
//! ┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━┓
//! ┃                               Metric ┃    avg ┃    min ┃    max ┃   std ┃
//! ┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━┩
//! │             Time to First Token (ms) │  58.31 │  29.71 │  87.64 │ 16.88 │
//! │     Output Token Throughput Per User │  87.06 │  83.97 │  90.46 │  2.07 │
//! │                    (tokens/sec/user) │        │        │        │       │
//! │ Output Token Throughput (tokens/sec) │ 249.98 │    N/A │    N/A │   N/A │
//! └──────────────────────────────────────┴────────┴────────┴────────┴───────┘
//! ```
//!
//! Every `LLM Metrics` table is a run (GenAI-Perf's first column is `Statistic`, AIPerf's
//! `Metric`). The statistics are the header's columns, whatever they are (`avg min max p99 p90
//! p75` in GenAI-Perf, `… p50 std` in AIPerf, `adj_p95` and `count` in some builds); values
//! have thousands separators and `N/A` is missing; a name rich wrapped onto two lines is joined.
//! Rows are matched by name, case-insensitively and with or without their unit (GenAI-Perf's
//! older `Time to first token (ms)`):
//! - `Time To First Token`, `Time To Second Token`, `Request Latency`: TTFT, TTST, end-to-end,
//!   converted from their unit;
//! - `Inter Token Latency` is per request (latency − TTFT) / (tokens − 1): [`Metric::Tpot`];
//! - `Output Token Throughput Per User` (its mean: the rate one user sees), `Output Token
//!   Throughput`, `Request Throughput`, `Request Goodput` (their `avg`), the sequence lengths;
//! - `Request Count`: the requests that succeeded (AIPerf counts valid requests; GenAI-Perf has
//!   no failures). AIPerf's `Error Summary` table below it gives the failures (Σ `Count`), named
//!   by kind in a warning.
//!
//! The table names neither the model nor the load: they come from the command printed around
//! it (`--concurrency 4`, `--request-rate 10`, `-m MODEL`), else the run has no load point and
//! a warning says so. Rows benchdeck does not model are named in one warning.

mod grid;
mod rows;

use super::console::strip_ansi;
use super::ImportedFile;
use crate::model::{Location, Producer};
use crate::problem::Problem;
use grid::{tables, title, Table};

/// True when some line opens an AIPerf or GenAI-Perf table: its title, then a box top within
/// three lines.
pub(super) fn is_table(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    lines.iter().enumerate().any(|(i, line)| {
        title(&strip_ansi(line)).is_some()
            && lines
                .iter()
                .skip(i + 1)
                .take(3)
                .any(|l| strip_ansi(l).trim_start().starts_with('┏'))
    })
}

/// Reads every metrics table of `text` into a run.
pub(super) fn read(file: &str, text: &str) -> ImportedFile {
    let lines: Vec<String> = text.lines().map(strip_ansi).collect();
    let found = tables(&lines);
    let producer = match found.first().map(|t| t.tool.as_str()) {
        Some("NVIDIA GenAI-Perf") => Producer::GenaiPerf,
        _ => Producer::Aiperf,
    };
    let mut out = ImportedFile::new(file, Some(producer));
    let metrics: Vec<usize> = (0..found.len())
        .filter(|&i| found[i].title.ends_with("Metrics"))
        .collect();
    for (n, &i) in metrics.iter().enumerate() {
        let table = &found[i];
        if table.rows.is_empty() {
            out.problems.push(Problem::error(
                file,
                Location::line(table.line),
                format!(
                    "the `{}` table has no row of values under its header; it is not a run",
                    table.title
                ),
            ));
            continue;
        }
        let next = metrics.get(n + 1).map_or(found.len(), |&j| j);
        let errors = found[i + 1..next]
            .iter()
            .find(|t| t.title == "Error Summary");
        // The command printed nearest before the table (since the last one), else after it.
        let from = if n == 0 {
            0
        } else {
            found[metrics[n - 1]].end as usize
        };
        let title = table.line as usize;
        let after = errors.unwrap_or(table).end as usize;
        let until = found.get(next).map_or(lines.len(), |t| t.line as usize);
        let context = [slice(&lines, from, title), slice(&lines, after, until)];
        out.runs
            .push(rows::run(file, table, errors, context, producer));
    }
    for table in &found {
        report_ragged(&mut out, table);
    }
    if out.runs.is_empty() {
        out.problems.push(Problem::error(
            file,
            found
                .first()
                .map_or(Location::File, |t| Location::line(t.line)),
            "no `NVIDIA AIPerf | LLM Metrics` or `NVIDIA GenAI-Perf | LLM Metrics` table with \
             its box drawn under it; expected rich's table of the run's metrics",
        ));
    }
    out
}

/// Lines `from` to `until` (1-based, `until` excluded), clamped to `lines`.
fn slice(lines: &[String], from: usize, until: usize) -> &[String] {
    let from = from.saturating_sub(1).min(lines.len());
    let until = until.saturating_sub(1).clamp(from, lines.len());
    &lines[from..until]
}

/// An error for each body line whose cells do not match the header's.
fn report_ragged(out: &mut ImportedFile, table: &Table) {
    for (line, cells) in &table.ragged {
        out.problems.push(Problem::error(
            &out.file,
            Location::line(*line),
            format!(
                "expected {} cells as in the header of `{}`, found {cells}; this line is skipped",
                table.columns.len(),
                table.title
            ),
        ));
    }
}

#[cfg(test)]
mod tests;
