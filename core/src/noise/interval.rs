//! 95% intervals of one statistic, by the method its data allows:
//!
//! | data | statistic | interval |
//! |---|---|---|
//! | per-request values | a percentile or the median | distribution-free: two order statistics whose ranks the binomial distribution picks ([`quantile`]) |
//! | per-request values | the mean | Student's t: mean ± t(n − 1) · s / √n ([`mean`]) |
//! | a mean, its standard deviation and the request count | the mean | the same t interval from the summary ([`mean_of_summary`]) |
//! | several runs' values | any | t over the runs: their mean ± t(k − 1) · s / √k ([`mean`] of the runs' values) |
//! | requests counted ok and failed | success rate | Wilson's score interval ([`proportion`]) |
//!
//! None resamples, so a build is deterministic and fast: a percentile's order-statistic ranks,
//! walked out from the binomial's mode in log space, cost a few thousand steps after one sort
//! for a million requests, assume nothing of the distribution's shape, and cover at least 95%.
//! A seeded bootstrap would cost thousands of resamples per statistic and per comparison and
//! give quantiles nothing the order statistics do not. Dependent requests widen these
//! intervals in `dependence.rs`.

use super::estimate::Interval;
use super::student::{t_975, Z_975};

/// The smallest number of values an interval is computed from: below it the interval says
/// little and the order statistics run out.
pub const MIN_VALUES: usize = 5;

/// A distribution-free 95% interval for the `q` quantile (0 < q < 1) of the population that
/// the ascending `sorted` values were drawn from: the order statistics `X(l)` and `X(u)` with
/// P(B < l) ≤ 2.5% and P(B ≥ u) ≤ 2.5% for B ~ Binomial(n, q), so that it covers the true
/// quantile at least 95% of the time whatever the distribution (Conover, *Practical
/// Nonparametric Statistics*, §3.2). `None` when there are too few values for such ranks (a
/// p99.9 needs thousands).
pub fn quantile(sorted: &[f64], q: f64) -> Option<Interval> {
    let (l, u) = quantile_ranks(sorted.len(), q)?;
    Some(Interval {
        lo: sorted[l],
        hi: sorted[u],
    })
}

/// The 0-based indices of [`quantile`]'s order statistics among `n` values.
pub fn quantile_ranks(n: usize, q: f64) -> Option<(usize, usize)> {
    match quantile_rank_ends(n, q) {
        (Some(l), Some(u)) if l <= u => Some((l - 1, u - 1)),
        _ => None,
    }
}

/// The 1-based ranks of [`quantile`]'s lower and upper order statistics among `n` values, each
/// `None` where no rank has so little probability beyond it: 200 values bound a p99 from below
/// (the 194th) and not from above.
pub fn quantile_rank_ends(n: usize, q: f64) -> (Option<usize>, Option<usize>) {
    if n < MIN_VALUES || !(q > 0.0 && q < 1.0) {
        return (None, None);
    }
    let pmf = Binomial::new(n, q);
    // Lower: the largest rank l (1-based) with P(B ≤ l − 1) ≤ 2.5%.
    let mut below = 0.0;
    let mut lower = None;
    for k in pmf.first..=pmf.last {
        below += pmf.at(k);
        if below > 0.025 {
            break;
        }
        lower = Some(k + 1);
    }
    // Upper: the smallest rank u with P(B ≥ u) ≤ 2.5%.
    let mut above = 0.0;
    let mut upper = None;
    for k in (pmf.first..=pmf.last).rev() {
        above += pmf.at(k);
        if above > 0.025 {
            break;
        }
        upper = Some(k);
    }
    (
        lower.filter(|&l| (1..=n).contains(&l)),
        upper.filter(|&u| (1..=n).contains(&u)),
    )
}

/// The probabilities of a Binomial(n, q) over the ranks where they are not negligible, walked
/// out from the mode in log space, so a million requests cost a few thousand steps.
struct Binomial {
    first: usize,
    last: usize,
    mass: Vec<f64>,
}

impl Binomial {
    fn new(n: usize, q: f64) -> Binomial {
        let mode = (((n + 1) as f64 * q).floor() as usize).min(n);
        let log_mode = ln_factorial(n) - ln_factorial(mode) - ln_factorial(n - mode)
            + mode as f64 * q.ln()
            + (n - mode) as f64 * (1.0 - q).ln();
        let odds = q / (1.0 - q);
        let negligible = 1e-16;
        let mut down = Vec::new();
        let mut p = log_mode.exp();
        let mut k = mode;
        while k > 0 {
            p *= k as f64 / (n - k + 1) as f64 / odds;
            if p < negligible {
                break;
            }
            k -= 1;
            down.push(p);
        }
        let first = mode - down.len();
        let mut mass: Vec<f64> = down.into_iter().rev().collect();
        mass.push(log_mode.exp());
        let mut p = log_mode.exp();
        let mut k = mode;
        while k < n {
            p *= (n - k) as f64 / (k + 1) as f64 * odds;
            if p < negligible {
                break;
            }
            k += 1;
            mass.push(p);
        }
        Binomial {
            first,
            last: first + mass.len() - 1,
            mass,
        }
    }

    fn at(&self, k: usize) -> f64 {
        self.mass[k - self.first]
    }
}

/// ln(n!): summed below 30, Stirling's series above (error below 1e-12).
fn ln_factorial(n: usize) -> f64 {
    if n < 30 {
        return (2..=n).map(|i| (i as f64).ln()).sum();
    }
    let x = n as f64;
    x * x.ln() - x + 0.5 * (2.0 * std::f64::consts::PI * x).ln() + 1.0 / (12.0 * x)
        - 1.0 / (360.0 * x.powi(3))
        + 1.0 / (1260.0 * x.powi(5))
}

/// Student's t interval of the mean of `values` (NaN ignored): mean ± t(n − 1) · s / √n.
pub fn mean(values: &[f64]) -> Option<Interval> {
    let finite = values.iter().copied().filter(|v| v.is_finite());
    let (n, sum) = finite
        .clone()
        .fold((0usize, 0.0), |(n, s), v| (n + 1, s + v));
    if n < 2 {
        return None;
    }
    let mean = sum / n as f64;
    let var = finite.map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    mean_of_summary(mean, var.sqrt(), n as u64)
}

/// The 95% interval of the mean `centre` of a run whose independent units (requests, or the
/// means of blocks of requests) are `units`, by Student's t corrected for the units' skewness
/// with Hall's transformation (Hall 1992, "On the removal of skewness by transformation"): a
/// latency's long right tail makes the plain t interval miss high means (it covered 85–89% of
/// Pareto means with 20–100 requests); Hall's moves the interval up by what the skewness says.
/// With symmetric units it is the t interval. `None` below two units or with a non-finite one.
pub fn mean_skewed(units: &[f64], centre: f64) -> Option<Interval> {
    let k = units.len();
    if k < 2 || units.iter().any(|v| !v.is_finite()) || !centre.is_finite() {
        return None;
    }
    mean_hall(units, centre, skewness(units))
}

/// The sample skewness of `values` (0 when they do not vary).
pub fn skewness(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let m2 = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    let m3 = values.iter().map(|v| (v - mean).powi(3)).sum::<f64>() / n;
    if m2 > 0.0 {
        m3 / m2.powf(1.5)
    } else {
        0.0
    }
}

/// [`mean_skewed`] with the units' skewness given.
pub fn mean_hall(units: &[f64], centre: f64, skew: f64) -> Option<Interval> {
    let k = units.len();
    if k < 2 || units.iter().any(|v| !v.is_finite()) || !centre.is_finite() {
        return None;
    }
    let kf = k as f64;
    let mean = units.iter().sum::<f64>() / kf;
    let m2 = units.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / kf;
    let se = (m2 * kf / (kf - 1.0)).sqrt() / kf.sqrt();
    let (a, b) = (skew / (3.0 * kf.sqrt()), skew / (6.0 * kf.sqrt()));
    // Hall's g(T) = T + aT² + a²T³/3 + b is increasing; its inverse, at ±t.
    let inverse = |y: f64| {
        if a.abs() < 1e-12 {
            y - b
        } else {
            ((1.0 + 3.0 * a * (y - b)).cbrt() - 1.0) / a
        }
    };
    let t = t_975(kf - 1.0);
    Some(Interval {
        lo: centre - se * inverse(t),
        hi: centre - se * inverse(-t),
    })
}

/// The t interval of a mean that a file states with its standard deviation over `n` values.
pub fn mean_of_summary(mean: f64, std: f64, n: u64) -> Option<Interval> {
    if n < 2 || !mean.is_finite() || !std.is_finite() || std < 0.0 {
        return None;
    }
    let half = t_975((n - 1) as f64) * std / (n as f64).sqrt();
    Some(Interval {
        lo: mean - half,
        hi: mean + half,
    })
}

/// Wilson's 95% score interval of the share `ok / n` (0 to 1), which stays inside 0..1 and
/// behaves at 0 and at n, where the plain normal interval collapses.
pub fn proportion(ok: u64, n: u64) -> Option<Interval> {
    if n == 0 || ok > n {
        return None;
    }
    let (n, p) = (n as f64, ok as f64 / n as f64);
    let z2 = Z_975 * Z_975;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z_975 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 and at n the interval ends exactly at the share: `centre ± half` rounds to
    // 0.9999999999999999 for many n, which would leave the share itself outside.
    Some(Interval {
        lo: if ok == 0 {
            0.0
        } else {
            (centre - half).max(0.0)
        },
        hi: if ok as f64 == n {
            1.0
        } else {
            (centre + half).min(1.0)
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_400_takes_ranks_180_and_221() {
        // P(B ≤ 179) = 2.02% and P(B ≥ 221) = 2.02% for B ~ Binomial(400, 0.5).
        assert_eq!(quantile_ranks(400, 0.5), Some((179, 220)));
        // Symmetric for the median of any n.
        let (l, u) = quantile_ranks(1001, 0.5).unwrap();
        assert_eq!(l, 1000 - u);
    }

    #[test]
    fn too_few_values_for_a_tail_percentile_give_none() {
        assert!(quantile_ranks(400, 0.99).is_some());
        assert_eq!(quantile_ranks(400, 0.999), None);
        assert_eq!(quantile_ranks(4, 0.5), None);
        assert_eq!(quantile_ranks(100, 0.0), None);
        assert_eq!(quantile_ranks(100, 1.0), None);
    }

    #[test]
    fn a_million_values_take_ranks_near_the_normal_approximation() {
        let (l, u) = quantile_ranks(1_000_000, 0.99).unwrap();
        let sd = (1e6 * 0.99 * 0.01_f64).sqrt();
        assert!(
            ((l + 1) as f64 - (990_000.0 - 1.96 * sd)).abs() < 3.0,
            "{l}"
        );
        assert!(
            ((u + 1) as f64 - (990_000.0 + 1.96 * sd)).abs() < 3.0,
            "{u}"
        );
    }

    #[test]
    fn means_from_values_and_from_a_summary_agree() {
        let values = [10.0, 12.0, 11.0, 13.0, 9.0];
        let a = mean(&values).unwrap();
        let sd = (2.5_f64).sqrt();
        let b = mean_of_summary(11.0, sd, 5).unwrap();
        assert!((a.lo - b.lo).abs() < 1e-12 && (a.hi - b.hi).abs() < 1e-12);
        // t(0.975, 4) = 2.776: 11 ± 2.776 · 1.581 / 2.236.
        assert!((a.hi - 11.0 - 2.776_445 * sd / 5f64.sqrt()).abs() < 1e-5);
        assert_eq!(mean(&[1.0]), None);
        assert_eq!(mean_of_summary(1.0, f64::NAN, 10), None);
    }

    #[test]
    fn wilson_stays_inside_zero_and_one() {
        let all = proportion(100, 100).unwrap();
        assert_eq!(all.hi, 1.0);
        assert!(all.lo > 0.96 && all.lo < 0.97, "{all:?}");
        let none = proportion(0, 20).unwrap();
        assert_eq!(none.lo, 0.0);
        assert!(none.hi > 0.16 && none.hi < 0.17, "{none:?}");
        assert_eq!(proportion(3, 0), None);
    }

    #[test]
    fn wilson_ends_at_the_share_itself_for_every_count_at_zero_and_at_n() {
        // `centre + half` rounds below 1 at n = 10, 13, 25, 400 and hundreds more.
        for n in 1..=5_000 {
            assert_eq!(proportion(n, n).unwrap().hi, 1.0, "{n} of {n}");
            assert_eq!(proportion(0, n).unwrap().lo, 0.0, "0 of {n}");
        }
    }
}
