//! What a history finds, as `benchdeck history --json` writes it: levels, change points,
//! outliers, and each series in brief.

use serde::Serialize;

use super::changed::Difference;
use super::newest::Newest;

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
