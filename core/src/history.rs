//! A history of dated runs read as a history: for every configuration, load point and metric,
//! the nights in date order, their change points (`analysis::change_points`), the level before
//! and after each with its interval (nights are the units), what differs between the runs on
//! either side of it ([`changed`]), the single bad nights, and the newest night judged against
//! the current level ([`newest`]). `benchdeck history` prints it; `benchdeck compare
//! --history` gates on it; the site draws it under each trend.

mod changed;
pub mod gate;
pub mod newest;
mod words;

use serde::Serialize;

use crate::analysis::change_points::{self, Level, Settings};
use crate::model::{LoadTarget, Run};
use crate::quantity::{Better, Quantity};

pub use changed::{differences, Difference};
pub use newest::{against_level, judge_newest, Judged, Newest, Verdict};
pub use words::signed_pct;

/// The `format` of `benchdeck history --json`.
pub const FORMAT: &str = "benchdeck-history/1";

/// What to read a history for.
#[derive(Debug, Clone)]
pub struct Options {
    /// The metrics, each a series per configuration and load point.
    pub metrics: Vec<Quantity>,
    /// Only runs of this day (`YYYY-MM-DD`) or later.
    pub since: Option<String>,
    /// How changes and outliers are told.
    pub settings: Settings,
}

/// Everything a history says.
#[derive(Debug, Clone, Serialize)]
pub struct History {
    /// [`FORMAT`].
    pub format: &'static str,
    /// Every change point, by configuration, load, metric and date.
    pub change_points: Vec<ChangePoint>,
    /// Every night that is an outlier rather than a change.
    pub outliers: Vec<OutlierNight>,
    /// Each series: its nights, current level and newest night.
    pub series: Vec<SeriesSummary>,
    /// Runs without a date, which no history can place.
    pub undated: Vec<String>,
}

/// One night of a series: its run and value.
#[derive(Debug, Clone)]
pub struct Night<'r> {
    /// The run.
    pub run: &'r Run,
    /// Its value of the series' metric.
    pub value: f64,
}

/// One configuration's metric at one load over nights, oldest first.
#[derive(Debug, Clone)]
pub struct Series<'r> {
    /// The configuration's key.
    pub config: String,
    /// The load point.
    pub load: LoadTarget,
    /// The metric.
    pub metric: Quantity,
    /// The nights.
    pub nights: Vec<Night<'r>>,
}

/// A level over a stretch of nights, for print.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LevelView {
    /// Mean of the stretch's nights.
    pub mean: f64,
    /// Lower end of its 95% interval (nights are the units); absent for one night.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lo: Option<f64>,
    /// Upper end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hi: Option<f64>,
    /// How many nights (outliers left out).
    pub nights: usize,
    /// The date of its first night.
    pub from: String,
    /// The date of its last night.
    pub to: String,
}

/// A change of level.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChangePoint {
    /// The configuration.
    pub config: String,
    /// The load point, as the site writes it.
    pub load: String,
    /// The metric, as the site writes it (`TTFT p99`).
    pub metric: String,
    /// Its unit.
    pub unit: &'static str,
    /// The date of the first night of the new level.
    pub date: String,
    /// That night's result file.
    pub file: String,
    /// The last result file before it.
    pub file_before: String,
    /// The level before.
    pub before: LevelView,
    /// The level after.
    pub after: LevelView,
    /// The change, in percent of the level before.
    pub change_pct: f64,
    /// `worse` or `better`.
    pub direction: &'static str,
    /// The permutation test's p-value.
    pub p_value: f64,
    /// What differs between the run before and the run after.
    pub what_changed: Vec<Difference>,
}

/// A night unlike the nights around it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OutlierNight {
    /// The configuration.
    pub config: String,
    /// The load point.
    pub load: String,
    /// The metric.
    pub metric: String,
    /// Its unit.
    pub unit: &'static str,
    /// The night's date.
    pub date: String,
    /// Its result file.
    pub file: String,
    /// Its value.
    pub value: f64,
    /// The median of the nights around it.
    pub expected: f64,
}

/// A series in brief.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeriesSummary {
    /// The configuration.
    pub config: String,
    /// The load point.
    pub load: String,
    /// The metric.
    pub metric: String,
    /// Its unit.
    pub unit: &'static str,
    /// How many nights have a value.
    pub nights: usize,
    /// The current level (the last stretch's).
    pub current: LevelView,
    /// The newest night against the current level.
    pub newest: Newest,
}

/// Every series of `runs` by `options`: dated runs grouped by configuration and load point,
/// one series per metric that at least two nights have; in the order of the runs' first
/// appearance, then of `options.metrics`.
pub fn series_of<'r>(runs: &[&'r Run], options: &Options) -> Vec<Series<'r>> {
    let mut dated: Vec<&Run> = runs
        .iter()
        .copied()
        .filter(|r| r.provenance.date.is_some())
        .filter(|r| match (&options.since, &r.provenance.date) {
            (Some(since), Some(date)) => date.day() >= since.as_str(),
            _ => true,
        })
        .collect();
    dated.sort_by(|a, b| a.provenance.date.cmp(&b.provenance.date));
    let mut groups: Vec<(String, LoadTarget, Vec<&Run>)> = Vec::new();
    for run in dated {
        let key = run.config.key();
        match groups
            .iter_mut()
            .find(|(k, l, _)| *k == key && *l == run.load.target)
        {
            Some((_, _, list)) => list.push(run),
            None => groups.push((key, run.load.target, vec![run])),
        }
    }
    let mut series = Vec::new();
    for (config, load, group) in groups {
        for &metric in &options.metrics {
            let nights: Vec<Night<'r>> = group
                .iter()
                .filter_map(|&run| {
                    let value = metric.of(run).filter(|v| v.is_finite())?;
                    Some(Night { run, value })
                })
                .collect();
            if nights.len() >= 2 {
                series.push(Series {
                    config: config.clone(),
                    load,
                    metric,
                    nights,
                });
            }
        }
    }
    series
}

/// The history of `runs` by `options`.
pub fn read(runs: &[&Run], options: &Options) -> History {
    let mut history = History {
        format: FORMAT,
        change_points: Vec::new(),
        outliers: Vec::new(),
        series: Vec::new(),
        undated: runs
            .iter()
            .filter(|r| r.provenance.date.is_none())
            .map(|r| r.provenance.file.clone())
            .collect(),
    };
    for series in series_of(runs, options) {
        let found = analyse(&series, &options.settings);
        history.change_points.extend(found.change_points);
        history.outliers.extend(found.outliers);
        history.series.push(found.summary);
    }
    newest::correct(
        &mut history
            .series
            .iter_mut()
            .map(|s| &mut s.newest)
            .collect::<Vec<_>>(),
    );
    history
}

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

/// The change points, outliers and summary of one series.
pub fn analyse(series: &Series<'_>, settings: &Settings) -> Analysed {
    let values: Vec<f64> = series.nights.iter().map(|n| n.value).collect();
    let found = change_points::detect(&values, settings);
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
        newest: judge_newest(series, &found, settings),
    };
    Analysed {
        change_points,
        outliers,
        summary,
        found,
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

/// A night's date as the site writes it: its day when `by_day`, else its date and time.
fn night_date(night: &Night<'_>, by_day: bool) -> String {
    match &night.run.provenance.date {
        Some(date) if by_day => date.day().to_string(),
        Some(date) => date.label(),
        None => String::new(),
    }
}

/// True when no two nights of `series` share a day: then a day names a night.
fn distinct_days(series: &Series<'_>) -> bool {
    let mut days: Vec<&str> = series
        .nights
        .iter()
        .filter_map(|n| Some(n.run.provenance.date.as_ref()?.day()))
        .collect();
    let all = days.len();
    days.sort_unstable();
    days.dedup();
    days.len() == all
}

#[cfg(test)]
mod tests;
