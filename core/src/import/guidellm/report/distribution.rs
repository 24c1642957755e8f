//! The statistics of a GuideLLM report's metrics: each metric's `successful` distribution
//! (a DistributionSummary: mean, median, standard deviation, extremes, percentiles), read into
//! the model's [`Distribution`], and the rates and token counts taken from them.

use crate::import::fields::Fields;
use crate::import::json_objects::{nested, object, whole};
use crate::model::{Distribution, LatencyMetric, Metric};

/// The successful requests' latencies, in ms; 0.2–0.3's `time_per_output_token_ms` is not
/// TPOT including the first token ([`TPOT_0_3`](super::super::benchmark::TPOT_0_3)) and is
/// left out.
pub(super) fn read_latency(m: &mut Fields<'_>, v0_3: bool) -> Vec<LatencyMetric> {
    let mut latency = Vec::new();
    for (key, metric, scale) in [
        ("time_to_first_token_ms", Metric::Ttft, 1.0),
        ("inter_token_latency_ms", Metric::Tpot, 1.0),
        ("time_per_output_token_ms", Metric::TpotInclFirst, 1.0),
        // Seconds, unlike every other latency of the report.
        ("request_latency", Metric::E2e, 1000.0),
    ] {
        if v0_3 && metric == Metric::TpotInclFirst {
            continue;
        }
        if let Some(distribution) = with_successful(m, key, |d| summary(d, scale)) {
            latency.push(LatencyMetric {
                metric,
                distribution,
            });
        }
    }
    latency
}

/// Reads the `successful` distribution of the metric at `key` with `read`. A missing metric (or
/// `null`) gives `None` silently; a metric without `successful` is an error.
fn with_successful<'a, T>(
    m: &mut Fields<'a>,
    key: &str,
    read: impl FnOnce(&mut Fields<'a>) -> Option<T>,
) -> Option<T> {
    nested(m, key, |metric| {
        if !metric.has("successful") {
            metric.error_at(
                "successful",
                "missing; expected the statistics of the successful requests",
            );
            return None;
        }
        nested(metric, "successful", read).flatten()
    })
    .flatten()
}

/// The mean of the successful distribution of a rate (requests or tokens per second, requests
/// in flight). Read whatever the count: zero successes make a rate of zero, not an unknown.
pub(super) fn successful_mean(m: &mut Fields<'_>, key: &str) -> Option<f64> {
    with_successful(m, key, |d| d.non_negative("mean"))
}

/// The length distribution and total of a token count.
pub(super) fn token_counts(m: &mut Fields<'_>, key: &str) -> (Option<Distribution>, Option<u64>) {
    with_successful(m, key, |d| {
        let total = d
            .non_negative("total_sum")
            .and_then(|v| whole(d, "total_sum", v));
        Some((summary(d, 1.0), total))
    })
    .unwrap_or((None, None))
}

/// Percentile keys and their ranks: `p001` is the 0.1th percentile, `p999` the 99.9th.
fn rank(key: &str) -> Option<f64> {
    Some(match key {
        "p001" => 0.1,
        "p01" => 1.0,
        "p05" => 5.0,
        "p10" => 10.0,
        "p25" => 25.0,
        "p50" => 50.0,
        "p75" => 75.0,
        "p90" => 90.0,
        "p95" => 95.0,
        "p99" => 99.0,
        "p999" => 99.9,
        _ => return None,
    })
}

/// One DistributionSummary, every value multiplied by `scale`. `count: 0` means empty (GuideLLM
/// writes zeros for every statistic then).
fn summary(d: &mut Fields<'_>, scale: f64) -> Option<Distribution> {
    if d.count("count") == Some(0) {
        return None;
    }
    let mut out = Distribution {
        mean: d.non_negative("mean").map(|v| v * scale),
        median: d.non_negative("median").map(|v| v * scale),
        std: d.non_negative("std_dev").map(|v| v * scale),
        min: d.non_negative("min").map(|v| v * scale),
        max: d.non_negative("max").map(|v| v * scale),
        percentiles: Vec::new(),
    };
    if let Some(percentiles) = object(d, "percentiles") {
        let mut p = Fields::new(percentiles, d.file, d.at.child("percentiles"));
        for key in percentiles.keys() {
            let Some(rank) = rank(key) else {
                p.warn_at(
                    key,
                    "not a percentile GuideLLM writes (p001, p01, p05, p10, p25, p50, p75, p90, \
                     p95, p99, p999); it is ignored",
                );
                continue;
            };
            if let Some(v) = p.non_negative(key) {
                out.set_percentile(rank, v * scale);
            }
        }
        d.problems.append(&mut p.problems);
    }
    (!out.is_empty()).then_some(out)
}
