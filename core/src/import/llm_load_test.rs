//! openshift-psap/llm-load-test's `output.json`: `{"results": [...], "config": {...}}`, every
//! request of one load test and no summary, read as **one run** with per-request samples.
//!
//! A result is `{start, end, TTFT, TPOT, response_time, output_tokens, input_tokens, worker_id,
//! TT_ack, input_string, response_string}`, with `error_code` and `error_text` on a failed
//! request. Units differ by key: `TTFT`, `TPOT` and `TT_ack` in **milliseconds**,
//! `response_time` in **seconds**, `start` and `end` wall-clock seconds. `TPOT` excludes the
//! first token ([`Metric::Tpot`]); `response_time` is the end-to-end latency.
//!
//! The configuration: `load_options` (`type: constant` with `concurrency`, the load point;
//! `duration` in seconds), `dataset.file` (the dataset), `plugin_options.model_name` where the
//! plugin names the model, `extra_metadata` as settings. The run's statistics are computed from
//! its successful requests (linear percentiles), its output throughput from their tokens over
//! the span from the first start to the last end.
//!
//! Pitfalls handled here: the prompt and answer texts are not read (nor kept); a request with an
//! error is failed and the errors are counted by kind in a warning; a request whose `TTFT` is
//! missing or is no number is an error at its index, never a zero.

use std::collections::BTreeMap;

use serde_json::Value;

use super::aiperf_records::{span_s, summary_of};
use super::fields::Fields;
use super::unread::Unread;
use super::ImportedFile;
use crate::model::{
    ConfigIdentity, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer, Provenance,
    RequestCounts, RequestSamples, Run, Throughput,
};
use crate::number::describe_json;
use crate::problem::Problem;

/// The keys of one result that are read (the texts are skipped on purpose).
const RESULT_KEYS: [&str; 13] = [
    "start",
    "end",
    "TTFT",
    "TPOT",
    "TT_ack",
    "response_time",
    "output_tokens",
    "input_tokens",
    "worker_id",
    "input_string",
    "response_string",
    "error_code",
    "error_text",
];

/// True for an llm-load-test output: `results` whose entries have `TTFT` and `response_time`,
/// and a `config` with `load_options`.
pub(super) fn is_output(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    let load = obj
        .get("config")
        .and_then(|c| c.get("load_options"))
        .is_some_and(Value::is_object);
    let requests = obj
        .get("results")
        .and_then(Value::as_array)
        .is_some_and(|r| {
            r.iter().any(|x| {
                x.as_object()
                    .is_some_and(|x| x.contains_key("TTFT") && x.contains_key("response_time"))
            })
        });
    load && requests
}

/// One request as read.
struct Request {
    ok: bool,
    ttft_ms: f64,
    tpot_ms: f64,
    e2e_ms: f64,
    input: f64,
    output: f64,
    start_s: f64,
    end_s: f64,
}

/// Reads the output into one run.
pub(super) fn read_document(out: &mut ImportedFile, value: &Value, at: Location) {
    let Some(obj) = value.as_object() else {
        return;
    };
    let mut f = Fields::new(obj, &out.file, at.clone());
    let (config, load) = configuration(&mut f);
    out.problems.append(&mut f.problems);
    let Some(Value::Array(results)) = obj.get("results") else {
        return;
    };
    let mut requests = Vec::new();
    let mut errors: BTreeMap<String, usize> = BTreeMap::new();
    let mut unread = Unread::default();
    for (i, item) in results.iter().enumerate() {
        let here = at.child("results").child(&format!("[{i}]"));
        let Some(result) = item.as_object() else {
            out.problems.push(Problem::error(
                &out.file,
                here,
                format!(
                    "expected an object for one request, found {}",
                    describe_json(item)
                ),
            ));
            continue;
        };
        unread.keys(result, "results[]", &RESULT_KEYS);
        let mut r = Fields::new(result, &out.file, here);
        if let Some(request) = read_request(&mut r, &mut errors) {
            requests.push(request);
        }
        out.problems.append(&mut r.problems);
    }
    if requests.is_empty() {
        out.problems.push(Problem::error(
            &out.file,
            at.child("results"),
            "no request could be read; expected objects with `TTFT` (ms) and `response_time` (s)",
        ));
        return;
    }
    let mut run = run_of(&out.file, at.clone(), config, load, &requests);
    if !errors.is_empty() {
        let listed: Vec<String> = errors.iter().map(|(k, n)| format!("{k} ({n})")).collect();
        run.problems.push(Problem::warning(
            &out.file,
            at.child("results"),
            format!("failed requests by kind: {}", listed.join(", ")),
        ));
    }
    run.problems
        .extend(unread.warning(&out.file, at, "llm-load-test's output"));
    out.runs.push(run);
}

/// The configuration and the load point from `config`.
fn configuration(f: &mut Fields<'_>) -> (ConfigIdentity, LoadPoint) {
    let config = f.obj.get("config").and_then(Value::as_object);
    // The value at `path` under `config`.
    let get = |path: &[&str]| -> Option<&Value> {
        let (last, init) = path.split_last()?;
        let mut o = config?;
        for k in init {
            o = o.get(*k)?.as_object()?;
        }
        o.get(*last)
    };
    let mut identity = ConfigIdentity {
        model: get(&["plugin_options", "model_name"])
            .and_then(Value::as_str)
            .map(String::from),
        dataset: get(&["dataset", "file"])
            .and_then(Value::as_str)
            .map(|file| file.rsplit('/').next().unwrap_or(file).to_string()),
        ..ConfigIdentity::default()
    };
    if let Some(Value::Object(extra)) = get(&["extra_metadata"]) {
        for (k, v) in extra {
            let text = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => continue,
            };
            identity.settings.insert(k.clone(), text);
        }
    }
    let concurrency = get(&["load_options", "concurrency"]).and_then(Value::as_f64);
    let load = match concurrency {
        Some(c) if c >= 1.0 => LoadPoint::new(LoadTarget::Concurrency(c)),
        _ => {
            f.warn_at(
                "config",
                "no `load_options.concurrency` of at least 1: the run is placed at maximum \
                 throughput",
            );
            LoadPoint::new(LoadTarget::MaxThroughput)
        }
    };
    (identity, load)
}

/// One request; `None` (with an error at its index) when its TTFT is missing on a request
/// without an error.
fn read_request(r: &mut Fields<'_>, errors: &mut BTreeMap<String, usize>) -> Option<Request> {
    let parts: Vec<String> = ["error_code", "error_text"]
        .iter()
        .filter_map(|k| match r.obj.get(*k) {
            Some(Value::Null) | None => None,
            Some(Value::String(s)) if s.is_empty() => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => Some(other.to_string()),
        })
        .collect();
    let error = (!parts.is_empty()).then(|| parts.join(" "));
    if let Some(kind) = &error {
        *errors.entry(kind.clone()).or_default() += 1;
    }
    let ttft_ms = r.non_negative("TTFT");
    if error.is_none() && ttft_ms.is_none() {
        r.error_at(
            "TTFT",
            "expected the time to first token in ms; this request is skipped",
        );
        return None;
    }
    Some(Request {
        ok: error.is_none(),
        ttft_ms: ttft_ms.unwrap_or(f64::NAN),
        tpot_ms: r.non_negative("TPOT").unwrap_or(f64::NAN),
        e2e_ms: r
            .non_negative("response_time")
            .map_or(f64::NAN, |s| s * 1000.0),
        input: r.non_negative("input_tokens").unwrap_or(f64::NAN),
        output: r.non_negative("output_tokens").unwrap_or(f64::NAN),
        start_s: r.number("start").unwrap_or(f64::NAN),
        end_s: r.number("end").unwrap_or(f64::NAN),
    })
}

/// The run of `requests`: samples in start order, statistics over the successful ones, output
/// throughput over the span of the test.
fn run_of(
    file: &str,
    at: Location,
    config: ConfigIdentity,
    load: LoadPoint,
    requests: &[Request],
) -> Run {
    let mut samples = RequestSamples::default();
    for q in requests {
        samples.push(q.ok, q.ttft_ms, q.e2e_ms, q.tpot_ms, q.input, q.output);
    }
    samples.set_starts(&requests.iter().map(|q| q.start_s).collect::<Vec<_>>());
    let ok: Vec<&Request> = requests.iter().filter(|q| q.ok).collect();
    let values = |get: fn(&Request) -> f64| ok.iter().map(|q| get(q)).collect::<Vec<f64>>();
    let mut latency = Vec::new();
    for (metric, get) in [
        (
            Metric::Ttft,
            (|q: &Request| q.ttft_ms) as fn(&Request) -> f64,
        ),
        (Metric::Tpot, |q| q.tpot_ms),
        (Metric::E2e, |q| q.e2e_ms),
    ] {
        if let Some(distribution) = summary_of(&values(get)) {
            latency.push(LatencyMetric {
                metric,
                distribution,
            });
        }
    }
    let span = span_s(
        requests.iter().map(|q| q.start_s),
        requests.iter().map(|q| q.end_s),
    );
    let output: f64 = values(|q| q.output).iter().filter(|v| v.is_finite()).sum();
    let throughput = Throughput {
        output_tok_s: (span > 0.0).then(|| output / span),
        requests_per_s: (span > 0.0).then(|| ok.len() as f64 / span),
        ..Throughput::default()
    };
    let provenance = Provenance::new(file, at, Producer::LlmLoadTest);
    let mut run = Run::new(provenance, config, load).measured(
        RequestCounts::counted(requests.len() as u64, ok.len() as u64),
        latency,
        throughput,
        crate::model::TokenStats {
            input_len: summary_of(&values(|q| q.input)),
            output_len: summary_of(&values(|q| q.output)),
            ..Default::default()
        },
    );
    run.samples = Some(std::sync::Arc::new(samples));
    run
}

#[cfg(test)]
mod tests;
