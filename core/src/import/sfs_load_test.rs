//! simple_full_stack_inference `load_test.py --output` JSON: every request of every phase.
//!
//! `{config{target_url, model, phases}, results{warmup|baseline|waves|sustained: [request]},
//! summary{count, success_rate, ttft_p50, …, throughput_mean}}` with each request
//! `{ok, error, ttft_ms, total_ms, tpot_ms, prompt_tokens, output_tokens, metadata}`.
//!
//! Runs:
//! - `warmup` is excluded (load_test.py discards it too);
//! - `baseline`: one run per `metadata.prompt_target`, sequential requests
//!   ([`LoadTarget::Sequential`]); these runs are labelled `{file stem} baseline` with the dataset
//!   `~N-token prompts`, so they form their own series instead of piling onto concurrency 1;
//! - `waves`: one run per `metadata.concurrency` ([`LoadTarget::Concurrency`]);
//! - `sustained`: one run per `metadata.rps` ([`LoadTarget::RequestRate`]).
//!
//! Each run carries its requests as samples and the statistics load_test.py itself computes over
//! the successful ones (mean, min, max and p50/p90/p99 with linear interpolation) for TTFT, total
//! latency ([`Metric::E2e`]) and `tpot_ms` (decode time over output tokens minus one:
//! [`Metric::Tpot`]), plus per-request prompt and output lengths.
//!
//! Pitfalls: token counts are load_test.py's estimates (characters / 4), not tokenizer counts. A
//! failed request's `ttft_ms` is its time to failure and its `tpot_ms` is 0: both are read as
//! missing. A run where nothing succeeded is failed and has no latencies (`summary` then lacks
//! `success_count` and the `*_mean` keys). The file has no run duration, so no throughput; the
//! `summary` block pools every phase and is only checked against the request count. The `model`
//! is the gateway's backend name, so each file is its own configuration, labelled by its file
//! name: two reports of `deepseek` may measure different deployments.

use serde_json::{Map, Value};

use super::fields::Fields;
use super::json_objects::object;
use super::{ImportedFile, NOT_A_REPORT_OBJECT};
use crate::model::{
    ConfigIdentity, Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer,
    Provenance, Rate, RequestCounts, RequestSamples, Run, TokenStats,
};
use crate::number::describe_json;
use crate::problem::Problem;

const PHASES: [&str; 4] = ["warmup", "baseline", "waves", "sustained"];

/// True for a load_test.py output: `config` with `target_url` or `phases`, and `results`.
pub(super) fn is_load_test_output(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    let config = obj.get("config").and_then(Value::as_object);
    let results = obj.get("results").and_then(Value::as_object);
    config.is_some_and(|c| c.contains_key("target_url") || c.contains_key("phases"))
        && results.is_some_and(|r| r.keys().any(|k| PHASES.contains(&k.as_str())) || r.is_empty())
}

/// The file name without folders and extension: each report is its own configuration.
pub(super) fn file_stem(path: &str) -> String {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    match name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_string(),
        _ => name.to_string(),
    }
}

/// The configuration of the runs of one report file: `label` is the file stem, with
/// ` baseline` for the single-request baseline.
pub(super) fn report_identity(
    file: &str,
    model: Option<&str>,
    baseline: Option<f64>,
) -> ConfigIdentity {
    let stem = file_stem(file);
    ConfigIdentity {
        model: model.map(str::to_string),
        label: Some(match baseline {
            Some(_) => format!("{stem} baseline"),
            None => stem,
        }),
        dataset: baseline.map(|n| format!("~{}-token prompts", crate::format::number(n))),
        ..ConfigIdentity::default()
    }
}

/// One request as read.
#[derive(Debug, Clone, Copy)]
struct Request {
    ok: bool,
    ttft: f64,
    e2e: f64,
    tpot: f64,
    input: f64,
    output: f64,
}

/// Requests of one load level, with the place of the first one.
struct Group {
    key: f64,
    at: Location,
    requests: Vec<Request>,
}

/// Reads one load_test.py output document.
pub(super) fn read_document(out: &mut ImportedFile, value: &Value, at: Location) {
    let Some(obj) = out.require(value.as_object(), &at, NOT_A_REPORT_OBJECT) else {
        return;
    };
    let file = out.file.clone();
    let mut top = Fields::new(obj, &file, at.clone());
    let model = object(&mut top, "config").and_then(|c| {
        let mut f = Fields::new(c, &file, at.child("config"));
        let m = f.string("model");
        top.problems.append(&mut f.problems);
        m
    });
    let Some(results) = object(&mut top, "results") else {
        if obj.get("results").is_none_or(Value::is_null) {
            top.error_at("results", "expected an object with one array per phase");
        }
        out.problems.append(&mut top.problems);
        return;
    };
    for key in results.keys() {
        if !PHASES.contains(&key.as_str()) {
            top.warn_at(
                &format!("results.{key}"),
                format!(
                    "unknown phase `{key}`; expected warmup, baseline, waves or sustained; its \
                     requests are ignored"
                ),
            );
        }
    }
    out.problems.append(&mut top.problems);

    let mut counted = 0usize;
    for (phase, metadata_key) in [
        ("baseline", "prompt_target"),
        ("waves", "concurrency"),
        ("sustained", "rps"),
    ] {
        let Some(items) = results.get(phase) else {
            continue;
        };
        let phase_at = at.child("results").child(phase);
        counted += read_phase_runs(out, items, phase, metadata_key, phase_at, model.as_deref());
    }
    check_summary_count(out, obj, &at, counted);
    if out.runs.is_empty()
        && !out
            .problems
            .iter()
            .any(|p| p.severity == crate::problem::Severity::Error)
    {
        out.problems.push(Problem::warning(
            &file,
            at.child("results"),
            "no baseline, wave or sustained request: the file holds no run (warm-up requests are \
             excluded)",
        ));
    }
}

/// The runs of one phase's list of requests (`items`, at `phase_at`), one per load level, into
/// `out` with the first 20 of its requests' problems; how many requests it lists.
fn read_phase_runs(
    out: &mut ImportedFile,
    items: &Value,
    phase: &str,
    metadata_key: &str,
    phase_at: Location,
    model: Option<&str>,
) -> usize {
    let file = out.file.clone();
    let Value::Array(items) = items else {
        if !items.is_null() {
            out.problems.push(Problem::error(
                &file,
                phase_at,
                format!(
                    "expected an array of requests, found {}",
                    describe_json(items)
                ),
            ));
        }
        return 0;
    };
    let mut problems = Vec::new();
    let groups = read_phase(&file, items, &phase_at, metadata_key, &mut problems);
    let shown = problems.len().min(20);
    let hidden = problems.len() - shown;
    out.problems.extend(problems.into_iter().take(shown));
    if hidden > 0 {
        out.problems.push(Problem::error(
            &file,
            phase_at.clone(),
            format!("{hidden} more problems in other requests of this phase"),
        ));
    }
    for group in groups {
        if let Some(run) = run_of(&file, phase, model, group, &mut out.problems) {
            out.runs.push(run);
        }
    }
    items.len()
}

/// A warning when the document's `summary.count` is not the `counted` requests of its phases.
fn check_summary_count(
    out: &mut ImportedFile,
    obj: &Map<String, Value>,
    at: &Location,
    counted: usize,
) {
    if let Some(Value::Object(summary)) = obj.get("summary") {
        let file = out.file.clone();
        let mut f = Fields::new(summary, &file, at.child("summary"));
        if let Some(count) = f.count("count") {
            if count != counted as u64 {
                f.warn_at(
                    "count",
                    format!(
                        "the summary counts {count} requests, but the baseline, wave and \
                         sustained phases hold {counted}"
                    ),
                );
            }
        }
        out.problems.append(&mut f.problems);
    }
}

fn read_phase(
    file: &str,
    items: &[Value],
    phase_at: &Location,
    metadata_key: &str,
    problems: &mut Vec<Problem>,
) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let item_at = phase_at.child(&format!("[{i}]"));
        let Some(obj) = item.as_object() else {
            problems.push(Problem::error(
                file,
                item_at,
                format!(
                    "expected an object for one request, found {}; this request is skipped",
                    describe_json(item)
                ),
            ));
            continue;
        };
        let mut f = Fields::new(obj, file, item_at.clone());
        let request = read_request(&mut f, obj);
        let key = match obj.get("metadata") {
            Some(Value::Object(meta)) => {
                let mut m = Fields::new(meta, file, item_at.child("metadata"));
                let k = m.number(metadata_key);
                f.problems.append(&mut m.problems);
                k
            }
            _ => None,
        };
        problems.append(&mut f.problems);
        let (Some(request), Some(key)) = (request, key) else {
            if key.is_none() {
                problems.push(Problem::error(
                    file,
                    item_at.child("metadata").child(metadata_key),
                    format!(
                        "expected the request's `metadata.{metadata_key}`, which names its load \
                         level; this request is skipped"
                    ),
                ));
            }
            continue;
        };
        match groups.iter_mut().find(|g| g.key == key) {
            Some(g) => g.requests.push(request),
            None => groups.push(Group {
                key,
                at: item_at,
                requests: vec![request],
            }),
        }
    }
    groups
}

/// One request; `None` (with an error) when `ok` is not a boolean.
fn read_request(f: &mut Fields<'_>, obj: &Map<String, Value>) -> Option<Request> {
    let ok = match obj.get("ok") {
        Some(Value::Bool(b)) => *b,
        other => {
            f.error_at(
                "ok",
                format!(
                    "expected true or false, found {}; this request is skipped",
                    other.map_or_else(|| "nothing".to_string(), describe_json)
                ),
            );
            return None;
        }
    };
    let mut read = |key: &str| -> f64 {
        match f.number(key) {
            Some(v) if v.is_finite() && v >= 0.0 => v,
            Some(v) => {
                f.error_at(key, format!("expected a number of at least 0, found {v}"));
                f64::NAN
            }
            None => f64::NAN,
        }
    };
    let ttft = read("ttft_ms");
    let e2e = read("total_ms");
    let tpot = read("tpot_ms");
    let input = read("prompt_tokens");
    let output = read("output_tokens");
    if ok {
        for key in ["ttft_ms", "total_ms"] {
            if obj.get(key).is_none_or(Value::is_null) {
                f.error_at(
                    key,
                    "missing on a successful request; expected milliseconds",
                );
            }
        }
    }
    Some(Request {
        ok,
        // A failed request's TTFT is its time to failure and its TPOT is 0: not measurements.
        ttft: if ok { ttft } else { f64::NAN },
        e2e,
        tpot: if ok { tpot } else { f64::NAN },
        input,
        output,
    })
}

fn run_of(
    file: &str,
    phase: &str,
    model: Option<&str>,
    group: Group,
    problems: &mut Vec<Problem>,
) -> Option<Run> {
    let key = group.key;
    let (target, config) = match phase {
        "baseline" if key.is_finite() && key > 0.0 => (
            LoadTarget::Sequential,
            report_identity(file, model, Some(key)),
        ),
        "waves" if key.is_finite() && key >= 1.0 => (
            LoadTarget::Concurrency(key),
            report_identity(file, model, None),
        ),
        "sustained" if key.is_finite() && key > 0.0 => (
            LoadTarget::RequestRate(Rate::PerSecond(key)),
            report_identity(file, model, None),
        ),
        _ => {
            problems.push(Problem::error(
                file,
                group.at,
                format!(
                    "a load level of {key} in `{phase}`: expected a positive {}; its {} requests \
                     are skipped",
                    match phase {
                        "baseline" => "prompt length",
                        "waves" => "concurrency of at least 1",
                        _ => "request rate",
                    },
                    group.requests.len()
                ),
            ));
            return None;
        }
    };
    let requests = &group.requests;
    let ok: Vec<&Request> = requests.iter().filter(|r| r.ok).collect();
    let succeeded = ok.len() as u64;
    let total = requests.len() as u64;
    let mut run_problems = Vec::new();
    let (latency, tokens) = if succeeded == 0 {
        run_problems.push(Problem::warning(
            file,
            group.at.clone(),
            "no request succeeded; the run is shown as failed",
        ));
        (Vec::new(), TokenStats::default())
    } else {
        summaries(&ok)
    };
    let samples = samples_of(requests);
    let mut run = Run::new(
        Provenance::new(file, group.at, Producer::SimpleFullStackLoadTest),
        config,
        LoadPoint::new(target),
    );
    run.requests = RequestCounts::counted(total, succeeded);
    run.latency = latency;
    run.tokens = tokens;
    run.samples = Some(std::sync::Arc::new(samples));
    run.problems = run_problems;
    Some(run)
}

/// Mean, min, max and p50/p90/p99 (load_test.py's linear interpolation) of the finite values.
/// The latency distributions (in the model's order) and token statistics of a level's
/// successful requests `ok`.
fn summaries(ok: &[&Request]) -> (Vec<LatencyMetric>, TokenStats) {
    let mut latency = Vec::new();
    let mut tokens = TokenStats::default();
    for (metric, pick) in [
        (Metric::Ttft, (|r: &Request| r.ttft) as fn(&Request) -> f64),
        (Metric::Tpot, |r: &Request| r.tpot),
        (Metric::E2e, |r: &Request| r.e2e),
    ] {
        if let Some(d) = summarise(ok.iter().map(|r| pick(r))) {
            latency.push(LatencyMetric {
                metric,
                distribution: d,
            });
        }
    }
    tokens.input_len = summarise(ok.iter().map(|r| r.input));
    tokens.output_len = summarise(ok.iter().map(|r| r.output));
    let sum = |pick: fn(&Request) -> f64| -> Option<u64> {
        let values: Vec<f64> = ok.iter().map(|r| pick(r)).collect();
        values
            .iter()
            .all(|v| v.is_finite() && v.fract() == 0.0)
            .then(|| values.iter().sum::<f64>() as u64)
    };
    tokens.total_input = sum(|r| r.input);
    tokens.total_output = sum(|r| r.output);
    latency.sort_by_key(|l| l.metric);
    (latency, tokens)
}

/// A level's requests as per-request samples.
fn samples_of(requests: &[Request]) -> RequestSamples {
    RequestSamples {
        ok: requests.iter().map(|r| r.ok).collect(),
        ttft_ms: requests.iter().map(|r| r.ttft).collect(),
        e2e_ms: requests.iter().map(|r| r.e2e).collect(),
        tpot_ms: requests.iter().map(|r| r.tpot).collect(),
        input_tokens: requests.iter().map(|r| r.input).collect(),
        output_tokens: requests.iter().map(|r| r.output).collect(),
        // The load test records no start times.
        start_s: Vec::new(),
        sorted: Default::default(),
        ordered: Default::default(),
        sent_in_file_order: false,
    }
}

fn summarise(values: impl Iterator<Item = f64>) -> Option<Distribution> {
    let mut v: Vec<f64> = values.filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let mut d = Distribution {
        mean: Some(v.iter().sum::<f64>() / v.len() as f64),
        min: v.first().copied(),
        max: v.last().copied(),
        ..Distribution::default()
    };
    for p in [50.0, 90.0, 99.0] {
        d.set_percentile(p, interpolated(&v, p));
    }
    Some(d)
}

/// load_test.py's `percentile`: linear interpolation between closest ranks of sorted `v`.
pub(super) fn interpolated(v: &[f64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let k = (v.len() - 1) as f64 * p / 100.0;
    let f = k.floor() as usize;
    if f + 1 >= v.len() {
        return v[v.len() - 1];
    }
    v[f] + (v[f + 1] - v[f]) * (k - f as f64)
}

#[cfg(test)]
mod tests;
