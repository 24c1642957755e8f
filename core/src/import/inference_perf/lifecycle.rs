//! `stage_N_lifecycle_metrics.json` and `summary_lifecycle_metrics.json`: `{benchmark_time_seconds
//! (0.5+), load_summary, successes, failures}` (see the parent module for the definitions).
//!
//! - `load_summary`: `count` (every request), `schedule_delay` (s), and in stage files
//!   `send_duration`, `requested_rate`, `achieved_rate` (requests sent per second over the send
//!   window: the load the generator really offered, kept as the achieved rate) and, for
//!   `load.type: concurrent` stages, `concurrency` (0.3+). A concurrent stage's
//!   `requested_rate` is its number of requests, not a rate: the concurrency is its load point.
//! - `successes`: `count`, `latency` (five distributions in s), `throughput`
//!   (`{input,output,total}_tokens_per_sec`, `requests_per_sec`, divided by the whole file's
//!   span), the lengths `prompt_len`/`output_len` (and, 0.6+, `prompt_tokens`/`output_tokens`
//!   with the server's `total`), `goodput_metrics.request_goodput` (req/s).
//! - `failures`: `count`, and since 0.6.1 `by_label` (`"503 - Service Unavailable": {count}`).
//!
//! A report written as YAML (`*_lifecycle_metrics.yaml`, the same keys) is parsed into the
//! same JSON value and read the same way.

use serde_json::{Map, Value};

use crate::import::fields::Fields;
use crate::import::json_objects::{distribution, nested, object, whole};
use crate::import::unread::{path, Unread};
use crate::import::{ImportedFile, NOT_A_RUN_OBJECT};
use crate::model::{
    Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer, Provenance,
    Rate, RequestCounts, Run, Throughput, TokenStats,
};
use crate::problem::Problem;

/// The warning of a run whose file names no model, until `config.yaml` gives it one.
pub(crate) const NO_MODEL: &str = "inference-perf's reports name no model";

/// The warning of the summary of every stage, read as one run.
pub(crate) const SUMMARY: &str = "the summary of every stage of the benchmark";

/// True for a lifecycle report: `load_summary` with a `count`, `successes` and `failures`.
pub(crate) fn is_lifecycle(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    let load = obj.get("load_summary").and_then(Value::as_object);
    load.is_some_and(|l| l.contains_key("count"))
        && obj.get("successes").is_some_and(Value::is_object)
        && obj.contains_key("failures")
        && !obj.contains_key("num_sessions")
}

/// The keys a lifecycle report's YAML starts with, in the report's order or sorted.
const FIRST_KEYS: [&str; 4] = [
    "benchmark_time_seconds:",
    "load_summary:",
    "failures:",
    "successes:",
];

/// True for a lifecycle report written as YAML: it starts with one of its keys, and has its
/// three keys at the top level. Any other text is told by its first line, unscanned.
pub(crate) fn is_lifecycle_yaml(text: &str) -> bool {
    let first = crate::yaml::first_content_line(text);
    if !FIRST_KEYS.iter().any(|k| first.starts_with(k)) {
        return false;
    }
    let top = |key: &str| text.lines().any(|l| l.starts_with(key));
    top("load_summary:") && top("successes:") && top("failures:")
}

/// Reads a lifecycle report written as YAML: parsed into a JSON value and read like the JSON.
pub(crate) fn read_lifecycle_yaml(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile::new(file, Some(Producer::InferencePerf));
    match crate::yaml::parse(text, crate::yaml::Schema::PyYaml) {
        Ok(value) if is_lifecycle(&value) => {
            read_lifecycle_document(&mut out, &value, Location::json(""))
        }
        Ok(_) => out.problems.push(Problem::error(
            file,
            Location::File,
            "YAML not recognised as an inference-perf lifecycle report; expected `load_summary` (with its `count`), `successes` (an object) and `failures`",
        )),
        Err(e) => out
            .problems
            .push(Problem::error(file, e.location, e.message)),
    }
    out
}

/// The load point of a stage, or none for the summary.
struct Load {
    point: LoadPoint,
    total: Option<u64>,
    stage: bool,
}

/// Reads one report into one run.
pub(crate) fn read_lifecycle_document(out: &mut ImportedFile, value: &Value, at: Location) {
    let Some(obj) = out.require(value.as_object(), &at, NOT_A_RUN_OBJECT) else {
        return;
    };
    let mut f = Fields::new(obj, &out.file, at.clone());
    let mut unread = Unread::default();
    unread.keys(
        obj,
        "",
        &[
            "load_summary",
            "successes",
            "failures",
            "benchmark_time_seconds",
        ],
    );
    let load = nested(&mut f, "load_summary", |l| read_load(l, &mut unread)).unwrap_or(Load {
        point: LoadPoint::new(LoadTarget::MaxThroughput),
        total: None,
        stage: false,
    });
    let success = nested(&mut f, "successes", |s| read_successes(s, &mut unread));
    let Some(mut run) = success else {
        f.error_at(
            "successes",
            "expected an object with the successful requests' `count`, `latency` and \
             `throughput`; the file is not read",
        );
        out.problems.append(&mut f.problems);
        return;
    };
    let failed = nested(&mut f, "failures", |x| read_failures(x, &mut unread)).flatten();
    run.provenance = Provenance::new(&out.file, at.clone(), Producer::InferencePerf);
    run.load = load.point;
    run.requests.total = load.total;
    run.requests.failed = failed;
    check_counts(&mut f, &run.requests);
    notes(&mut f, &run, load.stage);
    run.problems.append(&mut f.problems);
    run.problems
        .extend(unread.warning(&out.file, at, "inference-perf's report"));
    out.runs.push(run);
}

/// `load_summary`: the stage's load point and its number of requests.
fn read_load(l: &mut Fields<'_>, unread: &mut Unread) -> Load {
    unread.keys(
        l.obj,
        "load_summary",
        &["count", "requested_rate", "achieved_rate", "concurrency"],
    );
    let total = l.count("count");
    let achieved = l.non_negative("achieved_rate").filter(|r| *r > 0.0);
    let concurrency = l.number("concurrency");
    let requested = l.number("requested_rate");
    let target = match (concurrency, requested) {
        (Some(c), _) if c.is_finite() && c >= 1.0 => Some(LoadTarget::Concurrency(c)),
        (Some(c), _) => {
            l.error_at("concurrency", format!("expected at least 1, found {c}"));
            None
        }
        (None, Some(r)) if r.is_infinite() && r > 0.0 => {
            Some(LoadTarget::RequestRate(Rate::Infinite))
        }
        (None, Some(r)) if r > 0.0 => Some(LoadTarget::RequestRate(Rate::PerSecond(r))),
        (None, Some(r)) => {
            l.error_at(
                "requested_rate",
                format!("expected a positive rate, found {r}"),
            );
            None
        }
        (None, None) => None,
    };
    if let (Some(LoadTarget::RequestRate(Rate::PerSecond(r))), Some(a)) = (target, achieved) {
        if (a - r).abs() > 0.1 * r {
            l.warn_at(
                "achieved_rate",
                format!(
                    "the load generator sent {} req/s of the {} requested; the run is drawn at \
                     the requested rate, and keeps the achieved one",
                    crate::format::number(a),
                    crate::format::number(r)
                ),
            );
        }
    }
    Load {
        stage: target.is_some(),
        point: LoadPoint {
            achieved_rps: achieved,
            ..LoadPoint::new(target.unwrap_or(LoadTarget::MaxThroughput))
        },
        total,
    }
}

/// The latencies and what `successes` measured, in a run still without provenance and load.
fn read_successes(s: &mut Fields<'_>, unread: &mut Unread) -> Run {
    unread.keys(
        s.obj,
        "successes",
        &[
            "count",
            "latency",
            "throughput",
            "prompt_len",
            "output_len",
            "prompt_tokens",
            "output_tokens",
            "goodput_metrics",
        ],
    );
    let placeholder = Provenance::new(s.file, s.at.clone(), Producer::InferencePerf);
    let mut run = Run::new(
        placeholder,
        Default::default(),
        LoadPoint::new(LoadTarget::MaxThroughput),
    );
    run.requests = RequestCounts {
        succeeded: s.count("count"),
        ..RequestCounts::default()
    };
    run.latency = nested(s, "latency", |l| read_latency(l, unread)).unwrap_or_default();
    run.throughput = nested(s, "throughput", |t| read_throughput(t, unread)).unwrap_or_default();
    run.throughput.goodput_req_s = nested(s, "goodput_metrics", |g| {
        unread.keys(g.obj, "successes.goodput_metrics", &["request_goodput"]);
        g.non_negative("request_goodput")
    })
    .flatten();
    run.tokens = read_tokens(s, unread);
    run
}

/// The five latency distributions, seconds to ms.
fn read_latency(l: &mut Fields<'_>, unread: &mut Unread) -> Vec<LatencyMetric> {
    const METRICS: [(&str, Metric); 5] = [
        ("time_to_first_token", Metric::Ttft),
        ("time_per_output_token", Metric::Tpot),
        ("normalized_time_per_output_token", Metric::TpotInclFirst),
        ("inter_token_latency", Metric::Itl),
        ("request_latency", Metric::E2e),
    ];
    let names: Vec<&str> = METRICS.iter().map(|(k, _)| *k).collect();
    unread.keys(l.obj, "successes.latency", &names);
    let mut latency: Vec<LatencyMetric> = METRICS
        .iter()
        .filter_map(|(key, metric)| {
            distribution(l, key, 1000.0).map(|distribution| LatencyMetric {
                metric: *metric,
                distribution,
            })
        })
        .collect();
    latency.sort_by_key(|m| m.metric);
    latency
}

fn read_throughput(t: &mut Fields<'_>, unread: &mut Unread) -> Throughput {
    let keys = [
        "input_tokens_per_sec",
        "output_tokens_per_sec",
        "total_tokens_per_sec",
        "requests_per_sec",
    ];
    unread.keys(t.obj, "successes.throughput", &keys);
    Throughput {
        input_tok_s: t.non_negative(keys[0]),
        output_tok_s: t.non_negative(keys[1]),
        total_tok_s: t.non_negative(keys[2]),
        requests_per_s: t.non_negative(keys[3]),
        ..Throughput::default()
    }
}

/// Lengths from `prompt_len`/`output_len` (the client's token counts the latencies use), else
/// 0.6's `prompt_tokens`/`output_tokens`; totals from the latter's `total`.
fn read_tokens(s: &mut Fields<'_>, unread: &mut Unread) -> TokenStats {
    let mut tokens = TokenStats::default();
    for (length, counted, prefix) in [
        ("prompt_len", "prompt_tokens", "successes.prompt_tokens"),
        ("output_len", "output_tokens", "successes.output_tokens"),
    ] {
        let (d, total) = lengths(s, length, counted, prefix, unread);
        if length == "prompt_len" {
            (tokens.input_len, tokens.total_input) = (d, total);
        } else {
            (tokens.output_len, tokens.total_output) = (d, total);
        }
    }
    tokens
}

fn lengths(
    s: &mut Fields<'_>,
    length: &str,
    counted: &str,
    prefix: &str,
    unread: &mut Unread,
) -> (Option<Distribution>, Option<u64>) {
    let own = distribution(s, length, 1.0);
    let (server, total) = nested(s, counted, |c| {
        for key in ["cached", "uncached"] {
            if c.obj.get(key).is_some_and(|v| !v.is_null()) {
                unread.name(path(prefix, key));
            }
        }
        let total = c.non_negative("total").and_then(|v| whole(c, "total", v));
        (crate::import::json_objects::distribution_of(c, 1.0), total)
    })
    .unwrap_or((None, None));
    (own.or(server), total)
}

/// `failures`: the count; the latency and lengths of failed requests are not modelled, and the
/// kinds of failure (`by_label`) are named in a warning.
fn read_failures(x: &mut Fields<'_>, unread: &mut Unread) -> Option<u64> {
    unread.keys(x.obj, "failures", &["count", "by_label"]);
    let failed = x.count("count");
    if let Some(labels) = object(x, "by_label") {
        let kinds: Vec<String> = labels
            .iter()
            .map(|(label, v)| {
                let n = v.get("count").and_then(Value::as_u64);
                n.map_or_else(|| format!("`{label}`"), |n| format!("`{label}` ({n})"))
            })
            .collect();
        if !kinds.is_empty() {
            x.warn_at(
                "by_label",
                format!("failed requests by kind: {}", kinds.join(", ")),
            );
        }
    }
    failed
}

/// `load_summary.count` is every request: a warning when it is not successes + failures.
fn check_counts(f: &mut Fields<'_>, r: &RequestCounts) {
    if let (Some(t), Some(s), Some(x)) = (r.total, r.succeeded, r.failed) {
        if s.checked_add(x) != Some(t) {
            f.warn_at(
                "load_summary.count",
                format!("{t} requests, but {s} succeeded and {x} failed; the counts are kept"),
            );
        }
    }
}

/// The warnings every report gets: no model; the summary's missing load point; chunks counted
/// as tokens before 0.5; a stage where nothing succeeded.
fn notes(f: &mut Fields<'_>, run: &Run, stage: bool) {
    let at = f.at.clone();
    let file = f.file;
    let mut warn = |place: Location, message: String| {
        f.problems.push(Problem::warning(file, place, message));
    };
    warn(
        at.clone(),
        format!(
            "{NO_MODEL}: it is `server.model_name` in the `config.yaml` beside them, which is not \
             here; the run has no model"
        ),
    );
    if !stage {
        warn(
            at.child("load_summary"),
            format!(
                "{SUMMARY} (no `requested_rate` or `concurrency`): read as one run without a \
                 load point; each `stage_N_lifecycle_metrics.json` is a load point"
            ),
        );
    }
    let per_token = run.latency(Metric::Tpot).is_some() || run.latency(Metric::Itl).is_some();
    if per_token && !has(f.obj, "benchmark_time_seconds") {
        warn(
            at.child("successes.latency"),
            "no `benchmark_time_seconds`: written by inference-perf before 0.5, which timed each \
             streamed chunk (before 0.3 each line of the response) rather than each token, so \
             its TPOT and ITL count chunks, not tokens"
                .to_string(),
        );
    }
    if run.requests.succeeded == Some(0) {
        warn(
            at.child("successes.count"),
            "no request succeeded; the run is shown as failed".to_string(),
        );
    }
}

fn has(obj: &Map<String, Value>, key: &str) -> bool {
    obj.get(key).is_some_and(|v| !v.is_null())
}
