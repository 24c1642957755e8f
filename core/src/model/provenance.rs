//! Where a run came from: the file, the place in it, and the tool that wrote it.

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::date::RunDate;
use crate::location::Location;

/// Where a run came from: file, place in the file, and the tool that wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// Path of the file, as the user named it (relative to the results folder when built).
    pub file: String,
    /// Where in the file the run starts.
    pub location: Location,
    /// The tool that wrote the file.
    pub producer: Producer,
    /// The tool's version, where the file says it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub producer_version: Option<String>,
    /// When the run was measured: from the file where it says, else from a date in its path
    /// ([`import_all`](crate::import::import_all) fills that in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<RunDate>,
}

impl Provenance {
    /// `file` at `location`, written by `producer`, whose version the file does not say.
    pub fn new(file: &str, location: Location, producer: Producer) -> Self {
        Provenance {
            file: file.to_string(),
            location,
            producer,
            producer_version: None,
            date: None,
        }
    }
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file, self.location)
    }
}

/// The benchmark tool that wrote a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Producer {
    /// `vllm bench serve` or `benchmarks/benchmark_serving.py`.
    VllmServe,
    /// `vllm bench throughput`.
    VllmThroughput,
    /// `vllm bench latency`.
    VllmLatency,
    /// `python -m sglang.bench_serving`.
    SglangServing,
    /// vllm-project/guidellm.
    Guidellm,
    /// NVIDIA GenAI-Perf.
    GenaiPerf,
    /// NVIDIA AIPerf, GenAI-Perf's successor.
    Aiperf,
    /// ray-project/llmperf.
    Llmperf,
    /// huggingface/inference-benchmarker.
    InferenceBenchmarker,
    /// Locust `--csv` output.
    Locust,
    /// simple_full_stack_inference `benchmark.py` CSV.
    SimpleFullStackCsv,
    /// simple_full_stack_inference `load_test.py` JSON or Markdown report.
    SimpleFullStackLoadTest,
    /// A tidy CSV mapped by the user's own column mapping.
    TidyCsv,
    /// k6 `--summary-export` or `handleSummary` data, or its end-of-test console summary.
    K6,
    /// kubernetes-sigs/inference-perf lifecycle reports.
    InferencePerf,
    /// llm-d-benchmark's benchmark report (`version: 0.2`), the format llm-d Prism ingests.
    LlmdBenchmarkReport,
    /// Triton perf_analyzer's `profile_export.json` (written by GenAI-Perf beside its own).
    PerfAnalyzer,
    /// philschmid/llmperf-bench: llmperf summaries keyed by concurrency.
    LlmperfBench,
    /// SemiAnalysis InferenceX (InferenceMAX) aggregates.
    #[serde(rename = "inferencex")]
    InferenceX,
    /// MLPerf Inference LoadGen's summary.
    Mlperf,
    /// openshift-psap/llm-load-test's per-request output.
    LlmLoadTest,
    /// LMCache's LMBench per-request CSV.
    #[serde(rename = "lmbench")]
    LmBench,
    /// llm-d Prism's normalised archive of runs.
    Prism,
    /// A JSON, JSON Lines or CSV file read by the user's mapping file (`benchdeck-mapping.yaml`).
    Mapped,
    /// A Prometheus text scrape of an engine's or DCGM's `/metrics` ([`crate::telemetry`]).
    PrometheusScrape,
    /// A table of an engine's gauges or of GPU power and utilisation over time.
    TelemetrySeries,
    /// An engine's log of its periodic state (vLLM, SGLang).
    EngineLog,
}

impl Producer {
    /// True when the tool writes a population standard deviation (NumPy's default, divided by
    /// n): vLLM, SGLang and GenAI-Perf, and AIPerf's and perf_analyzer's records, which
    /// benchdeck summarises as AIPerf does. An interval needs the sample one.
    pub fn population_std(self) -> bool {
        matches!(
            self,
            Producer::VllmServe
                | Producer::SglangServing
                | Producer::GenaiPerf
                | Producer::Aiperf
                | Producer::PerfAnalyzer
                | Producer::LlmLoadTest
                | Producer::LmBench
        )
    }

    /// The name users know the tool by.
    pub fn display_name(self) -> &'static str {
        match self {
            Producer::VllmServe => "vllm bench serve",
            Producer::VllmThroughput => "vllm bench throughput",
            Producer::VllmLatency => "vllm bench latency",
            Producer::SglangServing => "sglang bench_serving",
            Producer::Guidellm => "GuideLLM",
            Producer::GenaiPerf => "GenAI-Perf",
            Producer::Aiperf => "AIPerf",
            Producer::Llmperf => "llmperf",
            Producer::InferenceBenchmarker => "inference-benchmarker",
            Producer::Locust => "Locust",
            Producer::SimpleFullStackCsv => "simple_full_stack benchmark.py",
            Producer::SimpleFullStackLoadTest => "simple_full_stack load_test.py",
            Producer::TidyCsv => "tidy CSV",
            Producer::K6 => "k6",
            Producer::InferencePerf => "inference-perf",
            Producer::LlmdBenchmarkReport => "llm-d benchmark report",
            Producer::PerfAnalyzer => "perf_analyzer",
            Producer::LlmperfBench => "llmperf-bench",
            Producer::InferenceX => "InferenceX",
            Producer::Mlperf => "MLPerf LoadGen",
            Producer::LlmLoadTest => "llm-load-test",
            Producer::LmBench => "LMBench",
            Producer::Prism => "llm-d Prism archive",
            Producer::Mapped => "mapping file",
            Producer::PrometheusScrape => "Prometheus scrape",
            Producer::TelemetrySeries => "engine or GPU metrics over time",
            Producer::EngineLog => "engine log",
        }
    }
}
