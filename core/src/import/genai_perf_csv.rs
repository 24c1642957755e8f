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

use super::stats::ms_per;
use super::table::{self, Row};
use super::ImportedFile;
use crate::model::{
    ConfigIdentity, Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer,
    Provenance, Rate, RequestCounts, Run, Stat, Throughput, TokenStats,
};
use crate::number::{parse_number, Reading};
use crate::problem::Problem;

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
    let mut problems = Vec::new();
    // Sections start at every row whose first cell is `Metric` or `Endpoint` (a header).
    let mut sections: Vec<Section<'_>> = Vec::new();
    for row in &rows {
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
    let aiperf = rows
        .first()
        .is_some_and(|h| h.cells.iter().any(|c| c.eq_ignore_ascii_case("std")))
        || rows.iter().any(|r| {
            matches!(
                value_row(&split_label(r.cell(0)).0),
                Some(ValueRow::ErrorCount | ValueRow::Duration)
            )
        });
    let producer = if aiperf {
        Producer::Aiperf
    } else {
        Producer::GenaiPerf
    };

    let mut latency: Vec<LatencyMetric> = Vec::new();
    let mut tokens = TokenStats::default();
    let mut throughput = Throughput::default();
    let mut succeeded = None;
    let mut failed = None;
    let mut seen: Vec<(String, u64)> = Vec::new();
    let mut unknown: Vec<&Row> = Vec::new();

    for section in &sections {
        let header = section.header;
        let names: Vec<String> = header
            .cells
            .iter()
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let is_gpu = names
            .iter()
            .any(|n| n == "gpu" || n == "gpu_index" || n == "gpu_uuid");
        if is_gpu {
            problems.push(Problem::warning(
                file,
                Location::line(header.line),
                format!(
                    "GPU telemetry table ({} rows) skipped: the model has no place for GPU metrics",
                    section.rows.len()
                ),
            ));
            continue;
        }
        let stats: Option<Vec<Option<Stat>>> = (names.len() >= 2)
            .then(|| names[1..].iter().map(|n| statistic_column(n)).collect())
            .flatten();
        let is_values = names.len() == 2 && names[1] == "value";
        if stats.is_none() && !is_values {
            problems.push(Problem::warning(
                file,
                Location::line(header.line),
                format!(
                    "table `{}` is not one GenAI-Perf or AIPerf writes; expected `Metric,avg,…` \
                     or `Metric,Value`; its {} rows are ignored",
                    header.cells.join(","),
                    section.rows.len()
                ),
            ));
            continue;
        }
        for row in &section.rows {
            let (name, unit) = split_label(row.cell(0));
            if let Some((_, first)) = seen.iter().find(|(n, _)| *n == name) {
                problems.push(Problem::warning(
                    file,
                    row.at(0),
                    format!(
                        "`{}` appears again (first at line {first}); this row is ignored",
                        row.cell(0)
                    ),
                ));
                continue;
            }
            seen.push((name.clone(), row.line));
            if row.cells.len() > header.cells.len() {
                problems.push(Problem::warning(
                    file,
                    Location::line(row.line),
                    format!(
                        "expected {} cells as in the header at line {}, found {}; the extra \
                         cells are ignored",
                        header.cells.len(),
                        header.line,
                        row.cells.len()
                    ),
                ));
            }
            match &stats {
                Some(stats) => {
                    let per_user = read_request_row(
                        file,
                        row,
                        &name,
                        unit.as_deref(),
                        stats,
                        &mut latency,
                        &mut tokens,
                        &mut problems,
                        &mut unknown,
                    );
                    if per_user.is_some() {
                        throughput.output_tok_s_per_user = per_user;
                    }
                }
                None => {
                    let Some(value) = number(file, row, 1, &mut problems) else {
                        continue;
                    };
                    let Some(kind) = value_row(&name) else {
                        unknown.push(row);
                        continue;
                    };
                    match kind {
                        ValueRow::OutputTokS
                        | ValueRow::TotalTokS
                        | ValueRow::RequestsPerS
                        | ValueRow::GoodputPerS => {
                            if !is_per_second(unit.as_deref()) {
                                problems.push(Problem::error(
                                    file,
                                    row.at(0),
                                    format!(
                                        "`{}`: expected a rate per second (`per sec`, `tokens/sec`), \
                                         found the unit `{}`; the value is ignored",
                                        row.cell(0),
                                        unit.as_deref().unwrap_or("")
                                    ),
                                ));
                                continue;
                            }
                            let slot = match kind {
                                ValueRow::OutputTokS => &mut throughput.output_tok_s,
                                ValueRow::TotalTokS => &mut throughput.total_tok_s,
                                ValueRow::RequestsPerS => &mut throughput.requests_per_s,
                                _ => &mut throughput.goodput_req_s,
                            };
                            *slot = Some(value);
                        }
                        ValueRow::RequestCount => {
                            succeeded = count(file, row, value, &mut problems)
                        }
                        ValueRow::ErrorCount => failed = count(file, row, value, &mut problems),
                        ValueRow::TotalInput => {
                            tokens.total_input = count(file, row, value, &mut problems)
                        }
                        ValueRow::TotalOutput => {
                            tokens.total_output = count(file, row, value, &mut problems)
                        }
                        ValueRow::Duration => {}
                    }
                }
            }
        }
    }
    problems.extend(unknown_rows(file, &unknown));
    problems.extend(broken);

    let mut out = ImportedFile {
        file: file.to_string(),
        producer: Some(producer),
        runs: Vec::new(),
        problems: Vec::new(),
        joined: Vec::new(),
        joined_into: None,
    };
    let Some(first) = rows.first() else {
        out.problems.push(Problem::error(
            file,
            Location::line(1),
            "expected the `Metric,avg,…` table of a GenAI-Perf or AIPerf CSV",
        ));
        out.problems.append(&mut problems);
        return out;
    };
    if latency.is_empty() && succeeded.is_none() && throughput == Throughput::default() {
        problems.push(Problem::error(
            file,
            Location::line(first.line + 1),
            "no metric could be read; expected rows such as `Request Latency (ms)` and \
             `Request Count (count)`",
        ));
        out.problems.append(&mut problems);
        return out;
    }

    let (config, load) = match artifact_directory(file) {
        Some(found) => found,
        None => {
            problems.push(Problem::warning(
                file,
                Location::File,
                "the load point is unknown: the CSV does not record it, and the file is not in a \
                 GenAI-Perf artifact directory named `{model}-{endpoint}-{concurrencyN|\
                 request_rateR}`; the JSON summary beside it (`profile_export_*.json`) has it",
            ));
            (
                ConfigIdentity::default(),
                LoadTarget::MaxThroughput, // the model's "no load knob"
            )
        }
    };
    if succeeded.is_none() && failed.is_some_and(|n| n > 0) && latency.is_empty() {
        // AIPerf writes no valid-request metrics when every request failed.
        succeeded = Some(0);
    }
    if succeeded == Some(0) {
        problems.push(Problem::warning(
            file,
            Location::line(first.line),
            "no request succeeded; the run is shown as failed, its statistics are ignored",
        ));
        latency.clear();
        throughput.output_tok_s = None;
        throughput.output_tok_s_per_user = None;
        throughput.total_tok_s = None;
        tokens.input_len = None;
        tokens.output_len = None;
    }
    latency.sort_by_key(|m| m.metric);
    out.runs.push(Run {
        provenance: Provenance {
            file: file.to_string(),
            location: Location::line(first.line),
            producer,
            producer_version: None,
        },
        config,
        load: LoadPoint {
            target: load,
            max_concurrency: None,
            achieved_rps: throughput.requests_per_s,
            achieved_concurrency: None,
        },
        requests: RequestCounts {
            total: succeeded.zip(failed).map(|(s, f)| s.saturating_add(f)),
            succeeded,
            failed,
            incomplete: None,
        },
        latency,
        throughput,
        tokens,
        samples: None,
        problems,
    });
    out
}

#[allow(clippy::too_many_arguments)]
fn read_request_row<'a>(
    file: &str,
    row: &'a Row,
    name: &str,
    unit: Option<&str>,
    stats: &[Option<Stat>],
    latency: &mut Vec<LatencyMetric>,
    tokens: &mut TokenStats,
    problems: &mut Vec<Problem>,
    unknown: &mut Vec<&'a Row>,
) -> Option<f64> {
    let Some(kind) = request_row(name) else {
        unknown.push(row);
        return None;
    };
    let scale = match kind {
        RequestRow::Latency(_) => match unit.and_then(ms_per) {
            Some(s) => s,
            None => {
                problems.push(Problem::error(
                    file,
                    row.at(0),
                    format!(
                        "`{}`: expected a time unit in the label, `(ms)`, `(s)`, `(us)` or \
                         `(ns)`; this metric is skipped",
                        row.cell(0)
                    ),
                ));
                return None;
            }
        },
        RequestRow::PerUserRate | RequestRow::InputLength | RequestRow::OutputLength => 1.0,
    };
    let mut d = Distribution::default();
    for (i, stat) in stats.iter().enumerate() {
        let Some(stat) = *stat else { continue };
        let Some(v) = number(file, row, i + 1, problems) else {
            continue;
        };
        let v = v * scale;
        match stat {
            Stat::Mean => d.mean = Some(v),
            Stat::Median => d.median = Some(v),
            Stat::Std => d.std = Some(v),
            Stat::Min => d.min = Some(v),
            Stat::Max => d.max = Some(v),
            Stat::P(p) => d.set_percentile(p, v),
        }
    }
    if d.is_empty() {
        return None;
    }
    match kind {
        RequestRow::Latency(metric) => latency.push(LatencyMetric {
            metric,
            distribution: d,
        }),
        RequestRow::InputLength => tokens.input_len = Some(d),
        RequestRow::OutputLength => tokens.output_len = Some(d),
        // Its mean is the rate one user sees; the caller keeps it with the run's rates.
        RequestRow::PerUserRate => return d.mean,
    }
    None
}

/// One warning for every row whose metric benchdeck does not read (AIPerf writes a dozen HTTP
/// timings and token counts besides the latencies), at the first of them.
fn unknown_rows(file: &str, rows: &[&Row]) -> Option<Problem> {
    let (first, rest) = rows.split_first()?;
    let message = if rest.is_empty() {
        format!(
            "`{}` is not a metric benchdeck reads from GenAI-Perf or AIPerf; its values are ignored",
            first.cell(0)
        )
    } else {
        let names: Vec<String> = rows
            .iter()
            .map(|r| format!("`{}` (line {})", r.cell(0), r.line))
            .collect();
        format!(
            "{} rows hold metrics benchdeck does not read from GenAI-Perf or AIPerf; their \
             values are ignored: {}",
            rows.len(),
            names.join(", ")
        )
    };
    Some(Problem::warning(file, first.at(0), message))
}

/// Cell `i` as a finite number; `N/A` and empty cells are missing.
fn number(file: &str, row: &Row, i: usize, problems: &mut Vec<Problem>) -> Option<f64> {
    match parse_number(row.cell(i), &[]) {
        Reading::Value(v) if v.is_finite() => Some(v),
        Reading::Missing => None,
        _ => {
            problems.push(Problem::error(
                file,
                row.at(i),
                format!(
                    "`{}`: expected a number, found `{}`",
                    row.cell(0),
                    row.cell(i)
                ),
            ));
            None
        }
    }
}

fn count(file: &str, row: &Row, value: f64, problems: &mut Vec<Problem>) -> Option<u64> {
    if value >= 0.0 && value.fract() == 0.0 && value <= 9.0e15 {
        Some(value as u64)
    } else {
        problems.push(Problem::error(
            file,
            row.at(1),
            format!(
                "`{}`: expected a whole number of at least 0, found {value}",
                row.cell(0)
            ),
        ));
        None
    }
}

fn is_per_second(unit: Option<&str>) -> bool {
    let Some(unit) = unit else { return true };
    let u = unit.trim().to_ascii_lowercase();
    u == "per sec"
        || u == "per second"
        || u.ends_with("/sec")
        || u.ends_with("/s")
        || u.ends_with("/second")
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
