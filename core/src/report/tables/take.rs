//! Which run's value each configuration shows in a row: the one at a load point, or the highest
//! or lowest over the sweep, with a bare load (`load: 4`) refused when it could be two kinds of
//! point.

use super::super::context::ReportContext;
use super::super::load::{same, LoadKind};
use crate::format;
use crate::model::Run;
use crate::quantity::Quantity;

/// Which of a configuration's runs gives a row its value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Take {
    /// The run at this load, of this kind of sweep when the table says.
    At(f64, Option<LoadKind>),
    /// The run with the highest value.
    Max,
    /// The run with the lowest value.
    Min,
}

/// A load written without its kind (`load: 4`) must name one kind of sweep among `keys`'
/// runs: 4 req/s and concurrency 4 are different points, and one table row must not set
/// them side by side.
pub(super) fn one_kind_at(
    ctx: &ReportContext<'_>,
    keys: &[String],
    load: f64,
    kind: Option<LoadKind>,
) -> Result<(), String> {
    if kind.is_some() {
        return Ok(());
    }
    let mut seen: Vec<(&str, &Run)> = Vec::new();
    for key in keys {
        for run in ctx.runs_of(key) {
            let at_load = run.load.target.value().is_some_and(|v| same(v, load));
            let kind = LoadKind::of(&run.load.target);
            if at_load
                && kind.is_some()
                && !seen
                    .iter()
                    .any(|(_, r)| LoadKind::of(&r.load.target) == kind)
            {
                seen.push((key, run));
            }
        }
    }
    let [(a, run_a), (b, run_b), ..] = seen[..] else {
        return Ok(());
    };
    let (ta, tb) = (run_a.load.target, run_b.load.target);
    let which = if a == b {
        format!("`{a}` has runs at {ta} and at {tb}")
    } else {
        format!("`{a}` has a run at {ta} and `{b}` one at {tb}")
    };
    let n = format::number(load);
    Err(format!(
        "`load: {n}` is ambiguous: {which}; write `load: {n} req/s` or `load: concurrency {n}`"
    ))
}

/// The run of configuration `key` at `load` (of `kind`, when given), whether or not it has a
/// value: a run whose every request failed has no latency, yet is there.
pub(super) fn run_at<'c>(
    ctx: &'c ReportContext<'_>,
    key: &str,
    load: f64,
    kind: Option<LoadKind>,
) -> Option<&'c Run> {
    ctx.runs_of(key).into_iter().find(|r| {
        r.load.target.value().is_some_and(|v| same(v, load))
            && (kind.is_none() || LoadKind::of(&r.load.target) == kind)
    })
}

/// The value of `q` for configuration `key`, as `take` says.
pub(super) fn value_of<'c>(
    ctx: &'c ReportContext<'_>,
    q: Quantity,
    key: &str,
    take: Take,
) -> Option<(f64, &'c Run)> {
    let runs = ctx.runs_of(key);
    let mut values = runs.into_iter().filter_map(|r| q.of(r).map(|v| (v, r)));
    match take {
        Take::At(load, kind) => values.find(|(_, r)| {
            r.load.target.value().is_some_and(|v| same(v, load))
                && (kind.is_none() || LoadKind::of(&r.load.target) == kind)
        }),
        Take::Max => values.reduce(|a, b| if b.0 > a.0 { b } else { a }),
        Take::Min => values.reduce(|a, b| if b.0 < a.0 { b } else { a }),
    }
}
