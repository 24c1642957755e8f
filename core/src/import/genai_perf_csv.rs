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

mod metrics;

use super::table::{self, Row};
use super::ImportedFile;
use crate::model::{
    ConfigIdentity, LoadTarget, Location, Metric, Producer, Rate, Stat, Throughput,
};
use crate::problem::Problem;
use metrics::{unknown_rows, Metrics};

/// True when the first line is the header of the request-metrics table.
pub(super) fn is_genai_perf_csv(first_line: &str) -> bool {
    let cells = table::header_cells(first_line);
    cells.len() >= 3
        && cells[0].eq_ignore_ascii_case("metric")
        && cells[1..].iter().any(|c| c.eq_ignore_ascii_case("avg"))
        && cells[1..].iter().all(|c| statistic_column(c).is_some())
}

/// What a column of the request-metrics table holds: `Some(Some(stat))` for a statistic,
/// `Some(None)` for AIPerf's `sum` (the total over requests; the `Metric,Value` table has the
/// totals the model keeps), `None` for a column neither tool writes.
fn statistic_column(name: &str) -> Option<Option<Stat>> {
    if name.trim().eq_ignore_ascii_case("sum") {
        return Some(None);
    }
    Stat::parse(name).map(Some)
}

/// What a request-metrics row is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum RequestRow {
    Latency(Metric),
    InputLength,
    OutputLength,
    /// A per-request rate the model has no place for (documented above).
    PerUserRate,
}

fn request_row(name: &str) -> Option<RequestRow> {
    Some(match name {
        "time to first token" => RequestRow::Latency(Metric::Ttft),
        "time to second token" => RequestRow::Latency(Metric::Ttst),
        "inter token latency" => RequestRow::Latency(Metric::Tpot),
        "request latency" => RequestRow::Latency(Metric::E2e),
        "input sequence length" => RequestRow::InputLength,
        "output sequence length" => RequestRow::OutputLength,
        "output token throughput per user" | "output token throughput per request" => {
            RequestRow::PerUserRate
        }
        _ => return None,
    })
}

/// What a `Metric,Value` row is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum ValueRow {
    OutputTokS,
    TotalTokS,
    RequestsPerS,
    GoodputPerS,
    RequestCount,
    ErrorCount,
    TotalInput,
    TotalOutput,
    /// Known, with no place in the model (the benchmark's duration).
    Duration,
}

fn value_row(name: &str) -> Option<ValueRow> {
    Some(match name {
        "output token throughput" => ValueRow::OutputTokS,
        "total token throughput" => ValueRow::TotalTokS,
        "request throughput" => ValueRow::RequestsPerS,
        "request goodput" | "goodput" => ValueRow::GoodputPerS,
        "request count" => ValueRow::RequestCount,
        "error request count" => ValueRow::ErrorCount,
        "total input tokens" | "total input sequence length" | "total isl" => ValueRow::TotalInput,
        "total output tokens" | "total output sequence length" | "total osl" => {
            ValueRow::TotalOutput
        }
        "benchmark duration" => ValueRow::Duration,
        _ => return None,
    })
}

/// `Time To First Token (ms)` → (`time to first token`, `Some("ms")`).
fn split_label(label: &str) -> (String, Option<String>) {
    let label = label.trim();
    if let Some(open) = label.rfind('(') {
        if let Some(unit) = label[open + 1..].strip_suffix(')') {
            let name = label[..open].trim().to_ascii_lowercase();
            return (name, Some(unit.trim().to_string()));
        }
    }
    (label.to_ascii_lowercase(), None)
}

/// A section of the file: a header row and the rows under it.
struct Section<'a> {
    header: &'a Row,
    rows: Vec<&'a Row>,
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

/// Endpoint names GenAI-Perf and AIPerf put between the model and the load in the artifact
/// directory name, longest first.
const ENDPOINTS: [&str; 14] = [
    "openai-image_retrieval",
    "openai-completions",
    "openai-embeddings",
    "openai-multimodal",
    "openai-rankings",
    "openai-generate",
    "openai-chat",
    "triton-tensorrtllm",
    "triton-generate",
    "triton-python",
    "triton-vllm",
    "tensorrtllm_engine",
    "huggingface-generate",
    "openai-templates",
];

/// Model and load from the artifact directory holding the file, as GenAI-Perf names it.
pub(super) fn artifact_directory(path: &str) -> Option<(ConfigIdentity, LoadTarget)> {
    let mut parts = path.rsplit(['/', '\\']);
    parts.next()?; // the file itself
    let dir = parts.next()?;
    let (rest, stimulus) = dir.rsplit_once('-')?;
    let load = if let Some(n) = stimulus.strip_prefix("concurrency") {
        let n: f64 = n.parse().ok()?;
        (n.is_finite() && n >= 1.0).then_some(LoadTarget::Concurrency(n))?
    } else if let Some(r) = stimulus.strip_prefix("request_rate") {
        let r: f64 = r.parse().ok()?;
        (r.is_finite() && r > 0.0).then_some(LoadTarget::RequestRate(Rate::PerSecond(r)))?
    } else {
        return None;
    };
    let (model, engine) = match ENDPOINTS
        .iter()
        .find_map(|e| rest.strip_suffix(e)?.strip_suffix('-').map(|m| (m, *e)))
    {
        Some((model, endpoint)) if !model.is_empty() => {
            (model.to_string(), Some(endpoint.to_string()))
        }
        _ => (rest.to_string(), None),
    };
    if model.is_empty() {
        return None;
    }
    Some((
        ConfigIdentity {
            model: engine.is_some().then(|| model.clone()),
            // Without a known endpoint the model cannot be told apart from it: the whole
            // prefix is kept as the label.
            label: engine.is_none().then_some(model),
            ..ConfigIdentity::default()
        },
        load,
    ))
}

#[cfg(test)]
mod tests;
