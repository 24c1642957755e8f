//! Every sample file of the JSON formats benchdeck reads, from the shared format notes
//! (`../shared/formats` beside the project, or `BENCHDECK_SHARED_FORMATS`), imports without an error. The folder
//! is not part of the repository: without it the test prints a notice and passes.

use std::path::{Path, PathBuf};

use super::{import, ImportedFile};
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
    std::env::var_os("BENCHDECK_SHARED_FORMATS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/formats"),
        PathBuf::from,
    )
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            json_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "json" || e == "jsonl")
        {
            out.push(path);
        }
    }
}

fn close(actual: Option<f64>, expected: f64) -> bool {
    actual.is_some_and(|a| (a - expected).abs() <= 1e-9 * expected.abs().max(1.0))
}

#[test]
fn every_shared_sample_of_a_covered_json_format_imports() {
    let root = root();
    if !root.is_dir() {
        println!(
            "notice: {} not found; skipping the shared sample files",
            root.display()
        );
        return;
    }
    let mut files = Vec::new();
    for folder in COVERED {
        json_files(&root.join(folder), &mut files);
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
        let errors: Vec<String> = f
            .all_problems()
            .filter(|p| p.severity == Severity::Error)
            .map(ToString::to_string)
            .collect();
        assert!(errors.is_empty(), "{name}:\n{}", errors.join("\n"));
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
