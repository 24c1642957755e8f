//! Ticks, bounds, pixel maps and label thinning.

use super::*;

#[test]
fn linear_ticks_are_nice_and_few() {
    let t = linear_ticks(0.0, 18107.32, 6, true);
    assert_eq!((t.lo, t.hi, t.step), (0.0, 20000.0, 5000.0));
    assert_eq!(t.values(), vec![0.0, 5000.0, 10000.0, 15000.0, 20000.0]);
    let t = linear_ticks(12.0, 87.0, 6, false);
    assert_eq!((t.lo, t.hi, t.step), (0.0, 100.0, 20.0));
    let t = linear_ticks(0.1, 0.7, 8, false);
    assert_eq!(t.step, 0.1);
    assert_eq!(t.values()[3], 0.4, "no float noise");
    let t = linear_ticks(-35.0, 42.0, 6, true);
    assert!(
        t.lo <= -35.0 && t.hi >= 42.0 && t.values().len() <= 6,
        "{t:?}"
    );
    assert!(t.values().contains(&0.0));
}

#[test]
fn linear_ticks_never_exceed_the_count() {
    for (min, max) in [
        (0.0, 1.0),
        (3.0, 7.0),
        (0.0, 123_456.0),
        (-1.0, 1e-3),
        (990.0, 1010.0),
    ] {
        for n in 2..12 {
            let t = linear_ticks(min, max, n, false);
            let v = t.values();
            assert!(v.len() <= n, "{min}..{max} with {n}: {v:?}");
            assert!(t.lo <= min && t.hi >= max, "{t:?}");
        }
    }
}

#[test]
fn degenerate_linear_ranges_get_room() {
    assert_eq!(linear_ticks(0.0, 0.0, 6, true).hi, 1.0);
    let t = linear_ticks(50.0, 50.0, 6, false);
    assert!(t.lo < 50.0 && t.hi > 50.0, "{t:?}");
    let t = linear_ticks(50.0, 50.0, 6, true);
    assert!(t.lo == 0.0 && t.hi >= 50.0, "{t:?}");
    let t = linear_ticks(f64::NAN, f64::INFINITY, 6, true);
    assert_eq!((t.lo, t.hi), (0.0, 1.0));
    assert!(linear_ticks(1e300, -1e300, 6, false).values().len() <= 6);
}

#[test]
fn log_bounds_are_one_two_five_steps() {
    assert_eq!(log_bounds(3.0, 4500.0), (2.0, 5000.0));
    assert_eq!(log_bounds(1.0, 1024.0), (1.0, 2000.0));
    assert_eq!(log_bounds(100.0, 100.0), (50.0, 200.0));
    assert_eq!(log_bounds(0.012, 0.9), (0.01, 1.0));
    assert_eq!(log_bounds(0.0, 5.0), (1.0, 10.0));
    assert_eq!(log_bounds(f64::NAN, 5.0), (1.0, 10.0));
}

#[test]
fn log_ticks_are_decades_or_one_two_five() {
    assert_eq!(
        log_ticks(1.0, 10000.0, 8),
        vec![1.0, 10.0, 100.0, 1000.0, 10000.0]
    );
    assert_eq!(log_ticks(10.0, 100.0, 8), vec![10.0, 20.0, 50.0, 100.0]);
    assert_eq!(log_ticks(2.0, 5000.0, 8), vec![10.0, 100.0, 1000.0]);
    assert_eq!(
        log_ticks(20.0, 500.0, 8),
        vec![20.0, 50.0, 100.0, 200.0, 500.0]
    );
    let many = log_ticks(1e-3, 1e9, 5);
    assert!(many.len() <= 5, "{many:?}");
    assert_eq!(many[0], 1e-3);
    assert!(log_ticks(0.0, 10.0, 5).is_empty());
}

#[test]
fn axis_maps_put_infinity_at_the_end() {
    let m = AxisMap {
        lo: 0.0,
        hi: 100.0,
        scale: Scale::Linear,
        from: 100.0,
        to: 600.0,
        infinite: true,
    };
    assert_eq!(m.px(0.0), Some(100.0));
    assert_eq!(m.px(100.0), Some(100.0 + 500.0 * FINITE_SHARE));
    assert_eq!(m.px(f64::INFINITY), Some(600.0));
    assert_eq!(m.px(f64::NAN), None);
    assert_eq!(m.px(f64::NEG_INFINITY), None);
    let no_slot = AxisMap {
        infinite: false,
        ..m
    };
    assert_eq!(no_slot.px(f64::INFINITY), None);
    assert_eq!(no_slot.px(50.0), Some(350.0));
}

#[test]
fn log_maps_place_decades_evenly_and_refuse_non_positive_values() {
    let m = AxisMap {
        lo: 1.0,
        hi: 1000.0,
        scale: Scale::Log,
        from: 300.0,
        to: 0.0,
        infinite: false,
    };
    assert_eq!(m.px(1.0), Some(300.0));
    assert!((m.px(10.0).unwrap() - 200.0).abs() < 1e-9);
    assert!((m.px(1000.0).unwrap()).abs() < 1e-9);
    assert_eq!(m.px(0.0), None);
    assert_eq!(m.px(-5.0), None);
    assert!(Scale::Log.placeable(0.5) && !Scale::Log.placeable(0.0));
}

#[test]
fn overlapping_labels_are_dropped_but_must_labels_stay() {
    let spans = [(0.0, 30.0), (20.0, 50.0), (40.0, 70.0), (60.0, 90.0)];
    assert_eq!(
        keep_labels(&spans, 4.0, &[false; 4]),
        vec![true, false, true, false]
    );
    assert_eq!(
        keep_labels(&spans, 4.0, &[false, false, false, true]),
        vec![true, false, false, true]
    );
    assert!(keep_labels(&[], 4.0, &[]).is_empty());
}
