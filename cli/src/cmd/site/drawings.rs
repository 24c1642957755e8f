//! The drawings `benchdeck site` writes for each report: every chart, grid panel and whole grid
//! as SVG (light, and each chart dark too), its values as CSV, the home page card's drawing,
//! and the PNG of each report's link-preview chart, rasterised from its light SVG on every core
//! (a reader's PNG download is drawn in the browser, at the resolution the reader picks).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{anyhow, Context, Result};
use benchdeck_core::chart::{self, DrawOptions};
use benchdeck_core::site::{
    chart_card_svg_paths, chart_csv_path, chart_dark_svg_path, chart_png_path, chart_svg_path,
    ReportPage,
};

use super::png::{Rasterizer, PNG_WIDTH};

/// A chart to rasterise: its SVG, where its PNG goes, and its name for errors.
pub(super) struct PngJob {
    svg: String,
    path: PathBuf,
    what: String,
}

/// Writes every chart of `page` as `charts/<slug>/<id>.svg` (light theme, all series shown),
/// grid panels included, and every grid as one SVG under its own id; each chart also in the dark
/// theme (`<id>.dark.svg`) and its values as `<id>.csv`. Returns the PNG to make of the page's
/// link-preview chart ([`ReportPage::preview_chart`]), next to its light SVG.
pub(super) fn write_svgs(root: &Path, page: &ReportPage) -> Result<Vec<PngJob>> {
    let slug = &page.summary.slug;
    let mut drawings = Vec::new();
    for spec in page.charts() {
        let size = chart::export_size(spec);
        let svg = chart::to_svg(spec, size, &DrawOptions::default()).with_context(|| {
            format!("cannot draw chart `{}` of report `{slug}` as SVG", spec.id)
        })?;
        drawings.push((
            format!("chart `{}` of report `{slug}`", spec.id),
            &spec.id,
            svg,
        ));
    }
    for grid in page.grids() {
        let svg = chart::grid_to_svg(
            &grid.panels,
            grid.columns,
            &grid.spans,
            chart::EXPORT_WIDTH,
            &DrawOptions::default(),
        )
        .with_context(|| format!("cannot draw grid `{}` of report `{slug}` as SVG", grid.id))?;
        drawings.push((
            format!("grid `{}` of report `{slug}`", grid.id),
            &grid.id,
            svg,
        ));
    }
    // Each chart in the dark theme (the image pages show readers in dark mode until the app
    // draws it) and its plotted values (the link under it).
    let dark = DrawOptions {
        theme: chart::Theme::named(chart::ThemeName::Dark),
        ..DrawOptions::default()
    };
    for spec in page.charts() {
        let svg = chart::to_svg(spec, chart::export_size(spec), &dark).with_context(|| {
            format!("cannot draw chart `{}` of report `{slug}` as SVG", spec.id)
        })?;
        let path = root.join(chart_dark_svg_path(slug, &spec.id));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create `{}`", dir.display()))?;
        }
        std::fs::write(&path, svg).with_context(|| format!("cannot write `{}`", path.display()))?;
        let path = root.join(chart_csv_path(slug, &spec.id));
        std::fs::write(&path, benchdeck_core::export::csv(spec))
            .with_context(|| format!("cannot write `{}`", path.display()))?;
    }
    write_card(root, page)?;
    let preview = page.preview_chart().map(|spec| &spec.id);
    let mut jobs = Vec::new();
    for (what, id, svg) in drawings {
        let path = root.join(chart_svg_path(slug, id));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create `{}`", dir.display()))?;
        }
        std::fs::write(&path, &svg)
            .with_context(|| format!("cannot write `{}`", path.display()))?;
        if Some(id) != preview {
            continue;
        }
        jobs.push(PngJob {
            svg,
            path: root.join(chart_png_path(slug, id)),
            what,
        });
    }
    Ok(jobs)
}

/// The drawing of the report's first chart that its card on the home page shows, light and
/// dark, at a phone's width (`ChartRef::size`).
fn write_card(root: &Path, page: &ReportPage) -> Result<()> {
    let slug = &page.summary.slug;
    let Some(card) = &page.summary.first_chart else {
        return Ok(());
    };
    let spec = page
        .charts()
        .find(|spec| spec.id == card.id)
        .with_context(|| format!("report `{slug}` has no chart `{}` for its card", card.id))?;
    let themes = [chart::ThemeName::Light, chart::ThemeName::Dark];
    for (path, theme) in chart_card_svg_paths(slug, &spec.id).iter().zip(themes) {
        let options = card_options(theme);
        let svg = chart::to_svg(spec, card.size, &options).with_context(|| {
            format!(
                "cannot draw chart `{}` of report `{slug}` for its card",
                spec.id
            )
        })?;
        let path = root.join(path);
        std::fs::write(&path, svg).with_context(|| format!("cannot write `{}`", path.display()))?;
    }
    Ok(())
}

/// How a card draws its chart: with its legend, and without names at the lines' ends, which at
/// a card's size crowd the corner where the lines end and say again what the legend says.
pub(super) fn card_options(theme: chart::ThemeName) -> DrawOptions {
    DrawOptions {
        theme: chart::Theme::named(theme),
        legend: true,
        direct_labels: false,
        ..DrawOptions::default()
    }
}

/// Rasterises the charts of `jobs` on every core (about 50 ms a chart, most of it PNG
/// compression).
pub(super) fn write_pngs(rasterizer: &Rasterizer, jobs: &[PngJob]) -> Result<()> {
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8)
        .min(jobs.len().max(1));
    let work = || -> Result<()> {
        loop {
            let Some(job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) else {
                return Ok(());
            };
            rasterizer.write(&job.svg, PNG_WIDTH, &job.path, &job.what)?;
        }
    };
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        // Join every thread (a panic in one becomes an error), then report the first error.
        let results: Vec<Result<()>> = workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err(anyhow!("a PNG thread panicked")))
            })
            .collect();
        results.into_iter().collect::<Result<()>>()
    })
}
