//! huggingface/inference-benchmarker report JSON: `{config, results[], start_time, end_time,
//! system}`, one run per benchmark step in `results`.
//!
//! Each step is `{id, executor_type, config{max_vus, duration_secs, rate}, total_requests,
//! successful_requests, failed_requests, request_rate, token_throughput_secs, total_tokens,
//! total_tokens_sent, time_to_first_token_ms, inter_token_latency_ms, e2e_latency_ms}`, the
//! latency objects holding `p50`…`p99` and `avg` in milliseconds. Its `inter_token_latency_ms`
//! is the decode time per output token excluding the first ([`Metric::Tpot`]).
//!
//! Pitfalls handled here:
//! - The `warmup` step is excluded.
//! - The load point is the step's `config.rate` for constant-arrival-rate steps
//!   (`ConstantArrivalRate`, capped at `max_vus`) and `max_vus` for the closed-loop
//!   `throughput` step (`ConstantVUs`).
//! - serde writes `NaN` and infinities as `null`: those statistics are missing.
//! - `config.model_name` (the display name) can differ from `config.tokenizer`; the model is
//!   `model_name`, else the tokenizer. `config.meta` may name the engine, label, hardware and
//!   dataset like vLLM's `--metadata`.

use serde_json::Value;

use super::fields::Fields;
use super::json_objects::{distribution, metadata_identity, nested, object};
use super::{ImportedFile, NOT_A_REPORT_OBJECT};
use crate::model::{
    ConfigIdentity, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer, Provenance,
    Rate, RequestCounts, Run, Throughput, TokenStats,
};
use crate::number::describe_json;
use crate::problem::Problem;

/// True for an inference-benchmarker report: `config.benchmark_kind` and steps with an
/// `executor_type`.
pub(super) fn is_report(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    let kind = obj
        .get("config")
        .and_then(Value::as_object)
        .is_some_and(|c| c.contains_key("benchmark_kind"));
    let steps = obj
        .get("results")
        .and_then(Value::as_array)
        .is_some_and(|r| {
            r.iter().any(|s| {
                s.as_object()
                    .is_some_and(|s| s.contains_key("executor_type"))
            })
        });
    kind && steps
}

/// Reads every step of a report except the warm-up.
pub(super) fn read_document(out: &mut ImportedFile, value: &Value, at: Location) {
    let Some(obj) = out.require(value.as_object(), &at, NOT_A_REPORT_OBJECT) else {
        return;
    };
    let mut f = Fields::new(obj, &out.file, at.clone());
    let config = nested(&mut f, "config", |c| {
        let mut config = nested(c, "meta", metadata_identity).unwrap_or_default();
        config.model = c.string("model_name").or_else(|| c.string("tokenizer"));
        config
    })
    .unwrap_or_default();
    let steps = match obj.get("results") {
        Some(Value::Array(steps)) => steps.as_slice(),
        other => {
            f.error_at(
                "results",
                format!(
                    "expected an array of benchmark steps, found {}",
                    other.map_or_else(|| "nothing".to_string(), describe_json)
                ),
            );
            &[]
        }
    };
    out.problems.append(&mut f.problems);

    let mut warmups = 0usize;
    for (i, step) in steps.iter().enumerate() {
        let step_at = at.child("results").child(&format!("[{i}]"));
        let Some(step) = step.as_object() else {
            out.problems.push(Problem::error(
                &out.file,
                step_at,
                format!(
                    "expected an object for one benchmark step, found {}; this step is skipped",
                    describe_json(step)
                ),
            ));
            continue;
        };
        if step.get("id").and_then(Value::as_str) == Some("warmup") {
            warmups += 1;
            continue;
        }
        let mut s = Fields::new(step, &out.file, step_at);
        out.runs.push(read_step(&mut s, config.clone()));
    }
    if out.runs.is_empty() && !steps.is_empty() {
        out.problems.push(Problem::error(
            &out.file,
            at.child("results"),
            format!(
                "no benchmark step besides {warmups} warm-up step(s); expected `throughput` or \
                 `constant@…` steps"
            ),
        ));
    }
}

fn read_step(s: &mut Fields<'_>, config: ConfigIdentity) -> Run {
    let load = read_step_load(s);
    let requests = RequestCounts {
        total: s.count("total_requests"),
        succeeded: s.count("successful_requests"),
        failed: s.count("failed_requests"),
        incomplete: None,
    };
    if requests.succeeded == Some(0) {
        s.warn_at(
            "successful_requests",
            "no request succeeded; the run is shown as failed, its statistics are ignored",
        );
    }
    let mut latency = Vec::new();
    for (key, metric) in [
        ("time_to_first_token_ms", Metric::Ttft),
        ("inter_token_latency_ms", Metric::Tpot),
        ("e2e_latency_ms", Metric::E2e),
    ] {
        if let Some(distribution) = distribution(s, key, 1.0) {
            latency.push(LatencyMetric {
                metric,
                distribution,
            });
        }
    }
    latency.sort_by_key(|m| m.metric);
    let requests_per_s = s.non_negative("request_rate");
    let throughput = Throughput {
        output_tok_s: s.non_negative("token_throughput_secs"),
        requests_per_s,
        ..Throughput::default()
    };
    let tokens = TokenStats {
        total_input: s.count("total_tokens_sent"),
        total_output: s.count("total_tokens"),
        input_len: None,
        output_len: None,
    };
    let load = LoadPoint {
        achieved_rps: requests_per_s,
        ..load
    };
    let provenance = Provenance::new(s.file, s.at.clone(), Producer::InferenceBenchmarker);
    Run {
        problems: std::mem::take(&mut s.problems),
        ..Run::new(provenance, config, load).measured(requests, latency, throughput, tokens)
    }
}

/// `ConstantArrivalRate` steps run at `config.rate` (capped at `config.max_vus`);
/// `ConstantVUs` steps keep `config.max_vus` requests in flight.
fn read_step_load(s: &mut Fields<'_>) -> LoadPoint {
    let executor = s.string("executor_type");
    let step_config = object(s, "config");
    // Values that are there but unreadable are reported once, by `Fields`.
    let mut reported = false;
    let (rate, max_vus) = match step_config {
        Some(c) => {
            let mut c = Fields::new(c, s.file, s.at.child("config"));
            let rate = c.number("rate");
            let vus = c
                .count("max_vus")
                .and_then(|v| u32::try_from(v).ok())
                .filter(|v| *v > 0);
            reported = !c.problems.is_empty();
            s.problems.append(&mut c.problems);
            (rate, vus)
        }
        None => (None, None),
    };
    let at_config = |key: &str| format!("config.{key}");
    let target = match executor.as_deref() {
        Some("ConstantArrivalRate") => match rate {
            Some(r) if r.is_finite() && r > 0.0 => LoadTarget::RequestRate(Rate::PerSecond(r)),
            None if reported => LoadTarget::MaxThroughput,
            other => {
                let found = other.map_or_else(|| "nothing".to_string(), |r| r.to_string());
                s.error_at(
                    &at_config("rate"),
                    format!(
                        "expected the positive request rate of a constant-arrival-rate step, \
                         found {found}"
                    ),
                );
                LoadTarget::MaxThroughput
            }
        },
        Some("ConstantVUs") => match max_vus {
            Some(v) => LoadTarget::Concurrency(f64::from(v)),
            None if reported => LoadTarget::MaxThroughput,
            None => {
                s.error_at(
                    &at_config("max_vus"),
                    "expected the number of virtual users (at least 1) of a constant-VUs step",
                );
                LoadTarget::MaxThroughput
            }
        },
        other => {
            s.error_at(
                "executor_type",
                format!(
                    "expected \"ConstantArrivalRate\" or \"ConstantVUs\", found {}",
                    other.map_or_else(|| "nothing".to_string(), |e| format!("{e:?}"))
                ),
            );
            LoadTarget::MaxThroughput
        }
    };
    let max_concurrency = match target {
        LoadTarget::RequestRate(_) => max_vus,
        _ => None,
    };
    LoadPoint {
        target,
        max_concurrency,
        achieved_rps: None,
        achieved_concurrency: None,
    }
}

#[cfg(test)]
mod tests;
