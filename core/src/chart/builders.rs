//! Pure builders from distributions and per-request samples to chart specs: percentile bars,
//! CDFs, histograms and box plots. The build runs them natively, so the browser receives only the
//! reduced points.

use super::{Annotation, Axis, AxisName, ChartKind, ChartSpec, Point, Series};
use crate::analysis::{cdf, histogram_bins, histogram_counts, thin_cdf, BoxStats};
use crate::format;
use crate::model::{Distribution, Stat};

/// One series' input to a builder: its legend name, palette slot, data and source (`file:line`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeriesInput<'a, T: ?Sized> {
    /// Legend name.
    pub name: &'a str,
    /// Palette slot.
    pub color: usize,
    /// The data: a [`Distribution`], per-request samples (`[f64]`), or box summaries per
    /// category (`[Option<BoxStats>]`).
    pub data: &'a T,
    /// Where the data came from, shown in tooltips.
    pub source: &'a str,
    /// Requests that failed or timed out. CDFs and histograms of samples count them as misses,
    /// at no latency: their shares are of every request sent, and the legend says how many
    /// failed. Other charts ignore it.
    pub failed: usize,
}

/// How many of `input`'s requests failed, for its legend name: `vLLM (33.3% failed)`, or
/// `vLLM (all 120 failed)`; the name alone when none did.
fn name_with_failures(input: &SeriesInput<'_, [f64]>, succeeded: usize) -> String {
    match (input.failed, succeeded) {
        (0, _) => input.name.to_string(),
        (failed, 0) => format!("{} (all {failed} failed)", input.name),
        (failed, ok) => format!(
            "{} ({}% failed)",
            input.name,
            format::number(failed as f64 / (failed + ok) as f64 * 100.0)
        ),
    }
}

/// The share of `input`'s requests that succeeded with a finite value: what its CDF reaches and
/// its histogram's bars add up to. `(successful samples, share)`.
fn success_share(input: &SeriesInput<'_, [f64]>) -> (usize, f64) {
    let ok = input.data.iter().filter(|v| v.is_finite()).count();
    let sent = ok + input.failed;
    (
        ok,
        if sent == 0 {
            1.0
        } else {
            ok as f64 / sent as f64
        },
    )
}

/// The percentiles of percentile bars: p50, p90, p95, p99.
pub const STANDARD_PERCENTILES: [f64; 4] = [50.0, 90.0, 95.0, 99.0];

/// Grouped bars with one group per percentile (`p50`, `p90`...) and one bar per distribution;
/// a percentile a tool did not report is a marked gap with a note. `y` names the metric and its
/// unit.
pub fn percentile_bars(
    id: &str,
    title: &str,
    y: Axis,
    series: &[SeriesInput<'_, Distribution>],
    percentiles: &[f64],
) -> ChartSpec {
    let categories: Vec<String> = percentiles
        .iter()
        .map(|p| format!("p{}", format::number(*p)))
        .collect();
    let series = series
        .iter()
        .map(|input| Series {
            name: input.name.to_string(),
            color: input.color,
            points: percentiles
                .iter()
                .zip(&categories)
                .enumerate()
                .map(|(i, (&p, label))| {
                    let value = input.data.get(Stat::P(p)).filter(|v| v.is_finite());
                    Point {
                        x: i as f64,
                        y: value,
                        source: input.source.to_string(),
                        note: if value.is_none() {
                            format!("{label} not reported")
                        } else {
                            String::new()
                        },
                        ..Point::default()
                    }
                })
                .collect(),
        })
        .collect();
    ChartSpec {
        id: id.to_string(),
        title: title.to_string(),
        caption: format!("{} at each percentile, by configuration.", y.label()),
        kind: ChartKind::GroupedBars { categories },
        x: Axis::new("Percentile", ""),
        y,
        series,
        annotations: Vec::new(),
        alternatives: Vec::new(),
    }
}

/// Latency CDFs from per-request samples (NaN ignored): each series' points are its empirical
/// CDF in percent of every request sent (failed requests are misses, so a curve tops out at the
/// share that succeeded), thinned to about `max_points` (see `analysis::thin_cdf`). With a
/// `threshold` (an SLA on `x`), a vertical line is added, and the exact CDF point at or below it
/// is kept so the share drawn there is exact. A series whose every request failed is one point
/// at 0 ms and 0%: no request at or below any latency. One with no sample at all gets no points.
pub fn cdf_chart(
    id: &str,
    title: &str,
    x: Axis,
    series: &[SeriesInput<'_, [f64]>],
    threshold: Option<f64>,
    max_points: usize,
) -> ChartSpec {
    let series_inputs = series;
    let series = series_inputs
        .iter()
        .map(|input| {
            let (succeeded, scale) = success_share(input);
            let full: Vec<(f64, f64)> = cdf(input.data)
                .into_iter()
                .map(|(v, share)| (v, share * scale))
                .collect();
            let mut points = thin_cdf(&full, max_points);
            if succeeded == 0 && input.failed > 0 {
                points.push((0.0, 0.0));
            }
            if let Some(t) = threshold {
                let at = full.partition_point(|&(v, _)| v <= t);
                if let Some(&exact) = at.checked_sub(1).and_then(|i| full.get(i)) {
                    if let Err(i) = points.binary_search_by(|p| p.0.total_cmp(&exact.0)) {
                        points.insert(i, exact);
                    }
                }
            }
            let note = if succeeded == 0 {
                format!("all {} requests failed", input.failed)
            } else {
                String::new()
            };
            Series {
                name: name_with_failures(input, succeeded),
                color: input.color,
                points: points
                    .into_iter()
                    .map(|(v, share)| Point {
                        x: v,
                        y: Some(share * 100.0),
                        source: input.source.to_string(),
                        note: note.clone(),
                        ..Point::default()
                    })
                    .collect(),
            }
        })
        .collect();
    let failures = if series_inputs.iter().any(|s| s.failed > 0) {
        " Failed requests count as misses: a curve ends at the share of requests that succeeded."
    } else {
        ""
    };
    let annotations = threshold
        .filter(|t| t.is_finite())
        .map(|t| Annotation::Threshold {
            axis: AxisName::X,
            value: t,
            label: format!("SLA {}", format::with_unit(t, &x.unit)),
        })
        .into_iter()
        .collect();
    ChartSpec {
        id: id.to_string(),
        title: title.to_string(),
        caption: format!(
            "Share of requests with {} at or below each value, by configuration.{failures}",
            x.title
        ),
        kind: ChartKind::Cdf,
        x,
        y: Axis::new("Requests at or below", "%"),
        series,
        annotations,
        alternatives: Vec::new(),
    }
}

/// Histograms of per-request samples over shared bins (`analysis::histogram_bins` of all
/// samples together), as the percent of each series' requests per bin (its finite samples and
/// its failed requests, which fall in no bin), so series of different sizes compare. A series
/// with no finite sample is one marked gap.
pub fn histogram_chart(
    id: &str,
    title: &str,
    x: Axis,
    series: &[SeriesInput<'_, [f64]>],
) -> ChartSpec {
    let pooled: Vec<f64> = series.iter().flat_map(|s| s.data.iter().copied()).collect();
    let edges = histogram_bins(&pooled);
    let failures = if series.iter().any(|s| s.failed > 0) {
        " Failed requests are part of each total, in no bin."
    } else {
        ""
    };
    let series = series
        .iter()
        .map(|input| {
            let counts = histogram_counts(input.data, &edges);
            let total: u64 = counts.iter().sum::<u64>() + input.failed as u64;
            let succeeded = total as usize - input.failed;
            let points = if succeeded == 0 {
                vec![Point {
                    x: 0.0,
                    y: None,
                    source: input.source.to_string(),
                    note: if input.failed > 0 {
                        format!("all {} requests failed", input.failed)
                    } else {
                        "no samples".to_string()
                    },
                    ..Point::default()
                }]
            } else {
                counts
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| Point {
                        x: i as f64,
                        y: Some(c as f64 / total as f64 * 100.0),
                        source: input.source.to_string(),
                        ..Point::default()
                    })
                    .collect()
            };
            Series {
                name: name_with_failures(input, succeeded),
                color: input.color,
                points,
            }
        })
        .collect();
    ChartSpec {
        id: id.to_string(),
        title: title.to_string(),
        caption: format!(
            "How {} is distributed, by configuration.{failures}",
            x.title
        ),
        kind: ChartKind::Histogram { edges },
        x,
        y: Axis::new("Share of requests", "%"),
        series,
        annotations: Vec::new(),
        alternatives: Vec::new(),
    }
}

/// The point of a box in category `category`: `y` is the median and `summary` the box; a
/// missing summary is a marked gap.
pub fn box_point(category: usize, stats: Option<BoxStats>, source: &str) -> Point {
    Point {
        x: category as f64,
        y: stats.map(|b| b.median),
        summary: stats,
        source: source.to_string(),
        note: if stats.is_none() {
            "no distribution (min, p25, median, p75 and max are needed)".to_string()
        } else {
            String::new()
        },
        ..Point::default()
    }
}

/// Box plots, one box per series in each category; `data[i]` of a series is its summary in
/// category `i` (from [`BoxStats::from_samples`] or [`BoxStats::from_distribution`]).
pub fn box_chart(
    id: &str,
    title: &str,
    y: Axis,
    categories: Vec<String>,
    series: &[SeriesInput<'_, [Option<BoxStats>]>],
) -> ChartSpec {
    let series = series
        .iter()
        .map(|input| Series {
            name: input.name.to_string(),
            color: input.color,
            points: input
                .data
                .iter()
                .enumerate()
                .take(categories.len())
                .map(|(i, b)| box_point(i, *b, input.source))
                .collect(),
        })
        .collect();
    ChartSpec {
        id: id.to_string(),
        title: title.to_string(),
        caption: format!(
            "{}: quartiles (box), median (line), min and max (whiskers) and mean (dot).",
            y.label()
        ),
        kind: ChartKind::Box { categories },
        x: Axis::new("", ""),
        y,
        series,
        annotations: Vec::new(),
        alternatives: Vec::new(),
    }
}
