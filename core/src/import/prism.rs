//! llm-d Prism's normalised archive (`public/data/archive/llmd_results/llm-d-benchmarks.json`
//! in llm-d/llm-d-prism): a top-level array of runs, each converted by Prism's tooling from a
//! `vllm bench serve` result of llm-d's P/D disaggregation study. A run names its setup
//! (`model`, `hardware`, `accelerator_count`, `architecture`, `pd_ratio` as `"1:3"` or
//! `"Aggregated"`, `configuration`, the prefill and decode replicas and their TP, `metadata`
//! with the backend), its load (`workload.concurrency`, `metrics.request_rate`; the run's `id`
//! says whether the rate was `inf`: `…-infqps-concurrency128-…`) and its results, **in ms**:
//! `metrics.latency.{mean,p50,p99}` (end-to-end), `metrics.ttft.{mean,p50}`, `metrics.tpot`,
//! `metrics.itl`, and `metrics.throughput`, the input and output tokens per second together.
//!
//! Pitfalls handled here: Prism writes **0 for a missing value** (`|| 0`): `latency.p99` and
//! `error_count` are 0 in every record, so every 0 is read as missing, never as 0 ms or as no
//! failures; its `latency.p50` falls back to the mean when the median is missing, so a median
//! equal to the mean to the last digit is read as missing too; the copies of the same figures
//! (`tpot_ms`, `time_per_output_token`, `e2e_latency`, `ttft_ms`, `itl_ms`) are not read twice.
//! Each configuration's P/D split is a setting (`pd_ratio=1:3`, `prefill_tp=4`, …), so
//! disaggregated and aggregated setups are different configurations.

use serde_json::{Map, Value};

use super::fields::{latency_entry, set_stat, Fields};
use super::json_objects::nested;
use super::ImportedFile;
use crate::model::{
    ConfigIdentity, Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer,
    Provenance, Rate, RequestCounts, Run, Throughput, TokenStats,
};
use crate::problem::Problem;

/// True for one archived run: `metrics` with `ttft`, `workload`, and Prism's `pd_ratio` or
/// `architecture`.
fn is_one(value: &Value) -> bool {
    value.as_object().is_some_and(|o| {
        o.get("metrics").and_then(|m| m.get("ttft")).is_some()
            && o.get("workload").is_some_and(Value::is_object)
            && (o.contains_key("pd_ratio") || o.contains_key("architecture"))
    })
}

/// True for Prism's archive: a non-empty array whose first item is an archived run.
pub(super) fn is_archive(value: &Value) -> bool {
    value
        .as_array()
        .and_then(|items| items.first())
        .is_some_and(is_one)
}

/// Reads every run of the archive.
pub(super) fn read_document(out: &mut ImportedFile, value: &Value, at: Location) {
    let Some(items) = value.as_array() else {
        return;
    };
    for (i, item) in items.iter().enumerate() {
        let here = at.child(&format!("[{i}]"));
        match item.as_object().filter(|_| is_one(item)) {
            Some(obj) => out.runs.push(read_one(&out.file, obj, here)),
            None => out.problems.push(Problem::error(
                &out.file,
                here,
                "expected an archived run with `metrics` (holding `ttft`), `workload` and \
                 `pd_ratio`; skipped",
            )),
        }
    }
    if !out.runs.is_empty() {
        out.problems.push(Problem::warning(
            &out.file,
            at,
            "llm-d Prism's archive writes 0 for a missing value: every 0 is read as missing \
             (its `latency.p99` and `error_count` are 0 in every run, so the runs have no p99 \
             and no failure count)",
        ));
    }
}

/// A number that is not Prism's 0 for "missing".
fn given(f: &mut Fields<'_>, key: &str) -> Option<f64> {
    f.non_negative(key).filter(|v| *v > 0.0)
}

fn read_one(file: &str, obj: &Map<String, Value>, at: Location) -> Run {
    let mut f = Fields::new(obj, file, at.clone());
    let config = identity(&mut f);
    let load = load_of(&mut f, obj);
    let latency = nested(&mut f, "metrics", latencies).unwrap_or_default();
    let throughput = Throughput {
        total_tok_s: nested(&mut f, "metrics", |m| given(m, "throughput")).flatten(),
        requests_per_s: load.achieved_rps,
        ..Throughput::default()
    };
    let (input, output) = nested(&mut f, "workload", |w| {
        (given(w, "input_tokens"), given(w, "output_tokens"))
    })
    .unwrap_or_default();
    let tokens = TokenStats {
        input_len: input.map(mean_only),
        output_len: output.map(mean_only),
        ..TokenStats::default()
    };
    let provenance = Provenance {
        date: f.date("timestamp"),
        ..Provenance::new(file, at, Producer::Prism)
    };
    let problems = std::mem::take(&mut f.problems);
    Run {
        problems,
        ..Run::new(provenance, config, load).measured(
            RequestCounts::default(),
            latency,
            throughput,
            tokens,
        )
    }
}

/// A distribution of which only the mean is known.
fn mean_only(mean: f64) -> Distribution {
    Distribution {
        mean: Some(mean),
        ..Distribution::default()
    }
}

/// Model, hardware, engine, the configuration's label and its P/D split as settings.
fn identity(f: &mut Fields<'_>) -> ConfigIdentity {
    let model = f.string("model").or_else(|| f.string("model_name"));
    let hardware = f
        .string("hardware")
        .map(|h| match given(f, "accelerator_count") {
            Some(n) => format!("{}x {h}", crate::format::number(n)),
            None => h,
        });
    let engine = nested(f, "metadata", |m| m.string("backend")).flatten();
    let mut settings = std::collections::BTreeMap::new();
    if let Some(ratio) = f.string("pd_ratio").filter(|r| r != "N/A") {
        settings.insert("pd_ratio".to_string(), ratio);
    }
    let disaggregated = f.string("architecture").as_deref() == Some("disaggregated");
    let keys: &[&str] = if disaggregated {
        &[
            "prefill_node_count",
            "decode_node_count",
            "prefill_tp",
            "decode_tp",
        ]
    } else {
        &[]
    };
    for key in keys {
        if let Some(n) = given(f, key) {
            settings.insert(
                key.trim_end_matches("_count").to_string(),
                crate::format::number(n),
            );
        }
    }
    if !disaggregated {
        if let Some(tp) = nested(f, "metadata", |m| given(m, "tensor_parallelism")).flatten() {
            settings.insert("tp".to_string(), crate::format::number(tp));
        }
    }
    ConfigIdentity {
        model,
        engine,
        hardware,
        label: f.string("configuration"),
        settings,
        ..ConfigIdentity::default()
    }
}

/// The load point: the concurrency of a run whose rate was `inf` (its `id` says
/// `infqps`), else the request rate, capped by the concurrency; the measured rate beside it.
fn load_of(f: &mut Fields<'_>, obj: &Map<String, Value>) -> LoadPoint {
    let concurrency = nested(f, "workload", |w| given(w, "concurrency")).flatten();
    let rate = nested(f, "metrics", |m| given(m, "request_rate")).flatten();
    let id = obj.get("id").and_then(Value::as_str).unwrap_or("");
    // `…-2qps-…` or `…-infqps-…`: the rate the run was sent at, as its id names it.
    let named = id
        .split(['-', '_'])
        .find_map(|w| w.strip_suffix("qps").and_then(|n| n.parse::<f64>().ok()));
    let cap = concurrency
        .filter(|c| c.fract() == 0.0 && *c <= f64::from(u32::MAX))
        .map(|c| c as u32);
    let target = match (named, concurrency) {
        (Some(r), _) if r.is_finite() && r > 0.0 => LoadTarget::RequestRate(Rate::PerSecond(r)),
        (_, Some(c)) => LoadTarget::Concurrency(c),
        _ => LoadTarget::RequestRate(Rate::Infinite),
    };
    LoadPoint {
        max_concurrency: matches!(target, LoadTarget::RequestRate(_))
            .then_some(cap)
            .flatten(),
        achieved_rps: rate,
        ..LoadPoint::new(target)
    }
}

/// The latencies of `metrics`, in ms, zeros and a median that is the mean's copy left out.
fn latencies(m: &mut Fields<'_>) -> Vec<LatencyMetric> {
    let mut latency = Vec::new();
    for (key, metric) in [("latency", Metric::E2e), ("ttft", Metric::Ttft)] {
        let stats = nested(m, key, |s| {
            let mean = given(s, "mean");
            let median = given(s, "p50").filter(|p| Some(*p) != mean);
            (mean, median, given(s, "p99"))
        });
        let Some((mean, median, p99)) = stats else {
            continue;
        };
        let entry = latency_entry(&mut latency, metric);
        for (stat, value) in [("mean", mean), ("median", median), ("p99", p99)] {
            if let Some(v) = value {
                set_stat(entry, stat, v);
            }
        }
    }
    for (key, metric) in [("tpot", Metric::Tpot), ("itl", Metric::Itl)] {
        if let Some(v) = given(m, key) {
            set_stat(latency_entry(&mut latency, metric), "mean", v);
        }
    }
    latency.retain(|l| l.distribution != Distribution::default());
    latency.sort_by_key(|l| l.metric);
    latency
}

#[cfg(test)]
mod tests;
