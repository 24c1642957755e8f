//! llm-d benchmark reports: the YAML converted from an inference-perf stage (its numbers equal
//! the stage file's), the JSON of a vLLM run, an AIPerf one with its converter's count quirk,
//! and a result folder where the native file and both report versions are one run.

use crate::fixtures::{
    close, close_stats, counts, errors, import_file, import_folder, messages, one_run,
};
use crate::model::{LoadTarget, Metric, Producer, Rate, Stat};

const C8: &str =
    "llm-d/inference-perf-c8/benchmark_report_v0.2,_stage_0_lifecycle_metrics.json.yaml";

/// Sorted keys (first line `results:`), seconds, `p0p1`/`p99p9`, and inference-perf's
/// concurrent stage whose `rate_qps` is its request count.
#[test]
fn a_yaml_report_of_an_inference_perf_stage() {
    let f = import_file(C8);
    assert_eq!(f.producer, Some(Producer::LlmdBenchmarkReport));
    assert_eq!(errors(&f), Vec::<String>::new());
    let run = one_run(&f);
    assert_eq!(run.load.target, LoadTarget::Concurrency(8.0));
    assert_eq!(run.load.max_concurrency, None);
    let c = &run.config;
    assert_eq!(c.model.as_deref(), Some("Qwen/Qwen3-8B"));
    assert_eq!(c.engine.as_deref(), Some("llm-d-cuda"));
    assert_eq!(c.label.as_deref(), Some("vllm-replica"));
    assert_eq!(c.hardware.as_deref(), Some("2x NVIDIA-H100-80GB-HBM3"));
    assert_eq!(c.settings.get("tp").map(String::as_str), Some("1"));
    assert_eq!(run.provenance.producer_version.as_deref(), Some("v0.4.0"));
    assert_eq!(
        run.provenance.date.as_ref().map(|d| d.as_str()),
        Some("2026-03-01T10:15:02")
    );
    assert_eq!(
        (run.workload.input_len, run.workload.output_len),
        (Some(500), Some(128))
    );
    assert_eq!(counts(run), (Some(40), Some(40), Some(0)));
    close_stats(
        run,
        &[
            (Metric::Ttft, Stat::Mean, 357.8917936440689),
            (Metric::Ttft, Stat::Median, 357.7775912976904),
            (Metric::Ttft, Stat::P(0.1), 158.11202510264707),
            (Metric::Ttft, Stat::P(99.9), 557.2017726102452),
            (Metric::Tpot, Stat::Mean, 21.45142153474636),
            (Metric::Itl, Stat::Mean, 21.52533675266539),
            (
                Metric::TpotInclFirst,
                Stat::Mean,
                0.024160639237016147 * 1000.0,
            ),
            (Metric::E2e, Stat::Max, 4502.290445760536),
        ],
    );
    close(run.throughput.output_tok_s, 981.5420128705036);
    close(run.throughput.requests_per_s, 7.757692257423463);
    close(run.tokens.input_len.as_ref().and_then(|d| d.mean), 502.45);
    // The native stage file holds the same numbers.
    let native = import_file("llm-d/inference-perf-c8/stage_0_lifecycle_metrics.json");
    for metric in [Metric::Ttft, Metric::Tpot, Metric::Itl, Metric::E2e] {
        for stat in [Stat::Mean, Stat::P(99.0), Stat::Max] {
            close(
                native.runs[0].latency_stat(metric, stat),
                run.latency_stat(metric, stat).unwrap(),
            );
        }
    }
    assert!(messages(&f).contains(
        "3 fields of the llm-d benchmark report are not in benchdeck's model and not read: \
         `run.description`, `run.keywords`, `run.user`"
    ));
}

/// A capped rate from vLLM's benchmark, in ms: its `inter_token_latency` is pooled ITL and its
/// `time_per_output_token` TPOT.
#[test]
fn a_json_report_of_a_vllm_run() {
    let f = import_file("llm-d/vllm-rate10/benchmark_report_v0.2,_vllm_serve_rate10_c32.json");
    assert_eq!(errors(&f), Vec::<String>::new());
    let run = &f.runs[0];
    assert_eq!(
        run.load.target,
        LoadTarget::RequestRate(Rate::PerSecond(10.0))
    );
    assert_eq!(run.load.max_concurrency, Some(32));
    assert_eq!(counts(run), (Some(500), Some(498), Some(2)));
    let ttft = run.latency(Metric::Ttft).unwrap();
    assert_eq!(
        (ttft.mean, ttft.std, ttft.get(Stat::Median)),
        (Some(61.42), Some(18.9), Some(57.3))
    );
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::Mean), Some(14.81));
    assert_eq!(run.latency_stat(Metric::Itl, Stat::P(99.0)), Some(41.5));
    assert_eq!(run.latency_stat(Metric::E2e, Stat::P(99.0)), Some(2611.9));
    assert_eq!(run.throughput.total_tok_s, Some(11447.1));
    assert_eq!(run.throughput.requests_per_s, Some(9.94));
    assert_eq!(run.config.hardware.as_deref(), Some("2x NVIDIA-L40S"));
    assert_eq!(run.config.label, None, "an empty label is none");
    assert_eq!(run.config.gpus(), Some(2));
}

/// From AIPerf: `total` is the successes, `failures` the number of error kinds; its ITL is
/// per-request TPOT. A disaggregated stack counts every replica's GPUs.
#[test]
fn a_report_of_aiperf_on_a_disaggregated_stack() {
    let f = import_file("llm-d/aiperf/report.json");
    assert_eq!(errors(&f), Vec::<String>::new());
    let run = &f.runs[0];
    assert_eq!(run.load.target, LoadTarget::Concurrency(16.0));
    assert_eq!(counts(run), (None, Some(96), None));
    assert!(messages(&f).contains("the number of error kinds"));
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::Mean), Some(12.5));
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::P(0.1)), Some(9.75));
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::P(99.9)), Some(22.5));
    assert!(run.latency(Metric::Itl).is_none());
    assert_eq!(run.latency_stat(Metric::E2e, Stat::Mean), Some(1612.5));
    assert_eq!(run.config.hardware.as_deref(), Some("8x NVIDIA-L40S"));
    let s = &run.config.settings;
    assert_eq!(
        (
            s.get("prefill_replicas"),
            s.get("decode_replicas"),
            s.get("tp")
        ),
        (
            Some(&"1".to_string()),
            Some(&"3".to_string()),
            Some(&"2".to_string())
        )
    );
    assert!(messages(&f)
        .contains("`results.request_performance.aggregate.latency.time_to_first_token.mode`"));
}

#[test]
fn a_version_0_1_report_alone_is_refused_with_the_reason() {
    let f = import_file(
        "llm-d/inference-perf-c8/benchmark_report,_stage_0_lifecycle_metrics.json.yaml",
    );
    assert_eq!(f.producer, Some(Producer::LlmdBenchmarkReport));
    assert!(f.failed());
    assert!(messages(&f).contains("an llm-d benchmark report of version 0.1: not read"));
}

/// The native stage file and both reports converted from it: one run, the 0.2 report's.
#[test]
fn a_result_folder_counts_its_run_once() {
    let names = [
        "benchmark_report,_stage_0_lifecycle_metrics.json.yaml",
        "benchmark_report_v0.2,_stage_0_lifecycle_metrics.json.yaml",
        "stage_0_lifecycle_metrics.json",
    ];
    let imported = import_folder("llm-d/inference-perf-c8", &names, "results");
    let runs: Vec<_> = imported.iter().flat_map(|f| &f.runs).collect();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].provenance.producer, Producer::LlmdBenchmarkReport);
    let [v01, v02, native] = imported.as_slice() else {
        unreachable!()
    };
    for f in &imported {
        assert!(!f.failed(), "{}: {}", f.file, messages(f));
        assert_eq!(errors(f), Vec::<String>::new());
    }
    assert_eq!(native.joined_into.as_deref(), Some(v02.file.as_str()));
    assert_eq!(v01.joined_into.as_deref(), Some(v02.file.as_str()));
    assert_eq!(v02.joined, [native.file.clone(), v01.file.clone()]);
    assert!(messages(v02).contains(
        "llm-d converted this report from `results/stage_0_lifecycle_metrics.json` beside it: \
         one run, counted once. The report's run is kept"
    ));
}
