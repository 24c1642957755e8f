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
    /// Dollars of GPU energy per million output tokens (needs `kwh:` in the price).
    EnergyCostPerMillion,
}

/// Every engine quantity, in the order pages show them.
pub const ALL: [EngineQuantity; 13] = [
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
    EngineQuantity::EnergyCostPerMillion,
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
            EngineQuantity::EnergyCostPerMillion => "energy_cost_per_1m_output",
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
            EngineQuantity::KvCachePeak => e.kv_cache_pct.and_then(|g| g.peak),
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
            EngineQuantity::EnergyCostPerMillion => run
                .price?
                .energy_per_million(e.joules_per_token(run.tokens.total_output)?),
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
            // Not the deployment's `$/1M tok`: a reader's GPU-hour price does not move it.
            EngineQuantity::EnergyCostPerMillion => "$ energy/1M tok",
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
            EngineQuantity::Preemptions
            | EngineQuantity::EnergyPerToken
            | EngineQuantity::EnergyCostPerMillion => Some(false),
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
            EngineQuantity::EnergyCostPerMillion => "Energy cost per 1M output tokens",
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

    #[test]
    fn energy_per_token_and_its_cost_read_the_runs_tokens_and_price() {
        let text = r#"{"date": "20250301-101010", "backend": "vllm", "model_id": "m",
            "request_rate": 4.0, "completed": 10, "total_output_tokens": 1000000}"#;
        let mut run = crate::import::import("r.json", text.as_bytes())
            .runs
            .remove(0);
        assert_eq!(EngineQuantity::EnergyPerToken.of(&run), None);
        run.engine = Some(Box::new(crate::model::EngineMetrics {
            energy_j: Some(150_000.0),
            ..crate::model::EngineMetrics::default()
        }));
        assert_eq!(EngineQuantity::EnergyPerToken.of(&run), Some(0.15));
        let per_joule = EngineQuantity::TokensPerJoule.of(&run).unwrap();
        assert!((per_joule - 1.0 / 0.15).abs() < 1e-12);
        assert_eq!(EngineQuantity::EnergyCostPerMillion.of(&run), None);
        run.price = Some(crate::model::Price {
            usd_per_hour: 10.0,
            gpus: Some(1),
            usd_per_kwh: Some(0.12),
        });
        let cost = EngineQuantity::EnergyCostPerMillion.of(&run).unwrap();
        assert!((cost - 0.005).abs() < 1e-12, "{cost}");
    }
}
