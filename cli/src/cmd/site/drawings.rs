//! The drawings `benchdeck site` writes for each report: every chart, grid panel and whole grid
//! as SVG (light, and each chart dark too), its values as CSV, the home page card's drawing,
//! and the PNG of each report's link-preview chart, rasterised from its light SVG on every core
//! (a reader's PNG download is drawn in the browser, at the resolution the reader picks).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use benchdeck_core::chart::{self, DrawOptions};
use benchdeck_core::site::{
    chart_card_svg_paths, chart_csv_path, chart_dark_svg_path, chart_png_path, chart_svg_path,
    ReportPage,
};

use super::png::{Rasterizer, PNG_WIDTH};
use super::png_cache::PngCache;
use rayon::prelude::*;

/// A chart to rasterise: its SVG, where its PNG goes, and its name for errors.
pub(crate) struct PngJob {
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

/// What [`write_pngs`] drew.
pub(super) struct Drawn {
    /// The PNGs rasterised (the rest came from the cache).
    pub count: usize,
    /// The font family their text is drawn in, when any was drawn.
    pub font: String,
}

/// Writes the PNG of every chart of `jobs`: from `cache` where it holds it, else rasterised (on
/// every core: about 50 ms a chart) and kept there; with `prune`, the cache then holds only
/// these.
pub(super) fn write_pngs(jobs: &[PngJob], cache: Option<&PngCache>, prune: bool) -> Result<Drawn> {
    let mut missing = Vec::new();
    for job in jobs {
        match cache.and_then(|c| c.get(&job.svg, PNG_WIDTH)) {
            Some(png) => std::fs::write(&job.path, png)
                .with_context(|| format!("cannot write `{}`", job.path.display()))?,
            None => missing.push(job),
        }
    }
    let mut font = String::new();
    if !missing.is_empty() {
        let rasterizer = Rasterizer::new()?;
        rasterize(&rasterizer, &missing, cache)?;
        font = rasterizer.family().to_string();
    }
    if let Some(cache) = cache.filter(|_| prune) {
        let kept: Vec<PathBuf> = jobs.iter().map(|j| cache.path(&j.svg, PNG_WIDTH)).collect();
        cache.keep_only(&kept);
    }
    Ok(Drawn {
        count: missing.len(),
        font,
    })
}

/// Rasterises the charts of `jobs` on every core, each kept in `cache` too.
fn rasterize(rasterizer: &Rasterizer, jobs: &[&PngJob], cache: Option<&PngCache>) -> Result<()> {
    jobs.par_iter().try_for_each(|job| {
        let png = rasterizer.png(&job.svg, PNG_WIDTH, &job.what)?;
        std::fs::write(&job.path, &png)
            .with_context(|| format!("cannot write `{}`", job.path.display()))?;
        match cache {
            Some(cache) => cache.put(&job.svg, PNG_WIDTH, &png),
            None => Ok(()),
        }
    })
}
