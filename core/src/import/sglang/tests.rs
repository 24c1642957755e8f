use crate::fixtures::import_file;
use crate::model::{LoadTarget, Metric, Producer, Rate, Stat};
use crate::problem::Severity;

fn messages(problems: &[crate::problem::Problem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn old_and_new_layouts_mixed_in_one_file() {
    let f = import_file("sglang/sglang_0314_mixed.jsonl");
    assert_eq!(f.producer, Some(Producer::SglangServing));
    assert!(
        f.all_problems().next().is_none(),
        "{:?}",
        f.all_problems().collect::<Vec<_>>()
    );
    let [old, new] = f.runs.as_slice() else {
        panic!("expected two runs, got {}", f.runs.len())
    };

    // Old layout: no server_info, no tag, p99 only (p95 for ITL), no total_throughput.
    assert_eq!(old.provenance.location.to_string(), ":1");
    assert_eq!(old.provenance.producer, Producer::SglangServing);
    assert_eq!(old.provenance.producer_version, None);
    assert_eq!(old.config.model, None, "no model key and no server_info");
    assert_eq!(old.config.engine.as_deref(), Some("sglang"));
    assert_eq!(old.config.label, None);
    assert_eq!(old.config.dataset.as_deref(), Some("sharegpt"));
    assert_eq!(
        old.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(2.0))
    );
    assert_eq!(old.load.max_concurrency, None);
    assert_eq!(old.load.achieved_rps, Some(1.98));
    assert_eq!(old.load.achieved_concurrency, Some(4.25));
    // No failed count in SGLang files: unknown, not zero.
    assert_eq!(old.requests.succeeded, Some(120));
    assert_eq!(old.requests.failed, None);
    assert_eq!(old.requests.total, None);
    assert_eq!(old.latency_stat(Metric::E2e, Stat::Mean), Some(2150.5));
    assert_eq!(old.latency_stat(Metric::E2e, Stat::P(99.0)), Some(3320.75));
    assert_eq!(old.latency_stat(Metric::E2e, Stat::P(90.0)), None);
    assert_eq!(old.latency_stat(Metric::Ttft, Stat::Median), Some(58.25));
    assert_eq!(old.latency_stat(Metric::Tpot, Stat::Std), Some(0.5));
    assert_eq!(old.latency_stat(Metric::Itl, Stat::P(95.0)), Some(13.5));
    assert_eq!(
        old.latency.iter().map(|m| m.metric).collect::<Vec<_>>(),
        vec![Metric::Ttft, Metric::Tpot, Metric::Itl, Metric::E2e]
    );
    assert_eq!(old.throughput.input_tok_s, Some(497.75));
    assert_eq!(old.throughput.output_tok_s, Some(426.5));
    assert_eq!(old.throughput.total_tok_s, Some(924.25), "input + output");
    assert_eq!(old.throughput.requests_per_s, Some(1.98));
    assert_eq!(old.tokens.total_input, Some(30120));
    assert_eq!(old.tokens.total_output, Some(25800));
    assert!(old.samples.is_none());

    // New layout: model from server_info, bare Infinity rate with a concurrency cap.
    assert_eq!(new.provenance.location.to_string(), ":2");
    assert_eq!(new.provenance.producer_version.as_deref(), Some("0.4.9"));
    assert_eq!(new.config.model.as_deref(), Some("acme/chat-13b"));
    assert_eq!(new.config.engine.as_deref(), Some("sglang-oai"));
    assert_eq!(new.config.label.as_deref(), Some("h100-tp2"));
    assert_eq!(new.config.dataset.as_deref(), Some("random-512-128"));
    assert_eq!(new.load.target, LoadTarget::Concurrency(16.0));
    assert_eq!(new.latency_stat(Metric::E2e, Stat::P(90.0)), Some(1370.0));
    assert_eq!(new.latency_stat(Metric::Ttft, Stat::P(95.0)), Some(215.5));
    assert_eq!(new.latency_stat(Metric::Tpot, Stat::Mean), Some(8.625));
    assert_eq!(new.latency_stat(Metric::Itl, Stat::Max), Some(61.0));
    assert_eq!(new.throughput.total_tok_s, Some(8192.0));
    assert_eq!(new.load.achieved_concurrency, Some(15.875));
}

#[test]
fn broken_lines_failures_and_wrong_types_are_reported() {
    let f = import_file("sglang/broken.jsonl");
    assert_eq!(f.producer, Some(Producer::SglangServing));
    assert_eq!(f.runs.len(), 3, "lines 1, 3 and 4 import");

    // Line 2 is truncated, line 5 is not SGLang: both are file problems with their lines.
    let [truncated, foreign] = f.problems.as_slice() else {
        panic!("{}", messages(&f.problems))
    };
    assert_eq!(truncated.severity, Severity::Error);
    assert!(
        truncated.place().starts_with("sglang/broken.jsonl:2:"),
        "{}",
        truncated.place()
    );
    assert!(truncated.message.contains("this line is skipped"));
    assert_eq!(foreign.place(), "sglang/broken.jsonl:5");
    assert!(foreign.message.contains("not recognised"));

    // Line 1: --output-details at the top level; failures counted from `errors`.
    let detailed = &f.runs[0];
    assert!(
        detailed.problems.is_empty(),
        "{}",
        messages(&detailed.problems)
    );
    assert_eq!(
        detailed.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(4.0))
    );
    assert_eq!(detailed.requests.succeeded, Some(3));
    assert_eq!(detailed.requests.failed, Some(1));
    assert_eq!(detailed.requests.total, Some(4));
    let samples = detailed.samples.as_ref().expect("samples");
    assert_eq!(samples.ok, vec![true, true, true, false]);
    assert_eq!(
        samples.ttft_ms,
        vec![125.0, 250.0, 500.0, 0.0],
        "seconds to ms"
    );
    assert_eq!(samples.input_tokens, vec![512.0; 4]);
    assert!(samples.e2e_ms.is_empty() && samples.tpot_ms.is_empty());

    // Line 3: all failed. Zero and NaN statistics are not latencies.
    let failed = &f.runs[1];
    assert!(failed.all_failed());
    assert_eq!(failed.requests.failed, Some(2), "from details.errors");
    assert_eq!(failed.requests.total, Some(2));
    assert_eq!(failed.latency_stat(Metric::Ttft, Stat::Mean), None);
    assert!(
        failed.latency(Metric::E2e).is_none(),
        "NaN statistics are missing"
    );
    assert_eq!(
        failed.samples.as_ref().map(|s| s.ok.clone()),
        Some(vec![false, false])
    );
    let [warning] = failed.problems.as_slice() else {
        panic!("{}", messages(&failed.problems))
    };
    assert_eq!(warning.severity, Severity::Warning);
    assert_eq!(warning.place(), "sglang/broken.jsonl:3#completed");
    assert!(warning.message.contains("shown as failed"));

    // Line 4: wrong types, each located; a trace-driven run has no load axis.
    let odd = &f.runs[2];
    assert_eq!(odd.load.target, LoadTarget::MaxThroughput);
    assert_eq!(odd.requests.succeeded, None);
    assert_eq!(odd.latency_stat(Metric::Ttft, Stat::Mean), None);
    assert_eq!(odd.latency_stat(Metric::Ttft, Stat::Median), Some(70.5));
    assert_eq!(odd.latency(Metric::Itl), None);
    let joined = messages(&odd.problems);
    for expected in [
        "sglang/broken.jsonl:4#server_info: error: expected an object, found the string \"sglang 0.4.9\"",
        "sglang/broken.jsonl:4#completed: error: expected a number, found the string \"many\"",
        "sglang/broken.jsonl:4#mean_ttft_ms: error: expected a number, found the string \"fast\"",
        "sglang/broken.jsonl:4#p99_itl_ms: error: expected a finite latency of at least 0 ms, found inf",
        "sglang/broken.jsonl:4#request_rate: warning: requests were replayed from a trace",
    ] {
        assert!(joined.contains(expected), "missing {expected:?} in\n{joined}");
    }
    assert_eq!(odd.problems.len(), 5, "{joined}");
}

#[test]
fn latency_keys_of_both_layouts() {
    use super::latency_key;
    assert_eq!(
        latency_key("p99_e2e_latency_ms"),
        Some(("p99", Metric::E2e))
    );
    assert_eq!(latency_key("mean_ttft_ms"), Some(("mean", Metric::Ttft)));
    assert_eq!(latency_key("max_itl_ms"), Some(("max", Metric::Itl)));
    assert_eq!(latency_key("p95_tpot_ms"), Some(("p95", Metric::Tpot)));
    assert_eq!(latency_key("max_output_tokens_per_s"), None);
    assert_eq!(latency_key("mean_e2e_ms"), None);
}
