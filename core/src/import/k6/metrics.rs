//! The run of a k6 summary's metrics, in either form (the JSON summaries, or the console's
//! text): each metric mapped to the benchmark's by the conventions in [`super`]'s
//! documentation.

use serde_json::{Map, Value};

use crate::import::fields::{set_stat, Fields};
use crate::model::{
    ConfigIdentity, Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer,
    Provenance, RequestCounts, Run, Throughput, TokenStats,
};
use crate::problem::Problem;

/// One metric's values, from either layout.
pub(super) struct K6Metric<'a> {
    pub(super) name: &'a str,
    /// `trend`, `counter`, `rate` or `gauge`, when the file says.
    pub(super) kind: Option<&'a str>,
    /// `time` for durations, when the file says.
    pub(super) contains: Option<&'a str>,
    pub(super) values: &'a Map<String, Value>,
    pub(super) at: Location,
}

/// Where a run's warnings point: the run, its failures, its virtual users.
pub(super) struct Places {
    pub(super) run: Location,
    pub(super) failed: Location,
    pub(super) vus: Location,
}

/// The run of a summary's metrics, in either form (JSON, or the console's text). `load` is the
/// load the scenario states, when the text names it; else the virtual users are the load.
pub(super) fn run_of(
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

/// What the metrics give, by the mapping in the documentation of [`super`].
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
                throughput.requests_per_s = f.non_negative("rate");
            }
            "http_req_failed" => {
                // A rate of failures: `passes` counts requests that failed.
                requests.failed = f.count("passes");
                requests.succeeded = f.count("fails");
            }
            "vus_max" => {
                vus = f
                    .non_negative("max")
                    .or_else(|| f.non_negative("value"))
                    .or(vus)
            }
            "vus" if vus.is_none() => vus = f.non_negative("max"),
            name if name.contains("output_tokens") && !is_trend => {
                tokens.total_output = f.count("count");
                throughput.output_tok_s = f.non_negative("rate");
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

/// A trend's statistics: `avg`, `med`, `min`, `max` and `p(N)`.
fn trend(f: &mut Fields<'_>, scale: f64) -> Option<Distribution> {
    let mut d = Distribution::default();
    let obj = f.obj;
    for key in obj.keys() {
        let stat = match key.as_str() {
            "med" => "median".to_string(),
            "avg" | "min" | "max" => key.clone(),
            other => match other.strip_prefix("p(").and_then(|r| r.strip_suffix(')')) {
                Some(p) => format!("p{p}"),
                None => continue,
            },
        };
        if let Some(v) = f.non_negative(key) {
            if !set_stat(&mut d, &stat, v * scale) {
                f.warn_at(key, "not a statistic benchdeck knows; ignored");
            }
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
