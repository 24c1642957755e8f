//! Failed requests count as misses in CDFs and histograms of per-request samples: the shares are
//! of every request sent, the legend says how many failed, and a run whose every request failed
//! has no latency curve and 0% at any SLA.

use super::super::cdf::share_at;
use super::super::*;

fn input<'a>(data: &'a [f64], failed: usize) -> SeriesInput<'a, [f64]> {
    SeriesInput {
        name: "vLLM",
        color: 0,
        data,
        source: "r.jsonl:1",
        failed,
    }
}

#[test]
fn a_cdf_ends_at_the_share_that_succeeded() {
    let samples = [100.0, 200.0, 300.0, 400.0];
    let spec = cdf_chart(
        "c",
        "TTFT",
        Axis::new("TTFT", "ms"),
        &[input(&samples, 4)],
        Some(250.0),
        400,
    );
    let series = &spec.series[0];
    assert_eq!(series.name, "vLLM (50% failed)");
    let top = series.points.iter().filter_map(|p| p.y).fold(0.0, f64::max);
    assert!((top - 50.0).abs() < 1e-9, "{top}");
    // Two of eight requests sent were at or below the SLA: 25%, not the 50% of successes.
    assert_eq!(share_at(series, 250.0), Some(25.0));
    assert!(
        spec.caption.contains("Failed requests count as misses"),
        "{}",
        spec.caption
    );
}

#[test]
fn without_failures_nothing_changes() {
    let samples = [100.0, 200.0];
    let spec = cdf_chart(
        "c",
        "TTFT",
        Axis::new("TTFT", "ms"),
        &[input(&samples, 0)],
        None,
        400,
    );
    assert_eq!(spec.series[0].name, "vLLM");
    assert_eq!(share_at(&spec.series[0], 1000.0), Some(100.0));
    assert!(!spec.caption.contains("Failed"));
}

#[test]
fn a_run_whose_every_request_failed_has_no_curve_and_meets_no_sla() {
    let spec = cdf_chart(
        "c",
        "TTFT",
        Axis::new("TTFT", "ms"),
        &[input(&[], 120)],
        Some(500.0),
        400,
    );
    let series = &spec.series[0];
    assert_eq!(series.name, "vLLM (all 120 failed)");
    assert_eq!(series.points.len(), 1);
    let point = &series.points[0];
    assert_eq!((point.x, point.y), (0.0, Some(0.0)));
    assert_eq!(point.note, "all 120 requests failed");
    assert_eq!(share_at(series, 500.0), Some(0.0));
    assert_eq!(crate::export::cdf_share_at(series, 500.0), Some(0.0));
}

#[test]
fn histogram_bars_add_up_to_the_share_that_succeeded() {
    let samples = [10.0, 20.0, 30.0];
    let spec = histogram_chart("h", "E2E", Axis::new("E2E", "ms"), &[input(&samples, 1)]);
    let sum: f64 = spec.series[0].points.iter().filter_map(|p| p.y).sum();
    assert!((sum - 75.0).abs() < 1e-9, "{sum}");
    assert_eq!(spec.series[0].name, "vLLM (25% failed)");
    let all_failed = histogram_chart("h", "E2E", Axis::new("E2E", "ms"), &[input(&[], 3)]);
    assert_eq!(all_failed.series[0].points[0].y, None);
    assert_eq!(all_failed.series[0].points[0].note, "all 3 requests failed");
}
