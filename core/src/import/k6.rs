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
//! metrics.

use serde_json::{Map, Value};

use super::fields::{set_stat, Fields};
use super::json_objects;
use super::ImportedFile;
use crate::model::{
    ConfigIdentity, Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer,
    Provenance, RequestCounts, Run, Throughput, TokenStats,
};
use crate::number::{describe_json, json_number, Reading};
use crate::problem::Problem;

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

/// One metric's values, from either layout.
struct K6Metric<'a> {
    name: &'a str,
    /// `trend`, `counter`, `rate` or `gauge`, when the file says.
    kind: Option<&'a str>,
    /// `time` for durations, when the file says.
    contains: Option<&'a str>,
    values: &'a Map<String, Value>,
    at: Location,
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

/// Where a run's warnings point: the run, its failures, its virtual users.
struct Places {
    run: Location,
    failed: Location,
    vus: Location,
}

/// The run of a summary's metrics, in either form (JSON, or the console's text). `load` is the
/// load the scenario states, when the text names it; else the virtual users are the load.
fn run_of(
    file: &str,
    all: &[K6Metric<'_>],
    time_scale: f64,
    load: Option<LoadPoint>,
    places: Places,
    mut problems: Vec<Problem>,
) -> Run {
    let Measured {
        mut latency,
        mut requests,
        throughput,
        tokens,
        vus,
    } = measured(file, all, time_scale, &mut problems);
    latency.sort_by_key(|m| m.metric);
    if requests.total.is_none() && requests.succeeded.is_some() {
        requests.total = requests
            .succeeded
            .zip(requests.failed)
            .and_then(|(a, b)| a.checked_add(b));
    }
    if requests.succeeded == Some(0) {
        problems.push(Problem::warning(
            file,
            places.failed,
            "every request failed; the run is shown as failed and its latencies are ignored",
        ));
        latency.clear();
    }
    let load = load.unwrap_or_else(|| match vus {
        Some(v) if v.is_finite() && v >= 1.0 => LoadPoint::new(LoadTarget::Concurrency(v)),
        _ => {
            problems.push(Problem::warning(
                file,
                places.vus,
                "no `vus_max` or `vus` metric: the number of virtual users (the load) is unknown",
            ));
            LoadPoint::new(LoadTarget::MaxThroughput)
        }
    });
    let mut run = Run::new(
        Provenance::new(file, places.run, Producer::K6),
        ConfigIdentity::default(),
        LoadPoint {
            achieved_rps: throughput.requests_per_s,
            ..load
        },
    );
    run.requests = requests;
    run.latency = latency;
    run.throughput = throughput;
    run.tokens = tokens;
    run.problems = problems;
    run
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

/// What the metrics give, by the mapping in the module's documentation.
struct Measured {
    latency: Vec<LatencyMetric>,
    requests: RequestCounts,
    throughput: Throughput,
    tokens: TokenStats,
    /// The virtual users, the load.
    vus: Option<f64>,
}

/// Reads every metric the mapping knows; a time trend it does not know is a warning.
fn measured(
    file: &str,
    all: &[K6Metric<'_>],
    time_scale: f64,
    problems: &mut Vec<Problem>,
) -> Measured {
    let mut latency: Vec<LatencyMetric> = Vec::new();
    let mut requests = RequestCounts::default();
    let mut throughput = Throughput::default();
    let mut tokens = TokenStats::default();
    let mut vus: Option<f64> = None;
    for m in all {
        let mut f = Fields::new(m.values, file, m.at.clone());
        let is_trend = m.kind == Some("trend") || m.values.contains_key("med");
        match m.name {
            "http_req_duration" => push(&mut latency, Metric::E2e, trend(&mut f, time_scale)),
            "http_reqs" => {
                requests.total = f.count("count");
                throughput.requests_per_s = f.finite("rate");
            }
            "http_req_failed" => {
                // A rate of failures: `passes` counts requests that failed.
                requests.failed = f.count("passes");
                requests.succeeded = f.count("fails");
            }
            "vus_max" => vus = f.finite("max").or_else(|| f.finite("value")).or(vus),
            "vus" if vus.is_none() => vus = f.finite("max"),
            name if name.contains("output_tokens") && !is_trend => {
                tokens.total_output = f.count("count");
                throughput.output_tok_s = f.finite("rate");
            }
            name if is_trend => match llm_metric(name) {
                Some(metric) => push(&mut latency, metric, trend(&mut f, time_scale)),
                None if m.contains == Some("time") && !is_k6_builtin(name) => {
                    problems.push(Problem::warning(
                        file,
                        m.at.clone(),
                        format!(
                            "time trend `{name}` is not mapped to a benchmark metric; name it with \
                             `ttft`, `tpot` or `itl` to have it read"
                        ),
                    ));
                }
                None => {}
            },
            _ => {}
        }
        problems.append(&mut f.problems);
    }
    Measured {
        latency,
        requests,
        throughput,
        tokens,
        vus,
    }
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

/// A trend's statistics: `avg`, `med`, `min`, `max` and `p(N)`.
fn trend(f: &mut Fields<'_>, scale: f64) -> Option<Distribution> {
    let mut d = Distribution::default();
    let obj = f.obj;
    for (key, value) in obj {
        let stat = match key.as_str() {
            "med" => "median".to_string(),
            "avg" | "min" | "max" => key.clone(),
            other => match other.strip_prefix("p(").and_then(|r| r.strip_suffix(')')) {
                Some(p) => format!("p{p}"),
                None => continue,
            },
        };
        match json_number(value) {
            Reading::Value(v) if v.is_finite() => {
                if !set_stat(&mut d, &stat, v * scale) {
                    f.warn_at(key, "not a statistic benchdeck knows; ignored");
                }
            }
            Reading::Value(v) => f.error_at(key, format!("expected a finite number, found {v}")),
            Reading::Missing => {}
            Reading::Invalid => f.error_at(
                key,
                format!("expected a number, found {}", describe_json(value)),
            ),
        }
    }
    (!d.is_empty()).then_some(d)
}

fn push(latency: &mut Vec<LatencyMetric>, metric: Metric, d: Option<Distribution>) {
    if let Some(distribution) = d {
        latency.retain(|m| m.metric != metric);
        latency.push(LatencyMetric {
            metric,
            distribution,
        });
    }
}

/// The benchmark metric a custom trend's name stands for.
fn llm_metric(name: &str) -> Option<Metric> {
    let lower = name.to_ascii_lowercase();
    if lower.contains("ttft") || lower.contains("time_to_first") {
        Some(Metric::Ttft)
    } else if lower.contains("tpot") || lower.contains("time_per_output_token") {
        Some(Metric::Tpot)
    } else if lower.contains("itl") || lower.contains("inter_token") {
        Some(Metric::Itl)
    } else {
        None
    }
}

/// k6's own trends, which describe the HTTP client rather than the model server.
fn is_k6_builtin(name: &str) -> bool {
    name.starts_with("http_req_") || name == "iteration_duration" || name.starts_with("group_")
}

mod text;

pub(super) use text::{is_text, read_text};

#[cfg(test)]
mod tests;
