//! NVIDIA GenAI-Perf `profile_export_genai_perf.json` and its successor AIPerf's
//! `profile_export_aiperf.json`: one run per file, one object per metric.
//!
//! Request metrics are `{"unit": "ms", "avg", "min", "max", "std", "p1"…"p99"}`; system metrics
//! are `{"unit", "avg"}` (`request_throughput`, `output_token_throughput`, `request_count`,
//! `request_goodput`). AIPerf writes the metrics at the top level, or (some 2025 builds) under
//! `records`, each with its `tag` and `header`. Times are converted from the unit each metric
//! names.
//!
//! Metric definitions:
//! - `inter_token_latency` is per request (e2e − ttft) / (output tokens − 1), i.e. vLLM's TPOT
//!   ([`Metric::Tpot`]); `time_to_second_token` is [`Metric::Ttst`]; `request_latency` is
//!   [`Metric::E2e`].
//! - `output_token_throughput` (all requests together) is the output throughput.
//!   `output_token_throughput_per_user` (before 2025-04: `output_token_throughput_per_request`)
//!   is a per-request rate, not a throughput of the run: its mean is the rate one user sees
//!   (`output_tok_s_per_user`).
//!
//! AIPerf's `records` layout (2025-08 to 2025-10-09) tags TTFT and TTST `ttft` and `ttst`;
//! both names are read.
//!
//! Load and model come from `input_config`, in three layouts:
//! - GenAI-Perf since 2025-03: `model_names[]`, `perf_analyzer.stimulus` =
//!   `{"concurrency": N}` or `{"request_rate": R}` (`None` written as `""`);
//! - GenAI-Perf before: flat `model` (list), `concurrency`, `request_rate`;
//! - AIPerf: `endpoint.model_names[]`, `loadgen.concurrency` / `loadgen.request_rate` (a rate with
//!   a concurrency is a capped rate).
//!
//! Failures: GenAI-Perf's summary has none (only perf_analyzer's raw export does), so its failed
//! count is unknown. AIPerf has `error_request_count` and `error_summary[].count`; its
//! `request_count` counts valid (successful) requests. `was_cancelled: true` is reported.

use serde_json::{Map, Value};

use super::fields::Fields;
use super::json_objects::{distribution_of, ms_per, nested, object, whole};
use super::ImportedFile;
use crate::model::{
    ConfigIdentity, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer, Provenance,
    Rate, RequestCounts, Run, Throughput, TokenStats,
};
use crate::number::describe_json;
use crate::problem::Problem;

/// True for an object holding metric objects (`unit` and `avg`).
fn has_metric_objects(obj: &Map<String, Value>) -> bool {
    let is_metric = |v: &Value| {
        v.as_object()
            .is_some_and(|m| m.contains_key("unit") && m.contains_key("avg"))
    };
    obj.values().any(is_metric)
        || obj
            .get("records")
            .and_then(Value::as_object)
            .is_some_and(|r| r.values().any(is_metric))
}

/// The object of a GenAI-Perf or AIPerf summary: `input_config` and metric objects.
fn summary_object(value: &Value) -> Option<&Map<String, Value>> {
    let obj = value.as_object()?;
    (obj.get("input_config").is_some_and(Value::is_object) && has_metric_objects(obj))
        .then_some(obj)
}

/// True for AIPerf's `profile_export_aiperf.json`.
pub(super) fn is_aiperf(value: &Value) -> bool {
    let Some(obj) = summary_object(value) else {
        return false;
    };
    let config = obj.get("input_config").and_then(Value::as_object);
    [
        "was_cancelled",
        "error_summary",
        "records",
        "start_time",
        "error_request_count",
    ]
    .iter()
    .any(|k| obj.contains_key(*k))
        || config.is_some_and(|c| {
            c.contains_key("loadgen")
                || c.contains_key("cli_command")
                || c.get("endpoint")
                    .and_then(Value::as_object)
                    .is_some_and(|e| e.contains_key("model_names"))
        })
}

/// True for GenAI-Perf's `profile_export_genai_perf.json` (checked after [`is_aiperf`]).
pub(super) fn is_genai_perf(value: &Value) -> bool {
    summary_object(value).is_some()
}

/// Reads a GenAI-Perf summary.
pub(super) fn read_genai_perf_document(out: &mut ImportedFile, value: &Value, at: Location) {
    read_document(out, value, at, Producer::GenaiPerf);
}

/// Reads an AIPerf summary.
pub(super) fn read_aiperf_document(out: &mut ImportedFile, value: &Value, at: Location) {
    read_document(out, value, at, Producer::Aiperf);
}

fn read_document(out: &mut ImportedFile, value: &Value, at: Location, producer: Producer) {
    let Some(obj) = out.require(
        value.as_object(),
        &at,
        "expected a JSON object with one object per metric and `input_config`",
    ) else {
        return;
    };
    let mut top = Fields::new(obj, &out.file, at.clone());
    let aiperf = producer == Producer::Aiperf;

    let (model, load) = model_and_load(&mut top);
    let cancelled = obj.get("was_cancelled").and_then(Value::as_bool) == Some(true);
    if cancelled {
        top.warn_at(
            "was_cancelled",
            "the benchmark was cancelled before it finished; its numbers cover only the part \
             that ran",
        );
    }
    let error_summary = aiperf.then(|| error_summary_count(&mut top)).flatten();
    let date = top.date("start_time");

    // The metrics: top level, or AIPerf's `records`.
    let records = match obj.get("records") {
        Some(Value::Object(_)) => object(&mut top, "records"),
        _ => None,
    };
    let mut problems = std::mem::take(&mut top.problems);
    let mut m = match records {
        Some(r) => Fields::new(r, &out.file, at.child("records")),
        None => Fields::new(obj, &out.file, at.clone()),
    };

    let latency = latencies(&mut m);

    let throughput = throughput(&mut m);
    let tokens = token_stats(&mut m);

    let mut succeeded =
        average(&mut m, "request_count").and_then(|v| whole(&mut m, "request_count", v));
    let failed = if aiperf {
        average(&mut m, "error_request_count")
            .and_then(|v| whole(&mut m, "error_request_count", v))
            .or(error_summary)
    } else {
        None
    };
    if succeeded.is_none() && failed.is_some_and(|n| n > 0) && latency.is_empty() {
        // AIPerf writes no valid-request metrics at all when every request failed.
        succeeded = Some(0);
    }
    problems.append(&mut m.problems);
    if succeeded == Some(0) {
        problems.push(Problem::warning(
            &out.file,
            at.clone(),
            "no request succeeded; the run is shown as failed, its statistics are ignored",
        ));
    }
    let load = LoadPoint {
        achieved_rps: throughput.requests_per_s,
        ..load
    };
    let config = ConfigIdentity {
        model,
        ..ConfigIdentity::default()
    };
    let provenance = Provenance {
        date,
        ..Provenance::new(&out.file, at, producer)
    };
    let requests = RequestCounts::outcomes(succeeded, failed);
    out.runs.push(Run {
        problems,
        ..Run::new(provenance, config, load).measured(requests, latency, throughput, tokens)
    });
}

/// What one of AIPerf's timeslices (`--slice-duration`: an object of metric objects) says,
/// read as a summary's metrics are.
pub(super) struct SliceMetrics {
    pub latency: Vec<LatencyMetric>,
    pub succeeded: Option<u64>,
    pub failed: Option<u64>,
    pub output_tok_s: Option<f64>,
}

/// The metrics of one time slice.
pub(super) fn slice_metrics(m: &mut Fields<'_>) -> SliceMetrics {
    let latency = latencies(m);
    let succeeded = average(m, "request_count").and_then(|v| whole(m, "request_count", v));
    let failed = average(m, "error_request_count").and_then(|v| whole(m, "error_request_count", v));
    SliceMetrics {
        latency,
        succeeded,
        failed,
        output_tok_s: average(m, "output_token_throughput"),
    }
}

/// The model and load point of a document's `input_config`.
pub(super) fn model_and_load(top: &mut Fields<'_>) -> (Option<String>, LoadPoint) {
    nested(top, "input_config", read_input_config).unwrap_or_else(|| (None, missing_load()))
}

/// The latency metrics of a document's metrics (`m`: its top level or AIPerf's `records`),
/// in the model's order.
fn latencies(m: &mut Fields<'_>) -> Vec<LatencyMetric> {
    let mut latency = Vec::new();
    for (key, alias, metric) in [
        ("time_to_first_token", "ttft", Metric::Ttft),
        ("time_to_second_token", "ttst", Metric::Ttst),
        ("inter_token_latency", "", Metric::Tpot),
        ("request_latency", "", Metric::E2e),
    ] {
        // AIPerf's `records` of 2025-08 to 2025-10-09 tag TTFT and TTST `ttft`/`ttst`.
        let key = if m.has(key) || alias.is_empty() {
            key
        } else {
            alias
        };
        if let Some(distribution) = time_metric(m, key) {
            latency.push(LatencyMetric {
                metric,
                distribution,
            });
        }
    }
    latency.sort_by_key(|l| l.metric);
    latency
}

/// The throughputs of a document's metrics.
fn throughput(m: &mut Fields<'_>) -> Throughput {
    Throughput {
        output_tok_s: average(m, "output_token_throughput"),
        output_tok_s_per_user: average(m, "output_token_throughput_per_user")
            .or_else(|| average(m, "output_token_throughput_per_request")),
        requests_per_s: average(m, "request_throughput"),
        goodput_req_s: average(m, "request_goodput").or_else(|| average(m, "goodput")),
        ..Throughput::default()
    }
}

/// The token counts and lengths of a document's metrics.
fn token_stats(m: &mut Fields<'_>) -> TokenStats {
    TokenStats {
        total_input: average(m, "total_isl").and_then(|v| whole(m, "total_isl", v)),
        total_output: average(m, "total_osl").and_then(|v| whole(m, "total_osl", v)),
        input_len: plain_metric(m, "input_sequence_length")
            .or_else(|| plain_metric(m, "num_input_token")),
        output_len: plain_metric(m, "output_sequence_length")
            .or_else(|| plain_metric(m, "num_output_token")),
    }
}

/// A latency metric object, converted to ms from its `unit`.
fn time_metric(m: &mut Fields<'_>, key: &str) -> Option<crate::model::Distribution> {
    nested(m, key, |inner| {
        let unit = inner.string("unit");
        let Some(scale) = unit.as_deref().and_then(ms_per) else {
            inner.error_at(
                "unit",
                format!(
                    "expected a time unit (ms, s, us or ns), found {}; this metric is skipped",
                    unit.map_or_else(|| "nothing".to_string(), |u| format!("{u:?}"))
                ),
            );
            return None;
        };
        distribution_of(inner, scale)
    })
    .flatten()
}

/// A metric object read as is (token lengths).
fn plain_metric(m: &mut Fields<'_>, key: &str) -> Option<crate::model::Distribution> {
    nested(m, key, |inner| distribution_of(inner, 1.0)).flatten()
}

/// The `avg` of a system metric (`{"unit", "avg"}`).
fn average(m: &mut Fields<'_>, key: &str) -> Option<f64> {
    nested(m, key, |inner| inner.non_negative("avg")).flatten()
}

/// AIPerf's `error_summary`: `[{error_details{code,type,message}, count}]`.
fn error_summary_count(f: &mut Fields<'_>) -> Option<u64> {
    let value = f.obj.get("error_summary")?;
    let Value::Array(items) = value else {
        if !value.is_null() {
            f.error_at(
                "error_summary",
                format!(
                    "expected an array of error counts, found {}",
                    describe_json(value)
                ),
            );
        }
        return None;
    };
    let mut total = 0u64;
    for (i, item) in items.iter().enumerate() {
        let key = format!("error_summary[{i}]");
        let count = item.as_object().and_then(|o| o.get("count"));
        match count.and_then(Value::as_u64) {
            Some(n) => total = total.saturating_add(n),
            None => {
                f.error_at(
                    &key,
                    "expected an object with a whole-number `count`; the error count is unknown",
                );
                return None;
            }
        }
    }
    Some(total)
}

/// Model and load point from `input_config`.
fn read_input_config(c: &mut Fields<'_>) -> (Option<String>, LoadPoint) {
    let model = if c.has("model_names") {
        names(c, "model_names")
    } else if c.has("model") {
        names(c, "model")
    } else {
        nested(c, "endpoint", |e| names(e, "model_names")).flatten()
    };
    let (concurrency, rate, place) = if c.has("loadgen") {
        let (n, r) = nested(c, "loadgen", stimulus).unwrap_or_default();
        (n, r, "loadgen")
    } else if c.has("perf_analyzer") {
        let (n, r) = nested(c, "perf_analyzer", |p| nested(p, "stimulus", stimulus))
            .flatten()
            .unwrap_or_default();
        (n, r, "perf_analyzer.stimulus")
    } else {
        let (n, r) = stimulus(c);
        (n, r, "")
    };
    let concurrency = concurrency.filter(|v| {
        let ok = v.is_finite() && *v >= 1.0;
        if !ok {
            c.error_at(
                &join(place, "concurrency"),
                format!("expected a concurrency of at least 1, found {v}"),
            );
        }
        ok
    });
    let rate = rate.filter(|v| {
        let ok = *v > 0.0;
        if !ok {
            c.error_at(
                &join(place, "request_rate"),
                format!("expected a positive request rate, found {v}"),
            );
        }
        ok
    });
    let load = match (rate, concurrency) {
        (Some(r), cap) => LoadPoint {
            target: LoadTarget::RequestRate(if r.is_infinite() {
                Rate::Infinite
            } else {
                Rate::PerSecond(r)
            }),
            max_concurrency: cap
                .and_then(|n| (n.fract() == 0.0 && n <= f64::from(u32::MAX)).then_some(n as u32)),
            achieved_rps: None,
            achieved_concurrency: None,
        },
        (None, Some(n)) => LoadPoint {
            target: LoadTarget::Concurrency(n),
            ..missing_load()
        },
        (None, None) => {
            c.error_at(
                if place.is_empty() {
                    "concurrency"
                } else {
                    place
                },
                "expected a `concurrency` or a `request_rate`; the run has no load point",
            );
            missing_load()
        }
    };
    (model, load)
}

/// `concurrency` and `request_rate` of one load settings object.
fn stimulus(f: &mut Fields<'_>) -> (Option<f64>, Option<f64>) {
    (f.number("concurrency"), f.number("request_rate"))
}

fn join(place: &str, key: &str) -> String {
    if place.is_empty() {
        key.to_string()
    } else {
        format!("{place}.{key}")
    }
}

/// Model names: a list (joined with `, ` when several) or a string.
fn names(f: &mut Fields<'_>, key: &str) -> Option<String> {
    match f.obj.get(key)? {
        Value::Array(items) => {
            let names: Vec<&str> = items
                .iter()
                .filter_map(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect();
            if names.len() != items.len() {
                f.warn_at(
                    key,
                    "expected a list of model names; other entries are ignored",
                );
            }
            (!names.is_empty()).then(|| names.join(", "))
        }
        _ => f.string(key),
    }
}

fn missing_load() -> LoadPoint {
    LoadPoint::new(LoadTarget::MaxThroughput)
}

#[cfg(test)]
mod tests;
