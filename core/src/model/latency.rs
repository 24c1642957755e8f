//! Latencies as the model keeps them: which latency ([`Metric`], tagged with its exact
//! definition), its [`Distribution`] over a run's requests (mean, percentiles, spread) and the
//! statistic a chart or an SLA reads from it ([`Stat`]).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A latency metric, tagged with its exact definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Time to first token.
    Ttft,
    /// Time between the first and second token.
    Ttst,
    /// Time per output token, excluding the first: (e2e − ttft) / (output tokens − 1).
    Tpot,
    /// Time per output token including the first: e2e / output tokens.
    TpotInclFirst,
    /// Inter-token latency as pooled gaps between streamed chunks.
    Itl,
    /// End-to-end request latency.
    E2e,
}

impl Metric {
    /// Every metric, in display order.
    pub const ALL: [Metric; 6] = [
        Metric::Ttft,
        Metric::Ttst,
        Metric::Tpot,
        Metric::TpotInclFirst,
        Metric::Itl,
        Metric::E2e,
    ];

    /// Short name, as in `ttft`.
    pub fn id(self) -> &'static str {
        match self {
            Metric::Ttft => "ttft",
            Metric::Ttst => "ttst",
            Metric::Tpot => "tpot",
            Metric::TpotInclFirst => "tpot_incl_first",
            Metric::Itl => "itl",
            Metric::E2e => "e2e",
        }
    }

    /// Parses [`Metric::id`] and common aliases.
    pub fn from_id(s: &str) -> Option<Metric> {
        Some(match s.to_ascii_lowercase().as_str() {
            "ttft" => Metric::Ttft,
            "ttst" => Metric::Ttst,
            "tpot" => Metric::Tpot,
            "tpot_incl_first" => Metric::TpotInclFirst,
            "itl" => Metric::Itl,
            "e2e" | "e2el" | "latency" | "e2e_latency" => Metric::E2e,
            _ => return None,
        })
    }

    /// Abbreviation for axis titles.
    pub fn label(self) -> &'static str {
        match self {
            Metric::Ttft => "TTFT",
            Metric::Ttst => "TTST",
            Metric::Tpot => "TPOT",
            Metric::TpotInclFirst => "TPOT (incl. first token)",
            Metric::Itl => "ITL",
            Metric::E2e => "End-to-end latency",
        }
    }

    /// One-sentence definition, shown in tooltips and `inspect`.
    pub fn definition(self) -> &'static str {
        match self {
            Metric::Ttft => "time from sending the request to the first output token",
            Metric::Ttst => "time between the first and the second output token",
            Metric::Tpot => "decode time per output token, excluding the first token",
            Metric::TpotInclFirst => "request latency divided by output tokens (includes TTFT)",
            Metric::Itl => "gaps between streamed chunks, pooled over all requests",
            Metric::E2e => "time from sending the request to the last output token",
        }
    }
}

/// One latency metric of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LatencyMetric {
    /// Which metric, with its definition.
    pub metric: Metric,
    /// Its statistics, in milliseconds.
    pub distribution: Distribution,
}

/// Summary statistics of a distribution. Every field is optional: tools report different sets.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Distribution {
    /// Arithmetic mean.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean: Option<f64>,
    /// Median (p50 when the tool reports only percentiles).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median: Option<f64>,
    /// Standard deviation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub std: Option<f64>,
    /// Smallest value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// Largest value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    /// Percentiles, sorted by `p`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub percentiles: Vec<Percentile>,
}

/// One percentile of a distribution.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Percentile {
    /// The percentile rank, 0 to 100 (99.9 for p99.9).
    pub p: f64,
    /// The value at that rank.
    pub value: f64,
}

impl Distribution {
    /// True when no statistic is known.
    pub fn is_empty(&self) -> bool {
        self.mean.is_none()
            && self.median.is_none()
            && self.std.is_none()
            && self.min.is_none()
            && self.max.is_none()
            && self.percentiles.is_empty()
    }

    /// Sets percentile `p`, keeping the list sorted and free of duplicates.
    pub fn set_percentile(&mut self, p: f64, value: f64) {
        match self.percentiles.binary_search_by(|q| q.p.total_cmp(&p)) {
            Ok(i) => self.percentiles[i].value = value,
            Err(i) => self.percentiles.insert(i, Percentile { p, value }),
        }
    }

    /// The value at percentile `p`, if reported.
    pub fn percentile(&self, p: f64) -> Option<f64> {
        self.percentiles
            .iter()
            .find(|q| (q.p - p).abs() < 1e-9)
            .map(|q| q.value)
    }

    /// One statistic. The median falls back to p50 and back.
    pub fn get(&self, stat: Stat) -> Option<f64> {
        match stat {
            Stat::Mean => self.mean,
            Stat::Median => self.median.or_else(|| self.percentile(50.0)),
            Stat::Std => self.std,
            Stat::Min => self.min,
            Stat::Max => self.max,
            Stat::P(p) if (p - 50.0).abs() < 1e-9 => self.percentile(50.0).or(self.median),
            Stat::P(p) => self.percentile(p),
        }
    }

    /// Multiplies every statistic by `factor` (unit conversion).
    pub fn scaled(mut self, factor: f64) -> Self {
        for v in [
            &mut self.mean,
            &mut self.median,
            &mut self.std,
            &mut self.min,
            &mut self.max,
        ]
        .into_iter()
        .flatten()
        {
            *v *= factor;
        }
        for q in &mut self.percentiles {
            q.value *= factor;
        }
        self
    }
}

/// A statistic of a distribution.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stat {
    /// Arithmetic mean.
    Mean,
    /// Median.
    Median,
    /// Standard deviation.
    Std,
    /// Minimum.
    Min,
    /// Maximum.
    Max,
    /// A percentile, 0 to 100.
    P(f64),
}

impl Stat {
    /// Parses `mean`, `median`, `std`, `min`, `max`, `p99`, `p99.9`.
    pub fn parse(s: &str) -> Option<Stat> {
        let s = s.trim().to_ascii_lowercase();
        Some(match s.as_str() {
            "mean" | "avg" | "average" => Stat::Mean,
            "median" => Stat::Median,
            "std" | "stddev" => Stat::Std,
            "min" => Stat::Min,
            "max" => Stat::Max,
            _ => {
                let p: f64 = s.strip_prefix('p')?.parse().ok()?;
                if !(0.0..=100.0).contains(&p) {
                    return None;
                }
                Stat::P(p)
            }
        })
    }
}

impl fmt::Display for Stat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stat::Mean => f.write_str("mean"),
            Stat::Median => f.write_str("median"),
            Stat::Std => f.write_str("std"),
            Stat::Min => f.write_str("min"),
            Stat::Max => f.write_str("max"),
            Stat::P(p) => write!(f, "p{}", crate::format::number(*p)),
        }
    }
}
