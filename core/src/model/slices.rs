//! A run over time as its tool summarised it: AIPerf's timeslices (`--slice-duration`), each a
//! window of the run with its own statistics. The windows chart draws them as it draws the
//! windows it cuts from per-request start times.

use serde::{Deserialize, Serialize};

use super::latency::{LatencyMetric, Metric};

/// One time slice of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimeSlice {
    /// Its start, seconds from the start of the run's first slice.
    pub start_s: f64,
    /// Its length, seconds.
    pub width_s: f64,
    /// Requests that succeeded in it, when stated.
    pub succeeded: Option<u64>,
    /// Requests that failed in it, when stated.
    pub failed: Option<u64>,
    /// The latency distributions of its successful requests, in ms.
    pub latency: Vec<LatencyMetric>,
    /// Output tokens per second over the slice, when stated.
    pub output_tok_s: Option<f64>,
}

impl TimeSlice {
    /// Its distribution of latency `metric`, when it has one.
    pub fn latency_of(&self, metric: Metric) -> Option<&LatencyMetric> {
        self.latency.iter().find(|l| l.metric == metric)
    }
}
