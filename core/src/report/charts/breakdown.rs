//! ```` ```chart ```` `kind: breakdown`: where the time goes (seed 004's queue-against-generation
//! bars). Each configuration's mean end-to-end latency, at `load` or at every load point, split
//! into the time before the first token (waiting and prefill: the mean TTFT) and decoding (mean
//! end-to-end minus mean TTFT), as stacked bars, with the shares in the caption. Means add up
//! (mean end-to-end = mean TTFT + mean decoding); percentiles do not, so `stat: p50` (for a
//! file that gives only medians, as seed 004 does) draws an approximate split and says so.
//!
//! None of the supported formats records queueing apart from prefill, so the first part is both;
//! the caption says so. `parts: [Queue time, Generation time]` names the two parts where the
//! data says what they are (seed 004 stores its queue time as the time before the first
//! token). `share: true` draws each row as its parts' shares of 100%, the better-read
//! equivalent of seed 004's pie: the same two parts along one straight scale.

use super::call::{ChartCall, ChartDirective};
use crate::chart::{Axis, ChartKind, ChartSpec, Point, Series};
use crate::format;
use crate::model::{Metric, Run, Stat};
use crate::report::context::ReportContext;

/// The two parts, in drawing order: default name and palette slot.
const PARTS: [(&str, usize); 2] = [("Before the first token", 0), ("Decoding", 1)];

/// The parts' names: the directive's `parts`, two of them, or [`PARTS`]'.
fn part_names(parts: Option<&[String]>) -> Result<[String; 2], String> {
    match parts {
        None => Ok(PARTS.map(|(name, _)| name.to_string())),
        Some([first, second]) if !first.trim().is_empty() && !second.trim().is_empty() => {
            Ok([first.clone(), second.clone()])
        }
        Some(_) => Err(
            "`parts` names the two parts, the time before the first token and the rest: for \
             example `[Queue time, Generation time]`"
                .into(),
        ),
    }
}

/// Stacked bars of mean TTFT and mean decoding time per configuration (and load point).
pub(super) fn breakdown(ctx: &ReportContext<'_>, c: ChartCall<'_>) -> Result<ChartSpec, String> {
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
    let names = part_names(d.parts.as_deref())?;
    let share = d.share.unwrap_or(false);
    let mut rows = Vec::new();
    let mut series: Vec<Series> = PARTS
        .iter()
        .zip(&names)
        .map(|((_, color), name)| Series {
            name: name.clone(),
            color: *color,
            points: Vec::new(),
        })
        .collect();
    let mut shares = Vec::new();
    let mut at_load = None;
    for key in keys {
        let (name, _) = ctx.display(key);
        for run in breakdown_runs(ctx, key, d)? {
            let row = rows.len() as f64;
            at_load.get_or_insert_with(|| run.load.target.to_string());
            rows.push(match d.load {
                Some(_) => name.clone(),
                None => format!("{name} at {}", run.load.target),
            });
            let (mut before, mut decoding) = split(run, row, stat);
            if let (Some(t), Some(e)) = (before.y, decoding.y) {
                if t + e > 0.0 {
                    shares.push((t / (t + e) * 100.0, rows[rows.len() - 1].clone()));
                }
            }
            if share {
                as_shares(&mut before, &mut decoding);
            }
            series[0].points.push(before);
            series[1].points.push(decoding);
        }
    }
    let loads = match (&d.load, at_load) {
        (Some(_), Some(load)) => format!(" at {load}"),
        _ => String::new(),
    };
    let parts = if d.parts.is_some() {
        format!(
            "{} (the time before the first token) and {} (end-to-end minus TTFT)",
            names[0].to_lowercase(),
            names[1].to_lowercase()
        )
    } else {
        "the time before the first token (waiting in the queue and prefill, which the \
         result files do not separate) and decoding (end-to-end minus TTFT)"
            .to_string()
    };
    let (as_what, y) = if share {
        (
            ", as shares of 100%,",
            Axis::new(format!("Share of the {stat} request"), "%"),
        )
    } else {
        ("", Axis::new(format!("{} time", capitalised(stat)), "ms"))
    };
    Ok(ChartSpec {
        id: id.to_string(),
        title: "Where the time goes".to_string(),
        caption: format!(
            "{} end-to-end latency{loads} split{as_what} into {parts}.{}{}",
            capitalised(stat),
            if stat == Stat::Mean {
                ""
            } else {
                " Percentiles do not add up as means do: the split is approximate."
            },
            share_range(&shares, stat, &names[0])
        ),
        kind: ChartKind::Stacked { rows },
        x: Axis::new("", ""),
        y,
        series,
        annotations: Vec::new(),
        alternatives: Vec::new(),
    })
}

/// The runs a breakdown shows for `key`: the one at `load`, or all of them by load.
fn breakdown_runs<'c>(
    ctx: &'c ReportContext<'_>,
    key: &str,
    d: &ChartDirective,
) -> Result<Vec<&'c Run>, String> {
    if d.load.is_some() {
        return Ok(ctx.run_at(key, d.load.as_ref())?.into_iter().collect());
    }
    let mut runs = ctx.runs_of(key);
    runs.sort_by(|a, b| {
        crate::report::load::load_order(&a.load.target)
            .total_cmp(&crate::report::load::load_order(&b.load.target))
    });
    Ok(runs)
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

/// Both parts of a row as their shares of its total, in percent, each with its time in its
/// note (the tooltip's): `10,470 ms of 12,250 ms`. A row missing a part keeps its times.
fn as_shares(before: &mut Point, decoding: &mut Point) {
    let (Some(t), Some(e)) = (before.y, decoding.y) else {
        return;
    };
    let total = t + e;
    if total <= 0.0 {
        return;
    }
    for (p, part) in [(before, t), (decoding, e)] {
        p.y = Some(part / total * 100.0);
        p.note = format!(
            "{} of {}",
            format::with_unit(part, "ms"),
            format::with_unit(total, "ms")
        );
    }
}

/// The shares of the first part in words: ` 8% of the mean request is before the first token
/// (vLLM).` for one row, ` Before the first token: from 3% (A) to 8% (B) of the mean request.`
/// for several; `first` names the part (`Before the first token`, `Queue time`).
fn share_range(shares: &[(f64, String)], stat: Stat, first: &str) -> String {
    let least = shares.iter().min_by(|a, b| a.0.total_cmp(&b.0));
    let most = shares.iter().max_by(|a, b| a.0.total_cmp(&b.0));
    let pct = |share: f64| format!("{}%", format::fixed(share, 0));
    match (least, most) {
        (Some(one), _) if shares.len() == 1 && first == PARTS[0].0 => format!(
            " {} of the {stat} request is before the first token ({}).",
            pct(one.0),
            one.1
        ),
        (Some(one), _) if shares.len() == 1 => format!(
            " {}: {} of the {stat} request ({}).",
            first,
            pct(one.0),
            one.1
        ),
        (Some(least), Some(most)) => format!(
            " {first}: from {} ({}) to {} ({}) of the {stat} request.",
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
    fn shares_of_one_hundred_with_the_parts_named() {
        let results = [import(
            "vllm/t.json",
            br#"{"date": "20250301-101010", "backend": "vllm", "model_id": "m", "failed": 0,
                "request_rate": 1.0, "completed": 10, "duration": 10.0,
                "median_ttft_ms": 10470.0, "median_e2el_ms": 12250.0}"#,
        )];
        let text =
            "---\ntitle: T\nresults: [\"vllm/*\"]\n---\n\n```chart\nid: c\nkind: breakdown\n\
                    stat: median\nshare: true\nparts: [Queue time, Generation time]\n```\n";
        let page = build_report("reports/r.md", "r", text, &results, &Palette::new());
        let spec = page.charts().next().expect("a chart");
        assert_eq!(spec.series[0].name, "Queue time");
        assert_eq!(spec.series[1].name, "Generation time");
        let share = spec.series[0].points[0].y.unwrap();
        assert!((share - 85.47).abs() < 0.01, "{share}");
        assert_eq!(spec.series[0].points[0].note, "10,470 ms of 12,250 ms");
        assert_eq!(spec.series[1].points[0].note, "1,780 ms of 12,250 ms");
        assert_eq!(
            (spec.y.title.as_str(), spec.y.unit.as_str()),
            ("Share of the median request", "%")
        );
        assert!(
            spec.caption.starts_with(
                "Median end-to-end latency split, as shares of 100%, into queue time (the time \
                 before the first token) and generation time (end-to-end minus TTFT)."
            ),
            "{}",
            spec.caption
        );
        assert!(
            spec.caption
                .ends_with(" Queue time: 85% of the median request (vllm at 1 req/s)."),
            "{}",
            spec.caption
        );
    }

    #[test]
    fn other_metrics_and_unknown_statistics_are_refused_with_the_reason() {
        let problems = chart("kind: breakdown\nparts: [Queue time]").unwrap_err();
        assert!(
            problems[0].contains("`parts` names the two parts"),
            "{problems:?}"
        );
        let problems = chart("kind: breakdown\nstat: fastest").unwrap_err();
        assert!(problems[0].contains("is not a statistic"), "{problems:?}");
        let problems = chart("kind: breakdown\nmetric: ttft").unwrap_err();
        assert!(problems[0].contains("leave `metric` out"), "{problems:?}");
    }
}
