//! No input makes an importer panic: every fixture below is truncated at every byte, and every
//! value of the JSON ones is, one at a time, replaced by values of the wrong type.

use serde_json::{json, Value};

use crate::import::import;

const FIXTURES: [&str; 24] = [
    "sglang/sglang_0314_mixed.jsonl",
    "sglang/broken.jsonl",
    "vllm-throughput/throughput_chat13b_in512_out128.json",
    "vllm-latency/latency_bs16_in256_out64.json",
    "llmperf/acme-chat-13b_512_128_summary.json",
    "llmperf/acme-chat-13b_512_128_individual_responses.json",
    "inference-benchmarker/acme_chat-13b_2026-01-05-10-00-00.json",
    "inference-benchmarker/broken.json",
    "genai-perf/acme_chat-13b-openai-chat-concurrency8/profile_export_genai_perf.json",
    "genai-perf/acme_chat-13b-openai-chat-request_rate2.5/profile_export_genai_perf.json",
    "aiperf/acme_chat-13b-openai-chat-concurrency32/profile_export_aiperf.json",
    "aiperf/records-layout/profile_export_aiperf.json",
    "inference-perf/v0.4-concurrent/stage_0_lifecycle_metrics.json",
    "inference-perf/rate-sweep/stage_0_prometheus_metrics.json",
    "llm-d/vllm-rate10/benchmark_report_v0.2,_vllm_serve_rate10_c32.json",
    "llm-d/aiperf/report.json",
    "aiperf/Qwen_Qwen3-0.6B-openai-chat-concurrency4/profile_export.jsonl",
    "genai-perf/meta-llama_Llama-3.1-8B-Instruct-openai-chat-concurrency2/profile_export.json",
    "llmperf-bench/meta-llama_Meta-Llama-3-8B-Instruct_tp_1_summary.json",
    // Text formats: truncated only (they hold no JSON to break).
    "aiperf/console-80-columns.log",
    "k6/rate-scenario.log",
    "llm-d/inference-perf-c8/benchmark_report_v0.2,_stage_0_lifecycle_metrics.json.yaml",
    "inference-perf/rate-sweep/config.yaml",
    "guidellm/v0.3/benchmarks-from-file.yaml",
];

fn read(path: &str) -> String {
    crate::fixtures::text(path)
}

#[test]
fn truncated_fixtures_never_panic() {
    for path in FIXTURES {
        let text = read(path);
        let bytes = text.as_bytes();
        let step = (bytes.len() / 1500).max(1);
        for end in (0..bytes.len()).step_by(step) {
            let _ = import(path, &bytes[..end]);
        }
    }
}

#[test]
fn wrong_types_anywhere_never_panic() {
    let replacements = [
        Value::Null,
        json!("slow"),
        json!("NaN"),
        json!("-Infinity"),
        json!(-1),
        json!(1e308),
        json!(0),
        json!([]),
        json!({}),
        json!(true),
    ];
    for path in FIXTURES {
        for doc in crate::fixtures::json_documents(&read(path)) {
            let places = crate::fixtures::json_pointers(&doc);
            for place in &places {
                for replacement in &replacements {
                    let mut changed = doc.clone();
                    match changed.pointer_mut(place) {
                        Some(slot) => *slot = replacement.clone(),
                        None => continue,
                    }
                    let text = changed.to_string();
                    let f = import(path, text.as_bytes());
                    // Whatever happened, it is explained or it imported.
                    assert!(
                        !f.runs.is_empty() || !f.problems.is_empty(),
                        "{path} with {place} = {replacement}: nothing and no reason"
                    );
                }
            }
        }
    }
}
