//! A report's `results.request_performance.aggregate`: request counts, latency and throughput
//! statistics, each `{units, mean, stddev, min, max, p0p1, p1 … p99, p99p9, mode}`.

use serde_json::{Map, Value};

use crate::import::fields::{set_stat, Fields};
use crate::import::json_objects::{ms_per, nested};
use crate::import::unread::{path, Unread};
use crate::model::{
    Distribution, LatencyMetric, Metric, RequestCounts, Run, Throughput, TokenStats,
};
use crate::number::{describe_json, json_number, Reading};
use crate::problem::Problem;

/// What the aggregate holds, ready to go into a run.
pub(super) struct Measured {
    requests: RequestCounts,
    latency: Vec<LatencyMetric>,
    throughput: Throughput,
    tokens: TokenStats,
    problems: Vec<Problem>,
}

impl Measured {
    /// Puts the numbers into `run`.
    pub fn fill(self, run: &mut Run) {
        run.requests = self.requests;
        run.latency = self.latency;
        run.throughput = self.throughput;
        run.tokens = self.tokens;
        run.problems.extend(self.problems);
    }
}

const LATENCIES: [&str; 5] = [
    "time_to_first_token",
    "time_per_output_token",
    "normalized_time_per_output_token",
    "inter_token_latency",
    "request_latency",
];

/// The metric a report's latency `key` is, given the `tool` it was converted from: the same key
/// means different things in different tools. `None`: the tool has no such metric.
/// `guidellm-0.3` stands for GuideLLM before 0.4 (see [`super::scenario`]).
pub(super) fn definition(tool: &str, key: &str) -> Option<Metric> {
    let per_request_itl = matches!(tool, "guidellm" | "guidellm-0.3" | "aiperf");
    Some(match key {
        "time_to_first_token" => Metric::Ttft,
        "request_latency" => Metric::E2e,
        "normalized_time_per_output_token" => Metric::TpotInclFirst,
        // GuideLLM's (0.4+) counts from the request's start; before 0.4 it was (last − first
        // token) / tokens, neither definition; AIPerf has none.
        "time_per_output_token" if tool == "guidellm" => Metric::TpotInclFirst,
        "time_per_output_token" if matches!(tool, "guidellm-0.3" | "aiperf") => return None,
        "time_per_output_token" => Metric::Tpot,
        // GuideLLM's and AIPerf's ITL is each request's (e2e − ttft) / (tokens − 1).
        "inter_token_latency" if per_request_itl => Metric::Tpot,
        "inter_token_latency" => Metric::Itl,
        _ => return None,
    })
}

/// Load generators whose metric definitions [`definition`] knows.
const KNOWN_TOOLS: [&str; 5] = [
    "inference-perf",
    "vllm-benchmark",
    "inferencemax",
    "guidellm",
    "aiperf",
];

/// Reads `results`; `None` when it has no aggregate request statistics.
pub(super) fn read(r: &mut Fields<'_>, tool: &str, unread: &mut Unread) -> Option<Measured> {
    unread.keys(r.obj, "results", &["request_performance"]);
    let aggregate = nested(r, "request_performance", |p| {
        unread.keys(p.obj, "results.request_performance", &["aggregate"]);
        nested(p, "aggregate", |a| read_aggregate(a, tool, unread))
    })
    .flatten()?;
    Some(aggregate)
}

fn read_aggregate(a: &mut Fields<'_>, tool: &str, unread: &mut Unread) -> Measured {
    let prefix = "results.request_performance.aggregate";
    unread.keys(a.obj, prefix, &["requests", "latency", "throughput"]);
    let mut problems = Vec::new();
    if !KNOWN_TOOLS.contains(&tool) && tool != "guidellm-0.3" {
        problems.push(Problem::warning(
            a.file,
            a.at.child("latency"),
            format!(
                "the load generator `{tool}` is not one whose definitions benchdeck knows ({}): \
                 its latencies are read as inference-perf's (ITL as gaps pooled over requests, \
                 TPOT without the first token)",
                KNOWN_TOOLS.join(", ")
            ),
        ));
    }
    let (requests, tokens) =
        nested(a, "requests", |q| read_requests(q, tool, unread)).unwrap_or_default();
    let latency = nested(a, "latency", |l| read_latency(l, tool, unread)).unwrap_or_default();
    let throughput = nested(a, "throughput", |t| read_throughput(t, unread)).unwrap_or_default();
    Measured {
        requests,
        latency,
        throughput,
        tokens,
        problems,
    }
}

/// `requests`: the counts and the length statistics.
fn read_requests(
    q: &mut Fields<'_>,
    tool: &str,
    unread: &mut Unread,
) -> (RequestCounts, TokenStats) {
    let prefix = "results.request_performance.aggregate.requests";
    let read = [
        "total",
        "failures",
        "incomplete",
        "input_length",
        "output_length",
    ];
    unread.keys(q.obj, prefix, &read);
    let total = q.count("total");
    let failures = q.count("failures");
    let incomplete = q.count("incomplete");
    let counts = if tool == "aiperf" {
        if failures.is_some_and(|n| n > 0) {
            q.warn_at(
                "failures",
                "AIPerf's converter writes the number of error kinds here, not of failed \
                 requests, and its successful requests as `total`: the failures are unknown",
            );
        }
        RequestCounts {
            total: None,
            succeeded: total,
            failed: None,
            incomplete: None,
        }
    } else {
        let done = failures.unwrap_or(0).checked_add(incomplete.unwrap_or(0));
        let succeeded = total.zip(done).and_then(|(t, d)| t.checked_sub(d));
        if total.is_some() && succeeded.is_none() {
            q.error_at(
                "failures",
                "more failed and incomplete requests than `total`; the successes are unknown",
            );
        }
        RequestCounts {
            total,
            succeeded,
            failed: failures,
            incomplete,
        }
    };
    let mut length = |q: &mut Fields<'_>, key: &str| {
        let here = path(prefix, key);
        nested(q, key, |s| statistics(s, 1.0, &here, unread)).flatten()
    };
    let tokens = TokenStats {
        input_len: length(q, "input_length"),
        output_len: length(q, "output_length"),
        ..TokenStats::default()
    };
    (counts, tokens)
}

/// The latency statistics, each converted from its `units` to ms and named by the tool's
/// definition.
fn read_latency(l: &mut Fields<'_>, tool: &str, unread: &mut Unread) -> Vec<LatencyMetric> {
    let prefix = "results.request_performance.aggregate.latency";
    unread.keys(l.obj, prefix, &LATENCIES);
    let mut latency: Vec<LatencyMetric> = Vec::new();
    for key in LATENCIES {
        if !l.obj.get(key).is_some_and(Value::is_object) {
            continue;
        }
        let Some(metric) = definition(tool, key) else {
            unread.name(path(prefix, key));
            continue;
        };
        let here = path(prefix, key);
        let d = nested(l, key, |s| {
            let scale = time_scale(s)?;
            statistics(s, scale, &here, unread)
        })
        .flatten();
        if let Some(distribution) = d {
            latency.retain(|m| m.metric != metric);
            latency.push(LatencyMetric {
                metric,
                distribution,
            });
        }
    }
    latency.sort_by_key(|m| m.metric);
    latency
}

/// Milliseconds per unit of a latency statistic (`s`, `ms`, `s/token`, `ms/token`).
fn time_scale(s: &mut Fields<'_>) -> Option<f64> {
    let units = s.string("units");
    let scale = units
        .as_deref()
        .and_then(|u| ms_per(u.strip_suffix("/token").unwrap_or(u)));
    if scale.is_none() {
        s.error_at(
            "units",
            format!(
                "expected `s`, `ms`, `s/token` or `ms/token`, found {}; this statistic is not \
                 read",
                units.map_or_else(|| "nothing".to_string(), |u| format!("`{u}`"))
            ),
        );
    }
    scale
}

/// The token and request rates: each statistic's `mean`.
fn read_throughput(t: &mut Fields<'_>, unread: &mut Unread) -> Throughput {
    let keys = [
        "input_token_rate",
        "output_token_rate",
        "total_token_rate",
        "request_rate",
    ];
    unread.keys(
        t.obj,
        "results.request_performance.aggregate.throughput",
        &keys,
    );
    let mut mean = |key: &str| nested(t, key, |s| s.non_negative("mean")).flatten();
    Throughput {
        input_tok_s: mean(keys[0]),
        output_tok_s: mean(keys[1]),
        total_tok_s: mean(keys[2]),
        requests_per_s: mean(keys[3]),
        ..Throughput::default()
    }
}

/// One `Statistics` object, every value multiplied by `scale`: `p0p1` is the 0.1th percentile,
/// `p99p9` the 99.9th, `p50` the median, `stddev` the standard deviation; `mode` is not
/// modelled.
fn statistics(
    s: &mut Fields<'_>,
    scale: f64,
    prefix: &str,
    unread: &mut Unread,
) -> Option<Distribution> {
    let mut d = Distribution::default();
    let obj: &Map<String, Value> = s.obj;
    for (key, value) in obj {
        if key == "units" {
            continue;
        }
        let stat = match key.as_str() {
            "stddev" | "mean" | "min" | "max" => key.clone(),
            p if p.starts_with('p') => format!("p{}", p[1..].replace('p', ".")),
            _ => {
                if !value.is_null() {
                    unread.name(path(prefix, key));
                }
                continue;
            }
        };
        match json_number(value) {
            Reading::Value(v) if v.is_finite() => {
                if !set_stat(&mut d, &stat, v * scale) {
                    unread.name(path(prefix, key));
                }
            }
            Reading::Value(v) => s.error_at(key, format!("expected a finite number, found {v}")),
            Reading::Missing => {}
            Reading::Invalid => s.error_at(
                key,
                format!("expected a number, found {}", describe_json(value)),
            ),
        }
    }
    (!d.is_empty()).then_some(d)
}
