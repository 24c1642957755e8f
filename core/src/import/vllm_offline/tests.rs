use crate::fixtures::{import_file, messages};
use crate::model::{LoadTarget, Metric, Producer, Stat};
use crate::problem::Severity;

#[test]
fn throughput_is_total_tokens_per_second() {
    let f = import_file("vllm-throughput/throughput_chat13b_in512_out128.json");
    assert_eq!(f.producer, Some(Producer::VllmThroughput));
    assert_eq!(messages(&f), "");
    let [run] = f.runs.as_slice() else {
        panic!("expected one run")
    };
    assert_eq!(run.load.target, LoadTarget::MaxThroughput);
    assert_eq!(run.load.achieved_rps, Some(11.764705882352942));
    // tokens_per_second counts prompt and output tokens.
    assert_eq!(run.throughput.total_tok_s, Some(7529.411764705882));
    assert_eq!(run.throughput.output_tok_s, None);
    assert_eq!(run.throughput.requests_per_s, Some(11.764705882352942));
    assert_eq!(run.requests.total, Some(500));
    assert_eq!(run.requests.succeeded, None, "the file does not say");
    assert!(!run.all_failed());
    assert!(run.latency.is_empty());
    assert_eq!(run.config.key(), "unnamed", "the file names no model");
}

#[test]
fn throughput_with_wrong_types_or_truncated() {
    let f = import_file("vllm-throughput/broken.json");
    assert_eq!(f.producer, Some(Producer::VllmThroughput));
    assert_eq!(f.runs.len(), 1);
    assert_eq!(f.runs[0].throughput.requests_per_s, None);
    assert_eq!(f.runs[0].throughput.total_tok_s, None);
    assert_eq!(
        messages(&f),
        [
            "vllm-throughput/broken.json#requests_per_second: error: expected a number, found the string \"fast\"",
            "vllm-throughput/broken.json#tokens_per_second: error: missing; expected a rate per second",
            "vllm-throughput/broken.json#total_num_tokens: error: expected a number, found the string \"lots\"",
        ]
        .join("\n")
    );

    let f = import_file("vllm-throughput/truncated.json");
    assert!(f.failed());
    assert!(
        f.problems[0]
            .place()
            .starts_with("vllm-throughput/truncated.json:4:"),
        "{}",
        f.problems[0].place()
    );
    assert!(f.problems[0].message.starts_with("invalid JSON"));
}

#[test]
fn latency_seconds_become_milliseconds() {
    let f = import_file("vllm-latency/latency_bs16_in256_out64.json");
    assert_eq!(f.producer, Some(Producer::VllmLatency));
    assert_eq!(messages(&f), "");
    let [run] = f.runs.as_slice() else {
        panic!("expected one run")
    };
    assert_eq!(run.load.target, LoadTarget::MaxThroughput);
    assert_eq!(run.latency.len(), 1);
    let e2e = run.latency(Metric::E2e).expect("batch latency as e2e");
    assert_eq!(e2e.mean, Some(875.0));
    assert_eq!(e2e.std, Some(12.5));
    assert_eq!(e2e.min, Some(859.375), "from the latencies array");
    assert_eq!(e2e.max, Some(890.625));
    assert_eq!(e2e.get(Stat::Median), Some(875.0), "string key \"50\"");
    assert_eq!(e2e.get(Stat::P(99.0)), Some(890.625));
    assert_eq!(e2e.get(Stat::P(10.0)), Some(0.86 * 1000.0));
    assert_eq!(
        e2e.percentiles.iter().map(|p| p.p).collect::<Vec<_>>(),
        vec![10.0, 25.0, 50.0, 75.0, 90.0, 99.0]
    );
    assert!(
        run.samples.is_none(),
        "per-batch latencies are not per-request samples"
    );
}

#[test]
fn latency_with_nan_and_wrong_types() {
    let f = import_file("vllm-latency/broken.json");
    assert_eq!(f.producer, Some(Producer::VllmLatency));
    let [run] = f.runs.as_slice() else {
        panic!("expected one run")
    };
    let e2e = run.latency(Metric::E2e).expect("partly readable");
    assert_eq!(e2e.mean, None, "NaN is missing");
    assert_eq!(e2e.std, None);
    assert_eq!((e2e.min, e2e.max), (Some(500.0), Some(750.0)));
    assert_eq!(e2e.get(Stat::P(99.0)), Some(900.0), "\"p99\" is read as 99");
    assert_eq!(e2e.get(Stat::P(50.0)), None);
    let joined = messages(&f);
    for expected in [
        "vllm-latency/broken.json#std_latency: error: expected a number of at least 0, found -1",
        "vllm-latency/broken.json#latencies[1]: error: expected a number, found the string \"slow\"",
        "vllm-latency/broken.json#percentiles.50: error: expected a latency of at least 0 s, found the string \"fast\"",
        "vllm-latency/broken.json#percentiles.max: warning: expected a percentile rank from 0 to 100",
    ] {
        assert!(joined.contains(expected), "missing {expected:?} in\n{joined}");
    }
    assert_eq!(run.problems.len(), 4, "{joined}");
    assert!(run.problems.iter().any(|p| p.severity == Severity::Warning));
}
