//! `vllm bench serve` / `benchmark_serving.py --save-result` JSON, one object per run
//! (`--append-result` puts several on separate lines).
//!
//! Latencies are `{mean,median,std,p<P>}_{ttft,tpot,itl,e2el}_ms` in milliseconds; per-request
//! arrays are in seconds. Look-alikes whose keys drop the `_ms` (`look_alike.rs`) are read in
//! the unit their values say, with a warning. `--metadata k=v` pairs sit at the top level as strings: `framework`,
//! `engine`, `label`, `hardware` and `dataset` among them name the configuration, and the keys
//! research forks add (`tp`, `quant-type`, `env`…: `settings::METADATA_SETTINGS`) become its
//! settings, so two tensor-parallel sizes are two configurations.
//!
//! `vllm/`: the latency keys split into statistic and metric (`keys.rs`), the per-request lists
//! read aside (`lists.rs`), a run's settings from its keys and its `vllm bench sweep` folder
//! (`settings.rs`), and the sweep's `summary.json` of results (`sweep.rs`, read with this
//! reader).

mod keys;
pub(super) mod lists;
mod look_alike;
mod settings;
pub(super) mod sweep;

use serde_json::Value;

use super::document::Aside;
use super::fields::{latency_entry, set_stat, Fields};
use super::{ImportedFile, NOT_A_RUN_OBJECT};
use crate::model::{
    ConfigIdentity, EngineMetrics, LatencyMetric, LoadPoint, LoadTarget, Location, Metric,
    Producer, Provenance, Rate, RequestCounts, RequestSamples, Run, Throughput, TokenStats,
    Workload,
};
use crate::problem::Problem;
use keys::{bare_latency_key, latency_key};
use lists::PerRequest;

pub(super) use keys::is_stat;

/// True for a `vllm bench serve` result object.
pub(super) fn is_serve_result(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    let latency = obj.keys().any(|k| latency_key(k).is_some());
    // Early-2025 `--save-result` files hold the latency statistics alone (no `completed`).
    let serve = obj.contains_key("date")
        && obj.contains_key("backend")
        && (latency || (obj.contains_key("completed") && obj.contains_key("model_id")));
    serve || look_alike::is_look_alike(obj)
}

/// The keys a full result has and a latency-only one (no `completed`) may lack.
const COUNT_AND_THROUGHPUT_KEYS: [&str; 5] = [
    "completed",
    "duration",
    "request_throughput",
    "output_throughput",
    "total_token_throughput",
];

/// Reads one result object into the file's runs (or its problems).
pub(super) fn read_serve_document(out: &mut ImportedFile, value: &Value, at: Location) {
    read_serve_with(out, value, PerRequest::default(), at);
}

/// Reads one result object whose per-request lists the parser read aside.
pub(super) fn read_serve_aside(out: &mut ImportedFile, value: &Value, aside: &Aside, at: Location) {
    read_serve_with(out, value, PerRequest::aside(&aside.serve), at);
}

/// True when the only lists read aside are a result's own (at its top level).
pub(super) fn reads_aside(aside: &Aside) -> bool {
    aside.requests.is_empty()
}

fn read_serve_with(out: &mut ImportedFile, value: &Value, lists: PerRequest<'_>, at: Location) {
    match read_result(&out.file, value, lists, at) {
        Ok(run) => out.runs.push(run),
        Err(problem) => out.problems.push(problem),
    }
}

/// The latency statistics of `f`'s object, one distribution per metric in metric order: every
/// key that `latency_key` splits into a statistic and a metric, in milliseconds. A value that
/// is not a finite number is an error at its key. SGLang's keys name the metrics otherwise, so
/// it brings its own `latency_key`.
pub(super) fn read_latency(
    f: &mut Fields<'_>,
    latency_key: fn(&str) -> Option<(&str, Metric)>,
) -> Vec<LatencyMetric> {
    let obj = f.obj;
    let mut latency = Vec::new();
    for key in obj.keys() {
        let Some((stat, metric)) = latency_key(key) else {
            continue;
        };
        let Some(value) = f.number(key) else { continue };
        if !(value.is_finite() && value >= 0.0) {
            f.error_at(
                key,
                format!("expected a finite latency of at least 0 ms, found {value}"),
            );
            continue;
        }
        if !set_stat(latency_entry(&mut latency, metric), stat, value + 0.0) {
            f.warn_at(
                key,
                format!(
                    "`{stat}` is no statistic benchdeck reads (mean, median, std, min, max, or \
                     pN with N from 0 to 100); not read"
                ),
            );
        }
    }
    latency.sort_by_key(|m| m.metric);
    latency
}

/// Speculative decoding's acceptance as `vllm bench serve` reports it (vllm#31739): from the
/// counts of draft tokens proposed and accepted and of drafts where the file has them, else
/// from `spec_decode_acceptance_rate` (in percent) and `spec_decode_acceptance_length`.
fn read_spec_decode(f: &mut Fields<'_>) -> Option<EngineMetrics> {
    let drafts = f.non_negative("spec_decode_num_drafts");
    let proposed = f.non_negative("spec_decode_draft_tokens");
    let accepted = f.non_negative("spec_decode_accepted_tokens");
    let rate = f.non_negative("spec_decode_acceptance_rate");
    let length = f.non_negative("spec_decode_acceptance_length");
    if rate.is_some_and(|r| r > 100.0) {
        f.warn_at(
            "spec_decode_acceptance_rate",
            "expected a percentage of at most 100; not read",
        );
    }
    let counted = match (accepted, proposed) {
        (Some(a), Some(p)) if p > 0.0 => Some(100.0 * a / p),
        _ => None,
    };
    let by_drafts = match (accepted, drafts) {
        (Some(a), Some(d)) if d > 0.0 => Some(1.0 + a / d),
        _ => None,
    };
    let metrics = EngineMetrics {
        sources: vec![f.file.to_string()],
        spec_acceptance_pct: counted.or(rate.filter(|r| *r <= 100.0)),
        spec_acceptance_length: by_drafts.or(length),
        ..EngineMetrics::default()
    };
    (!metrics.is_empty()).then_some(metrics)
}

/// One result object as a run; also the reader of console result blocks ([`super::console`]),
/// which turns each block into the keys this object has.
pub(super) fn read_serve_object(file: &str, value: &Value, at: Location) -> Result<Run, Problem> {
    read_result(file, value, PerRequest::default(), at)
}

/// One result object as a run, its per-request lists read from `lists`.
fn read_result(
    file: &str,
    value: &Value,
    lists: PerRequest<'_>,
    at: Location,
) -> Result<Run, Problem> {
    let obj = value
        .as_object()
        .ok_or_else(|| Problem::error(file, at.clone(), NOT_A_RUN_OBJECT))?;
    let mut f = Fields::new(obj, file, at.clone());
    if !obj.contains_key("completed") {
        let absent: Vec<&str> = COUNT_AND_THROUGHPUT_KEYS
            .into_iter()
            .filter(|k| !obj.contains_key(*k))
            .collect();
        f.problems.push(Problem::warning(
            file,
            at.clone(),
            format!(
                "no `{}` in this result (early `--save-result` files hold latency statistics \
                 only): the run has its latencies, without request counts or throughput",
                absent.join("`, `"),
            ),
        ));
    }

    let config = ConfigIdentity {
        model: f.string("model_id"),
        engine: f
            .string("framework")
            .or_else(|| f.string("engine"))
            .or_else(|| f.string("backend")),
        label: f.string("label"),
        hardware: f.string("hardware").or_else(|| f.string("gpu")),
        dataset: f.string("dataset").or_else(|| f.string("dataset_name")),
        settings: settings::settings(file, obj, &at, &mut f.problems),
    };

    let load = read_load(&mut f);
    let requests = read_counts(&mut f, lists);
    if requests.succeeded == Some(0) {
        f.warn_at(
            "completed",
            "no request completed; the run is shown as failed, its zero latencies are ignored",
        );
    }

    let latency = if look_alike::is_look_alike(obj) {
        let (to_ms, why) = look_alike::unit(obj);
        f.problems.push(Problem::warning(file, at.clone(), why));
        read_latency(&mut f, bare_latency_key)
            .into_iter()
            .map(|m| LatencyMetric {
                distribution: m.distribution.scaled(to_ms),
                ..m
            })
            .collect()
    } else {
        read_latency(&mut f, latency_key)
    };

    let goodput_key = if f.has("request_goodput") {
        "request_goodput"
    } else {
        "request_goodput:"
    };
    let throughput = Throughput {
        output_tok_s: f.non_negative("output_throughput"),
        total_tok_s: f.non_negative("total_token_throughput"),
        input_tok_s: f.non_negative("input_throughput"),
        requests_per_s: f.non_negative("request_throughput"),
        goodput_req_s: f.non_negative(goodput_key),
        output_tok_s_per_user: None,
    };
    let tokens = read_token_totals(&mut f);
    let samples = read_samples_from(&mut f, lists);
    let load = LoadPoint {
        achieved_rps: throughput.requests_per_s,
        ..load
    };

    let workload = read_workload(&mut f, file);
    let engine = read_spec_decode(&mut f);
    let date = f.date("date");
    let provenance = Provenance {
        date,
        ..Provenance::new(file, at, Producer::VllmServe)
    };
    Ok(Run {
        samples: samples.map(std::sync::Arc::new),
        metadata: settings::metadata(obj),
        workload,
        engine: engine.map(Box::new),
        problems: f.problems,
        ..Run::new(provenance, config, load).measured(requests, latency, throughput, tokens)
    })
}

/// What the run sent beyond the dataset: the requested lengths (`--metadata` keys, or the
/// sweep folder's `BENCH--random_input_len=…`), the arrivals' burstiness (1 is Poisson; a bare
/// `Infinity` is read as infinitely regular arrivals, left unstated here) and the tokenizer.
fn read_workload(f: &mut Fields<'_>, file: &str) -> Workload {
    let bench = settings::bench_settings(file);
    let length = |f: &mut Fields<'_>, keys: [&str; 2]| {
        keys.iter().find_map(|k| f.count(k)).or_else(|| {
            keys.iter()
                .find_map(|k| bench.get(*k).and_then(|v| v.parse().ok()))
        })
    };
    Workload {
        input_len: length(f, ["random_input_len", "input_len"]),
        output_len: length(f, ["random_output_len", "output_len"]),
        burstiness: f.number("burstiness").filter(|b| b.is_finite()),
        tokenizer: f.string("tokenizer_id"),
        engine_version: f.string("vllm_version"),
        limits: Vec::new(),
    }
}

/// `total_input_tokens` and `total_output_tokens`, which SGLang writes under vLLM's names.
pub(super) fn read_token_totals(f: &mut Fields<'_>) -> TokenStats {
    TokenStats {
        total_input: f.count("total_input_tokens"),
        total_output: f.count("total_output_tokens"),
        input_len: None,
        output_len: None,
    }
}

/// `request_rate` is a number or `"inf"`; with an infinite rate and a `max_concurrency` the run
/// was driven by concurrency.
pub(super) fn read_load(f: &mut Fields<'_>) -> LoadPoint {
    let rate = f.number("request_rate");
    let max_concurrency = f
        .count("max_concurrency")
        .and_then(|c| u32::try_from(c).ok());
    if max_concurrency == Some(0) {
        f.error_at(
            "max_concurrency",
            "expected a concurrency of at least 1, found 0",
        );
    }
    let max_concurrency = max_concurrency.filter(|&c| c > 0);
    let target = match (rate, max_concurrency) {
        (Some(r), Some(c)) if r.is_infinite() => LoadTarget::Concurrency(f64::from(c)),
        (Some(r), _) if r.is_infinite() => LoadTarget::RequestRate(Rate::Infinite),
        (Some(r), _) if r > 0.0 => LoadTarget::RequestRate(Rate::PerSecond(r)),
        (_, Some(c)) => LoadTarget::Concurrency(f64::from(c)),
        (Some(r), None) => {
            f.error_at(
                "request_rate",
                format!("expected a positive request rate or \"inf\", found {r}"),
            );
            LoadTarget::RequestRate(Rate::Infinite)
        }
        (None, None) => {
            f.error_at(
                "request_rate",
                "missing; expected a request rate (a number or \"inf\") or `max_concurrency`",
            );
            LoadTarget::RequestRate(Rate::Infinite)
        }
    };
    let cap = match target {
        LoadTarget::RequestRate(_) => max_concurrency,
        _ => None,
    };
    LoadPoint {
        target,
        max_concurrency: cap,
        achieved_rps: None,
        achieved_concurrency: None,
    }
}

/// `completed` succeeded; `failed` is missing in older builds, where it is `num_prompts −
/// completed` or the number of non-empty `errors`.
fn read_counts(f: &mut Fields<'_>, lists: PerRequest<'_>) -> RequestCounts {
    let total = f.count("num_prompts");
    let succeeded = f.count("completed");
    let failed = f.count("failed").or_else(|| {
        if let Some(failed) = lists.failed(f.obj) {
            return Some(failed.iter().filter(|failed| **failed).count() as u64);
        }
        total?.checked_sub(succeeded?)
    });
    if let (Some(t), Some(s)) = (total, succeeded) {
        if s > t {
            f.warn_at(
                "completed",
                format!("{s} requests completed but only {t} were sent (`num_prompts`)"),
            );
        }
    }
    RequestCounts {
        total,
        succeeded,
        failed,
        incomplete: None,
    }
}

/// Which requests succeeded when the file has no `errors` list: all of them when it counts no
/// failure. When it counts some (`failed: 91`), vLLM wrote each failed request's TTFT as 0, as
/// its output holds by default: those are the failures. When the zeros are not as many as the
/// failures, the file cannot say which requests failed: a warning says so and the zeros are
/// taken for failures all the same, never as first tokens in no time.
fn failed_by_their_zeros(f: &mut Fields<'_>, ttft_ms: &[f64]) -> Vec<bool> {
    let failed = f
        .obj
        .get("failed")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or(0);
    if failed == 0 {
        return vec![true; ttft_ms.len()];
    }
    let ok: Vec<bool> = ttft_ms.iter().map(|t| *t != 0.0).collect();
    let zeros = ok.iter().filter(|ok| !**ok).count() as u64;
    if zeros != failed {
        f.warn_at(
            "failed",
            format!(
                "counts {failed} failed requests but `ttfts` has {zeros} zeros and there is no \
                 `errors` list to say which requests failed; the zeros are taken as the \
                 failures"
            ),
        );
    }
    ok
}

/// Per-request arrays (seconds), index-aligned; failed requests have an error text. `start_times`
/// are clock readings (`time.perf_counter()`), kept as seconds after the first request.
pub(super) fn read_samples(f: &mut Fields<'_>) -> Option<RequestSamples> {
    read_samples_from(f, PerRequest::default())
}

/// [`read_samples`], the lists read from `lists`.
fn read_samples_from(f: &mut Fields<'_>, lists: PerRequest<'_>) -> Option<RequestSamples> {
    let ttft_ms = lists.numbers(f, "ttfts", 1000.0)?;
    let n = ttft_ms.len();
    let ok: Vec<bool> = match lists.failed(f.obj) {
        Some(failed) if failed.len() == n => failed.iter().map(|failed| !failed).collect(),
        Some(errors) => {
            f.error_at(
                "errors",
                format!(
                    "has {} entries but `ttfts` has {n}; expected one per request",
                    errors.len()
                ),
            );
            vec![true; n]
        }
        _ => failed_by_their_zeros(f, &ttft_ms),
    };
    let mut aligned = |key: &str, scale: f64| -> Vec<f64> {
        match lists.numbers(f, key, scale) {
            Some(v) if v.len() == n => v,
            Some(v) => {
                f.error_at(
                    key,
                    format!(
                        "has {} entries but `ttfts` has {n}; expected one per request",
                        v.len()
                    ),
                );
                Vec::new()
            }
            None => Vec::new(),
        }
    };
    let e2e_ms = aligned("latencies", 1000.0);
    let input_tokens = aligned("input_lens", 1.0);
    let output_tokens = aligned("output_lens", 1.0);
    let start_clock = aligned("start_times", 1.0);
    let tpot_ms = if e2e_ms.is_empty() || output_tokens.is_empty() {
        Vec::new()
    } else {
        (0..n)
            .map(|i| {
                let out = output_tokens[i];
                if ok[i] && out > 1.0 {
                    (e2e_ms[i] - ttft_ms[i]) / (out - 1.0)
                } else {
                    f64::NAN
                }
            })
            .collect()
    };
    let mut samples = RequestSamples {
        ok,
        ttft_ms,
        e2e_ms,
        tpot_ms,
        input_tokens,
        output_tokens,
        start_s: Vec::new(),
        sorted: Default::default(),
        ordered: Default::default(),
        // vLLM's and SGLang's lists follow the prompts in the order they were sent.
        sent_in_file_order: true,
    };
    samples.set_starts(&start_clock);
    Some(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_keys() {
        assert_eq!(latency_key("mean_ttft_ms"), Some(("mean", Metric::Ttft)));
        assert_eq!(latency_key("p99.9_itl_ms"), Some(("p99.9", Metric::Itl)));
        assert_eq!(latency_key("median_e2el_ms"), Some(("median", Metric::E2e)));
        assert_eq!(latency_key("max_output_tokens_per_s"), None);
        assert_eq!(latency_key("p_ttft_ms"), None);
        assert_eq!(latency_key("mean_foo_ms"), None);
        assert_eq!(latency_key("max_itl_ms"), Some(("max", Metric::Itl)));
    }

    #[test]
    fn start_times_become_seconds_after_the_first_and_a_misaligned_list_is_an_error() {
        let result = |starts: &str| {
            format!(
                r#"{{"date": "20250301-101010", "backend": "vllm", "model_id": "m",
                "request_rate": 4.0, "completed": 3, "duration": 2.0, "ttfts": [0.1, 0.1, 0.1],
                "latencies": [1.0, 1.0, 1.0], "start_times": {starts}}}"#
            )
        };
        let f = crate::import::import("r.json", result("[5001.5, 5000.25, 5002.0]").as_bytes());
        let s = f.runs[0].samples.as_ref().unwrap();
        assert_eq!(
            s.start_s,
            vec![1.25, 0.0, 1.75],
            "unsorted times kept in request order"
        );
        let f = crate::import::import("r.json", result("[5000.0, 5001.0]").as_bytes());
        let problems: Vec<String> = f.all_problems().map(ToString::to_string).collect();
        assert!(
            problems.iter().any(|p| p.contains("start_times") && p.contains("has 2 entries but `ttfts` has 3")),
            "{problems:?}"
        );
        assert!(f.runs[0].samples.as_ref().unwrap().start_s.is_empty());
    }

    #[test]
    fn failures_counted_without_an_errors_list_are_the_zero_ttfts() {
        // `failed: 2` and no `errors`: vLLM left each failed request's TTFT at 0. They were read
        // as successes with first tokens in no time.
        let result = |failed: u32| {
            format!(
                r#"{{"date": "20250301-101010", "backend": "vllm", "model_id": "m",
                "request_rate": 4.0, "num_prompts": 5,
                "completed": 3, "failed": {failed}, "duration": 2.0,
                "ttfts": [0.1, 0.0, 0.2, 0.0, 0.3], "latencies": [1.0, 0.0, 1.0, 0.0, 1.0]}}"#
            )
        };
        let f = crate::import::import("r.json", result(2).as_bytes());
        let s = f.runs[0].samples.as_ref().unwrap();
        assert_eq!(s.ok, vec![true, false, true, false, true]);
        assert_eq!(s.sorted(Metric::Ttft).unwrap(), &[100.0, 200.0, 300.0]);
        assert_eq!(f.all_problems().count(), 0);
        // Zeros that are not as many as the failures: said, and still no zero-time first token.
        let f = crate::import::import("r.json", result(1).as_bytes());
        let problems: Vec<String> = f.all_problems().map(ToString::to_string).collect();
        assert!(
            problems.iter().any(|p| p.contains("r.json#failed")
                && p.contains("counts 1 failed requests but `ttfts` has 2 zeros")),
            "{problems:?}"
        );
        assert_eq!(
            f.runs[0]
                .samples
                .as_ref()
                .unwrap()
                .sorted(Metric::Ttft)
                .unwrap()
                .len(),
            3
        );
    }

    #[test]
    fn infinite_ttfts_are_kept_and_said() {
        let text = r#"{"date": "20250301-101010", "backend": "vllm", "model_id": "m",
            "request_rate": 4.0, "completed": 3,
            "duration": 2.0, "ttfts": [0.1, Infinity, 0.2], "latencies": [1.0, 2.0, 1.0]}"#;
        let f = crate::import::import("r.json", text.as_bytes());
        let s = f.runs[0].samples.as_ref().unwrap();
        assert_eq!(
            s.sorted(Metric::Ttft).unwrap(),
            &[100.0, 200.0, f64::INFINITY]
        );
        let problems: Vec<String> = f.all_problems().map(ToString::to_string).collect();
        assert!(
            problems
                .iter()
                .any(|p| p.contains("1 of 3 successful requests have an infinite TTFT")),
            "{problems:?}"
        );
    }

    #[test]
    fn the_date_is_read_and_an_unreadable_one_is_a_warning_naming_it() {
        let result = |date: &str| {
            format!(
                r#"{{"date": "{date}", "backend": "vllm", "model_id": "m", "request_rate": 4.0,
                "completed": 3, "mean_ttft_ms": 41.5}}"#
            )
        };
        let f = crate::import::import("r.json", result("20250301-101010").as_bytes());
        let date = f.runs[0].provenance.date.as_ref().map(|d| d.as_str());
        assert_eq!(date, Some("2025-03-01T10:10:10"));
        let f = crate::import::import("nightly/2026-11-02/r.json", result("yesterday").as_bytes());
        assert_eq!(
            f.runs[0].provenance.date, None,
            "the path is for import_all"
        );
        let problems: Vec<String> = f.all_problems().map(ToString::to_string).collect();
        assert!(
            problems.iter().any(|p| p.contains("r.json#date")
                && p.contains("expected a date")
                && p.contains("found the string \"yesterday\"")),
            "{problems:?}"
        );
        let files = [crate::input::InputFile {
            path: "nightly/2026-11-02/r.json".into(),
            bytes: result("yesterday").into_bytes(),
        }];
        let f = &crate::import::import_all(&files)[0];
        let date = f.runs[0].provenance.date.as_ref().map(|d| d.as_str());
        assert_eq!(date, Some("2026-11-02T00:00:00"), "else the path's date");
    }

    #[test]
    fn impossible_values_are_errors_at_their_keys_and_unknown_statistics_warnings() {
        let text = r#"{"date": "20251020-101500", "backend": "vllm", "model_id": "m",
            "num_prompts": 4, "completed": 4, "max_concurrency": 0, "request_throughput": -1,
            "mean_ttft_ms": -5, "median_ttft_ms": -0.0, "p150_ttft_ms": 9, "p-0_ttft_ms": 1,
            "ttfts": [0.2, -0.17, 0.26, 0.1], "latencies": [1.3, 1.2, 1.4, 1.1]}"#;
        let f = crate::import::import("r.json", text.as_bytes());
        let problems: Vec<String> = f.all_problems().map(ToString::to_string).collect();
        for expected in [
            "r.json#max_concurrency: error: expected a concurrency of at least 1, found 0",
            "r.json#request_throughput: error: expected a number of at least 0, found -1",
            "r.json#mean_ttft_ms: error: expected a finite latency of at least 0 ms, found -5",
            "r.json#ttfts[1]: error: expected a number of at least 0, found -0.17",
            "r.json#p150_ttft_ms: warning: `p150` is no statistic benchdeck reads",
            "r.json#p-0_ttft_ms: warning: `p-0` is no statistic benchdeck reads",
        ] {
            assert!(
                problems.iter().any(|p| p.starts_with(expected)),
                "{expected}: {problems:?}"
            );
        }
        let run = &f.runs[0];
        let median = run.latency_stat(Metric::Ttft, crate::model::Stat::Median);
        assert!(median == Some(0.0) && median.unwrap().is_sign_positive());
        assert_eq!(
            run.samples
                .as_ref()
                .unwrap()
                .ttft_ms
                .iter()
                .filter(|v| v.is_nan())
                .count(),
            1
        );
    }

    #[test]
    fn a_latency_only_result_is_read_and_says_what_it_lacks() {
        let text = r#"{"date": "20250301-101010", "backend": "vllm", "model_id": "m",
            "request_rate": 4.0, "mean_ttft_ms": 41.5, "p99_ttft_ms": 90.0, "mean_tpot_ms": 7.25}"#;
        let f = crate::import::import("early.json", text.as_bytes());
        assert_eq!(f.producer, Some(Producer::VllmServe));
        let run = &f.runs[0];
        assert_eq!(
            run.latency_stat(Metric::Ttft, crate::model::Stat::Mean),
            Some(41.5)
        );
        assert_eq!(run.requests.succeeded, None);
        assert_eq!(run.throughput.output_tok_s, None);
        let lacks = run
            .problems
            .iter()
            .find(|p| p.message.contains("latency statistics only"))
            .expect("the absent keys are named");
        assert_eq!(lacks.severity, crate::problem::Severity::Warning);
        assert!(lacks
            .message
            .contains("`completed`, `duration`, `request_throughput`"));
        // Not a vLLM result: no date, or no latency and no counts.
        for other in [
            r#"{"backend": "vllm", "mean_ttft_ms": 1}"#,
            r#"{"date": "x", "backend": "vllm", "model_id": "m"}"#,
        ] {
            let value: Value = serde_json::from_str(other).unwrap();
            assert!(!is_serve_result(&value), "{other}");
        }
    }
}
