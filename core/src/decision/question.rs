//! What the reader asks the engine ([`Question`]): the load, the hard limits and the criteria
//! with their weights.

use serde::{Deserialize, Serialize};

use crate::format;
use crate::model::Stat;
use crate::noise::Interval;
use crate::quantity::Quantity;

/// A hard limit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Constraint {
    /// What is limited.
    pub quantity: Quantity,
    /// The bound.
    pub bound: Bound,
}

/// An upper or lower bound.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// The value must be at most this.
    AtMost(f64),
    /// The value must be at least this.
    AtLeast(f64),
}

impl Bound {
    pub(super) fn holds(self, v: f64) -> bool {
        match self {
            Bound::AtMost(limit) => v <= limit,
            Bound::AtLeast(limit) => v >= limit,
        }
    }

    /// Whether a value, with its 95% `interval` where the data gives one, meets the bound: met
    /// or missed only when the whole interval says so. A p99 of 495 ms against at most 500 ms,
    /// known to 397–540 ms, is within the noise of the limit; without an interval the value
    /// alone decides.
    pub fn judge(self, value: f64, interval: Option<Interval>) -> Compliance {
        let Some(i) = interval else {
            return if self.holds(value) {
                Compliance::Met
            } else {
                Compliance::Missed
            };
        };
        // An interval drawn from other values than this one (an interpolation's ends) is
        // widened to hold it.
        let i = Interval {
            lo: i.lo.min(value),
            hi: i.hi.max(value),
        };
        match (self.holds(i.lo), self.holds(i.hi)) {
            (true, true) => Compliance::Met,
            (false, false) => Compliance::Missed,
            _ => Compliance::WithinNoise(i),
        }
    }

    /// The limit.
    pub fn limit(self) -> f64 {
        match self {
            Bound::AtMost(limit) | Bound::AtLeast(limit) => limit,
        }
    }
}

/// How a value stands against a [`Bound`] ([`Bound::judge`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Compliance {
    /// Met, by the whole interval (or by the value, its noise unknown).
    Met,
    /// Missed likewise.
    Missed,
    /// The interval holds the limit: the data cannot say which side the truth is on.
    WithinNoise(Interval),
}

/// Something the reader cares about, with its weight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Criterion {
    /// What is scored.
    pub kind: CriterionKind,
    /// How much it counts (any non-negative number; only ratios matter).
    pub weight: f64,
}

/// What a criterion scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CriterionKind {
    /// A measured quantity at the required load.
    Measured(Quantity),
    /// The highest measured load at which every constraint holds and no request failed (or
    /// no more than a latency percentile target leaves room for).
    MaxStableLoad,
    /// A flag attribute: having it scores 1.
    Attribute(String),
}

impl CriterionKind {
    /// Its name for people.
    pub fn name(&self) -> String {
        match self {
            CriterionKind::Measured(q) => q.to_string(),
            CriterionKind::MaxStableLoad => "Max stable load".into(),
            CriterionKind::Attribute(a) => a.replace('_', " "),
        }
    }
}

/// What the reader asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Question {
    /// The load the SLAs and measured criteria are checked at.
    pub load: f64,
    /// Hard limits.
    pub constraints: Vec<Constraint>,
    /// Attributes a candidate must have (`tool_calling`).
    #[serde(default)]
    pub required: Vec<String>,
    /// What to optimise.
    pub criteria: Vec<Criterion>,
}

/// The share of the requests sent (0 to 1) a latency percentile target lets fail: failed
/// requests count as misses, so a `pP` target needs P% of them to succeed (a p95 target leaves
/// room for 5% failures, a median for half). `None` when `q` is not a latency percentile.
pub fn allowed_failures(q: Quantity) -> Option<f64> {
    match q {
        Quantity::Latency {
            stat: Stat::P(p), ..
        } => Some((100.0 - p) / 100.0),
        Quantity::Latency {
            stat: Stat::Median, ..
        } => Some(0.5),
        _ => None,
    }
}

/// Why a run whose requests succeeded `success_pct`% of the time misses a `q` target whatever
/// its latency: `15% of the requests failed: a TTFT p90 target counts them as misses and allows
/// 10%`. `None` when the failures fit, or when `q` is not a latency percentile.
pub fn too_many_failures(q: Quantity, success_pct: f64) -> Option<String> {
    let allowed = allowed_failures(q)?;
    let failed = 1.0 - success_pct / 100.0;
    (failed > allowed + 1e-12).then(|| {
        format!(
            "{}% of the requests failed: a {q} target counts them as misses and allows {}%",
            format::number(failed * 100.0),
            format::number(allowed * 100.0)
        )
    })
}
