//! Did a run get worse? Each value of a series over time is compared with the runs before it:
//! the median of the last [`HISTORY`] values and their median absolute deviation (MAD). A value
//! worse than that median by more than [`MADS`] MADs, and by at least [`MIN_CHANGE`] of the
//! median, is a regression; fewer than [`MIN_HISTORY`] earlier values give no verdict.
//!
//! Median and MAD, not mean and standard deviation, so that one bad night does not widen the
//! range the next nights are judged by. The MAD is scaled by 1.4826 so that, for normally
//! distributed noise, it estimates the standard deviation: ± 3 MADs then holds 99.7% of
//! ordinary nights (the usual robust outlier rule; Leys et al., 2013). The floor keeps a steady
//! history (a MAD near 0) from calling a 1% wobble a regression.
//!
//! Ten earlier values estimate their spread only roughly, and a tail percentile of a few hundred
//! requests is itself noisy, so a ring is a reason to look at the run, not proof: the rule is a
//! screen. Fewer than five earlier values are not judged at all.

use crate::quantity::Better;

/// How many earlier values a value is compared with, at most.
pub const HISTORY: usize = 10;
/// Fewer earlier values than this give no verdict.
pub const MIN_HISTORY: usize = 5;
/// How many MADs from the median a value may be before it is a change.
pub const MADS: f64 = 3.0;
/// The MAD of normally distributed values times this is their standard deviation.
const MAD_TO_SIGMA: f64 = 1.4826;
/// The smallest change, as a share of the median, that can be a regression.
pub const MIN_CHANGE: f64 = 0.05;

/// The rule's settings: the constants above unless a report sets its own (`kind: trend`'s
/// `history`, `mads`, `min_change`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rule {
    /// How many earlier values a value is compared with, at most.
    pub history: usize,
    /// Fewer earlier values than this give no verdict.
    pub min_history: usize,
    /// How many scaled MADs from the median a value may be before it is a change.
    pub mads: f64,
    /// The smallest change, as a share of the median, that can be a regression.
    pub min_change: f64,
}

impl Default for Rule {
    fn default() -> Self {
        Rule {
            history: HISTORY,
            min_history: MIN_HISTORY,
            mads: MADS,
            min_change: MIN_CHANGE,
        }
    }
}

impl Rule {
    /// The default rule with a report's settings, each checked: `history` a whole number of at
    /// least 3 (the verdict then needs `min(history, 5)` earlier values), `mads` a positive
    /// number, `min_change` a percentage from 0 to 100.
    pub fn with(
        history: Option<f64>,
        mads: Option<f64>,
        min_change: Option<f64>,
    ) -> Result<Rule, String> {
        let mut rule = Rule::default();
        if let Some(h) = history {
            if !(h >= 3.0 && h.fract() == 0.0 && h <= 1000.0) {
                return Err(format!(
                    "`history: {h}`: expected how many earlier runs to compare with, a whole number from 3 to 1000"
                ));
            }
            rule.history = h as usize;
            rule.min_history = MIN_HISTORY.min(rule.history);
        }
        if let Some(m) = mads {
            if !(m > 0.0 && m.is_finite()) {
                return Err(format!(
                    "`mads: {m}`: expected how many median absolute deviations a run may be from the median, a positive number such as 3"
                ));
            }
            rule.mads = m;
        }
        if let Some(c) = min_change {
            if !(0.0..=100.0).contains(&c) {
                return Err(format!(
                    "`min_change: {c}`: expected the smallest change that counts, in percent from 0 to 100, such as 5"
                ));
            }
            rule.min_change = c / 100.0;
        }
        Ok(rule)
    }
}

/// What the earlier values lead one to expect.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Expected {
    /// Median of the earlier values.
    pub median: f64,
    /// Their median absolute deviation from it, scaled to estimate a standard deviation.
    pub mad: f64,
    /// How many earlier values it was made from.
    pub count: usize,
    /// The range a value may fall in without being a change: the median ± the larger of
    /// [`MADS`] MADs and [`MIN_CHANGE`] of the median.
    pub lo: f64,
    /// Upper end of that range.
    pub hi: f64,
}

/// How a value compares with the values before it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Verdict {
    /// Too few earlier values to judge.
    Unjudged,
    /// Inside the expected range.
    AsBefore(Expected),
    /// Worse than the expected range.
    Regression(Expected),
    /// Better than the expected range.
    Improvement(Expected),
}

/// The expected range made from the last [`HISTORY`] finite values of `earlier` (oldest first),
/// or `None` when fewer than [`MIN_HISTORY`] are finite.
pub fn expected(earlier: &[f64]) -> Option<Expected> {
    expected_by(earlier, &Rule::default())
}

/// [`expected`] by `rule`.
pub fn expected_by(earlier: &[f64], rule: &Rule) -> Option<Expected> {
    let finite: Vec<f64> = earlier.iter().copied().filter(|v| v.is_finite()).collect();
    let recent = &finite[finite.len().saturating_sub(rule.history)..];
    if recent.len() < rule.min_history {
        return None;
    }
    let median = median_of(recent)?;
    let deviations: Vec<f64> = recent.iter().map(|v| (v - median).abs()).collect();
    let mad = median_of(&deviations)? * MAD_TO_SIGMA;
    let reach = (rule.mads * mad).max(rule.min_change * median.abs());
    Some(Expected {
        median,
        mad,
        count: recent.len(),
        lo: median - reach,
        hi: median + reach,
    })
}

/// The verdict on `value` given the `earlier` values of its series, where `better` says which
/// direction is an improvement.
pub fn judge(value: f64, earlier: &[f64], better: Better) -> Verdict {
    judge_by(value, earlier, better, &Rule::default())
}

/// [`judge`] by `rule`.
pub fn judge_by(value: f64, earlier: &[f64], better: Better, rule: &Rule) -> Verdict {
    let Some(e) = expected_by(earlier, rule) else {
        return Verdict::Unjudged;
    };
    let (worse, improved) = match better {
        Better::Lower => (value > e.hi, value < e.lo),
        Better::Higher => (value < e.lo, value > e.hi),
    };
    if !value.is_finite() {
        Verdict::Unjudged
    } else if worse {
        Verdict::Regression(e)
    } else if improved {
        Verdict::Improvement(e)
    } else {
        Verdict::AsBefore(e)
    }
}

/// The verdict on every value of a series (oldest first) against the values before it. A
/// missing value (`NaN`) is unjudged and is not part of any later value's history.
pub fn judge_series(values: &[f64], better: Better, rule: &Rule) -> Vec<Verdict> {
    (0..values.len())
        .map(|i| {
            if values[i].is_finite() {
                judge_by(values[i], &values[..i], better, rule)
            } else {
                Verdict::Unjudged
            }
        })
        .collect()
}

/// The median of finite values (the mean of the middle two for an even count).
fn median_of(values: &[f64]) -> Option<f64> {
    let sorted = super::sorted_finite(values);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_range_is_the_median_plus_or_minus_three_scaled_mads_of_the_last_ten() {
        // The first two values are older than the last ten and are ignored.
        let earlier = [
            900.0, 900.0, 100.0, 104.0, 96.0, 102.0, 98.0, 100.0, 106.0, 94.0, 100.0, 100.0,
        ];
        let e = expected(&earlier).unwrap();
        assert_eq!(e.count, 10);
        assert_eq!(e.median, 100.0);
        // Deviations 0, 4, 4, 2, 2, 0, 6, 6, 0, 0: their median is 2, scaled 2.9652.
        assert!((e.mad - 2.9652).abs() < 1e-9, "{}", e.mad);
        assert!(
            (e.lo - 91.1044).abs() < 1e-9 && (e.hi - 108.8956).abs() < 1e-9,
            "{e:?}"
        );
    }

    #[test]
    fn a_steady_history_is_not_broken_by_a_wobble_under_five_percent() {
        let earlier = [50.0; 6];
        assert!(matches!(
            judge(52.0, &earlier, Better::Lower),
            Verdict::AsBefore(_)
        ));
        assert!(matches!(
            judge(53.0, &earlier, Better::Lower),
            Verdict::Regression(_)
        ));
    }

    #[test]
    fn worse_depends_on_which_direction_is_better() {
        let earlier = [100.0, 101.0, 99.0, 100.0, 100.0];
        assert!(matches!(
            judge(120.0, &earlier, Better::Lower),
            Verdict::Regression(_)
        ));
        assert!(matches!(
            judge(120.0, &earlier, Better::Higher),
            Verdict::Improvement(_)
        ));
        assert!(matches!(
            judge(80.0, &earlier, Better::Higher),
            Verdict::Regression(_)
        ));
    }

    #[test]
    fn too_few_earlier_values_give_no_verdict_and_gaps_are_skipped() {
        assert_eq!(judge(500.0, &[100.0; 4], Better::Lower), Verdict::Unjudged);
        assert_eq!(
            judge(
                500.0,
                &[100.0, f64::NAN, 100.0, 100.0, 100.0],
                Better::Lower
            ),
            Verdict::Unjudged
        );
        assert_eq!(
            judge(f64::NAN, &[100.0; 5], Better::Lower),
            Verdict::Unjudged
        );
    }

    #[test]
    fn one_spike_in_a_series_is_the_only_regression_and_does_not_move_the_range() {
        let mut values = vec![
            200.0, 204.0, 198.0, 201.0, 203.0, 199.0, 202.0, 200.0, 197.0, 201.0,
        ];
        values.insert(7, 260.0);
        let verdicts = judge_series(&values, Better::Lower, &Rule::default());
        let regressions: Vec<usize> = verdicts
            .iter()
            .enumerate()
            .filter(|(_, v)| matches!(v, Verdict::Regression(_)))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(regressions, vec![7]);
        assert!(verdicts[..5].iter().all(|v| *v == Verdict::Unjudged));
    }

    #[test]
    fn a_report_can_set_the_rule_and_a_bad_setting_says_what_is_expected() {
        let rule = Rule::with(Some(4.0), Some(2.0), Some(1.0)).unwrap();
        assert_eq!((rule.history, rule.min_history), (4, 4));
        // Four earlier values are enough now; 2 MADs of 100, 102, 98, 100 (MAD 1 × 1.4826) and a
        // 1% floor give 100 ± 2.97: 103.5 is a regression, which the default rule leaves unjudged.
        let earlier = [100.0, 102.0, 98.0, 100.0];
        assert!(matches!(
            judge_by(103.5, &earlier, Better::Lower, &rule),
            Verdict::Regression(_)
        ));
        assert_eq!(judge(103.5, &earlier, Better::Lower), Verdict::Unjudged);
        for (rule, expected) in [
            (Rule::with(Some(2.0), None, None), "`history: 2`"),
            (Rule::with(Some(7.5), None, None), "`history: 7.5`"),
            (Rule::with(None, Some(0.0), None), "`mads: 0`"),
            (Rule::with(None, None, Some(150.0)), "`min_change: 150`"),
        ] {
            assert!(rule.unwrap_err().contains(expected), "{expected}");
        }
    }
}
