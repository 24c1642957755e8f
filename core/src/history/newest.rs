//! The newest night against the current level: the 95% prediction interval of one more night
//! at the last stretch's level (its mean ± t(df) · s · √(1 + 1/k), k its nights, s the
//! night-to-night noise pooled over every stretch, outliers left out: [`Current`]), and a
//! verdict that needs the night outside that interval and a change of at least the smallest
//! change that counts. One noisy night then
//! neither hides a regression (the interval is the level's, not the whole history's) nor raises
//! a false one (the nights' own spread is the noise).

use serde::Serialize;

use super::change_points::{History, Settings};
use super::series::{distinct_days, night_date, Series};
use crate::noise::student::{t_975, t_upper_tail};
use crate::noise::Interval;
use crate::quantity::Better;
use crate::versus::family::survivors;

/// How the newest night compares with the current level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Fewer than two nights at the current level, or too few nights to know the noise.
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
    /// The two-sided p-value of the night against the level's prediction (Student's t).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_value: Option<f64>,
    /// True when the night left the range but Holm's correction over every series judged
    /// holds it within the family's noise: its verdict is then [`Verdict::AsBefore`].
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub within_family_noise: bool,
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
    /// The two-sided p-value of the value against the level's prediction.
    pub p_value: Option<f64>,
}

/// The level a new night is judged against: the last stretch's mean, with the night-to-night
/// noise pooled over every stretch (each night's deviation from its own stretch's mean): a
/// stretch chosen by the change-point search looks steadier than its nights are, and a short
/// one says little of its spread.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Current {
    /// The last stretch's mean.
    pub mean: f64,
    /// Its nights.
    pub nights: usize,
    /// The pooled variance of one night about its stretch's mean.
    pub variance: f64,
    /// Its degrees of freedom: the nights less one per stretch.
    pub df: usize,
}

/// The current level of `values` before index `end`, by the stretches and outliers `found`
/// (outliers left out); `None` without a night before `end`.
pub fn current_level(values: &[f64], found: &History, end: usize) -> Option<Current> {
    let mut squares = 0.0;
    let (mut df, mut last) = (0, None);
    for segment in &found.segments {
        let nights: Vec<f64> = (segment.first..=segment.last.min(end.saturating_sub(1)))
            .filter(|i| *i < end && values[*i].is_finite())
            .filter(|i| !found.outliers.iter().any(|o| o.index == *i))
            .map(|i| values[i])
            .collect();
        if nights.is_empty() {
            continue;
        }
        let mean = nights.iter().sum::<f64>() / nights.len() as f64;
        squares += nights.iter().map(|v| (v - mean).powi(2)).sum::<f64>();
        df += nights.len() - 1;
        last = Some((mean, nights.len()));
    }
    let (mean, nights) = last?;
    Some(Current {
        mean,
        nights,
        variance: if df > 0 { squares / df as f64 } else { 0.0 },
        df,
    })
}

/// The newest night of `series` against the current level of the nights before it.
pub fn judge_newest(series: &Series<'_>, found: &History, settings: &Settings) -> Newest {
    let newest = series.nights.len() - 1;
    let values: Vec<f64> = series.nights.iter().map(|n| n.value).collect();
    let current = current_level(&values, found, newest);
    let night = &series.nights[newest];
    let judged = against_level(
        current.as_ref(),
        night.value,
        series.metric.better(),
        settings.min_change,
    );
    Newest::judged(
        (
            night_date(night, distinct_days(series)),
            &night.run.provenance.file,
        ),
        night.value,
        &judged,
        current.map_or(0, |c| c.nights),
    )
}

impl Newest {
    /// The night dated `date` from `file` whose `value` was `judged` against a level of
    /// `level_nights` nights.
    pub fn judged(
        (date, file): (String, &str),
        value: f64,
        judged: &Judged,
        level_nights: usize,
    ) -> Newest {
        Newest {
            date,
            file: file.to_string(),
            value,
            verdict: judged.verdict,
            level: judged.level,
            level_nights,
            expected: judged.expected,
            change_pct: judged.change_pct,
            p_value: judged.p_value,
            within_family_noise: false,
        }
    }
}

/// Holm's correction over the newest nights of `series` (every night with a p-value is in the
/// family): a night worse or better whose p-value does not survive becomes as before, within
/// the family's noise. With thirty series read at 95%, one would leave its range on most
/// nights by chance alone.
pub fn correct(newest: &mut [&mut Newest]) {
    let p_values: Vec<Option<f64>> = newest.iter().map(|n| n.p_value).collect();
    for (night, survives) in newest.iter_mut().zip(survivors(&p_values)) {
        if matches!(night.verdict, Verdict::Worse | Verdict::Better) && !survives {
            night.verdict = Verdict::AsBefore;
            night.within_family_noise = true;
        }
    }
}

/// `value` against `current` (two nights at least, and three degrees of freedom of noise, for
/// a verdict), where `better` is the better direction and `min_change` the smallest change (a
/// share) that counts.
pub fn against_level(
    current: Option<&Current>,
    value: f64,
    better: Better,
    min_change: f64,
) -> Judged {
    let Some(c) = current.filter(|c| c.nights >= 2 && c.df >= 3 && value.is_finite()) else {
        return Judged {
            verdict: Verdict::Unjudged,
            level: current.map(|c| c.mean),
            expected: None,
            change_pct: None,
            p_value: None,
        };
    };
    let spread = (c.variance * (1.0 + 1.0 / c.nights as f64)).sqrt();
    let half = t_975(c.df as f64) * spread;
    let expected = Interval {
        lo: c.mean - half,
        hi: c.mean + half,
    };
    let change = value / c.mean - 1.0;
    let p_value = if spread > 0.0 {
        (2.0 * t_upper_tail((value - c.mean).abs() / spread, c.df as f64)).min(1.0)
    } else if value == c.mean {
        1.0
    } else {
        0.0
    };
    let outside = !expected.contains(value) && change.abs() >= min_change;
    let verdict = match (outside, value > c.mean, better) {
        (false, _, _) => Verdict::AsBefore,
        (true, true, Better::Lower) | (true, false, Better::Higher) => Verdict::Worse,
        (true, _, _) => Verdict::Better,
    };
    Judged {
        verdict,
        level: Some(c.mean),
        expected: Some(expected),
        change_pct: Some(change * 100.0),
        p_value: Some(p_value),
    }
}
