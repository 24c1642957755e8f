//! The newest night against the current level: the 95% prediction interval of one more night
//! from the nights of the last stretch before it (their mean ± t(k − 1) · s · √(1 + 1/k), at
//! least three nights, outliers left out), and a verdict that needs the night outside that
//! interval and a change of at least the smallest change that counts. One noisy night then
//! neither hides a regression (the interval is the level's, not the whole history's) nor raises
//! a false one (the nights' own spread is the noise).

use serde::Serialize;

use super::Series;
use crate::analysis::change_points::{History, Settings};
use crate::noise::student::t_975;
use crate::noise::Interval;
use crate::quantity::Better;

/// How the newest night compares with the current level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Fewer than three nights at the current level.
    Unjudged,
    /// Inside the range the level predicts, or within the smallest change.
    AsBefore,
    /// Outside it on the worse side.
    Worse,
    /// Outside it on the better side.
    Better,
}

/// The newest night and its verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Newest {
    /// Its date.
    pub date: String,
    /// Its result file.
    pub file: String,
    /// Its value.
    pub value: f64,
    /// The verdict.
    pub verdict: Verdict,
    /// The current level's mean, without the newest night.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<f64>,
    /// How many nights it is the mean of.
    pub level_nights: usize,
    /// The range one more night at that level falls in 95 times in 100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Interval>,
    /// The change from the level, in percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_pct: Option<f64>,
}

/// What a value says against a level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Judged {
    /// The verdict.
    pub verdict: Verdict,
    /// The level's mean.
    pub level: Option<f64>,
    /// The prediction interval.
    pub expected: Option<Interval>,
    /// The change from the level, in percent.
    pub change_pct: Option<f64>,
}

/// The newest night of `series` against the last stretch `found` (its detection) ends with.
pub fn judge_newest(series: &Series<'_>, found: &History, settings: &Settings) -> Newest {
    let newest = series.nights.len() - 1;
    let first = found.segments.last().map_or(0, |s| s.first);
    let level: Vec<f64> = (first..newest)
        .filter(|i| !found.outliers.iter().any(|o| o.index == *i))
        .map(|i| series.nights[i].value)
        .collect();
    let night = &series.nights[newest];
    let judged = against_level(
        &level,
        night.value,
        series.metric.better(),
        settings.min_change,
    );
    Newest {
        date: super::night_date(night),
        file: night.run.provenance.file.clone(),
        value: night.value,
        verdict: judged.verdict,
        level: judged.level,
        level_nights: level.len(),
        expected: judged.expected,
        change_pct: judged.change_pct,
    }
}

/// `value` against the nights `level` (at least three for a verdict), where `better` is the
/// better direction and `min_change` the smallest change (a share) that counts.
pub fn against_level(level: &[f64], value: f64, better: Better, min_change: f64) -> Judged {
    let k = level.len();
    if k < 3 || !value.is_finite() {
        return Judged {
            verdict: Verdict::Unjudged,
            level: (k > 0).then(|| level.iter().sum::<f64>() / k as f64),
            expected: None,
            change_pct: None,
        };
    }
    let mean = level.iter().sum::<f64>() / k as f64;
    let var = level.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
    let half = t_975((k - 1) as f64) * (var * (1.0 + 1.0 / k as f64)).sqrt();
    let expected = Interval {
        lo: mean - half,
        hi: mean + half,
    };
    let change = value / mean - 1.0;
    let outside = !expected.contains(value) && change.abs() >= min_change;
    let verdict = match (outside, value > mean, better) {
        (false, _, _) => Verdict::AsBefore,
        (true, true, Better::Lower) | (true, false, Better::Higher) => Verdict::Worse,
        (true, _, _) => Verdict::Better,
    };
    Judged {
        verdict,
        level: Some(mean),
        expected: Some(expected),
        change_pct: Some(change * 100.0),
    }
}
