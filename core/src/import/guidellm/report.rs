//! The GuideLLM report object, as `benchmarks.json` holds it and `benchmarks.yaml` dumps it, in
//! every top-level generation (see the parent module for the layouts and the definitions).
//!
//! Every problem is located by its JSON path (`benchmarks[2].metrics.request_latency…`), which
//! for the YAML file is the path of the same key in the dumped object. The per-request lists can
//! be long: they are read in one pass, and locations are only built for problems.

use serde_json::{Map, Value};

use super::{load_point, object_at, report_identity, text, Benchmark};
use crate::import::fields::Fields;
use crate::import::stats::{nested, object, whole};
use crate::import::ImportedFile;
use crate::model::{
    ConfigIdentity, Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric,
    RequestCounts, RequestSamples, Run, Throughput, TokenStats,
};
use crate::number::{describe_json, json_number, Reading};
use crate::problem::{Problem, Severity};

/// True for a GuideLLM report: a `benchmarks` list holding a `generative_benchmark` (or, for a
/// report without benchmarks, `metadata.guidellm_version`).
pub(crate) fn is_report(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    let Some(Value::Array(benchmarks)) = obj.get("benchmarks") else {
        return false;
    };
    benchmarks
        .iter()
        .any(|b| b.get("type_").and_then(Value::as_str) == Some("generative_benchmark"))
        || object_at(obj, &["metadata"]).is_some_and(|m| m.contains_key("guidellm_version"))
}

/// Reads a report into one run per benchmark; benchmarks that cannot be read become problems of
/// the file.
pub(crate) fn read_document(out: &mut ImportedFile, value: &Value, at: Location) {
    let file = out.file.clone();
    let Some(obj) = value.as_object() else {
        out.problems.push(Problem::error(
            &file,
            at,
            "expected a JSON object with a `benchmarks` list",
        ));
        return;
    };
    let mut top = Fields::new(obj, &file, at.clone());
    let metadata = object(&mut top, "metadata");
    let version = metadata.and_then(|m| text(m, "guidellm_version"));
    if let Some(layout) = metadata.and_then(|m| m.get("version")) {
        match json_number(layout) {
            Reading::Value(v) if v == 1.0 || v == 2.0 => {}
            _ => top.warn_at(
                "metadata.version",
                format!(
                    "report layout {} is not one this importer knows (1 for GuideLLM 0.6, 2 for \
                     0.7+); it is read as layout 2",
                    describe_json(layout)
                ),
            ),
        }
    }
    let config = object(&mut top, "config");
    let args = object(&mut top, "args");
    let shared = report_identity(config, args);
    let benchmarks = match obj.get("benchmarks") {
        Some(Value::Array(b)) => b,
        other => {
            top.error_at(
                "benchmarks",
                format!(
                    "expected a list of benchmarks, found {}",
                    other.map_or_else(|| "nothing".to_string(), describe_json)
                ),
            );
            out.problems.append(&mut top.problems);
            return;
        }
    };
    if benchmarks.is_empty() {
        top.error_at(
            "benchmarks",
            "the list is empty; expected one benchmark per load point",
        );
    }
    out.problems.append(&mut top.problems);
    for (i, b) in benchmarks.iter().enumerate() {
        let at = at.child("benchmarks").child(&format!("[{i}]"));
        match read_benchmark(&file, b, at, &shared, version.as_deref()) {
            Ok(run) => out.runs.push(run),
            Err(problem) => out.problems.push(problem),
        }
    }
}

fn read_benchmark(
    file: &str,
    value: &Value,
    at: Location,
    shared: &ConfigIdentity,
    version: Option<&str>,
) -> Result<Run, Problem> {
    let Some(obj) = value.as_object() else {
        return Err(Problem::error(
            file,
            at,
            format!(
                "expected a benchmark object, found {}; it is skipped",
                describe_json(value)
            ),
        ));
    };
    let mut f = Fields::new(obj, file, at.clone());
    match obj.get("type_") {
        Some(Value::String(t)) if t == "generative_benchmark" => {}
        None => f.warn_at(
            "type_",
            "missing; expected `generative_benchmark`, read as one",
        ),
        Some(other) => {
            return Err(Problem::error(
                file,
                at.child("type_"),
                format!(
                    "expected `generative_benchmark`, found {}; only generative benchmarks are \
                     imported, this one is skipped",
                    describe_json(other)
                ),
            ))
        }
    }
    let metrics = match obj.get("metrics") {
        Some(Value::Object(m)) => m,
        other => {
            return Err(Problem::error(
                file,
                at.child("metrics"),
                format!(
                    "expected the benchmark's statistics object, found {}; this benchmark is \
                     skipped",
                    other.map_or_else(|| "nothing".to_string(), describe_json)
                ),
            ))
        }
    };

    // 0.4+ keeps the benchmark's settings in `config`, 0.2–0.3 in `args` and `worker`.
    let config = object(&mut f, "config");
    let args = if config.is_none() {
        object(&mut f, "args")
    } else {
        None
    };
    let load = read_load(&mut f, config, args);
    let mut identity = shared.clone();
    let own_model = config
        .and_then(|c| object_at(c, &["backend"]))
        .and_then(|b| text(b, "model"))
        .or_else(|| object_at(obj, &["worker"]).and_then(|w| text(w, "backend_model")));
    identity.model = own_model.or(identity.model);

    let mut m = Fields::new(metrics, file, at.child("metrics"));
    let missing: Vec<String> = EVERY_VERSION
        .iter()
        .filter(|k| !metrics.contains_key(**k))
        .map(|k| format!("`{k}`"))
        .collect();
    if !missing.is_empty() {
        f.warn_at(
            "metrics",
            format!(
                "{} missing; GuideLLM writes them in every version, so the file was probably cut \
                 short or edited",
                missing.join(", ")
            ),
        );
    }
    let mut latency = Vec::new();
    for (key, metric, scale) in [
        ("time_to_first_token_ms", Metric::Ttft, 1.0),
        ("inter_token_latency_ms", Metric::Tpot, 1.0),
        ("time_per_output_token_ms", Metric::TpotInclFirst, 1.0),
        // Seconds, unlike every other latency of the report.
        ("request_latency", Metric::E2e, 1000.0),
    ] {
        if let Some(distribution) = with_successful(&mut m, key, |d| summary(d, scale)) {
            latency.push(LatencyMetric {
                metric,
                distribution,
            });
        }
    }
    let throughput = Throughput {
        output_tok_s: successful_mean(&mut m, "output_tokens_per_second"),
        total_tok_s: successful_mean(&mut m, "tokens_per_second"),
        input_tok_s: successful_mean(&mut m, "prompt_tokens_per_second"),
        requests_per_s: successful_mean(&mut m, "requests_per_second"),
        goodput_req_s: None,
        output_tok_s_per_user: None,
    };
    let achieved_concurrency = successful_mean(&mut m, "request_concurrency");
    let (input_len, total_input) = token_counts(&mut m, "prompt_token_count");
    let (output_len, total_output) = token_counts(&mut m, "output_token_count");
    let tokens = TokenStats {
        total_input,
        total_output,
        input_len,
        output_len,
    };

    // `metrics.request_totals` since 0.4, a sibling of `metrics` before.
    let (requests, totals_at) = if metrics.contains_key("request_totals") {
        (
            nested(&mut m, "request_totals", read_totals),
            m.at.child("request_totals"),
        )
    } else {
        (
            nested(&mut f, "request_totals", read_totals),
            at.child("request_totals"),
        )
    };
    let requests = requests.unwrap_or_else(|| {
        m.warn_at(
            "request_totals",
            "missing; expected the request counts by status (successful, errored, incomplete); \
             the run's counts are unknown",
        );
        RequestCounts::default()
    });
    f.problems.append(&mut m.problems);

    let samples = read_samples(&mut f, obj);
    let benchmark = Benchmark {
        location: at,
        version: version.map(String::from),
        config: identity,
        load,
        requests,
        latency,
        throughput,
        achieved_concurrency,
        tokens,
        samples,
        problems: f.problems,
    };
    Ok(benchmark.into_run(file, totals_at.child("successful")))
}

/// Metrics every GuideLLM version writes.
const EVERY_VERSION: [&str; 10] = [
    "requests_per_second",
    "request_concurrency",
    "request_latency",
    "prompt_token_count",
    "output_token_count",
    "time_to_first_token_ms",
    "time_per_output_token_ms",
    "inter_token_latency_ms",
    "output_tokens_per_second",
    "tokens_per_second",
];

/// The load point from `config.strategy` (0.4+) or `args.strategy` (0.2–0.3).
fn read_load(
    f: &mut Fields<'_>,
    config: Option<&Map<String, Value>>,
    args: Option<&Map<String, Value>>,
) -> LoadPoint {
    let (holder, strategy) = match (config, args) {
        (Some(c), _) => ("config", c.get("strategy")),
        (None, Some(a)) => ("args", a.get("strategy")),
        (None, None) => {
            f.error_at(
                "config",
                "missing; expected `config.strategy` (GuideLLM 0.4+) or `args.strategy` \
                 (0.2–0.3); the run has no load value",
            );
            return no_load();
        }
    };
    let at = f.at.child(holder).child("strategy");
    match strategy {
        Some(Value::Object(s)) => {
            let (load, issues) = load_point(s);
            for issue in issues {
                let location = issue.key.map_or_else(|| at.clone(), |k| at.child(k));
                f.problems.push(match issue.severity {
                    Severity::Error => Problem::error(f.file, location, issue.message),
                    Severity::Warning => Problem::warning(f.file, location, issue.message),
                });
            }
            load
        }
        other => {
            f.problems.push(Problem::error(
                f.file,
                at,
                format!(
                    "expected the scheduling strategy object, found {}; the run has no load \
                     value",
                    other.map_or_else(|| "nothing".to_string(), describe_json)
                ),
            ));
            no_load()
        }
    }
}

fn no_load() -> LoadPoint {
    LoadPoint {
        target: LoadTarget::MaxThroughput,
        max_concurrency: None,
        achieved_rps: None,
        achieved_concurrency: None,
    }
}

/// Reads the `successful` distribution of the metric at `key` with `read`. A missing metric (or
/// `null`) gives `None` silently; a metric without `successful` is an error.
fn with_successful<'a, T>(
    m: &mut Fields<'a>,
    key: &str,
    read: impl FnOnce(&mut Fields<'a>) -> Option<T>,
) -> Option<T> {
    nested(m, key, |metric| {
        if !metric.has("successful") {
            metric.error_at(
                "successful",
                "missing; expected the statistics of the successful requests",
            );
            return None;
        }
        nested(metric, "successful", read).flatten()
    })
    .flatten()
}

/// The mean of the successful distribution of a rate (requests or tokens per second, requests
/// in flight). Read whatever the count: zero successes make a rate of zero, not an unknown.
fn successful_mean(m: &mut Fields<'_>, key: &str) -> Option<f64> {
    with_successful(m, key, |d| d.finite("mean"))
}

/// The length distribution and total of a token count.
fn token_counts(m: &mut Fields<'_>, key: &str) -> (Option<Distribution>, Option<u64>) {
    with_successful(m, key, |d| {
        let total = d.finite("total_sum").and_then(|v| whole(d, "total_sum", v));
        Some((summary(d, 1.0), total))
    })
    .unwrap_or((None, None))
}

/// Percentile keys and their ranks: `p001` is the 0.1th percentile, `p999` the 99.9th.
fn rank(key: &str) -> Option<f64> {
    Some(match key {
        "p001" => 0.1,
        "p01" => 1.0,
        "p05" => 5.0,
        "p10" => 10.0,
        "p25" => 25.0,
        "p50" => 50.0,
        "p75" => 75.0,
        "p90" => 90.0,
        "p95" => 95.0,
        "p99" => 99.0,
        "p999" => 99.9,
        _ => return None,
    })
}

/// One DistributionSummary, every value multiplied by `scale`. `count: 0` means empty (GuideLLM
/// writes zeros for every statistic then).
fn summary(d: &mut Fields<'_>, scale: f64) -> Option<Distribution> {
    if d.count("count") == Some(0) {
        return None;
    }
    let mut out = Distribution {
        mean: d.finite("mean").map(|v| v * scale),
        median: d.finite("median").map(|v| v * scale),
        std: d.finite("std_dev").map(|v| v * scale),
        min: d.finite("min").map(|v| v * scale),
        max: d.finite("max").map(|v| v * scale),
        percentiles: Vec::new(),
    };
    if let Some(percentiles) = object(d, "percentiles") {
        let mut p = Fields::new(percentiles, d.file, d.at.child("percentiles"));
        for (key, value) in percentiles {
            let Some(rank) = rank(key) else {
                p.warn_at(
                    key,
                    "not a percentile GuideLLM writes (p001, p01, p05, p10, p25, p50, p75, p90, \
                     p95, p99, p999); it is ignored",
                );
                continue;
            };
            match json_number(value) {
                Reading::Value(v) if v.is_finite() => out.set_percentile(rank, v * scale),
                Reading::Value(v) => {
                    p.error_at(key, format!("expected a finite number, found {v}"))
                }
                Reading::Missing => {}
                Reading::Invalid => p.error_at(
                    key,
                    format!("expected a number, found {}", describe_json(value)),
                ),
            }
        }
        d.problems.append(&mut p.problems);
    }
    (!out.is_empty()).then_some(out)
}

/// `request_totals`: `{successful, errored, incomplete, total}`.
fn read_totals(t: &mut Fields<'_>) -> RequestCounts {
    let counts = RequestCounts {
        total: t.count("total"),
        succeeded: t.count("successful"),
        failed: t.count("errored"),
        incomplete: t.count("incomplete"),
    };
    if let (Some(total), Some(s), Some(e), Some(i)) = (
        counts.total,
        counts.succeeded,
        counts.failed,
        counts.incomplete,
    ) {
        if s.checked_add(e).and_then(|n| n.checked_add(i)) != Some(total) {
            t.warn_at(
                "total",
                format!(
                    "{total} is not successful + errored + incomplete ({s} + {e} + {i}); the \
                     counts are kept as written"
                ),
            );
        }
    }
    counts
}

/// Per-request statistics from `requests.{successful, errored, incomplete}`, in one pass.
fn read_samples(f: &mut Fields<'_>, obj: &Map<String, Value>) -> Option<RequestSamples> {
    let requests = match obj.get("requests") {
        None | Some(Value::Null) => return None,
        Some(Value::Object(r)) => r,
        Some(other) => {
            f.error_at(
                "requests",
                format!(
                    "expected an object of request lists (successful, errored, incomplete), \
                     found {}; the run has no per-request samples",
                    describe_json(other)
                ),
            );
            return None;
        }
    };
    let window = measured_window(f, obj);
    let mut samples = RequestSamples::default();
    let mut excluded = 0usize;
    let mut bad = 0usize;
    let at = f.at.child("requests");
    for (status, ok) in [
        ("successful", true),
        ("errored", false),
        ("incomplete", false),
    ] {
        let items = match requests.get(status) {
            None | Some(Value::Null) => continue,
            Some(Value::Array(items)) => items,
            Some(other) => {
                f.problems.push(Problem::error(
                    f.file,
                    at.child(status),
                    format!(
                        "expected a list of requests, found {}",
                        describe_json(other)
                    ),
                ));
                continue;
            }
        };
        for (j, item) in items.iter().enumerate() {
            let place = || at.child(status).child(&format!("[{j}]"));
            let Some(r) = item.as_object() else {
                bad += 1;
                if bad <= 5 {
                    f.problems.push(Problem::error(
                        f.file,
                        place(),
                        format!(
                            "expected a request object, found {}; it is skipped",
                            describe_json(item)
                        ),
                    ));
                }
                continue;
            };
            if let Some((start, end)) = window {
                if !within(r, start, end) {
                    excluded += 1;
                    continue;
                }
            }
            let mut value = |key: &str, scale: f64| -> f64 {
                let Some(v) = r.get(key) else {
                    return f64::NAN;
                };
                match json_number(v) {
                    Reading::Value(x) => x * scale,
                    Reading::Missing => f64::NAN,
                    Reading::Invalid => {
                        bad += 1;
                        if bad <= 5 {
                            f.problems.push(Problem::error(
                                f.file,
                                place().child(key),
                                format!("expected a number, found {}", describe_json(v)),
                            ));
                        }
                        f64::NAN
                    }
                }
            };
            let ttft = value("time_to_first_token_ms", 1.0);
            let e2e = value("request_latency", 1000.0);
            let tpot = value("inter_token_latency_ms", 1.0);
            let input = value("prompt_tokens", 1.0);
            let output = value("output_tokens", 1.0);
            samples.ok.push(ok);
            samples.ttft_ms.push(ttft);
            samples.e2e_ms.push(e2e);
            samples.tpot_ms.push(tpot);
            samples.input_tokens.push(input);
            samples.output_tokens.push(output);
        }
    }
    if bad > 5 {
        f.problems.push(Problem::error(
            f.file,
            at.clone(),
            format!(
                "{} more values of the per-request lists are not numbers or not requests",
                bad - 5
            ),
        ));
    }
    if excluded > 0 {
        f.problems.push(Problem::warning(
            f.file,
            at,
            format!(
                "{excluded} listed requests ran during the warm-up or cool-down (outside \
                 `scheduler_metrics.measure_start_time`…`measure_end_time`); they are left out \
                 of the samples, as GuideLLM leaves them out of its metrics"
            ),
        ));
    }
    (!samples.is_empty()).then_some(samples)
}

/// The measured period, when the benchmark had a warm-up or cool-down (0.4+).
fn measured_window(f: &mut Fields<'_>, obj: &Map<String, Value>) -> Option<(f64, f64)> {
    let marked = ["warmup_duration", "cooldown_duration"]
        .into_iter()
        .any(|k| f.finite(k).is_some_and(|d| d > 0.0));
    if !marked {
        return None;
    }
    let sm = object_at(obj, &["scheduler_metrics"]);
    let time = |key: &str| {
        sm.and_then(|m| m.get(key))
            .and_then(|v| json_number(v).value())
            .filter(|v| v.is_finite())
    };
    match (time("measure_start_time"), time("measure_end_time")) {
        (Some(start), Some(end)) => Some((start, end)),
        _ => {
            f.warn_at(
                "scheduler_metrics",
                "the benchmark has a warm-up or cool-down but no `measure_start_time` and \
                 `measure_end_time`; every listed request is kept in the samples",
            );
            None
        }
    }
}

/// GuideLLM's own test for a request of the measured period: it ended after the start and
/// started before the end (or, without a start time, ended before the end).
fn within(r: &Map<String, Value>, start: f64, end: f64) -> bool {
    let time = |key: &str| r.get(key).and_then(|v| json_number(v).value());
    match (time("request_start_time"), time("request_end_time")) {
        (_, Some(e)) if e < start => false,
        (Some(s), _) => s <= end,
        (None, Some(e)) => e <= end,
        (None, None) => true,
    }
}
