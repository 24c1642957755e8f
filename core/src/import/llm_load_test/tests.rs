//! An llm-load-test output of our own making, with the traits of the real ones: TTFT and TPOT in
//! ms, `response_time` in seconds, epoch start times, the prompt texts, a failed request.

use crate::fixtures;
use crate::model::{LoadTarget, Metric, Producer, Stat};

#[test]
fn the_requests_are_one_run_with_samples_in_their_own_units() {
    let f = fixtures::import_file("llm-load-test/output.json");
    assert_eq!(f.producer, Some(Producer::LlmLoadTest));
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    let run = &f.runs[0];
    assert_eq!(run.load.target, LoadTarget::Concurrency(4.0));
    assert_eq!(run.config.model.as_deref(), Some("granite-3b"));
    assert_eq!(run.config.dataset.as_deref(), Some("openorca_subset.jsonl"));
    assert_eq!(
        (
            run.requests.total,
            run.requests.succeeded,
            run.requests.failed
        ),
        (Some(12), Some(11), Some(1))
    );
    // TTFT 150 + 10i ms for the eleven that succeeded (i = 5 failed).
    let mean = run.latency_stat(Metric::Ttft, Stat::Mean).unwrap();
    assert!((mean - 2260.0 / 11.0).abs() < 1e-9, "{mean}");
    // `response_time` 2.625 s is 2,625 ms end to end.
    let samples = run.samples.as_ref().unwrap();
    assert_eq!(samples.e2e_ms[0], 2625.0);
    assert_eq!(samples.start_s[1], 0.5);
    assert!(samples.order_known());
    // 1,161 output tokens of the successful requests over 9.115 s from first start to last end.
    let tok_s = run.throughput.output_tok_s.unwrap();
    assert!((tok_s - 1161.0 / 9.115).abs() < 1e-6, "{tok_s}");
    let warnings: Vec<String> = run.problems.iter().map(ToString::to_string).collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("failed requests by kind: 500 Internal Server Error (1)")),
        "{warnings:?}"
    );
}

#[test]
fn a_request_without_its_ttft_is_an_error_at_its_index_never_a_zero() {
    let text = fixtures::text("llm-load-test/output.json").replacen(
        "\"TTFT\": 150.0",
        "\"TTFT\": \"fast\"",
        1,
    );
    let f = crate::import::import("out.json", text.as_bytes());
    let problems: Vec<String> = f.all_problems().map(ToString::to_string).collect();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("out.json#results[0].TTFT")),
        "{problems:?}"
    );
    assert_eq!(f.runs[0].requests.total, Some(11));
}
