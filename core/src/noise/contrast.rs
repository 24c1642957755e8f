//! Two estimates set against each other: the ratio of their values with a 95% interval, and
//! what a page says of it ([`Finding`]): one is better by so much, or there is no clear
//! difference, or the noise of one side is unknown.
//!
//! The interval of the ratio combines the two sides' own intervals by the MOVER method
//! ("method of variance estimates recovery", Zou and Donner 2008) on the log scale: each side's
//! interval gives the spread of its log on either side, and the ratio's limits take the spread
//! that moves it that way from each side. It needs no more than the two intervals, so it serves
//! every pair of bases alike (order statistics, t intervals, runs), it respects asymmetric
//! intervals such as a p99's, and for two t intervals it is close to Welch's.

use super::estimate::{Estimate, Interval};
use crate::quantity::Better;

/// The ratio `b ÷ a` of two estimates, with its 95% interval where both sides have one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ratio {
    /// `b ÷ a`.
    pub value: f64,
    /// Its 95% interval; `None` when either side's noise is unknown.
    pub interval: Option<Interval>,
}

impl Ratio {
    /// `b ÷ a`; `None` unless both values are finite and above zero.
    pub fn of(a: &Estimate, b: &Estimate) -> Option<Ratio> {
        Ratio::between(
            (a.value, a.bounds().map(|(i, _)| i)),
            (b.value, b.bounds().map(|(i, _)| i)),
        )
    }

    /// `b ÷ a` of two values, each with its interval if known.
    pub fn between(a: (f64, Option<Interval>), b: (f64, Option<Interval>)) -> Option<Ratio> {
        let ((a, ia), (b, ib)) = (a, b);
        if !(a > 0.0 && b > 0.0 && a.is_finite() && b.is_finite()) {
            return None;
        }
        let (ta, tb) = (a.ln(), b.ln());
        let d = tb - ta;
        // A value outside its own interval is bad data: the interval says nothing of that
        // value's noise, which is then unknown (clipping the spread at zero, as this did,
        // made bad data look surer than good).
        let interval = ia
            .zip(ib)
            .filter(|(ia, ib)| ia.contains(a) && ib.contains(b));
        let interval = interval.map(|(ia, ib)| {
            let (la, ua) = (log_or_floor(ia.lo), ia.hi.ln());
            let (lb, ub) = (log_or_floor(ib.lo), ib.hi.ln());
            let lower = d - ((tb - lb).powi(2) + (ua - ta).powi(2)).sqrt();
            let upper = d + ((ub - tb).powi(2) + (ta - la).powi(2)).sqrt();
            Interval {
                lo: lower.exp(),
                hi: upper.exp(),
            }
        });
        Some(Ratio {
            value: d.exp(),
            interval,
        })
    }
}

/// The 95% interval of `b − a` from each side's value and 95% interval, by MOVER on the plain
/// scale (Zou and Donner 2008, as [`Ratio`] on the log scale): for values where a ratio means
/// nothing, as when a side is zero (every request failed, no error at all).
pub fn difference(a: (f64, Interval), b: (f64, Interval)) -> Interval {
    let ((a, ia), (b, ib)) = (a, b);
    let (ia, ib) = (ia.holding(a), ib.holding(b));
    let d = b - a;
    Interval {
        lo: d - ((b - ib.lo).powi(2) + (ia.hi - a).powi(2)).sqrt(),
        hi: d + ((ib.hi - b).powi(2) + (a - ia.lo).powi(2)).sqrt(),
    }
}

/// ln of an interval's lower end; a lower end at or below zero (a mean's t interval from very
/// few values) leaves the ratio unbounded that way.
fn log_or_floor(lo: f64) -> f64 {
    if lo > 0.0 {
        lo.ln()
    } else {
        f64::NEG_INFINITY
    }
}

/// What a comparison of two estimates finds, for a quantity where `better` says which way is
/// better. `by` is the gap over the worse value in percent, as a head-to-head writes it
/// ("Faster by 30.6%"), and `interval` its 95% interval in percent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Finding {
    /// Side `winner` (0: a, 1: b) is better and the interval of the difference excludes none.
    Clear {
        /// 0 for a, 1 for b.
        winner: usize,
        /// How much better, in percent of the worse value.
        by: f64,
        /// Its interval, in percent, above zero.
        interval: Interval,
    },
    /// The interval includes no difference: side `ahead` is better by the values alone.
    NoClearDifference {
        /// The side whose value is the better one, for the record.
        ahead: usize,
        /// Its gap, in percent of the worse value.
        by: f64,
        /// Its interval, in percent, which includes zero.
        interval: Interval,
    },
    /// At least one side has no interval: only the values can be compared.
    NoiseUnknown,
}

/// The words every page, table and `benchdeck compare` uses when an interval includes zero.
pub const NO_CLEAR_DIFFERENCE: &str = "no clear difference";

impl Finding {
    /// `a` against `b`; `None` unless both values are finite and above zero.
    pub fn of(a: &Estimate, b: &Estimate, better: Better) -> Option<Finding> {
        Finding::between(
            (a.value, a.bounds().map(|(i, _)| i)),
            (b.value, b.bounds().map(|(i, _)| i)),
            better,
        )
    }

    /// [`Finding::of`] for two values, each with its interval if known.
    pub fn between(
        a: (f64, Option<Interval>),
        b: (f64, Option<Interval>),
        better: Better,
    ) -> Option<Finding> {
        let ratio = Ratio::between(a, b)?;
        let Some(interval) = ratio.interval else {
            return Some(Finding::NoiseUnknown);
        };
        // The winner by the values; s = winner ÷ worse and its interval.
        let b_wins = match better {
            Better::Lower => ratio.value < 1.0,
            Better::Higher => ratio.value > 1.0,
        };
        let (s, s_lo, s_hi) = if b_wins {
            (ratio.value, interval.lo, interval.hi)
        } else {
            (1.0 / ratio.value, 1.0 / interval.hi, 1.0 / interval.lo)
        };
        let (by, lo, hi) = match better {
            Better::Lower => (1.0 - s, 1.0 - s_hi, 1.0 - s_lo),
            Better::Higher => (s - 1.0, s_lo - 1.0, s_hi - 1.0),
        };
        let interval = Interval {
            lo: lo * 100.0,
            hi: hi * 100.0,
        };
        let winner = usize::from(b_wins);
        Some(if interval.lo > 0.0 {
            Finding::Clear {
                winner,
                by: by * 100.0,
                interval,
            }
        } else {
            Finding::NoClearDifference {
                ahead: winner,
                by: by * 100.0,
                interval,
            }
        })
    }

    /// The interval as a table writes it: `95% CI 27.9–33.1%`, `95% CI −2.5 to 4.8%`.
    pub fn interval_text(interval: Interval) -> String {
        interval.percent_text()
    }
}
