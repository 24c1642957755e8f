//! What `benchdeck compare` finds ([`Outcome`]): each matched load point's rows, the points only
//! one side has, the warnings and the counts, in the shape its JSON prints; and what it is asked
//! ([`Options`]).

use serde::Serialize;

use super::judge::VerdictRow;
use crate::quantity::Quantity;

/// The shape of the JSON `compare --format json` prints; it changes if the shape ever does.
pub const FORMAT: &str = "benchdeck-compare/2";

/// What to compare and when to fail.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// The metrics, in the order rows show them.
    pub metrics: Vec<Quantity>,
    /// A worse metric fails the gate only beyond this change, in percent.
    pub threshold_pct: f64,
}

/// The whole comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// [`FORMAT`].
    pub format: &'static str,
    /// The gate's threshold, in percent.
    pub threshold_pct: f64,
    /// Load points measured on both sides, in base's order.
    pub points: Vec<PointComparison>,
    /// Load points only base has.
    pub only_base: Vec<PointId>,
    /// Load points only new has.
    pub only_new: Vec<PointId>,
    /// What makes the comparison less than like for like (workloads, versions, a pairing by
    /// load alone), one sentence each.
    pub warnings: Vec<String>,
    /// How many rows got each verdict.
    pub counts: Counts,
    /// True when a row fails the gate.
    pub fails: bool,
}

/// A configuration at a load point.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PointId {
    /// The configuration's key (label, engine or model, and settings).
    pub config: String,
    /// The load point, as pages write it (`concurrency 8`, `10 req/s`).
    pub load: String,
}

/// One matched load point: every metric's row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PointComparison {
    /// Which point.
    #[serde(flatten)]
    pub id: PointId,
    /// How many runs each side combines there (1 for a single run).
    pub runs: [usize; 2],
    /// One row per metric either side reports.
    pub rows: Vec<VerdictRow>,
}

/// Verdicts counted over every row.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Clearly better.
    pub better: usize,
    /// Clearly worse (whether or not beyond the threshold).
    pub worse: usize,
    /// The interval includes no change.
    pub no_clear_difference: usize,
    /// Not judged: some side has no interval, so the values alone cannot tell a change from
    /// noise. These never fail the gate.
    pub noise_unknown: usize,
    /// Rows judged with an interval: the family over which Holm's correction keeps the
    /// chance of any false failure at 5%.
    pub judged: usize,
    /// One side lacks the metric.
    pub missing: usize,
    /// Rows that fail the gate: worse, clearly, beyond the threshold, and surviving Holm's
    /// correction over the judged rows.
    pub failing: usize,
}
