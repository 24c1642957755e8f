//! ray-project/llmperf `token_benchmark_ray.py` results: `*_summary.json` (one flat object per
//! run) and `*_individual_responses.json` (an array with one object per request).
//!
//! Summary keys are `results_<X>_quantiles_p{25,50,75,90,95,99}` and
//! `results_<X>_{mean,min,max,stddev}` for each per-request metric X, computed over the requests
//! that did not error, plus request totals. Times are **seconds** (converted to ms here).
//!
//! Pitfalls handled here:
//! - `inter_token_latency_s` is the request latency divided by its output tokens, so it
//!   **includes the TTFT**: it is imported as [`Metric::TpotInclFirst`], never as
//!   [`Metric::Tpot`].
//! - Integer minimums and maximums are written as strings (`"131"`), numpy's `default=str`.
//! - With fewer than two successes `stddev` is a bare `NaN`; with none, every statistic is `NaN`.
//!   `NaN` is a missing value, and a run with zero completed requests is marked failed.
//! - `results_error_code_frequency` is a Python dict repr (`"{429: 3}"`); it is checked against
//!   `results_number_errors` and used for the failure count when that is missing.
//! - The only load setting is `num_concurrent_requests` (closed loop).
//! - Token counts come from llmperf's own Llama tokenizer, not the model's.
//! - `mean_input_tokens` / `mean_output_tokens` are the configured targets (the workload), not
//!   what was measured (`results_number_input_tokens_*`).
//!
//! The per-request file has no model and no load setting (they are in the summary next to it):
//! its run carries the per-request samples and counts, without a load axis.

use serde_json::{Map, Value};

use super::fields::{set_stat, Fields};
use super::json_objects::metadata_identity;
use super::{ImportedFile, NOT_A_RUN_OBJECT};
use crate::model::{
    Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer, Provenance,
    RequestCounts, RequestSamples, Run, Throughput, TokenStats, Workload,
};
use crate::number::describe_json;
use crate::problem::Problem;

/// The results format version llmperf writes.
const RESULTS_VERSION: &str = "2023-08-31";

/// True for a `*_summary.json` object: llmperf's results version and `results_*` keys.
pub(super) fn is_summary(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    let version = obj.get("version").and_then(Value::as_str) == Some(RESULTS_VERSION);
    version && obj.keys().any(|k| k.starts_with("results_"))
}

/// True for a `*_individual_responses.json` array: objects with `end_to_end_latency_s`.
pub(super) fn is_individual_responses(value: &Value) -> bool {
    let Some(items) = value.as_array() else {
        return false;
    };
    items.iter().any(|item| {
        item.as_object()
            .is_some_and(|o| o.contains_key("end_to_end_latency_s"))
    })
}

/// The per-request metrics of a summary and where each goes.
enum Destination {
    Latency(Metric),
    InputTokens,
    OutputTokens,
    /// Per-request output tokens per second: the model has no place for it.
    Ignored,
}

const SUMMARY_METRICS: [(&str, Destination); 6] = [
    ("ttft_s", Destination::Latency(Metric::Ttft)),
    ("end_to_end_latency_s", Destination::Latency(Metric::E2e)),
    // e2e / output tokens, TTFT included.
    (
        "inter_token_latency_s",
        Destination::Latency(Metric::TpotInclFirst),
    ),
    ("number_input_tokens", Destination::InputTokens),
    ("number_output_tokens", Destination::OutputTokens),
    (
        "request_output_throughput_token_per_s",
        Destination::Ignored,
    ),
];

/// Splits `results_ttft_s_quantiles_p95` into (index into [`SUMMARY_METRICS`], `p95`).
fn summary_key(key: &str) -> Option<(usize, &str)> {
    let rest = key.strip_prefix("results_")?;
    SUMMARY_METRICS
        .iter()
        .enumerate()
        .find_map(|(i, (name, _))| {
            let stat = rest.strip_prefix(name)?.strip_prefix('_')?;
            let stat = stat.strip_prefix("quantiles_").unwrap_or(stat);
            let known = matches!(stat, "mean" | "min" | "max" | "stddev")
                || stat
                    .strip_prefix('p')
                    .is_some_and(|n| !n.is_empty() && n.parse::<f64>().is_ok());
            known.then_some((i, stat))
        })
}

/// Reads one summary object.
pub(super) fn read_summary_document(out: &mut ImportedFile, value: &Value, at: Location) {
    let Some(obj) = out.require(value.as_object(), &at, NOT_A_RUN_OBJECT) else {
        return;
    };
    let mut f = Fields::new(obj, &out.file, at.clone());

    let mut config = metadata_identity(&mut f);
    config.model = f.string("model");

    let target = read_concurrency(&mut f);

    let requests = read_summary_counts(&mut f);
    if requests.succeeded == Some(0) {
        f.warn_at(
            "results_num_completed_requests",
            "no request completed; the run is shown as failed, its statistics are ignored",
        );
    }

    let (latency, tokens) = read_summary_metrics(&mut f, obj);

    let requests_per_s = f
        .non_negative("results_num_completed_requests_per_min")
        .map(|per_min| per_min / 60.0);
    let throughput = Throughput {
        output_tok_s: f.non_negative("results_mean_output_throughput_token_per_s"),
        requests_per_s,
        ..Throughput::default()
    };

    let date = f.date("timestamp");
    // The configured mean lengths (`--mean-input-tokens`), not the measured ones.
    let configured = |f: &mut Fields<'_>, key: &str| {
        f.non_negative(key)
            .filter(|v| *v >= 1.0 && *v < 1e12)
            .map(|v| v.round() as u64)
    };
    let workload = Workload {
        input_len: configured(&mut f, "mean_input_tokens"),
        output_len: configured(&mut f, "mean_output_tokens"),
        ..Workload::default()
    };
    let load = LoadPoint {
        achieved_rps: requests_per_s,
        ..LoadPoint::new(target)
    };
    let provenance = Provenance {
        date,
        ..Provenance::new(&out.file, at, Producer::Llmperf)
    };
    out.runs.push(Run {
        workload,
        problems: f.problems,
        ..Run::new(provenance, config, load).measured(requests, latency, throughput, tokens)
    });
}

/// The load: `num_concurrent_requests`, or maximum throughput (with an error) when it is missing
/// or below 1.
fn read_concurrency(f: &mut Fields<'_>) -> LoadTarget {
    let key = "num_concurrent_requests";
    match f.number(key) {
        Some(c) if c.is_finite() && c >= 1.0 => LoadTarget::Concurrency(c),
        Some(c) => {
            f.error_at(
                key,
                format!("expected the number of concurrent requests (at least 1), found {c}"),
            );
            LoadTarget::MaxThroughput
        }
        None => {
            if f.obj.get(key).is_none_or(Value::is_null) {
                f.error_at(key, "missing; expected the number of concurrent requests");
            }
            LoadTarget::MaxThroughput
        }
    }
}

/// The latencies (in ms, the model's order) and token lengths of a summary's
/// `results_<metric>_<stat>` keys ([`SUMMARY_METRICS`]).
fn read_summary_metrics(
    f: &mut Fields<'_>,
    obj: &Map<String, Value>,
) -> (Vec<LatencyMetric>, TokenStats) {
    let mut dists: Vec<Distribution> = vec![Distribution::default(); SUMMARY_METRICS.len()];
    for key in obj.keys() {
        let Some((i, stat)) = summary_key(key) else {
            continue;
        };
        let Some(value) = f.number(key) else { continue };
        if !value.is_finite() {
            f.error_at(key, format!("expected a finite number, found {value}"));
            continue;
        }
        let scale = match SUMMARY_METRICS.get(i) {
            Some((_, Destination::Latency(_))) => 1000.0,
            _ => 1.0,
        };
        if let Some(d) = dists.get_mut(i) {
            set_stat(d, stat, value * scale);
        }
    }
    let mut latency = Vec::new();
    let mut tokens = TokenStats::default();
    for ((_, target), d) in SUMMARY_METRICS.iter().zip(dists) {
        if d.is_empty() {
            continue;
        }
        match target {
            Destination::Latency(metric) => latency.push(LatencyMetric {
                metric: *metric,
                distribution: d,
            }),
            Destination::InputTokens => tokens.input_len = Some(d),
            Destination::OutputTokens => tokens.output_len = Some(d),
            Destination::Ignored => {}
        }
    }
    latency.sort_by_key(|m| m.metric);
    (latency, tokens)
}

/// Started, completed (successes) and errored requests; the error-code repr is cross-checked.
fn read_summary_counts(f: &mut Fields<'_>) -> RequestCounts {
    let total = f.count("results_num_requests_started");
    let succeeded = f.count("results_num_completed_requests");
    let errors = f.count("results_number_errors");
    let key = "results_error_code_frequency";
    let by_code = match f.obj.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => match parse_code_counts(s) {
            Some(counts) => Some(counts.iter().map(|(_, n)| n).sum::<u64>()),
            None => {
                f.warn_at(
                    key,
                    format!(
                        "expected a Python dict of error codes to counts such as \"{{429: 3}}\", \
                         found {}; the error codes are ignored",
                        describe_json(&Value::String(s.clone()))
                    ),
                );
                None
            }
        },
        Some(other) => {
            f.warn_at(
                key,
                format!(
                    "expected a Python dict repr as text, such as \"{{429: 3}}\", found {}",
                    describe_json(other)
                ),
            );
            None
        }
    };
    if let (Some(e), Some(b)) = (errors, by_code) {
        if e != b {
            f.warn_at(
                key,
                format!("the error codes add up to {b}, but `results_number_errors` is {e}"),
            );
        }
    }
    let failed = errors
        .or(by_code)
        .or_else(|| total?.checked_sub(succeeded?));
    if let (Some(t), Some(s)) = (total, succeeded) {
        if s > t {
            f.warn_at(
                "results_num_completed_requests",
                format!("{s} requests completed but only {t} were started"),
            );
        }
    }
    RequestCounts {
        total,
        succeeded,
        failed,
        incomplete: None,
    }
}

/// Parses a Python dict repr of error codes to counts: `{}`, `{429: 3, 500: 1}`,
/// `{429.0: 3}`, `{np.int64(429): np.int64(3)}`, `{'429': 3}`.
pub(crate) fn parse_code_counts(text: &str) -> Option<Vec<(String, u64)>> {
    let inner = text.trim().strip_prefix('{')?.strip_suffix('}')?.trim();
    if inner.is_empty() {
        return Some(Vec::new());
    }
    inner
        .split(',')
        .map(|pair| {
            let (code, count) = pair.split_once(':')?;
            let code = unwrap_repr(code);
            let count = unwrap_repr(count);
            let count = count.parse::<u64>().ok().or_else(|| {
                count
                    .parse::<f64>()
                    .ok()
                    .filter(|c| c.fract() == 0.0 && *c >= 0.0 && *c < 9.0e15)
                    .map(|c| c as u64)
            })?;
            (!code.is_empty()).then(|| (code.to_string(), count))
        })
        .collect()
}

/// `np.int64(429)` → `429`, `'429'` → `429`.
fn unwrap_repr(text: &str) -> &str {
    let mut s = text.trim();
    if let Some(open) = s.find('(') {
        if s.ends_with(')') {
            s = &s[open + 1..s.len() - 1];
        }
    }
    s.trim().trim_matches(|c| c == '\'' || c == '"').trim()
}

/// Reads an individual-responses array into one run of per-request samples.
pub(super) fn read_individual_document(out: &mut ImportedFile, value: &Value, at: Location) {
    let Some(items) = out.require(
        value.as_array(),
        &at,
        "expected a JSON array with one object per request",
    ) else {
        return;
    };
    let mut problems = Vec::new();
    let mut samples = RequestSamples::default();
    let mut more_problems = 0usize;
    const SHOWN: usize = 20;
    for (i, item) in items.iter().enumerate() {
        let item_at = at.child(&format!("[{i}]"));
        let Some(obj) = item.as_object() else {
            let problem = Problem::error(
                &out.file,
                item_at,
                format!(
                    "expected an object for one request, found {}; this request is skipped",
                    describe_json(item)
                ),
            );
            if problems.len() < SHOWN {
                problems.push(problem);
            } else {
                more_problems += 1;
            }
            continue;
        };
        let mut f = Fields::new(obj, &out.file, item_at);
        read_request(&mut f, obj, &mut samples);
        for p in f.problems {
            if problems.len() < SHOWN {
                problems.push(p);
            } else {
                more_problems += 1;
            }
        }
    }
    if more_problems > 0 {
        problems.push(Problem::error(
            &out.file,
            at.clone(),
            format!("{more_problems} more problems in other requests"),
        ));
    }
    if samples.is_empty() {
        problems.push(Problem::error(
            &out.file,
            at,
            "no request could be read; expected objects with `end_to_end_latency_s`",
        ));
        out.problems.append(&mut problems);
        return;
    }
    let succeeded = samples.ok.iter().filter(|ok| **ok).count() as u64;
    let total = samples.len() as u64;
    if succeeded == 0 {
        problems.push(Problem::warning(
            &out.file,
            at.clone(),
            "every request failed; the run is shown as failed",
        ));
    }
    problems.push(Problem::warning(
        &out.file,
        at.clone(),
        "per-request file: it names no model and no concurrency, so the run has no load axis; \
         the `*_summary.json` written next to it has both",
    ));
    let mut run = Run::new(
        Provenance::new(&out.file, at, Producer::Llmperf),
        Default::default(),
        LoadPoint::new(LoadTarget::MaxThroughput),
    );
    run.requests = RequestCounts::counted(total, succeeded);
    run.samples = Some(std::sync::Arc::new(samples));
    run.problems = problems;
    out.runs.push(run);
}

/// One request: `error_code` (null on success) and `error_msg`, times in seconds.
fn read_request(f: &mut Fields<'_>, obj: &Map<String, Value>, samples: &mut RequestSamples) {
    // Any non-null code is a failure (an HTTP status, or whatever the client put there).
    let code_failed = !obj.get("error_code").is_none_or(Value::is_null);
    let message_failed = f.string("error_msg").is_some();
    let ok = !(code_failed || message_failed);
    if ok && obj.get("end_to_end_latency_s").is_none_or(Value::is_null) {
        f.error_at(
            "end_to_end_latency_s",
            "missing on a successful request; expected its latency in seconds",
        );
    }
    let mut read = |key: &str, scale: f64| -> f64 {
        match f.number(key) {
            Some(v) if v.is_finite() && v >= 0.0 => v * scale,
            Some(v) => {
                f.error_at(key, format!("expected a number of at least 0, found {v}"));
                f64::NAN
            }
            None => f64::NAN,
        }
    };
    let ttft = read("ttft_s", 1000.0);
    let e2e = read("end_to_end_latency_s", 1000.0);
    let input = read("number_input_tokens", 1.0);
    let output = read("number_output_tokens", 1.0);
    // TPOT excluding the first token, as the model defines it (llmperf's own
    // `inter_token_latency_s` includes the TTFT).
    let tpot = if ok && output > 1.0 {
        (e2e - ttft) / (output - 1.0)
    } else {
        f64::NAN
    };
    samples.push(ok, ttft, e2e, tpot, input, output);
}

#[cfg(test)]
mod tests;
