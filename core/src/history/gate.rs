//! The nightly gate: a new run judged against the current level of its history, not against
//! one earlier run. For every series of the history (configuration, load point, metric) that a
//! new run continues, the new value against the prediction of the last stretch's level
//! ([`newest::against_level`]: nights are the units, so the night-to-night noise is the noise), with
//! Holm's correction over every series judged; a series fails when it is worse beyond that and
//! by more than the threshold. One noisy night then neither hides a regression (an older level
//! does not widen the range) nor raises a false one.

use serde::Serialize;

use super::analyse::read_series;
use super::newest::{self, Newest, Verdict};
use super::series::{series_of, Options, Series};
use crate::model::Run;

/// The `format` of `compare --history --format json`.
pub const FORMAT: &str = "benchdeck-history-gate/1";

/// One series the new runs continue.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GateRow {
    /// The configuration.
    pub config: String,
    /// The load point.
    pub load: String,
    /// The metric.
    pub metric: String,
    /// Its unit.
    pub unit: &'static str,
    /// How many dated nights the history has of it.
    pub history_nights: usize,
    /// The new run against the current level (its `date` is the new run's, or `new`).
    pub new: Newest,
    /// True when this row fails the gate.
    pub fails: bool,
}

/// The gate's whole answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gate {
    /// [`FORMAT`].
    pub format: &'static str,
    /// The rows, in the history's order.
    pub rows: Vec<GateRow>,
    /// New runs that continue no series of the history, by configuration and load.
    pub unmatched: Vec<String>,
    /// The smallest change (percent) that can fail.
    pub threshold_pct: f64,
    /// True when a row fails.
    pub fails: bool,
}

/// `new` judged against the current level of `history` by `options`; a worse row fails when
/// its change is at least `threshold` (a share). Each new run is judged against the nights
/// before it: a history run of the same file or dated on or after the new run is left out of
/// its level, so a night is never judged against itself. Every new run of a series is a row.
pub fn gate(history: &[&Run], new: &[&Run], options: &Options, threshold: f64) -> Gate {
    let mut rows = Vec::new();
    let mut matched = vec![false; new.len()];
    for (at, run) in new.iter().enumerate() {
        let before: Vec<&Run> = history
            .iter()
            .copied()
            .filter(|h| h.config.key() == run.config.key() && h.load.target == run.load.target)
            .filter(|h| h.provenance.file != run.provenance.file)
            .filter(|h| match (&h.provenance.date, &run.provenance.date) {
                (Some(h), Some(n)) => h < n,
                _ => true,
            })
            .collect();
        for series in series_of(&before, options) {
            if run.config.key() != series.config || run.load.target != series.load {
                continue;
            }
            matched[at] = true;
            if let Some(row) = row_of(&series, run, options, threshold) {
                rows.push(row);
            }
        }
    }
    newest::correct(&mut rows.iter_mut().map(|r| &mut r.new).collect::<Vec<_>>());
    for row in &mut rows {
        row.fails = row.new.verdict == Verdict::Worse;
    }
    let unmatched = new
        .iter()
        .zip(&matched)
        .filter(|(_, m)| !**m)
        .map(|(r, _)| {
            format!(
                "{} at {} ({})",
                r.config.key(),
                r.load.target,
                r.provenance.file
            )
        })
        .collect();
    Gate {
        format: FORMAT,
        fails: rows.iter().any(|r| r.fails),
        rows,
        unmatched,
        threshold_pct: threshold * 100.0,
    }
}

/// The row of `run` continuing `series`, or `None` when the run lacks the metric.
fn row_of(series: &Series<'_>, run: &Run, options: &Options, threshold: f64) -> Option<GateRow> {
    let value = series.metric.of(run).filter(|v| v.is_finite())?;
    let found = read_series(series, &options.settings).found;
    let values: Vec<f64> = series.nights.iter().map(|n| n.value).collect();
    let current = newest::current_level(&values, &found, values.len());
    let judged = newest::against_level(current.as_ref(), value, series.metric.better(), threshold);
    Some(GateRow {
        config: series.config.clone(),
        load: series.load.to_string(),
        metric: series.metric.to_string(),
        unit: series.metric.unit(),
        history_nights: series.nights.len(),
        new: Newest::judged(
            (
                run.provenance
                    .date
                    .as_ref()
                    .map_or_else(|| "new".into(), |d| d.label()),
                &run.provenance.file,
            ),
            value,
            &judged,
            current.map_or(0, |c| c.nights),
        ),
        fails: false,
    })
}
