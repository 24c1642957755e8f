//! What the model server itself measured while a run was sent ([`ServerMetrics`]): the
//! server's own view beside the client's that the rest of a [`super::Run`] holds.
//!
//! inference-perf writes it as `stage_N_prometheus_metrics.json` (and
//! `summary_prometheus_metrics.json` for the whole benchmark): the server's Prometheus counters,
//! gauges and histograms queried over the stage's time window. They are not a measurement of
//! the requests the client sent (the window may hold other traffic, and quantiles are
//! interpolated within histogram buckets), so they never replace the run's own numbers.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Distribution;

/// The server's metrics over a run's time window, as its file names them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ServerMetrics {
    /// The file they were read from.
    pub file: String,
    /// Requests the server finished in the window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests: Option<f64>,
    /// Requests per second the server finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests_per_s: Option<f64>,
    /// Prompt tokens per second the server processed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_tok_s: Option<f64>,
    /// Output tokens per second the server generated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tok_s: Option<f64>,
    /// Time distributions in milliseconds, by the file's name for them (`time_to_first_token`,
    /// `request_queue_time`, `request_prefill_time`, …).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub times_ms: BTreeMap<String, Distribution>,
    /// Every other value, by the file's name and statistic (`kv_cache_usage_percentage.mean`,
    /// `num_requests_running.mean`, `prompt_tokens_cached`), as the server reports it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub values: BTreeMap<String, f64>,
}
