//! Tests of sniffing and of every importer together; the suites over whole fixture sets are
//! in `tests/`: fuzz regressions, truncation and wrong-type robustness, the shared samples, the
//! streaming import against whole parsing.

mod fuzz_regressions;
mod robustness;
mod shared_samples;
mod streaming;

use super::*;
use crate::model::{LoadTarget, Metric, Rate, Stat};
use crate::problem::Severity;

fn fixture(path: &str) -> (String, Vec<u8>) {
    (path.to_string(), crate::fixtures::bytes(path))
}

fn import_fixture(path: &str) -> ImportedFile {
    let (name, bytes) = fixture(path);
    import(&name, &bytes)
}

#[test]
fn vllm_single_result_with_per_request_arrays() {
    let f = import_fixture("vllm/concurrency2-qwen.json");
    assert_eq!(f.producer, Some(Producer::VllmServe));
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    let [run] = f.runs.as_slice() else {
        panic!("expected one run, got {}", f.runs.len())
    };
    // `inf` rate with a concurrency cap is a concurrency sweep point.
    assert_eq!(run.load.target, LoadTarget::Concurrency(2.0));
    assert_eq!(
        run.config.model.as_deref(),
        Some("Qwen/Qwen2.5-7B-Instruct")
    );
    assert_eq!(run.config.engine.as_deref(), Some("openai-chat"));
    assert_eq!(run.config.label, None, "a null label is no label");
    assert_eq!(run.config.hardware.as_deref(), Some("1x A10G"));
    // `failed` is absent: derived from num_prompts - completed.
    assert_eq!(run.requests.total, Some(4));
    assert_eq!(run.requests.succeeded, Some(3));
    assert_eq!(run.requests.failed, Some(1));
    let ttft = run.latency(Metric::Ttft).unwrap();
    assert_eq!(ttft.mean, Some(210.5));
    assert_eq!(ttft.std, None, "NaN std is missing, not a number");
    assert_eq!(ttft.get(Stat::P(99.9)), Some(261.0));
    assert_eq!(run.throughput.goodput_req_s, None);
    // Per-request arrays are seconds, converted to ms, failures kept.
    let samples = run.samples.as_ref().unwrap();
    assert_eq!(samples.ok, vec![true, true, true, false]);
    assert_eq!(samples.ttft_ms[1], 171.5);
    assert_eq!(samples.e2e_ms[2], 1390.0);
    let tpot = samples.tpot_ms[0];
    assert!((tpot - (1310.0 - 200.0) / 99.0).abs() < 1e-9, "{tpot}");
    assert!(samples.tpot_ms[3].is_nan());
}

/// A script's copy of vLLM's result with `mean_ttft` for `mean_ttft_ms`, in seconds: read in
/// ms, with a warning naming the guess.
#[test]
fn a_vllm_look_alike_in_seconds_is_read_in_ms_with_the_guess_named() {
    let f = import_fixture("vllm/look-alike-seconds.json");
    assert_eq!(f.producer, Some(Producer::VllmServe));
    let run = &f.runs[0];
    crate::fixtures::close_stats(
        run,
        &[
            (Metric::Ttft, Stat::Mean, 81.2),
            (Metric::Ttft, Stat::P(99.0), 240.3),
            (Metric::Tpot, Stat::Median, 14.9),
            (Metric::Itl, Stat::P(99.0), 61.2),
            (Metric::E2e, Stat::Median, 1980.0),
        ],
    );
    let text = crate::fixtures::messages(&f);
    assert!(
        text.contains("vllm/look-alike-seconds.json: warning: the latency keys carry no unit")
            && text.contains("read as seconds, since `median_tpot` is 0.0149"),
        "{text}"
    );
}

#[test]
fn vllm_appended_results_keep_going_past_a_bad_line() {
    let f = import_fixture("vllm/llama-appended.jsonl");
    assert_eq!(f.producer, Some(Producer::VllmServe));
    assert_eq!(f.runs.len(), 3, "three good lines, one broken");
    let loads: Vec<LoadTarget> = f.runs.iter().map(|r| r.load.target).collect();
    assert_eq!(
        loads,
        vec![
            LoadTarget::RequestRate(Rate::PerSecond(5.0)),
            LoadTarget::RequestRate(Rate::Infinite),
            LoadTarget::RequestRate(Rate::PerSecond(15.0)),
        ]
    );
    // The broken line is reported with its line number, not dropped silently.
    let [broken] = f.problems.as_slice() else {
        panic!("expected one file problem, got {:?}", f.problems)
    };
    assert_eq!(broken.severity, Severity::Error);
    assert!(
        broken.place().starts_with("vllm/llama-appended.jsonl:3:"),
        "{}",
        broken.place()
    );
    assert!(
        broken.message.contains("this line is skipped"),
        "{}",
        broken.message
    );

    // The all-failed run is failed, its zeros are not latencies.
    let failed = &f.runs[1];
    assert!(failed.all_failed());
    assert_eq!(failed.latency_stat(Metric::Ttft, Stat::Mean), None);
    assert!(failed
        .problems
        .iter()
        .any(|p| p.severity == Severity::Warning && p.message.contains("shown as failed")));

    // A non-numeric value is an error on its key; the rest of the run imports.
    let last = &f.runs[2];
    assert_eq!(last.latency(Metric::Ttft).unwrap().mean, None);
    assert_eq!(last.latency(Metric::Ttft).unwrap().median, Some(88.0));
    let bad = &last.problems[0];
    assert_eq!(bad.place(), "vllm/llama-appended.jsonl:4#mean_ttft_ms");
    assert_eq!(bad.message, "expected a number, found the string \"fast\"");
    assert_eq!(last.throughput.goodput_req_s, Some(13.5));
    assert_eq!(f.runs[0].config.engine.as_deref(), Some("vllm"));
    assert_eq!(
        f.runs[0].latency(Metric::E2e).unwrap().get(Stat::P(99.0)),
        Some(1440.5)
    );
}

#[test]
fn unrecognised_and_broken_files_say_what_was_expected() {
    let f = import("notes.txt", b"hello");
    assert!(f.failed());
    assert!(f.problems[0].message.contains("format not recognised"));

    let f = import("x.json", b"{\"a\": 1}");
    assert!(f.failed());
    assert_eq!(f.problems[0].place(), "x.json");
    assert!(f.problems[0]
        .message
        .contains("not recognised as benchmark results"));

    let f = import("x.json", b"{\n\"date\": 1,\n");
    assert!(f.failed());
    assert!(
        f.problems[0].place().starts_with("x.json:3:"),
        "{}",
        f.problems[0].place()
    );

    let f = import("bin.json", &[0x7b, 0xff, 0xfe]);
    assert!(f.failed());
    assert!(f.problems[0].message.contains("expected UTF-8"));

    let f = import("empty.json", b"  \n");
    assert!(f.failed());
    assert!(f.problems[0].message.contains("empty"));
}

#[test]
fn wrong_types_are_located_errors_not_panics() {
    let text = br#"{"date": "x", "backend": "vllm", "model_id": "m", "completed": -3,
        "num_prompts": [1], "request_rate": "soon", "mean_ttft_ms": {"a": 1}, "ttfts": "no"}"#;
    let f = import("odd.json", text);
    assert_eq!(f.runs.len(), 1);
    let messages: Vec<String> = f.runs[0].problems.iter().map(|p| p.to_string()).collect();
    let joined = messages.join("\n");
    for expected in [
        "odd.json#completed: error: expected a whole number of at least 0, found -3",
        "odd.json#num_prompts: error: expected a number, found an array",
        "odd.json#request_rate: error: expected a number, found the string \"soon\"",
        "odd.json#mean_ttft_ms: error: expected a number, found an object",
        "odd.json#ttfts: error: expected an array of numbers, found the string \"no\"",
    ] {
        assert!(
            joined.contains(expected),
            "missing {expected:?} in\n{joined}"
        );
    }
}

#[test]
fn a_readme_is_read_for_results_and_otherwise_left_out_without_a_word() {
    let file = |path: &str, bytes: Vec<u8>| crate::input::InputFile {
        path: path.into(),
        bytes,
    };
    let files = [
        // Console output pasted into a README (`by-rate.md` is such a Markdown file).
        file(
            "runs/README.md",
            crate::fixtures::bytes("console/by-rate.md"),
        ),
        file(
            "README",
            b"# Runs\n\nThe runs of 2026-11-02, on one H100.\n".to_vec(),
        ),
        file("notes/readme.txt", Vec::new()),
        file("readme-runs/notes.md", b"Just prose.\n".to_vec()),
    ];
    let imported = import_all(&files);
    let names: Vec<&str> = imported.iter().map(|f| f.file.as_str()).collect();
    assert_eq!(names, ["runs/README.md", "readme-runs/notes.md"]);
    assert!(!imported[0].runs.is_empty());
    assert!(imported[1].failed(), "only a README may hold no results");
    assert!(is_readme("a/b/ReadMe.rst") && !is_readme("a/readme-runs/r.json"));
    assert!(is_readme("README-zh.md") && is_readme("readme_old.txt") && is_readme("README"));
    assert!(!is_readme("readmes.json") && !is_readme("read.me") && !is_readme("réadme"));
}
