//! Histories of seeded nightly vLLM results whose changes are known.

use super::*;
use crate::fixtures::simulated::{normal, rng};
use crate::import::import;
use crate::model::{Metric, Stat};

const TTFT_MEAN: Quantity = Quantity::Latency {
    metric: Metric::Ttft,
    stat: Stat::Mean,
};

fn options() -> Options {
    Options {
        metrics: vec![TTFT_MEAN],
        since: None,
        settings: Settings::default(),
    }
}

/// A night's `vllm bench serve` result on 2026-11-(day) (day from 1), mean TTFT `ttft` ms, with
/// `extra` keys.
fn night(day: usize, ttft: f64, extra: &str) -> Run {
    let text = format!(
        r#"{{"date": "202611{day:02}-020000", "backend": "vllm", "model_id": "m",
        "completed": 400, "failed": 0, "duration": 100.0, "mean_ttft_ms": {ttft},
        "request_rate": 4.0{extra}}}"#
    );
    let file = import(&format!("nightly/2026-11-{day:02}/r.json"), text.as_bytes());
    assert!(file.problems.is_empty(), "{:?}", file.problems);
    file.runs[0].clone()
}

/// `days` nights of mean TTFT 100 ms with 2% noise, times `step` from `at` on, where the
/// driver changes.
fn nights(seed: u64, days: usize, at: usize, step: f64) -> Vec<Run> {
    let mut rng = rng(seed);
    (0..days)
        .map(|i| {
            let level = if i >= at { 100.0 * step } else { 100.0 };
            let driver = if i >= at { "560" } else { "550" };
            night(
                i + 1,
                level * (1.0 + 0.02 * normal(&mut rng)),
                &format!(r#", "driver": "{driver}", "commit": "c{i}""#),
            )
        })
        .collect()
}

#[test]
fn a_slower_prefill_from_a_new_driver_is_one_change_with_what_changed() {
    let runs = nights(1, 20, 12, 1.3);
    let history = read(&runs.iter().collect::<Vec<_>>(), &options());
    assert_eq!(
        history.change_points.len(),
        1,
        "{:?}",
        history.change_points
    );
    let change = &history.change_points[0];
    assert_eq!(change.date, "2026-11-13T02:00:00");
    assert_eq!(
        (change.config.as_str(), change.load.as_str()),
        ("vllm", "4 req/s")
    );
    assert_eq!(change.metric, "Mean TTFT");
    assert_eq!(change.direction, "worse");
    assert!(
        (change.change_pct - 30.0).abs() < 4.0,
        "{}",
        change.change_pct
    );
    assert_eq!((change.before.nights, change.after.nights), (12, 8));
    assert!(change.before.lo.unwrap() < 100.0 && change.before.hi.unwrap() > 98.0);
    assert_eq!(change.file, "nightly/2026-11-13/r.json");
    assert_eq!(change.file_before, "nightly/2026-11-12/r.json");
    let what: Vec<String> = change.what_changed.iter().map(Difference::text).collect();
    assert_eq!(what, vec!["commit c11 → c12", "driver 550 → 560"]);
    let summary = &history.series[0];
    assert_eq!(summary.nights, 20);
    assert_eq!(summary.current.from, "2026-11-13T02:00:00");
    assert_eq!(summary.newest.verdict, Verdict::AsBefore);
    assert_eq!(summary.newest.level_nights, 7);
}

#[test]
fn one_bad_night_is_an_outlier_and_the_newest_bad_night_is_worse() {
    let mut runs = nights(2, 15, 99, 1.0);
    runs[6] = night(7, 150.0, "");
    let history = read(&runs.iter().collect::<Vec<_>>(), &options());
    assert!(history.change_points.is_empty());
    assert_eq!(history.outliers.len(), 1);
    assert_eq!(history.outliers[0].date, "2026-11-07T02:00:00");
    assert_eq!(history.series[0].newest.verdict, Verdict::AsBefore);
    runs.push(night(16, 125.0, ""));
    let history = read(&runs.iter().collect::<Vec<_>>(), &options());
    let newest = &history.series[0].newest;
    assert_eq!(newest.verdict, Verdict::Worse);
    assert_eq!(
        newest.level_nights, 14,
        "the bad night is not part of the level"
    );
    assert!((newest.change_pct.unwrap() - 25.0).abs() < 2.0);
}

#[test]
fn a_change_of_less_than_the_smallest_change_is_as_before() {
    let level = [100.0, 101.0, 99.0, 100.5, 99.5];
    let judged = newest::against_level(&level, 103.5, Better::Lower, 0.05);
    assert_eq!(judged.verdict, Verdict::AsBefore, "{judged:?}");
    let judged = newest::against_level(&level, 106.0, Better::Lower, 0.05);
    assert_eq!(judged.verdict, Verdict::Worse);
    let judged = newest::against_level(&level, 106.0, Better::Higher, 0.05);
    assert_eq!(judged.verdict, Verdict::Better);
    assert_eq!(
        newest::against_level(&level[..2], 200.0, Better::Lower, 0.05).verdict,
        Verdict::Unjudged
    );
}

#[test]
fn since_leaves_out_older_nights_and_undated_runs_are_named() {
    let mut runs = nights(3, 20, 5, 1.3);
    let mut undated = runs[0].clone();
    undated.provenance.date = None;
    undated.provenance.file = "loose.json".into();
    runs.push(undated);
    let options = Options {
        since: Some("2026-11-08".into()),
        ..options()
    };
    let history = read(&runs.iter().collect::<Vec<_>>(), &options);
    assert!(
        history.change_points.is_empty(),
        "the change is before the 8th"
    );
    assert_eq!(history.series[0].nights, 13);
    assert_eq!(history.undated, vec!["loose.json"]);
}

#[test]
fn a_metric_fewer_than_two_nights_have_is_no_series() {
    let runs = [night(1, 100.0, "")];
    let history = read(&runs.iter().collect::<Vec<_>>(), &options());
    assert!(history.series.is_empty());
}
