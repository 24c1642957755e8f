//! SGLang `python -m sglang.bench_serving` (now `sglang.benchmark.serving`) JSON Lines: one
//! object appended per run, and one file can mix the key layouts of several SGLang versions.
//!
//! Latencies are `{mean,median,std,max,p<P>}_{e2e_latency,ttft,tpot,itl}_ms` in milliseconds.
//! Old builds have `p99` for most metrics and `p95`/`p99` for ITL; new builds have p90/p95/p99
//! for all four. `tpot` excludes the first token ([`Metric::Tpot`]); `itl` is pooled chunk gaps
//! ([`Metric::Itl`]).
//!
//! Pitfalls handled here:
//! - `request_rate` is a float, the bare token `Infinity` (the default), the string `"inf"`, or
//!   `"trace"` (arrival times replayed from a trace: no load point of its own). An infinite rate
//!   with a `max_concurrency` is a concurrency-driven run.
//! - There is no model key: the model comes from `server_info.model_path` (newer builds), or a
//!   `model`/`model_id` key where a build writes one; otherwise it is unknown.
//! - There is no failure count: `failed` is read where a build writes it, else counted from the
//!   `--output-details` `errors` list, else unknown.
//! - `--output-details` per-request arrays (seconds) sit at the top level or under `details`.
//! - `completed == 0` marks the run failed; its zero or `NaN` statistics are not latencies.

use serde_json::Value;

use super::fields::Fields;
use super::json_objects::nested;
use super::vllm::{is_stat, read_latency, read_load, read_samples, read_token_totals};
use super::{ImportedFile, NOT_A_RUN_OBJECT};
use crate::model::{
    ConfigIdentity, LoadPoint, LoadTarget, Location, Metric, Producer, Provenance, RequestCounts,
    Run, Throughput, Workload,
};
use crate::problem::Problem;

/// True for one `bench_serving` result object: `mean_e2e_latency_ms` with `dataset_name`, and
/// none of vLLM's `date`/`model_id`.
pub(super) fn is_bench_serving_result(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    obj.contains_key("mean_e2e_latency_ms")
        && obj.contains_key("dataset_name")
        && !obj.contains_key("date")
        && !obj.contains_key("model_id")
}

/// Reads one result object into the file's runs (or its problems).
pub(super) fn read_document(out: &mut ImportedFile, value: &Value, at: Location) {
    match read_result(&out.file, value, at) {
        Ok(run) => out.runs.push(run),
        Err(problem) => out.problems.push(problem),
    }
}

/// Splits `p99_e2e_latency_ms` into (`p99`, E2E).
fn latency_key(key: &str) -> Option<(&str, Metric)> {
    let rest = key.strip_suffix("_ms")?;
    let (stat, metric) = [
        ("_e2e_latency", Metric::E2e),
        ("_ttft", Metric::Ttft),
        ("_tpot", Metric::Tpot),
        ("_itl", Metric::Itl),
    ]
    .into_iter()
    .find_map(|(suffix, metric)| rest.strip_suffix(suffix).map(|s| (s, metric)))?;
    is_stat(stat).then_some((stat, metric))
}

fn read_result(file: &str, value: &Value, at: Location) -> Result<Run, Problem> {
    let obj = value
        .as_object()
        .ok_or_else(|| Problem::error(file, at.clone(), NOT_A_RUN_OBJECT))?;
    let mut f = Fields::new(obj, file, at.clone());

    let server = nested(&mut f, "server_info", |s| {
        (s.string("model_path"), s.string("version"))
    });
    let (model_path, version) = server.unwrap_or((None, None));
    // SGLang writes the random lengths whatever the dataset: they are the workload's only
    // for a `random` one.
    let random = f
        .obj
        .get("dataset_name")
        .and_then(Value::as_str)
        .is_some_and(|d| d.starts_with("random"));
    let workload = Workload {
        input_len: f.count("random_input_len").filter(|_| random),
        output_len: f
            .count("random_output_len")
            .filter(|_| random)
            .or_else(|| f.count("sharegpt_output_len")),
        engine_version: version.clone(),
        ..Workload::default()
    };
    let config = ConfigIdentity {
        model: model_path
            .or_else(|| f.string("model"))
            .or_else(|| f.string("model_id")),
        engine: f.string("backend"),
        label: f.string("tag"),
        hardware: None,
        dataset: read_dataset(&mut f),
        settings: Default::default(),
    };

    let load = read_sglang_load(&mut f);
    let requests = read_counts(&mut f);
    if requests.succeeded == Some(0) {
        f.warn_at(
            "completed",
            "no request completed; the run is shown as failed, its statistics are ignored",
        );
    }

    let latency = read_latency(&mut f, latency_key);

    let input_tok_s = f.non_negative("input_throughput");
    let output_tok_s = f.non_negative("output_throughput");
    let total_tok_s = f.non_negative("total_throughput").or_else(|| {
        // Older builds leave the total out; it is input plus output over the same duration.
        Some(input_tok_s? + output_tok_s?)
    });
    let throughput = Throughput {
        output_tok_s,
        total_tok_s,
        input_tok_s,
        requests_per_s: f.non_negative("request_throughput"),
        goodput_req_s: None,
        output_tok_s_per_user: None,
    };
    let tokens = read_token_totals(&mut f);
    let samples = if f.has("ttfts") {
        read_samples(&mut f)
    } else {
        nested(&mut f, "details", read_samples).flatten()
    };
    let load = LoadPoint {
        achieved_rps: throughput.requests_per_s,
        achieved_concurrency: f.non_negative("concurrency"),
        ..load
    };

    let provenance = Provenance {
        file: file.to_string(),
        location: at,
        producer: Producer::SglangServing,
        producer_version: version,
        date: f.date("date"),
    };
    Ok(Run {
        samples: samples.map(std::sync::Arc::new),
        workload,
        problems: f.problems,
        ..Run::new(provenance, config, load).measured(requests, latency, throughput, tokens)
    })
}

/// `dataset_name`, with the requested lengths for the synthetic `random` datasets
/// (`random-1024-256`; with `random_range_ratio < 1` these are upper bounds, not fixed lengths).
fn read_dataset(f: &mut Fields<'_>) -> Option<String> {
    let name = f.string("dataset_name")?;
    if name.starts_with("random") {
        if let (Some(i), Some(o)) = (f.count("random_input_len"), f.count("random_output_len")) {
            return Some(format!("{name}-{i}-{o}"));
        }
    }
    Some(name)
}

/// `request_rate` as vLLM writes it, plus SGLang's `"trace"`.
fn read_sglang_load(f: &mut Fields<'_>) -> LoadPoint {
    let is_trace = f
        .obj
        .get("request_rate")
        .and_then(Value::as_str)
        .is_some_and(|s| s.trim().eq_ignore_ascii_case("trace"));
    if !is_trace {
        return read_load(f);
    }
    let max_concurrency = f
        .count("max_concurrency")
        .and_then(|c| u32::try_from(c).ok());
    f.warn_at(
        "request_rate",
        "requests were replayed from a trace (`\"trace\"`), so the run has no request rate or \
         concurrency of its own; it is shown without a load axis",
    );
    LoadPoint {
        target: LoadTarget::MaxThroughput,
        max_concurrency,
        achieved_rps: None,
        achieved_concurrency: None,
    }
}

/// `completed` succeeded. `failed` exists only in some builds; otherwise the `errors` of
/// `--output-details` (top level or under `details`) are counted.
fn read_counts(f: &mut Fields<'_>) -> RequestCounts {
    let succeeded = f.count("completed");
    if succeeded.is_none() && !f.has("completed") {
        f.error_at(
            "completed",
            "missing; expected the number of completed requests",
        );
    }
    // Type errors of `details` are reported once, where the samples are read.
    let obj = f.obj;
    let errors = obj
        .get("errors")
        .or_else(|| obj.get("details")?.get("errors"))
        .and_then(Value::as_array);
    let counted = errors.map(|errors| {
        errors
            .iter()
            .filter(|e| e.as_str().is_some_and(|s| !s.is_empty()))
            .count() as u64
    });
    let failed = f.count("failed").or(counted);
    let total = f
        .count("num_prompts")
        .or_else(|| Some(succeeded? + failed?));
    RequestCounts {
        total,
        succeeded,
        failed,
        incomplete: None,
    }
}

#[cfg(test)]
mod tests;
