use crate::import::{import, ImportedFile};
use crate::model::{LoadTarget, Location, Metric, Producer, Rate, Stat};
use crate::problem::Severity;

fn fixture(name: &str) -> ImportedFile {
    crate::fixtures::import_named(&format!("console/{name}"), name)
}

#[test]
fn commented_out_blocks_in_a_shell_script_are_runs_with_their_load_points() {
    let f = fixture("sweep-commented.sh");
    assert_eq!(f.producer, Some(Producer::VllmServe));
    assert_eq!(f.runs.len(), 2, "{:?}", f.problems);
    let (first, second) = (&f.runs[0], &f.runs[1]);
    assert_eq!(first.provenance.location, Location::line(8));
    assert_eq!(first.load.target, LoadTarget::Concurrency(8.0));
    assert_eq!(second.load.target, LoadTarget::Concurrency(32.0));
    assert_eq!(first.requests.succeeded, Some(64));
    assert_eq!(second.requests.failed, Some(1));
    assert_eq!(first.throughput.output_tok_s, Some(652.75));
    assert_eq!(first.throughput.total_tok_s, Some(1958.25));
    assert_eq!(first.tokens.total_input, Some(16384));
    assert_eq!(first.latency_stat(Metric::Ttft, Stat::Mean), Some(120.40));
    assert_eq!(first.latency_stat(Metric::Ttft, Stat::Median), Some(110.25));
    assert_eq!(
        first.latency(Metric::Ttft).unwrap().percentile(99.0),
        Some(310.90)
    );
    assert_eq!(first.latency_stat(Metric::Tpot, Stat::Mean), Some(11.20));
    // `-0.00` is zero, not negative.
    let p99_itl = first
        .latency(Metric::Itl)
        .unwrap()
        .percentile(99.0)
        .unwrap();
    assert!(p99_itl == 0.0 && p99_itl.is_sign_positive());
    assert!(f.all_problems().all(|p| p.severity != Severity::Error));
}

#[test]
fn markdown_headings_give_the_rate_and_unknown_sections_are_warnings() {
    let f = fixture("by-rate.md");
    assert_eq!(f.runs.len(), 2, "{:?}", f.problems);
    let rates: Vec<LoadTarget> = f.runs.iter().map(|r| r.load.target).collect();
    assert_eq!(
        rates,
        [
            LoadTarget::RequestRate(Rate::PerSecond(2.0)),
            LoadTarget::RequestRate(Rate::PerSecond(8.0))
        ]
    );
    // ANSI colours around a value are taken off.
    assert_eq!(f.runs[0].requests.succeeded, Some(100));
    assert_eq!(f.runs[1].latency_stat(Metric::Ttft, Stat::Mean), Some(75.0));
    let accuracy = f
        .problems
        .iter()
        .find(|p| p.message.contains("Accuracy"))
        .expect("the unknown line is reported");
    assert_eq!(accuracy.severity, Severity::Warning);
    assert_eq!(accuracy.location, Location::line(21));
    assert_eq!(
        accuracy.message,
        "`accuracy rate (%)` (in the section `Accuracy`) is not a value of the vLLM or SGLang \
         result; left out"
    );
}

/// A fork's result block puts the standard lines under sections of its own: they are read where
/// they stand, and only the fork's own line is a warning.
#[test]
fn standard_lines_under_a_forks_sections_are_read() {
    let f = fixture("fork-sections.log");
    let [run] = f.runs.as_slice() else {
        panic!("expected one run: {:?}", f.problems)
    };
    assert_eq!(run.load.target, LoadTarget::Concurrency(16.0));
    assert_eq!(run.requests.succeeded, Some(200));
    assert_eq!(run.throughput.output_tok_s, Some(1843.27));
    assert_eq!(run.throughput.requests_per_s, Some(14.38));
    assert_eq!(run.latency_stat(Metric::E2e, Stat::Mean), Some(1102.54));
    assert_eq!(run.latency_stat(Metric::E2e, Stat::P(99.0)), Some(1980.12));
    assert_eq!(run.latency_stat(Metric::Ttft, Stat::Median), Some(61.7));
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::Mean), Some(8.21));
    let problems: Vec<String> = f.all_problems().map(ToString::to_string).collect();
    assert_eq!(
        problems,
        [
            "fork-sections.log:14: warning: `gpu memory used (gb)` (in the section \
          `Performance Metrics`) is not a value of the vLLM or SGLang result; left out"
        ]
    );
}

#[test]
fn an_sglang_log_with_its_own_sections() {
    let f = fixture("sglang.log");
    assert_eq!(f.producer, Some(Producer::SglangServing));
    let run = &f.runs[0];
    assert_eq!(run.provenance.producer, Producer::SglangServing);
    assert_eq!(run.config.engine.as_deref(), Some("sglang"));
    assert_eq!(
        run.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(10.0))
    );
    assert_eq!(run.load.max_concurrency, None, "`not set`");
    assert_eq!(run.throughput.input_tok_s, Some(2496.34));
    assert_eq!(run.latency_stat(Metric::E2e, Stat::Mean), Some(760.33));
    let itl = run.latency(Metric::Itl).unwrap();
    assert_eq!(itl.percentile(95.0), Some(7.80));
    assert_eq!(itl.max, Some(60.11));
    assert!(
        f.all_problems().all(|p| p.severity != Severity::Error),
        "{:?}",
        f.problems
    );
}

#[test]
fn a_block_cut_off_keeps_what_it_read_and_says_where_it_starts() {
    let f = fixture("cut-off.txt");
    assert_eq!(f.runs.len(), 1);
    let run = &f.runs[0];
    assert_eq!(
        run.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(4.0))
    );
    assert_eq!(run.latency_stat(Metric::Ttft, Stat::Mean), Some(33.3));
    let cut = f
        .problems
        .iter()
        .find(|p| p.message.contains("no closing"))
        .unwrap();
    assert_eq!(
        (cut.severity, &cut.location),
        (Severity::Error, &Location::line(3))
    );
    let four = f
        .problems
        .iter()
        .find(|p| p.message.contains("`four`"))
        .unwrap();
    assert_eq!(four.location, Location::line(6));
}

#[test]
fn a_block_without_any_load_is_read_at_rate_infinity_with_a_warning() {
    let text = "============ Serving Benchmark Result ============\n\
                Successful requests:   3\n\
                Mean TTFT (ms):        10\n\
                ==================================================\n";
    let f = import("run.txt", text.as_bytes());
    assert_eq!(
        f.runs[0].load.target,
        LoadTarget::RequestRate(Rate::Infinite)
    );
    let warning = &f.runs[0]
        .problems
        .iter()
        .find(|p| p.message.contains("no load point"))
        .unwrap();
    assert_eq!(warning.severity, Severity::Warning);
}

#[test]
fn text_without_a_block_is_not_taken_for_console_output() {
    assert!(!super::is_console("Serving Benchmark Result in prose\n"));
    assert!(super::is_console(
        "> ====== Serving Benchmark Result ======\n"
    ));
}

#[test]
fn a_bad_value_is_an_error_at_its_own_line_naming_its_label() {
    let text = "============ Serving Benchmark Result ============\n\
                Backend:                                 sglang\n\
                Maximum request concurrency:             4\n\
                Successful requests:                     2.5\n\
                Mean TTFT (ms):                          -1\n\
                Median TTFT (ms):                        45,50\n\
                P99.9 TTFT (ms):                         -2\n\
                ==================================================\n";
    let f = crate::import::import("s.log", text.as_bytes());
    let problems: Vec<String> = f.all_problems().map(ToString::to_string).collect();
    for expected in [
        "s.log:4: error: `successful requests`: expected a whole number of at least 0, found 2.5",
        "s.log:5: error: `mean ttft (ms)`: expected a finite latency of at least 0 ms, found -1",
        "s.log:6: error: `median ttft (ms)`: expected a number, found `45,50`",
        "s.log:7: error: `p99.9 ttft (ms)`: expected a finite latency of at least 0 ms, found -2",
    ] {
        assert!(
            problems.iter().any(|p| p == expected),
            "{expected}: {problems:?}"
        );
    }
}

#[test]
fn a_block_is_named_by_the_namespace_vllm_printed_before_it() {
    let block = |ttft: &str| {
        format!(
            "============ Serving Benchmark Result ============\n\
             Successful requests:                     100\n\
             Benchmark duration (s):                  20.5\n\
             Mean TTFT (ms):                          {ttft}\n\
             ==================================================\n"
        )
    };
    let log = format!(
        "INFO 12-01 10:00:00 Namespace(subparser='bench', seed=0, num_prompts=100, \
         dataset_name='random', model='glm-5.2-fp8', tokenizer=None, request_rate=inf, \
         max_concurrency=16, random_input_len=1024, random_output_len=128)\n\
         100%|██████████| 100/100\n{}\
         INFO 12-01 10:05:00 Namespace(num_prompts=100, dataset_name='random', \
         model='glm-5.2-fp8', request_rate=4.0, max_concurrency=None)\n{}",
        block("41.5"),
        block("88.0")
    );
    let f = import("glm.log", log.as_bytes());
    assert_eq!(f.runs.len(), 2, "{:?}", f.problems);
    let (first, second) = (&f.runs[0], &f.runs[1]);
    assert_eq!(first.config.model.as_deref(), Some("glm-5.2-fp8"));
    assert_eq!(first.config.dataset.as_deref(), Some("random"));
    assert_eq!(first.load.target, LoadTarget::Concurrency(16.0));
    assert_eq!(
        second.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(4.0))
    );
    assert_eq!(second.config.model.as_deref(), Some("glm-5.2-fp8"));
    assert!(
        f.all_problems()
            .all(|p| !p.message.contains("names no load point")),
        "{:?}",
        f.all_problems()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    );
}

#[test]
fn the_speculative_decoding_section_gives_the_acceptance() {
    // The lines vLLM prints since vllm#31739; counts win over the rounded rate.
    let text = "============ Serving Benchmark Result ============\n\
        Successful requests:                     100\n\
        Maximum request concurrency:             4\n\
        Benchmark duration (s):                  20.00\n\
        Mean TTFT (ms):                          80.00\n\
        ---------------Speculative Decoding---------------\n\
        Acceptance rate (%):                     72.29\n\
        Acceptance length:                       6.06\n\
        Drafts:                                  5282\n\
        Draft tokens:                            36974\n\
        Accepted tokens:                         26729\n\
        Per-position acceptance (%):\n\
        \x20 Position 0:                            96.57\n\
        \x20 Position 1:                            91.40\n\
        ==================================================\n";
    let f = import("bench.log", text.as_bytes());
    assert!(f.all_problems().next().is_none(), "{:?}", f.problems);
    let engine = f.runs[0].engine.as_deref().expect("acceptance");
    let rate = engine.spec_acceptance_pct.unwrap();
    assert!((rate - 100.0 * 26_729.0 / 36_974.0).abs() < 1e-9, "{rate}");
    let length = engine.spec_acceptance_length.unwrap();
    assert!(
        (length - (1.0 + 26_729.0 / 5_282.0)).abs() < 1e-9,
        "{length}"
    );
}
