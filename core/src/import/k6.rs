//! k6 summaries: the legacy `--summary-export` file (`{"root_group", "metrics": {name: values}}`)
//! and the `handleSummary` data (`metrics: {name: {type, contains, values, thresholds}}`, plus
//! `options` and `state`). One run per file: k6 reports a whole test, not load levels.
//!
//! Mapping (k6 has no LLM metrics of its own; the conventions below are documented for users):
//! - `http_req_duration` (a trend in ms) is the end-to-end latency; a custom trend whose name
//!   contains `ttft`, `tpot` (or `time_per_output_token`) or `itl` is that metric (`llm_ttft`,
//!   `ttft_ms`).
//! - `http_reqs.count` is the number of requests and its `rate` the request rate;
//!   `http_req_failed` is a *rate of failures*: its `passes` are failed requests (the k6 pitfall).
//! - a counter whose name contains `output_tokens` gives output tokens and their rate.
//! - `vus_max` (or `vus.max`) is the load point, as a concurrency of virtual users.
//! - trend keys `avg`, `med`, `min`, `max`, `p(90)` are statistics; `summaryTimeUnit` in
//!   `options` (when set) is the unit of every time trend, otherwise milliseconds.
//!
//! Time trends whose name is not one of the above are listed as warnings, so nothing is dropped
//! silently. The end-of-test summary k6 prints to the console is read by [`text`] into the same
//! metrics; [`metrics`] makes the run of them, in either form.

use serde_json::{Map, Value};

use super::json_objects;
use super::ImportedFile;
use crate::model::{Location, Run};
use crate::number::describe_json;
use crate::problem::Problem;
use metrics::{run_of, K6Metric, Places};

/// True for either k6 summary layout.
pub(super) fn is_summary(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    obj.contains_key("root_group")
        && obj
            .get("metrics")
            .and_then(Value::as_object)
            .is_some_and(|m| {
                m.keys()
                    .any(|k| k.starts_with("http_req") || k == "iterations")
            })
}

/// Reads one summary into a run.
pub(super) fn read_document(out: &mut ImportedFile, value: &Value, at: Location) {
    match read_summary(&out.file, value, at) {
        Ok(run) => out.runs.push(run),
        Err(problem) => out.problems.push(problem),
    }
}

fn read_summary(file: &str, value: &Value, at: Location) -> Result<Run, Problem> {
    let root = value
        .as_object()
        .ok_or_else(|| Problem::error(file, at.clone(), "expected a k6 summary object"))?;
    let metrics_at = at.child("metrics");
    let Some(Value::Object(metrics)) = root.get("metrics") else {
        return Err(Problem::error(
            file,
            metrics_at,
            "expected `metrics` to be an object of k6 metrics",
        ));
    };
    let mut problems = Vec::new();
    let all = k6_metrics(file, metrics, &metrics_at, &mut problems);
    let time_scale = time_unit_scale(file, root, &at, &mut problems);
    let places = Places {
        run: at,
        failed: metrics_at.child("http_req_failed"),
        vus: metrics_at.child("vus_max"),
    };
    Ok(run_of(file, &all, time_scale, None, places, problems))
}

/// Every metric of `metrics`, from either layout; an entry that is not an object is an error.
fn k6_metrics<'a>(
    file: &str,
    metrics: &'a Map<String, Value>,
    metrics_at: &Location,
    problems: &mut Vec<Problem>,
) -> Vec<K6Metric<'a>> {
    let mut all: Vec<K6Metric<'_>> = Vec::new();
    for (name, entry) in metrics {
        let here = metrics_at.child(name);
        let Value::Object(entry) = entry else {
            problems.push(Problem::error(
                file,
                here,
                format!(
                    "expected an object of values, found {}",
                    describe_json(entry)
                ),
            ));
            continue;
        };
        // handleSummary nests the numbers under `values`; the legacy export does not.
        let (values, values_at) = match entry.get("values") {
            Some(Value::Object(v)) => (v, here.child("values")),
            _ => (entry, here),
        };
        all.push(K6Metric {
            name,
            kind: entry.get("type").and_then(Value::as_str),
            contains: entry.get("contains").and_then(Value::as_str),
            values,
            at: values_at,
        });
    }
    all
}

/// Milliseconds per unit of the file's time trends: `options.summaryTimeUnit` when set.
fn time_unit_scale(
    file: &str,
    root: &Map<String, Value>,
    at: &Location,
    problems: &mut Vec<Problem>,
) -> f64 {
    let unit = root
        .get("options")
        .and_then(|o| o.get("summaryTimeUnit"))
        .and_then(Value::as_str)
        .unwrap_or("");
    if unit.is_empty() {
        return 1.0;
    }
    json_objects::ms_per(unit).unwrap_or_else(|| {
        problems.push(Problem::error(
            file,
            at.child("options").child("summaryTimeUnit"),
            format!("unknown time unit `{unit}`; expected ms, s, us or ns. Milliseconds assumed"),
        ));
        1.0
    })
}

mod metrics;
mod text;

pub(super) use text::{is_text, read_text};

#[cfg(test)]
mod tests;
