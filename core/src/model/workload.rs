//! What a run sent the server, as its file states it ([`Workload`]); how the workloads of runs
//! set side by side differ is [`super::differences`].

use serde::{Deserialize, Serialize};

use super::latency::{Metric, Stat};

/// The workload settings a file states beyond what the rest of the run holds (the dataset sits
/// in [`super::ConfigIdentity::dataset`], the number of prompts in
/// [`super::RequestCounts::total`], the measured lengths in [`super::TokenStats`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    /// Target input length per request in tokens (`random_input_len`, a synthetic mean).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_len: Option<u64>,
    /// Target output length per request in tokens (`random_output_len`, `max_tokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_len: Option<u64>,
    /// Burstiness of the arrivals (vLLM's gamma shape: 1 is Poisson).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub burstiness: Option<f64>,
    /// The tokenizer that counted the tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokenizer: Option<String>,
    /// The serving engine's version, where the file says it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_version: Option<String>,
    /// Latency limits the benchmark held the run to (MLPerf's TTFT and TPOT constraints),
    /// drawn as SLA lines on charts of that statistic.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limits: Vec<LatencyLimit>,
}

/// A latency limit a benchmark's rules set: `stat` of `metric` at most `ms`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LatencyLimit {
    /// The latency limited.
    pub metric: Metric,
    /// Its statistic held to the limit (MLPerf: the 99th percentile).
    pub stat: Stat,
    /// The limit, in ms.
    pub ms: f64,
    /// Whose rule it is, as a chart labels it (`MLPerf`).
    pub by: String,
}

impl Workload {
    /// True when the file stated none of it.
    pub fn is_empty(&self) -> bool {
        *self == Workload::default()
    }
}
