use super::interpolated;
use crate::import::{import_text, ImportedFile};
use crate::model::{LoadTarget, Location, Metric, Producer, Rate, Stat};
use crate::problem::Severity;

fn fixture(name: &str) -> ImportedFile {
    crate::fixtures::import_named(&format!("simple_full_stack_load_test/{name}"), name)
}

fn close(actual: Option<f64>, expected: f64) {
    let a = actual.unwrap_or(f64::NAN);
    assert!((a - expected).abs() < 1e-9, "{a} != {expected}");
}

#[test]
fn one_run_per_level_warm_up_excluded() {
    let f = fixture("acme-disagg.json");
    assert_eq!(f.producer, Some(Producer::SimpleFullStackLoadTest));
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    let loads: Vec<LoadTarget> = f.runs.iter().map(|r| r.load.target).collect();
    assert_eq!(
        loads,
        [
            LoadTarget::Sequential,
            LoadTarget::Sequential,
            LoadTarget::Concurrency(1.0),
            LoadTarget::Concurrency(4.0),
            LoadTarget::RequestRate(Rate::PerSecond(2.0)),
        ]
    );
    let places: Vec<String> = f.runs.iter().map(|r| r.provenance.to_string()).collect();
    assert_eq!(
        places,
        [
            "acme-disagg.json#results.baseline[0]",
            "acme-disagg.json#results.baseline[2]",
            "acme-disagg.json#results.waves[0]",
            "acme-disagg.json#results.waves[3]",
            "acme-disagg.json#results.sustained[0]",
        ]
    );
    // Each report is its own configuration; the baseline is its own series.
    let wave = &f.runs[2];
    assert_eq!(wave.config.model.as_deref(), Some("acme-13b"));
    assert_eq!(wave.config.label.as_deref(), Some("acme-disagg"));
    assert_eq!(wave.config.dataset, None);
    let base = &f.runs[0];
    assert_eq!(base.config.label.as_deref(), Some("acme-disagg baseline"));
    assert_eq!(base.config.dataset.as_deref(), Some("~32-token prompts"));
    assert_eq!(
        f.runs[1].config.dataset.as_deref(),
        Some("~64-token prompts")
    );
}

#[test]
fn statistics_are_load_test_py_s_own_over_the_successes() {
    let f = fixture("acme-disagg.json");
    let wave = &f.runs[2];
    assert_eq!(wave.requests.total, Some(3));
    assert_eq!(wave.requests.succeeded, Some(3));
    // Linear interpolation between closest ranks, as load_test.py's `percentile`.
    close(wave.latency_stat(Metric::Ttft, Stat::P(50.0)), 420.0);
    close(wave.latency_stat(Metric::Ttft, Stat::P(90.0)), 484.0);
    close(wave.latency_stat(Metric::Ttft, Stat::P(99.0)), 498.4);
    close(wave.latency_stat(Metric::Ttft, Stat::Mean), 440.0);
    close(wave.latency_stat(Metric::Ttft, Stat::Min), 400.0);
    close(wave.latency_stat(Metric::Ttft, Stat::Max), 500.0);
    close(wave.latency_stat(Metric::E2e, Stat::Mean), 7450.0 / 3.0);
    close(wave.latency_stat(Metric::Tpot, Stat::P(50.0)), 15.5);
    assert!(wave.latency(Metric::TpotInclFirst).is_none());
    close(wave.tokens.input_len.as_ref().and_then(|d| d.mean), 65.0);
    assert_eq!(wave.tokens.total_input, Some(195));
    assert_eq!(wave.tokens.total_output, Some(376));
    // No run duration in the file: no throughput is made up.
    assert_eq!(wave.throughput.output_tok_s, None);
    assert_eq!(wave.throughput.requests_per_s, None);

    let base = &f.runs[0];
    close(base.latency_stat(Metric::Ttft, Stat::P(50.0)), 450.0);
    close(base.latency_stat(Metric::Ttft, Stat::P(90.0)), 490.0);
    close(base.latency_stat(Metric::E2e, Stat::P(99.0)), 2598.0);
}

#[test]
fn failed_requests_are_samples_without_ttft_and_count_as_failures() {
    let f = fixture("acme-disagg.json");
    let c4 = &f.runs[3];
    assert_eq!(c4.requests.total, Some(4));
    assert_eq!(c4.requests.succeeded, Some(3));
    assert_eq!(c4.requests.failed, Some(1));
    assert_eq!(c4.requests.success_rate(), Some(0.75));
    // The timed-out request's 120 s is not a TTFT and not in the statistics.
    close(c4.latency_stat(Metric::Ttft, Stat::Max), 800.0);
    close(c4.latency_stat(Metric::Ttft, Stat::P(99.0)), 798.0);
    let s = c4.samples.as_ref().unwrap();
    assert_eq!(s.ok, [true, false, true, true]);
    assert!(s.ttft_ms[1].is_nan());
    assert!(s.tpot_ms[1].is_nan());
    assert_eq!(s.e2e_ms[1], 120003.9);
    assert_eq!(s.ttft_ms[3], 700.0);
    assert_eq!(s.output_tokens[1], 1.0);

    let b64 = &f.runs[1];
    assert_eq!(b64.requests.failed, Some(1));
    close(b64.latency_stat(Metric::E2e, Stat::Mean), 2500.0);
}

#[test]
fn a_level_where_nothing_succeeded_is_a_failed_run() {
    let f = fixture("acme-disagg.json");
    let rps = &f.runs[4];
    assert!(rps.all_failed());
    assert_eq!(rps.requests.total, Some(3));
    assert_eq!(rps.requests.failed, Some(3));
    assert!(rps.latency.is_empty());
    assert_eq!(rps.latency_stat(Metric::Ttft, Stat::P(50.0)), None);
    assert_eq!(rps.samples.as_ref().map(|s| s.len()), Some(3));
    let [p] = rps.problems.as_slice() else {
        panic!("{:?}", rps.problems)
    };
    assert_eq!(p.severity, Severity::Warning);
    assert_eq!(p.location, Location::json("results.sustained[0]"));
}

#[test]
fn every_bad_request_is_reported_at_its_path() {
    let f = fixture("broken.json");
    assert_eq!(f.producer, Some(Producer::SimpleFullStackLoadTest));
    let mut got: Vec<String> = f.all_problems().map(ToString::to_string).collect();
    got.sort();
    let mut expected = vec![
        "broken.json#config.model: error: expected text, found an array",
        "broken.json#results.cooldown: warning: unknown phase `cooldown`; expected warmup, \
         baseline, waves or sustained; its requests are ignored",
        "broken.json#results.waves[1].ok: error: expected true or false, found the string \
         \"yes\"; this request is skipped",
        "broken.json#results.waves[2].ttft_ms: error: expected a number, found the string \
         \"fast\"",
        "broken.json#results.waves[3].metadata.concurrency: error: expected the request's \
         `metadata.concurrency`, which names its load level; this request is skipped",
        "broken.json#results.waves[4].total_ms: error: expected a number of at least 0, found -5",
        "broken.json#results.waves[4]: error: a load level of 0 in `waves`: expected a positive \
         concurrency of at least 1; its 1 requests are skipped",
        "broken.json#results.waves[5]: error: expected an object for one request, found the \
         number 42; this request is skipped",
        "broken.json#results.waves[6].ttft_ms: error: missing on a successful request; expected \
         milliseconds",
        "broken.json#results.sustained: error: expected an array of requests, found an object",
        "broken.json#summary.count: warning: the summary counts 99 requests, but the baseline, \
         wave and sustained phases hold 7",
    ];
    expected.sort();
    assert_eq!(got, expected);
    let [run] = f.runs.as_slice() else {
        panic!("{:?}", f.runs)
    };
    assert_eq!(run.load.target, LoadTarget::Concurrency(2.0));
    assert_eq!(run.requests.total, Some(3));
    assert_eq!(run.config.model, None);
    assert_eq!(run.latency_stat(Metric::Ttft, Stat::Max), Some(100.0));
}

#[test]
fn interpolation_matches_load_test_py() {
    assert_eq!(interpolated(&[5.0], 99.0), 5.0);
    assert_eq!(interpolated(&[1.0, 2.0, 3.0, 4.0], 50.0), 2.5);
    assert_eq!(interpolated(&[1.0, 2.0, 3.0, 4.0], 100.0), 4.0);
    assert!(interpolated(&[], 50.0).is_nan());
}

#[test]
fn odd_documents_are_explained_not_panics() {
    for text in [
        r#"{"config": {"target_url": "x"}, "results": {}}"#,
        r#"{"config": {"target_url": "x"}, "results": {"waves": null}}"#,
        r#"{"config": {"phases": [2]}, "results": {"waves": [{"ok": true, "metadata": {"concurrency": "inf"}}]}}"#,
        r#"{"config": {"phases": [2]}, "results": {"baseline": [{"ok": false, "metadata": {"prompt_target": "x"}}]}}"#,
    ] {
        let f = import_text("x.json", text);
        assert_eq!(
            f.producer,
            Some(Producer::SimpleFullStackLoadTest),
            "{text}"
        );
        assert!(!f.problems.is_empty() || !f.runs.is_empty(), "{text}");
    }
}
