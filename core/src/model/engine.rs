//! Why, beside how much: what the serving engine and its GPUs recorded while a run was sent
//! ([`EngineMetrics`]), read from the files beside the run's (Prometheus scrapes of `/metrics`,
//! per-second series of the engine's gauges, `nvidia-smi` logs, the engine's own log) by
//! [`crate::telemetry`].
//!
//! Gauges (requests waiting, KV-cache use, power) become a [`Gauge`]: mean, median, p99 and
//! peak over the samples. Counters become the run's deltas and the rates made of them: the
//! prefix-cache hit rate, speculative decoding's acceptance, preemptions. Energy is the power
//! of every GPU integrated over the series; per output token it joins the run's own count.

use serde::{Deserialize, Serialize};

/// A gauge sampled over a run: its mean, median, 99th percentile and peak. A report that
/// summarised the samples itself may give the mean alone (inference-perf's).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Gauge {
    /// The mean of the samples.
    pub mean: f64,
    /// The median.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p50: Option<f64>,
    /// The 99th percentile (nearest rank).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p99: Option<f64>,
    /// The largest sample.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak: Option<f64>,
    /// How many samples, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<usize>,
}

impl Gauge {
    /// The gauge of `values` (non-finite ones left out); `None` without a finite value.
    pub fn of(values: &[f64]) -> Option<Gauge> {
        let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
        if v.is_empty() {
            return None;
        }
        crate::order::sort_f64(&mut v);
        let rank = |q: f64| v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1];
        Some(Gauge {
            mean: v.iter().sum::<f64>() / v.len() as f64,
            p50: Some(rank(0.5)),
            p99: Some(rank(0.99)),
            peak: Some(v[v.len() - 1]),
            samples: Some(v.len()),
        })
    }

    /// A gauge known by its mean alone.
    pub fn mean_only(mean: f64) -> Gauge {
        Gauge {
            mean,
            p50: None,
            p99: None,
            peak: None,
            samples: None,
        }
    }
}

/// What the engine and its GPUs recorded over one run. Every field is optional: each file
/// gives what it holds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EngineMetrics {
    /// The files these figures were read from.
    pub sources: Vec<String>,
    /// Requests waiting in the engine's queue (vLLM's `num_requests_waiting`, SGLang's
    /// `num_queue_reqs`, a log's `Pending:`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting: Option<Gauge>,
    /// Requests the engine was running.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running: Option<Gauge>,
    /// The share of the KV cache in use, in percent (engines write a 0–1 ratio).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kv_cache_pct: Option<Gauge>,
    /// Requests preempted during the run (their KV cache evicted to make room).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preemptions: Option<f64>,
    /// The share of prompt tokens the engine's prefix cache held, in percent, from its
    /// counters (queries and hits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix_cache_hit_pct: Option<f64>,
    /// The same from an external or offloaded cache (LMCache and other KV connectors).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_prefix_cache_hit_pct: Option<f64>,
    /// Draft tokens accepted by the target model, in percent of those proposed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec_acceptance_pct: Option<f64>,
    /// Tokens produced per verification step: 1 plus the accepted draft tokens per draft.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec_acceptance_length: Option<f64>,
    /// GPU utilisation in percent, every GPU's samples together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_util_pct: Option<Gauge>,
    /// Power per GPU in watts, every GPU's samples together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_w: Option<Gauge>,
    /// How many GPUs the power and utilisation are of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpus: Option<usize>,
    /// Energy drawn by those GPUs over the series, in joules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energy_j: Option<f64>,
    /// Requests the server finished between its scrapes (vLLM's `request_success_total`,
    /// SGLang's `num_requests_total`), to set beside the client's count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_requests: Option<f64>,
    /// Seconds the series span.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span_s: Option<f64>,
}

impl EngineMetrics {
    /// Joules per output token, given the run's output tokens.
    pub fn joules_per_token(&self, output_tokens: Option<u64>) -> Option<f64> {
        let tokens = output_tokens.filter(|&t| t > 0)? as f64;
        self.energy_j.map(|j| j / tokens)
    }

    /// Each figure there is, named, as text: `requests waiting: mean 1,797, p99 1,840, peak
    /// 1,840`, `energy per output token: 0.098 J (10.2 tokens/J)`; `output_tokens` are the
    /// run's, for energy per token.
    pub fn figures(&self, output_tokens: Option<u64>) -> Vec<(&'static str, String)> {
        use crate::format::number;
        let gauge = |g: &Gauge, unit: &str| {
            let stats = [("p50", g.p50), ("p99", g.p99), ("peak", g.peak)];
            let mut parts = vec![format!("mean {}{unit}", number(g.mean))];
            parts.extend(
                stats
                    .iter()
                    .filter_map(|(name, v)| Some(format!("{name} {}{unit}", number((*v)?)))),
            );
            parts.join(", ")
        };
        let mut out = Vec::new();
        let gauges = [
            ("requests waiting", &self.waiting, ""),
            ("requests running", &self.running, ""),
            ("KV-cache use", &self.kv_cache_pct, "%"),
            ("GPU utilisation", &self.gpu_util_pct, "%"),
            ("power per GPU", &self.power_w, " W"),
        ];
        for (label, g, unit) in gauges {
            if let Some(g) = g {
                out.push((label, gauge(g, unit)));
            }
        }
        let pct = |v: f64| format!("{}%", number(v));
        let single = [
            ("preemptions", self.preemptions.map(number)),
            ("prefix-cache hit rate", self.prefix_cache_hit_pct.map(pct)),
            (
                "external prefix-cache hit rate",
                self.external_prefix_cache_hit_pct.map(pct),
            ),
            ("draft tokens accepted", self.spec_acceptance_pct.map(pct)),
            (
                "tokens per verification step",
                self.spec_acceptance_length.map(number),
            ),
            ("GPUs", self.gpus.map(|g| g.to_string())),
            (
                "energy",
                self.energy_j.map(|j| format!("{} kJ", number(j / 1000.0))),
            ),
        ];
        out.extend(single.into_iter().filter_map(|(l, v)| Some((l, v?))));
        if let Some(j) = self.joules_per_token(output_tokens) {
            let per = format!("{} J ({} tokens/J)", number(j), number(1.0 / j));
            out.push(("energy per output token", per));
        }
        out
    }

    /// True when nothing was read.
    pub fn is_empty(&self) -> bool {
        *self
            == EngineMetrics {
                sources: self.sources.clone(),
                ..EngineMetrics::default()
            }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gauge_reads_nearest_ranks_and_skips_what_is_not_finite() {
        let values: Vec<f64> = (1..=100).map(f64::from).chain([f64::NAN]).collect();
        let g = Gauge::of(&values).unwrap();
        assert_eq!(
            (g.p50, g.p99, g.peak, g.samples),
            (Some(50.0), Some(99.0), Some(100.0), Some(100))
        );
        assert!((g.mean - 50.5).abs() < 1e-12);
        assert_eq!(Gauge::of(&[f64::NAN]), None);
    }

    #[test]
    fn energy_per_token_needs_tokens() {
        let m = EngineMetrics {
            energy_j: Some(1_000.0),
            ..EngineMetrics::default()
        };
        assert_eq!(m.joules_per_token(Some(4_000)), Some(0.25));
        assert_eq!(m.joules_per_token(Some(0)), None);
        assert_eq!(m.joules_per_token(None), None);
        assert!(!m.is_empty());
        assert!(EngineMetrics::default().is_empty());
    }
}
