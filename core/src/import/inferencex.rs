//! InferenceX (SemiAnalysis, formerly InferenceMAX) aggregates: one run per JSON object, or an
//! array of them, as its `agg_*.json` files and its site's data hold them.
//!
//! An object names its setup in bare keys (`hw`, `framework`, `image`, `model`, `precision`,
//! `tp`, `ep`, `dp_attention`, `spec_decoding`, `disagg`, `is_multinode`), its workload
//! (`isl`, `osl`: the requested input and output lengths) and its load (`conc`, the
//! concurrency), then its results:
//! - latencies **in seconds** under `{mean,median,std,p90,p99,p99.9}_{ttft,tpot,itl,e2el}`;
//! - interactivity, tokens per second a user sees, under `*_intvty` (its mean becomes the
//!   run's output tokens per second per user);
//! - throughput **per GPU** (`tput_per_gpu`, `output_tput_per_gpu`, `input_tput_per_gpu`),
//!   made the run's totals by the GPUs its parallel sizes give (`tp` × `dp`), so that the
//!   per-GPU measure a page shows is the file's own.
//!
//! Pitfalls handled here: a latency of 0 stands for "not measured" (no request is answered in no
//! time) and is missing, with a warning; a per-GPU throughput without a GPU count is kept off the
//! totals, with a warning; the engine's version is the image's tag (`vllm/vllm-openai:v0.21.0`).

use serde_json::{Map, Value};

use super::fields::{latency_entry, set_stat, Fields};
use super::unread::Unread;
use super::ImportedFile;
use crate::model::{
    ConfigIdentity, LoadPoint, LoadTarget, Location, Metric, Producer, Provenance, RequestCounts,
    Run, Throughput, TokenStats, Workload,
};
use crate::number::describe_json;
use crate::problem::Problem;

/// The statistics an InferenceX key starts with.
const STATS: [&str; 6] = ["mean", "median", "std", "p90", "p99", "p99.9"];

/// Its latency metrics, by the key's ending.
const METRICS: [(&str, Metric); 4] = [
    ("ttft", Metric::Ttft),
    ("tpot", Metric::Tpot),
    ("itl", Metric::Itl),
    ("e2el", Metric::E2e),
];

/// The settings read as a configuration's settings.
const SETTINGS: [&str; 7] = [
    "tp",
    "ep",
    "dp",
    "precision",
    "spec_decoding",
    "disagg",
    "dp_attention",
];

/// The other keys read.
const READ: [&str; 12] = [
    "hw",
    "conc",
    "image",
    "model",
    "framework",
    "isl",
    "osl",
    "is_multinode",
    "infmax_model_prefix",
    "tput_per_gpu",
    "output_tput_per_gpu",
    "input_tput_per_gpu",
];

fn is_one(value: &Value) -> bool {
    value.as_object().is_some_and(|o| {
        o.contains_key("conc")
            && (o.contains_key("tput_per_gpu") || o.contains_key("output_tput_per_gpu"))
            && METRICS
                .iter()
                .any(|(m, _)| o.contains_key(&format!("mean_{m}")))
    })
}

/// True for an InferenceX aggregate: an object with `conc`, a per-GPU throughput and a mean
/// latency under a bare key, or a non-empty array of them.
pub(super) fn is_aggregate(value: &Value) -> bool {
    match value {
        Value::Array(items) => !items.is_empty() && items.iter().any(is_one),
        other => is_one(other),
    }
}

/// Reads every object of the aggregate into a run.
pub(super) fn read_document(out: &mut ImportedFile, value: &Value, at: Location) {
    let items: Vec<(&Value, Location)> = match value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (v, at.child(&format!("[{i}]"))))
            .collect(),
        other => vec![(other, at)],
    };
    for (item, here) in items {
        match item.as_object() {
            Some(obj) => match read_one(&out.file, obj, here) {
                Ok(run) => out.runs.push(run),
                Err(problem) => out.problems.push(problem),
            },
            None => out.problems.push(Problem::error(
                &out.file,
                here,
                format!(
                    "expected an object for one InferenceX run, found {}; it is skipped",
                    describe_json(item)
                ),
            )),
        }
    }
}

/// One object's run; an error when it has no concurrency to place it at.
fn read_one(file: &str, obj: &Map<String, Value>, at: Location) -> Result<Run, Problem> {
    let mut f = Fields::new(obj, file, at.clone());
    let load = match f.non_negative("conc") {
        Some(c) if c > 0.0 => LoadPoint::new(LoadTarget::Concurrency(c)),
        _ => {
            return Err(Problem::error(
                file,
                at.child("conc"),
                format!(
                    "expected the concurrency, a number above 0, found {}; this run is skipped",
                    obj.get("conc")
                        .map_or_else(|| "nothing".to_string(), describe_json)
                ),
            ))
        }
    };
    let config = identity(&mut f);
    let gpus = config.gpus();
    let latency = latencies(&mut f);
    let throughput = throughput(&mut f, gpus);
    let workload = Workload {
        input_len: f.count("isl"),
        output_len: f.count("osl"),
        engine_version: f
            .string("image")
            .and_then(|image| image.rsplit_once(':').map(|(_, tag)| tag.to_string()))
            .map(|tag| tag.trim_start_matches('v').to_string()),
        ..Workload::default()
    };
    let mut unread = Unread::default();
    let mut known: Vec<String> = READ
        .iter()
        .chain(SETTINGS.iter())
        .map(|k| k.to_string())
        .collect();
    for stat in STATS {
        for (m, _) in METRICS.iter().chain(&[("intvty", Metric::Tpot)]) {
            known.push(format!("{stat}_{m}"));
        }
    }
    let known: Vec<&str> = known.iter().map(String::as_str).collect();
    unread.keys(obj, "", &known);
    if let Some(warning) = unread.warning(file, at.clone(), "this InferenceX aggregate") {
        f.problems.push(warning);
    }
    let provenance = Provenance::new(file, at, Producer::InferenceX);
    let mut run = Run::new(provenance, config, load).measured(
        RequestCounts::default(),
        latency,
        throughput,
        TokenStats::default(),
    );
    run.workload = workload;
    run.problems = f.problems;
    Ok(run)
}

/// Engine, model, hardware and settings.
fn identity(f: &mut Fields<'_>) -> ConfigIdentity {
    let mut config = ConfigIdentity {
        engine: f.string("framework"),
        model: f.string("model"),
        hardware: f.string("hw"),
        ..ConfigIdentity::default()
    };
    for key in SETTINGS {
        let value = match f.obj.get(key) {
            Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            Some(Value::Bool(b)) => Some(b.to_string()),
            _ => None,
        };
        if let Some(value) = value {
            config.settings.insert(key.to_string(), value);
        }
    }
    config
}

/// Every latency statistic, seconds to milliseconds; zeros are missing.
fn latencies(f: &mut Fields<'_>) -> Vec<crate::model::LatencyMetric> {
    let mut latency = Vec::new();
    let mut zeros = Vec::new();
    for (suffix, metric) in METRICS {
        for stat in STATS {
            let key = format!("{stat}_{suffix}");
            match f.non_negative(&key) {
                Some(v) if v == 0.0 && stat != "std" => zeros.push(key),
                Some(v) => {
                    set_stat(latency_entry(&mut latency, metric), stat, v * 1000.0);
                }
                None => {}
            }
        }
    }
    if !zeros.is_empty() {
        let first = zeros[0].clone();
        f.warn_at(
            &first,
            format!(
                "{} is 0 s, which InferenceX writes for a latency it did not measure: taken as \
                 missing{}",
                zeros.join(", "),
                if zeros.len() > 1 {
                    " (all of them)"
                } else {
                    ""
                }
            ),
        );
    }
    latency.sort_by_key(|m| m.metric);
    latency
}

/// The run's throughputs: per GPU in the file, totals here by `gpus`.
fn throughput(f: &mut Fields<'_>, gpus: Option<u32>) -> Throughput {
    let per_user = f.non_negative("mean_intvty");
    let per_gpu = [
        f.non_negative("output_tput_per_gpu"),
        f.non_negative("tput_per_gpu"),
        f.non_negative("input_tput_per_gpu"),
    ];
    let total = |v: Option<f64>| Some(v? * f64::from(gpus?));
    if gpus.is_none() && per_gpu.iter().any(Option::is_some) {
        f.warn_at(
            "tput_per_gpu",
            "a throughput per GPU, but no `tp` to count the GPUs by: the run's throughputs are \
             left out",
        );
    }
    Throughput {
        output_tok_s: total(per_gpu[0]),
        total_tok_s: total(per_gpu[1]),
        input_tok_s: total(per_gpu[2]),
        output_tok_s_per_user: per_user,
        ..Throughput::default()
    }
}

#[cfg(test)]
mod tests;
