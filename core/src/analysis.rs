//! Statistics the charts are built from, as pure functions of plain numbers: quantiles and box
//! summaries, empirical CDFs, histogram bins, Pareto frontiers, breaking points, least-squares
//! lines and time windows.
//!
//! Every function here ignores NaN (a value the file did not give is not a measurement) and
//! never panics on empty, constant or non-finite input; what cannot be computed is `None` or
//! empty. Chart specs carry the results, so the browser never sees raw samples.

use serde::{Deserialize, Serialize};

use crate::model::{Distribution, Stat};
use crate::quantity::Better;

/// The finite values of `samples`, sorted ascending.
pub fn sorted_finite(samples: &[f64]) -> Vec<f64> {
    let mut v: Vec<f64> = samples.iter().copied().filter(|v| v.is_finite()).collect();
    crate::order::sort_f64(&mut v);
    v
}

/// The `q` quantile (0 to 1) of ascending `sorted` values, interpolated linearly between
/// neighbours (the "type 7" rule of R and NumPy). `None` when `sorted` is empty or `q` is not
/// in 0..=1.
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() || !(0.0..=1.0).contains(&q) {
        return None;
    }
    let h = (sorted.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    Some(sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo]))
}

/// The empirical CDF of `samples`: one `(value, share)` point per distinct finite value, where
/// `share` (0 to 1) is the fraction of finite samples at or below `value`. NaN and infinite
/// samples are ignored (an infinite latency cannot be placed on an axis).
pub fn cdf(samples: &[f64]) -> Vec<(f64, f64)> {
    let sorted = sorted_finite(samples);
    let n = sorted.len() as f64;
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (i, &v) in sorted.iter().enumerate() {
        let share = (i + 1) as f64 / n;
        match out.last_mut() {
            Some(last) if last.0 == v => last.1 = share,
            _ => out.push((v, share)),
        }
    }
    out
}

/// The fraction (0 to 1) of ascending `sorted` values at or below `x`; `None` when there are no
/// values or `x` is NaN.
pub fn share_at_or_below(sorted: &[f64], x: f64) -> Option<f64> {
    if sorted.is_empty() || x.is_nan() {
        return None;
    }
    Some(sorted.partition_point(|&v| v <= x) as f64 / sorted.len() as f64)
}

/// Thins a CDF (as made by [`cdf`]) to at most about `max_points` points for drawing and
/// shipping: a point is kept when its share reaches a new `1 / max_points` step, and the first
/// and last points are always kept. Every kept point is exact; between kept points the curve
/// understates the share by less than `1 / max_points`.
pub fn thin_cdf(points: &[(f64, f64)], max_points: usize) -> Vec<(f64, f64)> {
    let max_points = max_points.max(2);
    if points.len() <= max_points {
        return points.to_vec();
    }
    let bucket = |share: f64| (share * max_points as f64).floor() as i64;
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(max_points + 2);
    for (i, &p) in points.iter().enumerate() {
        let keep = match out.last() {
            None => true,
            Some(&(_, last)) => i + 1 == points.len() || bucket(p.1) > bucket(last),
        };
        if keep {
            out.push(p);
        }
    }
    out
}

/// Histogram bin edges for `samples` (ascending, `bins + 1` of them), empty when there is no
/// finite sample.
///
/// The bin width follows the Freedman–Diaconis rule (2 × IQR × n^(-1/3)), robust to the long
/// tails latencies have; Sturges' rule is the fallback when the IQR is zero. The width is rounded
/// up to 1, 2, 2.5 or 5 times a power of ten so edges read well, and the count is kept between 1
/// and [`MAX_BINS`].
pub fn histogram_bins(samples: &[f64]) -> Vec<f64> {
    let sorted = sorted_finite(samples);
    let (Some(&min), Some(&max)) = (sorted.first(), sorted.last()) else {
        return Vec::new();
    };
    let n = sorted.len() as f64;
    let span = max - min;
    if span <= 0.0 || !span.is_finite() {
        let width = nice_width(if min == 0.0 { 1.0 } else { min.abs() * 0.1 });
        return vec![min - width / 2.0, min + width / 2.0];
    }
    let iqr = quantile(&sorted, 0.75).unwrap_or(max) - quantile(&sorted, 0.25).unwrap_or(min);
    let raw = if iqr > 0.0 {
        2.0 * iqr / n.cbrt()
    } else {
        span / (n.log2().ceil() + 1.0)
    };
    let mut width = nice_width(raw.max(span / MAX_BINS as f64));
    loop {
        let first = (min / width).floor() * width;
        let count = (((max - first) / width).floor() as usize + 1).max(1);
        if count <= MAX_BINS {
            return (0..=count).map(|i| first + i as f64 * width).collect();
        }
        width = nice_width(width * 1.01);
    }
}

/// Most bins [`histogram_bins`] makes.
pub const MAX_BINS: usize = 120;

/// The smallest of 1, 2, 2.5 or 5 × 10^k at least `raw`.
fn nice_width(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|&w| w >= raw * (1.0 - 1e-12))
        .unwrap_or(10.0 * mag)
}

/// How many finite samples fall in each bin of `edges`: bin `i` is `[edges[i], edges[i + 1])`,
/// the last bin also holds its right edge. Samples outside the edges are not counted.
pub fn histogram_counts(samples: &[f64], edges: &[f64]) -> Vec<u64> {
    if edges.len() < 2 {
        return Vec::new();
    }
    let bins = edges.len() - 1;
    let mut counts = vec![0u64; bins];
    let last = edges[bins];
    for &v in samples.iter().filter(|v| v.is_finite()) {
        if v < edges[0] || v > last {
            continue;
        }
        let i = edges
            .partition_point(|&e| e <= v)
            .saturating_sub(1)
            .min(bins - 1);
        counts[i] += 1;
    }
    counts
}

/// A five-number summary plus the mean: what a box plot draws.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BoxStats {
    /// Smallest value (the lower whisker's end).
    pub min: f64,
    /// First quartile (p25), the box's lower edge.
    pub q1: f64,
    /// Median, the line across the box.
    pub median: f64,
    /// Third quartile (p75), the box's upper edge.
    pub q3: f64,
    /// Largest value (the upper whisker's end).
    pub max: f64,
    /// Arithmetic mean, drawn as a marker when known.
    #[serde(default)]
    pub mean: Option<f64>,
    /// How many values it summarises, when known.
    #[serde(default)]
    pub count: Option<u64>,
}

impl BoxStats {
    /// The summary of the finite values of `samples`; `None` when there is none.
    pub fn from_samples(samples: &[f64]) -> Option<BoxStats> {
        let sorted = sorted_finite(samples);
        let mean = sorted.iter().sum::<f64>() / sorted.len() as f64;
        Some(BoxStats {
            min: *sorted.first()?,
            q1: quantile(&sorted, 0.25)?,
            median: quantile(&sorted, 0.5)?,
            q3: quantile(&sorted, 0.75)?,
            max: *sorted.last()?,
            mean: mean.is_finite().then_some(mean),
            count: Some(sorted.len() as u64),
        })
    }

    /// The summary a tool reported: min, p25, median (or p50), p75 and max are all needed;
    /// `None` when one is missing or the values are not finite and in order.
    pub fn from_distribution(d: &Distribution) -> Option<BoxStats> {
        let stats = BoxStats {
            min: d.get(Stat::Min)?,
            q1: d.get(Stat::P(25.0))?,
            median: d.get(Stat::Median)?,
            q3: d.get(Stat::P(75.0))?,
            max: d.get(Stat::Max)?,
            mean: d.mean.filter(|m| m.is_finite()),
            count: None,
        };
        let five = [stats.min, stats.q1, stats.median, stats.q3, stats.max];
        let ordered = five.windows(2).all(|w| w[0] <= w[1]);
        (five.iter().all(|v| v.is_finite()) && ordered).then_some(stats)
    }
}

/// The Pareto frontier of `points` (x, y): the indices of the points no other point beats,
/// where "beats" means at least as good on both axes (per `better_x` and `better_y`) and
/// strictly better on one. Returned in ascending x. Non-finite points are ignored, and of
/// exact duplicates only the first is kept.
pub fn pareto_frontier(points: &[(f64, f64)], better_x: Better, better_y: Better) -> Vec<usize> {
    let good = |better: Better, v: f64| match better {
        Better::Higher => v,
        Better::Lower => -v,
    };
    let finite: Vec<usize> = (0..points.len())
        .filter(|&i| points[i].0.is_finite() && points[i].1.is_finite())
        .collect();
    // Best x first; among equal x, best y first; then original order.
    let order = crate::order::order_by_keys(finite.len(), &|k| {
        let p = points[finite[k]];
        [-good(better_x, p.0), -good(better_y, p.1), 0.0]
    })
    .into_iter()
    .map(|k| finite[k]);
    let mut best_y = f64::NEG_INFINITY;
    let mut frontier: Vec<usize> = Vec::new();
    for i in order {
        let y = good(better_y, points[i].1);
        if y > best_y {
            best_y = y;
            frontier.push(i);
        }
    }
    crate::order::sort_by_keys(&mut frontier, &|&i| [points[i].0, i as f64, 0.0]);
    frontier
}

/// One load point of a sweep, as [`breaking_point`] reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoadObservation {
    /// The load (concurrency or request rate; `f64::INFINITY` for "all at once").
    pub load: f64,
    /// The watched metric at this load; `None` when not measured (every request failed).
    pub value: Option<f64>,
    /// Share of requests that failed, in percent; `None` when unknown.
    pub error_rate: Option<f64>,
}

/// When a sweep counts as broken.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BreakingRule {
    /// An error rate (percent) at or above this breaks the sweep.
    pub max_error_rate: f64,
    /// The metric getting worse by more than this factor from one load to the next breaks it.
    pub jump_factor: f64,
    /// Which direction of the metric is better (a latency jumps up, a throughput falls).
    pub better: Better,
}

impl Default for BreakingRule {
    /// 5% errors or a 3× jump of a latency.
    fn default() -> Self {
        BreakingRule {
            max_error_rate: 5.0,
            jump_factor: 3.0,
            better: Better::Lower,
        }
    }
}

/// Why a load point is the breaking point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BreakReason {
    /// The error rate (percent) reached the rule's limit.
    ErrorRate(f64),
    /// The metric got worse by `factor`, from `from` at the previous load to `to`.
    Jump {
        /// Value at the previous measured load.
        from: f64,
        /// Value at this load.
        to: f64,
        /// How many times worse.
        factor: f64,
    },
}

/// The first load at which a sweep breaks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BreakingPoint {
    /// Index into the observations given to [`breaking_point`].
    pub index: usize,
    /// The load.
    pub load: f64,
    /// What broke.
    pub reason: BreakReason,
}

impl BreakingPoint {
    /// A short label for the chart: `5.5% errors` or `3.2× worse`.
    pub fn summary(&self) -> String {
        match self.reason {
            BreakReason::ErrorRate(r) => format!("{}% errors", crate::format::number(r)),
            BreakReason::Jump { factor, .. } => {
                format!("{}× worse", crate::format::number(factor))
            }
        }
    }
}

/// The first load (in increasing load order) where the error rate reaches
/// `rule.max_error_rate` or the metric gets worse than the previous measured load by more than
/// `rule.jump_factor`. Loads that are NaN are skipped; `None` when the sweep never breaks.
pub fn breaking_point(points: &[LoadObservation], rule: &BreakingRule) -> Option<BreakingPoint> {
    let mut order: Vec<usize> = (0..points.len())
        .filter(|&i| !points[i].load.is_nan())
        .collect();
    crate::order::sort_by_keys(&mut order, &|&i| [points[i].load, i as f64, 0.0]);
    let mut previous: Option<f64> = None;
    for i in order {
        let p = points[i];
        let found = |reason| {
            Some(BreakingPoint {
                index: i,
                load: p.load,
                reason,
            })
        };
        if let Some(rate) = p.error_rate.filter(|r| r.is_finite()) {
            if rate >= rule.max_error_rate {
                return found(BreakReason::ErrorRate(rate));
            }
        }
        let Some(value) = p.value.filter(|v| v.is_finite()) else {
            continue;
        };
        if let Some(from) = previous {
            let factor = match rule.better {
                Better::Lower => worse_factor(value, from),
                Better::Higher => worse_factor(from, value),
            };
            if factor > rule.jump_factor {
                return found(BreakReason::Jump {
                    from,
                    to: value,
                    factor,
                });
            }
        }
        previous = Some(value);
    }
    None
}

/// How many times `worse` exceeds `better` (both non-negative); 1 when it does not.
fn worse_factor(worse: f64, better: f64) -> f64 {
    if worse <= better {
        1.0
    } else if better <= 0.0 {
        f64::INFINITY
    } else {
        worse / better
    }
}

mod fit;
pub mod token_fit;
pub mod windows;

pub use fit::{linear_fit, LineFit};

#[cfg(test)]
mod tests;
