//! `benchdeck history PATH... [--json] [--since DATE]`: when did a metric change, and what
//! changed? Dated runs grouped by configuration and load point, each metric's change points
//! with the level before and after (95% intervals, nights as the units) and what differs
//! between the runs on either side, the single bad nights, and the newest night against the
//! current level (`benchdeck_core::history`). Exit status 0, or 2 when an input cannot be read;
//! `compare --history` is the gate.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use benchdeck_core::history::change_points::Settings;
use benchdeck_core::history::{self, History, Options, Verdict};
use benchdeck_core::model::Run;
use benchdeck_core::printable::printable;
use benchdeck_core::versus;

use crate::results::read_side;

/// Arguments of `history`.
#[derive(clap::Args)]
pub struct Args {
    /// Result files or folders of dated runs (a date in the file, or in its path:
    /// `results/nightly/2026-11-01/…`).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print JSON (`benchdeck-history/1`) instead of text.
    #[arg(long)]
    json: bool,
    /// Only runs of this day or later (`YYYY-MM-DD`).
    #[arg(long, value_name = "DATE")]
    since: Option<String>,
    /// The metrics, comma-separated, as `compare --metric`. Default: TTFT p50 and p99, TPOT
    /// (or ITL) p50 and p99, end-to-end p50, output throughput, success rate.
    #[arg(long, value_name = "LIST")]
    metric: Option<String>,
    /// The smallest change (in percent of the level before) that counts as a change.
    #[arg(long, default_value_t = 5.0, value_name = "PERCENT")]
    min_change: f64,
}

/// Runs `history`.
pub fn execute(args: &Args) -> Result<ExitCode> {
    let options = options(args)?;
    let paths: Vec<&PathBuf> = args.paths.iter().collect();
    let files = read_side("history", &paths)?;
    let runs: Vec<&Run> = files.iter().flat_map(|f| &f.runs).collect();
    let history = history::read(&runs, &options);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&history)?);
    } else {
        print!("{}", text(&history));
    }
    Ok(ExitCode::SUCCESS)
}

/// The options `args` ask for, each checked.
pub fn options(args: &Args) -> Result<Options> {
    if let Some(since) = &args.since {
        if !benchdeck_core::date::is_day(since) {
            bail!("--since {since}: expected a day as YYYY-MM-DD, such as 2026-11-01");
        }
    }
    Ok(Options {
        metrics: metrics(args.metric.as_deref())?,
        since: args.since.clone(),
        settings: settings(args.min_change)?,
    })
}

/// The metrics of a `--metric` list, or the default ones.
pub fn metrics(list: Option<&str>) -> Result<Vec<benchdeck_core::quantity::Quantity>> {
    match list {
        Some(list) => versus::parse_metrics(list).map_err(anyhow::Error::msg),
        None => Ok(versus::DEFAULT_METRICS.to_vec()),
    }
}

/// The change-point settings with `--min-change`.
pub fn settings(min_change: f64) -> Result<Settings> {
    if !(min_change.is_finite() && (0.0..100.0).contains(&min_change)) {
        bail!("--min-change {min_change}: expected a percentage from 0 to 100, such as 5");
    }
    Ok(Settings {
        min_change: min_change / 100.0,
        ..Settings::default()
    })
}

/// The history as text: what was read, the change points with what changed, the outliers,
/// then the newest night of each series that is not as before.
fn text(history: &History) -> String {
    let mut out = format!(
        "benchdeck history: {} series, {} change point{}, {} outlier{}\n",
        history.series.len(),
        history.change_points.len(),
        benchdeck_core::format::plural(history.change_points.len()),
        history.outliers.len(),
        benchdeck_core::format::plural(history.outliers.len()),
    );
    if !history.undated.is_empty() {
        let _ = writeln!(
            out,
            "warning: {} run(s) without a date are left out: {}",
            history.undated.len(),
            printable(&history.undated.join(", "))
        );
    }
    if history.series.is_empty() {
        out.push_str("No metric has two dated runs of one configuration at one load.\n");
        return out;
    }
    for change in &history.change_points {
        let _ = writeln!(
            out,
            "\nchange: {} at {}\n  {}\n  what changed: {}\n  runs: {} → {}",
            printable(&change.config),
            change.load,
            printable(&change.text()),
            printable(&change.what_changed_text()),
            printable(&change.file_before),
            printable(&change.file),
        );
    }
    for outlier in &history.outliers {
        let _ = writeln!(
            out,
            "\noutlier: {} at {}\n  {}\n  run: {}",
            printable(&outlier.config),
            outlier.load,
            printable(&outlier.text()),
            printable(&outlier.file),
        );
    }
    let newest: Vec<String> = history
        .series
        .iter()
        .filter(|s| s.newest.verdict != Verdict::AsBefore)
        .map(|s| {
            format!(
                "  {} at {}, {}: {}",
                printable(&s.config),
                s.load,
                s.metric,
                s.newest.text(s.unit)
            )
        })
        .collect();
    if newest.is_empty() {
        out.push_str("\nThe newest night of every series is as before.\n");
    } else {
        let _ = writeln!(out, "\nnewest nights not as before:\n{}", newest.join("\n"));
    }
    out
}
