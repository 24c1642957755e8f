//! How consistent a latency is (seed 004's consistency analysis): `error_bars: std` puts ±1σ
//! around the means of `bars` and `lines`, and ```` ```chart ```` `kind: cv` draws the
//! coefficient of variation (standard deviation ÷ mean) by load point with guide lines at 5%
//! (under it: consistent) and 10% (over it: readers notice).

use super::call::ChartCall;
use crate::chart::{Annotation, Axis, AxisName, ChartKind, ChartSpec, Point};
use crate::model::{Metric, Run, Stat};
use crate::quantity::{Better, Quantity};
use crate::report::context::ReportContext;
use crate::report::load::load_label;

/// The guide lines of a CV chart, in percent, with what they mean.
const GUIDES: [(f64, &str); 2] = [
    (5.0, "5%: consistent below"),
    (10.0, "10%: noticeable above"),
];

/// The directive's `error_bars`, checked: the latency metric whose ±1σ goes around each mean,
/// or none.
pub(super) fn error_bars(quantity: Quantity, text: Option<&str>) -> Result<Option<Metric>, String> {
    match text.map(str::trim) {
        None => Ok(None),
        Some("std") => match quantity {
            Quantity::Latency {
                metric,
                stat: Stat::Mean,
            } => Ok(Some(metric)),
            _ => Err(format!(
                "`error_bars: std` draws ±1 standard deviation around a mean latency; \
                 {quantity} is not one (write `stat: mean`)"
            )),
        },
        Some(other) => Err(format!(
            "`error_bars: {other}`: the only error bars are `std` (±1 standard deviation)"
        )),
    }
}

/// `point` with its ±1σ of `metric` on `run` as `lo`/`hi`, when the run reports a standard
/// deviation (otherwise as it was: no error bar rather than a made-up one).
pub(super) fn with_sigma(mut point: Point, run: &Run, metric: Metric) -> Point {
    if let (Some(y), Some(std)) = (point.y, run.latency_stat(metric, Stat::Std)) {
        point.lo = Some(y - std);
        point.hi = Some(y + std);
    }
    point
}

/// `metric`'s label inside a sentence: `end-to-end latency`, but `TTFT` stays as it is.
fn in_sentence(metric: Metric) -> String {
    let label = metric.label();
    let mut chars = label.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if !second.is_uppercase() => {
            first.to_lowercase().chain(label.chars().skip(1)).collect()
        }
        _ => label.to_string(),
    }
}

/// The coefficient of variation of `metric` on `run`, in percent: std ÷ mean × 100.
fn cv(run: &Run, metric: Metric) -> Result<f64, String> {
    let mean = run.latency_stat(metric, Stat::Mean);
    let std = run.latency_stat(metric, Stat::Std);
    match (mean, std) {
        (Some(mean), Some(std)) if mean > 0.0 => Ok(std / mean * 100.0),
        (Some(_), Some(_)) => Err(format!("mean {} is 0", in_sentence(metric))),
        _ if run.all_failed() => Err("every request failed".into()),
        (None, _) => Err(format!("mean {} not reported", in_sentence(metric))),
        (_, None) => Err(format!(
            "standard deviation of {} not reported",
            in_sentence(metric)
        )),
    }
}

/// Coefficient of variation by load point, a bar per configuration, with 5% and 10% guides.
pub(super) fn cv_chart(ctx: &ReportContext<'_>, c: ChartCall<'_>) -> Result<ChartSpec, String> {
    let ChartCall { id, d, keys } = c;
    let metric = match d.metric.as_deref() {
        None => Metric::E2e,
        Some(text) => match Quantity::parse(text, None)? {
            Quantity::Latency { metric, .. } => metric,
            other => return Err(format!("`metric`: a CV chart needs a latency, not {other}")),
        },
    };
    let loads = ctx.loads_of(keys);
    let series = ctx.series_per_config(keys, |key| {
        let runs = ctx.runs_of(key);
        loads
            .iter()
            .enumerate()
            .filter_map(|(i, load)| {
                let run = runs.iter().find(|r| r.load.target == *load)?;
                Some(cv_point(i as f64, run, metric))
            })
            .collect()
    });
    let mut y = Axis::new(format!("CV of {}", in_sentence(metric)), "%");
    y.better = Some(Better::Lower);
    Ok(ChartSpec {
        id: id.to_string(),
        title: format!("How consistent {} is", in_sentence(metric)),
        caption: format!(
            "Coefficient of variation (standard deviation ÷ mean) of {} at each load point, \
             by configuration. Under 5%, requests take about the same time; from 5 to 10%, \
             some variation; over 10%, readers notice.",
            in_sentence(metric)
        ),
        kind: ChartKind::GroupedBars {
            categories: loads.iter().map(load_label).collect(),
        },
        x: Axis::new(loads.first().map_or("Load", |l| l.axis().title()), ""),
        y,
        series,
        annotations: GUIDES
            .iter()
            .map(|(value, label)| Annotation::Threshold {
                axis: AxisName::Y,
                value: *value,
                label: (*label).to_string(),
            })
            .collect(),
        alternatives: Vec::new(),
    })
}

/// The CV of `metric` on `run` as a point at `x`, or a gap saying what is missing.
fn cv_point(x: f64, run: &Run, metric: Metric) -> Point {
    let (y, note) = match cv(run, metric) {
        Ok(v) => (Some(v), String::new()),
        Err(why) => (None, why),
    };
    Point {
        x,
        y,
        source: run.source(),
        note,
        ..Point::default()
    }
}

#[cfg(test)]
mod tests {
    use crate::chart::{Annotation, AxisName, ChartKind, ChartSpec};

    /// Seed 004's systematic runs, as batch sizes: mean end-to-end 105 and 206 ms with standard
    /// deviations of 0.4 and 0.2 ms, and a third run that gives no standard deviation.
    const RUNS: &str = concat!(
        r#"{"date": "20250301-101010", "backend": "vllm", "model_id": "m", "failed": 0, "#,
        r#""max_concurrency": 1, "completed": 15, "duration": 2.0, "output_throughput": 95.0, "#,
        r#""mean_e2el_ms": 105.0, "std_e2el_ms": 0.4, "p99_e2el_ms": 106.0}"#,
        "\n",
        r#"{"date": "20250301-101010", "backend": "vllm", "model_id": "m", "failed": 0, "#,
        r#""max_concurrency": 4, "completed": 15, "duration": 2.0, "output_throughput": 342.0, "#,
        r#""mean_e2el_ms": 206.0, "std_e2el_ms": 0.2, "p99_e2el_ms": 207.0}"#,
        "\n",
        r#"{"date": "20250301-101010", "backend": "vllm", "model_id": "m", "failed": 0, "#,
        r#""max_concurrency": 16, "completed": 15, "duration": 2.0, "output_throughput": 949.0, "#,
        r#""mean_e2el_ms": 1021.0}"#,
        "\n",
    );

    fn chart(body: &str) -> Result<ChartSpec, Vec<String>> {
        super::super::chart_on("vllm/t.jsonl", RUNS, body)
    }

    #[test]
    fn cv_by_load_with_guides_at_five_and_ten_percent() {
        let spec = chart("kind: cv").unwrap();
        assert_eq!(
            spec.kind,
            ChartKind::GroupedBars {
                categories: vec!["1".into(), "4".into(), "16".into()]
            }
        );
        let ys: Vec<_> = spec.series[0].points.iter().map(|p| p.y).collect();
        assert!((ys[0].unwrap() - 0.381).abs() < 0.001, "{ys:?}");
        assert!((ys[1].unwrap() - 0.097).abs() < 0.001, "{ys:?}");
        assert_eq!(ys[2], None);
        assert_eq!(
            spec.series[0].points[2].note,
            "standard deviation of end-to-end latency not reported"
        );
        let guides: Vec<f64> = spec
            .annotations
            .iter()
            .filter_map(|a| match a {
                Annotation::Threshold {
                    axis: AxisName::Y,
                    value,
                    ..
                } => Some(*value),
                _ => None,
            })
            .collect();
        assert_eq!(guides, [5.0, 10.0]);
        assert_eq!(spec.y.unit, "%");
    }

    #[test]
    fn error_bars_span_one_standard_deviation_around_the_mean() {
        let spec = chart("kind: bars\nmetric: e2e\nstat: mean\nerror_bars: std").unwrap();
        let p = &spec.series[0].points[0];
        assert_eq!((p.lo, p.y, p.hi), (Some(104.6), Some(105.0), Some(105.4)));
        let last = &spec.series[0].points[2];
        assert_eq!((last.lo, last.hi), (None, None), "no std, no made-up bar");
        let switched = &spec.alternatives.iter().find(|a| a.label == "p99").unwrap();
        assert_eq!(switched.series[0].points[0].lo, None, "p99 has no σ");

        let spec = chart("kind: lines\nmetric: e2e\nstat: mean\nerror_bars: std").unwrap();
        assert_eq!(spec.series[0].points[1].hi, Some(206.2));
        assert!(spec.caption.contains("one standard deviation either side"));
    }

    #[test]
    fn labels_read_inside_a_sentence() {
        assert_eq!(
            super::in_sentence(crate::model::Metric::E2e),
            "end-to-end latency"
        );
        assert_eq!(super::in_sentence(crate::model::Metric::Ttft), "TTFT");
        let spec = chart("kind: cv").unwrap();
        assert_eq!(spec.title, "How consistent end-to-end latency is");
    }

    #[test]
    fn error_bars_need_a_mean_and_a_known_kind() {
        let problems = chart("kind: bars\nmetric: e2e\nstat: p99\nerror_bars: std").unwrap_err();
        assert!(problems[0].contains("write `stat: mean`"), "{problems:?}");
        let problems = chart("kind: bars\nmetric: e2e\nstat: mean\nerror_bars: iqr").unwrap_err();
        assert!(
            problems[0].contains("the only error bars are `std`"),
            "{problems:?}"
        );
        let problems =
            chart("kind: lines\nmetric: e2e\nstat: mean\nerror_bars: std\nband: [p50, p99]")
                .unwrap_err();
        assert!(problems[0].contains("choose one"), "{problems:?}");
    }

    #[test]
    fn speedup_labels_give_each_points_multiple_of_the_first() {
        let spec = chart("kind: lines\nmetric: output_throughput\nspeedup: true").unwrap();
        let labels: Vec<&str> = spec
            .annotations
            .iter()
            .filter_map(|a| match a {
                Annotation::Marker { label, .. } => Some(label.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(labels, ["3.6x", "10.0x"]);
    }

    #[test]
    fn percentile_bars_carry_an_sla_line() {
        let spec = chart("kind: percentiles\nmetric: e2e\nload: 4\nsla: 150").unwrap();
        assert_eq!(
            spec.annotations,
            [Annotation::Threshold {
                axis: AxisName::Y,
                value: 150.0,
                label: "SLA 150 ms".into()
            }]
        );
    }
}
