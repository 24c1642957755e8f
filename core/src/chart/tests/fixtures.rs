//! Specs of every kind, shared by the snapshot, robustness and frame tests.

use super::super::*;
use crate::analysis::BoxStats;
use crate::model::{Distribution, Percentile};
use crate::quantity::Better;

/// Deterministic pseudo-random numbers in 0..1 (no dependency, same on every machine).
pub fn uniform(seed: u64, n: usize) -> Vec<f64> {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        })
        .collect()
}

/// Latency-like samples: a body around `median` ms with a long right tail.
pub fn latencies(seed: u64, n: usize, median: f64) -> Vec<f64> {
    uniform(seed, n)
        .into_iter()
        .map(|u| median * (1.0 + 0.4 * (u - 0.5)) / (1.0 - 0.9 * u).powf(0.35))
        .collect()
}

/// A point at `(x, y)` with nothing else set.
pub fn point(x: f64, y: Option<f64>) -> Point {
    Point {
        x,
        y,
        source: if x.is_finite() {
            format!("r.jsonl:{}", x as u32 + 1)
        } else {
            "r.jsonl:7".to_string()
        },
        ..Point::default()
    }
}

/// TTFT against request rate with a p50–p99 band, an `∞` rate, a failed run, an SLA line and a
/// breaking point.
pub fn lines() -> ChartSpec {
    let band = |x: f64, y: f64| Point {
        lo: Some(y * 0.8),
        hi: Some(y * 1.9),
        ..point(x, Some(y))
    };
    ChartSpec {
        id: "ttft-by-rate".into(),
        title: "TTFT by request rate".into(),
        caption: "Mean TTFT, band from p50 to p99.".into(),
        kind: ChartKind::Lines,
        x: Axis::new("Request rate", "req/s"),
        y: Axis {
            better: Some(Better::Lower),
            ..Axis::new("Mean TTFT", "ms")
        },
        series: vec![
            Series {
                name: "vLLM".into(),
                color: 0,
                points: vec![
                    band(1.0, 45.0),
                    band(2.0, 52.0),
                    band(4.0, 61.0),
                    band(8.0, 88.0),
                    band(16.0, 240.0),
                    band(f64::INFINITY, 1810.0),
                ],
            },
            Series {
                name: "SGLang".into(),
                color: 1,
                points: vec![
                    band(1.0, 64.0),
                    band(2.0, 66.0),
                    band(4.0, 70.0),
                    Point {
                        note: "every request failed".into(),
                        ..point(8.0, None)
                    },
                    band(16.0, 310.0),
                    band(f64::INFINITY, 1742.0),
                ],
            },
        ],
        annotations: vec![
            Annotation::Threshold {
                axis: AxisName::Y,
                value: 500.0,
                label: "SLA 500 ms".into(),
            },
            Annotation::Marker {
                series: Some(0),
                x: 16.0,
                y: 240.0,
                label: "breaking point".into(),
            },
        ],
        alternatives: Vec::new(),
    }
}

/// The same on log axes over concurrency.
pub fn lines_log() -> ChartSpec {
    let mut spec = lines();
    spec.id = "ttft-log".into();
    spec.title = "TTFT by concurrency (log–log)".into();
    spec.x = Axis {
        scale: Scale::Log,
        ..Axis::new("Concurrency", "requests")
    };
    spec.y.scale = Scale::Log;
    for s in &mut spec.series {
        for (i, p) in s.points.iter_mut().enumerate() {
            p.x = 2f64.powi(i as i32 * 2);
        }
    }
    spec.annotations.truncate(1);
    spec
}

/// Throughput against latency, per engine, with Pareto frontiers.
pub fn scatter() -> ChartSpec {
    let series = |name: &str, color: usize, seed: u64, scale: f64| Series {
        name: name.into(),
        color,
        points: uniform(seed, 24)
            .chunks(2)
            .enumerate()
            .map(|(i, u)| {
                let x = (200.0 + 3800.0 * u[0]) * scale;
                point(x, Some(20.0 + x / 40.0 + 90.0 * u[1] + i as f64))
            })
            .collect(),
    };
    ChartSpec {
        id: "tput-vs-latency".into(),
        title: "Throughput against TPOT".into(),
        caption: String::new(),
        kind: ChartKind::Scatter,
        x: Axis {
            better: Some(Better::Higher),
            ..Axis::new("Output throughput", "tok/s")
        },
        y: Axis {
            better: Some(Better::Lower),
            ..Axis::new("Mean TPOT", "ms")
        },
        series: vec![series("vLLM", 0, 7, 1.0), series("SGLang", 1, 8, 1.2)],
        annotations: Vec::new(),
        alternatives: Vec::new(),
    }
}

/// TTFT CDFs of two engines with an SLA at 250 ms.
pub fn cdf() -> ChartSpec {
    let a = latencies(1, 2000, 120.0);
    let mut b = latencies(2, 1500, 150.0);
    b.push(f64::NAN);
    cdf_chart(
        "ttft-cdf",
        "TTFT distribution",
        Axis::new("TTFT", "ms"),
        &vllm_and_sglang(&a[..], &b[..], ["a.jsonl:1", "b.jsonl:1"]),
        Some(250.0),
        400,
    )
}

/// Histograms of end-to-end latency.
pub fn histogram() -> ChartSpec {
    let a = latencies(3, 3000, 1800.0);
    let b = latencies(4, 3000, 2300.0);
    histogram_chart(
        "e2e-histogram",
        "End-to-end latency",
        Axis::new("End-to-end latency", "ms"),
        &vllm_and_sglang(&a[..], &b[..], ["a.jsonl:1", "b.jsonl:1"]),
    )
}

/// Box plots per request rate, from samples and from a reported distribution; one missing.
pub fn boxes() -> ChartSpec {
    let reported = Distribution {
        mean: Some(95.0),
        median: Some(80.0),
        min: Some(31.0),
        max: Some(410.0),
        percentiles: vec![
            Percentile {
                p: 25.0,
                value: 60.0,
            },
            Percentile {
                p: 75.0,
                value: 120.0,
            },
        ],
        ..Distribution::default()
    };
    let vllm = [
        BoxStats::from_samples(&latencies(5, 500, 45.0)),
        BoxStats::from_samples(&latencies(6, 500, 70.0)),
        BoxStats::from_samples(&latencies(7, 500, 180.0)),
    ];
    let sglang = [
        BoxStats::from_samples(&latencies(8, 500, 60.0)),
        BoxStats::from_distribution(&reported),
        None,
    ];
    box_chart(
        "ttft-box",
        "TTFT by request rate",
        Axis::new("TTFT", "ms"),
        vec!["1 req/s".into(), "10 req/s".into(), "∞".into()],
        &vllm_and_sglang(&vllm[..], &sglang[..], ["a.jsonl", "b.jsonl"]),
    )
}

/// vLLM against SGLang on four metrics; one value missing.
pub fn hbars() -> ChartSpec {
    let metric = |label: &str, unit: &str, better| HBarMetric {
        label: label.into(),
        unit: unit.into(),
        better,
    };
    ChartSpec {
        id: "head-to-head".into(),
        title: "vLLM against SGLang at 10 req/s".into(),
        caption: String::new(),
        kind: ChartKind::HBars {
            metrics: vec![
                metric("TTFT p99", "ms", Better::Lower),
                metric("Output throughput", "tok/s", Better::Higher),
                metric("Success rate", "%", Better::Higher),
                metric("Mean TPOT", "ms", Better::Lower),
            ],
        },
        x: Axis::new("", ""),
        y: Axis::new("", ""),
        series: vec![
            Series {
                name: "vLLM".into(),
                color: 0,
                points: vec![
                    point(0.0, Some(5028.0)),
                    point(1.0, Some(2973.53)),
                    point(2.0, Some(100.0)),
                    point(3.0, Some(12.4)),
                ],
            },
            Series {
                name: "SGLang".into(),
                color: 1,
                points: vec![
                    point(0.0, Some(4312.7)),
                    point(1.0, Some(3120.0)),
                    point(2.0, Some(100.0)),
                    Point {
                        note: "not reported".into(),
                        ..point(3.0, None)
                    },
                ],
            },
        ],
        annotations: Vec::new(),
        alternatives: Vec::new(),
    }
}

/// p50/p90/p95/p99 bars from two reported distributions; SGLang has no p95.
pub fn percentiles() -> ChartSpec {
    let d = |ps: &[(f64, f64)]| Distribution {
        percentiles: ps
            .iter()
            .map(|&(p, value)| Percentile { p, value })
            .collect(),
        ..Distribution::default()
    };
    let vllm = d(&[(50.0, 41.2), (90.0, 88.0), (95.0, 120.5), (99.0, 1840.0)]);
    let sglang = d(&[(50.0, 52.9), (90.0, 97.3), (99.0, 1502.0)]);
    percentile_bars(
        "ttft-percentiles",
        "TTFT percentiles",
        Axis::new("TTFT", "ms"),
        &vllm_and_sglang(&vllm, &sglang, ["a.json", "b.json"]),
        &STANDARD_PERCENTILES,
    )
}

/// vLLM's data `a` and SGLang's `b`, from `sources`, as the two series of a chart.
fn vllm_and_sglang<'a, T: ?Sized>(
    a: &'a T,
    b: &'a T,
    sources: [&'a str; 2],
) -> [SeriesInput<'a, T>; 2] {
    [
        SeriesInput {
            name: "vLLM",
            color: 0,
            data: a,
            source: sources[0],
            failed: 0,
        },
        SeriesInput {
            name: "SGLang",
            color: 1,
            data: b,
            source: sources[1],
            failed: 0,
        },
    ]
}

/// One spec of every kind.
pub fn every_kind() -> Vec<ChartSpec> {
    vec![
        super::two_engines(),
        lines(),
        lines_log(),
        scatter(),
        cdf(),
        histogram(),
        boxes(),
        hbars(),
        percentiles(),
        tokens(),
        stacked(),
    ]
}

/// Per-request latency against output tokens with each series' fitted line (a `tokens` chart).
pub fn tokens() -> ChartSpec {
    let series = |name: &str, color: usize, seed: u64, per_token: f64| {
        let points: Vec<Point> = uniform(seed, 120)
            .chunks(2)
            .map(|u| {
                let tokens = (20.0 + 480.0 * u[0]).round();
                point(tokens, Some(150.0 + per_token * tokens + 200.0 * u[1]))
            })
            .collect();
        let pairs: Vec<(f64, f64)> = points.iter().map(|p| (p.x, p.y.unwrap())).collect();
        (
            Series {
                name: name.into(),
                color,
                points,
            },
            crate::analysis::linear_fit(&pairs).unwrap(),
        )
    };
    let (a, fit_a) = series("vLLM", 0, 11, 10.0);
    let (b, fit_b) = series("SGLang", 1, 12, 14.0);
    let fit = |series: usize, fit: crate::analysis::LineFit| Annotation::Fit {
        series,
        slope: fit.slope,
        intercept: fit.intercept,
        from: fit.x_range.0,
        to: fit.x_range.1,
        label: format!("{} ms/token", crate::format::number(fit.slope)),
    };
    ChartSpec {
        id: "e2e-by-output-tokens".into(),
        title: "End-to-end latency against output tokens".into(),
        caption: String::new(),
        kind: ChartKind::Scatter,
        x: Axis::new("Output tokens", "tokens"),
        y: Axis::new("End-to-end latency", "ms"),
        series: vec![a, b],
        annotations: vec![fit(0, fit_a), fit(1, fit_b)],
        alternatives: Vec::new(),
    }
}

/// Where the time goes (a `breakdown` chart): seed 004's P50 of 10.47 s waiting and 1.78 s
/// generating, a faster configuration, and one whose decoding time is missing.
pub fn stacked() -> ChartSpec {
    let part = |name: &str, color: usize, ys: [Option<f64>; 3]| Series {
        name: name.into(),
        color,
        points: ys
            .iter()
            .enumerate()
            .map(|(row, y)| point(row as f64, *y))
            .collect(),
    };
    ChartSpec {
        id: "where-the-time-goes".into(),
        title: "Where the time goes".into(),
        caption: String::new(),
        kind: ChartKind::Stacked {
            rows: vec!["Week 2".into(), "Week 3".into(), "No decoding".into()],
        },
        x: Axis::new("", ""),
        y: Axis::new("Mean time", "ms"),
        series: vec![
            part(
                "Before the first token",
                0,
                [Some(10_470.0), Some(2_100.0), Some(900.0)],
            ),
            part("Decoding", 1, [Some(1_780.0), Some(1_650.0), None]),
        ],
        annotations: Vec::new(),
        alternatives: Vec::new(),
    }
}
