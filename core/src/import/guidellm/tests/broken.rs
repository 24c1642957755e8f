//! Broken reports and CSVs: truncated files, wrong types, failed benchmarks, NaN and infinity,
//! and broken CSV cells and rows, each located and explained.

use super::{fixture, messages};
use crate::model::{LoadTarget, Metric, Producer, Rate, Stat};

#[test]
fn truncated_json_is_refused_at_its_end() {
    let f = fixture("broken/truncated.json");
    assert!(f.failed());
    assert_eq!(
        messages(&f),
        vec!["guidellm/broken/truncated.json:1:24166: error: invalid JSON: EOF while parsing a string"]
    );
}

#[test]
fn truncated_yaml_says_so_and_keeps_what_it_has() {
    let f = fixture("broken/truncated.yaml");
    assert_eq!(f.producer, Some(Producer::Guidellm));
    let file = "guidellm/broken/truncated.yaml";
    assert_eq!(
        messages(&f),
        vec![
            format!(
                "{file}:2104: error: the file ends in the middle of a line; PyYAML ends the \
                 report with a line break, so it was probably cut short and its last values may \
                 be incomplete"
            ),
            format!("{file}#benchmarks[1].type_: warning: missing; expected `generative_benchmark`, read as one"),
            format!(
                "{file}#benchmarks[1].metrics: warning: `requests_per_second`, \
                 `time_to_first_token_ms`, `time_per_output_token_ms`, `tokens_per_second` \
                 missing; GuideLLM writes them in every version, so the file \
                 was probably cut short or edited"
            ),
            format!(
                "{file}#benchmarks[1].metrics.request_totals: warning: missing; expected the request \
                 counts by status (successful, errored, incomplete); the run's counts are unknown"
            ),
        ]
    );
    let [first, second] = f.runs.as_slice() else {
        panic!("expected two runs")
    };
    assert_eq!(first.latency_stat(Metric::E2e, Stat::Mean), Some(1250.0));
    assert_eq!(second.load.target, LoadTarget::Concurrency(8.0));
    assert_eq!(second.requests.succeeded, None);
    // The cut `mean: 1.` still reads as 1 s: why the cut is reported as an error.
    assert_eq!(second.latency_stat(Metric::E2e, Stat::Mean), Some(1000.0));
    assert_eq!(
        first.provenance.producer_version, None,
        "`metadata` sorts after `benchmarks` and was cut off"
    );
}

#[test]
fn wrong_types_are_located_and_explained() {
    let f = fixture("broken/wrong-types.json");
    let file = "guidellm/broken/wrong-types.json";
    let b0 = format!("{file}#benchmarks[0]");
    assert_eq!(
        messages(&f),
        vec![
            format!("{file}#benchmarks[1].type_: error: expected `generative_benchmark`, found the string \"embeddings_benchmark\"; only generative benchmarks are imported, this one is skipped"),
            format!("{file}#benchmarks[2].metrics: error: expected the benchmark's statistics object, found an array; this benchmark is skipped"),
            format!("{b0}.config.strategy.streams: error: expected a positive number of concurrent streams, found the string \"four\"; the run has no load value"),
            format!("{b0}.metrics.time_to_first_token_ms.successful.mean: error: expected a number, found the string \"slow\""),
            format!("{b0}.metrics.time_to_first_token_ms.successful.percentiles.p98: warning: not a percentile GuideLLM writes (p001, p01, p05, p10, p25, p50, p75, p90, p95, p99, p999); it is ignored"),
            format!("{b0}.metrics.time_to_first_token_ms.successful.percentiles.p99: error: expected a number, found an array"),
            format!("{b0}.metrics.inter_token_latency_ms.successful: error: missing; expected the statistics of the successful requests"),
            format!("{b0}.metrics.request_totals.successful: error: expected a whole number of at least 0, found -3"),
            format!("{b0}.requests.successful[0].time_to_first_token_ms: error: expected a number, found the string \"fast\""),
            format!("{b0}.requests.errored[0]: error: expected a request object, found the number 17; it is skipped"),
        ]
    );
    let [run] = f.runs.as_slice() else {
        panic!("expected one run")
    };
    assert_eq!(run.load.target, LoadTarget::MaxThroughput, "no load value");
    assert_eq!(
        run.load.achieved_rps,
        Some(0.75),
        "but still its measured rate"
    );
    let ttft = run.latency(Metric::Ttft).unwrap();
    assert_eq!((ttft.mean, ttft.median), (None, Some(40.0)));
    assert_eq!(ttft.get(Stat::P(99.0)), None);
    assert!(run.latency(Metric::Tpot).is_none());
    assert_eq!(run.requests.succeeded, None);
    assert!(!run.all_failed(), "an unreadable count is not a failure");
    let s = run.samples.as_ref().unwrap();
    assert_eq!(s.len(), 1);
    assert!(s.ttft_ms[0].is_nan());
}

#[test]
fn all_failed_benchmark_is_a_failed_run_without_latencies() {
    let f = fixture("broken/all-failed.json");
    assert_eq!(
        messages(&f),
        vec![
            "guidellm/broken/all-failed.json#benchmarks[0].metrics.request_totals.successful: \
             warning: no request succeeded; the run is shown as failed, its statistics are ignored"
        ]
    );
    assert!(!f.failed(), "the file imported");
    let [run] = f.runs.as_slice() else {
        panic!("expected one run")
    };
    assert!(run.all_failed());
    assert!(run.latency.is_empty(), "zeros are not latencies");
    assert_eq!(run.latency_stat(Metric::E2e, Stat::Mean), None);
    assert_eq!(
        (
            run.requests.succeeded,
            run.requests.failed,
            run.requests.total
        ),
        (Some(0), Some(6), Some(6))
    );
    assert_eq!(
        run.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(4.0))
    );
    assert_eq!(run.load.max_concurrency, Some(16));
    assert_eq!(run.load.achieved_rps, Some(0.0));
    assert_eq!(run.tokens.output_len, None);
    let s = run.samples.as_ref().unwrap();
    assert_eq!(s.ok, vec![false; 6]);
    assert_eq!(s.e2e_ms, vec![125.0; 6]);
}

#[test]
fn nan_is_missing_and_infinity_an_error() {
    let f = fixture("broken/nan.json");
    let b0 = "guidellm/broken/nan.json#benchmarks[0]";
    let problems = messages(&f);
    assert_eq!(
        problems[..2],
        [
            format!("{b0}.metrics.time_to_first_token_ms.successful.percentiles.p999: error: expected a finite number, found inf"),
            format!("{b0}.metrics.request_latency.successful.max: error: expected a finite number, found -inf"),
        ]
    );
    assert_eq!(problems.len(), 3, "and the warm-up note: {problems:?}");
    let run = &f.runs[0];
    let ttft = run.latency(Metric::Ttft).unwrap();
    assert_eq!(ttft.std, None, "NaN std is missing, not a number");
    assert_eq!(ttft.get(Stat::P(99.9)), None);
    assert_eq!(ttft.get(Stat::P(99.0)), Some(110.0));
    assert_eq!(run.latency(Metric::E2e).unwrap().max, None);
    assert_eq!(run.load.achieved_rps, None, "NaN rate");
    assert_eq!(run.throughput.requests_per_s, None);
    assert!(run.samples.as_ref().unwrap().ttft_ms[0].is_nan());
}

#[test]
fn broken_csv_cells_and_rows_are_located() {
    let f = fixture("broken/broken.csv");
    let file = "guidellm/broken/broken.csv";
    assert_eq!(
        messages(&f),
        vec![
            format!("{file}:1:101: error: column `Time per Output Token / Successful furlongs / Mean`: expected a time unit (ms, Sec), the column is ignored"),
            format!("{file}:1:102: warning: column `GPU Power / Successful W / Mean` and 1 more of its group are not ones GuideLLM writes; their values are ignored"),
            format!("{file}:6: error: expected 103 cells as in the header, found 40; GuideLLM before 0.7 wrote the first benchmark's header only, so this row's cells cannot be matched to columns; it is skipped (the JSON or YAML report has every benchmark)"),
            format!("{file}:4:5: error: `Run Info / Backend`: invalid JSON: EOF while parsing a value; the cell is ignored"),
            format!("{file}:4:35: error: `Time to First Token / Successful ms / Percentiles`: expected 11 values (min, p0.1, p1, p5, p10, p25, p75, p90, p95, p99, max), found 10"),
            format!("{file}:4:44: error: `Inter Token Latency / Successful ms / Mean`: expected a finite number, found `fast`"),
        ]
    );
    let [first, second] = f.runs.as_slice() else {
        panic!("expected two runs")
    };
    // The emptied strategy cell is found in the next benchmark's `completed_strategies`.
    assert_eq!(first.load.target, LoadTarget::Concurrency(2.0));
    // The broken Backend cell: the model comes from the report's arguments.
    assert_eq!(first.config.model.as_deref(), Some("acme/chat-13b"));
    let ttft = first.latency(Metric::Ttft).unwrap();
    assert_eq!((ttft.mean, ttft.min), (Some(35.5), None));
    assert!(ttft.percentiles.is_empty());
    let tpot = first.latency(Metric::Tpot).unwrap();
    assert_eq!((tpot.mean, tpot.median), (None, Some(9.5)));
    assert_eq!(
        first.latency_stat(Metric::TpotInclFirst, Stat::Mean),
        Some(9.75),
        "not the furlongs column"
    );
    assert_eq!(second.load.target, LoadTarget::Concurrency(8.0));
}
