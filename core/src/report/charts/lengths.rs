//! ```` ```chart ```` `kind: lengths`: latency by sequence-length category (seed 004's "Tiny" to
//! "Very long"), from per-request data. The successful requests of each configuration at one
//! load point are put in categories by their tokens (prompt plus output by default, as seed 004
//! counts them), and a statistic of each category's latency (p95 by default; the reader can
//! switch) is a bar per configuration. The caption gives each configuration's scaling factor,
//! its largest category against its smallest: "p95 grows 15.8x from Tiny to Very long".
//!
//! Keys: `categories` (upper bounds in tokens, ascending; seed 004's `[50, 150, 300, 500]` by
//! default, named Tiny, Short, Medium, Long and Very long), `tokens` (`total`, `output` or
//! `input`), `metric` (`e2e`, `ttft` or `tpot`), `stat`, `load` and `configs`.

use super::call::ChartCall;
use crate::analysis::token_fit::latency_metric;
use crate::analysis::{quantile, sorted_finite};
use crate::chart::Alternative;
use crate::chart::{Axis, ChartKind, ChartSpec, Point, Series};
use crate::format;
use crate::model::{Metric, RequestSamples, Run, Stat};
use crate::quantity::Quantity;
use crate::report::context::ReportContext;

/// Seed 004's categories: upper bounds in total tokens, and their names.
const SEED_004_BOUNDS: [f64; 4] = [50.0, 150.0, 300.0, 500.0];
const SEED_004_NAMES: [&str; 5] = ["Tiny", "Short", "Medium", "Long", "Very long"];

/// The statistics a reader can switch between.
const CHOICES: [Stat; 5] = [
    Stat::Median,
    Stat::P(90.0),
    Stat::P(95.0),
    Stat::P(99.0),
    Stat::Mean,
];

/// Which of a request's tokens decide its category.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Counted {
    Total,
    Output,
    Input,
}

impl Counted {
    fn parse(text: Option<&str>) -> Result<Counted, String> {
        match text.map(str::trim) {
            None | Some("total") => Ok(Counted::Total),
            Some("output") => Ok(Counted::Output),
            Some("input") => Ok(Counted::Input),
            Some(other) => Err(format!(
                "`tokens: {other}`: requests are put in categories by their `total` (prompt and \
                 output), `output` or `input` tokens"
            )),
        }
    }

    /// Request `i`'s tokens, when the file gives them.
    fn of(self, samples: &RequestSamples, i: usize) -> Option<f64> {
        let input = samples.input_tokens.get(i).copied();
        let output = samples.output_tokens.get(i).copied();
        let tokens = match self {
            Counted::Total => Some(input? + output?),
            Counted::Output => output,
            Counted::Input => input,
        };
        tokens.filter(|t| t.is_finite() && *t >= 0.0)
    }

    fn noun(self) -> &'static str {
        match self {
            Counted::Total => "tokens (prompt and output)",
            Counted::Output => "output tokens",
            Counted::Input => "prompt tokens",
        }
    }
}

/// Categories by tokens: ascending upper bounds, and a label per category (one more than bounds).
#[derive(Debug, Clone, PartialEq)]
struct Categories {
    bounds: Vec<f64>,
    labels: Vec<String>,
    names: Vec<String>,
}

impl Categories {
    /// The directive's `categories`, checked; seed 004's without one.
    fn parse(bounds: Option<&[f64]>) -> Result<Categories, String> {
        let bounds = bounds.unwrap_or(&SEED_004_BOUNDS).to_vec();
        if bounds.is_empty()
            || bounds.iter().any(|b| !(b.is_finite() && *b > 0.0))
            || bounds.windows(2).any(|w| w[0] >= w[1])
        {
            return Err(format!(
                "`categories: {bounds:?}`: give the categories' upper bounds in tokens, positive \
                 and ascending, for example [50, 150, 300, 500]"
            ));
        }
        let ranges: Vec<String> = (0..=bounds.len())
            .map(
                |i| match (i.checked_sub(1).map(|j| bounds[j]), bounds.get(i)) {
                    (None, Some(hi)) => format!("< {}", format::number(*hi)),
                    (Some(lo), Some(hi)) => {
                        format!("{}–{}", format::number(lo), format::number(*hi))
                    }
                    (Some(lo), None) => format!("{}+", format::number(lo)),
                    (None, None) => String::new(),
                },
            )
            .collect();
        let names: Vec<String> = if bounds == SEED_004_BOUNDS {
            SEED_004_NAMES.iter().map(|n| (*n).to_string()).collect()
        } else {
            ranges.clone()
        };
        let labels = if bounds == SEED_004_BOUNDS {
            names
                .iter()
                .zip(&ranges)
                .map(|(n, r)| format!("{n} ({r})"))
                .collect()
        } else {
            ranges
        };
        Ok(Categories {
            bounds,
            labels,
            names,
        })
    }

    /// The category of a request with `tokens`.
    fn of(&self, tokens: f64) -> usize {
        self.bounds
            .iter()
            .position(|b| tokens < *b)
            .unwrap_or(self.bounds.len())
    }

    /// The labels and names of the categories at `kept` (indices, ascending), and a sentence
    /// naming the others: ` No request fell in Long (300–500), Very long (500+).`
    fn only(&self, kept: &[usize]) -> (Shown, String) {
        let pick = |list: &[String], keep: bool| -> Vec<String> {
            (0..list.len())
                .filter(|i| kept.contains(i) == keep)
                .map(|i| list[i].clone())
                .collect()
        };
        let left = pick(&self.labels, false);
        let sentence = if left.is_empty() {
            String::new()
        } else {
            format!(" No request fell in {}.", left.join(", "))
        };
        let shown = Shown {
            labels: pick(&self.labels, true),
            names: pick(&self.names, true),
        };
        (shown, sentence)
    }
}

/// The categories a chart shows: each one's axis label and its name in sentences.
struct Shown {
    labels: Vec<String>,
    names: Vec<String>,
}

/// The latencies (`metric`) of `run`'s successful requests, per category; none when the run has
/// no per-request latencies with token counts.
fn grouped(
    run: &Run,
    metric: Metric,
    counted: Counted,
    cats: &Categories,
) -> Option<Vec<Vec<f64>>> {
    let samples = run.samples.as_ref()?;
    let latencies = samples.latencies(metric)?;
    let mut groups = vec![Vec::new(); cats.labels.len()];
    let mut any = false;
    for (i, latency) in latencies.iter().enumerate() {
        let ok = samples.ok.get(i).copied().unwrap_or(true);
        if let (true, Some(tokens)) = (ok && latency.is_finite(), counted.of(samples, i)) {
            groups[cats.of(tokens)].push(*latency);
            any = true;
        }
    }
    any.then_some(groups)
}

/// `stat` of `values` (finite ones), or none when there are none.
fn stat_of(values: &[f64], stat: Stat) -> Option<f64> {
    let sorted = sorted_finite(values);
    let n = sorted.len() as f64;
    let mean = sorted.iter().sum::<f64>() / n;
    match stat {
        _ if sorted.is_empty() => None,
        Stat::Mean => Some(mean),
        Stat::Median => quantile(&sorted, 0.5),
        Stat::P(p) => quantile(&sorted, p / 100.0),
        Stat::Min => sorted.first().copied(),
        Stat::Max => sorted.last().copied(),
        Stat::Std if sorted.len() > 1 => {
            Some((sorted.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt())
        }
        Stat::Std => None,
    }
}

/// Latency by sequence-length category, a bar per configuration, with each configuration's
/// scaling factor in the caption.
pub(super) fn lengths(ctx: &ReportContext<'_>, c: ChartCall<'_>) -> Result<ChartSpec, String> {
    let ChartCall { id, d, keys } = c;
    let counted = Counted::parse(d.tokens.as_deref())?;
    let metric = latency_metric(d.metric.as_deref())?;
    let stat = match d.stat.as_deref() {
        None => Stat::P(95.0),
        Some(text) => Stat::parse(text)
            .ok_or_else(|| format!("`stat: {text}` is not a statistic (p50, p95, mean...)"))?,
    };
    let cats = Categories::parse(d.categories.as_deref())?;
    let mut runs = Vec::new();
    for key in keys {
        let Some(run) = ctx.run_at(key, d.load.as_ref())? else {
            continue;
        };
        let groups = grouped(run, metric, counted, &cats).ok_or_else(|| {
            format!(
                "configuration `{key}` has no per-request {} with token counts in {}; a \
                 lengths chart needs per-request data (vLLM's --save-detailed, GuideLLM's \
                 requests, llmperf's per-request file)",
                metric.label(),
                run.source()
            )
        })?;
        runs.push((key.as_str(), run, groups));
    }
    // Categories no configuration has a request in are left out, and the caption says so.
    let filled: Vec<usize> = (0..cats.labels.len())
        .filter(|i| runs.iter().any(|(_, _, groups)| !groups[*i].is_empty()))
        .collect();
    let (shown, empty) = cats.only(&filled);
    for (_, _, groups) in &mut runs {
        *groups = filled
            .iter()
            .map(|i| std::mem::take(&mut groups[*i]))
            .collect();
    }
    let series_of = |stat: Stat| -> Vec<Series> {
        runs.iter()
            .map(|(key, run, groups)| category_series(ctx.display(key), run, groups, stat))
            .collect()
    };
    let series = series_of(stat);
    let scaling = scaling_factors(&series, &shown.names, stat);
    let alternatives = CHOICES
        .iter()
        .map(|&s| Alternative {
            label: s.to_string(),
            y_title: Quantity::Latency { metric, stat: s }.to_string(),
            series: series_of(s),
        })
        .collect();
    let at = runs
        .first()
        .map(|(_, run, _)| format!(" at {}", run.load.target))
        .unwrap_or_default();
    let quantity = Quantity::Latency { metric, stat };
    Ok(ChartSpec {
        id: id.to_string(),
        title: format!("{quantity} by sequence length{at}"),
        caption: format!(
            "{quantity} of the successful requests in each category of {} per request, by \
             configuration.{scaling}{empty}",
            counted.noun()
        ),
        kind: ChartKind::GroupedBars {
            categories: shown.labels,
        },
        x: Axis::new(format!("Sequence length in {}", counted.noun()), ""),
        y: Axis::new(quantity.to_string(), "ms"),
        series,
        annotations: Vec::new(),
        alternatives,
    })
}

/// One configuration's bars: `stat` of each category, with how many requests it holds.
fn category_series(
    (name, color): (String, usize),
    run: &Run,
    groups: &[Vec<f64>],
    stat: Stat,
) -> Series {
    let points = groups
        .iter()
        .enumerate()
        .map(|(i, group)| {
            let y = stat_of(group, stat);
            Point {
                x: i as f64,
                y,
                source: format!("{} ({} requests)", run.source(), group.len()),
                note: if y.is_none() {
                    "no request in this category".to_string()
                } else {
                    String::new()
                },
                ..Point::default()
            }
        })
        .collect();
    Series {
        name,
        color,
        points,
    }
}

/// Each series' largest category against its smallest, in words: ` p95 grows 15.8x from Tiny
/// to Very long (vLLM).`
fn scaling_factors(series: &[Series], names: &[String], stat: Stat) -> String {
    let sentences: Vec<String> = series
        .iter()
        .filter_map(|s| {
            let mut present = s.points.iter().filter_map(|p| Some((p.x, p.y?)));
            let (first_x, first) = present.next()?;
            let (last_x, last) = present.next_back()?;
            (first > 0.0).then(|| {
                format!(
                    "{stat} grows {}x from {} to {} ({})",
                    format::fixed(last / first, 1),
                    names[first_x as usize],
                    names[last_x as usize],
                    s.name
                )
            })
        })
        .collect();
    if sentences.is_empty() {
        String::new()
    } else {
        format!(" {}.", sentences.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::Categories;
    use crate::chart::ChartKind;
    use crate::report::charts::chart_on;

    /// Seven requests, one per category and two more in Short, and one that failed: total tokens
    /// 30, 100, 120, 140, 200, 400 and 600.
    const RUN: &str = r#"{"date": "20250301-101010", "backend": "vllm", "model_id": "m",
        "request_rate": 4.0, "completed": 7, "failed": 1, "duration": 10.0,
        "input_lens": [20, 60, 70, 80, 100, 200, 300, 900],
        "output_lens": [10, 40, 50, 60, 100, 200, 300, 0],
        "ttfts": [0.02, 0.03, 0.03, 0.03, 0.04, 0.05, 0.06, 0.0],
        "latencies": [0.279, 0.80, 0.85, 0.90, 1.817, 2.544, 4.396, 0.0],
        "errors": ["", "", "", "", "", "", "", "Timeout"]}"#;

    #[test]
    fn requests_fall_in_seed_004s_categories_with_the_scaling_factor() {
        let spec = chart_on("vllm/t.json", RUN, "kind: lengths\nload: 4").unwrap();
        let ChartKind::GroupedBars { categories } = &spec.kind else {
            panic!("{:?}", spec.kind)
        };
        assert_eq!(
            categories,
            &[
                "Tiny (< 50)",
                "Short (50–150)",
                "Medium (150–300)",
                "Long (300–500)",
                "Very long (500+)"
            ]
        );
        let ys: Vec<Option<f64>> = spec.series[0].points.iter().map(|p| p.y).collect();
        assert_eq!(ys[0], Some(279.0));
        assert!(
            (ys[1].unwrap() - 895.0).abs() < 1e-6,
            "p95 of 800, 850, 900: {ys:?}"
        );
        assert_eq!(
            ys[4],
            Some(4396.0),
            "the failed 900-token request is left out"
        );
        assert!(spec.series[0].points[1].source.ends_with("(3 requests)"));
        assert!(
            spec.caption
                .ends_with(" p95 grows 15.8x from Tiny to Very long (vllm)."),
            "{}",
            spec.caption
        );
        assert_eq!(spec.y.title, "End-to-end latency p95");
        let median = spec
            .alternatives
            .iter()
            .find(|a| a.label == "median")
            .unwrap();
        assert_eq!(median.series[0].points[1].y, Some(850.0));
    }

    #[test]
    fn categories_of_ones_own_and_by_output_tokens() {
        let spec = chart_on(
            "vllm/t.json",
            RUN,
            "kind: lengths\nload: 4\ntokens: output\ncategories: [100]",
        )
        .unwrap();
        let ChartKind::GroupedBars { categories } = &spec.kind else {
            panic!()
        };
        assert_eq!(categories, &["< 100", "100+"]);
        assert_eq!(
            spec.series[0].points[1].source.split('(').next_back(),
            Some("3 requests)")
        );
        // By hand: p95 of 279, 800, 850, 900 is 892.5; of 1,817, 2,544, 4,396 it is 4,210.8.
        assert!(
            spec.caption.contains("grows 4.7x from < 100 to 100+"),
            "{}",
            spec.caption
        );
        let empty = chart_on(
            "vllm/t.json",
            RUN,
            "kind: lengths\nload: 4\ncategories: [10, 20]",
        )
        .unwrap();
        let ChartKind::GroupedBars { categories } = &empty.kind else {
            panic!()
        };
        assert_eq!(
            categories,
            &["20+"],
            "categories no request falls in are left out"
        );
        assert!(
            empty.caption.ends_with(" No request fell in < 10, 10–20."),
            "{}",
            empty.caption
        );
    }

    #[test]
    fn bad_categories_and_tokens_are_errors_naming_what_is_expected() {
        assert!(Categories::parse(Some(&[150.0, 50.0])).is_err());
        assert!(Categories::parse(Some(&[])).is_err());
        assert!(Categories::parse(Some(&[-1.0])).is_err());
        let problems =
            chart_on("vllm/t.json", RUN, "kind: lengths\nload: 4\ntokens: words").unwrap_err();
        assert!(problems[0].contains("`total`"), "{problems:?}");
    }
}
