//! Tests of the GuideLLM importer on the fixtures in `tests/fixtures/guidellm/` (invented numbers
//! in the real layouts of every generation, and broken variants), plus robustness sweeps.

use serde_json::{json, Value};

use super::{is_csv, is_csv_v03, is_yaml, load_point};
use crate::import::{import, ImportedFile};
use crate::model::{Distribution, LoadTarget, Metric, Producer, Rate, Run, Stat};
use crate::problem::Severity;

fn read(path: &str) -> Vec<u8> {
    crate::fixtures::bytes(&format!("guidellm/{path}"))
}

fn fixture(path: &str) -> ImportedFile {
    import(&format!("guidellm/{path}"), &read(path))
}

fn messages(f: &ImportedFile) -> Vec<String> {
    f.all_problems().map(ToString::to_string).collect()
}

/// The statistics both the report and the CSV carry (the CSV has no p50 and no p99.9).
const SHARED_STATS: [Stat; 14] = [
    Stat::Mean,
    Stat::Median,
    Stat::Std,
    Stat::Min,
    Stat::Max,
    Stat::P(0.1),
    Stat::P(1.0),
    Stat::P(5.0),
    Stat::P(10.0),
    Stat::P(25.0),
    Stat::P(75.0),
    Stat::P(90.0),
    Stat::P(95.0),
    Stat::P(99.0),
];

fn assert_same_stats(what: &str, a: Option<&Distribution>, b: Option<&Distribution>) {
    let (a, b) = (a.expect(what), b.expect(what));
    for stat in SHARED_STATS {
        assert_eq!(a.get(stat), b.get(stat), "{what} {stat}");
        assert!(a.get(stat).is_some(), "{what} {stat} is missing");
    }
}

/// The CSV row gives the same numbers as the report's benchmark, minus what the CSV lacks.
fn assert_csv_matches_report(csv: &Run, report: &Run) {
    assert_eq!(csv.load, report.load);
    assert_eq!(csv.requests, report.requests);
    assert_eq!(csv.config, report.config);
    assert_eq!(
        csv.provenance.producer_version,
        report.provenance.producer_version
    );
    assert_eq!(csv.throughput, report.throughput);
    for metric in Metric::ALL {
        match report.latency(metric) {
            Some(d) => assert_same_stats(metric.id(), csv.latency(metric), Some(d)),
            None => assert!(csv.latency(metric).is_none(), "{metric:?}"),
        }
    }
    assert_same_stats(
        "input_len",
        csv.tokens.input_len.as_ref(),
        report.tokens.input_len.as_ref(),
    );
    assert_same_stats(
        "output_len",
        csv.tokens.output_len.as_ref(),
        report.tokens.output_len.as_ref(),
    );
    assert!(csv.samples.is_none(), "the CSV has no per-request samples");
    assert_eq!(
        (csv.tokens.total_input, csv.tokens.total_output),
        (None, None),
        "the CSV has no token totals"
    );
}

#[test]
fn v03_report_with_seconds_converted_and_every_status() {
    let f = fixture("v0.3/benchmarks.json");
    assert_eq!(f.producer, Some(Producer::Guidellm));
    assert_eq!(messages(&f), Vec::<String>::new());
    let [sync, conc, rate] = f.runs.as_slice() else {
        panic!("expected three runs, got {}", f.runs.len())
    };
    assert_eq!(
        sync.provenance.to_string(),
        "guidellm/v0.3/benchmarks.json#benchmarks[0]"
    );
    assert_eq!(
        sync.provenance.producer_version, None,
        "0.3 does not say its version"
    );
    assert_eq!(sync.config.model.as_deref(), Some("acme/chat-13b"));
    assert_eq!(sync.config.label, None);

    // Load points from `args.strategy`, measured load from the successful means.
    assert_eq!(sync.load.target, LoadTarget::Sequential);
    assert_eq!(conc.load.target, LoadTarget::Concurrency(4.0));
    assert_eq!(
        rate.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(2.5))
    );
    assert_eq!(rate.load.max_concurrency, None);
    assert_eq!(
        (conc.load.achieved_rps, conc.load.achieved_concurrency),
        (Some(2.375), Some(3.75))
    );

    // `request_latency` is in seconds: 1.625 s is 1625 ms.
    let e2e = sync.latency(Metric::E2e).unwrap();
    assert_eq!(
        (e2e.mean, e2e.median, e2e.std, e2e.min, e2e.max),
        (
            Some(1625.0),
            Some(1562.5),
            Some(125.0),
            Some(1375.0),
            Some(1875.0)
        )
    );
    assert_eq!(e2e.get(Stat::P(25.0)), Some(1531.25));
    assert_eq!(e2e.get(Stat::P(99.9)), Some(1875.0), "p999 is the 99.9th");
    assert_eq!(e2e.get(Stat::P(0.1)), Some(1375.0), "p001 is the 0.1th");
    assert_eq!(e2e.percentile(50.0), None, "0.3 writes no p50");
    let ttft = sync.latency(Metric::Ttft).unwrap();
    assert_eq!(
        (ttft.mean, ttft.get(Stat::P(5.0))),
        (Some(52.5), Some(46.0))
    );
    // inter_token_latency_ms is vLLM's TPOT; time_per_output_token_ms includes the first token.
    assert_eq!(sync.latency_stat(Metric::Tpot, Stat::Mean), Some(12.25));
    assert_eq!(
        sync.latency_stat(Metric::TpotInclFirst, Stat::Mean),
        Some(12.75)
    );
    assert!(sync.latency(Metric::Itl).is_none());
    assert_eq!(sync.throughput.output_tok_s, Some(78.5));
    assert_eq!(sync.throughput.total_tok_s, Some(398.75));
    assert_eq!(sync.throughput.input_tok_s, None, "0.3 has no prompt rate");
    assert_eq!(sync.throughput.requests_per_s, Some(0.625));
    assert_eq!(
        (sync.tokens.total_input, sync.tokens.total_output),
        (Some(5120), Some(1255))
    );
    assert_eq!(
        sync.tokens.output_len.as_ref().and_then(|d| d.mean),
        Some(125.5)
    );

    assert_eq!(
        (
            conc.requests.total,
            conc.requests.succeeded,
            conc.requests.failed,
            conc.requests.incomplete
        ),
        (Some(40), Some(38), Some(2), Some(0))
    );
    assert_eq!(rate.requests.incomplete, Some(1));

    // Per-request samples: seconds to ms, failed requests kept with ok = false.
    let s = sync.samples.as_ref().unwrap();
    assert_eq!(s.ok, vec![true, true]);
    assert_eq!(s.e2e_ms, vec![1500.0, 1750.0]);
    assert_eq!(s.ttft_ms, vec![50.0, 55.5]);
    assert_eq!(s.tpot_ms, vec![12.0, 12.5]);
    assert_eq!(s.output_tokens, vec![128.0, 120.0]);
    let s = conc.samples.as_ref().unwrap();
    assert_eq!(s.ok, vec![true, false]);
    assert_eq!(s.e2e_ms, vec![1875.0, 30000.0]);
    assert!(s.ttft_ms[1].is_nan(), "the timed-out request has no TTFT");
    let s = rate.samples.as_ref().unwrap();
    assert_eq!(s.ok, vec![true, false], "the incomplete request is not ok");
    assert_eq!(s.ttft_ms, vec![110.0, 180.0]);
}

#[test]
fn v03_csv_gives_the_numbers_of_the_report() {
    let csv = fixture("v0.3/benchmarks.csv");
    assert_eq!(csv.producer, Some(Producer::Guidellm));
    assert_eq!(messages(&csv), Vec::<String>::new());
    let report = fixture("v0.3/benchmarks.json");
    assert_eq!(csv.runs.len(), 3);
    for (c, r) in csv.runs.iter().zip(&report.runs) {
        assert_csv_matches_report(c, r);
    }
    assert_eq!(
        csv.runs[1].provenance.to_string(),
        "guidellm/v0.3/benchmarks.csv:3"
    );
}

#[test]
fn v04_args_layout_with_throughput_and_poisson() {
    let f = fixture("v0.4/benchmarks.json");
    assert_eq!(f.producer, Some(Producer::Guidellm));
    assert_eq!(messages(&f), Vec::<String>::new());
    let [sync, max, poisson] = f.runs.as_slice() else {
        panic!("expected three runs")
    };
    // `args.model` is null (taken from the server): the benchmark's backend names it.
    assert_eq!(sync.config.model.as_deref(), Some("acme/chat-13b"));
    assert_eq!(
        sync.config.dataset.as_deref(),
        Some("prompt_tokens=256,output_tokens=128")
    );
    assert_eq!(sync.load.target, LoadTarget::Sequential);
    assert_eq!(max.load.target, LoadTarget::MaxThroughput);
    assert_eq!(max.load.max_concurrency, Some(64));
    assert_eq!(max.load.achieved_concurrency, Some(31.5));
    assert_eq!(
        poisson.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(3.25))
    );
    assert_eq!(poisson.load.max_concurrency, Some(64));
    assert_eq!(poisson.load.achieved_rps, Some(3.125));
    // 0.4+ writes p50 as well as the median.
    let ttft = max.latency(Metric::Ttft).unwrap();
    assert_eq!(
        (ttft.percentile(50.0), ttft.median, ttft.get(Stat::P(99.9))),
        (Some(850.0), Some(850.0), Some(1500.0))
    );
    assert_eq!(max.latency_stat(Metric::E2e, Stat::Mean), Some(4500.0));
    assert_eq!(max.requests.succeeded, Some(48));
    assert_eq!(max.throughput.output_tok_s, Some(812.5));
    assert_eq!(
        max.samples.as_ref().map(|s| s.e2e_ms.clone()),
        Some(vec![4500.0])
    );
}

#[test]
fn v06_metadata_version_and_warm_up_requests_left_out_of_the_samples() {
    let f = fixture("v0.6/benchmarks.json");
    assert_eq!(
        messages(&f),
        vec![
            "guidellm/v0.6/benchmarks.json#benchmarks[0].requests: warning: 1 listed requests ran \
             during the warm-up or cool-down (outside `scheduler_metrics.measure_start_time`…\
             `measure_end_time`); they are left out of the samples, as GuideLLM leaves them out of \
             its metrics"
        ]
    );
    let [run] = f.runs.as_slice() else {
        panic!("expected one run")
    };
    assert_eq!(run.provenance.producer_version.as_deref(), Some("0.6.0"));
    assert_eq!(run.config.dataset.as_deref(), Some("sharegpt"));
    assert_eq!(run.load.target, LoadTarget::Concurrency(8.0));
    let s = run.samples.as_ref().unwrap();
    assert_eq!(s.ok, vec![true, true, false]);
    assert_eq!(s.ttft_ms[..2], [75.0, 72.5]);
    assert_eq!(s.e2e_ms, vec![1500.0, 1250.0, 500.0]);
    assert!(s.output_tokens[2].is_nan());
    assert_eq!(
        (
            run.requests.succeeded,
            run.requests.failed,
            run.requests.total
        ),
        (Some(30), Some(1), Some(31))
    );
}

#[test]
fn v07_config_labels_and_request_statuses() {
    let f = fixture("v0.7/benchmarks.json");
    assert_eq!(messages(&f), Vec::<String>::new());
    let [low, high] = f.runs.as_slice() else {
        panic!("expected two runs")
    };
    assert_eq!(low.provenance.producer_version.as_deref(), Some("0.7.2"));
    assert_eq!(low.config.model.as_deref(), Some("acme/chat-13b"));
    assert_eq!(low.config.label.as_deref(), Some("acme-tp2"));
    assert_eq!(
        low.config.hardware.as_deref(),
        Some("2x L40S"),
        "labels.gpu"
    );
    assert_eq!(low.config.key(), "acme-tp2");
    assert_eq!(low.load.target, LoadTarget::Concurrency(2.0));
    assert_eq!(high.load.target, LoadTarget::Concurrency(8.0));
    assert_eq!(
        (high.load.achieved_rps, high.load.achieved_concurrency),
        (Some(5.5), Some(7.625))
    );
    assert_eq!(high.throughput.input_tok_s, Some(1408.0));
    assert_eq!(
        (
            high.requests.total,
            high.requests.succeeded,
            high.requests.failed,
            high.requests.incomplete
        ),
        (Some(24), Some(22), Some(1), Some(1))
    );
    // The successful status only: the errored (0.25 s) and incomplete ones are not mixed in.
    assert_eq!(high.latency_stat(Metric::E2e, Stat::Min), Some(1187.5));
    assert_eq!(high.latency_stat(Metric::Ttft, Stat::P(99.0)), Some(160.0));
    let s = high.samples.as_ref().unwrap();
    assert_eq!(s.ok, vec![true, false, false]);
    assert_eq!(s.e2e_ms, vec![1437.5, 250.0, 750.0]);
    assert_eq!(s.tpot_ms[2], 12.0);
    assert_eq!(s.input_tokens, vec![256.0, 256.0, 256.0]);
}

#[test]
fn v07_yaml_is_read_like_the_json() {
    let yaml = fixture("v0.7/benchmarks.yaml");
    assert_eq!(yaml.producer, Some(Producer::Guidellm));
    assert_eq!(messages(&yaml), Vec::<String>::new());
    let json = fixture("v0.7/benchmarks.json");
    assert_eq!(yaml.runs.len(), 2);
    for (y, j) in yaml.runs.iter().zip(&json.runs) {
        let mut y = y.clone();
        y.provenance.file = j.provenance.file.clone();
        // NaN != NaN: compare the samples' text.
        assert_eq!(format!("{y:?}"), format!("{j:?}"));
    }
    assert_eq!(
        yaml.runs[1].provenance.to_string(),
        "guidellm/v0.7/benchmarks.yaml#benchmarks[1]"
    );
}

#[test]
fn v07_csv_with_the_union_of_every_benchmarks_columns() {
    let csv = fixture("v0.7/benchmarks.csv");
    assert_eq!(csv.producer, Some(Producer::Guidellm));
    assert_eq!(messages(&csv), Vec::<String>::new());
    let report = fixture("v0.7/benchmarks.json");
    assert_eq!(csv.runs.len(), 2);
    for (c, r) in csv.runs.iter().zip(&report.runs) {
        assert_csv_matches_report(c, r);
    }
}

#[test]
fn v05_csv_sweep_finds_rates_in_later_profiles() {
    let f = fixture("v0.5/benchmarks.csv");
    assert_eq!(
        messages(&f),
        vec![
            "guidellm/v0.5/benchmarks.csv:7:9: warning: the CSV names the strategy `constant` but \
             not its rate for this benchmark (neither the profile nor a later benchmark's \
             `completed_strategies` lists it: the last benchmark of a sweep); the run has no load \
             value, the JSON or YAML report has it"
        ]
    );
    let targets: Vec<LoadTarget> = f.runs.iter().map(|r| r.load.target).collect();
    assert_eq!(
        targets,
        vec![
            LoadTarget::Sequential,
            LoadTarget::MaxThroughput,
            LoadTarget::RequestRate(Rate::PerSecond(1.5)),
            LoadTarget::MaxThroughput,
        ]
    );
    let last = &f.runs[3];
    assert_eq!(
        last.load.achieved_rps,
        Some(3.0),
        "still placed by its rate"
    );
    assert_eq!(last.latency_stat(Metric::E2e, Stat::Mean), Some(4500.0));
    assert_eq!(last.latency_stat(Metric::Ttft, Stat::P(99.0)), Some(200.0));
    assert_eq!(last.config.model.as_deref(), Some("acme/chat-13b"));
    assert_eq!(last.provenance.producer_version, None);
}

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

#[test]
fn yaml_is_recognised_by_its_content() {
    let f = import("other.yaml", b"benchmarks:\n- name: resnet\n  score: 1\n");
    assert!(f.failed());
    assert_eq!(
        messages(&f),
        vec!["other.yaml: error: YAML not recognised as a GuideLLM report; expected a `benchmarks` list of `generative_benchmark` objects (`benchmarks.yaml`)"]
    );
    let f = import("bad.yaml", b"args:\n  target: [http://x\n");
    assert_eq!(f.producer, None);
    let [p] = f.problems.as_slice() else {
        panic!("{:?}", f.problems)
    };
    assert_eq!(p.severity, Severity::Error);
    assert!(
        p.to_string()
            .starts_with("bad.yaml:3:1: error: invalid YAML: "),
        "{p}"
    );
}

#[test]
fn detection_by_first_line_and_content() {
    assert!(is_yaml("benchmarks:"));
    assert!(is_yaml("args:"));
    assert!(is_yaml("metadata:"));
    assert!(!is_yaml("benchmarks"));
    assert!(!is_yaml("Type,Run Id"));
    assert!(is_csv(
        "Run Info,Run Info,Benchmark,Request Latency,Time to First Token"
    ));
    assert!(!is_csv("Run Info,Run ID"));
    assert!(is_csv_v03(
        "Type,Run Id,Id,Name,Successful Requests,Successful Time to first token ms mean"
    ));
    assert!(!is_csv_v03("concurrency,total_requests,success_count"));
    // JSON with a `benchmarks` list of something else is not GuideLLM.
    let f = import("x.json", br#"{"benchmarks": [{"name": "resnet"}]}"#);
    assert_eq!(f.producer, None);
    // A report without benchmarks is still recognised, and says what is missing.
    let f = import(
        "empty.json",
        br#"{"metadata": {"version": 2, "guidellm_version": "0.7.2"}, "benchmarks": []}"#,
    );
    assert_eq!(f.producer, Some(Producer::Guidellm));
    assert_eq!(
        messages(&f),
        vec!["empty.json#benchmarks: error: the list is empty; expected one benchmark per load point"]
    );
}

#[test]
fn strategies_to_load_points() {
    let load = |v: Value| {
        let (load, issues) = load_point(v.as_object().unwrap());
        let issues: Vec<String> = issues
            .into_iter()
            .map(|i| format!("{:?} {:?}: {}", i.severity, i.key, i.message))
            .collect();
        (load.target, load.max_concurrency, issues)
    };
    assert_eq!(
        load(json!({"type_": "synchronous"})),
        (LoadTarget::Sequential, None, vec![])
    );
    assert_eq!(
        load(json!({"type_": "throughput", "max_concurrency": 512})),
        (LoadTarget::MaxThroughput, Some(512), vec![])
    );
    assert_eq!(
        load(json!({"type_": "poisson", "rate": "7.5", "max_concurrency": null})),
        (LoadTarget::RequestRate(Rate::PerSecond(7.5)), None, vec![])
    );
    assert_eq!(
        load(json!({"type_": "constant", "rate": 0})),
        (
            LoadTarget::MaxThroughput,
            None,
            vec!["Error Some(\"rate\"): expected a positive request rate (requests per second), found 0; the run has no load value".to_string()]
        )
    );
    assert_eq!(
        load(json!({"type_": "constant", "rate": 2, "max_concurrency": 2.5})),
        (
            LoadTarget::RequestRate(Rate::PerSecond(2.0)),
            None,
            vec!["Error Some(\"max_concurrency\"): expected a whole number of at least 1, found the number 2.5".to_string()]
        )
    );
    let (target, _, issues) = load(json!({"type_": "trace"}));
    assert_eq!(target, LoadTarget::MaxThroughput);
    assert_eq!(issues, vec!["Warning Some(\"type_\"): a `trace` strategy replays the arrival times of a trace; the run has no load value of its own (its measured rate and concurrency are kept)".to_string()]);
    let (_, _, issues) = load(json!({"type_": "burst"}));
    assert_eq!(issues, vec!["Warning Some(\"type_\"): strategy `burst` is not one of synchronous, concurrent, throughput, constant, poisson or trace; the run has no load value".to_string()]);
    let (_, _, issues) = load(json!({"streams": 4}));
    assert_eq!(issues, vec!["Error Some(\"type_\"): expected the strategy type (synchronous, concurrent, throughput, constant, poisson), found nothing; the run has no load value".to_string()]);
}

#[test]
fn many_requests_are_read_in_one_pass() {
    let request = json!({
        "request_start_time": 1.0, "request_end_time": 2.5, "request_latency": 1.5,
        "time_to_first_token_ms": 40.0, "inter_token_latency_ms": 9.5,
        "prompt_tokens": 256, "output_tokens": 128
    });
    let mut doc: Value = serde_json::from_slice(&read("v0.7/benchmarks.json")).unwrap();
    let n = 100_000;
    doc["benchmarks"][0]["requests"]["successful"] = Value::Array(vec![request; n]);
    let text = doc.to_string();
    let start = std::time::Instant::now();
    let f = import("big.json", text.as_bytes());
    let s = f.runs[0].samples.as_ref().unwrap();
    assert_eq!(s.len(), n);
    assert_eq!((s.e2e_ms[n - 1], s.tpot_ms[0]), (1500.0, 9.5));
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
}

/// Every fixture, cut at many places, never panics.
#[test]
fn truncated_fixtures_never_panic() {
    for path in [
        "v0.3/benchmarks.csv",
        "v0.5/benchmarks.csv",
        "v0.6/benchmarks.json",
        "v0.7/benchmarks.json",
        "v0.7/benchmarks.yaml",
        "v0.7/benchmarks.csv",
        "broken/broken.csv",
    ] {
        let bytes = read(path);
        let step = (bytes.len() / 700).max(1);
        for end in (0..bytes.len()).step_by(step) {
            let f = import(path, &bytes[..end]);
            assert!(
                !f.runs.is_empty() || !f.problems.is_empty(),
                "{path} cut at {end}: nothing and no reason"
            );
        }
    }
}

/// Every value of a report, one at a time, replaced by values of the wrong type, never panics.
#[test]
fn wrong_types_anywhere_in_a_report_never_panic() {
    let replacements = [
        Value::Null,
        json!("slow"),
        json!("-Infinity"),
        json!(-1),
        json!([]),
        json!({}),
    ];
    for doc in [
        reduced("v0.6/benchmarks.json"),
        reduced("v0.3/benchmarks.json"),
    ] {
        let mut places = Vec::new();
        pointers(&doc, String::new(), &mut places);
        for place in &places {
            for replacement in &replacements {
                let mut changed = doc.clone();
                if let Some(slot) = changed.pointer_mut(place) {
                    *slot = replacement.clone();
                }
                let f = import("x.json", changed.to_string().as_bytes());
                assert!(
                    !f.runs.is_empty() || !f.problems.is_empty(),
                    "{place} = {replacement}: nothing and no reason"
                );
            }
        }
    }
}

/// A fixture cut down to keep the sweep short: its first benchmark, the `successful` status of
/// each metric, one request per list, without the parts nothing reads.
fn reduced(path: &str) -> Value {
    let mut doc: Value = serde_json::from_slice(&read(path)).unwrap();
    if let Some(Value::Array(benchmarks)) = doc.get_mut("benchmarks") {
        benchmarks.truncate(1);
    }
    if let Some(Value::Object(metrics)) = doc.pointer_mut("/benchmarks/0/metrics") {
        for metric in metrics.values_mut() {
            if let Value::Object(statuses) = metric {
                statuses.retain(|k, _| k == "successful");
            }
        }
    }
    if let Some(Value::Object(lists)) = doc.pointer_mut("/benchmarks/0/requests") {
        for list in lists.values_mut() {
            if let Value::Array(items) = list {
                items.truncate(1);
            }
        }
    }
    strip(&mut doc);
    doc
}

/// Removes the parts no importer reads (request timings, scheduler state, ...).
fn strip(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|k, _| {
                !matches!(
                    k.as_str(),
                    "info"
                        | "input_metrics"
                        | "output_metrics"
                        | "scheduler_info"
                        | "backend_info"
                        | "scheduler_state"
                        | "request_loader"
                        | "constraints"
                        | "environment"
                        | "profile"
                        | "text"
                        | "image"
                        | "video"
                        | "audio"
                        | "tool_call"
                )
            });
            m.values_mut().for_each(strip);
        }
        Value::Array(items) => items.iter_mut().for_each(strip),
        _ => {}
    }
}

fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                pointers(
                    child,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                pointers(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// Every cell of the CSVs, one at a time, replaced by junk, never panics.
#[test]
fn junk_in_any_csv_cell_never_panics() {
    for path in ["v0.7/benchmarks.csv", "v0.3/benchmarks.csv"] {
        let text = String::from_utf8(read(path)).unwrap();
        let rows: Vec<Vec<String>> = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes())
            .records()
            .map(|r| r.unwrap().iter().map(String::from).collect())
            .collect();
        for r in 0..rows.len() {
            for c in 0..rows[r].len() {
                for junk in ["", "x", "[1, 2", "NaN", "-1", "{}", "inf"] {
                    let mut changed = rows.clone();
                    changed[r][c] = junk.to_string();
                    let mut w = csv::Writer::from_writer(Vec::new());
                    for row in &changed {
                        w.write_record(row).unwrap();
                    }
                    let bytes = w.into_inner().unwrap();
                    let f = import(path, &bytes);
                    assert!(
                        !f.runs.is_empty() || !f.problems.is_empty(),
                        "{path} row {r} cell {c} = {junk:?}: nothing and no reason"
                    );
                }
            }
        }
    }
}
