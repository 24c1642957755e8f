//! What an expression computes to ([`Computed`]): the number, how it is shown, where it comes
//! from, how sure it is ([`ValueNoise`]) and how it follows a reader's prices ([`Priced`]); and
//! the evaluator's signature, which the functions that evaluate their arguments are given.

use super::parse::Expr;
use crate::compare::Comparison;
use crate::format;
use crate::model::Run;
use crate::quantity::Quantity;
use crate::report::context::ReportContext;

/// The evaluator (`eval.rs`), as the functions that compute their arguments get it: passing it
/// in keeps them from naming the evaluator that calls them.
pub(super) type Evaluate = fn(&ReportContext<'_>, &Expr) -> Result<Computed, String>;

/// A computed value.
#[derive(Debug, Clone, PartialEq)]
pub struct Computed {
    /// The number.
    pub value: f64,
    /// False when the value is a finding rather than a number ("none"): arithmetic refuses it.
    pub is_number: bool,
    /// How it is shown: `406 ms`, `12.9x`, `10 req/s`.
    pub text: String,
    /// The unit of `value` (`ms`, `%`, `$ per million output tokens`); empty for a count or
    /// a finding. `seconds`, `diff` and `share` check it.
    pub unit: String,
    /// Where it comes from, for the tooltip.
    pub source: String,
    /// How it follows a reader's own prices (`cost::sheet`), when it is or compares a cost.
    pub priced: Option<Priced>,
    /// How sure it is, and what it compares.
    pub noise: ValueNoise,
}

/// What an inline value knows of its noise: its 95% interval, how many runs it combines, and
/// the runs a comparison sets side by side (for the workload note).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ValueNoise {
    /// The value's 95% interval, when the data bounds it.
    pub interval: Option<crate::noise::Interval>,
    /// How many runs the value's run combines (a load point measured several times); 0 or 1
    /// for one run.
    pub runs: usize,
    /// The runs a value was read from, each with its configuration's name shown (index into
    /// the report's runs), so a comparison can say how their workloads differ.
    pub from: Vec<(String, usize)>,
}

/// How a computed value follows a reader's own prices: what the page needs to show it at their
/// rates (`app/src/components/prices.rs`).
#[derive(Debug, Clone, PartialEq)]
pub enum Priced {
    /// A cost of this configuration: proportional to its price.
    Cost(String),
    /// `ratio` or `pct` of two values, one or both a cost: each side's configuration when it is
    /// a cost, and its value. (A comparison of comparisons stays as the build computed it.)
    Compared(Comparison, [(Option<String>, f64); 2]),
}

/// A value of `run` as an inline value shows it: the number, its interval and where it came from.
pub(super) fn computed(
    ctx: &ReportContext<'_>,
    q: Quantity,
    value: f64,
    config: &str,
    run: &Run,
) -> Computed {
    let estimate = crate::noise::estimate(q, run).filter(|e| e.value == value);
    let interval = estimate
        .and_then(|e| e.interval_text(q.unit()))
        .map_or(String::new(), |ci| format!("; {ci}"));
    let name = ctx.display(config).0;
    Computed {
        is_number: true,
        priced: crate::cost::is_cost(q).then(|| Priced::Cost(config.to_string())),
        value,
        text: format::with_unit(value, q.prose_unit()),
        unit: q.prose_unit().to_string(),
        source: format!(
            "{q} of {name} at {} ({}){interval}",
            run.load.target,
            run.source()
        ),
        noise: ValueNoise {
            interval: estimate.and_then(|e| e.interval.map(|(i, _)| i)),
            runs: run.repeats.as_ref().map_or(1, |r| r.count),
            from: ctx
                .runs
                .iter()
                .position(|r| std::ptr::eq(*r, run))
                .map(|i| (name, i))
                .into_iter()
                .collect(),
        },
    }
}

/// The 95% interval of `ratio(a, b)` (a ÷ b) or `pct(a, b)` ((b − a) ÷ b, in percent), when
/// both sides have one.
pub(super) fn compared_interval(
    comparison: Comparison,
    a: &Computed,
    b: &Computed,
) -> Option<crate::noise::Interval> {
    let ratio =
        crate::noise::Ratio::between((b.value, b.noise.interval), (a.value, a.noise.interval))?;
    let i = ratio.interval?;
    Some(match comparison {
        Comparison::Ratio => i,
        Comparison::PercentLower => crate::noise::Interval {
            lo: (1.0 - i.hi) * 100.0,
            hi: (1.0 - i.lo) * 100.0,
        },
    })
}
