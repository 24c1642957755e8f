use crate::model::{LoadTarget, Metric, Producer, Rate, Stat};
use crate::problem::Severity;

fn fixture(name: &str) -> crate::import::ImportedFile {
    crate::fixtures::import_named(&format!("simple_full_stack/{name}"), name)
}

#[test]
fn a_concurrency_sweep_with_token_columns_and_crlf() {
    let f = fixture("acme_llm-7b_sharegpt_concurrency_20260101_120000.csv");
    assert_eq!(f.producer, Some(Producer::SimpleFullStackCsv));
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    assert_eq!(f.runs.len(), 4);
    let loads: Vec<LoadTarget> = f.runs.iter().map(|r| r.load.target).collect();
    assert_eq!(
        loads,
        [1.0, 2.0, 4.0, 8.0].map(LoadTarget::Concurrency).to_vec()
    );
    let first = &f.runs[0];
    assert_eq!(first.config.model.as_deref(), Some("acme_llm-7b"));
    assert_eq!(first.config.dataset.as_deref(), Some("sharegpt"));
    assert_eq!(first.provenance.location.to_string(), ":2");
    assert_eq!(first.requests.total, Some(20));
    assert_eq!(first.requests.succeeded, Some(20));
    assert_eq!(first.requests.failed, Some(0));
    assert_eq!(
        first.latency_stat(Metric::Ttft, Stat::P(90.0)),
        Some(800.25)
    );
    assert_eq!(first.latency_stat(Metric::Ttft, Stat::Median), Some(512.5));
    assert_eq!(
        first.latency_stat(Metric::E2e, Stat::P(99.0)),
        Some(12500.0)
    );
    assert_eq!(first.latency_stat(Metric::Tpot, Stat::P(99.0)), Some(25.75));
    assert_eq!(first.latency_stat(Metric::Itl, Stat::P(50.0)), Some(0.6));
    assert_eq!(first.throughput.output_tok_s, Some(48.5));
    assert_eq!(first.throughput.requests_per_s, Some(0.11));
    let input = first.tokens.input_len.as_ref().unwrap();
    assert_eq!(input.get(Stat::P(99.0)), Some(1010.0));

    let half = &f.runs[2];
    assert_eq!(half.requests.success_rate(), Some(0.5));
    assert_eq!(
        half.latency_stat(Metric::Ttft, Stat::P(50.0)),
        Some(30500.0)
    );
}

#[test]
fn an_all_failed_level_is_a_failed_run_without_zero_latencies() {
    let f = fixture("acme_llm-7b_sharegpt_concurrency_20260101_120000.csv");
    let failed = &f.runs[3];
    assert!(failed.all_failed());
    assert!(failed.latency.is_empty(), "zeros are not latencies");
    assert_eq!(failed.latency_stat(Metric::Ttft, Stat::P(50.0)), None);
    assert_eq!(failed.throughput.output_tok_s, None);
    assert_eq!(failed.requests.success_rate(), Some(0.0));
    let [warning] = failed.problems.as_slice() else {
        panic!("{:?}", failed.problems)
    };
    assert_eq!(warning.severity, Severity::Warning);
    assert_eq!(
        warning.place(),
        "acme_llm-7b_sharegpt_concurrency_20260101_120000.csv:5"
    );
}

#[test]
fn a_rate_sweep_without_token_columns_with_bom_inf_and_quoted_thousands() {
    let f = fixture("org_model_fixed_request_rate_20260102_090000.csv");
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    let loads: Vec<LoadTarget> = f.runs.iter().map(|r| r.load.target).collect();
    assert_eq!(
        loads,
        vec![
            LoadTarget::RequestRate(Rate::PerSecond(0.5)),
            LoadTarget::RequestRate(Rate::PerSecond(1.0)),
            LoadTarget::RequestRate(Rate::Infinite),
        ]
    );
    assert_eq!(f.runs[0].config.model.as_deref(), Some("org_model"));
    assert_eq!(f.runs[0].config.dataset.as_deref(), Some("fixed"));
    assert_eq!(
        f.runs[2].latency_stat(Metric::Ttft, Stat::P(50.0)),
        Some(1250.5)
    );
    assert!(f.runs.iter().all(|r| r.tokens.input_len.is_none()));
}

#[test]
fn hand_edited_files_report_every_problem_with_its_place() {
    let f = fixture("hand-edited.csv");
    assert_eq!(f.producer, Some(Producer::SimpleFullStackCsv));
    // Rows at concurrency 1, 2 and 8 import; the row at concurrency 0 and the short row do not.
    let loads: Vec<LoadTarget> = f.runs.iter().map(|r| r.load.target).collect();
    assert_eq!(loads, [1.0, 2.0, 8.0].map(LoadTarget::Concurrency).to_vec());
    let places: Vec<String> = f.all_problems().map(|p| p.place()).collect();
    assert!(
        places.contains(&"hand-edited.csv:1:8".to_string()),
        "{places:?}"
    );
    assert!(
        places.contains(&"hand-edited.csv:3:6".to_string()),
        "{places:?}"
    );
    assert!(
        places.contains(&"hand-edited.csv:4:1".to_string()),
        "{places:?}"
    );
    assert!(
        places.contains(&"hand-edited.csv:5".to_string()),
        "{places:?}"
    );
    let messages: Vec<String> = f.all_problems().map(|p| p.to_string()).collect();
    let text = messages.join("\n");
    assert!(text.contains("`mystery_col`"), "{text}");
    assert!(
        text.contains("`ttft_p50_ms`: expected a number, found `fast`"),
        "{text}"
    );
    assert!(
        text.contains("expected a positive concurrency, found `0`"),
        "{text}"
    );
    assert!(
        text.contains("expected 8 cells as in the header, found 3"),
        "{text}"
    );
    // The file name has no model: its stem is the label.
    assert_eq!(f.runs[0].config.label.as_deref(), Some("hand-edited"));
    // N/A is missing, not an error; the row at concurrency 8 says its error rate is wrong.
    assert_eq!(f.runs[2].latency(Metric::E2e), None);
    assert!(
        text.contains("error_rate_% 25 does not match error_count 1 of 10"),
        "{text}"
    );
}

#[test]
fn file_names_are_read_from_the_right() {
    use super::identity_from_file_name;
    let id =
        identity_from_file_name("results/my_org_model_v2_random_request_rate_20260408_141447.csv");
    assert_eq!(id.model.as_deref(), Some("my_org_model_v2"));
    assert_eq!(id.dataset.as_deref(), Some("random"));
    let id = identity_from_file_name("run.csv");
    assert_eq!(id.label.as_deref(), Some("run"));
    assert_eq!(id.model, None);
}

#[test]
fn headers_without_rows_and_garbage_do_not_panic() {
    for text in [
        "concurrency,total_requests,success_count\n",
        "concurrency,total_requests,success_count\n\"unclosed,1,2\n",
        "concurrency,total_requests,success_count\n1e400,5,5\n-3,1,1\nNaN,1,1\n",
    ] {
        let f = crate::import::import_text("x.csv", text);
        assert!(
            f.all_problems().any(|p| p.severity == Severity::Error),
            "{text:?}"
        );
    }
}
