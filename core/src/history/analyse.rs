//! One series read as a history, in two steps so that the newest nights of many series can be
//! corrected as a family in between: [`read_series`] finds its change points and outliers
//! (`change_points`) and judges its newest night against the current level; [`describe`] sets
//! that night apart from the last stretch when it is still unlike it, and writes the levels,
//! what changed at each change, and the outliers for print.

use super::change_points::{self, Level, Settings};
use super::changed::differences;
use super::findings::{ChangePoint, LevelView, OutlierNight, SeriesSummary};
use super::newest::{judge_newest, Newest, Verdict};
use super::series::{distinct_days, night_date, Series};
use crate::quantity::Better;

/// What one series' history says.
pub struct Analysed {
    /// Its change points.
    pub change_points: Vec<ChangePoint>,
    /// Its outliers.
    pub outliers: Vec<OutlierNight>,
    /// It in brief.
    pub summary: SeriesSummary,
    /// The raw finding: stretches, changes and outliers by night index.
    pub found: change_points::History,
}

/// A series' first reading: what `change_points` found, and its newest night judged (before
/// any correction over a family of series).
#[derive(Debug, Clone)]
pub struct Reading {
    /// Stretches, changes and outliers by night index.
    pub found: change_points::History,
    /// The newest night against the current level.
    pub newest: Newest,
}

/// The first reading of `series`.
pub fn read_series(series: &Series<'_>, settings: &Settings) -> Reading {
    let values: Vec<f64> = series.nights.iter().map(|n| n.value).collect();
    let found = change_points::detect(&values, settings);
    let newest = judge_newest(series, &found, settings);
    Reading { found, newest }
}

/// The change points, outliers and summary of `series` from its `reading` (its newest night's
/// verdict final): a newest night still worse or better is set apart from the last stretch.
pub fn describe(series: &Series<'_>, reading: Reading) -> Analysed {
    let values: Vec<f64> = series.nights.iter().map(|n| n.value).collect();
    let Reading { mut found, newest } = reading;
    if matches!(newest.verdict, Verdict::Worse | Verdict::Better) {
        set_apart_newest(&mut found, &values);
    }
    let by_day = distinct_days(series);
    let date = |i: usize| night_date(&series.nights[i], by_day);
    let view = |level: &Level, first: usize, last: usize| LevelView {
        mean: level.mean,
        lo: level.interval.map(|i| i.lo),
        hi: level.interval.map(|i| i.hi),
        nights: level.nights,
        from: date(first),
        to: date(last),
    };
    let better = series.metric.better();
    let change_points = found
        .changes
        .iter()
        .zip(found.segments.windows(2))
        .map(|(change, pair)| {
            let (before, after) = (&series.nights[pair[0].last], &series.nights[change.index]);
            ChangePoint {
                config: series.config.clone(),
                load: series.load.to_string(),
                metric: series.metric.to_string(),
                unit: series.metric.unit(),
                date: date(change.index),
                file: after.run.provenance.file.clone(),
                file_before: before.run.provenance.file.clone(),
                before: view(&change.before, pair[0].first, pair[0].last),
                after: view(&change.after, pair[1].first, pair[1].last),
                change_pct: change.change * 100.0,
                direction: direction(change.change, better),
                p_value: change.p_value,
                what_changed: differences(before.run, after.run),
            }
        })
        .collect();
    let outliers = found
        .outliers
        .iter()
        .map(|o| OutlierNight {
            config: series.config.clone(),
            load: series.load.to_string(),
            metric: series.metric.to_string(),
            unit: series.metric.unit(),
            date: date(o.index),
            file: series.nights[o.index].run.provenance.file.clone(),
            value: o.value,
            expected: o.expected,
        })
        .collect();
    let last = found.segments.last().copied();
    let summary = SeriesSummary {
        config: series.config.clone(),
        load: series.load.to_string(),
        metric: series.metric.to_string(),
        unit: series.metric.unit(),
        nights: values.len(),
        current: match last {
            Some(s) => view(&s.level, s.first, s.last),
            None => view(&change_points::level(&values), 0, values.len() - 1),
        },
        newest,
    };
    Analysed {
        change_points,
        outliers,
        summary,
        found,
    }
}

/// The newest night taken out of the last stretch, when it is unlike its level: one night
/// cannot yet tell a bad night from a new level, and the level it would join should not move
/// or widen for it.
fn set_apart_newest(found: &mut change_points::History, values: &[f64]) {
    let Some(last) = found.segments.last_mut() else {
        return;
    };
    if last.last == last.first {
        return;
    }
    last.last -= 1;
    let kept: Vec<f64> = (last.first..=last.last)
        .filter(|i| !found.outliers.iter().any(|o| o.index == *i))
        .map(|i| values[i])
        .collect();
    last.level = change_points::level(&kept);
    if let Some(change) = found.changes.last_mut().filter(|c| c.index == last.first) {
        change.after = last.level;
        change.change = last.level.mean / change.before.mean - 1.0;
    }
}

/// `worse` or `better`: which way a change of `change` (a share) goes when `better` is the
/// better direction.
fn direction(change: f64, better: Better) -> &'static str {
    match (better, change > 0.0) {
        (Better::Lower, true) | (Better::Higher, false) => "worse",
        _ => "better",
    }
}
