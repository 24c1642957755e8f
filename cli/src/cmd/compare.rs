//! `benchdeck compare BASE NEW`: did this change make serving slower? Each side is result files
//! or folders in any supported format; their runs are matched by configuration and load point
//! and each metric judged by `benchdeck_core::versus` (the site's rule: better, worse, or no
//! clear difference by the 95% interval of the change).
//!
//! Output: `--format text` (aligned, coloured on a terminal), `markdown` (GitHub-flavoured, for
//! `$GITHUB_STEP_SUMMARY` and pull request comments: worst regressions first, the rest folded)
//! or `json` (`benchdeck-compare/2`); `--chart DIR` writes an SVG and a PNG per metric.
//! Exit status: 0, or 1 with `--fail-on worse` when a metric is worse clearly, by more than
//! `--threshold` and beyond the family's noise (Holm), or 2 when an input cannot be read.

mod history_gate;
mod markdown;
mod options;
mod text;
mod words;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use benchdeck_core::import::ImportedFile;
use benchdeck_core::model::Run;
use benchdeck_core::versus::{self, Options, Outcome};

use crate::results::read_side;
pub use options::{FailOn, Format};

/// Arguments of `compare`.
#[derive(clap::Args)]
pub struct Args {
    /// The baseline: a result file or a folder (more with `--base`).
    base: Option<PathBuf>,
    /// The change under test: a result file or a folder (more with `--new`).
    new: Option<PathBuf>,
    /// More baseline files or folders.
    #[arg(long = "base", value_name = "PATH")]
    more_base: Vec<PathBuf>,
    /// More files or folders of the change.
    #[arg(long = "new", value_name = "PATH")]
    more_new: Vec<PathBuf>,
    /// The metrics to compare, comma-separated: `ttft:p95,tpot:p50,output_throughput`.
    /// Default: TTFT p50 and p99, TPOT (or ITL) p50 and p99, end-to-end p50, output
    /// throughput, success rate.
    #[arg(long, value_name = "LIST")]
    metric: Option<String>,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Exit with status 1 when a metric is worse: clearly (its 95% interval of the change
    /// excludes none), by more than `--threshold`, and beyond the noise of every metric judged
    /// at every load (Holm's correction keeps the chance that a comparison where nothing
    /// changed fails at 5% or less). A metric without an interval (noise unknown) never fails.
    #[arg(long, value_enum)]
    fail_on: Option<FailOn>,
    /// The change (in percent) a worse metric must exceed to fail `--fail-on worse`.
    #[arg(long, default_value_t = 5.0, value_name = "PERCENT")]
    threshold: f64,
    /// Also write an SVG and a PNG of base against new per metric into this folder.
    #[arg(long, value_name = "DIR")]
    chart: Option<PathBuf>,
    /// Judge the new results against the current level of a history of dated runs (a nightly
    /// folder) instead of one baseline: `compare --history results/nightly NEW`. Each metric
    /// against the range the nights since the last change point predict; `--threshold` is the
    /// smallest change that fails.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["more_base", "chart"])]
    history: Option<PathBuf>,
}

/// Runs `compare`. An unreadable input is an error (status 2, from `main`).
pub fn execute(args: &Args) -> Result<ExitCode> {
    if let Some(history) = &args.history {
        let new: Vec<&PathBuf> = args
            .base
            .iter()
            .chain(&args.new)
            .chain(&args.more_new)
            .collect();
        return history_gate::execute(&history_gate::GateArgs {
            history,
            new: &new,
            metric: args.metric.as_deref(),
            threshold: args.threshold,
            format: args.format,
            fail: args.fail_on == Some(FailOn::Worse),
        });
    }
    let options = Options {
        metrics: match &args.metric {
            Some(list) => versus::parse_metrics(list).map_err(anyhow::Error::msg)?,
            None => versus::DEFAULT_METRICS.to_vec(),
        },
        threshold_pct: threshold(args.threshold)?,
    };
    let base_paths: Vec<&PathBuf> = args.base.iter().chain(&args.more_base).collect();
    let new_paths: Vec<&PathBuf> = args.new.iter().chain(&args.more_new).collect();
    let base = read_side("base", &base_paths)?;
    let new = read_side("new", &new_paths)?;
    let runs = |files: &[ImportedFile]| -> Vec<Run> {
        files.iter().flat_map(|f| f.runs.iter().cloned()).collect()
    };
    let (base_runs, new_runs) = (runs(&base), runs(&new));
    let outcome = versus::compare(
        &base_runs.iter().collect::<Vec<_>>(),
        &new_runs.iter().collect::<Vec<_>>(),
        &options,
    );
    match args.format {
        Format::Text => print!(
            "{}",
            text::render(&outcome, std::io::stdout().is_terminal())
        ),
        Format::Markdown => print!("{}", markdown::render(&outcome)),
        Format::Json => println!("{}", serde_json::to_string_pretty(&outcome)?),
    }
    if let Some(dir) = &args.chart {
        write_charts(&outcome, dir)?;
    }
    Ok(if args.fail_on == Some(FailOn::Worse) && outcome.fails {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn threshold(value: f64) -> Result<f64> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        bail!("--threshold {value}: expected a percentage of 0 or more, such as 5")
    }
}

/// An SVG and a PNG per metric, named after it (`ttft-p99.svg`).
fn write_charts(outcome: &Outcome, dir: &Path) -> Result<()> {
    use benchdeck_core::chart::{self, DrawOptions};
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create `{}`", dir.display()))?;
    let raster = super::site::png::Rasterizer::new()?;
    let options = DrawOptions {
        legend: true,
        ..DrawOptions::default()
    };
    for spec in versus::charts(outcome) {
        let size = chart::export_size(&spec);
        let svg = chart::to_svg(&spec, size, &options)
            .with_context(|| format!("cannot draw the chart of {}", spec.title))?;
        let stem = dir.join(&spec.id);
        let svg_path = stem.with_extension("svg");
        std::fs::write(&svg_path, &svg)
            .with_context(|| format!("cannot write `{}`", svg_path.display()))?;
        raster.write(&svg, size.0 * 2, &stem.with_extension("png"), &spec.title)?;
    }
    Ok(())
}
