//! Neighbouring requests share their wait: intervals that hold when requests queue.
//!
//! In a load test each request waits behind the ones sent before it, so the latencies of
//! neighbours are alike (a lag-1 autocorrelation of 0.66–0.99 in real per-request files). The
//! textbook intervals ([`super::interval`]) treat the requests as independent draws and are far
//! too narrow on such data. Here the uncertainty is estimated from *blocks* of consecutive
//! requests instead:
//!
//! 1. **The block length** ([`block_length`]) comes from the data, by Politis and White's rule
//!    (Politis and White 2004, with the correction of Patton, Politis and White 2009): the
//!    autocorrelations of the values' ranks in send order are read up to the first lag after
//!    which five in a row are insignificant (|ρ| < 2·√(log₁₀ n / n)); a flat-top lag window
//!    over twice that lag gives the long-run variance and its derivative, and the block length
//!    of the circular block bootstrap, b = (2Ĝ² / D̂)^⅓ · n^⅓. An interval that must *cover*
//!    needs longer blocks than one that estimates a variance well, so the blocks are three
//!    times that length and at least three times the integrated autocorrelation time, and at
//!    least four of them make a run. When no lag is significant the length is 1: independent
//!    requests keep exactly the intervals they had.
//! 2. **The mean** ([`mean`]): the method of batch means. The run is cut into k blocks of b
//!    consecutive requests; the t interval with k − 1 degrees of freedom is built on the spread
//!    of the blocks' means (Law and Kelton, *Simulation Modeling and Analysis*, §9.5), corrected
//!    for their skewness by Hall's transformation ([`interval::mean_hall`]), as the requests'
//!    own are when they are independent. Four means hardly tell their skewness, so it is also
//!    read from the requests, as their skewness over √(b ÷ 3), the skewness of a mean of b ÷ 3
//!    independent ones; the larger is taken. The divisor was chosen on the simulations of
//!    `tests/coverage.rs`: b ÷ τ (τ the integrated autocorrelation time, the first-order rule
//!    for a dependent sum) overstates the skewness of a Pareto tail over 2,000 requests,
//!    whose sample skewness swings with its largest value, and covered 88–92% there.
//! 3. **A percentile** ([`quantile`]): the order-statistic interval widened by the dependence
//!    of the indicator "at or below the estimate" in send order. Its long-run variance,
//!    from batch means of the indicator, against q·(1 − q) (what independent requests give) is
//!    the factor by which the run's requests count for fewer; the ranks move out from n·q by
//!    its square root, and by t(k − 1) ÷ z for the few blocks it was estimated from. A rank
//!    that falls outside the run leaves that end unbounded: the one bound that exists is kept.
//! 4. **Short blocks** read the noise low: neighbouring blocks' means are still alike, and the
//!    spread of k blocks of b requests is σ²∞·(1 − (Γ/σ²∞)·(k + 1)/(k·b)) on average (Flegal
//!    and Jones 2010, the bias of batch means), where Γ = 2·Σ lag·γ(lag). Both spreads above are
//!    scaled up by that much, with Γ/σ²∞ read from the same lag window, or from the AR(1) of
//!    the same integrated time when the window ends before the dependence does (a short run
//!    reads its far lags low); at most twofold.
//!
//! Values are computed with no resampling, so a site builds the same twice.

use super::estimate::Interval;
use super::interval::{self, MIN_VALUES};
use super::student::{t_975, Z_975};
use crate::model::{Dependence, Metric, RequestSamples};

/// The fewest blocks a run is cut into: below it the blocks' spread says too little.
pub const MIN_BLOCKS: usize = 4;

/// Consecutive insignificant autocorrelations that end the search for the dependence's reach.
const INSIGNIFICANT_RUN: usize = 5;

/// The most lags read: beyond it a dependence is taken to reach this far.
const MAX_LAG: usize = 400;

/// The most values the autocorrelations are read over. A longer run is read twice: its first
/// 50,000 requests for the dependence of near neighbours, and the means of consecutive groups
/// of its requests (a million requests as 50,000 means of 20) for the dependence that reaches
/// further, whose block length is the groups' times the group size; the longer blocks win. A
/// browser so reads any run in a few hundred milliseconds at most.
const MAX_SERIES: usize = 50_000;

/// The most by which short blocks are taken to read the noise low: half its variance.
const MOST_BIAS: f64 = 0.5;

/// Requests in send order, and the blocks they are judged in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ordered<'a> {
    /// The values in send order (successful requests with a value).
    pub values: &'a [f64],
    /// How alike neighbours are: the block length (1 when independent) and its bias.
    pub dependence: Dependence,
}

impl<'a> Ordered<'a> {
    /// `run`'s values of latency `metric` in send order with their dependence, read once and
    /// kept with the run's requests.
    pub fn of(samples: &'a RequestSamples, metric: Metric) -> Option<Ordered<'a>> {
        let (values, dependence) = samples.in_send_order(metric, measure)?;
        Some(Ordered { values, dependence })
    }

    /// The block length: 1 when neighbours are independent.
    pub fn block(&self) -> usize {
        self.dependence.block.max(1)
    }

    /// The number of whole blocks.
    pub fn blocks(&self) -> usize {
        self.values.len() / self.block()
    }

    /// True when neighbouring requests were found alike.
    pub fn dependent(&self) -> bool {
        self.block() > 1
    }

    /// The factor by which the spread of the blocks' means reads the variance low, ≥ 1: blocks
    /// of b requests whose dependence reaches a lag of Γ ÷ σ²∞ give, with k of them,
    /// σ²∞·(1 − (Γ ÷ σ²∞)·(k + 1) ÷ (k·b)) on average (Flegal and Jones 2010, batch means'
    /// bias), at most [`MOST_BIAS`] low.
    fn short_block_correction(&self) -> f64 {
        let (b, k) = (self.block() as f64, self.blocks().max(1) as f64);
        let bias = self.dependence.bias_lag / b * (k + 1.0) / k;
        1.0 / (1.0 - bias.clamp(0.0, MOST_BIAS))
    }
}

/// The block length of `values` in send order (see the module's documentation); 1 when no
/// autocorrelation is significant or there are too few values to tell.
pub fn block_length(values: &[f64]) -> usize {
    measure(values).block
}

/// The dependence of `values` in send order: the block length (see the module's
/// documentation) and the lag that says how short blocks of that length are.
pub fn measure(values: &[f64]) -> Dependence {
    if values.len() > MAX_SERIES {
        let group = values.len().div_ceil(MAX_SERIES);
        let means: Vec<f64> = values
            .chunks(group)
            .map(|c| c.iter().sum::<f64>() / c.len() as f64)
            .collect();
        let near = measure(&values[..MAX_SERIES]);
        let far = match measure(&means) {
            Dependence { block: 1, .. } => Dependence::NONE,
            far => Dependence {
                block: (far.block * group).min(values.len() / MIN_BLOCKS),
                bias_lag: far.bias_lag * group as f64,
            },
        };
        return if far.block > near.block { far } else { near };
    }
    let n = values.len();
    if n < 2 * INSIGNIFICANT_RUN + 2 {
        return Dependence::NONE;
    }
    let ranks = centred_ranks(values);
    let r0 = autocovariance(&ranks, 0);
    if r0 <= 0.0 {
        return Dependence::NONE;
    }
    let nf = n as f64;
    let threshold = 2.0 * (nf.log10() / nf).sqrt();
    let max_lag = ((nf.sqrt().ceil() as usize) + INSIGNIFICANT_RUN)
        .min(MAX_LAG)
        .min(n - 1);
    let mut acov = vec![r0];
    let lag = |acov: &mut Vec<f64>, k: usize| -> f64 {
        while acov.len() <= k {
            let next = acov.len();
            acov.push(autocovariance(&ranks, next));
        }
        acov[k]
    };
    // m̂: the first lag after which INSIGNIFICANT_RUN autocorrelations in a row are small.
    let mut reach = None;
    for m in 0..=max_lag.saturating_sub(INSIGNIFICANT_RUN) {
        let quiet = (1..=INSIGNIFICANT_RUN).all(|j| (lag(&mut acov, m + j) / r0).abs() < threshold);
        if quiet {
            reach = Some(m);
            break;
        }
    }
    let reach = reach.unwrap_or(max_lag.saturating_sub(INSIGNIFICANT_RUN));
    if reach == 0 {
        return Dependence::NONE;
    }
    let window = (2 * reach).min(max_lag);
    let (mut g, mut lrv) = (0.0, r0);
    for k in 1..=window {
        let w = flat_top(k as f64 / window as f64) * lag(&mut acov, k);
        g += 2.0 * w * k as f64;
        lrv += 2.0 * w;
    }
    let iact = (lrv / r0).max(1.0);
    let d = 4.0 / 3.0 * lrv * lrv;
    let politis_white = if d > 0.0 {
        (2.0 * g * g / d).cbrt() * nf.cbrt()
    } else {
        1.0
    };
    let wanted = (3.0 * politis_white).max(3.0 * iact).ceil();
    let most = (n / MIN_BLOCKS).max(1);
    let block = (wanted as usize).clamp(2, most.max(2)).min(most);
    // Γ ÷ σ²∞ as read, and as an AR(1) with the same integrated time has it: the lag window
    // ends early on short runs and reads the far lags' weight low, the geometric decay does not.
    let rho = (iact - 1.0) / (iact + 1.0);
    let geometric = 2.0 * rho / (1.0 - rho * rho);
    let bias_lag = if block > 1 && lrv > 0.0 {
        (g / lrv).max(geometric).max(0.0)
    } else {
        0.0
    };
    Dependence { block, bias_lag }
}

/// The flat-top lag window: 1 to half the bandwidth, then down to 0 at the bandwidth.
fn flat_top(t: f64) -> f64 {
    let t = t.abs();
    if t <= 0.5 {
        1.0
    } else if t <= 1.0 {
        2.0 * (1.0 - t)
    } else {
        0.0
    }
}

/// The values' ranks (ties averaged) less their mean: robust to the long tails of latencies.
fn centred_ranks(values: &[f64]) -> Vec<f64> {
    let n = values.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; n];
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0;
        for &k in &order[i..=j] {
            ranks[k] = rank;
        }
        i = j + 1;
    }
    let mean = (n - 1) as f64 / 2.0;
    ranks.iter().map(|r| r - mean).collect()
}

/// The autocovariance of centred `x` at `lag`, over n.
fn autocovariance(x: &[f64], lag: usize) -> f64 {
    let n = x.len();
    x[..n - lag]
        .iter()
        .zip(&x[lag..])
        .map(|(a, b)| a * b)
        .sum::<f64>()
        / n as f64
}

/// The 95% interval of the mean of `ordered`'s values by batch means; the t interval of
/// independent values when the block length is 1. `None` with too few values or blocks, or a
/// value that is not finite.
pub fn mean(ordered: &Ordered) -> Option<Interval> {
    let x = &ordered.values;
    if x.len() < MIN_VALUES || x.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let centre = x.iter().sum::<f64>() / x.len() as f64;
    if !ordered.dependent() {
        return interval::mean_skewed(x, centre);
    }
    let b = ordered.block();
    let stretch = ordered.short_block_correction().sqrt();
    let means: Vec<f64> = x
        .chunks_exact(b)
        .map(|c| centre + (c.iter().sum::<f64>() / b as f64 - centre) * stretch)
        .collect();
    // The skewness of a mean of b requests taken as b ÷ 3 independent ones, or the blocks' own,
    // whichever says more: four means alone hardly tell it. b ÷ τ (the first-order rule for a
    // dependent sum) overstates a Pareto tail's at 2,000 requests and covered 88–92%.
    let worth = (b as f64 / 3.0).max(1.0);
    let individual = interval::skewness(x) / worth.sqrt();
    let own = interval::skewness(&means);
    let skew = if individual.abs() > own.abs() {
        individual
    } else {
        own
    };
    interval::mean_hall(&means, centre, skew)
}

/// The 95% interval of the `q` quantile (0 < q < 1) of `ordered`'s values, whose ascending copy
/// is `sorted`. An end that the run cannot bound is infinite (a p99 of 200 independent
/// requests has a lower bound and no upper one); `None` when it bounds neither.
pub fn quantile(ordered: &Ordered, sorted: &[f64], q: f64) -> Option<Interval> {
    let n = sorted.len();
    if n < MIN_VALUES || !(q > 0.0 && q < 1.0) {
        return None;
    }
    let (lower, upper) = interval::quantile_rank_ends(n, q);
    let factor = widening(ordered, sorted, q);
    let centre = n as f64 * q;
    // 1-based ranks moved out from n·q by the factor; the independent ranks when it is 1.
    let lo_rank = match lower {
        Some(l) if factor == 1.0 => Some(l as f64),
        Some(l) => Some((centre - (centre - l as f64) * factor).floor()),
        None => None,
    };
    let hi_rank = match upper {
        Some(u) if factor == 1.0 => Some(u as f64),
        Some(u) => Some((centre + (u as f64 - centre) * factor).ceil()),
        None => None,
    };
    let within = |r: &f64| (1.0..=n as f64).contains(r);
    let lo = lo_rank
        .filter(within)
        .map_or(f64::NEG_INFINITY, |r| sorted[r as usize - 1]);
    let hi = hi_rank
        .filter(within)
        .map_or(f64::INFINITY, |r| sorted[r as usize - 1]);
    (lo.is_finite() || hi.is_finite()).then_some(Interval { lo, hi })
}

/// How much wider than for independent requests the ranks of a `q` quantile's interval move:
/// the square root of the indicator's long-run variance over q·(1 − q), times t(k − 1) ÷ z;
/// never below 1, and exactly 1 for independent requests.
fn widening(ordered: &Ordered, sorted: &[f64], q: f64) -> f64 {
    if !ordered.dependent() {
        return 1.0;
    }
    let (b, k) = (ordered.block(), ordered.blocks());
    if k < 2 {
        return f64::INFINITY;
    }
    let estimate = sorted[((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1];
    let shares: Vec<f64> = ordered
        .values
        .chunks_exact(b)
        .map(|c| c.iter().filter(|v| **v <= estimate).count() as f64 / b as f64)
        .collect();
    let grand = shares.iter().sum::<f64>() / k as f64;
    let var = shares.iter().map(|s| (s - grand).powi(2)).sum::<f64>() / (k - 1) as f64;
    let var = var * ordered.short_block_correction();
    let ratio = (b as f64 * var / (q * (1.0 - q))).max(1.0);
    ratio.sqrt() * t_975((k - 1) as f64) / Z_975
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::simulated;

    #[test]
    fn independent_values_take_blocks_of_one() {
        let mut ones = 0;
        for seed in 0..50 {
            let mut rng = simulated::rng(seed);
            let x = simulated::latencies(&mut rng, 400, 200.0);
            ones += usize::from(block_length(&x) == 1);
        }
        assert!(ones >= 45, "{ones} of 50");
    }

    #[test]
    fn strongly_dependent_values_take_long_blocks() {
        let mut rng = simulated::rng(7);
        let x = simulated::ar1_latencies(&mut rng, 2_000, 200.0, 0.9);
        let b = block_length(&x);
        // The integrated autocorrelation time of AR(1) 0.9 is 19: blocks of at least 38.
        assert!((38..=500).contains(&b), "{b}");
    }

    #[test]
    fn short_blocks_are_widened_by_the_bias_of_batch_means() {
        // AR(1) 0.9: Γ/σ²∞ = 2·0.9/(1 − 0.81) = 9.47 requests.
        let mut lags: Vec<f64> = (0..40)
            .map(|seed| {
                let mut rng = simulated::rng(seed);
                measure(&simulated::ar1_latencies(&mut rng, 2_000, 200.0, 0.9)).bias_lag
            })
            .collect();
        lags.sort_by(f64::total_cmp);
        assert!((7.0..12.0).contains(&lags[20]), "{lags:?}");
        let x = vec![1.0; 200];
        let widened = |dependence| Ordered {
            values: &x,
            dependence,
        };
        let ten = Dependence {
            block: 50,
            bias_lag: 9.47,
        };
        // Four blocks of 50: the spread reads 1 − 9.47·5/200 = 76% of the variance.
        let factor = widened(ten).short_block_correction();
        assert!(
            (factor - 1.0 / (1.0 - 9.47 * 5.0 / 200.0)).abs() < 1e-12,
            "{factor}"
        );
        assert_eq!(widened(Dependence::NONE).short_block_correction(), 1.0);
        let far = Dependence {
            block: 50,
            bias_lag: 1_000.0,
        };
        assert_eq!(widened(far).short_block_correction(), 2.0);
    }

    #[test]
    fn a_trend_takes_the_longest_blocks_allowed() {
        let x: Vec<f64> = (0..400).map(f64::from).collect();
        assert_eq!(block_length(&x), 100);
    }

    #[test]
    fn a_long_run_is_read_near_and_far_in_bounded_time() {
        let mut rng = simulated::rng(9);
        let independent = simulated::latencies(&mut rng, 200_000, 200.0);
        assert_eq!(block_length(&independent), 1);
        let queued = simulated::ar1_latencies(&mut rng, 200_000, 200.0, 0.9);
        assert!(block_length(&queued) >= 38, "{}", block_length(&queued));
    }

    #[test]
    fn ranks_average_their_ties() {
        assert_eq!(
            centred_ranks(&[3.0, 1.0, 3.0, 2.0]),
            vec![1.0, -1.5, 1.0, -0.5]
        );
    }

    #[test]
    fn independent_requests_keep_the_textbook_intervals() {
        let x: Vec<f64> = (0..200).map(|i| ((i * 37) % 200) as f64).collect();
        let ordered = Ordered {
            values: &x,
            dependence: Dependence::NONE,
        };
        let mut sorted = x.clone();
        sorted.sort_by(f64::total_cmp);
        assert_eq!(mean(&ordered), interval::mean_skewed(&x, 99.5));
        // Symmetric values: Hall's interval is Student's.
        let (a, b) = (mean(&ordered).unwrap(), interval::mean(&x).unwrap());
        assert!(
            (a.lo - b.lo).abs() < 1e-9 && (a.hi - b.hi).abs() < 1e-9,
            "{a:?} {b:?}"
        );
        assert_eq!(
            quantile(&ordered, &sorted, 0.5),
            interval::quantile(&sorted, 0.5)
        );
    }

    #[test]
    fn a_p99_of_200_requests_keeps_its_lower_bound() {
        let x: Vec<f64> = (1..=200).map(f64::from).collect();
        let ordered = Ordered {
            values: &x,
            dependence: Dependence::NONE,
        };
        let i = quantile(&ordered, &x, 0.99).unwrap();
        assert!(i.lo.is_finite() && i.lo < 198.0, "{i:?}");
        assert_eq!(i.hi, f64::INFINITY);
    }
}
