//! A history's series: dated runs grouped by configuration and load point, one series per
//! metric, nights oldest first; and how a night's date is written.

use crate::history::change_points::Settings;
use crate::model::{LoadTarget, Run};
use crate::quantity::Quantity;

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

/// A night's date as the site writes it: its day when `by_day`, else its date and time.
pub(super) fn night_date(night: &Night<'_>, by_day: bool) -> String {
    match &night.run.provenance.date {
        Some(date) if by_day => date.day().to_string(),
        Some(date) => date.label(),
        None => String::new(),
    }
}

/// True when no two nights of `series` share a day: then a day names a night.
pub(super) fn distinct_days(series: &Series<'_>) -> bool {
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
