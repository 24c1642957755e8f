//! Inputs the fuzzers (`cargo xtask fuzz`) once crashed on, kept in
//! `tests/fixtures/fuzz-regressions/<target>/` and imported here, both as the format the target
//! forced and by sniffing, so a fixed crash stays fixed.

use crate::import::{import, import_as, Format};

/// The targets that fuzz what a report author or a reader controls, not an importer: their
/// inputs are replayed by their own modules' tests (`report/flowchart/tests.rs`…).
const OTHER_TARGETS: [&str; 10] = [
    "markdown",
    "front_matter",
    "directive",
    "inline_value",
    "flowchart",
    "wire",
    "url_state",
    "serve_path",
    "siblings",
    "yaml",
];

/// The fuzz target a folder belongs to, as its format.
fn format_of(target: &str) -> Option<Format> {
    Some(match target {
        "vllm_serve" => Format::VllmServe,
        "vllm_offline" => Format::VllmOffline,
        "sglang" => Format::Sglang,
        "genai_perf" => Format::GenaiPerf,
        "genai_perf_csv" => Format::GenaiPerfCsv,
        "llmperf" => Format::Llmperf,
        "inference_benchmarker" => Format::InferenceBenchmarker,
        "guidellm" => Format::Guidellm,
        "locust" => Format::Locust,
        "k6" => Format::K6,
        "sfs_csv" => Format::SfsCsv,
        "sfs_load_test" => Format::SfsLoadTest,
        "tidy_csv" => Format::TidyCsv,
        "console" => Format::Console,
        "inference_perf" => Format::InferencePerf,
        "llmd_report" => Format::LlmdReport,
        "aiperf_records" => Format::AiperfRecords,
        "perf_analyzer" => Format::PerfAnalyzer,
        "llmperf_bench" => Format::LlmperfBench,
        "console_table" => Format::ConsoleTable,
        "any" => Format::Sniffed,
        _ => return None,
    })
}

#[test]
fn every_input_a_fuzzer_crashed_on_imports_without_panicking() {
    let root = crate::fixtures::path("fuzz-regressions");
    let mut seen = 0;
    for target in std::fs::read_dir(&root).expect("the regressions folder exists") {
        let target = target.expect("a readable folder").path();
        let name = target
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if OTHER_TARGETS.contains(&name.as_str()) {
            continue;
        }
        let format = format_of(&name).unwrap_or_else(|| panic!("`{name}` is not a fuzz target"));
        for input in std::fs::read_dir(&target).expect("a readable folder") {
            let path = input.expect("a readable file").path();
            let bytes = std::fs::read(&path).expect("a readable file");
            let forced = import_as(format, "crash", &bytes);
            assert!(
                !forced.runs.is_empty() || forced.all_problems().next().is_some(),
                "{}: no run and no reason",
                path.display()
            );
            let sniffed = import("crash", &bytes);
            assert!(!sniffed.runs.is_empty() || sniffed.all_problems().next().is_some());
            seen += 1;
        }
    }
    assert!(
        seen > 0,
        "no regression inputs found under {}",
        root.display()
    );
}
