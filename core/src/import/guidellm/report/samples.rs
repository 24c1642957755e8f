//! A benchmark's per-request samples from `requests.{successful, errored, incomplete}`, read in
//! one pass and kept to the measured period when the benchmark had a warm-up or cool-down.

use serde_json::{Map, Value};

use super::super::object_at;
use crate::import::fields::Fields;
use crate::model::RequestSamples;
use crate::number::{describe_json, json_number, Reading};
use crate::problem::Problem;

/// Per-request statistics from `requests.{successful, errored, incomplete}`, in one pass.
pub(super) fn read_samples(f: &mut Fields<'_>, obj: &Map<String, Value>) -> Option<RequestSamples> {
    let requests = match obj.get("requests") {
        None | Some(Value::Null) => return None,
        Some(Value::Object(r)) => r,
        Some(other) => {
            f.error_at(
                "requests",
                format!(
                    "expected an object of request lists (successful, errored, incomplete), \
                     found {}; the run has no per-request samples",
                    describe_json(other)
                ),
            );
            return None;
        }
    };
    let window = measured_window(f, obj);
    let mut samples = RequestSamples::default();
    let mut starts = Vec::new();
    let mut reversed = 0usize;
    let mut excluded = 0usize;
    let mut bad = 0usize;
    let at = f.at.child("requests");
    for (status, ok) in [
        ("successful", true),
        ("errored", false),
        ("incomplete", false),
    ] {
        let items = match requests.get(status) {
            None | Some(Value::Null) => continue,
            Some(Value::Array(items)) => items,
            Some(other) => {
                f.problems.push(Problem::error(
                    f.file,
                    at.child(status),
                    format!(
                        "expected a list of requests, found {}",
                        describe_json(other)
                    ),
                ));
                continue;
            }
        };
        for (j, item) in items.iter().enumerate() {
            let place = || at.child(status).child(&format!("[{j}]"));
            let Some(r) = item.as_object() else {
                bad += 1;
                if bad <= 5 {
                    f.problems.push(Problem::error(
                        f.file,
                        place(),
                        format!(
                            "expected a request object, found {}; it is skipped",
                            describe_json(item)
                        ),
                    ));
                }
                continue;
            };
            if let Some((start, end)) = window {
                if !within(r, start, end) {
                    excluded += 1;
                    continue;
                }
            }
            let mut value = |key: &str, scale: f64| -> f64 {
                let Some(v) = r.get(key) else {
                    return f64::NAN;
                };
                match json_number(v) {
                    Reading::Value(x) => x * scale,
                    Reading::Missing => f64::NAN,
                    Reading::Invalid => {
                        bad += 1;
                        if bad <= 5 {
                            f.problems.push(Problem::error(
                                f.file,
                                place().child(key),
                                format!("expected a number, found {}", describe_json(v)),
                            ));
                        }
                        f64::NAN
                    }
                }
            };
            let ttft = value("time_to_first_token_ms", 1.0);
            let e2e = value("request_latency", 1000.0);
            let tpot = value("inter_token_latency_ms", 1.0);
            let input = value("prompt_tokens", 1.0);
            let output = value("output_tokens", 1.0);
            samples.push(ok, ttft, e2e, tpot, input, output);
            let (start, end) = (
                value("request_start_time", 1.0),
                value("request_end_time", 1.0),
            );
            if end < start {
                // Times out of order: the start cannot be trusted to place the request.
                reversed += 1;
                if reversed == 1 {
                    f.problems.push(Problem::warning(
                        f.file,
                        place().child("request_end_time"),
                        format!(
                            "ends ({end}) before it starts (`request_start_time` {start}); such \
                             requests keep their latencies but no start time, so time-window \
                             charts leave them out"
                        ),
                    ));
                }
                starts.push(f64::NAN);
            } else {
                starts.push(start);
            }
        }
    }
    if reversed > 1 {
        f.problems.push(Problem::warning(
            f.file,
            at.clone(),
            format!("{reversed} requests end before they start; none has a start time"),
        ));
    }
    samples.set_starts(&starts);
    if bad > 5 {
        f.problems.push(Problem::error(
            f.file,
            at.clone(),
            format!(
                "{} more values of the per-request lists are not numbers or not requests",
                bad - 5
            ),
        ));
    }
    if excluded > 0 {
        f.problems.push(Problem::warning(
            f.file,
            at,
            format!(
                "{excluded} listed requests ran during the warm-up or cool-down (outside \
                 `scheduler_metrics.measure_start_time`…`measure_end_time`); they are left out \
                 of the samples, as GuideLLM leaves them out of its metrics"
            ),
        ));
    }
    (!samples.is_empty()).then_some(samples)
}

/// The measured period, when the benchmark had a warm-up or cool-down (0.4+).
fn measured_window(f: &mut Fields<'_>, obj: &Map<String, Value>) -> Option<(f64, f64)> {
    let marked = ["warmup_duration", "cooldown_duration"]
        .into_iter()
        .any(|k| f.finite(k).is_some_and(|d| d > 0.0));
    if !marked {
        return None;
    }
    let sm = object_at(obj, &["scheduler_metrics"]);
    let time = |key: &str| {
        sm.and_then(|m| m.get(key))
            .and_then(|v| json_number(v).value())
            .filter(|v| v.is_finite())
    };
    match (time("measure_start_time"), time("measure_end_time")) {
        (Some(start), Some(end)) => Some((start, end)),
        _ => {
            f.warn_at(
                "scheduler_metrics",
                "the benchmark has a warm-up or cool-down but no `measure_start_time` and \
                 `measure_end_time`; every listed request is kept in the samples",
            );
            None
        }
    }
}

/// GuideLLM's own test for a request of the measured period: it ended after the start and
/// started before the end (or, without a start time, ended before the end).
fn within(r: &Map<String, Value>, start: f64, end: f64) -> bool {
    let time = |key: &str| r.get(key).and_then(|v| json_number(v).value());
    match (time("request_start_time"), time("request_end_time")) {
        (_, Some(e)) if e < start => false,
        (Some(s), _) => s <= end,
        (None, Some(e)) => e <= end,
        (None, None) => true,
    }
}
