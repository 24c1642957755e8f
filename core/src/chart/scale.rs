//! Axis scales, ranges and ticks as pure functions: "nice" linear ticks (1, 2, 2.5 or 5 times a
//! power of ten), log decades, the data-to-pixel mapping (with a slot for `∞` at the right end)
//! and the choice of tick labels that do not overlap.

use serde::{Deserialize, Serialize};

/// How values are spread along an axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    /// Equal distances for equal differences.
    #[default]
    Linear,
    /// Equal distances for equal ratios (base 10); only positive values can be placed.
    Log,
}

impl Scale {
    /// True for [`Scale::Linear`] (serde skips the default).
    pub fn is_linear(&self) -> bool {
        *self == Scale::Linear
    }

    /// True when `v` has a place on this scale: finite, and positive on a log scale.
    pub fn placeable(self, v: f64) -> bool {
        v.is_finite() && (self == Scale::Linear || v > 0.0)
    }
}

/// Step sizes tried, times a power of ten.
const STEPS: [f64; 4] = [1.0, 2.0, 2.5, 5.0];

/// Linear axis bounds and the tick step between them: `lo` and `hi` are multiples of `step`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearTicks {
    /// Lower bound of the axis.
    pub lo: f64,
    /// Upper bound of the axis.
    pub hi: f64,
    /// Distance between ticks.
    pub step: f64,
}

impl LinearTicks {
    /// The tick values from `lo` to `hi`.
    pub fn values(&self) -> Vec<f64> {
        if !(self.step.is_finite() && self.step > 0.0) {
            return vec![self.lo, self.hi];
        }
        let n = ((self.hi - self.lo) / self.step).round().max(0.0) as usize;
        (0..=n.min(1000))
            .map(|i| {
                let v = self.lo + i as f64 * self.step;
                // Snap float noise (0.30000000000000004) and negative zero.
                let snapped = (v / self.step).round() * self.step;
                if snapped == 0.0 {
                    0.0
                } else {
                    snapped
                }
            })
            .collect()
    }
}

/// Nice linear bounds around `min..=max` with at most `max_ticks` ticks (at least 2): the bounds
/// are extended outward to multiples of the smallest nice step that fits. With `zero`, a range
/// of non-negative values starts at 0 (bars and lines measured from nothing). A single value is
/// given room around it; non-finite input gives `0..1`.
pub fn linear_ticks(min: f64, max: f64, max_ticks: usize, zero: bool) -> LinearTicks {
    let max_ticks = max_ticks.max(2);
    let (mut min, mut max) = if min.is_finite() && max.is_finite() {
        (min.min(max), min.max(max))
    } else {
        (0.0, 1.0)
    };
    if zero && min >= 0.0 {
        min = 0.0;
    }
    if max - min <= f64::EPSILON * max.abs().max(1.0) {
        if min == 0.0 {
            max = 1.0;
        } else if zero && min > 0.0 {
            min = 0.0;
        } else {
            let pad = min.abs() * 0.5;
            min -= pad;
            max += pad;
        }
    }
    let span = max - min;
    if !span.is_finite() {
        return LinearTicks {
            lo: min,
            hi: max,
            step: span,
        };
    }
    let raw = span / (max_ticks - 1) as f64;
    let mut magnitude = 10f64.powf(raw.log10().floor());
    // A few magnitudes always suffice, except for two ticks around zero: then the bounds are
    // the values themselves.
    for _ in 0..4 {
        for m in STEPS {
            let step = m * magnitude;
            let lo = (min / step).floor() * step;
            let hi = (max / step).ceil() * step;
            if ((hi - lo) / step).round() + 1.0 <= max_ticks as f64 {
                return LinearTicks { lo, hi, step };
            }
        }
        magnitude *= 10.0;
    }
    LinearTicks {
        lo: min,
        hi: max,
        step: span,
    }
}

/// Log axis bounds around the positive `min..=max`: the nearest 1, 2 or 5 times a power of ten
/// below and above (a step further out for a single value); `1..10` when there is no positive
/// finite value.
pub fn log_bounds(min: f64, max: f64) -> (f64, f64) {
    if !(min.is_finite() && max.is_finite() && min > 0.0 && max > 0.0) {
        return (1.0, 10.0);
    }
    let (min, max) = (min.min(max), min.max(max));
    let (lo, hi) = (step_at_or_below(min), step_at_or_above(max));
    if hi > lo {
        (lo, hi)
    } else {
        (step_at_or_below(min * 0.99), step_at_or_above(max * 1.01))
    }
}

/// The largest 1, 2 or 5 × 10^k at most `v` (positive).
fn step_at_or_below(v: f64) -> f64 {
    let mag = 10f64.powf(v.log10().floor());
    [5.0, 2.0, 1.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|&s| s <= v * (1.0 + 1e-12))
        .unwrap_or(mag)
}

/// The smallest 1, 2 or 5 × 10^k at least `v` (positive).
fn step_at_or_above(v: f64) -> f64 {
    let mag = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|&s| s >= v * (1.0 - 1e-12))
        .unwrap_or(10.0 * mag)
}

/// Tick values on a log axis from `lo` to `hi`, at most about `max_ticks`: the decades in the
/// range; 1-2-5 steps when fewer than three decades fall in it; every second, third...
/// decade when there are too many.
pub fn log_ticks(lo: f64, hi: f64, max_ticks: usize) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo && lo.is_finite() && hi.is_finite()) {
        return Vec::new();
    }
    let within = |v: &f64| *v >= lo * (1.0 - 1e-9) && *v <= hi * (1.0 + 1e-9);
    let first = lo.log10().floor() as i32;
    let last = hi.log10().ceil() as i32;
    let decades: Vec<f64> = (first..=last)
        .map(|e| 10f64.powi(e))
        .filter(within)
        .collect();
    let max_ticks = max_ticks.max(2);
    if decades.len() < 3 {
        let fine: Vec<f64> = (first..=last)
            .flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(e)))
            .filter(within)
            .collect();
        if fine.len() <= max_ticks {
            return fine;
        }
    }
    let every = decades.len().div_ceil(max_ticks).max(1);
    decades.into_iter().step_by(every).collect()
}

/// Share of an axis's length the finite values use when an `∞` slot sits at its end.
pub const FINITE_SHARE: f64 = 0.88;

/// Maps data values on one axis to pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AxisMap {
    /// Data value at `from`.
    pub lo: f64,
    /// Data value at `to` (or at the end of the finite part when `infinite`).
    pub hi: f64,
    /// Linear or log.
    pub scale: Scale,
    /// Pixel of `lo`.
    pub from: f64,
    /// Pixel of the axis's far end.
    pub to: f64,
    /// Whether `+∞` has a slot at `to` (finite values then end at [`FINITE_SHARE`]).
    pub infinite: bool,
}

impl AxisMap {
    /// The pixel of `v`, or `None` when it has no place (NaN, `-∞`, `+∞` without a slot, not
    /// positive on a log scale). Values beyond the bounds extrapolate.
    pub fn px(&self, v: f64) -> Option<f64> {
        if v == f64::INFINITY && self.infinite {
            return Some(self.to);
        }
        if !self.scale.placeable(v) {
            return None;
        }
        let t = match self.scale {
            Scale::Linear => (v - self.lo) / (self.hi - self.lo),
            Scale::Log => (v.ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln()),
        };
        if !t.is_finite() {
            return Some(self.from);
        }
        let end = self.finite_end();
        Some((self.from + (end - self.from) * t).clamp(-1e6, 1e6))
    }

    /// The pixel where finite values end.
    pub fn finite_end(&self) -> f64 {
        if self.infinite {
            self.from + (self.to - self.from) * FINITE_SHARE
        } else {
            self.to
        }
    }
}

/// Which labels to show so that none overlaps another: `spans` are each label's (start, end)
/// pixel extent along the axis; `must` labels are kept first (the `∞` tick), then the others in
/// order whenever they clear every kept label by `gap` pixels.
pub fn keep_labels(spans: &[(f64, f64)], gap: f64, must: &[bool]) -> Vec<bool> {
    let mut keep: Vec<bool> = (0..spans.len())
        .map(|i| must.get(i).copied().unwrap_or(false))
        .collect();
    for i in 0..spans.len() {
        if keep[i] {
            continue;
        }
        let (a, b) = spans[i];
        let clear = spans
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .all(|(&(c, d), _)| b + gap <= c || d + gap <= a);
        keep[i] = clear;
    }
    keep
}

/// A "nice" upper bound for an axis that starts at zero: 1, 2, 2.5 or 5 times a power of ten.
pub fn nice_ceiling(max: f64) -> f64 {
    if !(max.is_finite() && max > 0.0) {
        return 1.0;
    }
    let magnitude = 10f64.powf(max.log10().floor());
    [1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|&c| c >= max * 1.0001)
        .unwrap_or(10.0 * magnitude)
}

#[cfg(test)]
mod tests;
