//! One metric of one load point judged: base, new, the change in percent with its 95%
//! interval, the verdict, and whether it fails the gate.

use serde::Serialize;

use crate::model::Run;
use crate::noise::{self, Estimate, Finding, Ratio};
use crate::quantity::{Better, Quantity};

/// What the data says of a metric's change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Clearly better: the interval of the change excludes none (or, with the noise unknown,
    /// the change is beyond the threshold).
    Better,
    /// Clearly worse, likewise.
    Worse,
    /// The interval of the change includes none (with the noise unknown: the change is
    /// within the threshold).
    NoClearDifference,
    /// One side does not report the metric.
    Missing,
}

impl Verdict {
    /// The words every output uses.
    pub fn words(self) -> &'static str {
        match self {
            Verdict::Better => "better",
            Verdict::Worse => "worse",
            Verdict::NoClearDifference => noise::NO_CLEAR_DIFFERENCE,
            Verdict::Missing => "missing",
        }
    }
}

/// One metric's row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerdictRow {
    /// The metric as `--metric` names it (`ttft:p99`, `output_throughput`).
    pub metric: String,
    /// Its name for people (`TTFT p99`).
    pub label: String,
    /// Its unit (`ms`, `tok/s`, `%`).
    pub unit: String,
    /// Which way is better.
    pub better: Better,
    /// Base's value.
    pub base: Option<f64>,
    /// New's value.
    pub new: Option<f64>,
    /// Base's 95% interval, when its data bounds it.
    pub base_interval: Option<[f64; 2]>,
    /// New's 95% interval, likewise.
    pub new_interval: Option<[f64; 2]>,
    /// (new − base) ÷ base, in percent.
    pub change_pct: Option<f64>,
    /// The 95% interval of the change, in percent, when both sides have one.
    pub interval_pct: Option<[f64; 2]>,
    /// False when some side has no interval: the verdict is then by the values alone.
    pub noise_known: bool,
    /// What the data says.
    pub verdict: Verdict,
    /// True when the row is worse by more than the threshold: it fails the gate.
    pub fails: bool,
}

/// The row of `q` between `base` and `new`, gated at `threshold_pct`.
pub(super) fn row(q: Quantity, base: &Run, new: &Run, threshold_pct: f64) -> VerdictRow {
    let (eb, en) = (noise::estimate(q, base), noise::estimate(q, new));
    let mut row = VerdictRow {
        metric: id(q),
        label: q.to_string(),
        unit: q.unit().to_string(),
        better: q.better(),
        base: eb.map(|e| e.value),
        new: en.map(|e| e.value),
        base_interval: eb.and_then(|e| e.interval).map(|(i, _)| [i.lo, i.hi]),
        new_interval: en.and_then(|e| e.interval).map(|(i, _)| [i.lo, i.hi]),
        change_pct: None,
        interval_pct: None,
        noise_known: false,
        verdict: Verdict::Missing,
        fails: false,
    };
    let (Some(eb), Some(en)) = (eb, en) else {
        return row;
    };
    let Some(ratio) = Ratio::of(&eb, &en) else {
        return at_zero(row, q.better(), (&eb, &en), threshold_pct);
    };
    let change = (ratio.value - 1.0) * 100.0;
    row.change_pct = Some(change);
    row.interval_pct = ratio
        .interval
        .map(|i| [(i.lo - 1.0) * 100.0, (i.hi - 1.0) * 100.0]);
    row.noise_known = ratio.interval.is_some();
    row.verdict = match Finding::of(&eb, &en, q.better()) {
        Some(Finding::Clear { winner: 1, .. }) => Verdict::Better,
        Some(Finding::Clear { .. }) => Verdict::Worse,
        Some(Finding::NoClearDifference { .. }) => Verdict::NoClearDifference,
        // Without intervals the threshold stands in for the noise: a smaller change is no
        // verdict either way.
        Some(Finding::NoiseUnknown) | None if change.abs() <= threshold_pct => {
            Verdict::NoClearDifference
        }
        Some(Finding::NoiseUnknown) | None => by_values(q.better(), eb.value, en.value),
    };
    row.fails = row.verdict == Verdict::Worse && change.abs() > threshold_pct;
    row
}

/// `row` when a side's value is zero, where a ratio means nothing: a run whose every request
/// failed has no throughput; a base without errors has an error rate of 0%. The difference
/// `new − base` decides: by its 95% interval where both sides have one (MOVER on the plain
/// scale, as [`Ratio`] on the log scale), else by its sign. A change from zero is beyond any
/// threshold, so a clearly worse one fails the gate. A value that is no number stays missing.
fn at_zero(
    mut row: VerdictRow,
    better: Better,
    (base, new): (&Estimate, &Estimate),
    threshold_pct: f64,
) -> VerdictRow {
    if !(base.value.is_finite() && new.value.is_finite()) {
        return row;
    }
    let change = (base.value != 0.0).then(|| (new.value - base.value) / base.value * 100.0);
    row.change_pct = change.filter(|c| c.is_finite());
    let interval = base
        .interval
        .zip(new.interval)
        .map(|((b, _), (n, _))| noise::difference((base.value, b), (new.value, n)));
    row.noise_known = interval.is_some();
    // From a base above zero (to a new side at zero), the interval in percent of the base.
    row.interval_pct = interval
        .filter(|_| base.value > 0.0)
        .map(|i| [i.lo / base.value * 100.0, i.hi / base.value * 100.0]);
    row.verdict = match (interval, row.change_pct) {
        (Some(i), _) if i.lo <= 0.0 && 0.0 <= i.hi => Verdict::NoClearDifference,
        (None, Some(c)) if c.abs() <= threshold_pct => Verdict::NoClearDifference,
        _ => by_values(better, base.value, new.value),
    };
    row.fails =
        row.verdict == Verdict::Worse && row.change_pct.is_none_or(|c| c.abs() > threshold_pct);
    row
}

/// The verdict of the values alone.
fn by_values(better: Better, base: f64, new: f64) -> Verdict {
    let improved = match better {
        Better::Lower => new < base,
        Better::Higher => new > base,
    };
    if base == new {
        Verdict::NoClearDifference
    } else if improved {
        Verdict::Better
    } else {
        Verdict::Worse
    }
}

/// `ttft:p99`, `output_throughput`: the metric as `--metric` takes it.
pub fn id(q: Quantity) -> String {
    let name = match q {
        Quantity::Latency { metric, stat } => return format!("{}:{stat}", metric.id()),
        Quantity::OutputThroughput => "output_throughput",
        Quantity::OutputPerUser => "output_tok_s_per_user",
        Quantity::TotalThroughput => "total_throughput",
        Quantity::RequestThroughput => "request_throughput",
        Quantity::Goodput => "goodput",
        Quantity::SuccessRate => "success_rate",
        Quantity::ErrorRate => "error_rate",
        Quantity::CostPerMillionOutput => "cost_per_1m_output",
        Quantity::CostPerMillionTotal => "cost_per_1m_total",
        Quantity::OutputPerGpu => "output_throughput_per_gpu",
        Quantity::Interactivity => "interactivity",
        Quantity::LatencyPerOutputToken => "e2e_per_output_token",
        Quantity::OutputPerRequest => "output_tok_s_per_request",
    };
    name.to_string()
}
