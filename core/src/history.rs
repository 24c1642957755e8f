//! A history of dated runs read as a history: for every configuration, load point and metric,
//! the nights in date order, their change points ([`change_points`]), the level before and
//! after each with its interval (nights are the units), what differs between the runs on
//! either side of it ([`changed`]), the single bad nights, and the newest night judged against
//! the current level ([`newest`]). `benchdeck history` prints it; `benchdeck compare
//! --history` gates on it ([`gate`]); the trend charts draw it.
//!
//! The files, in the order they depend on each other: [`change_points`] (the statistics of one
//! series of numbers), `series.rs` (runs into series), `changed.rs`, `newest.rs`,
//! `findings.rs` (what is printed), `analyse.rs` (one series), `words.rs` (sentences), and
//! [`gate`].

mod analyse;
pub mod change_points;
mod changed;
mod findings;
pub mod gate;
pub mod newest;
mod series;
mod words;

use serde::Serialize;

use crate::model::Run;

pub use analyse::{describe, read_series, Analysed, Reading};
pub use changed::{differences, Difference};
pub use findings::{ChangePoint, LevelView, OutlierNight, SeriesSummary};
pub use newest::{against_level, judge_newest, Judged, Newest, Verdict};
pub use series::{series_of, Night, Options, Series};
pub use words::signed_pct;

/// The `format` of `benchdeck history --json`.
pub const FORMAT: &str = "benchdeck-history/1";

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
    let series = series_of(runs, options);
    let mut readings: Vec<Reading> = series
        .iter()
        .map(|s| read_series(s, &options.settings))
        .collect();
    newest::correct(
        &mut readings
            .iter_mut()
            .map(|r| &mut r.newest)
            .collect::<Vec<_>>(),
    );
    for (series, reading) in series.iter().zip(readings) {
        let found = describe(series, reading);
        history.change_points.extend(found.change_points);
        history.outliers.extend(found.outliers);
        history.series.push(found.summary);
    }
    history
}

#[cfg(test)]
mod tests;
