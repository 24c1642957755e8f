//! `stage_N_prometheus_metrics.json` and `summary_prometheus_metrics.json`: the model server's own
//! Prometheus metrics, queried by inference-perf over a stage's (or the whole benchmark's) time
//! window, in the lifecycle report's shape with `load_summary` and `failures` empty.
//!
//! `successes` holds, as the server reports them:
//! - `count` (requests finished in the window) and `rate` (req/s);
//! - `prompt_len` and `output_len`: `{mean, rate}`, **both token rates** (tokens/s), not
//!   lengths: `rate` is kept as the server's prompt and output throughput;
//! - time histograms in **seconds** as `{mean, median, p90, p99}` (quantiles interpolated within
//!   the histogram's buckets): `request_latency`, `time_to_first_token`,
//!   `time_per_output_token`, `inter_token_latency`, `request_queue_time`,
//!   `request_inference_time`, `request_prefill_time`, `request_decode_time` and the KV-block
//!   times, converted to ms;
//! - gauges and counters (`kv_cache_usage_percentage`, `num_requests_running`,
//!   `prefix_cache_hit_percent`, `prompt_tokens_cached`, …), kept by name as they are.
//!
//! A query that failed is written as 0.0 and an empty window as a bare `NaN` (read as missing).
//! The file is not a run: its numbers are the server's, over a window that may hold other
//! traffic. `import_all` attaches a stage's file to that stage's run
//! ([`crate::model::Run::server`]).

use serde_json::Value;

use crate::import::fields::Fields;
use crate::import::json_objects::distribution_of;
use crate::import::ImportedFile;
use crate::model::{Location, ServerMetrics};
use crate::number::{describe_json, json_number, Reading};
use crate::problem::Problem;

/// The warning of a server-metrics file read alone.
pub(crate) const NOT_A_RUN: &str = "the model server's own Prometheus metrics";

/// The time histograms, in seconds.
const TIMES: [&str; 11] = [
    "request_latency",
    "time_to_first_token",
    "time_per_output_token",
    "inter_token_latency",
    "request_queue_time",
    "request_inference_time",
    "request_prefill_time",
    "request_decode_time",
    "kv_block_idle_before_evict",
    "kv_block_lifetime",
    "kv_block_reuse_gap",
];

/// True for a server-metrics file: empty `load_summary`, and `successes` with the server's
/// gauges.
pub(crate) fn is_prometheus(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    let empty_load = obj
        .get("load_summary")
        .and_then(Value::as_object)
        .is_some_and(|l| l.is_empty());
    let successes = obj.get("successes").and_then(Value::as_object);
    empty_load
        && successes.is_some_and(|s| {
            ["queue_len", "kv_cache_usage_percentage", "rate"]
                .iter()
                .any(|k| s.contains_key(*k))
        })
}

/// Reads the file for its problems and says what it is: not a run.
pub(crate) fn read_prometheus_document(out: &mut ImportedFile, value: &Value, at: Location) {
    let (metrics, mut problems) = server_metrics(&out.file, value, at.clone());
    out.problems.append(&mut problems);
    let what = if metrics.is_some() {
        "holds no requests of the client's"
    } else {
        "holds no value benchdeck could read"
    };
    out.problems.push(Problem::warning(
        &out.file,
        at,
        format!(
            "{NOT_A_RUN} over the benchmark's time window, not a run: it {what}. Beside a \
             `stage_N_lifecycle_metrics.json`, a `stage_N_prometheus_metrics.json` becomes that \
             run's server metrics"
        ),
    ));
}

/// The server metrics of `value`, and the problems found reading them.
pub(crate) fn server_metrics(
    file: &str,
    value: &Value,
    at: Location,
) -> (Option<ServerMetrics>, Vec<Problem>) {
    let Some(successes) = value.get("successes").and_then(Value::as_object) else {
        let problem = Problem::error(
            file,
            at.child("successes"),
            "expected an object of the server's metrics",
        );
        return (None, vec![problem]);
    };
    let mut s = Fields::new(successes, file, at.child("successes"));
    let mut metrics = ServerMetrics {
        file: file.to_string(),
        requests: s.non_negative("count"),
        requests_per_s: s.non_negative("rate"),
        ..ServerMetrics::default()
    };
    for (key, value) in successes {
        read_entry(&mut s, &mut metrics, key, value);
    }
    let read = metrics.requests.is_some() || !metrics.values.is_empty();
    (read.then_some(metrics), s.problems)
}

/// One entry of `successes` into its place in `metrics`.
fn read_entry(s: &mut Fields<'_>, metrics: &mut ServerMetrics, key: &str, value: &Value) {
    match value {
        Value::Object(stats) if TIMES.contains(&key) => {
            let mut inner = Fields::new(stats, s.file, s.at.child(key));
            if let Some(d) = distribution_of(&mut inner, 1000.0) {
                metrics.times_ms.insert(key.to_string(), d);
            }
            s.problems.append(&mut inner.problems);
        }
        Value::Object(stats) => {
            for (stat, v) in stats {
                let name = format!("{key}.{stat}");
                if let Some(v) = number(s, &name, v) {
                    match name.as_str() {
                        "prompt_len.rate" => metrics.prompt_tok_s = Some(v),
                        "output_len.rate" => metrics.output_tok_s = Some(v),
                        _ => {}
                    }
                    metrics.values.insert(name, v);
                }
            }
        }
        _ if key == "count" || key == "rate" => {}
        other => {
            if let Some(v) = number(s, key, other) {
                metrics.values.insert(key.to_string(), v);
            }
        }
    }
}

/// A finite number at `name`; `NaN` (an empty window) is missing, anything else an error.
fn number(s: &mut Fields<'_>, name: &str, value: &Value) -> Option<f64> {
    match json_number(value) {
        Reading::Value(v) if v.is_finite() => Some(v),
        Reading::Missing => None,
        Reading::Value(v) => {
            s.error_at(name, format!("expected a finite number, found {v}"));
            None
        }
        Reading::Invalid => {
            s.error_at(
                name,
                format!("expected a number, found {}", describe_json(value)),
            );
            None
        }
    }
}
