//! When did a series over nights change level? The change points of a metric over dated runs,
//! the level of each stretch between them with its 95% interval (nights are the units), and the
//! single nights that are outliers rather than changes.
//!
//! Three steps:
//! 1. **Outliers.** A night far from the median of the three nights before it *and* of the
//!    three after it is an outlier (Hampel's identifier, both sides: a night that starts a new
//!    level is close to the nights after it). "Far" is more than [`Settings::outlier_sigmas`]
//!    times the series' noise and at least [`Settings::min_change`] of the median; the noise is
//!    read from night-to-night differences (1.4826 · their MAD / √2), which a level shift moves
//!    once, not for every night after it. The newest night has no nights after it and is never
//!    called an outlier: whether it starts a level is for the gate to judge.
//! 2. **Change points** among the other nights by E-Divisive means (Matteson and James 2014,
//!    α = 1; the method of MongoDB's signal-processing-algorithms and Apache Otava): the split
//!    of a stretch that maximises the energy distance between its two sides, kept when a
//!    permutation test of [`Settings::permutations`] shuffles finds it at
//!    [`Settings::significance`] and the two sides' means differ by at least
//!    [`Settings::min_change`]; then each side is searched again. Each side holds two nights at
//!    least. The permutations are seeded by the stretch's place, so a build gives the same
//!    answer every time.
//! 3. **Levels.** Each stretch's mean with a Student t interval over its nights.

use crate::noise::student::t_975;
use crate::noise::Interval;
use crate::random::XorShift;

/// How changes and outliers are told.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// The permutation test's level: a split is kept when at most this share of shuffles splits
    /// as well.
    pub significance: f64,
    /// Shuffles per permutation test (fewer when the test cannot succeed any more).
    pub permutations: usize,
    /// The smallest change, as a share of the level before, that is a change; also the smallest
    /// distance of an outlier from its neighbours.
    pub min_change: f64,
    /// How many times the series' noise a night must be from its neighbours to be an outlier.
    pub outlier_sigmas: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            significance: 0.01,
            permutations: 499,
            min_change: 0.05,
            outlier_sigmas: 4.0,
        }
    }
}

/// A stretch's level: the mean of its nights.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Level {
    /// Mean of the nights.
    pub mean: f64,
    /// Its 95% interval, with two nights or more.
    pub interval: Option<Interval>,
    /// How many nights.
    pub nights: usize,
}

/// A change of level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    /// The index (in the series given) of the first night of the new level.
    pub index: usize,
    /// The level before it.
    pub before: Level,
    /// The level from it on.
    pub after: Level,
    /// `after / before − 1`.
    pub change: f64,
    /// The permutation test's p-value of the split.
    pub p_value: f64,
}

/// A night unlike the nights on both sides of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outlier {
    /// Its index in the series given.
    pub index: usize,
    /// Its value.
    pub value: f64,
    /// The median of its neighbours.
    pub expected: f64,
}

/// A stretch of nights at one level, as indices into the series given.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    /// The index of its first night.
    pub first: usize,
    /// The index of its last night.
    pub last: usize,
    /// Its level (outliers left out).
    pub level: Level,
}

/// What [`detect`] found in a series.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct History {
    /// The stretches, oldest first.
    pub segments: Vec<Segment>,
    /// The changes between consecutive stretches.
    pub changes: Vec<Change>,
    /// The outliers, oldest first.
    pub outliers: Vec<Outlier>,
}

/// The change points, levels and outliers of `values` (oldest first; `NaN` for a night without
/// a value, which belongs to no stretch).
pub fn detect(values: &[f64], settings: &Settings) -> History {
    let nights: Vec<usize> = (0..values.len())
        .filter(|&i| values[i].is_finite())
        .collect();
    let series: Vec<f64> = nights.iter().map(|&i| values[i]).collect();
    let outlying = outliers(&series, settings);
    let kept: Vec<usize> = (0..series.len())
        .filter(|i| !outlying.iter().any(|(o, _)| o == i))
        .collect();
    let kept_values: Vec<f64> = kept.iter().map(|&i| series[i]).collect();
    let splits = without_small_steps(&kept_values, split(&kept_values, settings), settings);
    let mut segments = Vec::new();
    let mut bounds: Vec<usize> = splits.iter().map(|(at, _)| *at).collect();
    bounds.insert(0, 0);
    bounds.push(kept_values.len());
    for pair in bounds.windows(2).filter(|p| p[0] < p[1]) {
        segments.push(Segment {
            first: nights[kept[pair[0]]],
            last: nights[kept[pair[1] - 1]],
            level: level(&kept_values[pair[0]..pair[1]]),
        });
    }
    let changes = segments
        .windows(2)
        .zip(&splits)
        .map(|(pair, (_, p_value))| Change {
            index: pair[1].first,
            before: pair[0].level,
            after: pair[1].level,
            change: pair[1].level.mean / pair[0].level.mean - 1.0,
            p_value: *p_value,
        })
        .collect();
    let outliers = outlying
        .into_iter()
        .map(|(i, expected)| Outlier {
            index: nights[i],
            value: series[i],
            expected,
        })
        .collect();
    History {
        segments,
        changes,
        outliers,
    }
}

/// `splits` of `series` less those whose neighbouring stretches end up closer than
/// [`Settings::min_change`]: a split is tested against the means of the stretch it divides, so
/// a staircase (100, 104, 112) first splits at 100 | 104–112 (+8%) and then at 104 | 112,
/// leaving a step of 4%. The smallest step is merged away first, until every step counts.
fn without_small_steps(series: &[f64], mut splits: Vec<Split>, settings: &Settings) -> Vec<Split> {
    loop {
        let mut bounds: Vec<usize> = splits.iter().map(|(at, _)| *at).collect();
        bounds.insert(0, 0);
        bounds.push(series.len());
        let means: Vec<f64> = bounds
            .windows(2)
            .map(|b| series[b[0]..b[1]].iter().sum::<f64>() / (b[1] - b[0]) as f64)
            .collect();
        let smallest = means
            .windows(2)
            .enumerate()
            .map(|(i, m)| (i, ((m[1] - m[0]) / m[0].abs()).abs()))
            .filter(|(_, step)| step.is_nan() || *step < settings.min_change)
            .min_by(|a, b| a.1.total_cmp(&b.1));
        match smallest {
            Some((i, _)) => {
                splits.remove(i);
            }
            None => return splits,
        }
    }
}

/// The mean of `values` and its 95% t interval.
pub fn level(values: &[f64]) -> Level {
    let k = values.len();
    let mean = values.iter().sum::<f64>() / k as f64;
    let interval = (k >= 2).then(|| {
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
        let half = t_975((k - 1) as f64) * (var / k as f64).sqrt();
        Interval {
            lo: mean - half,
            hi: mean + half,
        }
    });
    Level {
        mean,
        interval,
        nights: k,
    }
}

/// The outliers of `series` (every value finite) as their index and their neighbours' median;
/// none in fewer than five nights, whose noise cannot be told.
fn outliers(series: &[f64], settings: &Settings) -> Vec<(usize, f64)> {
    if series.len() < 5 {
        return Vec::new();
    }
    let noise = night_noise(series);
    let far = |value: f64, side: &[f64]| -> Option<f64> {
        let median = median(side)?;
        let reach = (settings.outlier_sigmas * noise).max(settings.min_change * median.abs());
        ((value - median).abs() > reach).then_some(median)
    };
    let mut found = Vec::new();
    for i in 0..series.len().saturating_sub(1) {
        let before = &series[i.saturating_sub(3)..i];
        let after = &series[i + 1..(i + 4).min(series.len())];
        let expected = match (before.is_empty(), far(series[i], after)) {
            (true, Some(median)) => Some(median),
            (false, Some(_)) => {
                far(series[i], before).and_then(|_| median(&[before, after].concat()))
            }
            (_, None) => None,
        };
        if let Some(expected) = expected {
            found.push((i, expected));
        }
    }
    found
}

/// The standard deviation of one night's noise, read from the differences between consecutive
/// nights: 1.4826 · MAD(differences) / √2.
fn night_noise(series: &[f64]) -> f64 {
    let differences: Vec<f64> = series.windows(2).map(|w| w[1] - w[0]).collect();
    let Some(centre) = median(&differences) else {
        return 0.0;
    };
    let deviations: Vec<f64> = differences.iter().map(|d| (d - centre).abs()).collect();
    median(&deviations).unwrap_or(0.0) * 1.4826 / std::f64::consts::SQRT_2
}

fn median(values: &[f64]) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// A stretch of a series: its first index and the index after its last.
type Stretch = (usize, usize);
/// A split: the index of the first value after it, and its p-value.
type Split = (usize, f64);

/// The kept splits of `series` as (index of the first value after the split, p-value), in
/// order: the most significant split of any stretch first, until no stretch splits.
fn split(series: &[f64], settings: &Settings) -> Vec<(usize, f64)> {
    let mut open: Vec<(usize, usize)> = vec![(0, series.len())];
    let mut splits: Vec<(usize, f64)> = Vec::new();
    let mut tested: Vec<(Stretch, Option<Split>)> = Vec::new();
    loop {
        for &stretch in &open {
            if !tested.iter().any(|(s, _)| *s == stretch) {
                tested.push((stretch, candidate(series, stretch, settings)));
            }
        }
        let best = tested
            .iter()
            .filter(|(s, _)| open.contains(s))
            .filter_map(|(s, c)| Some((*s, (*c)?)))
            .min_by(|a, b| a.1 .1.total_cmp(&b.1 .1));
        let Some(((start, end), (at, p_value))) = best else {
            break;
        };
        open.retain(|s| *s != (start, end));
        open.extend([(start, at), (at, end)]);
        splits.push((at, p_value));
    }
    splits.sort_by_key(|(at, _)| *at);
    splits
}

/// The best split of `series[start..end]` when it is a change: significant by the permutation
/// test and as large as [`Settings::min_change`].
fn candidate(
    series: &[f64],
    (start, end): (usize, usize),
    settings: &Settings,
) -> Option<(usize, f64)> {
    let stretch = &series[start..end];
    let (at, observed) = best_split(stretch)?;
    let left = stretch[..at].iter().sum::<f64>() / at as f64;
    let right = stretch[at..].iter().sum::<f64>() / (stretch.len() - at) as f64;
    if (right - left).abs() < settings.min_change * left.abs() {
        return None;
    }
    let p_value = permutation_p(
        stretch,
        observed,
        settings,
        (start as u64) << 32 | end as u64,
    );
    (p_value <= settings.significance).then_some((start + at, p_value))
}

/// The share of shuffles of `stretch` whose best split is at least `observed` (counting the
/// observed order as one), stopping once that share cannot fall to the test's level.
fn permutation_p(stretch: &[f64], observed: f64, settings: &Settings, seed: u64) -> f64 {
    let mut rng = XorShift::new(0x9e37_79b9_7f4a_7c15 ^ seed);
    let mut shuffled = stretch.to_vec();
    let total = settings.permutations + 1;
    let limit = (settings.significance * total as f64).floor() as usize;
    let mut as_large = 1;
    for done in 1..=settings.permutations {
        rng.shuffle(&mut shuffled);
        if best_split(&shuffled).is_some_and(|(_, q)| q >= observed) {
            as_large += 1;
            if as_large > limit {
                return as_large as f64 / (done + 1) as f64;
            }
        }
    }
    as_large as f64 / total as f64
}

/// The split of `y` (two values at least on each side) with the largest E-Divisive statistic
/// q̂(τ) = τ(m − τ)/m · (2/(τ(m − τ)) Σ|yᵢ − yⱼ| across − Σ|yᵢ − yₖ| within the left / C(τ, 2) −
/// within the right / C(m − τ, 2)), as (τ, q̂); `None` for fewer than four values.
fn best_split(y: &[f64]) -> Option<(usize, f64)> {
    let m = y.len();
    if m < 4 {
        return None;
    }
    let mut within_right: f64 = (0..m)
        .flat_map(|i| (i + 1..m).map(move |j| (i, j)))
        .map(|(i, j)| (y[i] - y[j]).abs())
        .sum();
    let (mut within_left, mut across) = (0.0, 0.0);
    let mut best: Option<(usize, f64)> = None;
    for t in 0..m - 2 {
        let to_left: f64 = y[..t].iter().map(|v| (v - y[t]).abs()).sum();
        let to_right: f64 = y[t + 1..].iter().map(|v| (v - y[t]).abs()).sum();
        within_left += to_left;
        within_right -= to_right;
        across += to_right - to_left;
        let tau = t + 1;
        if tau < 2 {
            continue;
        }
        let (l, r) = (tau as f64, (m - tau) as f64);
        let q = l * r / m as f64
            * (2.0 * across / (l * r)
                - within_left / (l * (l - 1.0) / 2.0)
                - within_right / (r * (r - 1.0) / 2.0));
        if best.is_none_or(|(_, b)| q > b) {
            best = Some((tau, q));
        }
    }
    best
}

#[cfg(test)]
mod tests;
