//! `benchdeck site`: build the site's data from `reports/` and `results/`.
//!
//! Writes `data/index.json` and `data/reports/<slug>.json` under `--out` (trunk's staging folder
//! when run as its pre-build hook). Errors are printed as `file:line: error: ...`; they fail the
//! build unless `--keep-going` (used while serving, so the page can show them instead).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use benchdeck_core::build::build_site;
use benchdeck_core::chart::{self, DrawOptions};
use benchdeck_core::site::{chart_svg_path, report_data_path, ReportPage, INDEX_PATH};

use crate::files;

/// Arguments of `site`.
#[derive(clap::Args)]
pub struct Args {
    /// Folder of Markdown reports.
    #[arg(long, default_value = "reports")]
    reports: PathBuf,
    /// Folder of result files.
    #[arg(long, default_value = "results")]
    results: PathBuf,
    /// Where to write the data (a `data/` folder is created inside).
    #[arg(long, env = "TRUNK_STAGING_DIR")]
    out: PathBuf,
    /// Write the data even when there are errors (they are shown on the pages).
    #[arg(long, env = "BENCHDECK_KEEP_GOING")]
    keep_going: bool,
}

/// Runs `site`.
pub fn execute(args: &Args) -> Result<ExitCode> {
    let reports = files::read_inputs(&args.reports, |p| p.extension().is_some_and(|e| e == "md"))?;
    let results = files::read_inputs(&args.results, |_| true)?;
    let site = build_site(&reports, &results);

    write_json(&args.out, INDEX_PATH, &site.index)?;
    let mut svgs = 0;
    for page in &site.pages {
        write_json(&args.out, &report_data_path(&page.summary.slug), page)?;
        svgs += write_svgs(&args.out, page)?;
    }
    let errors: Vec<_> = site.errors().collect();
    for error in &errors {
        eprintln!("{error}");
    }
    let runs: usize = site.imports.iter().map(|f| f.runs.len()).sum();
    eprintln!(
        "benchdeck: {} report{}, {} result file{} ({runs} runs), {svgs} chart SVG{}, {} error{}",
        site.pages.len(),
        plural(site.pages.len()),
        site.imports.len(),
        plural(site.imports.len()),
        plural(svgs),
        errors.len(),
        plural(errors.len()),
    );
    if errors.is_empty() || args.keep_going {
        Ok(ExitCode::SUCCESS)
    } else {
        Ok(ExitCode::from(1))
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Width of the exported SVGs, in pixels, and the height of a 16:9 figure at that width; charts
/// that want less height (head-to-head bars) get less.
const SVG_SIZE: (u32, u32) = (960, 540);

/// Writes every chart of `page` as `charts/<slug>/<id>.svg` (light theme, all series shown),
/// grid panels included, and every grid as one SVG under its own id.
fn write_svgs(root: &Path, page: &ReportPage) -> Result<usize> {
    let mut written = 0;
    for spec in page.charts() {
        let height = chart::preferred_height(spec, f64::from(SVG_SIZE.0)).round() as u32;
        let size = (SVG_SIZE.0, height.max(1));
        let svg = chart::to_svg(spec, size, &DrawOptions::default()).with_context(|| {
            format!(
                "cannot draw chart `{}` of report `{}` as SVG",
                spec.id, page.summary.slug
            )
        })?;
        let path = root.join(chart_svg_path(&page.summary.slug, &spec.id));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create `{}`", dir.display()))?;
        }
        std::fs::write(&path, svg).with_context(|| format!("cannot write `{}`", path.display()))?;
        written += 1;
    }
    for grid in page.grids() {
        let svg = chart::grid_to_svg(
            &grid.panels,
            grid.columns,
            SVG_SIZE.0,
            &DrawOptions::default(),
        )
        .with_context(|| {
            format!(
                "cannot draw grid `{}` of report `{}` as SVG",
                grid.id, page.summary.slug
            )
        })?;
        let path = root.join(chart_svg_path(&page.summary.slug, &grid.id));
        std::fs::write(&path, svg).with_context(|| format!("cannot write `{}`", path.display()))?;
        written += 1;
    }
    Ok(written)
}

fn write_json(root: &Path, rel: &str, value: &impl serde::Serialize) -> Result<()> {
    let path = root.join(rel);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create `{}`", dir.display()))?;
    }
    let json = serde_json::to_string(value)?;
    std::fs::write(&path, json).with_context(|| format!("cannot write `{}`", path.display()))
}
