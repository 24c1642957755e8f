use crate::fixtures::{import_file, messages};
use crate::import::ImportedFile;
use crate::model::{LoadTarget, Metric, Producer, Rate, Stat};
use crate::problem::Severity;

fn one_run(f: &ImportedFile) -> &crate::model::Run {
    let [run] = f.runs.as_slice() else {
        panic!("expected one run: {}", messages(f))
    };
    run
}

#[test]
fn genai_perf_nested_input_config_and_per_user_throughput() {
    let f = import_file(
        "genai-perf/acme_chat-13b-openai-chat-concurrency8/profile_export_genai_perf.json",
    );
    assert_eq!(f.producer, Some(Producer::GenaiPerf));
    assert_eq!(messages(&f), "");
    let run = one_run(&f);
    assert_eq!(run.config.model.as_deref(), Some("acme/chat-13b"));
    assert_eq!(run.load.target, LoadTarget::Concurrency(8.0));
    assert_eq!(run.load.max_concurrency, None);
    let ttft = run.latency(Metric::Ttft).unwrap();
    assert_eq!(ttft.mean, Some(120.5));
    assert_eq!(
        (ttft.min, ttft.max, ttft.std),
        (Some(66.0), Some(201.5), Some(28.25))
    );
    assert_eq!(ttft.get(Stat::P(1.0)), Some(70.0));
    assert_eq!(ttft.get(Stat::P(99.0)), Some(190.75));
    assert_eq!(ttft.get(Stat::Median), Some(118.0));
    assert_eq!(run.latency_stat(Metric::Ttst, Stat::Mean), Some(18.5));
    // GenAI-Perf's inter_token_latency is vLLM's TPOT (first token excluded).
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::Mean), Some(12.25));
    assert!(run.latency(Metric::TpotInclFirst).is_none());
    assert!(run.latency(Metric::Itl).is_none());
    assert_eq!(run.latency_stat(Metric::E2e, Stat::P(50.0)), Some(2675.25));
    // The run's output throughput, not the per-user rate (81.5).
    assert_eq!(run.throughput.output_tok_s, Some(591.5));
    assert_eq!(run.throughput.output_tok_s_per_user, Some(81.5));
    assert_eq!(run.throughput.requests_per_s, Some(2.95));
    assert_eq!(run.load.achieved_rps, Some(2.95));
    assert_eq!(run.requests.succeeded, Some(400));
    assert_eq!(
        run.requests.failed, None,
        "GenAI-Perf's summary has no failures"
    );
    assert_eq!(run.requests.total, None);
    assert_eq!(
        run.tokens.output_len.as_ref().and_then(|d| d.mean),
        Some(200.5)
    );
    assert_eq!(
        run.tokens
            .input_len
            .as_ref()
            .and_then(|d| d.get(Stat::P(50.0))),
        Some(550.0)
    );
}

#[test]
fn genai_perf_flat_input_config_and_per_request_throughput() {
    let f = import_file(
        "genai-perf/acme_chat-13b-openai-chat-request_rate2.5/profile_export_genai_perf.json",
    );
    assert_eq!(f.producer, Some(Producer::GenaiPerf));
    assert_eq!(messages(&f), "");
    let run = one_run(&f);
    assert_eq!(run.config.model.as_deref(), Some("acme/chat-13b"));
    assert_eq!(
        run.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(2.5))
    );
    assert_eq!(run.load.max_concurrency, None, "concurrency is null");
    assert_eq!(
        run.throughput.output_tok_s,
        Some(498.75),
        "not _per_request (79.0)"
    );
    assert_eq!(
        run.throughput.output_tok_s_per_user,
        Some(79.0),
        "the older name"
    );
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::Mean), Some(11.5));
    assert_eq!(run.latency_stat(Metric::E2e, Stat::Max), Some(3010.0));
    assert_eq!(run.requests.succeeded, Some(150));
}

#[test]
fn genai_perf_wrong_units_types_and_missing_load() {
    let f = import_file("genai-perf/broken/profile_export_genai_perf.json");
    assert_eq!(f.producer, Some(Producer::GenaiPerf));
    let run = one_run(&f);
    assert!(
        run.latency(Metric::Ttft).is_none(),
        "unknown unit: skipped, not guessed"
    );
    let e2e = run.latency(Metric::E2e).unwrap();
    assert_eq!(e2e.mean, None);
    assert_eq!(e2e.get(Stat::P(99.0)), None, "NaN");
    assert_eq!(e2e.get(Stat::P(90.0)), Some(3050.0));
    assert_eq!(run.throughput.requests_per_s, None, "avg is null");
    assert_eq!(run.load.target, LoadTarget::MaxThroughput);
    assert_eq!(run.config.model.as_deref(), Some("acme/chat-13b"));
    let file = "genai-perf/broken/profile_export_genai_perf.json";
    let expected = [
        format!("{file}#input_config.model_names: warning: expected a list of model names; other entries are ignored"),
        format!("{file}#input_config.perf_analyzer.stimulus: error: expected a `concurrency` or a `request_rate`; the run has no load point"),
        format!("{file}#time_to_first_token.unit: error: expected a time unit (ms, s, us or ns), found \"furlongs\"; this metric is skipped"),
        format!("{file}#request_latency.avg: error: expected a number, found the string \"slow\""),
        format!("{file}#request_count: error: expected a whole number of at least 0, found 12.5"),
    ];
    let joined = messages(&f);
    for e in &expected {
        assert!(joined.contains(e.as_str()), "missing {e:?} in\n{joined}");
    }
    assert_eq!(run.problems.len(), expected.len(), "{joined}");
}

#[test]
fn aiperf_top_level_metrics_with_errors() {
    let f =
        import_file("aiperf/acme_chat-13b-openai-chat-concurrency32/profile_export_aiperf.json");
    assert_eq!(f.producer, Some(Producer::Aiperf));
    assert_eq!(messages(&f), "");
    let run = one_run(&f);
    assert_eq!(run.provenance.producer, Producer::Aiperf);
    assert_eq!(run.config.model.as_deref(), Some("acme/chat-13b"));
    assert_eq!(run.load.target, LoadTarget::Concurrency(32.0));
    // request_count counts valid requests; errors come from error_request_count.
    assert_eq!(run.requests.succeeded, Some(796));
    assert_eq!(run.requests.failed, Some(4));
    assert_eq!(run.requests.total, Some(800));
    assert_eq!(run.tokens.total_input, Some(437999));
    assert_eq!(run.tokens.total_output, Some(159598));
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::P(99.0)), Some(15.5));
    assert_eq!(run.latency_stat(Metric::Ttst, Stat::P(99.0)), Some(25.0));
    assert_eq!(run.throughput.output_tok_s, Some(1964.9));
    assert_eq!(run.throughput.requests_per_s, Some(9.8));
}

#[test]
fn aiperf_records_layout_capped_rate_and_cancelled() {
    let f = import_file("aiperf/records-layout/profile_export_aiperf.json");
    assert_eq!(f.producer, Some(Producer::Aiperf));
    let run = one_run(&f);
    assert_eq!(
        run.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(10.0))
    );
    assert_eq!(run.load.max_concurrency, Some(64));
    assert_eq!(run.latency_stat(Metric::Ttft, Stat::Mean), Some(125.0));
    assert_eq!(run.latency_stat(Metric::Ttft, Stat::P(99.0)), Some(250.0));
    assert_eq!(run.latency_stat(Metric::E2e, Stat::Mean), Some(2680.5));
    assert_eq!(run.throughput.output_tok_s, Some(1950.0));
    assert_eq!(run.requests.succeeded, Some(600));
    assert_eq!(run.requests.failed, Some(0), "an empty error_summary");
    let [cancelled] = run.problems.as_slice() else {
        panic!("{}", messages(&f))
    };
    assert_eq!(cancelled.severity, Severity::Warning);
    assert_eq!(
        cancelled.place(),
        "aiperf/records-layout/profile_export_aiperf.json#was_cancelled"
    );
}

/// AIPerf of 2025-08 to 2025-10-09: `records` keyed `ttft`/`ttst`, null statistics written.
#[test]
fn aiperf_records_keyed_ttft_and_ttst() {
    let f = import_file("aiperf/records-ttft/profile_export_aiperf.json");
    assert_eq!(f.producer, Some(Producer::Aiperf));
    assert_eq!(messages(&f), "");
    let run = one_run(&f);
    assert_eq!(run.load.target, LoadTarget::Concurrency(4.0));
    assert_eq!(run.config.model.as_deref(), Some("acme/chat-13b"));
    let ttft = run.latency(Metric::Ttft).expect("`ttft` is TTFT");
    assert_eq!(
        (ttft.mean, ttft.min, ttft.get(Stat::P(50.0)), ttft.std),
        (Some(84.5), Some(41.25), Some(78.25), Some(35.125))
    );
    assert_eq!(run.latency_stat(Metric::Ttst, Stat::P(99.0)), Some(17.75));
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::Mean), Some(12.25));
    assert_eq!(
        (
            run.requests.succeeded,
            run.requests.failed,
            run.requests.total
        ),
        (Some(20), Some(1), Some(21))
    );
    assert_eq!(
        (run.tokens.total_input, run.tokens.total_output),
        (Some(10240), Some(2560))
    );
}

#[test]
fn aiperf_all_failed_is_failed() {
    let f = import_file("aiperf/all-failed/profile_export_aiperf.json");
    assert_eq!(f.producer, Some(Producer::Aiperf));
    let run = one_run(&f);
    assert!(run.all_failed());
    assert_eq!(run.requests.failed, Some(50));
    assert_eq!(run.requests.total, Some(50));
    assert!(run.latency.is_empty());
    assert_eq!(run.load.target, LoadTarget::Concurrency(32.0));
    let [p] = run.problems.as_slice() else {
        panic!("{}", messages(&f))
    };
    assert_eq!(p.severity, Severity::Warning);
    assert!(p.message.contains("shown as failed"));
}
