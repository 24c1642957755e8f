//! InferenceX aggregates of our own making, with the traits of the real ones: seconds under bare
//! keys, throughput per GPU, interactivity, a 0 that stands for "not measured", an array.

use crate::import::import;
use crate::model::{LoadTarget, Metric, Producer, Stat};
use crate::quantity::Quantity;

fn aggregate(conc: u32, mean_ttft: f64) -> String {
    format!(
        r#"{{"hw": "h200", "conc": {conc}, "image": "lmsysorg/sglang:v0.5.2-cu126",
        "model": "deepseek-ai/DeepSeek-R1", "framework": "sglang", "precision": "fp8",
        "spec_decoding": "none", "disagg": false, "isl": 1024, "osl": 1024,
        "is_multinode": false, "tp": 8, "ep": 1, "dp_attention": "false",
        "tput_per_gpu": 900.0, "output_tput_per_gpu": 450.0, "input_tput_per_gpu": 450.0,
        "mean_ttft": {mean_ttft}, "median_ttft": 0.4, "std_ttft": 0.2, "p90_ttft": 0.9,
        "p99_ttft": 1.5, "p99.9_ttft": 2.0, "mean_tpot": 0.025, "median_tpot": 0.024,
        "p99_tpot": 0.03, "mean_intvty": 40.0, "median_intvty": 41.0, "mean_itl": 0.0,
        "mean_e2el": 26.0, "p99_e2el": 30.0}}"#
    )
}

#[test]
fn one_aggregate_is_one_run_in_milliseconds_with_totals_from_its_gpus() {
    let f = import(
        "agg_dsr1_1k1k_fp8_sglang_tp8_conc64.json",
        aggregate(64, 0.5).as_bytes(),
    );
    assert_eq!(f.producer, Some(Producer::InferenceX));
    let run = &f.runs[0];
    assert_eq!(run.load.target, LoadTarget::Concurrency(64.0));
    assert_eq!(run.latency_stat(Metric::Ttft, Stat::Mean), Some(500.0));
    assert_eq!(run.latency_stat(Metric::Ttft, Stat::P(99.9)), Some(2000.0));
    assert_eq!(run.latency_stat(Metric::Tpot, Stat::Median), Some(24.0));
    assert_eq!(run.latency_stat(Metric::E2e, Stat::P(99.0)), Some(30_000.0));
    // Eight GPUs (tp 8): the file's per-GPU figure is what the page's per-GPU measure shows.
    assert_eq!(run.throughput.output_tok_s, Some(3600.0));
    assert_eq!(Quantity::OutputPerGpu.of(run), Some(450.0));
    assert_eq!(run.throughput.output_tok_s_per_user, Some(40.0));
    assert_eq!(run.config.engine.as_deref(), Some("sglang"));
    assert_eq!(run.config.hardware.as_deref(), Some("h200"));
    assert_eq!(
        run.config.settings.get("precision").map(String::as_str),
        Some("fp8")
    );
    assert_eq!(run.workload.input_len, Some(1024));
    assert_eq!(run.workload.engine_version.as_deref(), Some("0.5.2-cu126"));
}

#[test]
fn a_zero_latency_is_missing_and_said() {
    let f = import("agg.json", aggregate(8, 0.5).as_bytes());
    let run = &f.runs[0];
    assert_eq!(run.latency_stat(Metric::Itl, Stat::Mean), None);
    let problems: Vec<String> = run.problems.iter().map(ToString::to_string).collect();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("agg.json#mean_itl") && p.contains("taken as missing")),
        "{problems:?}"
    );
}

#[test]
fn an_array_is_one_run_per_object_and_a_bad_one_is_an_error_at_its_place() {
    let text = format!(
        "[{}, {}, {{\"conc\": \"many\", \"tput_per_gpu\": 1, \"mean_ttft\": 1}}]",
        aggregate(4, 0.1),
        aggregate(16, 0.3)
    );
    let f = import("all.json", text.as_bytes());
    assert_eq!(f.runs.len(), 2);
    assert_eq!(
        f.runs[1].latency_stat(Metric::Ttft, Stat::Mean),
        Some(300.0)
    );
    let problems: Vec<String> = f.problems.iter().map(ToString::to_string).collect();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("all.json#[2].conc") && p.contains("expected the concurrency")),
        "{problems:?}"
    );
}

#[test]
fn a_throughput_per_gpu_without_a_gpu_count_is_left_out_with_a_warning() {
    let text = aggregate(8, 0.5).replace("\"tp\": 8, ", "");
    let f = import("agg.json", text.as_bytes());
    let run = &f.runs[0];
    assert_eq!(run.throughput.output_tok_s, None);
    assert!(run
        .problems
        .iter()
        .any(|p| p.to_string().contains("no `tp` to count the GPUs by")));
}
