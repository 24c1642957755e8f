//! `window(<stat>, <configuration>, <load>, <which>[, <seconds>])`: one number from a run's
//! time windows, as a `windows` chart cuts them (seed 003's distributions over time), so prose
//! can say what the boxes show: the typical window's p95, the low and the high mode, how fast
//! the slowest window still ran, how slow the first one (warm-up) was.
//!
//! `stat` is the chart's: `p50`, `p90`, `p95`, `p99` (of end-to-end latency, ms) or `tok_s`
//! (the median output tokens per second of a window's requests). `which` is `median` (of the
//! windows' values, the chart's "median window"), `min`, `max`, `first`, `last` or `slowest`
//! (the window with the highest end-to-end p95, whose `stat` is given). Windows are the width
//! a windows chart of the run alone takes, or `seconds`.

use super::computed::{Computed, ValueNoise};
use super::parse::Expr;
use crate::analysis::BoxStats;
use crate::format;
use crate::report::charts::{quoted_windows, QuotedWindow};
use crate::report::context::ReportContext;

/// Which window (or summary of windows) to give.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Which {
    Median,
    Min,
    Max,
    First,
    Last,
    Slowest,
}

impl Which {
    fn parse(word: &str) -> Result<Which, String> {
        Ok(match word.trim() {
            "median" => Which::Median,
            "min" => Which::Min,
            "max" => Which::Max,
            "first" => Which::First,
            "last" => Which::Last,
            "slowest" => Which::Slowest,
            other => {
                return Err(format!(
                    "`{other}`: expected which window: median, min, max, first, last or slowest"
                ))
            }
        })
    }

    /// The window it picks among `windows` (none for the median, which is of them all).
    fn pick(self, windows: &[QuotedWindow]) -> Option<&QuotedWindow> {
        let with_value = || windows.iter().filter(|w| w.value.is_some());
        let by = |f: fn(&QuotedWindow) -> Option<f64>| {
            move |a: &&QuotedWindow, b: &&QuotedWindow| {
                f(a).unwrap_or(f64::NEG_INFINITY)
                    .total_cmp(&f(b).unwrap_or(f64::NEG_INFINITY))
            }
        };
        match self {
            Which::Median => None,
            Which::Min => with_value().min_by(by(|w| w.value)),
            Which::Max => with_value().max_by(by(|w| w.value)),
            Which::First => with_value().next(),
            Which::Last => with_value().next_back(),
            Which::Slowest => with_value().max_by(by(|w| w.p95)),
        }
    }
}

/// `window(stat, configuration, load, which[, seconds])`.
pub(super) fn window(ctx: &ReportContext<'_>, args: &[Expr]) -> Result<Computed, String> {
    let usage = "expected `window(<p50|p90|p95|p99|tok_s>, <configuration>, <load>, \
                 <median|min|max|first|last|slowest>)`, optionally with the window's \
                 seconds after";
    let words = super::parse::words(args, usage)?;
    let (stat, config, load, which, width) = match words.as_slice() {
        [s, c, l, w] => (*s, *c, *l, *w, None),
        [s, c, l, w, seconds] => {
            let width: f64 = seconds
                .trim()
                .trim_end_matches('s')
                .trim()
                .parse()
                .map_err(|_| format!("`{seconds}`: expected the window's width in seconds"))?;
            (*s, *c, *l, *w, Some(width))
        }
        _ => return Err(usage.into()),
    };
    let which = Which::parse(which)?;
    let run = super::lookup::run_at_load(ctx, config, load)?;
    let quoted = quoted_windows(run, stat, width)?;
    let values: Vec<f64> = quoted.windows.iter().filter_map(|w| w.value).collect();
    let name = ctx.display(config).0;
    let of_run = format!(
        "{} windows of {} s of {name} at {} ({})",
        quoted.windows.len(),
        format::number(quoted.width),
        run.load.target,
        run.source()
    );
    let (value, source) = match which.pick(&quoted.windows) {
        None => {
            let b = BoxStats::from_samples(&values)
                .ok_or_else(|| format!("no window of `{config}` has a {stat}"))?;
            (b.median, format!("{}, the median of {of_run}", quoted.name))
        }
        Some(w) => {
            let value = w
                .value
                .ok_or_else(|| format!("that window has no {stat}"))?;
            let why = match which {
                Which::Slowest => " (the highest end-to-end p95)",
                _ => "",
            };
            (
                value,
                format!(
                    "{} of the window {}–{} s{why}, {} requests; one of {of_run}",
                    quoted.name,
                    format::number(w.start_s),
                    format::number(w.start_s + quoted.width),
                    w.requests
                ),
            )
        }
    };
    Ok(Computed {
        is_number: true,
        priced: None,
        value,
        text: format::with_unit(value, quoted.unit),
        unit: quoted.unit.to_string(),
        source,
        noise: ValueNoise::default(),
    })
}
