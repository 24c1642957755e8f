//! What telemetry files hold, read: [`Readings`] of series over time and scrapes' counters.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// What the engine or a GPU measured, as a gauge sampled over time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// Requests waiting in the engine's queue.
    Waiting,
    /// Requests the engine was running.
    Running,
    /// KV-cache use in percent.
    KvCachePct,
    /// GPU utilisation in percent.
    GpuUtilPct,
    /// Power drawn by one GPU in watts.
    PowerW,
    /// Preemptions so far: a counter sampled over time.
    Preemptions,
}

/// An engine's (or a GPU's) counter, summed over its label sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Counter {
    /// Prompt tokens looked up in the prefix cache (vLLM), or prompt tokens (SGLang).
    PrefixQueries,
    /// Prompt tokens found in the prefix cache.
    PrefixHits,
    /// Prompt tokens looked up in an external or offloaded cache (KV connectors, LMCache).
    ExternalPrefixQueries,
    /// Prompt tokens found there.
    ExternalPrefixHits,
    /// Speculative decoding's drafts.
    SpecDrafts,
    /// Draft tokens proposed.
    SpecDraftTokens,
    /// Draft tokens accepted.
    SpecAccepted,
    /// Requests preempted.
    Preemptions,
    /// Output tokens generated.
    GenerationTokens,
    /// Energy drawn by a GPU, in joules (DCGM counts millijoules).
    EnergyJ,
    /// Requests the server finished.
    RequestsFinished,
}

/// One measure sampled over time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// What was sampled.
    pub measure: Measure,
    /// The GPU, for power and utilisation, as the file names it (`0`, a UUID).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu: Option<String>,
    /// When, in seconds; a shared origin within a file.
    pub time_s: Vec<f64>,
    /// The values (NaN where the file wrote none).
    pub values: Vec<f64>,
}

/// Counters and gauges at one instant: one scrape of `/metrics`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Counters, each summed over its label sets.
    pub counters: BTreeMap<Counter, f64>,
    /// Gauges, one value per label set (per engine, per GPU).
    pub gauges: BTreeMap<Measure, Vec<f64>>,
    /// SGLang's mean accepted length, a gauge of its recent window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec_accept_length: Option<f64>,
}

/// What one telemetry file holds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Readings {
    /// Series sampled over time.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<Series>,
    /// A scrape's counters and gauges.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<Snapshot>,
    /// True when the series' times count from when a recorder started (or are assumed one a
    /// second), not wall-clock time: they cannot be matched to a run's window.
    #[serde(default)]
    pub relative_clock: bool,
}

impl Readings {
    /// True when the file held nothing benchdeck reads.
    pub fn is_empty(&self) -> bool {
        self.series.iter().all(|s| s.values.is_empty())
            && self
                .snapshot
                .as_ref()
                .is_none_or(|s| s.counters.is_empty() && s.gauges.is_empty())
    }
}

/// Seconds since the Unix epoch of `at` read as UTC.
pub(super) fn utc_seconds(at: jiff::civil::DateTime) -> Option<f64> {
    let stamp = jiff::tz::TimeZone::UTC.to_timestamp(at).ok()?;
    Some(stamp.as_millisecond() as f64 / 1000.0)
}
