//! Import speed, in MB/s per format, on synthetic files built here (deterministic, labelled
//! synthetic in their content). The headline case is a 50 MB `vllm bench serve` result with
//! per-request arrays, which must import in under a second.
//!
//! Run with `cargo bench -p benchdeck-core --bench import` (or `cargo xtask bench`).

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use std::fmt::Write as _;
use std::hint::black_box;

use benchdeck_core::import::import;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// A small deterministic generator (xorshift), so every run imports the same bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A `vllm bench serve` result of about `target_bytes`, with every per-request array.
fn vllm_serve_with_arrays(target_bytes: usize) -> String {
    let mut rng = Rng(0x5eed);
    let mut requests = 0;
    let mut ttfts = String::new();
    let mut itls = String::new();
    let mut inputs = String::new();
    let mut outputs = String::new();
    let mut latencies = String::new();
    let mut texts = String::new();
    let mut errors = String::new();
    let size = |parts: [&String; 7]| parts.iter().map(|p| p.len()).sum::<usize>();
    while size([
        &ttfts, &itls, &inputs, &outputs, &latencies, &texts, &errors,
    ]) < target_bytes
    {
        let i = requests;
        requests += 1;
        let sep = if i == 0 { "" } else { ", " };
        let ttft = 0.02 + rng.next() * 0.5;
        let out = 64;
        let gaps: Vec<String> = (0..out - 1)
            .map(|_| format!("{:.6}", 0.008 + rng.next() * 0.02))
            .collect();
        let _ = write!(ttfts, "{sep}{ttft:.9}");
        let _ = write!(itls, "{sep}[{}]", gaps.join(", "));
        let _ = write!(inputs, "{sep}{}", 200 + (rng.next() * 800.0) as u32);
        let _ = write!(outputs, "{sep}{out}");
        let _ = write!(latencies, "{sep}{:.9}", ttft + 1.2 + rng.next());
        let _ = write!(texts, "{sep}\"synthetic text {i}\"");
        let _ = write!(errors, "{sep}\"\"");
    }
    format!(
        "{{\"date\": \"20251114-093012\", \"backend\": \"vllm\", \"label\": \"synthetic\", \
         \"model_id\": \"synthetic/model\", \"num_prompts\": {requests}, \"request_rate\": \"inf\", \
         \"burstiness\": 1.0, \"max_concurrency\": 64, \"duration\": 100.0, \"completed\": {requests}, \
         \"failed\": 0, \"request_throughput\": 10.0, \"output_throughput\": 640.0, \
         \"mean_ttft_ms\": 270.0, \"median_ttft_ms\": 265.0, \"std_ttft_ms\": 140.0, \"p99_ttft_ms\": 510.0, \
         \"mean_tpot_ms\": 18.0, \"median_tpot_ms\": 18.0, \"std_tpot_ms\": 5.0, \"p99_tpot_ms\": 27.0, \
         \"mean_itl_ms\": 18.0, \"median_itl_ms\": 18.0, \"std_itl_ms\": 5.0, \"p99_itl_ms\": 27.0, \
         \"input_lens\": [{inputs}], \"output_lens\": [{outputs}], \"ttfts\": [{ttfts}], \
         \"itls\": [{itls}], \"latencies\": [{latencies}], \"generated_texts\": [{texts}], \
         \"errors\": [{errors}]}}"
    )
}

/// `lines` SGLang result lines (JSONL), each a different request rate.
fn sglang_jsonl(lines: usize) -> String {
    (0..lines)
        .map(|i| {
            format!(
                "{{\"backend\": \"sglang\", \"dataset_name\": \"synthetic\", \"request_rate\": {}, \
                 \"max_concurrency\": null, \"duration\": 60.0, \"completed\": 1000, \
                 \"total_input_tokens\": 1000000, \"total_output_tokens\": 100000, \
                 \"request_throughput\": 16.5, \"input_throughput\": 16500.0, \"output_throughput\": 1650.0, \
                 \"mean_e2e_latency_ms\": 900.5, \"median_e2e_latency_ms\": 850.0, \"std_e2e_latency_ms\": 100.0, \
                 \"p99_e2e_latency_ms\": 1500.0, \"mean_ttft_ms\": 80.0, \"median_ttft_ms\": 75.0, \
                 \"std_ttft_ms\": 10.0, \"p99_ttft_ms\": 150.0, \"mean_tpot_ms\": 9.0, \"median_tpot_ms\": 9.0, \
                 \"std_tpot_ms\": 1.0, \"p99_tpot_ms\": 14.0, \"mean_itl_ms\": 9.0, \"median_itl_ms\": 8.5, \
                 \"std_itl_ms\": 2.0, \"p95_itl_ms\": 12.0, \"p99_itl_ms\": 20.0}}",
                1 + i
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A simple_full_stack `benchmark.py` CSV with `rows` concurrency levels.
fn sfs_csv(rows: usize) -> String {
    let mut out = String::from(
        "concurrency,total_requests,success_count,error_count,error_rate_%,ttft_p50_ms,ttft_p90_ms,ttft_p99_ms,\
         latency_p50_ms,latency_p90_ms,latency_p99_ms,tpot_p50_ms,tpot_p90_ms,tpot_p99_ms,itl_p50_ms,itl_p90_ms,\
         itl_p99_ms,requests_per_sec,throughput_tokens_per_sec,input_tokens_p50,input_tokens_p90,input_tokens_p99,\
         output_tokens_p50,output_tokens_p90,output_tokens_p99\r\n",
    );
    for i in 1..=rows {
        let _ = write!(
            out,
            "{i},20,20,0,0.0,612.4,979.84,1286.04,14211.9,17764.88,19896.66,27.88,30.11,36.24,0.71,47.13,84.2,\
             0.07,35.61,299,887,999,412,512,512\r\n"
        );
    }
    out
}

fn bench(c: &mut Criterion) {
    let cases: Vec<(&str, String, String)> = vec![
        // Checked below: the file really is at least 50 MB.
        (
            "vllm-serve-50MB",
            "vllm/synthetic-50mb.json".to_string(),
            vllm_serve_with_arrays(50 * 1024 * 1024),
        ),
        (
            "sglang-jsonl",
            "sglang/synthetic.jsonl".to_string(),
            sglang_jsonl(5_000),
        ),
        (
            "sfs-csv",
            "synthetic_sharegpt_concurrency_20260101_000000.csv".to_string(),
            sfs_csv(20_000),
        ),
    ];
    let mut group = c.benchmark_group("import");
    group.sample_size(10);
    assert!(cases[0].2.len() >= 50 * 1024 * 1024);
    for (name, file, text) in &cases {
        let probe = import(file, text.as_bytes());
        assert!(!probe.failed(), "{name}: {:?}", probe.problems.first());
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), text, |b, text| {
            b.iter(|| black_box(import(file, black_box(text.as_bytes()))))
        });
    }
    group.finish();
}

/// One fixture per format, as written (small files: these figures include per-file overhead).
const FIXTURES: &[(&str, &str)] = &[
    ("vllm-serve-arrays", "vllm/concurrency2-qwen.json"),
    ("vllm-serve-jsonl", "vllm/llama-appended.jsonl"),
    ("sglang-jsonl", "sglang/sglang_0314_mixed.jsonl"),
    ("guidellm-0.7-json", "guidellm/v0.7/benchmarks.json"),
    ("guidellm-0.7-yaml", "guidellm/v0.7/benchmarks.yaml"),
    ("guidellm-0.7-csv", "guidellm/v0.7/benchmarks.csv"),
    ("guidellm-0.3-json", "guidellm/v0.3/benchmarks.json"),
    (
        "genai-perf-json",
        "genai-perf/acme_chat-13b-openai-chat-concurrency8/profile_export_genai_perf.json",
    ),
    (
        "genai-perf-csv",
        "genai-perf/acme_chat-13b-openai-chat-concurrency8/profile_export_genai_perf.csv",
    ),
    (
        "aiperf-json",
        "aiperf/acme_chat-13b-openai-chat-concurrency32/profile_export_aiperf.json",
    ),
    (
        "llmperf-summary",
        "llmperf/acme-chat-13b_512_128_summary.json",
    ),
    (
        "inference-benchmarker",
        "inference-benchmarker/acme_chat-13b_2026-01-05-10-00-00.json",
    ),
    ("k6-summary", "k6/summary-export.json"),
    (
        "locust-stats",
        "locust/results/20260102_090000/acme_chat_warm_u8/locust_stats.csv",
    ),
    ("tidy-csv", "tidy-csv/engines.csv"),
    (
        "load-test-json",
        "simple_full_stack_load_test/acme-disagg.json",
    ),
    (
        "load-test-console",
        "simple_full_stack_report/acme-console.txt",
    ),
    (
        "load-test-markdown",
        "simple_full_stack_report/hand-edited.md",
    ),
];

fn fixtures(c: &mut Criterion) {
    let mut group = c.benchmark_group("fixture");
    for (name, path) in FIXTURES {
        let full = format!("{}/../tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
        let probe = import(path, &bytes);
        assert!(!probe.failed(), "{name}: {:?}", probe.problems.first());
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), &bytes, |b, bytes| {
            b.iter(|| black_box(import(path, black_box(bytes))))
        });
    }
    group.finish();
}

criterion_group!(benches, bench, fixtures);
criterion_main!(benches);
