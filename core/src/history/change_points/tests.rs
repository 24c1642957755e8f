//! Change points against series of known truth: seeded nights with a level shift where the
//! test put it, with none, with a single bad night; and the statistic against its definition.

use super::*;
use crate::fixtures::simulated::{normal, rng};

/// `n` nights around `level` with a relative noise of `noise`, the level multiplied by `step`
/// from night `at` on.
fn nights(seed: u64, n: usize, level: f64, noise: f64, shift: Option<(usize, f64)>) -> Vec<f64> {
    let mut rng = rng(seed);
    (0..n)
        .map(|i| {
            let here = match shift {
                Some((at, step)) if i >= at => level * step,
                _ => level,
            };
            here * (1.0 + noise * normal(&mut rng))
        })
        .collect()
}

/// q̂(τ) straight from its definition, every pair summed again.
fn q_by_definition(y: &[f64], tau: usize) -> f64 {
    let m = y.len();
    let pairs = |a: std::ops::Range<usize>, b: std::ops::Range<usize>, within: bool| -> f64 {
        let mut sum = 0.0;
        for i in a.clone() {
            for j in b.clone() {
                if !within || i < j {
                    sum += (y[i] - y[j]).abs();
                }
            }
        }
        sum
    };
    let (l, r) = (tau as f64, (m - tau) as f64);
    l * r / m as f64
        * (2.0 * pairs(0..tau, tau..m, false) / (l * r)
            - pairs(0..tau, 0..tau, true) / (l * (l - 1.0) / 2.0)
            - pairs(tau..m, tau..m, true) / (r * (r - 1.0) / 2.0))
}

#[test]
fn the_running_statistic_is_the_definition_at_its_best_split() {
    let y = nights(1, 23, 100.0, 0.05, Some((9, 1.3)));
    let (tau, q) = best_split(&y).unwrap();
    let by_definition: Vec<f64> = (2..=y.len() - 2).map(|t| q_by_definition(&y, t)).collect();
    let best = by_definition.iter().copied().fold(f64::MIN, f64::max);
    assert!((q - best).abs() < 1e-9 * best.abs(), "{q} against {best}");
    assert!((q - q_by_definition(&y, tau)).abs() < 1e-9 * q.abs());
    assert_eq!(tau, 9);
    assert_eq!(best_split(&y[..3]), None);
}

#[test]
fn a_shift_of_ten_percent_in_three_percent_noise_is_found_at_its_night() {
    let mut found = 0;
    let mut covered = 0;
    for seed in 0..100 {
        let at = 10 + (seed as usize * 7) % 40;
        let y = nights(seed, 60, 200.0, 0.03, Some((at, 1.10)));
        let history = detect(&y, &Settings::default());
        let Some(change) = history.changes.iter().find(|c| c.index.abs_diff(at) <= 1) else {
            continue;
        };
        found += 1;
        let (before, after) = (
            change.before.interval.unwrap(),
            change.after.interval.unwrap(),
        );
        if before.contains(200.0) && after.contains(220.0) {
            covered += 1;
        }
    }
    assert!(found >= 95, "found {found} of 100 shifts");
    // Two 95% intervals both hold in about 90% of series, less when a split is a night off.
    assert!(
        covered >= 80,
        "both levels' intervals held in {covered} of {found}"
    );
}

#[test]
fn steady_nights_rarely_change_and_never_by_less_than_the_smallest_change() {
    let mut with_change = 0;
    for seed in 0..200 {
        let y = nights(1000 + seed, 60, 50.0, 0.03, None);
        let history = detect(&y, &Settings::default());
        assert!(history
            .changes
            .iter()
            .all(|c| c.change.abs() >= 0.05 || c.before.nights < 2));
        with_change += usize::from(!history.changes.is_empty());
        assert_eq!(history.segments.len(), history.changes.len() + 1);
    }
    assert!(
        with_change <= 4,
        "{with_change} of 200 steady series changed"
    );
}

#[test]
fn one_bad_night_is_an_outlier_and_not_a_change() {
    let mut y = nights(7, 40, 100.0, 0.02, None);
    y[17] = 160.0;
    let history = detect(&y, &Settings::default());
    assert_eq!(history.changes, Vec::new());
    assert_eq!(history.outliers.len(), 1, "{:?}", history.outliers);
    assert_eq!(history.outliers[0].index, 17);
    assert!((history.outliers[0].expected - 100.0).abs() < 5.0);
    // The level leaves the bad night out.
    assert_eq!(history.segments[0].level.nights, 39);
}

#[test]
fn the_newest_night_is_neither_an_outlier_nor_a_change_but_two_nights_start_a_level() {
    let mut y = nights(8, 30, 100.0, 0.02, None);
    *y.last_mut().unwrap() = 150.0;
    let history = detect(&y, &Settings::default());
    assert!(history.outliers.is_empty() && history.changes.is_empty());
    y[28] = 150.0;
    y[29] = 151.0;
    let history = detect(&y, &Settings::default());
    assert!(history.outliers.is_empty(), "{:?}", history.outliers);
    assert_eq!(history.changes.len(), 1);
    assert_eq!(history.changes[0].index, 28);
}

#[test]
fn a_rise_and_a_fall_are_two_changes_with_their_levels() {
    let mut y = nights(9, 45, 100.0, 0.02, Some((15, 1.25)));
    for v in &mut y[30..] {
        *v /= 1.25;
    }
    let history = detect(&y, &Settings::default());
    let at: Vec<usize> = history.changes.iter().map(|c| c.index).collect();
    assert_eq!(at, vec![15, 30]);
    assert!((history.changes[0].change - 0.25).abs() < 0.03);
    assert!((history.changes[1].change + 0.2).abs() < 0.03);
    assert_eq!(
        history
            .segments
            .iter()
            .map(|s| (s.first, s.last))
            .collect::<Vec<_>>(),
        vec![(0, 14), (15, 29), (30, 44)]
    );
}

#[test]
fn nights_without_a_value_keep_their_place() {
    let mut y = nights(10, 30, 100.0, 0.02, Some((12, 1.3)));
    y[3] = f64::NAN;
    y[12] = f64::NAN;
    let history = detect(&y, &Settings::default());
    assert_eq!(history.changes.len(), 1);
    assert_eq!(history.changes[0].index, 13);
    assert_eq!(history.segments[0].level.nights, 11);
    assert_eq!(detect(&[], &Settings::default()), History::default());
}

#[test]
fn a_level_is_the_mean_with_its_t_interval() {
    let l = level(&[10.0, 12.0, 14.0]);
    assert_eq!((l.mean, l.nights), (12.0, 3));
    // s = 2, t(2) = 4.3027: 12 ± 4.3027 · 2 / √3.
    let i = l.interval.unwrap();
    assert!(
        (i.hi - 12.0 - 4.302_653 * 2.0 / 3f64.sqrt()).abs() < 1e-3,
        "{i:?}"
    );
    assert_eq!(level(&[5.0]).interval, None);
}

#[test]
fn the_answer_is_the_same_every_time() {
    let y = nights(11, 50, 80.0, 0.04, Some((20, 1.08)));
    assert_eq!(
        detect(&y, &Settings::default()),
        detect(&y, &Settings::default())
    );
}

#[test]
fn a_staircase_keeps_only_steps_as_large_as_the_smallest_change() {
    // 100, then 104, then 112: the first split (100 | 104–112, +8%) would leave a 4% step.
    let mut y = nights(12, 10, 100.0, 0.003, None);
    y.extend(nights(13, 10, 104.0, 0.003, None));
    y.extend(nights(14, 10, 112.0, 0.003, None));
    let history = detect(&y, &Settings::default());
    assert!(!history.changes.is_empty());
    for change in &history.changes {
        assert!(change.change.abs() >= 0.05, "{:?}", history.changes);
    }
    assert_eq!(history.segments.len(), history.changes.len() + 1);
}

#[test]
fn a_short_series_has_no_outliers() {
    assert!(detect(&[100.0, 110.0], &Settings::default())
        .outliers
        .is_empty());
    assert!(detect(&[100.0, 100.0, 160.0, 100.0], &Settings::default())
        .outliers
        .is_empty());
}
