//! llm-d Prism's archive, written for these tests in its generator's shape (three runs: a 1:3
//! P/D split at `inf` and at 2 QPS, and an aggregated TP2): every figure below is the file's.

use crate::fixtures::{close, close_stats, errors, import_file, messages};
use crate::model::{LoadTarget, Metric, Producer, Rate, Stat};

#[test]
fn every_run_of_the_archive_is_a_run_in_ms_with_its_pd_split_as_settings() {
    let f = import_file("prism/llm-d-benchmarks.json");
    assert_eq!(f.producer, Some(Producer::Prism));
    assert_eq!(errors(&f), Vec::<String>::new());
    assert_eq!(f.runs.len(), 3);
    let split = &f.runs[0];
    assert_eq!(split.config.model.as_deref(), Some("Llama-3.1-70B"));
    assert_eq!(split.config.hardware.as_deref(), Some("16x H100"));
    assert_eq!(split.config.engine.as_deref(), Some("vllm"));
    assert_eq!(split.config.label.as_deref(), Some("4: 1P-TP4 3D-TP4"));
    let settings: Vec<(&str, &str)> = split
        .config
        .settings
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        settings,
        [
            ("decode_node", "3"),
            ("decode_tp", "4"),
            ("pd_ratio", "1:3"),
            ("prefill_node", "1"),
            ("prefill_tp", "4")
        ]
    );
    // `infqps`: the concurrency is the load point, the measured rate beside it.
    assert_eq!(split.load.target, LoadTarget::Concurrency(64.0));
    close(split.load.achieved_rps, 1.25);
    close_stats(
        split,
        &[
            (Metric::E2e, Stat::Mean, 30000.0),
            (Metric::E2e, Stat::Median, 28000.0),
            (Metric::Ttft, Stat::Median, 1500.0),
            (Metric::Tpot, Stat::Mean, 42.5),
            (Metric::Itl, Stat::Mean, 42.4),
        ],
    );
    close(split.throughput.total_tok_s, 5625.0);
    assert_eq!(
        split
            .provenance
            .date
            .as_ref()
            .map(|d| d.to_string())
            .as_deref(),
        Some("2026-01-10 10:15")
    );
    // A stated rate is the load point, capped by the concurrency.
    assert_eq!(
        f.runs[2].load.target,
        LoadTarget::RequestRate(Rate::PerSecond(2.0))
    );
    assert_eq!(f.runs[2].load.max_concurrency, Some(64));
}

#[test]
fn zeros_and_a_median_copied_from_the_mean_are_missing() {
    let f = import_file("prism/llm-d-benchmarks.json");
    let aggregated = &f.runs[1];
    assert_eq!(
        aggregated
            .config
            .settings
            .get("pd_ratio")
            .map(String::as_str),
        Some("Aggregated")
    );
    assert_eq!(
        aggregated.config.settings.get("tp").map(String::as_str),
        Some("2")
    );
    assert!(!aggregated.config.settings.contains_key("prefill_node"));
    // p99 0, TTFT p50 0, ITL 0: missing; E2E p50 = mean: Prism's fallback, missing.
    assert_eq!(aggregated.latency_stat(Metric::E2e, Stat::P(99.0)), None);
    assert_eq!(aggregated.latency_stat(Metric::E2e, Stat::Median), None);
    assert_eq!(aggregated.latency_stat(Metric::Ttft, Stat::Median), None);
    assert_eq!(aggregated.latency(Metric::Itl), None);
    close(aggregated.latency_stat(Metric::Ttft, Stat::Mean), 9000.0);
    assert_eq!(
        aggregated.requests.failed, None,
        "error_count 0 is no count"
    );
    let text = messages(&f);
    assert!(
        text.contains("prism/llm-d-benchmarks.json: warning: llm-d Prism's archive writes 0 for a missing value"),
        "{text}"
    );
}

#[test]
fn an_item_that_is_no_run_is_an_error_at_its_index() {
    let text = br#"[{"metrics": {"ttft": {"mean": 5}}, "workload": {}, "pd_ratio": "1:1"}, 7]"#;
    let f = crate::import::import("a.json", text);
    assert_eq!(f.runs.len(), 1);
    assert!(
        messages(&f).contains("a.json#[1]: error: expected an archived run"),
        "{}",
        messages(&f)
    );
}

#[test]
fn an_infinite_rate_without_a_concurrency_is_an_infinite_rate() {
    let text = br#"[{"id": "x-infqps-y", "pd_ratio": "1:1", "metrics": {"ttft": {"mean": 1}},
        "workload": {"concurrency": 0}},
        {"id": "infqps-1e400qps", "pd_ratio": "1:1", "metrics": {"ttft": {"mean": 1}},
        "workload": {}}]"#;
    let f = crate::import::import("a.json", text);
    for run in &f.runs {
        assert_eq!(run.load.target, LoadTarget::RequestRate(Rate::Infinite));
    }
    assert_eq!(f.runs.len(), 2);
}
