//! AIPerf's per-request records, `profile_export.jsonl`: one JSON object a line, one line per
//! request of the profiling phase, read as **one run** with per-request samples (so its CDF,
//! histograms, tokens and time windows can be drawn).
//!
//! `{"metadata": {…}, "metrics": {"<tag>": {"value": <number or list>, "unit": "<unit>"}},
//! "error": null | {"code", "type", "message"}}`. Each value is converted from its own `unit`
//! (`ms`, `ns`, `sec`, `us`). Tags and what they become:
//! - `time_to_first_token` (`ttft` before 2025-10-10): TTFT; `request_latency`: end-to-end;
//! - `inter_token_latency`: per request (latency − TTFT) / (output tokens − 1), [`Metric::Tpot`];
//! - `time_to_second_token` (`ttst`): TTST, its statistics computed over the requests;
//! - `inter_chunk_latency`: the list of gaps between a request's streamed chunks; every gap of
//!   every successful request, pooled, is [`Metric::Itl`];
//! - `input_sequence_length` (`error_isl` on failures) and `output_sequence_length` (which
//!   counts reasoning tokens): the token counts; `output_token_throughput_per_user`: its mean is
//!   the rate one user sees.
//!
//! A record with an `error` failed: HTTP statuses (`500`, …), `499 RequestCancellationError` for
//! requests AIPerf cancelled on purpose (`--request-cancellation-rate`), `null` for transport
//! errors; the kinds are counted in a warning. Start times are `metadata.request_start_ns`
//! (`timestamp_ns` before 2025-10-09), wall-clock nanoseconds read as whole numbers. Records of
//! another phase than `profiling` (warm-up) are left out and counted.
//!
//! The file names no model and no load point: they come from the artifact folder's name
//! (`…-concurrency4`), and `import_all` joins the file into the `profile_export_aiperf.json`
//! beside it, whose run (model, load, counts: AIPerf does not write every failed request to the
//! records) takes these samples. The statistics of a file read alone are computed from its
//! records (linear percentiles, as AIPerf's).

mod record;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::genai_perf_csv::artifact_directory;
use super::unread::Unread;
use super::ImportedFile;
use crate::analysis::quantile;
use crate::model::{
    Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer, Provenance,
    RequestCounts, RequestSamples, Run,
};
use crate::problem::Problem;
use record::{read_record, Record};

/// The warning of records read without their summary.
pub(crate) const NO_SUMMARY: &str = "read without the `profile_export_aiperf.json` beside it";

/// True when the first line with content is one AIPerf record: `metadata` with a request or
/// worker id, and `metrics` of `{value, unit}` objects.
pub(super) fn is_records(text: &str) -> bool {
    let Some(first) = crate::json::strip_bom(text)
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
    else {
        return false;
    };
    if !first.starts_with('{') || first.len() > 16 * 1024 * 1024 {
        return false;
    }
    let Ok(value) = crate::json::parse(first, 0) else {
        return false;
    };
    is_record(&value)
}

fn is_record(value: &Value) -> bool {
    let metadata = value.get("metadata").and_then(Value::as_object);
    let metrics = value.get("metrics").and_then(Value::as_object);
    metadata.is_some_and(|m| m.contains_key("worker_id") || m.contains_key("x_request_id"))
        && metrics.is_some_and(|m| {
            m.values()
                .all(|v| v.get("value").is_some() && v.get("unit").is_some())
        })
}

/// Most problems listed one by one; the rest are counted.
const SHOWN: usize = 20;

/// Reads every record of `text` into one run.
pub(super) fn read(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile::new(file, Some(Producer::Aiperf));
    let mut records = Vec::new();
    let mut problems = Vec::new();
    let mut more = 0usize;
    let mut unread = BTreeSet::new();
    for line in crate::json::parse_lines(text) {
        let at = Location::line(line.line);
        let mut here = Vec::new();
        match line.value {
            Ok(value) => {
                if let Some(r) = read_record(file, &value, at, &mut here, &mut unread) {
                    records.push(r);
                }
            }
            Err(e) => here.push(Problem::error(
                file,
                e.location,
                format!("{}; this record is skipped", e.message),
            )),
        }
        for p in here {
            if problems.len() < SHOWN {
                problems.push(p);
            } else {
                more += 1;
            }
        }
    }
    if more > 0 {
        problems.push(Problem::error(
            file,
            Location::File,
            format!("{more} more problems in other records"),
        ));
    }
    let warmup = records.iter().filter(|r| !r.profiling).count();
    records.retain(|r| r.profiling);
    if records.is_empty() {
        problems.push(Problem::error(
            file,
            Location::File,
            "no record of the profiling phase could be read; expected one JSON object a line \
             with `metadata`, `metrics` and `error`",
        ));
        out.problems = problems;
        return out;
    }
    let mut run = run_of(file, &records);
    run.problems = problems;
    notes(&mut run, file, &records, warmup, unread);
    out.runs.push(run);
    out
}

/// The run of the records: samples, counts and statistics computed from them.
fn run_of(file: &str, records: &[Record]) -> Run {
    let (config, target) = match artifact_directory(file) {
        Some((config, target)) => (config, target),
        None => (Default::default(), LoadTarget::MaxThroughput),
    };
    let mut run = Run::new(
        Provenance::new(file, Location::File, Producer::Aiperf),
        config,
        LoadPoint::new(target),
    );
    let mut samples = RequestSamples::default();
    for r in records {
        samples.push(r.ok, r.ttft, r.e2e, r.tpot, r.input, r.output);
    }
    let first = records.iter().filter_map(|r| r.start_ns).min();
    if let Some(first) = first {
        let starts: Vec<f64> = records
            .iter()
            .map(|r| r.start_ns.map_or(f64::NAN, |t| (t - first) as f64 / 1e9))
            .collect();
        samples.set_starts(&starts);
    }
    let ok: Vec<&Record> = records.iter().filter(|r| r.ok).collect();
    let values = |get: fn(&Record) -> f64| ok.iter().map(|r| get(r)).collect::<Vec<f64>>();
    for (metric, list) in [
        (Metric::Ttft, values(|r| r.ttft)),
        (Metric::Ttst, values(|r| r.ttst)),
        (Metric::Tpot, values(|r| r.tpot)),
        (Metric::E2e, values(|r| r.e2e)),
        (
            Metric::Itl,
            ok.iter()
                .flat_map(|r| r.chunk_gaps.iter().copied())
                .collect(),
        ),
    ] {
        if let Some(distribution) = summary_of(&list) {
            run.latency.push(LatencyMetric {
                metric,
                distribution,
            });
        }
    }
    run.latency.sort_by_key(|m| m.metric);
    run.tokens.input_len = summary_of(&values(|r| r.input));
    run.tokens.output_len = summary_of(&values(|r| r.output));
    run.tokens.total_input = whole_sum(&values(|r| r.input));
    run.tokens.total_output = whole_sum(&values(|r| r.output));
    run.throughput.output_tok_s_per_user = summary_of(&values(|r| r.per_user)).and_then(|d| d.mean);
    let succeeded = ok.len() as u64;
    run.requests = RequestCounts::counted(records.len() as u64, succeeded);
    run.samples = Some(std::sync::Arc::new(samples));
    run
}

/// Seconds from the earliest of `starts` to the latest of `ends` (wall-clock seconds; values
/// that are not finite are left out): the span a run's rates are measured over. 0 when there is
/// none or it is not positive, so a rate over it is never made.
pub(crate) fn span_s(
    starts: impl IntoIterator<Item = f64>,
    ends: impl IntoIterator<Item = f64>,
) -> f64 {
    let finite = |t: &f64| t.is_finite();
    let first = starts
        .into_iter()
        .filter(finite)
        .fold(f64::INFINITY, f64::min);
    let last = ends
        .into_iter()
        .filter(finite)
        .fold(f64::NEG_INFINITY, f64::max);
    if last > first {
        last - first
    } else {
        0.0
    }
}

/// Mean, median, standard deviation, extremes and percentiles of `values`, as AIPerf computes
/// them (NumPy's population standard deviation and linear percentiles, at p1, p5, p10, p25,
/// p50, p75, p90, p95 and p99); `None` when there are none. An infinite value (a first token
/// that never came) is kept as the slowest: a percentile that reaches it, the mean, the
/// standard deviation and the maximum are unknown, never read low from the finite rest.
pub(crate) fn summary_of(values: &[f64]) -> Option<Distribution> {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| !v.is_nan()).collect();
    crate::order::sort_f64(&mut sorted);
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let finite = |v: f64| v.is_finite().then_some(v);
    let all_finite = sorted.iter().all(|v| v.is_finite());
    let mean = sorted.iter().sum::<f64>() / n as f64;
    let variance = sorted.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n as f64;
    let mut d = Distribution {
        mean: all_finite.then_some(mean),
        median: quantile(&sorted, 0.5).and_then(finite),
        std: all_finite.then(|| variance.sqrt()),
        min: sorted.first().copied().and_then(finite),
        max: sorted.last().copied().and_then(finite),
        percentiles: Vec::new(),
    };
    for p in [1.0, 5.0, 10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0] {
        if let Some(v) = quantile(&sorted, p / 100.0).and_then(finite) {
            d.set_percentile(p, v);
        }
    }
    Some(d)
}

/// The sum of whole token counts, when every value is one.
fn whole_sum(values: &[f64]) -> Option<u64> {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    (!finite.is_empty() && finite.iter().all(|v| *v >= 0.0 && v.fract() == 0.0)).then(|| {
        finite
            .iter()
            .map(|v| *v as u64)
            .fold(0u64, u64::saturating_add)
    })
}

/// The warnings of a records file: the failures by kind, warm-up records left out, the fields
/// not read, and (until the summary is joined) the missing model and load.
fn notes(run: &mut Run, file: &str, records: &[Record], warmup: usize, unread: BTreeSet<String>) {
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for r in records.iter().filter(|r| !r.ok) {
        *kinds.entry(r.error_kind.clone()).or_default() += 1;
    }
    if !kinds.is_empty() {
        let listed: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} ({n})")).collect();
        let cancelled = records.iter().filter(|r| r.cancelled).count();
        let on_purpose = if cancelled > 0 {
            format!(
                "; {cancelled} of them cancelled by AIPerf on purpose \
                 (`--request-cancellation-rate`)"
            )
        } else {
            String::new()
        };
        run.problems.push(Problem::warning(
            file,
            Location::File,
            format!("failed requests by kind: {}{on_purpose}", listed.join(", ")),
        ));
    }
    if warmup > 0 {
        run.problems.push(Problem::warning(
            file,
            Location::File,
            format!(
                "{warmup} records of the warm-up phase are left out, as AIPerf leaves them out"
            ),
        ));
    }
    let mut names = Unread::default();
    for name in unread {
        names.name(name);
    }
    run.problems
        .extend(names.warning(file, Location::File, "AIPerf's records"));
    let source = if run.load.target == LoadTarget::MaxThroughput {
        "the run has no model and no load point"
    } else {
        "the model and load point here come from the artifact folder's name"
    };
    run.problems.push(Problem::warning(
        file,
        Location::File,
        format!(
            "{NO_SUMMARY}: that file names the model and the load point and counts every \
             failure (AIPerf leaves failures without metrics out of the records); {source}"
        ),
    ));
}

#[cfg(test)]
mod tests;
