//! AIPerf's and GenAI-Perf's console tables: as rich draws them wide, as a captured 80-column
//! log wraps them (names over several lines, a number cut with `…`, a number wrapped, dim `N/A`),
//! and GenAI-Perf's older sentence-case names in a README with one table per concurrency.

use crate::fixtures::{import_file, messages};
use crate::model::{LoadTarget, Metric, Producer, Rate, Stat};
use crate::problem::Severity;

fn no_errors(f: &crate::import::ImportedFile) {
    assert!(
        f.all_problems().all(|p| p.severity == Severity::Warning),
        "{}",
        messages(f)
    );
}

#[test]
fn aiperfs_table_and_its_error_summary() {
    let f = import_file("aiperf/console.txt");
    assert_eq!(f.producer, Some(Producer::Aiperf));
    no_errors(&f);
    let [run] = f.runs.as_slice() else {
        panic!("one run: {}", messages(&f))
    };
    assert_eq!(run.provenance.to_string(), "aiperf/console.txt:3");
    let ttft = run.latency(Metric::Ttft).unwrap();
    assert_eq!(
        (
            ttft.mean,
            ttft.min,
            ttft.max,
            ttft.get(Stat::P(99.0)),
            ttft.get(Stat::Median),
            ttft.std
        ),
        (
            Some(58.31),
            Some(29.71),
            Some(87.64),
            Some(86.49),
            Some(56.09),
            Some(16.88)
        )
    );
    assert_eq!(run.latency_stat(Metric::Ttst, Stat::Mean), Some(11.49));
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::P(90.0)), Some(11.88));
    assert_eq!(run.latency_stat(Metric::E2e, Stat::Max), Some(515.42));
    // The wrapped row: `Output Token Throughput Per User` / `(tokens/sec/user)`.
    assert_eq!(run.throughput.output_tok_s_per_user, Some(87.06));
    assert_eq!(run.throughput.output_tok_s, Some(249.98));
    assert_eq!(run.throughput.requests_per_s, Some(7.64));
    assert_eq!(
        run.tokens.output_len.as_ref().and_then(|d| d.max),
        Some(38.0)
    );
    assert_eq!(
        (
            run.requests.succeeded,
            run.requests.failed,
            run.requests.total
        ),
        (Some(10), Some(2), Some(12))
    );
    let text = messages(&f);
    assert!(
        text.contains("failed requests by kind: 500 Internal Server Error (1), 499 RequestCancellationError (1)"),
        "{text}"
    );
    assert!(text.contains("no load point"), "{text}");
}

#[test]
fn genai_perfs_table_with_a_wrapped_name_and_na_cells() {
    let f = import_file("genai-perf/console.txt");
    assert_eq!(f.producer, Some(Producer::GenaiPerf));
    no_errors(&f);
    let run = &f.runs[0];
    let e2e = run.latency(Metric::E2e).unwrap();
    assert_eq!(
        (e2e.mean, e2e.min, e2e.get(Stat::P(75.0))),
        (Some(2973.53), Some(2210.48), Some(3170.58)),
        "thousands separators"
    );
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::Mean), Some(14.46));
    assert_eq!(run.throughput.output_tok_s_per_user, Some(69.21));
    assert_eq!(run.throughput.output_tok_s, Some(1094.66));
    assert_eq!(run.throughput.requests_per_s, Some(5.38));
    assert_eq!(run.requests.succeeded, Some(320));
    assert_eq!(run.requests.failed, None, "GenAI-Perf counts no failures");
}

/// An 80-column capture: every name wrapped, `71.…` cut, `6.2`/`7` wrapped, dim `N/A`, the
/// command before it (a capped rate) and a row benchdeck does not model.
#[test]
fn a_narrow_capture_with_the_command_before_it() {
    let f = import_file("aiperf/console-80-columns.log");
    no_errors(&f);
    let run = &f.runs[0];
    assert_eq!(
        run.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(12.0))
    );
    assert_eq!(run.load.max_concurrency, Some(8));
    assert_eq!(run.config.model.as_deref(), Some("Qwen/Qwen3-0.6B"));
    assert_eq!(run.latency_stat(Metric::Ttft, Stat::Mean), Some(118.25));
    assert_eq!(run.latency_stat(Metric::E2e, Stat::Mean), Some(1912.75));
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::Median), Some(14.0));
    let per_user = run.latency(Metric::Ttst).unwrap();
    assert_eq!(per_user.max, Some(19.75));
    assert_eq!(run.throughput.output_tok_s_per_user, Some(70.25));
    assert_eq!(run.throughput.output_tok_s, Some(803.5));
    assert_eq!(
        run.throughput.requests_per_s,
        Some(6.27),
        "`6.2` and `7` joined"
    );
    assert_eq!(
        (run.requests.succeeded, run.requests.failed),
        (Some(94), Some(2))
    );
    let text = messages(&f);
    assert!(
        text.contains(
            "console-80-columns.log:6: warning: 1 field of the `LLM Metrics` table is not in \
             benchdeck's model and not read: `Output Token Count (tokens)`"
        ),
        "{text}"
    );
    assert!(
        text.contains("503 Service Unavailable (1), 499 RequestCancellationError (1)"),
        "{text}"
    );
}

/// GenAI-Perf's older names (`Time to first token (ms)`, `Output sequence length` without a
/// unit), one table per command in a README: two runs at their concurrencies.
#[test]
fn a_readme_with_one_table_per_concurrency() {
    let f = import_file("genai-perf/README-sweep.md");
    assert_eq!(f.producer, Some(Producer::GenaiPerf));
    no_errors(&f);
    let loads: Vec<LoadTarget> = f.runs.iter().map(|r| r.load.target).collect();
    assert_eq!(loads, [1.0, 4.0].map(LoadTarget::Concurrency));
    assert!(f
        .runs
        .iter()
        .all(|r| r.config.model.as_deref() == Some("gpt2")));
    let c4 = &f.runs[1];
    assert_eq!(c4.latency_stat(Metric::Ttft, Stat::Mean), Some(25.5));
    assert_eq!(c4.latency_stat(Metric::E2e, Stat::Max), Some(1002.5));
    assert_eq!(
        c4.tokens.output_len.as_ref().and_then(|d| d.mean),
        Some(100.75)
    );
    assert_eq!(c4.throughput.output_tok_s, Some(495.25));
    assert_eq!(c4.throughput.requests_per_s, Some(4.92));
    assert!(f.all_problems().next().is_none(), "{}", messages(&f));
}

#[test]
fn a_title_without_its_box_is_not_a_table() {
    assert!(!super::is_table(
        "NVIDIA AIPerf | LLM Metrics\nno box here\n"
    ));
    let f = crate::import::import_as(
        crate::import::Format::ConsoleTable,
        "x.txt",
        "NVIDIA AIPerf | LLM Metrics\n┏━━┓\n┃ x ┃\n".as_bytes(),
    );
    assert!(f.runs.is_empty() && f.failed(), "{}", messages(&f));
}
