//! ```` ```chart ```` `kind: windows`: distributions over time (seed 003). Each run's requests
//! are put in fixed windows by their start time, and each window gives one value: a latency
//! percentile of its requests, or the median of their tokens per second. A box per
//! configuration spreads those values, so a run that switches between a normal and a stressed
//! regime shows it where its overall percentile would show one number. With `x: tok_s` each
//! window is a point instead, its median tokens per second against its latency percentile: the
//! trade-off per model of seed 003's graph D.
//!
//! Keys: `stat` (`p50`, `p90`, `p95` (default), `p99` or `tok_s`), `metric` (the latency:
//! `e2e`, `ttft` or `tpot`), `window` (seconds; by default a round width giving about twenty
//! windows), `load` (one load point; without it every load point is a category of boxes, or
//! the run must be the configuration's only one for `x: tok_s`), `x: tok_s` and `configs`.

use super::call::ChartCall;
use crate::analysis::token_fit::latency_metric;
use crate::analysis::windows::{auto_width, summarised, windows, Requests, Window, MIN_REQUESTS};
use crate::analysis::BoxStats;
use crate::chart::Alternative;
use crate::chart::{box_chart, box_point, Axis, ChartKind, ChartSpec, Point, Series};
use crate::format;
use crate::model::{Metric, Run, Stat};
use crate::quantity::Quantity;
use crate::report::context::ReportContext;

/// What each window gives.
#[derive(Debug, Clone, Copy, PartialEq)]
enum WindowStat {
    /// A percentile (0 to 100) of the latency of its successful requests.
    Latency(f64),
    /// The median of its successful requests' output tokens per second.
    TokensPerSecond,
}

/// The latency percentiles a reader can switch between.
const CHOICES: [f64; 4] = [50.0, 90.0, 95.0, 99.0];

impl WindowStat {
    fn parse(text: Option<&str>) -> Result<WindowStat, String> {
        let text = text.map(|t| t.trim().to_ascii_lowercase());
        match text.as_deref() {
            None => Ok(WindowStat::Latency(95.0)),
            Some("tok_s") => Ok(WindowStat::TokensPerSecond),
            Some("median") => Ok(WindowStat::Latency(50.0)),
            Some(other) => other
                .strip_prefix('p')
                .and_then(|p| p.parse::<f64>().ok())
                .filter(|p| (0.0..=100.0).contains(p))
                .map(WindowStat::Latency)
                .ok_or_else(|| {
                    format!(
                        "`stat: {other}`: each window gives a latency percentile (p50, p90, p95, \
                         p99) or `tok_s`, its median output tokens per second"
                    )
                }),
        }
    }

    fn of(self, window: &Window) -> Option<f64> {
        match self {
            WindowStat::Latency(p) => window.latency(p / 100.0),
            WindowStat::TokensPerSecond => window.tok_s,
        }
    }

    fn name(self, metric: Metric) -> String {
        match self {
            WindowStat::Latency(p) => Quantity::Latency {
                metric,
                stat: Stat::P(p),
            }
            .to_string(),
            WindowStat::TokensPerSecond => "Median output tokens/s per request".to_string(),
        }
    }

    /// The name inside a sentence: `end-to-end latency p95`, `TTFT p95`.
    fn phrase(self, metric: Metric) -> String {
        let name = self.name(metric);
        let mut chars = name.chars();
        match (chars.next(), chars.next()) {
            (Some(first), Some(second)) if second.is_lowercase() => {
                first.to_lowercase().chain(name.chars().skip(1)).collect()
            }
            _ => name,
        }
    }

    fn axis(self, metric: Metric) -> Axis {
        match self {
            WindowStat::Latency(_) => Axis::new(self.name(metric), "ms"),
            WindowStat::TokensPerSecond => Axis::new(self.name(metric), "tok/s"),
        }
    }
}

/// One window as an inline value quotes it (`window(…)` in `report/values/window.rs`).
pub(in crate::report) struct QuotedWindow {
    /// Start, seconds from the run's first request.
    pub start_s: f64,
    /// Requests that started in it.
    pub requests: usize,
    /// Its value of the statistic asked for.
    pub value: Option<f64>,
    /// Its end-to-end p95, by which `slowest` ranks windows.
    pub p95: Option<f64>,
}

/// What [`quoted_windows`] gives: the windows in time order, their width, the statistic's
/// unit and its name (`End-to-end latency p95`).
pub(in crate::report) struct Quoted {
    pub windows: Vec<QuotedWindow>,
    pub width: f64,
    pub unit: &'static str,
    pub name: String,
}

/// `run`'s windows of end-to-end latency as a windows chart cuts them, `width` seconds wide (by
/// default the width such a chart of this run alone takes), each with its `stat` (`p50`, `p90`,
/// `p95`, `p99` or `tok_s`, as the chart's `stat`).
pub(in crate::report) fn quoted_windows(
    run: &Run,
    stat: &str,
    width: Option<f64>,
) -> Result<Quoted, String> {
    let value = WindowStat::parse(Some(stat))?;
    let width = width.unwrap_or_else(|| width_for(std::iter::once(run)));
    if !(width.is_finite() && width > 0.0) {
        return Err(format!(
            "a window of {width} s: expected a positive number of seconds"
        ));
    }
    let cut = windowed(run, Metric::E2e, width)?;
    require_full_windows(std::iter::once(&cut), width)?;
    let windows = cut
        .windows
        .iter()
        .map(|w| QuotedWindow {
            start_s: w.start_s,
            requests: w.requests,
            value: value.of(w),
            p95: w.latency(0.95),
        })
        .collect();
    Ok(Quoted {
        windows,
        width,
        unit: match value {
            WindowStat::Latency(_) => "ms",
            WindowStat::TokensPerSecond => "tok/s",
        },
        name: value.name(Metric::E2e),
    })
}

/// One configuration's windows at one load point.
struct Windowed<'a> {
    run: &'a Run,
    windows: Vec<Window>,
    /// Windows left out for having fewer than [`MIN_REQUESTS`] successful requests.
    sparse: usize,
}

/// Box plots of per-window values, or the per-window trade-off scatter with `x: tok_s`.
pub(super) fn windows_chart(
    ctx: &ReportContext<'_>,
    c: ChartCall<'_>,
) -> Result<ChartSpec, String> {
    let d = c.d;
    let metric = latency_metric(d.metric.as_deref())?;
    let value = WindowStat::parse(d.stat.as_deref())?;
    if let Some(width) = d.window {
        if !(width.is_finite() && width > 0.0) {
            return Err(format!(
                "`window: {width}`: a window is a positive number of seconds"
            ));
        }
    }
    match d.x.as_deref().map(str::trim) {
        None => window_boxes(ctx, c, metric, value),
        Some("tok_s") => window_tradeoff(ctx, c, metric, value),
        Some(other) => Err(format!(
            "`x: {other}`: a windows chart sets each window's latency against `tok_s`, or \
             has no `x` for box plots"
        )),
    }
}

/// `run` of configuration `key`, when it has one, checked for per-request start times and
/// per-request values of `metric`.
fn timed_run<'a>(
    key: &str,
    run: Option<&'a Run>,
    metric: Metric,
    needs_tokens: bool,
) -> Result<Option<&'a Run>, String> {
    let Some(run) = run else {
        return Ok(None);
    };
    if needs_tokens && run.samples.is_none() && !run.slices.is_empty() {
        return Err(format!(
            "configuration `{key}`: its tool's time slices ({}) carry no tokens per second of \
             each request, which `tok_s` is made of; draw a latency percentile of its slices",
            run.source()
        ));
    }
    let timed = run.samples.as_ref().is_some_and(|s| {
        s.start_s.iter().any(|t| t.is_finite())
            && s.latencies(metric).is_some_and(|v| !v.is_empty())
    });
    let sliced = run.slices.iter().any(|s| s.latency_of(metric).is_some());
    if !(timed || sliced) {
        return Err(format!(
            "configuration `{key}` has no per-request start times with {} in {}; windows \
             need a tool that records when each request started (vLLM's --save-detailed \
             `start_times`, GuideLLM's requests) or cuts the run into time slices itself \
             (AIPerf's `--slice-duration`)",
            metric.label(),
            run.source()
        ));
    }
    Ok(Some(run))
}

/// Each configuration's time windows as boxes of `value` (one box per window of a run).
fn window_boxes(
    ctx: &ReportContext<'_>,
    c: ChartCall<'_>,
    metric: Metric,
    value: WindowStat,
) -> Result<ChartSpec, String> {
    let ChartCall { id, d, keys } = c;
    let loads = match &d.load {
        Some(_) => Vec::new(),
        None => ctx.loads_of(keys),
    };
    let tokens = value == WindowStat::TokensPerSecond;
    // Per configuration, its run at each category (one category with `load:`).
    let mut grid: Vec<(&String, Vec<Option<&Run>>)> = Vec::new();
    for key in keys {
        let runs = if d.load.is_some() {
            let run = ctx.run_at(key, d.load.as_ref())?;
            vec![timed_run(key, run, metric, tokens)?]
        } else {
            let runs = ctx.runs_of(key);
            loads
                .iter()
                .map(|load| {
                    timed_run(
                        key,
                        runs.iter().copied().find(|r| r.load.target == *load),
                        metric,
                        tokens,
                    )
                })
                .collect::<Result<_, _>>()?
        };
        grid.push((key, runs));
    }
    let width = d.window.unwrap_or_else(|| {
        width_for(
            grid.iter()
                .flat_map(|(_, runs)| runs.iter().flatten().copied()),
        )
    });
    let windowed: Vec<Vec<Option<Windowed<'_>>>> = grid
        .iter()
        .map(|(_, runs)| {
            runs.iter()
                .map(|r| r.map(|r| windowed(r, metric, width)).transpose())
                .collect::<Result<_, _>>()
        })
        .collect::<Result<_, _>>()?;
    require_full_windows(windowed.iter().flatten().flatten(), width)?;
    let categories: Vec<String> = match &d.load {
        Some(_) => {
            let first = windowed.iter().flatten().flatten().next();
            vec![first.map_or_else(String::new, |w| w.run.load.target.to_string())]
        }
        None => loads.iter().map(ToString::to_string).collect(),
    };
    let series_of = |value: WindowStat| -> Vec<Series> {
        grid.iter()
            .zip(&windowed)
            .map(|((key, _), cells)| {
                let (name, color) = ctx.display(key);
                let points = cells
                    .iter()
                    .enumerate()
                    .map(|(i, cell)| window_box(i, cell.as_ref(), value))
                    .collect();
                Series {
                    name,
                    color,
                    points,
                }
            })
            .collect()
    };
    let mut spec = box_chart(id, "", value.axis(metric), categories.clone(), &[]);
    spec.series = series_of(value);
    if matches!(value, WindowStat::Latency(_)) {
        spec.alternatives = CHOICES
            .iter()
            .map(|&p| Alternative {
                label: format!("p{}", format::number(p)),
                y_title: WindowStat::Latency(p).name(metric),
                series: series_of(WindowStat::Latency(p)),
            })
            .collect();
    }
    spec.title = format!(
        "{} per {} s window",
        value.name(metric),
        format::number(width)
    );
    spec.caption = box_caption(&windowed, &grid, width, value, metric, |k| ctx.display(k).0);
    Ok(spec)
}

/// Each window's throughput against its latency percentile, one dot per window.
fn window_tradeoff(
    ctx: &ReportContext<'_>,
    c: ChartCall<'_>,
    metric: Metric,
    value: WindowStat,
) -> Result<ChartSpec, String> {
    let ChartCall { id, d, keys } = c;
    let WindowStat::Latency(_) = value else {
        return Err("`x: tok_s` sets tokens per second against a latency percentile; give `stat: p95` (or p50, p90, p99)".to_string());
    };
    let mut runs = Vec::new();
    for key in keys {
        if let Some(run) = timed_run(key, ctx.run_at(key, d.load.as_ref())?, metric, true)? {
            runs.push((key, run));
        }
    }
    let width = d
        .window
        .unwrap_or_else(|| width_for(runs.iter().map(|(_, r)| *r)));
    let windowed: Vec<Windowed<'_>> = runs
        .iter()
        .map(|(_, r)| windowed(r, metric, width))
        .collect::<Result<_, _>>()?;
    require_full_windows(windowed.iter(), width)?;
    let mut series = Vec::new();
    let mut sparse = 0;
    for ((key, run), w) in runs.iter().zip(windowed) {
        sparse += w.sparse;
        let (name, color) = ctx.display(key);
        let source = run.source();
        let points = w
            .windows
            .iter()
            .filter_map(|window| {
                Some(Point {
                    x: window.tok_s?,
                    y: value.of(window),
                    source: source.clone(),
                    note: window_note(window, width),
                    ..Point::default()
                })
            })
            .collect();
        series.push(Series {
            name,
            color,
            points,
        });
    }
    let at = runs
        .first()
        .map(|(_, run)| format!(" at {}", run.load.target))
        .unwrap_or_default();
    Ok(ChartSpec {
        id: id.to_string(),
        title: format!(
            "Tokens per second against {} per {} s window",
            value.name(metric),
            format::number(width)
        ),
        caption: format!(
            "Each point is one {}-second window of a run{at}: the median output tokens per \
             second of the requests that started in it against their {}. Right and low is \
             better; a configuration whose points spread up and to the left falls into a \
             degraded regime.{}",
            format::number(width),
            value.phrase(metric),
            sparse_note(sparse)
        ),
        kind: ChartKind::Scatter,
        x: WindowStat::TokensPerSecond.axis(metric),
        y: value.axis(metric),
        series,
        annotations: Vec::new(),
        alternatives: Vec::new(),
    })
}

/// The run's windows of `width` seconds for `metric`; an error naming the run when it would need
/// more than `MAX_WINDOWS`.
fn windowed(run: &Run, metric: Metric, width: f64) -> Result<Windowed<'_>, String> {
    if let (None, Some(slice)) = (&run.samples, run.slices.first()) {
        if (slice.width_s - width).abs() > 1e-9 * width {
            return Err(format!(
                "{}: its tool cut the run into {} s slices, which cannot be cut again; give \
                 `window: {}` or leave `window` out",
                run.source(),
                format::number(slice.width_s),
                format::number(slice.width_s)
            ));
        }
        let (windows, sparse) = summarised(&run.slices, metric);
        return Ok(Windowed {
            run,
            windows,
            sparse,
        });
    }
    let Some(samples) = &run.samples else {
        return Ok(Windowed {
            run,
            windows: Vec::new(),
            sparse: 0,
        });
    };
    let requests = Requests {
        starts: &samples.start_s,
        ok: &samples.ok,
        latency_ms: samples.latencies(metric).unwrap_or_default(),
        output_tokens: &samples.output_tokens,
        e2e_ms: &samples.e2e_ms,
    };
    let (windows, sparse) =
        windows(&requests, width).map_err(|too_many| format!("{}: {too_many}", run.source()))?;
    Ok(Windowed {
        run,
        windows,
        sparse,
    })
}

/// An error when no run has a window with enough requests to summarise.
fn require_full_windows<'a, 'r: 'a>(
    runs: impl Iterator<Item = &'a Windowed<'r>>,
    width: f64,
) -> Result<(), String> {
    let mut sliced = false;
    for w in runs {
        if !w.windows.is_empty() {
            return Ok(());
        }
        sliced |= w.run.samples.is_none() && !w.run.slices.is_empty();
    }
    let wider = if sliced {
        "the tool's slices cannot be widened here: run AIPerf again with a longer \
         `--slice-duration`"
    } else {
        "give a wider `window`"
    };
    Err(format!(
        "every {}-second window has fewer than {MIN_REQUESTS} successful requests; {wider}",
        format::number(width)
    ))
}

/// The automatic width for `runs`: the widest any of them needs; where a run was cut into
/// slices by its tool, their width, which the other runs are cut at too (the slices cannot be
/// cut again).
fn width_for<'a>(runs: impl Iterator<Item = &'a Run> + Clone) -> f64 {
    let sliced = runs
        .clone()
        .find_map(|run| run.samples.is_none().then(|| run.slices.first()).flatten());
    if let Some(slice) = sliced {
        return slice.width_s;
    }
    runs.map(|run| {
        let starts = run
            .samples
            .as_ref()
            .map_or(&[][..], |s| s.start_s.as_slice());
        let span = starts
            .iter()
            .copied()
            .filter(|t| t.is_finite())
            .fold(0.0, f64::max);
        auto_width(span, starts.len())
    })
    .fold(0.0, f64::max)
}

/// Category `i`'s box of a configuration's per-window values, with each window as a dot.
fn window_box(i: usize, cell: Option<&Windowed<'_>>, value: WindowStat) -> Point {
    let values: Vec<f64> = cell
        .map(|w| w.windows.iter().filter_map(|x| value.of(x)).collect())
        .unwrap_or_default();
    let source = cell.map_or_else(String::new, |w| {
        format!("{} ({} windows)", w.run.source(), values.len())
    });
    let mut point = box_point(i, BoxStats::from_samples(&values), &source);
    if cell.is_none() {
        point.note = "no run at this load".to_string();
    }
    point.values = values;
    point
}

/// `window 40–50 s: 23 requests (1 failed)`.
fn window_note(window: &Window, width: f64) -> String {
    let failed = window.requests - window.succeeded;
    let failed = if failed > 0 {
        format!(" ({failed} failed)")
    } else {
        String::new()
    };
    format!(
        "window {}–{} s: {} requests{failed}",
        format::number(window.start_s),
        format::number(window.start_s + width),
        window.requests
    )
}

/// The caption's words for the windows left out for too few requests.
fn sparse_note(sparse: usize) -> String {
    match sparse {
        0 => String::new(),
        1 => format!(" One window with fewer than {MIN_REQUESTS} successful requests is left out."),
        n => {
            format!(" {n} windows with fewer than {MIN_REQUESTS} successful requests are left out.")
        }
    }
}

/// What the boxes show, and each configuration's range in words.
fn box_caption(
    windowed: &[Vec<Option<Windowed<'_>>>],
    grid: &[(&String, Vec<Option<&Run>>)],
    width: f64,
    value: WindowStat,
    metric: Metric,
    name_of: impl Fn(&str) -> String,
) -> String {
    let unit = if value == WindowStat::TokensPerSecond {
        "tok/s"
    } else {
        "ms"
    };
    let ranges: Vec<String> = grid
        .iter()
        .zip(windowed)
        .filter_map(|((key, _), cells)| {
            let values: Vec<f64> = cells
                .iter()
                .flatten()
                .flat_map(|w| w.windows.iter().filter_map(|x| value.of(x)))
                .collect();
            let b = BoxStats::from_samples(&values)?;
            Some(format!(
                "{} from {} to {} (median window {})",
                name_of(key),
                format::with_unit(b.min, unit),
                format::with_unit(b.max, unit),
                format::with_unit(b.median, unit)
            ))
        })
        .collect();
    let sparse: usize = windowed.iter().flatten().flatten().map(|w| w.sparse).sum();
    let sliced = windowed
        .iter()
        .flatten()
        .flatten()
        .any(|w| w.run.samples.is_none() && !w.run.slices.is_empty());
    let whose = if sliced {
        "as the tool summarised each of its time slices"
    } else {
        "over the requests that started in it"
    };
    format!(
        "Each box spreads the {}-second windows of a run: each window's {} {whose}, one dot per \
         window. Two clusters of dots mean the run switched between regimes. {}.{}",
        format::number(width),
        value.phrase(metric),
        ranges.join("; "),
        sparse_note(sparse)
    )
}

#[cfg(test)]
mod tests {
    use crate::chart::ChartKind;
    use crate::report::charts::chart_on;

    /// Twenty requests at 4 req/s, started 0.5 s apart on a clock that reads 100 s at the first:
    /// the first ten take 1 s for 100 tokens, the last ten 4 s (one of them failed).
    fn run(with_starts: bool) -> String {
        let starts: Vec<String> = (0..20)
            .map(|i| format!("{}", 100.0 + i as f64 * 0.5))
            .collect();
        let latency: Vec<&str> = (0..20)
            .map(|i| if i < 10 { "1.0" } else { "4.0" })
            .collect();
        let errors: Vec<&str> = (0..20)
            .map(|i| if i == 19 { "\"Timeout\"" } else { "\"\"" })
            .collect();
        let starts = if with_starts {
            format!(", \"start_times\": [{}]", starts.join(", "))
        } else {
            String::new()
        };
        format!(
            r#"{{"date": "20250301-101010", "backend": "vllm", "model_id": "m",
            "request_rate": 4.0, "completed": 19, "failed": 1, "duration": 10.0,
            "input_lens": [{inputs}], "output_lens": [{outputs}], "ttfts": [{ttfts}],
            "latencies": [{latency}], "errors": [{errors}]{starts}}}"#,
            inputs = vec!["50"; 20].join(", "),
            outputs = vec!["100"; 20].join(", "),
            ttfts = vec!["0.1"; 20].join(", "),
            latency = latency.join(", "),
            errors = errors.join(", "),
        )
    }

    #[test]
    fn a_box_spreads_the_windows_of_a_run_that_switched_regime() {
        let spec = chart_on(
            "vllm/t.json",
            &run(true),
            "kind: windows\nwindow: 5\nload: 4",
        )
        .unwrap();
        let ChartKind::Box { categories } = &spec.kind else {
            panic!("{:?}", spec.kind)
        };
        assert_eq!(categories, &["4 req/s"]);
        let b = spec.series[0].points[0].summary.unwrap();
        assert_eq!((b.min, b.max, b.count), (1000.0, 4000.0, Some(2)));
        assert_eq!(
            spec.series[0].points[0].values,
            [1000.0, 4000.0],
            "each window a dot"
        );
        assert_eq!(spec.title, "End-to-end latency p95 per 5 s window");
        assert!(
            spec.caption
                .contains("m from 1,000 ms to 4,000 ms (median window 2,500 ms)"),
            "{}",
            spec.caption
        );
        assert_eq!(spec.alternatives.len(), 4);
        let tok = chart_on(
            "vllm/t.json",
            &run(true),
            "kind: windows\nwindow: 5\nload: 4\nstat: tok_s",
        )
        .unwrap();
        let b = tok.series[0].points[0].summary.unwrap();
        assert_eq!((b.min, b.max), (25.0, 100.0));
        assert_eq!(tok.y.unit, "tok/s");
        assert!(tok.alternatives.is_empty());
    }

    #[test]
    fn the_tradeoff_puts_each_window_at_its_tokens_per_second_and_latency() {
        let spec = chart_on(
            "vllm/t.json",
            &run(true),
            "kind: windows\nwindow: 5\nx: tok_s",
        )
        .unwrap();
        assert_eq!(spec.kind, ChartKind::Scatter);
        let points: Vec<(f64, Option<f64>, &str)> = spec.series[0]
            .points
            .iter()
            .map(|p| (p.x, p.y, p.note.as_str()))
            .collect();
        assert_eq!(
            points,
            [
                (100.0, Some(1000.0), "window 0–5 s: 10 requests"),
                (25.0, Some(4000.0), "window 5–10 s: 10 requests (1 failed)")
            ]
        );
        assert_eq!(spec.x.better, None, "windows have no frontier to draw");
    }

    #[test]
    fn too_few_requests_a_width_of_ones_own_and_the_automatic_one() {
        let spec = chart_on(
            "vllm/t.json",
            &run(true),
            "kind: windows\nwindow: 3\nload: 4",
        )
        .unwrap();
        assert!(
            spec.caption
                .ends_with(" One window with fewer than 5 successful requests is left out."),
            "{}",
            spec.caption
        );
        let e = chart_on(
            "vllm/t.json",
            &run(true),
            "kind: windows\nwindow: 1\nload: 4",
        )
        .unwrap_err();
        assert!(
            e[0].contains("every 1-second window has fewer than 5"),
            "{e:?}"
        );
        let auto = chart_on("vllm/t.json", &run(true), "kind: windows\nload: 4").unwrap();
        assert_eq!(auto.title, "End-to-end latency p95 per 5 s window");
    }

    #[test]
    fn a_window_count_over_the_limit_is_an_error_at_the_blocks_line() {
        let e = chart_on(
            "vllm/t.json",
            &run(true),
            "kind: windows\nwindow: 1e-300\nload: 4",
        )
        .unwrap_err();
        assert!(
            e[0].starts_with("reports/r.md:7") && e[0].contains("the limit is 10000 windows"),
            "{e:?}"
        );
        // One start time far from the others (1e12 s) with the automatic width.
        let far = run(true).replace("109.5]", "1000000000000]");
        assert!(far.contains("1000000000000]"));
        let e = chart_on("vllm/t.json", &far, "kind: windows\nload: 4").unwrap_err();
        assert!(
            e[0].contains("vllm/t.json") && e[0].contains("the limit is 10000 windows"),
            "{e:?}"
        );
    }

    #[test]
    fn missing_start_times_and_bad_keys_are_errors_naming_what_is_expected() {
        let e = chart_on("vllm/t.json", &run(false), "kind: windows\nload: 4").unwrap_err();
        assert!(
            e[0].contains("no per-request start times with End-to-end latency in vllm/t.json"),
            "{e:?}"
        );
        for (body, expected) in [
            ("window: 0", "a window is a positive number of seconds"),
            ("stat: p95x", "`stat: p95x`: each window gives"),
            ("x: p95", "`x: p95`: a windows chart"),
            (
                "x: tok_s\nstat: tok_s",
                "`x: tok_s` sets tokens per second against a latency",
            ),
        ] {
            let e = chart_on(
                "vllm/t.json",
                &run(true),
                &format!("kind: windows\nload: 4\n{body}"),
            )
            .unwrap_err();
            assert!(e[0].contains(expected), "{body}: {e:?}");
        }
    }
}
