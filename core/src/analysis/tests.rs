//! Pure statistics: quantiles, CDFs, histogram bins, box summaries, Pareto frontiers and
//! breaking points, including their edge cases (empty, constant, NaN, infinite input).

use super::*;
use crate::model::Percentile;

#[test]
fn quantiles_interpolate_between_neighbours() {
    let v = [1.0, 2.0, 3.0, 4.0];
    assert_eq!(quantile(&v, 0.0), Some(1.0));
    assert_eq!(quantile(&v, 1.0), Some(4.0));
    assert_eq!(quantile(&v, 0.5), Some(2.5));
    assert_eq!(quantile(&v, 0.25), Some(1.75));
    assert_eq!(quantile(&[7.0], 0.9), Some(7.0));
    assert_eq!(quantile(&[], 0.5), None);
    assert_eq!(quantile(&v, 1.5), None);
    assert_eq!(quantile(&v, f64::NAN), None);
}

#[test]
fn cdf_has_one_point_per_distinct_value_and_ignores_nan() {
    let points = cdf(&[3.0, f64::NAN, 1.0, 2.0, 2.0, f64::INFINITY]);
    assert_eq!(points, vec![(1.0, 0.25), (2.0, 0.75), (3.0, 1.0)]);
    assert!(cdf(&[]).is_empty());
    assert!(cdf(&[f64::NAN]).is_empty());
    assert_eq!(cdf(&[5.0]), vec![(5.0, 1.0)]);
}

#[test]
fn share_at_or_below_counts_ties_as_below() {
    let sorted = [1.0, 2.0, 2.0, 4.0];
    assert_eq!(share_at_or_below(&sorted, 2.0), Some(0.75));
    assert_eq!(share_at_or_below(&sorted, 0.5), Some(0.0));
    assert_eq!(share_at_or_below(&sorted, 4.0), Some(1.0));
    assert_eq!(share_at_or_below(&sorted, f64::INFINITY), Some(1.0));
    assert_eq!(share_at_or_below(&sorted, f64::NAN), None);
    assert_eq!(share_at_or_below(&[], 1.0), None);
}

#[test]
fn thinned_cdfs_keep_ends_and_bound_the_error() {
    let samples: Vec<f64> = (0..10_000).map(|i| f64::from(i) * 0.37).collect();
    let full = cdf(&samples);
    let thin = thin_cdf(&full, 200);
    assert!(thin.len() <= 202, "{}", thin.len());
    assert_eq!(thin.first(), full.first());
    assert_eq!(thin.last(), full.last());
    // Every kept point is exact, and shares between kept points differ by at most 1/200.
    for w in thin.windows(2) {
        assert!(w[1].1 - w[0].1 <= 1.0 / 200.0 + 1.0 / 10_000.0 + 1e-12);
    }
    assert_eq!(thin_cdf(&full[..10], 200), full[..10].to_vec());
}

#[test]
fn histogram_bins_are_nice_and_cover_every_sample() {
    let samples: Vec<f64> = (0..1000).map(|i| 100.0 + f64::from(i % 97) * 3.1).collect();
    let edges = histogram_bins(&samples);
    assert!(edges.len() >= 3 && edges.len() <= MAX_BINS + 1, "{edges:?}");
    let width = edges[1] - edges[0];
    // A 1, 2, 2.5 or 5 × 10^k width.
    let m = width / 10f64.powf(width.log10().floor());
    assert!(
        [1.0, 2.0, 2.5, 5.0].iter().any(|c| (m - c).abs() < 1e-9),
        "{width}"
    );
    assert!(edges[0] <= 100.0 && *edges.last().unwrap() >= 100.0 + 96.0 * 3.1);
    let counts = histogram_counts(&samples, &edges);
    assert_eq!(counts.iter().sum::<u64>(), 1000);
}

#[test]
fn histogram_bins_survive_odd_input() {
    assert!(histogram_bins(&[]).is_empty());
    assert!(histogram_bins(&[f64::NAN, f64::INFINITY]).is_empty());
    let one = histogram_bins(&[42.0]);
    assert_eq!(one.len(), 2);
    assert!(one[0] < 42.0 && one[1] > 42.0);
    assert_eq!(histogram_bins(&[0.0, 0.0]).len(), 2);
    // A heavy tail is capped at MAX_BINS.
    let mut tail: Vec<f64> = (0..1000).map(|i| f64::from(i % 10)).collect();
    tail.push(1e9);
    let edges = histogram_bins(&tail);
    assert!(edges.len() <= MAX_BINS + 1, "{}", edges.len());
    assert_eq!(histogram_counts(&tail, &edges).iter().sum::<u64>(), 1001);
}

#[test]
fn histogram_counts_close_the_last_bin() {
    let edges = [0.0, 10.0, 20.0];
    assert_eq!(
        histogram_counts(&[0.0, 9.9, 10.0, 20.0, 25.0, -1.0, f64::NAN], &edges),
        vec![2, 2]
    );
    assert!(histogram_counts(&[1.0], &[0.0]).is_empty());
}

#[test]
fn box_stats_from_samples() {
    let b = BoxStats::from_samples(&[5.0, 1.0, 3.0, 2.0, 4.0, f64::NAN]).unwrap();
    assert_eq!(
        (b.min, b.q1, b.median, b.q3, b.max),
        (1.0, 2.0, 3.0, 4.0, 5.0)
    );
    assert_eq!(b.mean, Some(3.0));
    assert_eq!(b.count, Some(5));
    assert_eq!(BoxStats::from_samples(&[]), None);
    assert_eq!(BoxStats::from_samples(&[f64::NAN]), None);
    let one = BoxStats::from_samples(&[2.0]).unwrap();
    assert_eq!((one.min, one.median, one.max), (2.0, 2.0, 2.0));
}

#[test]
fn box_stats_from_a_distribution_need_the_five_numbers() {
    let mut d = Distribution {
        mean: Some(30.0),
        median: Some(25.0),
        min: Some(10.0),
        max: Some(90.0),
        ..Distribution::default()
    };
    assert_eq!(BoxStats::from_distribution(&d), None, "no quartiles");
    d.percentiles = vec![
        Percentile {
            p: 25.0,
            value: 18.0,
        },
        Percentile {
            p: 75.0,
            value: 40.0,
        },
    ];
    let b = BoxStats::from_distribution(&d).unwrap();
    assert_eq!(
        (b.min, b.q1, b.median, b.q3, b.max),
        (10.0, 18.0, 25.0, 40.0, 90.0)
    );
    assert_eq!(b.mean, Some(30.0));
    d.max = Some(f64::NAN);
    assert_eq!(BoxStats::from_distribution(&d), None);
    d.max = Some(5.0);
    assert_eq!(BoxStats::from_distribution(&d), None, "out of order");
}

#[test]
fn pareto_frontier_keeps_the_undominated_points() {
    // Throughput (higher is better) against latency (lower is better).
    let points = [
        (100.0, 50.0),  // frontier
        (200.0, 80.0),  // frontier
        (150.0, 90.0),  // beaten by (200, 80)
        (300.0, 200.0), // frontier
        (300.0, 250.0), // beaten by (300, 200)
        (f64::NAN, 1.0),
        (50.0, 50.0),  // beaten by (100, 50)
        (100.0, 50.0), // duplicate
    ];
    assert_eq!(
        pareto_frontier(&points, Better::Higher, Better::Lower),
        vec![0, 1, 3]
    );
    // Both lower is better.
    assert_eq!(
        pareto_frontier(
            &[(1.0, 5.0), (2.0, 2.0), (3.0, 3.0), (5.0, 1.0)],
            Better::Lower,
            Better::Lower
        ),
        vec![0, 1, 3]
    );
    assert!(pareto_frontier(&[], Better::Higher, Better::Higher).is_empty());
    assert_eq!(
        pareto_frontier(&[(1.0, 1.0)], Better::Higher, Better::Higher),
        vec![0]
    );
}

fn obs(load: f64, value: Option<f64>, error_rate: Option<f64>) -> LoadObservation {
    LoadObservation {
        load,
        value,
        error_rate,
    }
}

#[test]
fn breaking_point_on_error_rate() {
    let sweep = [
        obs(1.0, Some(40.0), Some(0.0)),
        obs(8.0, Some(60.0), Some(1.0)),
        obs(16.0, None, Some(100.0)),
        obs(4.0, Some(45.0), Some(0.0)),
    ];
    let bp = breaking_point(&sweep, &BreakingRule::default()).unwrap();
    assert_eq!(bp.index, 2);
    assert_eq!(bp.load, 16.0);
    assert_eq!(bp.reason, BreakReason::ErrorRate(100.0));
    assert_eq!(bp.summary(), "100% errors");
}

#[test]
fn breaking_point_on_a_jump() {
    let sweep = [
        obs(1.0, Some(40.0), None),
        obs(2.0, None, None), // not measured: skipped, not a jump
        obs(4.0, Some(100.0), None),
        obs(8.0, Some(350.0), None),
        obs(f64::INFINITY, Some(9000.0), None),
    ];
    let bp = breaking_point(&sweep, &BreakingRule::default()).unwrap();
    assert_eq!(bp.index, 3);
    assert_eq!(
        bp.reason,
        BreakReason::Jump {
            from: 100.0,
            to: 350.0,
            factor: 3.5
        }
    );
    assert_eq!(bp.summary(), "3.5× worse");
    // A throughput that falls by more than the factor.
    let rule = BreakingRule {
        better: Better::Higher,
        ..BreakingRule::default()
    };
    let tput = [obs(1.0, Some(100.0), None), obs(2.0, Some(20.0), None)];
    assert_eq!(breaking_point(&tput, &rule).unwrap().index, 1);
    let zero = [obs(1.0, Some(100.0), None), obs(2.0, Some(0.0), None)];
    assert_eq!(breaking_point(&zero, &rule).unwrap().index, 1);
}

#[test]
fn sweeps_that_hold_do_not_break() {
    let sweep = [
        obs(1.0, Some(40.0), Some(0.0)),
        obs(2.0, Some(50.0), Some(4.9)),
        obs(f64::NAN, Some(1e9), Some(100.0)),
    ];
    assert_eq!(breaking_point(&sweep, &BreakingRule::default()), None);
    assert_eq!(breaking_point(&[], &BreakingRule::default()), None);
}
