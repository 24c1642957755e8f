//! ```` ```chart ```` `kind: lines`: a metric against load, a line per configuration, with an
//! optional percentile band, SLA lines and breaking-point markers; or, with `x: output_tokens`
//! or `x: input_tokens`, against each run's mean length (`against_tokens`).

use super::call::{alternatives, point, quantity_axis, scale, ChartCall};
use crate::analysis::{breaking_point, BreakingRule, LoadObservation};
use crate::chart::{Annotation, Axis, ChartKind, ChartSpec, Point, Series};
use crate::model::{LoadAxis, Metric, Run, Stat};
use crate::quantity::Quantity;
use crate::report::context::ReportContext;

mod against_tokens;

pub(in crate::report) use against_tokens::{slope_text, TokensX};

/// A line per configuration over its load points, with an optional percentile band, SLA
/// line and breaking-point markers.
pub(super) fn lines(ctx: &ReportContext<'_>, c: ChartCall<'_>) -> Result<ChartSpec, String> {
    let ChartCall { id, d, keys } = c;
    if let Some(tokens) = TokensX::parse(d.x.as_deref())? {
        return against_tokens::lines_against_tokens(ctx, c, tokens);
    }
    if d.series.is_some() || d.fit.is_some() {
        return Err(
            "`series` and `fit` draw against tokens: add `x: output_tokens` (or \
                    `input_tokens`); against the load a line is one configuration"
                .into(),
        );
    }
    let quantity = super::call::quantity(d)?;
    let band = band(quantity, d.band.as_deref())?;
    let sigma = super::consistency::error_bars(quantity, d.error_bars.as_deref())?;
    if band.is_some() && sigma.is_some() {
        return Err("`band` and `error_bars` both draw around the line: choose one".into());
    }
    let axis = load_axis(ctx, keys, quantity)?;
    let mut series = Vec::new();
    let mut annotations = Vec::new();
    for (index, key) in keys.iter().enumerate() {
        let (name, color) = ctx.display(key);
        let runs: Vec<&Run> = ctx
            .runs_of(key)
            .into_iter()
            .filter(|r| r.load.target.axis() == axis && r.load.target.value().is_some())
            .collect();
        let points: Vec<Point> = runs
            .iter()
            .map(|run| match sigma {
                Some(metric) => super::consistency::with_sigma(
                    point_with_band(run, quantity, None),
                    run,
                    metric,
                ),
                None => point_with_band(run, quantity, band),
            })
            .collect();
        if d.breaking.unwrap_or(false) {
            annotations.extend(breaking_marker(&runs, &points, quantity, index, &name));
        }
        if d.speedup.unwrap_or(false) {
            annotations.extend(speedups(&points, index));
        }
        series.push(Series {
            name,
            color,
            points,
        });
    }
    if let Some(slas) = &d.sla {
        annotations.extend(
            slas.values()
                .into_iter()
                .map(|v| super::call::sla_line(v, quantity.unit())),
        );
    }
    let drawn = keys.iter().flat_map(|k| ctx.runs_of(k));
    annotations.extend(super::call::limit_lines(drawn, quantity));
    let alternatives = alternatives(quantity, |q| series_against_load(ctx, keys, axis, q));
    let mut x = Axis::new(axis.title(), "");
    x.scale = scale(d.x_scale.as_deref())?;
    let mut y = quantity_axis(quantity);
    y.scale = scale(d.y_scale.as_deref())?;
    let band_note = match (band, sigma) {
        (Some((_, lo, hi)), _) => format!(" The band spans {lo} to {hi}."),
        (None, Some(_)) => " The band spans one standard deviation either side.".to_string(),
        (None, None) => String::new(),
    };
    let band_note = if d.speedup.unwrap_or(false) {
        format!("{band_note} Labels give each point's multiple of the line's first.")
    } else {
        band_note
    };
    Ok(ChartSpec {
        id: id.to_string(),
        title: format!("{quantity} by {}", axis.title().to_lowercase()),
        caption: format!(
            "{quantity} ({}) against {}, by configuration.{band_note}",
            quantity.unit(),
            axis.title().to_lowercase()
        ),
        kind: ChartKind::Lines,
        x,
        y,
        series,
        annotations,
        alternatives,
    })
}

/// A line of `quantity` per configuration over its load points on `axis`, without band or
/// markers: what a statistic the reader switches to shows.
fn series_against_load(
    ctx: &ReportContext<'_>,
    keys: &[String],
    axis: LoadAxis,
    q: Quantity,
) -> Vec<Series> {
    ctx.series_per_config(keys, |key| {
        ctx.runs_of(key)
            .into_iter()
            .filter(|r| r.load.target.axis() == axis)
            .filter_map(|run| Some(point(run.load.target.value()?, q, run)))
            .collect()
    })
}

/// The load axis shared by the chosen configurations: the one most of their runs that
/// report `quantity` are on (a configuration measured by concurrency and by request rate,
/// whose rate runs lack a TPOT, draws its TPOT by concurrency), else the one most of their
/// runs are on.
fn load_axis(
    ctx: &ReportContext<'_>,
    keys: &[String],
    quantity: Quantity,
) -> Result<LoadAxis, String> {
    let mut counts: Vec<(LoadAxis, (usize, usize))> = Vec::new();
    for key in keys {
        for run in ctx.runs_of(key) {
            let axis = run.load.target.axis();
            if axis == LoadAxis::None {
                continue;
            }
            let reports = usize::from(quantity.of(run).is_some());
            match counts.iter_mut().find(|(a, _)| *a == axis) {
                Some((_, (with, all))) => {
                    *with += reports;
                    *all += 1;
                }
                None => counts.push((axis, (reports, 1))),
            }
        }
    }
    counts
        .into_iter()
        .max_by_key(|(_, n)| *n)
        .map(|(a, _)| a)
        .ok_or_else(|| "no run has a load point (concurrency, request rate or batch size)".into())
}

/// A marker at each point of series `index` after its first, labelled with its multiple of the
/// first point's value (`3.6x`): seed 004's speed-up labels on throughput against batch size.
fn speedups(points: &[Point], index: usize) -> Vec<Annotation> {
    let mut values = points.iter().filter_map(|p| Some((p.x, p.y?)));
    let Some((_, first)) = values.next().filter(|(_, y)| *y > 0.0) else {
        return Vec::new();
    };
    values
        .filter(|(x, _)| x.is_finite())
        .map(|(x, y)| Annotation::Marker {
            series: Some(index),
            x,
            y,
            label: format!("{}x", crate::format::fixed(y / first, 1)),
        })
        .collect()
}

/// A percentile band: the latency metric and the statistics at its bottom and top.
type Band = (Metric, Stat, Stat);

/// The directive's `band`, checked: two statistics of a latency metric.
fn band(quantity: Quantity, band: Option<&[String]>) -> Result<Option<Band>, String> {
    match band {
        None => Ok(None),
        Some([lo, hi]) => {
            let parse = |s: &str| {
                Stat::parse(s).ok_or_else(|| {
                    format!("`band` statistic `{s}` is not one of mean, median, min, max, pNN")
                })
            };
            let Quantity::Latency { metric, .. } = quantity else {
                return Err("`band` needs a latency metric (ttft, tpot, itl, e2e)".into());
            };
            Ok(Some((metric, parse(lo)?, parse(hi)?)))
        }
        Some(_) => Err("`band` takes two statistics, for example `[p50, p99]`".into()),
    }
}

/// The point of `quantity` on `run` at its load, spanning the band when there is one.
fn point_with_band(run: &Run, quantity: Quantity, band: Option<Band>) -> Point {
    let x = run.load.target.value().unwrap_or(f64::NAN);
    let mut p = point(x, quantity, run);
    if let (Some((metric, lo, hi)), Some(_)) = (band, p.y) {
        p.lo = run.latency_stat(metric, lo);
        p.hi = run.latency_stat(metric, hi);
    }
    p
}

/// The marker where configuration `index` (`name`) breaks, if it does: its runs and their
/// `points`, by load.
fn breaking_marker(
    runs: &[&Run],
    points: &[Point],
    quantity: Quantity,
    index: usize,
    name: &str,
) -> Option<Annotation> {
    let observations: Vec<LoadObservation> = runs
        .iter()
        .zip(points)
        .map(|(run, p)| LoadObservation {
            load: p.x,
            value: p.y,
            error_rate: run.requests.success_rate().map(|s| (1.0 - s) * 100.0),
        })
        .collect();
    let rule = BreakingRule {
        better: quantity.better(),
        ..BreakingRule::default()
    };
    let found = breaking_point(&observations, &rule)?;
    let y = points
        .get(found.index)
        .and_then(|p| p.y)
        .or_else(|| points.iter().filter_map(|p| p.y).next())
        .unwrap_or(0.0);
    Some(Annotation::Marker {
        series: Some(index),
        x: found.load,
        y,
        label: format!("{name} breaks"),
    })
}
