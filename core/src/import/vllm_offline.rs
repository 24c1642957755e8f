//! vLLM's offline benchmarks, `vllm bench throughput --output-json` and
//! `vllm bench latency --output-json` (also `benchmarks/benchmark_{throughput,latency}.py`).
//!
//! - Throughput: `{elapsed_time, num_requests, total_num_tokens, requests_per_second,
//!   tokens_per_second}`. **`tokens_per_second` counts prompt and output tokens**, so it is the
//!   total token throughput, never the output throughput.
//! - Latency: `{avg_latency, std_latency, latencies[], percentiles{"10".."99"}}`, all in
//!   **seconds** (converted to ms here). Each value is the time one whole batch took to generate,
//!   from submitting it to the last token of its slowest request, so it is imported as the
//!   end-to-end latency ([`Metric::E2e`]) of a batch; the percentile keys are strings.
//!
//! Neither file names the model, the batch size or the input and output lengths (those are
//! command-line settings), so the configuration is unnamed and the run has no load axis
//! ([`LoadTarget::MaxThroughput`]); name the configuration in the report.

use serde_json::Value;

use super::fields::Fields;
use super::json_objects::object;
use super::{ImportedFile, NOT_A_RUN_OBJECT};
use crate::model::{
    ConfigIdentity, Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer,
    Provenance, RequestCounts, Run, Throughput,
};
use crate::number::{describe_json, json_number, Reading};
use crate::problem::Problem;

/// True for a `vllm bench throughput` result object.
pub(super) fn is_throughput_result(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    [
        "elapsed_time",
        "num_requests",
        "requests_per_second",
        "tokens_per_second",
    ]
    .iter()
    .all(|k| obj.contains_key(*k))
}

/// True for a `vllm bench latency` result object.
pub(super) fn is_latency_result(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    obj.contains_key("avg_latency")
        && (obj.contains_key("latencies") || obj.contains_key("percentiles"))
}

/// Reads one `vllm bench throughput` object.
pub(super) fn read_throughput_document(out: &mut ImportedFile, value: &Value, at: Location) {
    let Some(obj) = out.require(value.as_object(), &at, NOT_A_RUN_OBJECT) else {
        return;
    };
    let mut f = Fields::new(obj, &out.file, at.clone());
    let requests_per_s = f.non_negative("requests_per_second");
    let total_tok_s = f.non_negative("tokens_per_second");
    for key in ["requests_per_second", "tokens_per_second"] {
        if !f.has(key) || f.obj.get(key).is_some_and(Value::is_null) {
            f.error_at(key, "missing; expected a rate per second");
        }
    }
    let _ = f.non_negative("elapsed_time");
    let requests = RequestCounts {
        total: f.count("num_requests"),
        ..RequestCounts::default()
    };
    let _ = f.count("total_num_tokens");
    let mut run = Run::new(
        Provenance::new(&out.file, at, Producer::VllmThroughput),
        ConfigIdentity::default(),
        LoadPoint {
            achieved_rps: requests_per_s,
            ..LoadPoint::new(LoadTarget::MaxThroughput)
        },
    );
    run.requests = requests;
    run.throughput = Throughput {
        // Prompt plus output tokens: the total, not the output throughput.
        total_tok_s,
        requests_per_s,
        ..Throughput::default()
    };
    run.problems = f.problems;
    out.runs.push(run);
}

/// Reads one `vllm bench latency` object.
pub(super) fn read_latency_document(out: &mut ImportedFile, value: &Value, at: Location) {
    let Some(obj) = out.require(value.as_object(), &at, NOT_A_RUN_OBJECT) else {
        return;
    };
    let mut f = Fields::new(obj, &out.file, at.clone());
    let mut d = Distribution {
        mean: seconds(&mut f, "avg_latency"),
        std: seconds(&mut f, "std_latency"),
        ..Distribution::default()
    };
    if let Some(latencies) = f.numbers("latencies", 1000.0) {
        let finite = latencies.iter().copied().filter(|v| v.is_finite());
        d.min = finite.clone().reduce(f64::min);
        d.max = finite.reduce(f64::max);
    }
    if let Some(percentiles) = object(&mut f, "percentiles") {
        let at = f.at.child("percentiles");
        for (key, value) in percentiles {
            let rank = key.trim().trim_start_matches('p').parse::<f64>().ok();
            let Some(rank) = rank.filter(|r| (0.0..=100.0).contains(r)) else {
                f.problems.push(Problem::warning(
                    f.file,
                    at.child(key),
                    "expected a percentile rank from 0 to 100 as the key, such as \"99\"; \
                     this value is ignored",
                ));
                continue;
            };
            match json_number(value) {
                Reading::Value(v) if v.is_finite() && v >= 0.0 => {
                    d.set_percentile(rank, v * 1000.0)
                }
                Reading::Missing => {}
                _ => f.problems.push(Problem::error(
                    f.file,
                    at.child(key),
                    format!(
                        "expected a latency of at least 0 s, found {}",
                        describe_json(value)
                    ),
                )),
            }
        }
    }
    if d.is_empty() {
        f.error_at(
            "avg_latency",
            "no latency could be read; expected `avg_latency`, `latencies` or `percentiles` in seconds",
        );
    }
    let mut run = Run::new(
        Provenance::new(&out.file, at, Producer::VllmLatency),
        ConfigIdentity::default(),
        LoadPoint::new(LoadTarget::MaxThroughput),
    );
    if !d.is_empty() {
        run.latency = vec![LatencyMetric {
            metric: Metric::E2e,
            distribution: d,
        }];
    }
    run.problems = f.problems;
    out.runs.push(run);
}

/// A non-negative number of seconds at `key`, in ms.
fn seconds(f: &mut Fields<'_>, key: &str) -> Option<f64> {
    Some(f.non_negative(key)? * 1000.0)
}

#[cfg(test)]
mod tests;
