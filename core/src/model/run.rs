//! [`Run`]: one load point of one configuration, as one tool measured it, and [`Repeats`]: the
//! runs that one combined run stands for, when a configuration was measured several times at
//! one load point on one day (a sweep's `run=0.json`, `run=1.json`; a nightly job run twice).
//! `crate::noise::combine` makes them; every chart, table and value then reads the combined
//! run, and its intervals come from the runs' spread or their pooled requests. The two hold
//! each other, so they share a file.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::config::ConfigIdentity;
use super::engine::EngineMetrics;
use super::latency::{Distribution, LatencyMetric, Metric, Stat};
use super::load::LoadPoint;
use super::price::Price;
use super::provenance::Provenance;
use super::samples::RequestSamples;
use super::server::ServerMetrics;
use super::slices::TimeSlice;
use super::totals::{RequestCounts, Throughput, TokenStats};
use super::workload::Workload;
use crate::problem::Problem;

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
    /// Per-request measurements, when the file carries them. Shared: a run copied (priced by
    /// a report, combined with its repeats) keeps pointing at the same requests, which may be
    /// hundreds of megabytes, and at their sorted latencies once sorted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<Arc<RequestSamples>>,
    /// The run over time as its tool summarised it (AIPerf's timeslices), in time order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slices: Vec<TimeSlice>,
    /// What was sent, beyond the dataset and the request count, as the file states it.
    #[serde(default, skip_serializing_if = "Workload::is_empty")]
    pub workload: Workload,
    /// What the server itself measured over the run's time window, when a file beside the
    /// run's holds it (inference-perf's `stage_N_prometheus_metrics.json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<Box<ServerMetrics>>,
    /// What the serving engine and its GPUs recorded while the run was sent, when files beside
    /// the run's hold it ([`crate::telemetry`]): queue, KV cache, hit rates, power, energy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<Box<EngineMetrics>>,
    /// The runs this one combines, when several runs of the configuration were measured at
    /// this load point on one day ([`crate::noise::combine`]); never set by an importer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeats: Option<Box<Repeats>>,
    /// What the configuration costs, when a report states it (set per report, never by an
    /// importer): cost quantities need it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<Price>,
    /// What the file says about the run that names neither the configuration nor the load: the
    /// keys a tool's `--metadata k=v` added (a commit, a driver version). History says which of
    /// them differ across a change point.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metadata: BTreeMap<String, String>,
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
            slices: Vec::new(),
            workload: Workload::default(),
            server: None,
            engine: None,
            repeats: None,
            price: None,
            metadata: BTreeMap::new(),
            problems: Vec::new(),
        }
    }

    /// `self` with what its file states of the whole run: how its requests ended, its latency
    /// distributions, its rates and its token statistics.
    pub fn measured(
        self,
        requests: RequestCounts,
        latency: Vec<LatencyMetric>,
        throughput: Throughput,
        tokens: TokenStats,
    ) -> Run {
        Run {
            requests,
            latency,
            throughput,
            tokens,
            ..self
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

/// The runs a combined run stands for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Repeats {
    /// How many runs were combined (two or more).
    pub count: usize,
    /// True when the combined run's requests are all the runs' requests pooled (each had
    /// per-request values); false when its statistics are the means of the runs'.
    pub pooled: bool,
    /// Where each run came from (`file#place`), in the order they were read.
    pub sources: Vec<String>,
    /// The runs as read, for intervals over runs (their per-request values are in the combined
    /// run when pooled, not here).
    #[serde(skip)]
    pub runs: Vec<Run>,
}

impl Repeats {
    /// `3 runs`, as tooltips and tables say it.
    pub fn text(&self) -> String {
        format!("{} runs", self.count)
    }
}
