//! Triton perf_analyzer's profile export, `profile_export.json`, which GenAI-Perf writes into
//! its artifact folder beside `profile_export_genai_perf.json`: every request with the time it
//! was sent and the time of each response (chunk) it received, in wall-clock **nanoseconds**.
//!
//! `{"experiments": [{"experiment": {"mode": "concurrency" | "request_rate", "value"},
//! "requests": [{"timestamp", "request_inputs": {"payload": "<request JSON>"},
//! "response_timestamps": [ns…], "response_outputs": [{"response": "data: {…}\n\n"}…]}],
//! "window_boundaries"}], "version", "service_kind", "endpoint"}`: one run per experiment.
//!
//! Like GenAI-Perf, a chunk counts when it carries content: OpenAI's role-only first chunk, the
//! empty finish chunk and `data: [DONE]` do not (for Triton's own services every response
//! counts). Per request:
//! - TTFT is the first content chunk's time − the request's; the end-to-end latency the last
//!   content chunk's − the request's; TTST the gap between the first two content chunks;
//! - every gap between consecutive content chunks, pooled over the requests, is ITL
//!   ([`Metric::Itl`]: chunks, which may hold several tokens);
//! - a request with no content chunk, or whose stream carries an `error`, failed (the file has
//!   no status of its own).
//!
//! The file holds no token counts (GenAI-Perf counts tokens by re-tokenising the text), so it
//! gives no TPOT, lengths or token throughput: those are in `profile_export_genai_perf.json`,
//! into whose run `import_all` joins these requests. The model is the requests' `model`; the
//! request throughput is the requests over the span from the first request to the last
//! response, as GenAI-Perf computes it.

mod request;

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::aiperf_records::summary_of;
use super::genai_perf_csv::artifact_directory;
use super::unread::Unread;
use super::ImportedFile;
use crate::model::{
    LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer, Provenance, Rate,
    RequestCounts, RequestSamples, Run,
};
use crate::number::describe_json;
use crate::problem::Problem;
use request::{read_request, Request};

/// The warning of the export read without GenAI-Perf's summary.
pub(crate) const NO_SUMMARY: &str = "perf_analyzer's export holds no token counts";

/// True for an export: `experiments` whose first holds `experiment` and `requests`, and a
/// `service_kind`.
pub(super) fn is_export(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    let first = obj
        .get("experiments")
        .and_then(Value::as_array)
        .and_then(|e| e.first());
    obj.get("service_kind").is_some_and(Value::is_string)
        && first.is_some_and(|e| e.get("experiment").is_some() && e.get("requests").is_some())
}

/// Reads every experiment into a run.
pub(super) fn read_document(out: &mut ImportedFile, value: &Value, at: Location) {
    let Some(obj) = out.require(
        value.as_object(),
        &at,
        "expected perf_analyzer's export: an object with `experiments`",
    ) else {
        return;
    };
    let Some(experiments) = out.require(
        obj.get("experiments").and_then(Value::as_array),
        &at.child("experiments"),
        "expected a list of experiments",
    ) else {
        return;
    };
    let mut unread = Unread::default();
    unread.keys(
        obj,
        "",
        &["experiments", "version", "service_kind", "endpoint"],
    );
    let triton = obj.get("service_kind").and_then(Value::as_str) != Some("openai");
    for (i, experiment) in experiments.iter().enumerate() {
        let here = at.child("experiments").child(&format!("[{i}]"));
        match read_experiment(&out.file, experiment, here, triton) {
            Ok(mut run) => {
                run.provenance.producer_version = text(obj.get("version"));
                out.runs.push(run);
            }
            Err(problem) => out.problems.push(problem),
        }
    }
    if let Some(first) = out.runs.first_mut() {
        first
            .problems
            .extend(unread.warning(&out.file, at, "perf_analyzer's export"));
    }
}

fn text(value: Option<&Value>) -> Option<String> {
    value
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
}

fn read_experiment(file: &str, value: &Value, at: Location, triton: bool) -> Result<Run, Problem> {
    let obj = value.as_object().ok_or_else(|| {
        Problem::error(
            file,
            at.clone(),
            format!(
                "expected an experiment object, found {}",
                describe_json(value)
            ),
        )
    })?;
    let mut problems = Vec::new();
    let target = load(file, obj, &at, &mut problems);
    let mut unread = BTreeSet::new();
    for key in obj
        .keys()
        .filter(|k| *k != "experiment" && *k != "requests")
    {
        unread.insert(format!("experiments[].{key}"));
    }
    let Some(items) = obj.get("requests").and_then(Value::as_array) else {
        return Err(Problem::error(
            file,
            at.child("requests"),
            "expected the experiment's list of requests; the experiment is skipped",
        ));
    };
    let mut requests = Vec::with_capacity(items.len().min(1 << 20));
    let mut more = 0usize;
    for (i, item) in items.iter().enumerate() {
        let here = at.child("requests").child(&format!("[{i}]"));
        match read_request(file, item, here, triton, &mut unread) {
            Ok(r) => requests.push(r),
            Err(p) if problems.len() < 20 => problems.push(p),
            Err(_) => more += 1,
        }
    }
    if more > 0 {
        problems.push(Problem::error(
            file,
            at.child("requests"),
            format!("{more} more requests could not be read"),
        ));
    }
    let (config, folder_load) = artifact_directory(file).unzip();
    let mut run = Run::new(
        Provenance::new(file, at.clone(), Producer::PerfAnalyzer),
        config.unwrap_or_default(),
        LoadPoint::new(target.or(folder_load).unwrap_or(LoadTarget::MaxThroughput)),
    );
    if let Some(model) = requests.iter().find_map(|r| r.model.clone()) {
        run.config.model = Some(model);
    }
    measure(&mut run, &requests);
    run.problems = problems;
    let mut names = Unread::default();
    for name in unread {
        names.name(name);
    }
    run.problems
        .extend(names.warning(file, at.clone(), "perf_analyzer's experiment"));
    run.problems.push(Problem::warning(
        file,
        at,
        format!(
            "{NO_SUMMARY} (GenAI-Perf counts them from the text): no TPOT, lengths or token \
             throughput here; `profile_export_genai_perf.json` beside it has them"
        ),
    ));
    Ok(run)
}

/// `experiment`: `{mode, value}`.
fn load(
    file: &str,
    obj: &Map<String, Value>,
    at: &Location,
    problems: &mut Vec<Problem>,
) -> Option<LoadTarget> {
    let experiment = obj.get("experiment");
    let mode = experiment
        .and_then(|e| e.get("mode"))
        .and_then(Value::as_str);
    let value = experiment
        .and_then(|e| e.get("value"))
        .and_then(Value::as_f64)
        .filter(|v| v.is_finite() && *v > 0.0);
    let target = match (mode, value) {
        (Some("concurrency"), Some(c)) => Some(LoadTarget::Concurrency(c)),
        (Some("request_rate"), Some(r)) => Some(LoadTarget::RequestRate(Rate::PerSecond(r))),
        _ => None,
    };
    if target.is_none() {
        problems.push(Problem::warning(
            file,
            at.child("experiment"),
            format!(
                "expected `{{\"mode\": \"concurrency\" | \"request_rate\", \"value\": N}}`, found \
                 {}; the load point comes from the folder's name, if it has one",
                experiment.map_or_else(|| "nothing".to_string(), describe_json)
            ),
        ));
    }
    target
}

/// The samples, counts, latency distributions and request rate of `requests`.
fn measure(run: &mut Run, requests: &[Request]) {
    let mut samples = RequestSamples::default();
    for r in requests {
        samples.push(r.ok, r.ttft, r.e2e, f64::NAN, f64::NAN, f64::NAN);
    }
    let first = requests.iter().map(|r| r.start_ns).min();
    if let Some(first) = first {
        let starts: Vec<f64> = requests
            .iter()
            .map(|r| (r.start_ns - first) as f64 / 1e9)
            .collect();
        samples.set_starts(&starts);
        let last = requests.iter().filter_map(|r| r.end_ns).max();
        if let Some(span) = last.and_then(|l| l.checked_sub(first)).filter(|s| *s > 0) {
            run.throughput.requests_per_s = Some(requests.len() as f64 / (span as f64 / 1e9));
        }
    }
    let ok: Vec<&Request> = requests.iter().filter(|r| r.ok).collect();
    let values = |get: fn(&Request) -> f64| ok.iter().map(|r| get(r)).collect::<Vec<f64>>();
    for (metric, list) in [
        (Metric::Ttft, values(|r| r.ttft)),
        (Metric::Ttst, values(|r| r.ttst)),
        (
            Metric::Itl,
            ok.iter().flat_map(|r| r.gaps.iter().copied()).collect(),
        ),
        (Metric::E2e, values(|r| r.e2e)),
    ] {
        if let Some(distribution) = summary_of(&list) {
            run.latency.push(LatencyMetric {
                metric,
                distribution,
            });
        }
    }
    run.load.achieved_rps = run.throughput.requests_per_s;
    run.requests = RequestCounts::counted(requests.len() as u64, ok.len() as u64);
    run.samples = Some(std::sync::Arc::new(samples));
}

#[cfg(test)]
mod tests;
