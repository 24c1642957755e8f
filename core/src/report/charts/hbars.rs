//! ```` ```chart ```` `kind: hbars`: head to head, a row per metric, a bar per configuration,
//! the better marked ✓ where the 95% interval of the difference says so.
//!
//! With `load`, every metric is read at that load point. Without it, each metric is taken over
//! the configuration's whole sweep, as the summary table takes it (seed 000's "Complete Model
//! Comparison" sets the setups' peaks side by side):
//!
//! - a latency at its lowest, a throughput at its peak; `:max`, `:min` (or `:peak`) after a
//!   per-run quantity say which (`output_tok_s_per_user:max`);
//! - `success_rate:overall` (or `error_rate:overall`): the share of every request of the
//!   configuration's runs, all load points together;
//! - `stable_rate` (`stable_rate:rate`, `stable_rate:concurrency` for a configuration with both
//!   sweeps): the highest load up to which every request succeeded (the `stable(…)` inline
//!   value); a configuration with none is a marked gap.

use super::call::{point, ChartCall};
use crate::chart::{Axis, ChartKind, ChartSpec, HBarMetric, Point, Series};
use crate::format;
use crate::model::{LoadTarget, Run};
use crate::noise::Interval;
use crate::quantity::{Better, Quantity};
use crate::report::context::ReportContext;
use crate::report::load::LoadKind;

/// How a row takes its value from a configuration's runs.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Row {
    /// A quantity at `load`, or over the sweep at its best (`None`), largest or smallest.
    Quantity(Quantity, Option<bool>),
    /// The share of every request that succeeded (or, `true`, failed), over every run.
    Overall(bool),
    /// The highest load of a sweep with no failed request.
    StableLoad(Option<LoadKind>),
}

impl Row {
    fn parse(text: &str) -> Result<Row, String> {
        let (name, suffix) = match text.split_once(':') {
            Some((n, s)) => (n.trim(), Some(s.trim())),
            None => (text.trim(), None),
        };
        match (name, suffix) {
            ("stable_rate", None) => return Ok(Row::StableLoad(None)),
            ("stable_rate", Some(kind)) => {
                return LoadKind::parse(kind)
                    .map(|k| Row::StableLoad(Some(k)))
                    .ok_or_else(|| {
                        format!("`{text}`: expected `stable_rate:rate` or `:concurrency`")
                    })
            }
            ("success_rate", Some("overall")) => return Ok(Row::Overall(false)),
            ("error_rate", Some("overall")) => return Ok(Row::Overall(true)),
            _ => {}
        }
        if let Some(agg @ ("max" | "min" | "peak")) = suffix {
            if let Ok(q) = Quantity::parse(name, None) {
                return Ok(Row::Quantity(q, Some(agg != "min")));
            }
        }
        Quantity::parse(name, suffix).map(|q| Row::Quantity(q, None))
    }

    /// The row's label, unit and better direction, as drawn.
    fn metric(self, at_load: bool, sweep: Option<LoadKind>) -> HBarMetric {
        let (label, unit, better) = match self {
            Row::Quantity(q, take) => {
                let largest = take.unwrap_or(q.better() == Better::Higher);
                let label = if at_load {
                    q.to_string()
                } else if largest {
                    format!("{q} (peak)")
                } else {
                    format!("{q} (lowest)")
                };
                (label, q.unit().to_string(), q.better())
            }
            Row::Overall(failed) => (
                format!(
                    "{} (all requests)",
                    if failed { "Error rate" } else { "Success rate" }
                ),
                "%".to_string(),
                if failed {
                    Better::Lower
                } else {
                    Better::Higher
                },
            ),
            Row::StableLoad(_) => match sweep {
                Some(LoadKind::Concurrency) => (
                    "Max stable concurrency".to_string(),
                    String::new(),
                    Better::Higher,
                ),
                _ => (
                    "Max stable request rate".to_string(),
                    "req/s".to_string(),
                    Better::Higher,
                ),
            },
        };
        HBarMetric {
            label,
            unit,
            better,
        }
    }
}

/// Head to head: a row per metric, a bar per configuration, at one load or over the sweep.
pub(super) fn hbars(ctx: &ReportContext<'_>, c: ChartCall<'_>) -> Result<ChartSpec, String> {
    let ChartCall { id, d, keys } = c;
    let names = d
        .metrics
        .as_deref()
        .ok_or("`hbars` needs `metrics`, for example `[ttft:p50, tpot:p50, output_throughput]`")?;
    let rows: Vec<Row> = names
        .iter()
        .map(|m| Row::parse(m))
        .collect::<Result<_, _>>()?;
    let at_load = d.load.is_some();
    if at_load {
        if let Some(name) = names
            .iter()
            .zip(&rows)
            .find_map(|(n, r)| (!matches!(r, Row::Quantity(_, None))).then_some(n))
        {
            return Err(format!(
                "`{name}` is taken over the whole sweep; leave out `load` to draw it"
            ));
        }
    }
    let mut series = Vec::new();
    let mut compared: Vec<(String, Quantity, &Run)> = Vec::new();
    let mut sweep_kind = None;
    for key in keys {
        let (name, color) = ctx.display(key);
        let mut points = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let x = i as f64;
            let p = match *row {
                Row::Quantity(q, take) => {
                    let run = match at_load {
                        true => ctx.run_at(key, d.load.as_ref())?,
                        false => best_run(ctx, key, q, take),
                    };
                    if let Some(run) = run {
                        compared.push((name.clone(), q, run));
                    }
                    run.map_or_else(
                        || {
                            missing(
                                x,
                                if at_load {
                                    "no run at this load"
                                } else {
                                    "not reported"
                                },
                            )
                        },
                        |run| point(x, q, run),
                    )
                }
                Row::Overall(failed) => overall_point(ctx, x, key, failed),
                Row::StableLoad(kind) => {
                    let (p, kind) = stable_point(ctx, x, key, kind)?;
                    sweep_kind = sweep_kind.or(kind);
                    p
                }
            };
            points.push(p);
        }
        series.push(Series {
            name,
            color,
            points,
        });
    }
    let metrics = rows.iter().map(|r| r.metric(at_load, sweep_kind)).collect();
    Ok(ChartSpec {
        id: id.to_string(),
        title: "Head to head".to_string(),
        caption: hbars_caption(&compared, at_load),
        kind: ChartKind::HBars { metrics },
        x: Axis::new("Value", ""),
        y: Axis::new("Metric", ""),
        series,
        annotations: Vec::new(),
        alternatives: Vec::new(),
    })
}

/// The caption: what ✓ means, over the sweep what each row takes, and the noise note.
fn hbars_caption(compared: &[(String, Quantity, &Run)], at_load: bool) -> String {
    let mut caption = "Each metric side by side; ✓ marks the better configuration where the \
                       95% interval of the difference excludes none, and a row reads \"no \
                       clear difference\" where it does not."
        .to_string();
    if !at_load {
        caption += " Each value is the configuration's best over its load points (peak or \
                    lowest), its requests over every run, or the highest load at which \
                    every request succeeded.";
    }
    // The workload note is added with every chart's; the noise note belongs to verdicts.
    let unknown = compared.iter().any(|(n, q, run)| {
        super::super::verdicts::noise_unknown(&[*q], &[vec![(n.as_str(), *run)]])
    });
    if unknown {
        caption = format!("{caption} {}", super::super::verdicts::NOISE_UNKNOWN);
    }
    caption
}

/// The run of `key` with the best value of `q` (the largest when `largest`, by default the
/// better direction's).
fn best_run<'c>(
    ctx: &'c ReportContext<'_>,
    key: &str,
    q: Quantity,
    largest: Option<bool>,
) -> Option<&'c Run> {
    let largest = largest.unwrap_or(q.better() == Better::Higher);
    ctx.runs_of(key)
        .into_iter()
        .filter_map(|r| q.of(r).map(|v| (v, r)))
        .reduce(|a, b| {
            let b_wins = if largest { b.0 > a.0 } else { b.0 < a.0 };
            if b_wins {
                b
            } else {
                a
            }
        })
        .map(|(_, r)| r)
}

/// The share of every request of `key`'s runs that succeeded (or failed), with its Wilson
/// interval.
fn overall_point(ctx: &ReportContext<'_>, x: f64, key: &str, failed: bool) -> Point {
    let runs = ctx.runs_of(key);
    let (mut ok, mut sent) = (0u64, 0u64);
    for run in &runs {
        let c = &run.requests;
        if let (Some(s), Some(t)) = (
            c.succeeded,
            c.total.or_else(|| c.succeeded?.checked_add(c.failed?)),
        ) {
            ok += s;
            sent += t;
        }
    }
    if sent == 0 {
        return missing(x, "no run counts its requests");
    }
    let share = crate::noise::interval::proportion(ok, sent);
    let (y, ci) = if failed {
        let ci = share.map(|i| Interval {
            lo: (1.0 - i.hi) * 100.0,
            hi: (1.0 - i.lo) * 100.0,
        });
        ((sent - ok) as f64 / sent as f64 * 100.0, ci)
    } else {
        let ci = share.map(|i| Interval {
            lo: i.lo * 100.0,
            hi: i.hi * 100.0,
        });
        (ok as f64 / sent as f64 * 100.0, ci)
    };
    Point {
        x,
        y: Some(y),
        lo: ci.map(|i| i.lo),
        hi: ci.map(|i| i.hi),
        ci: ci.map(|i| [i.lo, i.hi]),
        ci_basis: format!("from {sent} requests"),
        source: format!(
            "{ok} of {sent} requests succeeded over {} run{}",
            runs.len(),
            format::plural(runs.len())
        ),
        ..Point::default()
    }
}

/// The highest load of `key`'s sweep (of `kind`) with no failed request, and the sweep's
/// kind; a gap saying so where even the lowest load failed.
fn stable_point(
    ctx: &ReportContext<'_>,
    x: f64,
    key: &str,
    kind: Option<LoadKind>,
) -> Result<(Point, Option<LoadKind>), String> {
    let runs =
        crate::report::values::sweep::sweep(ctx, key, kind, "stable_rate").map_err(
            |e| match kind {
                None if e.contains("both") => format!(
            "`stable_rate`: `{key}` has both a concurrency sweep and a request-rate sweep; \
             write `stable_rate:rate` or `stable_rate:concurrency`"
        ),
                _ => e,
            },
        )?;
    let sweep = runs.first().and_then(|r| LoadKind::of(&r.load.target));
    let p = match super::super::values::stable_run(key, &runs, None)? {
        Some(run) => Point {
            x,
            y: run.load.target.value(),
            source: format!(
                "every request succeeded up to {} ({})",
                run.load.target,
                run.source()
            ),
            ..Point::default()
        },
        None => {
            let lowest: Option<&LoadTarget> = runs.first().map(|r| &r.load.target);
            missing(
                x,
                &lowest.map_or("no run".to_string(), |l| {
                    format!("none: requests failed already at {l}")
                }),
            )
        }
    };
    Ok((p, sweep))
}

/// A gap in a row, with why.
fn missing(x: f64, why: &str) -> Point {
    Point {
        x,
        note: why.to_string(),
        ..Point::default()
    }
}
