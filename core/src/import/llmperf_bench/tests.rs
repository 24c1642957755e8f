//! llmperf-bench's three files of one model: the full summaries keyed by concurrency, the
//! condensed ones, and one condensed concurrency alone. Expected values are the fixtures' own
//! (seconds times 1000), read off by hand.

use crate::fixtures::{bytes, close, close_stats, errors, import_file, messages};
use crate::import::import_all;
use crate::input::InputFile;
use crate::model::{LoadTarget, Metric, Producer, Stat};

const MODEL: &str = "llmperf-bench/meta-llama_Meta-Llama-3-8B-Instruct_tp_1";

fn loads(runs: &[crate::model::Run]) -> Vec<LoadTarget> {
    runs.iter().map(|r| r.load.target).collect()
}

#[test]
fn full_summaries_keyed_by_concurrency_are_one_run_each_in_load_order() {
    let f = import_file(&format!("{MODEL}_results.json"));
    assert_eq!(f.producer, Some(Producer::LlmperfBench));
    assert_eq!(errors(&f), Vec::<String>::new());
    assert_eq!(
        loads(&f.runs),
        [1.0, 8.0, 32.0].map(LoadTarget::Concurrency),
        "sorted by the number, not the key's text"
    );
    let c8 = &f.runs[1];
    assert_eq!(c8.provenance.producer, Producer::LlmperfBench);
    assert_eq!(c8.provenance.to_string(), format!("{MODEL}_results.json#8"));
    assert_eq!(
        c8.config.model.as_deref(),
        Some("meta-llama/Meta-Llama-3-8B-Instruct")
    );
    assert_eq!(c8.config.settings.get("tp").map(String::as_str), Some("1"));
    assert_eq!(
        (c8.requests.total, c8.requests.succeeded),
        (Some(20), Some(20))
    );
    close_stats(
        c8,
        &[
            (Metric::Ttft, Stat::Mean, 319.73248889358524),
            (
                Metric::TpotInclFirst,
                Stat::Mean,
                0.037878421490035445 * 1000.0,
            ),
            (Metric::E2e, Stat::P(99.0), 7329.311309137105),
        ],
    );
    assert!(
        c8.latency(Metric::Tpot).is_none(),
        "llmperf's ITL includes the TTFT"
    );
    close(c8.throughput.output_tok_s, 189.46143628345666);
    close(c8.throughput.requests_per_s, 64.15172786121556 / 60.0);
    assert_eq!(
        (c8.workload.input_len, c8.workload.output_len),
        (Some(750), Some(150)),
        "the configured mean lengths"
    );
    let unread = messages(&f);
    for key in [
        "`name`",
        "`stddev_input_tokens`",
        "`results_error_rate`",
        "`results_request_output_throughput_token_per_s_mean`",
    ] {
        assert!(unread.contains(key), "{key}: {unread}");
    }
}

#[test]
fn condensed_summaries_hold_means_and_the_configured_lengths() {
    let f = import_file(&format!("{MODEL}_summary.json"));
    assert_eq!(f.producer, Some(Producer::LlmperfBench));
    assert_eq!(
        loads(&f.runs),
        [1.0, 8.0, 32.0].map(LoadTarget::Concurrency)
    );
    let c32 = &f.runs[2];
    assert_eq!(
        c32.config.model.as_deref(),
        Some("meta-llama_Meta-Llama-3-8B-Instruct")
    );
    close(
        c32.latency_stat(Metric::Ttft, Stat::Mean),
        802.0955303435089,
    );
    close(
        c32.latency_stat(Metric::TpotInclFirst, Stat::Mean),
        58.54330862348689,
    );
    close(c32.throughput.output_tok_s, 478.7668933750441);
    assert_eq!(
        (c32.workload.input_len, c32.workload.output_len),
        (Some(750), Some(150))
    );
    assert_eq!(c32.requests.total, None);
    let one = import_file(&format!("{MODEL}_cur_8.json"));
    assert_eq!(loads(&one.runs), [LoadTarget::Concurrency(8.0)]);
    close(
        one.runs[0].latency_stat(Metric::Ttft, Stat::Mean),
        319.73248889358524,
    );
}

#[test]
fn the_three_files_of_one_model_count_each_run_once() {
    let files: Vec<InputFile> = ["_cur_8.json", "_results.json", "_summary.json"]
        .iter()
        .map(|suffix| InputFile {
            path: format!("{MODEL}{suffix}"),
            bytes: bytes(&format!("{MODEL}{suffix}")),
        })
        .collect();
    let imported = import_all(&files);
    let runs: Vec<_> = imported.iter().flat_map(|f| &f.runs).collect();
    assert_eq!(runs.len(), 3);
    let results = format!("{MODEL}_results.json");
    assert_eq!(imported[0].joined_into.as_deref(), Some(results.as_str()));
    assert_eq!(imported[2].joined_into.as_deref(), Some(results.as_str()));
    assert_eq!(imported[1].joined.len(), 2);
}

#[test]
fn objects_keyed_by_numbers_that_are_not_summaries_are_not_taken() {
    for text in [
        r#"{"1": {"a": 1}}"#,
        r#"{"01": {"concurrency": 1, "first-time-to-token_mean_in_ms": 2}}"#,
        "{}",
    ] {
        let f = crate::import::import("x.json", text.as_bytes());
        assert_ne!(f.producer, Some(Producer::LlmperfBench), "{text}");
    }
}

/// A condensed summary with a misspelt key, read as llmperf-bench (a fuzzer's find: it gave no
/// run and no reason): each key that is no concurrency is an error naming it.
#[test]
fn keys_that_are_no_concurrency_are_named() {
    let text = br#"{"concurrency": 8, "first-time-to-token_mean_in_ms": 319.7, "latenco_ms_per_token": 37.9}"#;
    let f = crate::import::import_as(crate::import::Format::LlmperfBench, "x_cur_8.json", text);
    assert!(f.runs.is_empty());
    let errors = messages(&f);
    assert!(
        errors.contains("x_cur_8.json#latenco_ms_per_token")
            && errors.contains("expected a concurrency"),
        "{errors}"
    );
}

/// An empty object read as llmperf-bench (the fuzzer's second find) says there is no summary.
#[test]
fn an_empty_object_says_it_holds_no_summary() {
    let f = crate::import::import_as(crate::import::Format::LlmperfBench, "x.json", b"{}");
    assert!(f.runs.is_empty());
    assert!(
        messages(&f).contains("no llmperf summary here"),
        "{}",
        messages(&f)
    );
}
