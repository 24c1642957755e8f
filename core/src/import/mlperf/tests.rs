//! LoadGen summaries of our own making, with the traits of the real ones: nanoseconds, a Server
//! scenario's target QPS, constraints, an INVALID result, an Offline run, an accuracy run.

use crate::fixtures;
use crate::import::import;
use crate::model::{LoadTarget, Metric, Producer, Rate, Stat};

#[test]
fn a_server_summary_is_one_run_in_milliseconds_at_its_target_qps() {
    let f = fixtures::import_file("mlperf/server_mlperf_log_summary.txt");
    assert_eq!(f.producer, Some(Producer::Mlperf));
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    let run = &f.runs[0];
    assert!(run.problems.is_empty(), "{:?}", run.problems);
    assert_eq!(
        run.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(40.5))
    );
    assert_eq!(run.latency_stat(Metric::E2e, Stat::Mean), Some(12_500.0));
    assert_eq!(run.latency_stat(Metric::E2e, Stat::Median), Some(11_000.0));
    assert_eq!(run.latency_stat(Metric::Ttft, Stat::P(99.9)), Some(610.0));
    assert_eq!(run.latency_stat(Metric::Ttft, Stat::Min), Some(21.0));
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::P(99.0)), Some(61.0));
    assert_eq!(run.throughput.requests_per_s, Some(40.12));
    assert_eq!(run.throughput.output_tok_s, Some(9120.5));
    assert_eq!(run.config.label.as_deref(), Some("llama3.1-8b-Server-SUT"));
    let setting = |k: &str| run.config.settings.get(k).map(String::as_str);
    assert_eq!(setting("ttft_constraint_ms"), Some("2000"));
    assert_eq!(setting("tpot_constraint_ms"), Some("100"));
    assert_eq!(setting("scenario"), Some("Server"));
    let limits: Vec<(Metric, Stat, f64, &str)> = run
        .workload
        .limits
        .iter()
        .map(|l| (l.metric, l.stat, l.ms, l.by.as_str()))
        .collect();
    assert_eq!(
        limits,
        [
            (Metric::Ttft, Stat::P(99.0), 2000.0, "MLPerf"),
            (Metric::Tpot, Stat::P(99.0), 100.0, "MLPerf")
        ]
    );
}

#[test]
fn an_invalid_result_is_read_and_said_with_the_checks_that_failed() {
    let text = fixtures::text("mlperf/server_mlperf_log_summary.txt")
        .replace("Result is : VALID", "Result is : INVALID")
        .replace(
            "Performance constraints satisfied : Yes",
            "Performance constraints satisfied : No",
        );
    let f = import("summary.txt", text.as_bytes());
    let problems: Vec<String> = f.runs[0].problems.iter().map(ToString::to_string).collect();
    assert!(
        problems.iter().any(|p| p.contains("summary.txt:9")
            && p.contains(
                "judged this run INVALID (Performance constraints satisfied not satisfied)"
            )),
        "{problems:?}"
    );
}

#[test]
fn an_offline_run_is_at_maximum_throughput() {
    let text = fixtures::text("mlperf/server_mlperf_log_summary.txt")
        .replace("Scenario : Server", "Scenario : Offline")
        .replace(
            "Completed samples per second    : 40.12",
            "Samples per second: 55.5",
        )
        .replace(
            "Completed tokens per second: 9120.50",
            "Tokens per second: 12000.25",
        );
    let f = import("offline.txt", text.as_bytes());
    let run = &f.runs[0];
    assert_eq!(run.load.target, LoadTarget::MaxThroughput);
    assert_eq!(run.throughput.requests_per_s, Some(55.5));
}

#[test]
fn an_accuracy_run_or_a_bad_number_is_an_error_at_its_line() {
    let text = fixtures::text("mlperf/server_mlperf_log_summary.txt");
    let f = import(
        "a.txt",
        text.replace("PerformanceOnly", "AccuracyOnly").as_bytes(),
    );
    assert!(f.runs.is_empty());
    assert!(
        f.problems[0].to_string().contains("a.txt:6"),
        "{:?}",
        f.problems
    );
    let f = import(
        "b.txt",
        text.replace(
            "Mean latency (ns)               : 12500000000",
            "Mean latency (ns) : soon",
        )
        .as_bytes(),
    );
    let problems: Vec<String> = f.all_problems().map(ToString::to_string).collect();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("b.txt:25") && p.contains("`Mean latency (ns)` is `soon`")),
        "{problems:?}"
    );
    assert_eq!(f.runs[0].latency_stat(Metric::E2e, Stat::Mean), None);
}
