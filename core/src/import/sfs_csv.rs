//! simple_full_stack_inference `benchmark.py` CSV: one row per load level of a concurrency or
//! request-rate sweep.
//!
//! Columns: `concurrency` or `request_rate`, `total_requests`, `success_count`, `error_count`,
//! `error_rate_%`, then `{ttft,latency,tpot,itl}_p{P}_ms` for the percentiles the run asked for,
//! `requests_per_sec`, `throughput_tokens_per_sec`, and (except for the `fixed` dataset)
//! `{input,output}_tokens_p{P}`.
//!
//! Semantics kept exact: `latency` is end-to-end latency; the "tokens" are streamed chunks and
//! input lengths are word-count estimates (the tool's own choice); `requests_per_sec` counts every
//! request sent, failures included; levels where every request failed are written as zeros and
//! are imported as failed runs without latencies. The file has no model column: the model and
//! dataset come from the tool's file name, `{model}_{dataset}_{axis}_{YYYYmmdd}_{HHMMSS}.csv`,
//! read from the right because model names may contain `_`.

use super::fields::latency_entry;
use super::table::{self, Row, Wanted};
use super::ImportedFile;
use crate::model::{
    ConfigIdentity, Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer,
    Provenance, Rate, RequestCounts, Run, Throughput,
};
use crate::problem::Problem;

/// True when the first line is this tool's header.
pub(super) fn is_sfs_csv(first_line: &str) -> bool {
    let cells = table::header_cells(first_line);
    matches!(cells.first(), Some(&("concurrency" | "request_rate")))
        && cells.contains(&"total_requests")
        && cells.contains(&"success_count")
}

/// What a column holds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Column {
    Load,
    Total,
    Succeeded,
    Failed,
    ErrorRatePercent,
    Latency(Metric, f64),
    InputTokens(f64),
    OutputTokens(f64),
    RequestsPerSec,
    OutputTokensPerSec,
    Unknown,
}

fn column(name: &str, index: usize) -> Column {
    if index == 0 {
        return Column::Load;
    }
    match name {
        "total_requests" => return Column::Total,
        "success_count" => return Column::Succeeded,
        "error_count" => return Column::Failed,
        "error_rate_%" => return Column::ErrorRatePercent,
        "requests_per_sec" => return Column::RequestsPerSec,
        "throughput_tokens_per_sec" => return Column::OutputTokensPerSec,
        _ => {}
    }
    let percentile = |rest: &str| rest.strip_prefix('p').and_then(|p| p.parse::<f64>().ok());
    if let Some(rest) = name.strip_suffix("_ms") {
        if let Some((metric, p)) = rest.rsplit_once('_') {
            let metric = match metric {
                "ttft" => Some(Metric::Ttft),
                "latency" => Some(Metric::E2e),
                "tpot" => Some(Metric::Tpot),
                "itl" => Some(Metric::Itl),
                _ => None,
            };
            if let (Some(metric), Some(p)) = (metric, percentile(p)) {
                return Column::Latency(metric, p);
            }
        }
    }
    if let Some(p) = name.strip_prefix("input_tokens_").and_then(percentile) {
        return Column::InputTokens(p);
    }
    if let Some(p) = name.strip_prefix("output_tokens_").and_then(percentile) {
        return Column::OutputTokens(p);
    }
    Column::Unknown
}

/// Reads the whole file.
pub(super) fn read(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile::new(file, Some(Producer::SimpleFullStackCsv));
    let (rows, broken) = table::read_rows(file, text);
    let Some((header, body)) = out.require(
        rows.split_first(),
        &Location::line(1),
        "expected a header line and one row per load level",
    ) else {
        return out;
    };
    let columns: Vec<Column> = header
        .cells
        .iter()
        .enumerate()
        .map(|(i, name)| column(name, i))
        .collect();
    let by_rate = header.cell(0) == "request_rate";
    for (i, c) in columns.iter().enumerate() {
        if *c == Column::Unknown {
            out.problems.push(Problem::warning(
                file,
                header.at(i),
                format!(
                    "column `{}` is not one benchmark.py writes; its values are ignored",
                    header.cell(i)
                ),
            ));
        }
    }
    let config = identity_from_file_name(file);
    for row in body {
        match read_row(file, header, &columns, row, by_rate, &config) {
            Ok(run) => out.runs.push(run),
            Err(problem) => out.problems.push(problem),
        }
    }
    if body.is_empty() && broken.is_none() {
        out.problems.push(Problem::error(
            file,
            Location::line(header.line + 1),
            "the header has no rows under it; expected one row per load level",
        ));
    }
    out.problems.extend(broken);
    out
}

fn read_row(
    file: &str,
    header: &Row,
    columns: &[Column],
    row: &Row,
    by_rate: bool,
    config: &ConfigIdentity,
) -> Result<Run, Problem> {
    if row.cells.len() != columns.len() {
        return Err(Problem::error(
            file,
            Location::line(row.line),
            format!(
                "expected {} cells as in the header, found {}; this row is skipped",
                columns.len(),
                row.cells.len()
            ),
        ));
    }
    let load = load_target(file, header, row, by_rate)?;
    let mut problems = Vec::new();
    let mut v = values(file, header, columns, row, &mut problems);
    v.latency.sort_by_key(|m| m.metric);
    check_counts(file, row.line, &v, &mut problems);
    if v.requests.succeeded == Some(0) {
        problems.push(Problem::warning(
            file,
            Location::line(row.line),
            "every request failed; the run is shown as failed and its zero latencies are ignored",
        ));
        v.latency.clear();
        v.throughput.output_tok_s = None;
        v.input_len = Distribution::default();
        v.output_len = Distribution::default();
    }

    let mut run = Run::new(
        Provenance::new(file, Location::line(row.line), Producer::SimpleFullStackCsv),
        config.clone(),
        LoadPoint {
            achieved_rps: v.achieved_rps,
            ..LoadPoint::new(load)
        },
    );
    run.requests = v.requests;
    run.latency = v.latency;
    run.throughput = v.throughput;
    run.tokens.input_len = (!v.input_len.is_empty()).then_some(v.input_len);
    run.tokens.output_len = (!v.output_len.is_empty()).then_some(v.output_len);
    run.problems = problems;
    Ok(run)
}

/// The load of the row's first cell: a request rate or a concurrency.
fn load_target(file: &str, header: &Row, row: &Row, by_rate: bool) -> Result<LoadTarget, Problem> {
    // A problem of the load's cell is the row's error.
    match table::number(file, row, 0, header.cell(0), Wanted::Any, &mut Vec::new()) {
        Some(v) if by_rate && v.is_infinite() && v > 0.0 => {
            Ok(LoadTarget::RequestRate(Rate::Infinite))
        }
        Some(v) if by_rate && v.is_finite() && v > 0.0 => {
            Ok(LoadTarget::RequestRate(Rate::PerSecond(v)))
        }
        Some(v) if !by_rate && v.is_finite() && v >= 1.0 => Ok(LoadTarget::Concurrency(v)),
        _ => Err(Problem::error(
            file,
            row.at(0),
            format!(
                "`{}`: expected a positive {}, found `{}`; this row is skipped",
                header.cell(0),
                if by_rate {
                    "request rate"
                } else {
                    "concurrency"
                },
                row.cell(0)
            ),
        )),
    }
}

/// What the cells after the load give.
#[derive(Default)]
struct Values {
    requests: RequestCounts,
    throughput: Throughput,
    achieved_rps: Option<f64>,
    latency: Vec<LatencyMetric>,
    input_len: Distribution,
    output_len: Distribution,
    error_rate: Option<f64>,
}

/// Reads every cell after the load.
fn values(
    file: &str,
    header: &Row,
    columns: &[Column],
    row: &Row,
    problems: &mut Vec<Problem>,
) -> Values {
    let mut v = Values::default();
    for (i, c) in columns.iter().enumerate().skip(1) {
        let Some(value) = table::number(file, row, i, header.cell(i), Wanted::Any, problems) else {
            continue;
        };
        match *c {
            Column::Total => v.requests.total = count(value),
            Column::Succeeded => v.requests.succeeded = count(value),
            Column::Failed => v.requests.failed = count(value),
            Column::ErrorRatePercent => v.error_rate = Some(value),
            Column::Latency(metric, p) => {
                latency_entry(&mut v.latency, metric).set_percentile(p, value);
            }
            Column::InputTokens(p) => v.input_len.set_percentile(p, value),
            Column::OutputTokens(p) => v.output_len.set_percentile(p, value),
            Column::RequestsPerSec => {
                v.throughput.requests_per_s = Some(value);
                v.achieved_rps = Some(value);
            }
            Column::OutputTokensPerSec => v.throughput.output_tok_s = Some(value),
            Column::Load | Column::Unknown => {}
        }
    }
    v
}

/// Warnings when the counts do not add up or the error rate does not match them.
fn check_counts(file: &str, line: u64, v: &Values, problems: &mut Vec<Problem>) {
    let requests = &v.requests;
    if let (Some(total), Some(ok), Some(failed)) =
        (requests.total, requests.succeeded, requests.failed)
    {
        if ok.checked_add(failed) != Some(total) {
            problems.push(Problem::warning(
                file,
                Location::line(line),
                format!("success_count {ok} + error_count {failed} is not total_requests {total}"),
            ));
        }
    }
    if let (Some(rate), Some(total), Some(failed)) = (v.error_rate, requests.total, requests.failed)
    {
        if total > 0 && (rate - 100.0 * failed as f64 / total as f64).abs() > 0.051 {
            problems.push(Problem::warning(
                file,
                Location::line(line),
                format!("error_rate_% {rate} does not match error_count {failed} of {total}"),
            ));
        }
    }
}

/// A request count: a whole number from 0 to 9e15 (beyond that a float cannot hold every
/// whole number, and no benchmark sends that many requests).
fn count(value: f64) -> Option<u64> {
    (value.is_finite() && (0.0..=9.0e15).contains(&value) && value.fract() == 0.0)
        .then_some(value as u64)
}

/// `qwen_vllm_model_sharegpt_concurrency_20260411_131143.csv` → model `qwen_vllm_model`,
/// dataset `sharegpt`. A name of another shape gives the file stem as the label.
pub(super) fn identity_from_file_name(path: &str) -> ConfigIdentity {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let stem = name.strip_suffix(".csv").unwrap_or(name);
    let parse = || -> Option<ConfigIdentity> {
        let (rest, time) = stem.rsplit_once('_')?;
        let (rest, date) = rest.rsplit_once('_')?;
        let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(time, 6) || !digits(date, 8) {
            return None;
        }
        let rest = rest
            .strip_suffix("_concurrency")
            .or_else(|| rest.strip_suffix("_request_rate"))?;
        let (model, dataset) = rest.rsplit_once('_')?;
        if model.is_empty() {
            return None;
        }
        Some(ConfigIdentity {
            model: Some(model.to_string()),
            dataset: Some(dataset.to_string()),
            ..ConfigIdentity::default()
        })
    };
    parse().unwrap_or_else(|| ConfigIdentity {
        label: Some(stem.to_string()),
        ..ConfigIdentity::default()
    })
}

#[cfg(test)]
mod tests;
