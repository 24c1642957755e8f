//! The canonical model every importer produces: one [`Run`] per load point of one configuration.
//!
//! Units are fixed by the type, never by the producer: latencies are milliseconds, throughputs are
//! per second, token counts are tokens. Importers convert on the way in and keep the metric's
//! definition ([`Metric`]) so that, say, GuideLLM's TPOT (which includes the first token) is never
//! compared with vLLM's TPOT (which does not).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

pub use crate::date::RunDate;
pub use crate::location::Location;
use crate::problem::Problem;

mod latency;
mod price;
pub mod repeats;
mod samples;
mod server;
pub mod workload;
pub use latency::{Distribution, LatencyMetric, Metric, Percentile, Stat};
pub use price::Price;
pub use repeats::Repeats;
pub use samples::RequestSamples;
pub use server::ServerMetrics;
pub use workload::Workload;

/// One load point of one configuration, as one tool measured it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// Where the numbers came from.
    pub provenance: Provenance,
    /// Which serving setup was measured.
    pub config: ConfigIdentity,
    /// How hard it was pushed.
    pub load: LoadPoint,
    /// How many requests were sent and how they ended.
    pub requests: RequestCounts,
    /// Latency distributions, one per metric the file reports.
    pub latency: Vec<LatencyMetric>,
    /// Rates measured over the whole run.
    pub throughput: Throughput,
    /// Token totals and per-request length distributions.
    pub tokens: TokenStats,
    /// Per-request measurements, when the file carries them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<RequestSamples>,
    /// What was sent, beyond the dataset and the request count, as the file states it.
    #[serde(default, skip_serializing_if = "Workload::is_empty")]
    pub workload: Workload,
    /// What the server itself measured over the run's time window, when a file beside the
    /// run's holds it (inference-perf's `stage_N_prometheus_metrics.json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<Box<ServerMetrics>>,
    /// The runs this one combines, when several runs of the configuration were measured at
    /// this load point on one day ([`repeats::combine`]); never set by an importer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeats: Option<Box<Repeats>>,
    /// What the configuration costs, when a report states it (set per report, never by an
    /// importer): cost quantities need it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<Price>,
    /// Problems found while importing this run (it imported, but something is off).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<Problem>,
}

impl Run {
    /// A run of `config` at `load`, read from `provenance`, with nothing measured yet.
    pub fn new(provenance: Provenance, config: ConfigIdentity, load: LoadPoint) -> Run {
        Run {
            provenance,
            config,
            load,
            requests: RequestCounts::default(),
            latency: Vec::new(),
            throughput: Throughput::default(),
            tokens: TokenStats::default(),
            samples: None,
            workload: Workload::default(),
            server: None,
            repeats: None,
            price: None,
            problems: Vec::new(),
        }
    }

    /// Where the run's numbers came from, as tooltips and titles say it: `file#place`, or for
    /// a combined run `3 runs: a.json, b.json, c.json`.
    pub fn source(&self) -> String {
        match &self.repeats {
            Some(r) => format!("{}: {}", r.text(), r.sources.join(", ")),
            None => self.provenance.to_string(),
        }
    }

    /// True when no request succeeded: such a run is drawn as a failure, never as zero latency.
    pub fn all_failed(&self) -> bool {
        self.requests.succeeded == Some(0)
    }

    /// The distribution of `metric`, if the run has it.
    pub fn latency(&self, metric: Metric) -> Option<&Distribution> {
        self.latency
            .iter()
            .find(|m| m.metric == metric)
            .map(|m| &m.distribution)
    }

    /// The GPUs the run was served on: the report's `price: {gpus: N}` where it says, else what
    /// the result file's metadata says ([`ConfigIdentity::gpus`]).
    pub fn gpus(&self) -> Option<u32> {
        self.price
            .and_then(|p| p.gpus)
            .or_else(|| self.config.gpus())
    }

    /// The value of one statistic of one latency metric, in milliseconds.
    ///
    /// Returns `None` for runs where every request failed: their zeros are not latencies.
    pub fn latency_stat(&self, metric: Metric, stat: Stat) -> Option<f64> {
        if self.all_failed() {
            return None;
        }
        self.latency(metric).and_then(|d| d.get(stat))
    }
}

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
}

impl Producer {
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
        }
    }
}

/// What was measured: the serving setup a run belongs to. Runs with equal [`ConfigIdentity::key`]
/// form one sweep.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConfigIdentity {
    /// Model name or path, e.g. `meta-llama/Llama-3.1-8B-Instruct`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Serving engine, e.g. `vllm` or `sgl`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// The user's own label for the deployment, e.g. `deepseek-disagg`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Hardware, e.g. `4x A10G`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hardware: Option<String>,
    /// Dataset, e.g. `sharegpt` or `random-1024-128`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<String>,
    /// Server settings that tell configurations of one sweep apart, e.g. `max_num_seqs` → `4`
    /// from `vllm bench sweep` (its folder names and the keys it adds to each result).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
}

impl ConfigIdentity {
    /// The name a configuration is known by in reports: the label if the user gave one, else the
    /// engine, else the model, else `unnamed`; then its settings, if any (`vllm max_num_seqs=4`).
    pub fn key(&self) -> String {
        let mut key = self
            .label
            .as_deref()
            .or(self.engine.as_deref())
            .or(self.model.as_deref())
            .unwrap_or("unnamed")
            .to_string();
        for (name, value) in &self.settings {
            key.push_str(&format!(" {name}={value}"));
        }
        key
    }

    /// The GPUs the hardware description counts (`2x L40S`, `8 × H100`, `4xA10G`), else the
    /// product of the parallel sizes among the settings (`tensor_parallel_size`, `tp`,
    /// `pipeline_parallel_size`, `pp`, `data_parallel_size`, `dp`) when one is there.
    pub fn gpus(&self) -> Option<u32> {
        self.hardware
            .as_deref()
            .and_then(counted_gpus)
            .or_else(|| parallel_gpus(&self.settings))
    }
}

/// `N` of a hardware description that starts `N x …` or `N× …`, for N of at least 1.
fn counted_gpus(hardware: &str) -> Option<u32> {
    let text = hardware.trim();
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let rest = text[digits..].trim_start();
    let n: u32 = text[..digits].parse().ok()?;
    (n >= 1 && (rest.starts_with(['x', 'X', '×']))).then_some(n)
}

/// The product of the parallel sizes among `settings`, when at least one is a whole number.
fn parallel_gpus(settings: &BTreeMap<String, String>) -> Option<u32> {
    const SIZES: [&[&str]; 3] = [
        &["tensor_parallel_size", "tp", "tp_size"],
        &["pipeline_parallel_size", "pp", "pp_size"],
        &["data_parallel_size", "dp", "dp_size"],
    ];
    let mut found = false;
    let mut gpus: u32 = 1;
    for names in SIZES {
        let size = names
            .iter()
            .find_map(|n| settings.get(*n))
            .and_then(|v| v.trim().parse::<u32>().ok())
            .filter(|&v| v >= 1);
        if let Some(size) = size {
            found = true;
            gpus = gpus.checked_mul(size)?;
        }
    }
    found.then_some(gpus)
}

/// The load a run was driven at, and what was achieved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadPoint {
    /// The knob the tool turned.
    pub target: LoadTarget,
    /// Concurrency cap applied on top of a request rate, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_concurrency: Option<u32>,
    /// Requests per second actually completed (successes only unless the producer says otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub achieved_rps: Option<f64>,
    /// Mean number of requests in flight, where the file reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub achieved_concurrency: Option<f64>,
}

impl LoadPoint {
    /// Driven at `target`, with no concurrency cap and nothing achieved known.
    pub fn new(target: LoadTarget) -> Self {
        LoadPoint {
            target,
            max_concurrency: None,
            achieved_rps: None,
            achieved_concurrency: None,
        }
    }
}

/// The load knob of a run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum LoadTarget {
    /// Closed loop: this many requests in flight.
    Concurrency(f64),
    /// Open loop: requests arrive at this rate.
    RequestRate(Rate),
    /// Offline batch of this size.
    BatchSize(u32),
    /// Offline run as fast as possible (no load knob).
    MaxThroughput,
    /// One request at a time.
    Sequential,
}

impl LoadTarget {
    /// The axis this knob belongs on.
    pub fn axis(&self) -> LoadAxis {
        match self {
            LoadTarget::Concurrency(_) | LoadTarget::Sequential => LoadAxis::Concurrency,
            LoadTarget::RequestRate(_) => LoadAxis::RequestRate,
            LoadTarget::BatchSize(_) => LoadAxis::BatchSize,
            LoadTarget::MaxThroughput => LoadAxis::None,
        }
    }

    /// The position on the load axis; infinite rates are `f64::INFINITY`.
    pub fn value(&self) -> Option<f64> {
        match *self {
            LoadTarget::Concurrency(c) => Some(c),
            LoadTarget::RequestRate(Rate::PerSecond(r)) => Some(r),
            LoadTarget::RequestRate(Rate::Infinite) => Some(f64::INFINITY),
            LoadTarget::BatchSize(b) => Some(f64::from(b)),
            LoadTarget::Sequential => Some(1.0),
            LoadTarget::MaxThroughput => None,
        }
    }
}

impl fmt::Display for LoadTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadTarget::Concurrency(c) => write!(f, "concurrency {}", crate::format::number(*c)),
            LoadTarget::RequestRate(r) => write!(f, "{r}"),
            LoadTarget::BatchSize(b) => write!(f, "batch {b}"),
            LoadTarget::MaxThroughput => f.write_str("max throughput"),
            LoadTarget::Sequential => f.write_str("sequential"),
        }
    }
}

/// Which load axis a sweep runs along.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadAxis {
    /// Requests in flight.
    Concurrency,
    /// Requests per second offered.
    RequestRate,
    /// Offline batch size.
    BatchSize,
    /// No load knob.
    None,
}

impl LoadAxis {
    /// Axis title with unit.
    pub fn title(self) -> &'static str {
        match self {
            LoadAxis::Concurrency => "Concurrency (requests in flight)",
            LoadAxis::RequestRate => "Request rate (req/s)",
            LoadAxis::BatchSize => "Batch size",
            LoadAxis::None => "Run",
        }
    }
}

/// An arrival rate; `inf` means every request is sent at once.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rate {
    /// Requests per second.
    PerSecond(f64),
    /// All requests at time zero.
    Infinite,
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rate::PerSecond(r) => write!(f, "{} req/s", crate::format::number(*r)),
            Rate::Infinite => f.write_str("∞ req/s"),
        }
    }
}

/// Request outcomes. `None` means the file does not say.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestCounts {
    /// Requests sent (or planned).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Requests that completed successfully.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub succeeded: Option<u64>,
    /// Requests that ended in an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<u64>,
    /// Requests cut off by the end of the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<u64>,
}

impl RequestCounts {
    /// `total` requests counted one by one, `succeeded` of them successfully and the rest failed.
    pub fn counted(total: u64, succeeded: u64) -> Self {
        RequestCounts {
            total: Some(total),
            succeeded: Some(succeeded),
            failed: Some(total - succeeded),
            incomplete: None,
        }
    }

    /// Share of requests that succeeded, 0 to 1.
    pub fn success_rate(&self) -> Option<f64> {
        let ok = self.succeeded? as f64;
        let total = self.total.or_else(|| {
            self.succeeded?
                .checked_add(self.failed?)?
                .checked_add(self.incomplete.unwrap_or(0))
        })? as f64;
        (total > 0.0).then(|| ok / total)
    }
}

/// Rates over a whole run. `None` means the file does not say.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Throughput {
    /// Output tokens per second, all requests together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tok_s: Option<f64>,
    /// Output tokens per second as one user sees them: the mean over requests of each
    /// request's output tokens divided by its time (load_test.py's `Tok/s`, GenAI-Perf's
    /// `output_token_throughput_per_user`). Not a throughput of the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tok_s_per_user: Option<f64>,
    /// Input plus output tokens per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_tok_s: Option<f64>,
    /// Input tokens per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tok_s: Option<f64>,
    /// Completed requests per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests_per_s: Option<f64>,
    /// Requests per second that met the goodput SLOs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goodput_req_s: Option<f64>,
}

/// Token counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TokenStats {
    /// Input tokens over all requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_input: Option<u64>,
    /// Output tokens over all requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_output: Option<u64>,
    /// Input length per request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_len: Option<Distribution>,
    /// Output length per request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_len: Option<Distribution>,
}

/// Runs of one configuration along one load axis, sorted by load.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep<'a> {
    /// [`ConfigIdentity::key`] shared by the runs.
    pub key: String,
    /// The load axis.
    pub axis: LoadAxis,
    /// The runs, in increasing load (infinite rates last).
    pub runs: Vec<&'a Run>,
}

/// Groups runs into sweeps per configuration and load axis, in first-seen order of configuration.
pub fn sweeps(runs: &[Run]) -> Vec<Sweep<'_>> {
    let mut out: Vec<Sweep<'_>> = Vec::new();
    for run in runs {
        let key = run.config.key();
        let axis = run.load.target.axis();
        match out.iter_mut().find(|s| s.key == key && s.axis == axis) {
            Some(s) => s.runs.push(run),
            None => out.push(Sweep {
                key,
                axis,
                runs: vec![run],
            }),
        }
    }
    for s in &mut out {
        crate::order::sort_by_f64(&mut s.runs, &|r| r.load.target.value().unwrap_or(f64::NAN));
    }
    out
}

#[cfg(test)]
mod tests;
