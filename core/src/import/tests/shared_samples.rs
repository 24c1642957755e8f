//! Every sample file of the shared format notes imports without an error, with its numbers:
//! copies of `../shared/formats` and `../shared/reference-data` in `tests/fixtures/shared/` (or
//! the folders `BENCHDECK_SHARED_FORMATS` and `BENCHDECK_SHARED_REFERENCE` name). The real
//! round-3 files of `../shared/real-world`, which are not to be copied, are read by an ignored
//! test that `cargo xtask conformance` runs.

use std::path::{Path, PathBuf};

use crate::import::{import, ImportedFile};
use crate::model::{LoadTarget, Metric, Producer, Rate, Stat};
use crate::problem::Severity;

/// Sub-folders holding JSON formats with an importer.
const COVERED: [&str; 5] = [
    "vllm",
    "sglang",
    "llmperf",
    "inference-benchmarker",
    "genai-perf",
];

fn root() -> PathBuf {
    std::env::var_os("BENCHDECK_SHARED_FORMATS")
        .map_or_else(|| crate::fixtures::path("shared/formats"), PathBuf::from)
}

/// True for a JSON or JSON Lines file.
fn is_json(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e == "json" || e == "jsonl")
}

/// Fails naming `name` and every error of `f`, if it has any.
fn assert_no_error(name: &str, f: &ImportedFile) {
    let errors: Vec<String> = f
        .all_problems()
        .filter(|p| p.severity == Severity::Error)
        .map(ToString::to_string)
        .collect();
    assert!(errors.is_empty(), "{name}:\n{}", errors.join("\n"));
}

fn close(actual: Option<f64>, expected: f64) -> bool {
    actual.is_some_and(|a| (a - expected).abs() <= 1e-9 * expected.abs().max(1.0))
}

#[test]
fn every_shared_sample_of_a_covered_json_format_imports() {
    let root = root();
    assert!(root.is_dir(), "{} not found", root.display());
    let mut files = Vec::new();
    for folder in COVERED {
        files_under(&root.join(folder), &is_json, &mut files);
    }
    assert!(
        !files.is_empty(),
        "no sample files under {}",
        root.display()
    );
    let mut imported: Vec<(String, ImportedFile)> = Vec::new();
    for path in files {
        let name = path
            .strip_prefix(&root)
            .unwrap_or(&path)
            .to_string_lossy()
            .into_owned();
        let bytes = std::fs::read(&path).expect("readable sample");
        let f = import(&name, &bytes);
        assert!(
            f.producer.is_some(),
            "{name}: not recognised: {:?}",
            f.problems
        );
        assert!(!f.runs.is_empty(), "{name}: no run: {:?}", f.problems);
        assert_no_error(&name, &f);
        imported.push((name, f));
    }
    let find = |prefix: &str| {
        imported
            .iter()
            .filter(|(n, _)| n.starts_with(prefix))
            .map(|(_, f)| f)
            .collect::<Vec<_>>()
    };

    for f in find("sglang/") {
        assert_eq!(f.producer, Some(Producer::SglangServing));
        let run = &f.runs[0];
        assert_eq!(
            run.config.model.as_deref(),
            Some("Qwen/Qwen2.5-7B-Instruct"),
            "from server_info.model_path"
        );
        assert_eq!(
            run.load.target,
            LoadTarget::RequestRate(Rate::PerSecond(4.0))
        );
        assert!(close(
            run.latency_stat(Metric::Ttft, Stat::Mean),
            243.9047003449462
        ));
        assert!(close(
            run.latency_stat(Metric::E2e, Stat::P(99.0)),
            4856.262087189419
        ));
    }
    for f in find("vllm/throughput/") {
        assert_eq!(f.producer, Some(Producer::VllmThroughput));
        assert!(close(f.runs[0].throughput.total_tok_s, 18791.446422180863));
    }
    for f in find("vllm/latency/") {
        assert_eq!(f.producer, Some(Producer::VllmLatency));
        let e2e = f.runs[0].latency(Metric::E2e).expect("latency");
        assert!(close(e2e.mean, 1.4270343909727998 * 1000.0));
        assert!(close(e2e.get(Stat::P(99.0)), 1.4467312137799901 * 1000.0));
    }
    for f in find("llmperf/") {
        assert_eq!(f.producer, Some(Producer::Llmperf));
        let run = &f.runs[0];
        if f.file.ends_with("_summary.json") {
            assert_eq!(run.load.target, LoadTarget::Concurrency(8.0));
            assert!(run.latency(Metric::Tpot).is_none());
            let incl = run.latency(Metric::TpotInclFirst).expect("itl incl. ttft");
            assert!(close(incl.mean, 0.017191771545885047 * 1000.0));
            assert_eq!(
                run.tokens.input_len.as_ref().and_then(|d| d.min),
                Some(221.0)
            );
            assert_eq!(run.requests.succeeded, Some(100));
        } else {
            assert_eq!(run.samples.as_ref().map(|s| s.len()), Some(100));
        }
    }
    for f in find("inference-benchmarker/") {
        assert_eq!(f.producer, Some(Producer::InferenceBenchmarker));
        assert_eq!(
            f.runs[0].load.target,
            LoadTarget::Concurrency(800.0),
            "warm-up excluded"
        );
        assert!(f
            .runs
            .iter()
            .skip(1)
            .all(|r| matches!(r.load.target, LoadTarget::RequestRate(Rate::PerSecond(_)))));
        assert!(close(
            f.runs[0].latency_stat(Metric::Ttft, Stat::Mean),
            4880.447
        ));
    }
    for f in find("genai-perf/") {
        assert_eq!(f.producer, Some(Producer::GenaiPerf));
        let run = &f.runs[0];
        assert_eq!(run.load.target, LoadTarget::Concurrency(16.0));
        assert_eq!(
            run.config.model.as_deref(),
            Some("meta-llama/Llama-3.1-8B-Instruct")
        );
        assert!(close(
            run.latency_stat(Metric::Tpot, Stat::Mean),
            14.563871634685023
        ));
        assert!(close(run.throughput.output_tok_s, 1044.2455361310028));
        assert_eq!(run.requests.succeeded, Some(480));
    }
}

/// GuideLLM's shared samples: the same 0.7 report as `benchmarks.json`, `benchmarks.yaml` and
/// `benchmarks.csv` (text formats, so not in [`COVERED`]), each imported without an error and
/// giving the same numbers.
#[test]
fn every_shared_guidellm_sample_imports() {
    let dir = root().join("guidellm");
    assert!(dir.is_dir(), "{} not found", dir.display());
    for name in ["benchmarks.json", "benchmarks.yaml", "benchmarks.csv"] {
        let bytes = std::fs::read(dir.join(name)).expect("readable sample");
        let f = import(&format!("guidellm/{name}"), &bytes);
        assert_eq!(
            f.producer,
            Some(Producer::Guidellm),
            "{name}: {:?}",
            f.problems
        );
        assert_no_error(name, &f);
        let [c4, c16] = f.runs.as_slice() else {
            panic!("{name}: expected two benchmarks, got {}", f.runs.len())
        };
        assert_eq!(c4.provenance.producer_version.as_deref(), Some("0.7.3"));
        assert_eq!(c4.config.model.as_deref(), Some("Qwen/Qwen3-8B"));
        assert_eq!(c4.config.hardware.as_deref(), Some("H100"), "labels.gpu");
        assert_eq!(c4.load.target, LoadTarget::Concurrency(4.0));
        assert_eq!(c16.load.target, LoadTarget::Concurrency(16.0));
        assert!(close(c4.load.achieved_rps, 2.049744484685941));
        assert!(close(c4.load.achieved_concurrency, 3.9));
        assert!(close(
            c4.latency_stat(Metric::Ttft, Stat::Mean),
            64.60303068161011
        ));
        // `request_latency` is in seconds.
        assert!(close(
            c4.latency_stat(Metric::E2e, Stat::Mean),
            1.8396380643049877 * 1000.0
        ));
        assert!(close(
            c4.latency_stat(Metric::Tpot, Stat::Mean),
            14.670800980987936
        ));
        assert!(close(
            c4.latency_stat(Metric::TpotInclFirst, Stat::Mean),
            15.091340987020061
        ));
        assert!(close(c4.throughput.output_tok_s, 249.98342111148955));
        assert_eq!(
            (
                c16.requests.succeeded,
                c16.requests.failed,
                c16.requests.incomplete,
                c16.requests.total
            ),
            (Some(22), Some(1), Some(1), Some(24))
        );
        let samples = c16.samples.as_ref().map(|s| s.ok.clone());
        if name.ends_with(".csv") {
            assert_eq!(samples, None);
        } else {
            assert_eq!(samples.map(|ok| ok.len()), Some(24));
        }
    }
}

/// The copy of `../shared/reference-data`, or `BENCHDECK_SHARED_REFERENCE`.
fn reference_root() -> PathBuf {
    std::env::var_os("BENCHDECK_SHARED_REFERENCE").map_or_else(
        || crate::fixtures::path("shared/reference-data"),
        PathBuf::from,
    )
}

/// Every file under `dir` whose name passes `keep`, sorted.
fn files_under(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            files_under(&path, keep, out);
        } else if keep(&path) {
            out.push(path);
        }
    }
}

/// GenAI-Perf's CSV, Locust's `--csv` files and sweep.sh's `run_config.json`, load_test.py's
/// output and report, and the real load-test reports of simple_full_stack_inference import
/// without an error, with their headline numbers.
#[test]
fn shared_csv_markdown_and_load_test_samples_import() {
    let formats = root();
    let reference = reference_root();
    let mut files: Vec<(PathBuf, PathBuf)> = Vec::new();
    let name_starts = |prefix: &'static str| {
        move |p: &Path| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        }
    };
    for (base, folder, keep) in [
        (
            &formats,
            "genai-perf",
            &(|p: &Path| p.extension().is_some_and(|e| e == "csv")) as &dyn Fn(&Path) -> bool,
        ),
        (&formats, "locust", &|_: &Path| true),
        (
            &formats,
            "simple_full_stack_inference",
            &name_starts("load_test_"),
        ),
        (
            &reference,
            "simple_full_stack_inference",
            &(|p: &Path| p.extension().is_some_and(|e| e == "md")) as &dyn Fn(&Path) -> bool,
        ),
    ] {
        let dir = base.join(folder);
        assert!(dir.is_dir(), "{} not found", dir.display());
        let before = files.len();
        let mut found = Vec::new();
        files_under(&dir, keep, &mut found);
        files.extend(found.into_iter().map(|p| (base.clone(), p)));
        assert!(
            files.len() > before,
            "no sample files under {}",
            dir.display()
        );
    }
    let mut imported: Vec<(String, ImportedFile)> = Vec::new();
    for (base, path) in files {
        let name = path
            .strip_prefix(base.parent().unwrap_or(&base))
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        let f = import(&name, &std::fs::read(&path).expect("readable sample"));
        assert!(
            f.producer.is_some(),
            "{name}: not recognised: {:?}",
            f.problems
        );
        assert_no_error(&name, &f);
        let understood_only = ["_stats_history.csv", "_failures.csv", "_exceptions.csv"]
            .iter()
            .any(|s| name.ends_with(s))
            || name.ends_with("run_config.json");
        if understood_only {
            assert!(f.runs.is_empty(), "{name}");
            assert!(!f.problems.is_empty(), "{name}: says what it is");
        } else {
            assert!(!f.runs.is_empty(), "{name}: no run: {:?}", f.problems);
        }
        imported.push((name, f));
    }
    let find = |suffix: &str| {
        imported
            .iter()
            .find(|(n, _)| n.ends_with(suffix))
            .map(|(_, f)| f)
    };
    let p50 = |run: &crate::model::Run| run.latency_stat(Metric::Ttft, Stat::P(50.0));
    let mut checked = 0;

    if let Some(f) = find("profile_export_genai_perf.csv") {
        checked += 1;
        assert_eq!(f.producer, Some(Producer::GenaiPerf));
        let run = &f.runs[0];
        assert_eq!(run.load.target, LoadTarget::Concurrency(16.0));
        assert_eq!(run.latency_stat(Metric::Tpot, Stat::Mean), Some(14.56));
        assert_eq!(run.latency_stat(Metric::E2e, Stat::P(50.0)), Some(2984.94));
        assert_eq!(run.throughput.output_tok_s, Some(1044.25));
        assert_eq!(run.requests.succeeded, Some(480));
    }
    if let Some(f) = find("locust_stats.csv") {
        checked += 1;
        assert_eq!(f.producer, Some(Producer::Locust));
        let run = &f.runs[0];
        assert_eq!(
            run.load.target,
            LoadTarget::Concurrency(10.0),
            "from `_u10`"
        );
        assert_eq!(run.requests.total, Some(1184));
        assert_eq!(run.requests.failed, Some(12));
        assert_eq!(run.latency_stat(Metric::E2e, Stat::Median), Some(3270.0));
    }
    if let Some(f) = find("load_test_output.json") {
        checked += 1;
        assert_eq!(f.producer, Some(Producer::SimpleFullStackLoadTest));
        assert_eq!(f.runs.len(), 2, "warm-up excluded");
        assert_eq!(f.runs[1].requests.failed, Some(1));
        assert_eq!(p50(&f.runs[0]), Some(5028.3));
    }
    if let Some(f) = find("load_test_report.md") {
        checked += 1;
        assert_eq!(f.runs.len(), 14);
    }
    if let Some(f) = find("deepseek-pd-disaggregated.md") {
        checked += 1;
        // The blog's "406 ms TTFT p50" for disaggregated prefill at concurrency 1.
        assert_eq!(f.runs.len(), 9);
        let c1 = &f.runs[0];
        assert_eq!(c1.load.target, LoadTarget::Concurrency(1.0));
        assert_eq!(c1.config.model.as_deref(), Some("deepseek"));
        assert_eq!(p50(c1), Some(406.0));
        assert_eq!(c1.latency_stat(Metric::E2e, Stat::P(99.0)), Some(2200.0));
        assert_eq!(p50(&f.runs[4]), Some(632.0));
        let r10 = &f.runs[8];
        assert_eq!(
            r10.load.target,
            LoadTarget::RequestRate(Rate::PerSecond(10.0))
        );
        assert_eq!(r10.latency_stat(Metric::Ttft, Stat::P(99.0)), Some(1369.0));
    }
    if let Some(f) = find("moe-ray-deepseek-loadtest-result.md") {
        checked += 1;
        // The blog's "5,028 ms TTFT p50" without disaggregation, and its 64.7% success:
        // 427 of 660 requests with the 5 warm-up requests, 422 of 655 without.
        assert_eq!(f.runs.len(), 14);
        let c1 = f
            .runs
            .iter()
            .find(|r| r.load.target == LoadTarget::Concurrency(1.0))
            .unwrap();
        assert_eq!(p50(c1), Some(5028.0));
        let ok: u64 = f.runs.iter().filter_map(|r| r.requests.succeeded).sum();
        let total: u64 = f.runs.iter().filter_map(|r| r.requests.total).sum();
        assert_eq!((ok, total), (422, 655));
        assert_eq!(
            ((ok + 5) as f64 / (total + 5) as f64 * 1000.0).round(),
            647.0
        );
    }
    if let Some(f) = find("complete_results.md") {
        checked += 1;
        assert_eq!(f.runs.len(), 14);
        let c16 = &f.runs[9];
        assert_eq!(c16.load.target, LoadTarget::Concurrency(16.0));
        assert_eq!(p50(c16), Some(56039.0));
        assert!(c16
            .problems
            .iter()
            .any(|p| p.message.contains("`Success%` is 75%")));
        assert_eq!(p50(&f.runs[10]), Some(57136.0));
    }
    if let Some(f) = find("Qwen_vllm_baseline.md") {
        checked += 1;
        let c1 = &f.runs[5];
        assert_eq!(c1.load.target, LoadTarget::Concurrency(1.0));
        assert_eq!(p50(c1), Some(408.0));
        assert_eq!(c1.requests.succeeded, Some(20), "from the raw `20/20`");
    }
    if let Some(f) = find("simple_full_stack_inference/results.md") {
        checked += 1;
        assert_eq!(f.producer, Some(Producer::SimpleFullStackCsv));
        assert_eq!(f.runs.len(), 4);
        let rate = &f.runs[3];
        assert_eq!(rate.requests.succeeded, Some(8));
        assert_eq!(rate.requests.total, Some(20));
        assert_eq!(p50(rate), Some(61675.0));
    }
    let expected = [formats.join("genai-perf"), formats.join("locust")]
        .iter()
        .filter(|d| d.is_dir())
        .count()
        + 2 * usize::from(formats.join("simple_full_stack_inference").is_dir())
        + 5 * usize::from(reference.join("simple_full_stack_inference").is_dir());
    assert_eq!(checked, expected, "every headline check ran");
}

/// `../shared/real-world/round-N` beside the project, or `BENCHDECK_SHARED_ROUNDN`: real files
/// of the 2025-2026 formats, never copied into the repository.
fn round_root(n: u32) -> PathBuf {
    std::env::var_os(format!("BENCHDECK_SHARED_ROUND{n}")).map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../shared/real-world/round-{n}")),
        PathBuf::from,
    )
}

/// The three real round-3 samples import without an error, with the numbers read off them by
/// hand: inference-perf's KubeCon summary (one compact line, seconds), AIPerf's early records
/// (`ttft`, `timestamp_ns`, 11 cancellations) and llm-d's example report (comments, `.inf`).
#[test]
#[ignore = "reads ../shared/real-world/round-3, which is not copied into the repository; \
            `cargo xtask conformance` runs it"]
fn round3_real_samples_import() {
    let dir = round_root(3);
    assert!(dir.is_dir(), "{} not found", dir.display());
    let read = |name: &str| {
        let bytes = std::fs::read(dir.join(name)).expect("readable sample");
        let f = import(&format!("round-3/{name}"), &bytes);
        assert_no_error(name, &f);
        assert_eq!(f.runs.len(), 1, "{name}: {:?}", f.problems);
        f
    };
    let f = read("kubernetes-sigs__inference-perf__vllm+eagle_summary_lifecycle_metrics.json");
    assert_eq!(f.producer, Some(Producer::InferencePerf));
    let run = &f.runs[0];
    assert_eq!(
        run.load.target,
        LoadTarget::MaxThroughput,
        "a summary has no load point"
    );
    assert_eq!(
        (
            run.requests.total,
            run.requests.succeeded,
            run.requests.failed
        ),
        (Some(22042), Some(22042), Some(0))
    );
    assert!(close(
        run.latency_stat(Metric::Ttft, Stat::Mean),
        2.254388540867197 * 1000.0
    ));
    assert!(close(
        run.latency_stat(Metric::Ttft, Stat::P(0.1)),
        0.02736676388361957 * 1000.0
    ));
    assert!(close(run.throughput.output_tok_s, 2427.5380358797493));
    assert!(run
        .problems
        .iter()
        .any(|p| p.message.contains("count chunks")));

    let f = read("ai-dynamo__aiperf__run1_profile_export.jsonl");
    assert_eq!(f.producer, Some(Producer::Aiperf));
    let run = &f.runs[0];
    assert_eq!(
        (
            run.requests.total,
            run.requests.succeeded,
            run.requests.failed
        ),
        (Some(100), Some(89), Some(11))
    );
    assert!(close(
        run.latency_stat(Metric::Ttft, Stat::Mean),
        2343.219436988764
    ));
    assert!(close(
        run.latency_stat(Metric::Ttft, Stat::Std),
        1049.8164554204095
    ));
    assert!(close(
        run.latency_stat(Metric::E2e, Stat::Mean),
        9059.654633033708
    ));
    assert!(close(
        run.latency_stat(Metric::Itl, Stat::Mean),
        27.755153106189347
    ));
    assert_eq!(run.tokens.total_output, Some(21624));
    assert_eq!(run.samples.as_ref().map(|s| s.start_s.len()), Some(100));

    let f = read("llm-d__llm-d-benchmark__br_v0_2_example.yaml");
    assert_eq!(f.producer, Some(Producer::LlmdBenchmarkReport));
    let run = &f.runs[0];
    assert_eq!(
        run.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(10.0))
    );
    assert_eq!(run.config.model.as_deref(), Some("Qwen/Qwen3-0.6B"));
    assert_eq!(
        run.config.hardware.as_deref(),
        Some("16x NVIDIA-H100-80GB-HBM3")
    );
    assert_eq!(run.requests.succeeded, Some(500));
    assert!(close(
        run.latency_stat(Metric::Ttft, Stat::Mean),
        0.0368578234128654 * 1000.0
    ));
}

/// The real round-4 samples that have an importer, with numbers read off them by hand:
/// InferenceX's aggregate of Kimi-K2.5 on MI355X (seconds, per-GPU throughput, tp 8), MLPerf's
/// llama2-70b Server summary (nanoseconds), llm-load-test's 107 requests, AIPerf's timeslices.
#[test]
#[ignore = "reads ../shared/real-world/round-4, which is not copied into the repository; \
            `cargo xtask conformance` runs it"]
fn round4_real_samples_import() {
    let dir = round_root(4);
    assert!(dir.is_dir(), "{} not found", dir.display());
    let name = "SemiAnalysisAI__InferenceX__agg_kimik2.5_8k1k_int4_vllm_tp8_spec-mtp_conc32.json";
    let bytes = std::fs::read(dir.join(name)).expect("readable sample");
    let f = import(&format!("round-4/{name}"), &bytes);
    assert_no_error(name, &f);
    assert_eq!(f.producer, Some(Producer::InferenceX));
    let run = &f.runs[0];
    assert_eq!(run.load.target, LoadTarget::Concurrency(32.0));
    assert!(close(
        run.latency_stat(Metric::Ttft, Stat::Mean),
        2.509421745484724 * 1000.0
    ));
    assert!(close(
        run.latency_stat(Metric::E2e, Stat::P(99.9)),
        253.66836722957274 * 1000.0
    ));
    assert!(close(run.throughput.output_tok_s, 17.57057269511527 * 8.0));
    assert!(close(
        run.throughput.output_tok_s_per_user,
        4.46216694039914
    ));
    assert_eq!(run.config.model.as_deref(), Some("moonshotai/Kimi-K2.5"));
    assert_eq!(run.workload.engine_version.as_deref(), Some("0.21.0"));
    assert_eq!(run.workload.input_len, Some(8192));

    // MLPerf v4.1, Dell XE9680 with 8 H200, llama2-70b Server: nanoseconds, a VALID result.
    let name = "mlcommons__inference_results_v4.1__dell-xe9680-h200x8_llama2-70b-99_server_mlperf_log_summary.txt";
    let bytes = std::fs::read(dir.join(name)).expect("readable sample");
    let f = import(&format!("round-4/{name}"), &bytes);
    assert_no_error(name, &f);
    assert_eq!(f.producer, Some(Producer::Mlperf));
    let run = &f.runs[0];
    assert!(run.problems.is_empty(), "{:?}", run.problems);
    assert_eq!(
        run.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(102.5))
    );
    assert!(close(run.throughput.output_tok_s, 29739.88));
    assert!(close(run.throughput.requests_per_s, 101.96));
    assert!(close(
        run.latency_stat(Metric::Ttft, Stat::Mean),
        209.032990
    ));
    assert!(close(
        run.latency_stat(Metric::Ttft, Stat::P(99.9)),
        584.135436
    ));
    assert!(close(
        run.latency_stat(Metric::Tpot, Stat::Median),
        131.993787
    ));
    assert!(close(
        run.latency_stat(Metric::E2e, Stat::P(99.0)),
        126269.226050
    ));

    // llm-load-test's output of 107 requests at concurrency 20: TTFT in ms, response times in s.
    let name = "openshift-psap__llm-load-test__output.json";
    let bytes = std::fs::read(dir.join(name)).expect("readable sample");
    let f = import(&format!("round-4/{name}"), &bytes);
    assert_no_error(name, &f);
    assert_eq!(f.producer, Some(Producer::LlmLoadTest));
    let run = &f.runs[0];
    assert_eq!(run.load.target, LoadTarget::Concurrency(20.0));
    assert_eq!(run.requests.succeeded, Some(107));
    assert!(close(
        run.latency_stat(Metric::Ttft, Stat::Mean),
        282.2568706262891
    ));
    assert!(close(
        run.latency_stat(Metric::E2e, Stat::Mean),
        8497.874008160885
    ));
    let tok_s = run.throughput.output_tok_s.unwrap();
    assert!((tok_s - 624.1093824944193).abs() < 1e-6, "{tok_s}");

    // AIPerf's timeslices of a cancelled Kimi-K2.5 run at concurrency 16: 33 one-second slices,
    // 25 requests succeeded and 16 failed over them; the TTFT mean weighted by each slice's
    // requests, 3,915.69 ms; output 335.18 tok/s over the 33 s (summed by hand in Python).
    let name = "ajith-sirra-amd__InferenceMAX_Rocm_Team__kimik2.5-tp8-conc16-cancelled_profile_export_aiperf_timeslices.json";
    let bytes = std::fs::read(dir.join(name)).expect("readable sample");
    let f = import(&format!("round-4/{name}"), &bytes);
    assert_no_error(name, &f);
    assert_eq!(f.producer, Some(Producer::Aiperf));
    let run = &f.runs[0];
    assert_eq!(run.load.target, LoadTarget::Concurrency(16.0));
    assert_eq!(run.slices.len(), 33);
    assert_eq!(
        (run.requests.succeeded, run.requests.failed),
        (Some(25), Some(16))
    );
    assert!(close(
        run.latency_stat(Metric::Ttft, Stat::Mean),
        3915.6884273600003
    ));
    assert!(close(run.throughput.output_tok_s, 335.1818181818182));
}

/// The real engine-metrics samples, each group in a folder of its own as its repository keeps
/// them, with the figures computed from them by hand (numpy): Ferran Agullo López's llama-2-7b
/// run (vLLM's gauges each second, `nvidia-smi` and `dmon` logs, the server's log) and an
/// InferenceX profiling run of gpt-oss-120b with speculative decoding (scrapes before and after).
#[test]
#[ignore = "reads ../shared/real-world/engine-metrics, which is not copied into the repository; \
            `cargo xtask conformance` runs it"]
fn enginemetrics_real_samples_import() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/real-world/engine-metrics");
    let group = |prefix: &str, folder: &str| -> Vec<crate::input::InputFile> {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("engine-metrics samples")
            .filter_map(|e| {
                let name = e.ok()?.file_name().into_string().ok()?;
                let rest = name.strip_prefix(prefix)?.to_string();
                let bytes = std::fs::read(dir.join(&name)).ok()?;
                Some(crate::input::InputFile {
                    path: format!("{folder}/{rest}"),
                    bytes,
                })
            })
            .collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files
    };
    let ferran = crate::import::import_all(&group(
        "FerranAgulloLopez__vLLMBatchingMemoryGap__l2-7b_out520_seqs512_",
        "l2-7b",
    ));
    let json = ferran
        .iter()
        .find(|f| f.file.ends_with(".json"))
        .expect("the run's JSON");
    let engine = json.runs[0].engine.as_deref().expect("engine figures");
    assert!((engine.waiting.unwrap().mean - 847.427_299_7).abs() < 1e-6);
    assert_eq!(engine.waiting.unwrap().peak, Some(1_880.0));
    assert_eq!(engine.preemptions, Some(778.0));
    assert!((engine.energy_j.unwrap() - 153_171.149_726).abs() < 0.01);
    assert!((engine.power_w.unwrap().mean - 453.275_964).abs() < 1e-5);
    let per_token = engine
        .joules_per_token(json.runs[0].tokens.total_output)
        .unwrap();
    assert!((per_token - 0.146_997_264_6).abs() < 1e-9, "{per_token}");
    assert!(ferran.iter().all(|f| !f.failed()), "{ferran:#?}");
    let gloria = crate::import::import_all(&group(
        "GloriaXimingLu__inferencex-profiling__gptoss120b-spec-c16_",
        "c16",
    ));
    let engine = gloria[0].runs[0].engine.as_deref().expect("engine figures");
    assert!((engine.spec_acceptance_pct.unwrap() - 17.543_058_863).abs() < 1e-6);
    assert!((engine.spec_acceptance_length.unwrap() - 2.228_014_120).abs() < 1e-6);
    // 192 requests finished between the scrapes, 160 by the client: a warm-up in the window.
    assert_eq!(engine.server_requests, Some(192.0));
}
