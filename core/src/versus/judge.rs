//! One metric of one load point judged: base, new, the change in percent with its 95%
//! interval, the verdict, its p-value, and whether it is a candidate to fail the gate (the
//! family's correction, [`super::family`], decides).

use serde::{Serialize, Serializer};

use crate::model::Run;
use crate::noise::{self, Estimate, Finding, Interval, Ratio};
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
    /// The interval of the change includes none.
    NoClearDifference,
    /// Some side has no interval: the values alone cannot say whether the change is more
    /// than noise. Never fails the gate.
    NoiseUnknown,
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
            Verdict::NoiseUnknown => "noise unknown",
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
    /// Base's 95% interval, when its data bounds it; an end the data cannot bound (a p99 of
    /// too few requests) is infinite, written `"inf"` or `"-inf"` in JSON.
    #[serde(serialize_with = "ends")]
    pub base_interval: Option<[f64; 2]>,
    /// New's 95% interval, likewise.
    #[serde(serialize_with = "ends")]
    pub new_interval: Option<[f64; 2]>,
    /// (new − base) ÷ base, in percent.
    pub change_pct: Option<f64>,
    /// The 95% interval of the change, in percent, when both sides have one; an unbounded
    /// end is infinite, written `"inf"` or `"-inf"` in JSON (`null` is only ever "none").
    #[serde(serialize_with = "ends")]
    pub interval_pct: Option<[f64; 2]>,
    /// False when some side has no interval: the verdict is then [`Verdict::NoiseUnknown`].
    pub noise_known: bool,
    /// What the data says.
    pub verdict: Verdict,
    /// The two-sided p-value of "no change", read off the interval of the change (its
    /// half-width towards no change taken as 1.96 standard errors on the log scale); `None`
    /// when the noise is unknown.
    pub p_value: Option<f64>,
    /// True when the change is worse, clearly, and by more than the threshold: the gate's
    /// candidate. Whether it fails is the family's to say.
    pub worse_beyond_threshold: bool,
    /// True when the row fails the gate: a candidate whose p-value survives Holm's correction
    /// over every metric judged with an interval.
    pub fails: bool,
}

/// An interval's ends for JSON: numbers, or `"inf"`/`"-inf"` where unbounded.
fn ends<S: Serializer>(value: &Option<[f64; 2]>, s: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    #[serde(untagged)]
    enum End {
        Number(f64),
        Word(&'static str),
    }
    let end = |v: f64| {
        if v == f64::INFINITY {
            End::Word("inf")
        } else if v == f64::NEG_INFINITY {
            End::Word("-inf")
        } else {
            End::Number(v)
        }
    };
    value.map(|[lo, hi]| [end(lo), end(hi)]).serialize(s)
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
        base_interval: eb.and_then(|e| e.bounds()).map(|(i, _)| [i.lo, i.hi]),
        new_interval: en.and_then(|e| e.bounds()).map(|(i, _)| [i.lo, i.hi]),
        change_pct: None,
        interval_pct: None,
        noise_known: false,
        verdict: Verdict::Missing,
        p_value: None,
        worse_beyond_threshold: false,
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
        Some(Finding::NoiseUnknown) | None => Verdict::NoiseUnknown,
    };
    let df = degrees_of_freedom(&eb, &en);
    row.p_value = ratio
        .interval
        .map(|i| p_value(ratio.value.ln(), (i.lo.ln(), i.hi.ln()), df));
    row.worse_beyond_threshold = row.verdict == Verdict::Worse && change.abs() > threshold_pct;
    row.fails = row.worse_beyond_threshold;
    row
}

/// The degrees of freedom of a comparison of `a` and `b`: the fewer of the two sides', so that
/// its p-value errs on the cautious side.
fn degrees_of_freedom(a: &Estimate, b: &Estimate) -> f64 {
    let df = |e: &Estimate| {
        e.bounds()
            .map_or(1.0, |(_, basis)| basis.degrees_of_freedom())
    };
    df(a).min(df(b))
}

/// The two-sided p-value of no change (0) for an estimate `d` with 95% interval `lo`–`hi` built
/// with Student's t at `df` degrees of freedom: the interval's half-width towards 0 is read as
/// t(0.975, df) standard errors, and the p-value is t's at `df` (a normal reading would make an
/// interval of four blocks, t(3) = 3.18, look 6.5 times surer at Holm's thresholds). An interval
/// unbounded towards 0 gives 1.
pub fn p_value(d: f64, (lo, hi): (f64, f64), df: f64) -> f64 {
    let towards_zero = if d >= 0.0 { d - lo } else { hi - d };
    if towards_zero == 0.0 && d != 0.0 {
        return 0.0;
    }
    if towards_zero.is_nan() || towards_zero <= 0.0 || towards_zero.is_infinite() {
        return 1.0;
    }
    let t = d.abs() / (towards_zero / noise::student::t_975(df));
    (2.0 * noise::student::t_upper_tail(t, df)).min(1.0)
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
        .bounds()
        .zip(new.bounds())
        .map(|((b, _), (n, _))| noise::difference((base.value, b), (new.value, n)));
    row.noise_known = interval.is_some();
    // From a base above zero (to a new side at zero), the interval in percent of the base.
    row.interval_pct = interval
        .filter(|_| base.value > 0.0)
        .map(|i| [i.lo / base.value * 100.0, i.hi / base.value * 100.0]);
    row.verdict = match interval {
        None => Verdict::NoiseUnknown,
        Some(i) if i.lo <= 0.0 && 0.0 <= i.hi => Verdict::NoClearDifference,
        Some(_) => by_values(better, base.value, new.value),
    };
    let df = degrees_of_freedom(base, new);
    row.p_value = interval.map(|i: Interval| p_value(new.value - base.value, (i.lo, i.hi), df));
    row.worse_beyond_threshold =
        row.verdict == Verdict::Worse && row.change_pct.is_none_or(|c| c.abs() > threshold_pct);
    row.fails = row.worse_beyond_threshold;
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
        Quantity::Engine(q) => q.id(),
    };
    name.to_string()
}
