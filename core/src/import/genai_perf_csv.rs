//! NVIDIA GenAI-Perf `profile_export_genai_perf.csv` and AIPerf `profile_export_aiperf.csv`: the
//! same numbers as the JSON summaries ([`super::genai_perf`]), one run per file.
//!
//! Layout (CRLF, sections separated by blank lines):
//! 1. `Metric,avg,min,max,p99,p95,p90,p75,p50,p25,p10,p5,p1` (AIPerf: `…,p1,…,p99,std`) with one
//!    row per request metric, the unit in the label: `Time To First Token (ms)`;
//! 2. `Metric,Value` with one row per run metric: `Output Token Throughput (tokens/sec)`,
//!    `Request Throughput (per sec)`, `Request Goodput (per sec)`, `Request Count (count)`
//!    (AIPerf also `Error Request Count`, `Benchmark Duration (sec)`, token totals);
//! 3. optional GPU telemetry tables (`Metric,GPU,…` or `Endpoint,GPU_Index,…`), skipped with a
//!    warning: the model has no place for GPU metrics.
//!
//! Values are written `{:,.2f}`, so `"2,996.32"` arrives quoted with a thousands separator;
//! missing values are `N/A`. Columns are read by their header, so their order does not matter.
//!
//! Semantics are those of the JSON importer: `Inter Token Latency` is per request
//! (e2e − ttft) / (output tokens − 1), i.e. [`Metric::Tpot`]; `Time To Second Token` is
//! [`Metric::Ttst`]; `Request Latency` is [`Metric::E2e`]. Time units come from each row's label
//! (`ms`, `s`, `us`, `ns`) and are converted to ms. `Output Token Throughput Per User` (earlier
//! `Per Request`) is a per-request rate, not the run's throughput: its mean is the rate one user
//! sees (`output_tok_s_per_user`). `Request Count` counts valid requests; GenAI-Perf's summary has no
//! failure count, AIPerf's `Error Request Count` is the failed count.
//!
//! The CSV names neither the model nor the load. Both are read from GenAI-Perf's artifact
//! directory when the file sits in one: `{model}-{endpoint}-{concurrencyN|request_rateR}`, e.g.
//! `meta-llama_Llama-3.1-8B-Instruct-openai-chat-concurrency16` (GenAI-Perf replaced the model's
//! `/` by `_`, which cannot be undone without guessing, so the model is kept as written there).
//! Otherwise the run's load point is unknown and a warning says so; the JSON summary written
//! beside the CSV has both.

mod artifact;
mod metrics;
mod rows;

use super::table::{self, Row};
use super::ImportedFile;
use crate::model::{Location, Producer, Throughput};
use crate::problem::Problem;
use metrics::{unknown_rows, Metrics};
use rows::{split_label, statistic_column, value_row, Section, ValueRow};

pub(super) use artifact::artifact_directory;

/// True when the first line is the header of the request-metrics table.
pub(super) fn is_genai_perf_csv(first_line: &str) -> bool {
    let cells = table::header_cells(first_line);
    cells.len() >= 3
        && cells[0].eq_ignore_ascii_case("metric")
        && cells[1..].iter().any(|c| c.eq_ignore_ascii_case("avg"))
        && cells[1..].iter().all(|c| statistic_column(c).is_some())
}

/// Reads the whole file.
pub(super) fn read(file: &str, text: &str) -> ImportedFile {
    let (rows, broken) = table::read_rows(file, text);
    let producer = if is_aiperf(&rows) {
        Producer::Aiperf
    } else {
        Producer::GenaiPerf
    };
    let mut m = Metrics::new(file);
    for section in &sections(&rows) {
        m.section(section);
    }
    m.problems.extend(unknown_rows(file, &m.unknown));
    m.problems.extend(broken);

    let mut out = ImportedFile::new(file, Some(producer));
    let Some(first) = out.require(
        rows.first(),
        &Location::line(1),
        "expected the `Metric,avg,…` table of a GenAI-Perf or AIPerf CSV",
    ) else {
        out.problems.append(&mut m.problems);
        return out;
    };
    if m.latency.is_empty() && m.succeeded.is_none() && m.throughput == Throughput::default() {
        m.problems.push(Problem::error(
            file,
            Location::line(first.line + 1),
            "no metric could be read; expected rows such as `Request Latency (ms)` and \
             `Request Count (count)`",
        ));
        out.problems.append(&mut m.problems);
        return out;
    }
    out.runs.push(m.into_run(first.line, producer));
    out
}

/// Sections start at every row whose first cell is `Metric` or `Endpoint` (a header).
fn sections(rows: &[Row]) -> Vec<Section<'_>> {
    let mut sections: Vec<Section<'_>> = Vec::new();
    for row in rows {
        let first = row.cell(0);
        if first.eq_ignore_ascii_case("metric") || first.eq_ignore_ascii_case("endpoint") {
            sections.push(Section {
                header: row,
                rows: Vec::new(),
            });
        } else if let Some(s) = sections.last_mut() {
            s.rows.push(row);
        }
    }
    sections
}

/// AIPerf writes a `std` column and the `Error Count` and `Benchmark Duration` rows.
fn is_aiperf(rows: &[Row]) -> bool {
    rows.first()
        .is_some_and(|h| h.cells.iter().any(|c| c.eq_ignore_ascii_case("std")))
        || rows.iter().any(|r| {
            matches!(
                value_row(&split_label(r.cell(0)).0),
                Some(ValueRow::ErrorCount | ValueRow::Duration)
            )
        })
}

#[cfg(test)]
mod tests;
