//! A trend line read as a history (`crate::history`): each stretch of nights between change
//! points drawn as a step at its level, with the range one more night at that level falls in 95
//! times in 100 as the band; change points, outliers and a newest night unlike its level
//! ringed; and the same findings as sentences for the caption and rows for the table of
//! changes under the chart.

use crate::chart::{Annotation, Point};
use crate::format;
use crate::history::change_points::Settings;
use crate::history::{self, newest, signed_pct, Night, Series, Verdict};
use crate::model::{LoadTarget, Run};
use crate::noise::student::t_975;
use crate::quantity::Quantity;

/// What one configuration's line says as a history.
#[derive(Default)]
pub(super) struct Overlay {
    /// Steps and rings.
    pub annotations: Vec<Annotation>,
    /// Sentences for the caption.
    pub findings: Vec<String>,
    /// Rows of the table of changes: (date, configuration, what happened, levels, what
    /// changed), as text.
    pub rows: Vec<[String; 5]>,
    /// The change points as (date, title, what changed), for the site's feed.
    pub changes: Vec<(String, String, String)>,
}

/// One line read as a history, its newest night not yet corrected with the chart's others.
pub(super) struct Line<'r> {
    /// The line's nights.
    series: Series<'r>,
    /// The index of each night's point.
    placed: Vec<usize>,
    /// What the history found.
    pub reading: history::Reading,
}

/// The line named `name` of `quantity` at `load` from its `points` (aligned with `runs`), or
/// `None` with fewer than two values.
pub(super) fn read<'r>(
    name: &str,
    points: &[Point],
    runs: &[&'r Run],
    (quantity, load): (Quantity, LoadTarget),
    settings: &Settings,
) -> Option<Line<'r>> {
    let placed: Vec<usize> = (0..points.len())
        .filter(|&i| points[i].y.is_some_and(f64::is_finite))
        .collect();
    if placed.len() < 2 {
        return None;
    }
    let series = Series {
        config: name.to_string(),
        load,
        metric: quantity,
        nights: placed
            .iter()
            .map(|&i| Night {
                run: runs[i],
                value: points[i].y.unwrap_or(f64::NAN),
            })
            .collect(),
    };
    let reading = history::read_series(&series, settings);
    Some(Line {
        series,
        placed,
        reading,
    })
}

/// The line `k` (named `name`) drawn from its `line`: its `points` (x the place on the axis)
/// get their stretch's band; the rest is returned.
pub(super) fn overlay(k: usize, name: &str, points: &mut [Point], line: Line<'_>) -> Overlay {
    let Line {
        series,
        placed,
        reading,
    } = line;
    let quantity = series.metric;
    let analysed = history::describe(&series, reading);
    let xs: Vec<f64> = placed.iter().map(|&i| points[i].x).collect();
    let x = |night: usize| xs[night];
    let mut overlay = Overlay::default();
    steps(k, &analysed.found, &series, &x, &mut overlay);
    bands(&analysed.found, &series, points, &placed);
    let unit = quantity.unit();
    for (change, found) in analysed.change_points.iter().zip(&analysed.found.changes) {
        let night = found.index;
        overlay.annotations.push(Annotation::Marker {
            series: Some(k),
            x: x(night),
            y: series.nights[night].value,
            label: format!("change {}", signed_pct(change.change_pct)),
        });
        overlay.findings.push(format!(
            "{name}: a change on {} ({}, {}), what changed: {}",
            change.date,
            signed_pct(change.change_pct),
            change.direction,
            change.what_changed_text()
        ));
        overlay.changes.push((
            change.date.clone(),
            format!("{name}: {}", change.metric_change()),
            change.what_changed_text(),
        ));
        overlay.rows.push([
            change.date.clone(),
            name.to_string(),
            format!(
                "change, {} ({})",
                signed_pct(change.change_pct),
                change.direction
            ),
            format!(
                "{} → {}",
                change.before.short(unit),
                change.after.short(unit)
            ),
            change.what_changed_text(),
        ]);
    }
    for (outlier, found) in analysed.outliers.iter().zip(&analysed.found.outliers) {
        overlay.annotations.push(Annotation::Marker {
            series: Some(k),
            x: x(found.index),
            y: found.value,
            label: "outlier".into(),
        });
        overlay
            .findings
            .push(format!("{name}: an outlier, {}", outlier.text()));
        overlay.rows.push([
            outlier.date.clone(),
            name.to_string(),
            "one night unlike the nights around it".into(),
            format!(
                "{} against {}",
                format::with_unit(outlier.value, unit),
                format::with_unit(outlier.expected, unit)
            ),
            String::new(),
        ]);
    }
    newest_night(k, name, &analysed.summary, &series, &x, unit, &mut overlay);
    overlay
}

/// A step per stretch, at its level, from its first night to its last.
fn steps(
    k: usize,
    found: &crate::history::change_points::History,
    series: &Series<'_>,
    x: &dyn Fn(usize) -> f64,
    overlay: &mut Overlay,
) {
    for (s, segment) in found.segments.iter().enumerate() {
        let (from, to) = (x(segment.first), x(segment.last));
        overlay.annotations.push(Annotation::Fit {
            series: k,
            slope: 0.0,
            intercept: segment.level.mean,
            from: from - 0.4,
            to: to + 0.4,
            label: if s + 1 == found.segments.len() && found.segments.len() > 1 {
                format::with_unit(segment.level.mean, series.metric.unit())
            } else {
                String::new()
            },
        });
    }
}

/// Each point's band: the range one more night at its stretch's level falls in (the level ±
/// t · s · √(1 + 1/k), s the night-to-night noise pooled over every stretch); a newest night
/// set apart from the last stretch gets that stretch's range, which it left.
fn bands(
    found: &crate::history::change_points::History,
    series: &Series<'_>,
    points: &mut [Point],
    placed: &[usize],
) {
    let values: Vec<f64> = series.nights.iter().map(|n| n.value).collect();
    let Some(noise) = newest::current_level(&values, found, values.len()) else {
        return;
    };
    if noise.df == 0 {
        return;
    }
    for (s, segment) in found.segments.iter().enumerate() {
        let k = segment.level.nights.max(1) as f64;
        let half = t_975(noise.df as f64) * (noise.variance * (1.0 + 1.0 / k)).sqrt();
        // The last stretch's range also stands behind a newest night set apart from it.
        let last = if s + 1 == found.segments.len() {
            placed.len() - 1
        } else {
            segment.last
        };
        for night in segment.first..=last {
            let point = &mut points[placed[night]];
            point.lo = Some(segment.level.mean - half);
            point.hi = Some(segment.level.mean + half);
        }
    }
}

/// The newest night, ringed and named when it is worse or better than the current level.
fn newest_night(
    k: usize,
    name: &str,
    summary: &history::SeriesSummary,
    series: &Series<'_>,
    x: &dyn Fn(usize) -> f64,
    unit: &str,
    overlay: &mut Overlay,
) {
    let newest = &summary.newest;
    let word = match newest.verdict {
        Verdict::Worse => "worse",
        Verdict::Better => "better",
        Verdict::AsBefore | Verdict::Unjudged => return,
    };
    let change = newest.change_pct.map_or_else(String::new, signed_pct);
    overlay.annotations.push(Annotation::Marker {
        series: Some(k),
        x: x(series.nights.len() - 1),
        y: newest.value,
        label: format!("{word} {change}"),
    });
    overlay
        .findings
        .push(format!("{name}'s newest night: {}", newest.text(unit)));
    overlay.rows.push([
        newest.date.clone(),
        name.to_string(),
        format!("newest night {word} than the current level ({change})"),
        format!(
            "{} against {}",
            format::with_unit(newest.value, unit),
            newest
                .level
                .map_or_else(String::new, |l| format::with_unit(l, unit))
        ),
        String::new(),
    ]);
}
