//! The engine's and GPUs' figures as quantities a report can chart against load and quote:
//! why latency is what it is ([`crate::model::EngineMetrics`]).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::model::Run;

/// One figure of what the engine and its GPUs recorded over a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineQuantity {
    /// Mean requests waiting in the engine's queue.
    QueueDepth,
    /// Mean requests running.
    RunningRequests,
    /// Mean KV-cache use, in percent.
    KvCacheUse,
    /// Peak KV-cache use, in percent.
    KvCachePeak,
    /// Requests preempted over the run.
    Preemptions,
    /// Prefix-cache hit rate, in percent of prompt tokens.
    PrefixCacheHitRate,
    /// Draft tokens accepted, in percent of those proposed.
    SpecAcceptance,
    /// Tokens per verification step.
    SpecAcceptanceLength,
    /// Mean GPU utilisation, in percent.
    GpuUtilisation,
    /// Mean power per GPU, in watts.
    PowerPerGpu,
    /// Joules per output token.
    EnergyPerToken,
    /// Output tokens per joule.
    TokensPerJoule,
}

/// Every engine quantity, in the order pages show them.
pub const ALL: [EngineQuantity; 12] = [
    EngineQuantity::QueueDepth,
    EngineQuantity::RunningRequests,
    EngineQuantity::KvCacheUse,
    EngineQuantity::KvCachePeak,
    EngineQuantity::Preemptions,
    EngineQuantity::PrefixCacheHitRate,
    EngineQuantity::SpecAcceptance,
    EngineQuantity::SpecAcceptanceLength,
    EngineQuantity::GpuUtilisation,
    EngineQuantity::PowerPerGpu,
    EngineQuantity::EnergyPerToken,
    EngineQuantity::TokensPerJoule,
];

impl EngineQuantity {
    /// The name blocks and `--metric` use.
    pub fn id(self) -> &'static str {
        match self {
            EngineQuantity::QueueDepth => "queue_depth",
            EngineQuantity::RunningRequests => "running_requests",
            EngineQuantity::KvCacheUse => "kv_cache_use",
            EngineQuantity::KvCachePeak => "kv_cache_peak",
            EngineQuantity::Preemptions => "preemptions",
            EngineQuantity::PrefixCacheHitRate => "prefix_cache_hit_rate",
            EngineQuantity::SpecAcceptance => "spec_acceptance",
            EngineQuantity::SpecAcceptanceLength => "spec_acceptance_length",
            EngineQuantity::GpuUtilisation => "gpu_utilisation",
            EngineQuantity::PowerPerGpu => "power_per_gpu",
            EngineQuantity::EnergyPerToken => "energy_per_output_token",
            EngineQuantity::TokensPerJoule => "tokens_per_joule",
        }
    }

    /// The quantity named `name`, if it is one of these.
    pub fn parse(name: &str) -> Option<EngineQuantity> {
        ALL.into_iter().find(|q| q.id() == name)
    }

    /// Its value on `run`.
    pub fn of(self, run: &Run) -> Option<f64> {
        let e = run.engine.as_deref()?;
        match self {
            EngineQuantity::QueueDepth => e.waiting.map(|g| g.mean),
            EngineQuantity::RunningRequests => e.running.map(|g| g.mean),
            EngineQuantity::KvCacheUse => e.kv_cache_pct.map(|g| g.mean),
            EngineQuantity::KvCachePeak => e.kv_cache_pct.map(|g| g.peak),
            EngineQuantity::Preemptions => e.preemptions,
            EngineQuantity::PrefixCacheHitRate => e.prefix_cache_hit_pct,
            EngineQuantity::SpecAcceptance => e.spec_acceptance_pct,
            EngineQuantity::SpecAcceptanceLength => e.spec_acceptance_length,
            EngineQuantity::GpuUtilisation => e.gpu_util_pct.map(|g| g.mean),
            EngineQuantity::PowerPerGpu => e.power_w.map(|g| g.mean),
            EngineQuantity::EnergyPerToken => e.joules_per_token(run.tokens.total_output),
            EngineQuantity::TokensPerJoule => {
                e.joules_per_token(run.tokens.total_output).map(|j| 1.0 / j)
            }
        }
    }

    /// Unit for axes and values.
    pub fn unit(self) -> &'static str {
        match self {
            EngineQuantity::QueueDepth | EngineQuantity::RunningRequests => "req",
            EngineQuantity::KvCacheUse
            | EngineQuantity::KvCachePeak
            | EngineQuantity::PrefixCacheHitRate
            | EngineQuantity::SpecAcceptance
            | EngineQuantity::GpuUtilisation => "%",
            EngineQuantity::Preemptions => "count",
            EngineQuantity::SpecAcceptanceLength => "tok/step",
            EngineQuantity::PowerPerGpu => "W",
            EngineQuantity::EnergyPerToken => "J/tok",
            EngineQuantity::TokensPerJoule => "tok/J",
        }
    }

    /// True when more is better; `None` for what is a cause to read, not a score (a queue,
    /// KV-cache use, utilisation, power), where neither direction wins.
    pub fn higher_is_better(self) -> Option<bool> {
        match self {
            EngineQuantity::PrefixCacheHitRate
            | EngineQuantity::SpecAcceptance
            | EngineQuantity::SpecAcceptanceLength
            | EngineQuantity::TokensPerJoule => Some(true),
            EngineQuantity::Preemptions | EngineQuantity::EnergyPerToken => Some(false),
            _ => None,
        }
    }
}

impl fmt::Display for EngineQuantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EngineQuantity::QueueDepth => "Requests waiting (mean)",
            EngineQuantity::RunningRequests => "Requests running (mean)",
            EngineQuantity::KvCacheUse => "KV-cache use (mean)",
            EngineQuantity::KvCachePeak => "KV-cache use (peak)",
            EngineQuantity::Preemptions => "Preemptions",
            EngineQuantity::PrefixCacheHitRate => "Prefix-cache hit rate",
            EngineQuantity::SpecAcceptance => "Draft tokens accepted",
            EngineQuantity::SpecAcceptanceLength => "Tokens per verification step",
            EngineQuantity::GpuUtilisation => "GPU utilisation (mean)",
            EngineQuantity::PowerPerGpu => "Power per GPU (mean)",
            EngineQuantity::EnergyPerToken => "Energy per output token",
            EngineQuantity::TokensPerJoule => "Output tokens per joule",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_back() {
        for q in ALL {
            assert_eq!(EngineQuantity::parse(q.id()), Some(q));
        }
        assert_eq!(EngineQuantity::parse("ttft"), None);
    }
}
