use super::sweep::sweep_folder;
use crate::import::{import_text, ImportedFile};
use crate::model::{LoadTarget, Location, Metric, Producer, Stat};
use crate::problem::Severity;

fn fixture(path: &str) -> ImportedFile {
    crate::fixtures::import_named(&format!("locust/{path}"), path)
}

const RUN: &str = "results/20260102_090000/acme_chat_warm_u8/";

fn messages(f: &ImportedFile) -> Vec<String> {
    f.all_problems().map(ToString::to_string).collect()
}

#[test]
fn the_aggregated_row_is_the_run_with_users_from_the_sweep_folder() {
    let f = fixture(&format!("{RUN}locust_stats.csv"));
    assert_eq!(f.producer, Some(Producer::Locust));
    let [run] = f.runs.as_slice() else {
        panic!("{:?}", f.problems)
    };
    assert_eq!(run.provenance.location, Location::line(4));
    assert_eq!(run.load.target, LoadTarget::Concurrency(8.0));
    assert_eq!(run.config.model.as_deref(), Some("acme_chat"));
    assert_eq!(run.config.dataset.as_deref(), Some("warm"));
    assert_eq!(run.config.label.as_deref(), Some("acme_chat_warm"));
    assert_eq!(run.requests.total, Some(1000));
    assert_eq!(run.requests.failed, Some(8));
    assert_eq!(run.requests.succeeded, Some(992));
    // Plain HTTP: end-to-end latency only, no tokens.
    assert_eq!(run.latency.len(), 1);
    let e2e = run.latency(Metric::E2e).unwrap();
    assert_eq!(e2e.median, Some(1700.0));
    assert_eq!(e2e.mean, Some(1809.675));
    assert_eq!(e2e.min, Some(650.0));
    assert_eq!(e2e.max, Some(5100.25));
    assert_eq!(e2e.get(Stat::P(66.0)), Some(1900.0));
    assert_eq!(e2e.get(Stat::P(99.9)), Some(4900.0));
    assert_eq!(e2e.get(Stat::P(99.99)), Some(5100.0));
    assert_eq!(e2e.percentiles.len(), 11);
    assert_eq!(run.throughput.requests_per_s, Some(4.166666666666667));
    assert_eq!(run.load.achieved_rps, Some(4.166666666666667));
    assert_eq!(run.throughput.output_tok_s, None);
    assert!(run.tokens.input_len.is_none());
    // Two endpoints: the model has no per-endpoint breakdown, and says so once.
    assert_eq!(
        messages(&f),
        [format!(
            "{RUN}locust_stats.csv:2: warning: 2 endpoints (`mixed-cold [acme_chat]`, \
             `mixed-warm [acme_chat]`) are summed in the `Aggregated` row, which is the run; the \
             model has no per-endpoint breakdown, so their own rows are not imported"
        )]
    );
}

#[test]
fn history_failures_exceptions_and_run_config_are_understood_but_not_runs() {
    let history = fixture(&format!("{RUN}locust_stats_history.csv"));
    assert_eq!(history.producer, Some(Producer::Locust));
    assert!(history.runs.is_empty());
    assert!(!history.failed(), "a warning, not a failure");
    assert_eq!(
        messages(&history),
        [format!(
            "{RUN}locust_stats_history.csv:1: warning: Locust stats history: a time series of 4 \
             `Aggregated` rows, not a run; the run is read from the `_stats.csv` beside it; users \
             peaked at 8; at the end 1,000 requests, 8 failed"
        )]
    );

    let failures = fixture(&format!("{RUN}locust_failures.csv"));
    assert_eq!(failures.producer, Some(Producer::Locust));
    assert!(failures.runs.is_empty() && !failures.failed());
    assert_eq!(
        messages(&failures),
        [format!(
            "{RUN}locust_failures.csv:1: warning: Locust failures: 8 failed requests of 3 kinds \
             (5 × HTTP 429: rate limited; 1 × ReadTimeout(\"read timed out, (read timeout=120)\"); \
             2 × HTTP 503: upstream overflow); not a run, the failure count is part of the run \
             read from the `_stats.csv` beside it"
        )]
    );

    let exceptions = fixture(&format!("{RUN}locust_exceptions.csv"));
    assert!(exceptions.runs.is_empty() && !exceptions.failed());
    assert_eq!(
        messages(&exceptions),
        [format!(
            "{RUN}locust_exceptions.csv:1: warning: Locust exceptions: 2 exceptions in the test \
             code, 1 kinds; not a run (the tracebacks are in this file)"
        )]
    );

    let config = fixture(&format!("{RUN}run_config.json"));
    assert_eq!(config.producer, Some(Producer::Locust));
    assert!(config.runs.is_empty() && !config.failed());
    let [p] = config.problems.as_slice() else {
        panic!("{:?}", config.problems)
    };
    assert_eq!(p.severity, Severity::Warning);
    assert_eq!(p.place(), format!("{RUN}run_config.json"));
    assert!(
        p.message.starts_with(
            "sweep.sh run configuration (model `acme_chat`, task set `warm`, 8 users): \
             configuration only, not results"
        ),
        "{}",
        p.message
    );
}

#[test]
fn locust_0x_quoted_headers_and_an_unknown_load() {
    let f = fixture("old/requests_stats.csv");
    let run = &f.runs[0];
    assert_eq!(run.provenance.location, Location::line(3));
    assert_eq!(run.requests.total, Some(420));
    assert_eq!(run.requests.succeeded, Some(420));
    assert_eq!(run.latency_stat(Metric::E2e, Stat::Median), Some(880.0));
    assert_eq!(run.latency_stat(Metric::E2e, Stat::Max), Some(2400.0));
    assert_eq!(run.throughput.requests_per_s, Some(3.5));
    // No sweep.sh folder: the number of users is unknown, and the warning says where it is.
    assert_eq!(run.load.target, LoadTarget::MaxThroughput);
    let [p] = run.problems.as_slice() else {
        panic!("{:?}", run.problems)
    };
    assert_eq!(p.place(), "old/requests_stats.csv");
    assert!(
        p.message.starts_with("the load point is unknown"),
        "{}",
        p.message
    );
    assert!(p.message.contains("`User Count`"), "{}", p.message);
}

#[test]
fn every_request_failed_is_a_failed_run_without_latency() {
    let f = fixture("all-failed/locust_stats.csv");
    let run = &f.runs[0];
    assert!(run.all_failed());
    assert_eq!(run.requests.total, Some(12));
    assert_eq!(run.requests.failed, Some(12));
    assert!(run.latency.is_empty(), "failures' times are not latencies");
    assert_eq!(run.latency_stat(Metric::E2e, Stat::Median), None);
    let texts = messages(&f);
    assert!(
        texts.contains(
            &"all-failed/locust_stats.csv:4: warning: every request failed; the run is shown as \
              failed and the failures' response times are not latencies"
                .to_string()
        ),
        "{texts:#?}"
    );
    // The idle `/health` endpoint's `N/A` percentiles are missing values, not errors.
    assert!(!texts.iter().any(|t| t.contains("error")), "{texts:#?}");
}

#[test]
fn broken_stats_report_each_cell_and_the_missing_aggregate() {
    let f = fixture("broken/locust_stats.csv");
    assert!(f.runs.is_empty());
    assert!(f.failed());
    assert_eq!(
        messages(&f),
        [
            "broken/locust_stats.csv:2:5: error: `Median Response Time`: expected a number of at \
             least 0, found `slow`",
            "broken/locust_stats.csv:3:3: error: `Request Count`: expected a number of at least \
             0, found `-4`",
            "broken/locust_stats.csv:4: error: expected a last row named `Aggregated` (Locust's \
             totals over every endpoint); without it there is no run",
        ]
    );
}

#[test]
fn custom_percentiles_unknown_columns_and_a_repeated_aggregate() {
    let f = fixture("custom-percentiles/locust_stats.csv");
    let run = &f.runs[0];
    assert_eq!(run.provenance.location, Location::line(3));
    assert_eq!(run.requests.failed, Some(12));
    let e2e = run.latency(Metric::E2e).unwrap();
    let ps: Vec<(f64, f64)> = e2e.percentiles.iter().map(|q| (q.p, q.value)).collect();
    assert_eq!(ps, [(50.0, 2000.0), (99.9, 6100.0)], "N/A p95 is missing");
    let places: Vec<String> = f.all_problems().map(|p| p.place()).collect();
    assert_eq!(
        places,
        [
            "custom-percentiles/locust_stats.csv:1:15",
            "custom-percentiles/locust_stats.csv:2",
            "custom-percentiles/locust_stats.csv",
        ]
    );
    let texts = messages(&f);
    assert!(texts[0].contains("column `Notes` is not one Locust writes"));
    assert!(texts[1].contains("2 `Aggregated` rows; the last one, at line 3, is read"));
}

#[test]
fn sweep_folder_names() {
    let (id, users) =
        sweep_folder("r/20260405_101500/modal_vllm_cold_u10/locust_stats.csv").unwrap();
    assert_eq!(users, 10.0);
    assert_eq!(id.model.as_deref(), Some("modal_vllm"));
    assert_eq!(id.dataset.as_deref(), Some("cold"));
    for path in [
        "locust_stats.csv",
        "x/run_u/locust_stats.csv",
        "x/model_u5/locust_stats.csv",
        "x/model_cold_u0/locust_stats.csv",
        "x/model_cold_ux/locust_stats.csv",
        "x/_cold_u3/locust_stats.csv",
    ] {
        assert_eq!(sweep_folder(path), None, "{path}");
    }
}

#[test]
fn garbage_after_a_locust_header_never_panics() {
    let headers = [
        "Type,Name,Request Count,Failure Count,Median Response Time,50%",
        "Timestamp,User Count,Type,Name,Total Request Count,Total Failure Count",
        "Method,Name,Error,Occurrences",
        "Count,Message,Traceback,Nodes",
    ];
    let bodies = [
        "",
        "\n,Aggregated,3,9,1,1",
        "\n\"unclosed,1\n",
        "\n,Aggregated,1e400,NaN,-1,x\n,Total,,,,",
        "\nx\n,,,,,,,,,,,,,,,,,,",
    ];
    for h in headers {
        for b in bodies {
            let text = format!("{h}{b}");
            let f = import_text("x.csv", &text);
            assert_eq!(f.producer, Some(Producer::Locust), "{text:?}");
            assert!(!f.runs.is_empty() || !f.problems.is_empty(), "{text:?}");
        }
    }
}
