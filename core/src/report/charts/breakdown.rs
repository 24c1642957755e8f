//! ```` ```chart ```` `kind: breakdown`: where the time goes (seed 004's queue-against-generation
//! bars). Each configuration's mean end-to-end latency, at `load` or at every load point, split
//! into the time before the first token (waiting and prefill: the mean TTFT) and decoding (mean
//! end-to-end minus mean TTFT), as stacked bars, with the shares in the caption. Means add up
//! (mean end-to-end = mean TTFT + mean decoding); percentiles do not, so `stat: p50` (for a
//! file that gives only medians, as seed 004 does) draws an approximate split and says so.
//!
//! None of the supported formats records queueing apart from prefill, so the first part is both;
//! the caption says so.

use super::{ChartCall, ChartDirective, ReportContext};
use crate::chart::{Axis, ChartKind, ChartSpec, Point, Series};
use crate::format;
use crate::model::{Metric, Run, Stat};

/// The two parts, in drawing order: name and palette slot.
const PARTS: [(&str, usize); 2] = [("Before the first token", 0), ("Decoding", 1)];

impl ReportContext<'_> {
    /// Stacked bars of mean TTFT and mean decoding time per configuration (and load point).
    pub(super) fn breakdown(&self, c: ChartCall<'_>) -> Result<ChartSpec, String> {
        let ChartCall { id, d, keys } = c;
        let stat = match d.stat.as_deref() {
            None => Stat::Mean,
            Some(text) => Stat::parse(text).ok_or_else(|| {
                format!("`stat: {text}` is not a statistic (mean, median, p50, p90, p99...)")
            })?,
        };
        if let Some(metric) = &d.metric {
            return Err(format!(
                "`metric: {metric}`: a breakdown always splits the end-to-end latency into \
                 TTFT and decoding; leave `metric` out"
            ));
        }
        let mut rows = Vec::new();
        let mut series: Vec<Series> = PARTS
            .iter()
            .map(|(name, color)| Series {
                name: (*name).to_string(),
                color: *color,
                points: Vec::new(),
            })
            .collect();
        let mut shares = Vec::new();
        let mut at_load = None;
        for key in keys {
            let (name, _) = self.display(key);
            for run in self.breakdown_runs(key, d)? {
                let row = rows.len() as f64;
                at_load.get_or_insert_with(|| run.load.target.to_string());
                rows.push(match d.load {
                    Some(_) => name.clone(),
                    None => format!("{name} at {}", run.load.target),
                });
                let (before, decoding) = split(run, row, stat);
                if let (Some(t), Some(e)) = (before.y, decoding.y) {
                    if t + e > 0.0 {
                        shares.push((t / (t + e) * 100.0, rows[rows.len() - 1].clone()));
                    }
                }
                series[0].points.push(before);
                series[1].points.push(decoding);
            }
        }
        let loads = match (&d.load, at_load) {
            (Some(_), Some(load)) => format!(" at {load}"),
            _ => String::new(),
        };
        Ok(ChartSpec {
            id: id.to_string(),
            title: "Where the time goes".to_string(),
            caption: format!(
                "{} end-to-end latency{loads} split into the time before the first token \
                 (waiting in the queue and prefill, which the result files do not separate) and \
                 decoding (end-to-end minus TTFT).{}{}",
                capitalised(stat),
                if stat == Stat::Mean {
                    ""
                } else {
                    " Percentiles do not add up as means do: the split is approximate."
                },
                share_range(&shares, stat)
            ),
            kind: ChartKind::Stacked { rows },
            x: Axis::new("", ""),
            y: Axis::new(format!("{} time", capitalised(stat)), "ms"),
            series,
            annotations: Vec::new(),
            alternatives: Vec::new(),
        })
    }

    /// The runs a breakdown shows for `key`: the one at `load`, or all of them by load.
    fn breakdown_runs(&self, key: &str, d: &ChartDirective) -> Result<Vec<&Run>, String> {
        if d.load.is_some() {
            return Ok(self.run_at(key, d.load.as_ref())?.into_iter().collect());
        }
        let mut runs = self.runs_of(key);
        runs.sort_by(|a, b| {
            super::load_order(&a.load.target).total_cmp(&super::load_order(&b.load.target))
        });
        Ok(runs)
    }
}

/// `Mean`, `Median`, `P99`.
fn capitalised(stat: Stat) -> String {
    let text = stat.to_string();
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The shares of the time before the first token in words: ` 8% of the mean request is
/// before the first token (vLLM).` for one row, ` Before the first token: from 3% (A) to 8%
/// (B) of the mean request.` for several.
fn share_range(shares: &[(f64, String)], stat: Stat) -> String {
    let least = shares.iter().min_by(|a, b| a.0.total_cmp(&b.0));
    let most = shares.iter().max_by(|a, b| a.0.total_cmp(&b.0));
    let pct = |share: f64| format!("{}%", format::fixed(share, 0));
    match (least, most) {
        (Some(one), _) if shares.len() == 1 => format!(
            " {} of the {stat} request is before the first token ({}).",
            pct(one.0),
            one.1
        ),
        (Some(least), Some(most)) => format!(
            " Before the first token: from {} ({}) to {} ({}) of the {stat} request.",
            pct(least.0),
            least.1,
            pct(most.0),
            most.1
        ),
        _ => String::new(),
    }
}

/// The two parts of `run`'s latency (`stat` of each), as points of row `row`: TTFT, and
/// end-to-end minus TTFT. A part the run lacks is missing with the reason.
fn split(run: &Run, row: f64, stat: Stat) -> (Point, Point) {
    let ttft = run.latency_stat(Metric::Ttft, stat);
    let e2e = run.latency_stat(Metric::E2e, stat);
    let missing = |what: &str| {
        if run.all_failed() {
            "every request failed".to_string()
        } else {
            format!("{stat} {what} not reported")
        }
    };
    let point = |y: Option<f64>, note: String| Point {
        x: row,
        y,
        source: run.source(),
        note: if y.is_some() { String::new() } else { note },
        ..Point::default()
    };
    let decoding = match (ttft, e2e) {
        (Some(t), Some(e)) if e >= t => (Some(e - t), String::new()),
        (Some(_), Some(_)) => (
            None,
            format!("{stat} TTFT exceeds the {stat} end-to-end latency"),
        ),
        (None, _) => (None, missing("TTFT")),
        (_, None) => (None, missing("end-to-end latency")),
    };
    (point(ttft, missing("TTFT")), point(decoding.0, decoding.1))
}

#[cfg(test)]
mod tests {
    use crate::chart::{ChartKind, ChartSpec};
    use crate::import::import;
    use crate::report::{build_report, Palette};

    /// Two load points of one configuration: mean TTFT 40 and 900 ms of mean end-to-end 1,000
    /// and 1,200 ms; the second run's file says nothing of its end-to-end latency.
    const RUNS: &str = concat!(
        r#"{"date": "20250301-101010", "backend": "vllm", "model_id": "m", "failed": 0, "request_rate": 1.0, "completed": 10, "#,
        r#""duration": 10.0, "mean_ttft_ms": 40.0, "mean_e2el_ms": 1000.0}"#,
        "\n",
        r#"{"date": "20250301-101010", "backend": "vllm", "model_id": "m", "failed": 0, "request_rate": 8.0, "completed": 10, "#,
        r#""duration": 10.0, "mean_ttft_ms": 900.0, "mean_e2el_ms": 1200.0}"#,
        "\n",
        r#"{"date": "20250301-101010", "backend": "vllm", "model_id": "m", "failed": 0, "request_rate": 16.0, "completed": 10, "#,
        r#""duration": 10.0, "mean_ttft_ms": 950.0}"#,
        "\n",
    );

    fn chart(body: &str) -> Result<ChartSpec, Vec<String>> {
        super::super::chart_on("vllm/t.jsonl", RUNS, body)
    }

    #[test]
    fn mean_latency_splits_into_ttft_and_decoding_per_load_point() {
        let spec = chart("kind: breakdown").unwrap();
        let ChartKind::Stacked { rows } = &spec.kind else {
            panic!("{:?}", spec.kind)
        };
        assert_eq!(
            rows,
            &["vllm at 1 req/s", "vllm at 8 req/s", "vllm at 16 req/s"]
        );
        let ys = |s: usize| {
            spec.series[s]
                .points
                .iter()
                .map(|p| p.y)
                .collect::<Vec<_>>()
        };
        assert_eq!(ys(0), [Some(40.0), Some(900.0), Some(950.0)]);
        assert_eq!(ys(1), [Some(960.0), Some(300.0), None]);
        assert_eq!(
            spec.series[1].points[2].note,
            "mean end-to-end latency not reported"
        );
        assert!(
            spec.caption.ends_with(
                "Before the first token: from 4% (vllm at 1 req/s) to 75% (vllm at 8 req/s) of \
                 the mean request."
            ),
            "{}",
            spec.caption
        );
        assert!(spec.caption.contains("waiting in the queue and prefill"));
    }

    #[test]
    fn at_one_load_rows_are_configurations() {
        let spec = chart("kind: breakdown\nload: 8").unwrap();
        assert_eq!(
            spec.kind,
            ChartKind::Stacked {
                rows: vec!["vllm".into()]
            }
        );
        assert!(spec
            .caption
            .starts_with("Mean end-to-end latency at 8 req/s split"));
    }

    #[test]
    fn a_percentile_split_says_it_is_approximate() {
        let results = [import(
            "vllm/t.json",
            br#"{"date": "20250301-101010", "backend": "vllm", "model_id": "m", "failed": 0,
                "request_rate": 1.0, "completed": 10, "duration": 10.0,
                "median_ttft_ms": 10470.0, "median_e2el_ms": 12250.0}"#,
        )];
        let text = "---\ntitle: T\nresults: [\"vllm/*\"]\n---\n\n```chart\nid: c\nkind: breakdown\nstat: median\n```\n";
        let page = build_report("reports/r.md", "r", text, &results, &Palette::new());
        let spec = page.charts().next().expect("a chart");
        assert_eq!(spec.series[0].points[0].y, Some(10470.0));
        assert_eq!(spec.series[1].points[0].y, Some(1780.0));
        assert_eq!(spec.y.title, "Median time");
        assert!(
            spec.caption.starts_with("Median end-to-end latency"),
            "{}",
            spec.caption
        );
        assert!(spec.caption.contains("the split is approximate"));
        assert!(
            spec.caption.ends_with(
                " 85% of the median request is before the first token (vllm at 1 req/s)."
            ),
            "{}",
            spec.caption
        );
    }

    #[test]
    fn other_metrics_and_unknown_statistics_are_refused_with_the_reason() {
        let problems = chart("kind: breakdown\nstat: fastest").unwrap_err();
        assert!(problems[0].contains("is not a statistic"), "{problems:?}");
        let problems = chart("kind: breakdown\nmetric: ttft").unwrap_err();
        assert!(problems[0].contains("leave `metric` out"), "{problems:?}");
    }
}
