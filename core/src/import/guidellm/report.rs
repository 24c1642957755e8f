//! The GuideLLM report object, as `benchmarks.json` holds it and `benchmarks.yaml` dumps it, in
//! every top-level generation (see the parent module for the layouts and the definitions).
//!
//! Every problem is located by its JSON path (`benchmarks[2].metrics.request_latency…`), which
//! for the YAML file is the path of the same key in the dumped object. The per-request lists can
//! be long: they are read in one pass, and locations are only built for problems.

mod distribution;
pub(in crate::import) mod listed;
mod samples;

use serde_json::{Map, Value};

use super::benchmark::{Benchmark, TPOT_0_3};
use super::identity::report_identity;
use super::load::load_point;
use super::object::{object_at, text};
use crate::import::document::Aside;
use crate::import::fields::Fields;
use crate::import::json_objects::{nested, object};
use crate::import::ImportedFile;
use crate::model::{
    ConfigIdentity, LoadPoint, LoadTarget, Location, RequestCounts, Run, Throughput, TokenStats,
};
use crate::number::{describe_json, json_number, Reading};
use crate::problem::{Problem, Severity};
use distribution::{read_latency, successful_mean, token_counts};
use listed::RequestLists;
use samples::{read_samples, Listed};

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
    read_report(out, value, None, at);
}

/// Reads a report whose request lists the parser read aside.
pub(crate) fn read_document_aside(
    out: &mut ImportedFile,
    value: &Value,
    aside: &Aside,
    at: Location,
) {
    read_report(out, value, Some(&aside.requests), at);
}

/// True when the only lists read aside are the benchmarks' request lists.
pub(crate) fn reads_aside(aside: &Aside) -> bool {
    aside.serve.is_empty()
}

fn read_report(out: &mut ImportedFile, value: &Value, lists: Option<&RequestLists>, at: Location) {
    let file = out.file.clone();
    let Some(obj) = out.require(
        value.as_object(),
        &at,
        "expected a JSON object with a `benchmarks` list",
    ) else {
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
        let listed = Listed {
            aside: lists,
            index: i,
        };
        match read_benchmark(&file, b, at, &shared, version.as_deref(), listed) {
            Ok(run) => out.runs.push(run),
            Err(problem) => out.problems.push(problem),
        }
    }
    warn_tpot_0_3(out, benchmarks, &at);
}

/// True for a benchmark of GuideLLM 0.2–0.3: settings in `args`, no `config`.
fn is_0_3(benchmark: &Value) -> bool {
    benchmark.get("config").is_none() && benchmark.get("args").is_some()
}

/// One warning, at the first 0.2–0.3 benchmark that has it, that `time_per_output_token_ms` is
/// left out ([`TPOT_0_3`]).
fn warn_tpot_0_3(out: &mut ImportedFile, benchmarks: &[Value], at: &Location) {
    let first = benchmarks.iter().position(|b| {
        is_0_3(b)
            && b.get("metrics")
                .and_then(|m| m.get("time_per_output_token_ms"))
                .is_some()
    });
    if let Some(i) = first {
        let place = at
            .child("benchmarks")
            .child(&format!("[{i}]"))
            .child("metrics")
            .child("time_per_output_token_ms");
        out.problems.push(Problem::warning(
            &out.file,
            place,
            format!("left out of every benchmark: {TPOT_0_3}"),
        ));
    }
}

fn read_benchmark(
    file: &str,
    value: &Value,
    at: Location,
    shared: &ConfigIdentity,
    version: Option<&str>,
    listed: Listed<'_>,
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
    check_type(&mut f, obj, &at)?;
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
    warn_missing_metrics(&mut f, metrics);
    let latency = read_latency(&mut m, is_0_3(value));
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
    let (requests, totals_at) = read_requests(&mut f, &mut m, metrics, &at);
    f.problems.append(&mut m.problems);

    let samples = read_samples(&mut f, obj, listed);
    // 0.4+ write the benchmark's `start_time`, 0.2–0.3 its `run_stats.start_time`.
    let date = if f.has("start_time") {
        f.date("start_time")
    } else {
        nested(&mut f, "run_stats", |r| r.date("start_time")).flatten()
    };
    let benchmark = Benchmark {
        location: at,
        version: version.map(String::from),
        date,
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

/// `type_` must be `generative_benchmark` (a missing one is read as one, with a warning).
fn check_type(f: &mut Fields<'_>, obj: &Map<String, Value>, at: &Location) -> Result<(), Problem> {
    match obj.get("type_") {
        Some(Value::String(t)) if t == "generative_benchmark" => Ok(()),
        None => {
            f.warn_at(
                "type_",
                "missing; expected `generative_benchmark`, read as one",
            );
            Ok(())
        }
        Some(other) => Err(Problem::error(
            f.file,
            at.child("type_"),
            format!(
                "expected `generative_benchmark`, found {}; only generative benchmarks are \
                 imported, this one is skipped",
                describe_json(other)
            ),
        )),
    }
}

/// A warning naming the metrics every version writes that this benchmark lacks.
fn warn_missing_metrics(f: &mut Fields<'_>, metrics: &Map<String, Value>) {
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
}

/// The request counts and where they are: `metrics.request_totals` since 0.4, a sibling of
/// `metrics` before.
fn read_requests(
    f: &mut Fields<'_>,
    m: &mut Fields<'_>,
    metrics: &Map<String, Value>,
    at: &Location,
) -> (RequestCounts, Location) {
    let (requests, totals_at) = if metrics.contains_key("request_totals") {
        (
            nested(m, "request_totals", read_totals),
            m.at.child("request_totals"),
        )
    } else {
        (
            nested(f, "request_totals", read_totals),
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
    (requests, totals_at)
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
    LoadPoint::new(LoadTarget::MaxThroughput)
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
