use crate::fixtures::{close, counts};
use crate::model::{LoadTarget, Metric, Producer, Stat};
use crate::problem::Severity;

fn fixture(name: &str) -> crate::import::ImportedFile {
    crate::fixtures::import_file(&format!("k6/{name}"))
}

#[test]
fn legacy_summary_export() {
    let f = fixture("summary-export.json");
    assert_eq!(f.producer, Some(Producer::K6));
    let [run] = f.runs.as_slice() else {
        panic!("{:?}", f.problems)
    };
    assert_eq!(run.load.target, LoadTarget::Concurrency(16.0));
    // `http_req_failed.passes` are failures.
    assert_eq!(run.requests.total, Some(100));
    assert_eq!(run.requests.failed, Some(5));
    assert_eq!(run.requests.succeeded, Some(95));
    assert_eq!(run.throughput.requests_per_s, Some(2.5));
    assert_eq!(run.throughput.output_tok_s, Some(300.25));
    assert_eq!(run.tokens.total_output, Some(12000));
    let e2e = run.latency(Metric::E2e).unwrap();
    assert_eq!(e2e.mean, Some(2500.5));
    assert_eq!(e2e.get(Stat::Median), Some(2300.0));
    assert_eq!(e2e.get(Stat::P(90.0)), Some(4100.75));
    assert_eq!(e2e.get(Stat::P(99.9)), Some(9000.0));
    assert_eq!(run.latency_stat(Metric::Ttft, Stat::P(95.0)), Some(800.0));
    // A time trend that is not a benchmark metric is named, not dropped silently... but only
    // when the file says it is a time trend (the legacy export does not).
    assert!(run.problems.iter().all(|p| p.severity == Severity::Warning));
}

#[test]
fn handle_summary_data_in_seconds() {
    let f = fixture("handle-summary-seconds.json");
    let [run] = f.runs.as_slice() else {
        panic!("{:?}", f.problems)
    };
    assert_eq!(run.load.target, LoadTarget::Concurrency(4.0));
    assert_eq!(run.requests.succeeded, Some(40));
    assert_eq!(run.requests.failed, Some(0));
    assert_eq!(run.latency_stat(Metric::E2e, Stat::Mean), Some(1500.0));
    assert_eq!(run.latency_stat(Metric::E2e, Stat::P(95.0)), Some(3500.0));
    // Numbers written as strings are read.
    let ttft = run.latency(Metric::Ttft).unwrap();
    assert!((ttft.get(Stat::P(95.0)).unwrap() - 400.0).abs() < 1e-9);
    assert!((ttft.mean.unwrap() - 200.0).abs() < 1e-9);
}

#[test]
fn an_all_failed_test_is_a_failed_run_with_its_bad_values_located() {
    let f = fixture("all-failed.json");
    let [run] = f.runs.as_slice() else {
        panic!("{:?}", f.problems)
    };
    assert!(run.all_failed());
    assert!(run.latency.is_empty());
    let places: Vec<String> = run.problems.iter().map(|p| p.to_string()).collect();
    let text = places.join("\n");
    assert!(text.contains("k6/all-failed.json#metrics.tpot_ms.avg: error: expected a number, found the string \"fast\""), "{text}");
    assert!(
        text.contains("k6/all-failed.json#metrics.tpot_ms.p(99): error: expected a finite number"),
        "{text}"
    );
    assert!(text.contains("every request failed"), "{text}");
}

#[test]
fn unmapped_time_trends_and_missing_vus_are_reported() {
    let text = r#"{"root_group":{},"metrics":{
        "http_reqs":{"type":"counter","contains":"default","values":{"count":3,"rate":1}},
        "db_wait":{"type":"trend","contains":"time","values":{"avg":1,"med":1}}}}"#;
    let f = crate::import::import_text("k.json", text);
    let [run] = f.runs.as_slice() else {
        panic!("{:?}", f.problems)
    };
    assert_eq!(run.load.target, LoadTarget::MaxThroughput);
    let text: Vec<String> = run.problems.iter().map(|p| p.to_string()).collect();
    let text = text.join("\n");
    assert!(
        text.contains("k.json#metrics.db_wait.values: warning: time trend `db_wait` is not mapped"),
        "{text}"
    );
    assert!(
        text.contains("the number of virtual users (the load) is unknown"),
        "{text}"
    );
}

#[test]
fn odd_shapes_do_not_panic() {
    for text in [
        r#"{"root_group":{},"metrics":{"http_reqs":[1,2]}}"#,
        r#"{"root_group":{},"metrics":{"http_reqs":{"count":"x"},"http_req_duration":{"med":[]}}}"#,
        r#"{"root_group":{},"metrics":{"http_reqs":{"values":null},"vus":{"max":-1}}}"#,
        r#"{"root_group":{},"options":{"summaryTimeUnit":"fortnight"},"metrics":{"http_reqs":{"count":1}}}"#,
    ] {
        let f = crate::import::import_text("k.json", text);
        assert!(f.all_problems().count() > 0, "{text}");
    }
}

/// The console summary of one 8-VU, 2-minute chat test in each of k6's three layouts: the same
/// numbers from each (humanised durations back to ms).
#[test]
fn the_console_summary_in_every_layout() {
    for name in ["classic-pre-0.54.txt", "legacy-0.54.txt", "v1-compact.txt"] {
        let f = fixture(name);
        assert_eq!(f.producer, Some(Producer::K6), "{name}");
        assert!(
            f.all_problems().all(|p| p.severity == Severity::Warning),
            "{name}: {:?}",
            f.problems
        );
        let [run] = f.runs.as_slice() else {
            panic!("{name}: {:?}", f.problems)
        };
        assert_eq!(run.load.target, LoadTarget::Concurrency(8.0), "{name}");
        assert_eq!(
            counts(run),
            (Some(824), Some(824), Some(0)),
            "{name}: http_req_failed's first number counts failures"
        );
        close(run.throughput.requests_per_s, 6.859438);
        close(run.throughput.output_tok_s, 878.008064);
        assert_eq!(run.tokens.total_output, Some(105472));
        let e2e = run.latency(Metric::E2e).unwrap();
        close(e2e.mean, 1160.0);
        close(e2e.min, 612.4);
        close(e2e.get(Stat::Median), 1150.0);
        close(e2e.get(Stat::P(95.0)), 1370.0);
        close(run.latency_stat(Metric::Ttft, Stat::P(90.0)), 262.45);
        close(run.latency_stat(Metric::Tpot, Stat::Mean), 7.7);
        let text: Vec<String> = f.all_problems().map(|p| p.message.clone()).collect();
        assert!(
            text.iter()
                .any(|m| m.contains("`http_req_waiting`") || name.starts_with("v1")),
            "{name}: {text:?}"
        );
    }
}

/// A rate scenario capped by its VUs, failures, a trend printed without a unit, ANSI colours,
/// and a duration over a minute (`1m2.5s`).
#[test]
fn a_console_summary_at_a_request_rate() {
    let f = fixture("rate-scenario.log");
    let run = &f.runs[0];
    assert_eq!(
        run.load.target,
        LoadTarget::RequestRate(crate::model::Rate::PerSecond(10.0))
    );
    assert_eq!(run.load.max_concurrency, Some(50));
    assert_eq!(counts(run), (Some(600), Some(585), Some(15)));
    let e2e = run.latency(Metric::E2e).unwrap();
    close(e2e.max, 62_500.0);
    close(e2e.min, 800.25);
    close(run.latency_stat(Metric::Ttft, Stat::Mean), 152.355556);
    let problems: Vec<String> = f.all_problems().map(ToString::to_string).collect();
    assert!(problems.contains(
        &"k6/rate-scenario.log:25: warning: `ttft` is printed without a unit; its values are read \
          as milliseconds"
            .to_string()
    ), "{problems:#?}");
    let unread = problems
        .iter()
        .find(|p| p.contains("not in benchdeck's model"))
        .unwrap();
    for name in [
        "`checks`",
        "`data_received`",
        "`{ expected_response:true }`",
        "`iterations`",
        "`dropped_iterations`",
    ] {
        assert!(unread.contains(name), "{name}: {unread}");
    }
}
