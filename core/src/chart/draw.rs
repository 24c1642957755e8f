//! The one entry point for every backend: [`draw`] dispatches a spec to its kind's drawing, and
//! [`to_svg`] writes it as an SVG document.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::frame::Frame;
use super::options::{DrawError, DrawOptions};
use super::spec::{ChartKind, ChartSpec};
use super::{bars, boxplot, cdf, hbars, histogram, lines, scatter, stacked};

/// Draws `spec` on `area`: the one entry point for every backend.
///
/// A spec with nothing to draw (no series, no points, no categories) is
/// [`DrawError::Empty`], never a blank chart. Hidden series keep their legend entry (so the
/// reader can show them again) and draw nothing else.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    options: &DrawOptions,
) -> Result<Frame, DrawError> {
    area.fill(&options.theme.background)?;
    draw_kind(area, spec, options, options.legend)
}

/// Draws `spec` without filling the background; `legend` is false in small multiples, which
/// share one legend.
pub(super) fn draw_kind<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    options: &DrawOptions,
    legend: bool,
) -> Result<Frame, DrawError> {
    match &spec.kind {
        ChartKind::GroupedBars { categories } => {
            bars::draw(area, spec, categories, options, legend)
        }
        ChartKind::Lines => lines::draw(area, spec, None, options, legend),
        ChartKind::Trend { runs } => lines::draw(area, spec, Some(runs), options, legend),
        ChartKind::Scatter => scatter::draw(area, spec, options, legend),
        ChartKind::Cdf => cdf::draw(area, spec, options, legend),
        ChartKind::Histogram { edges } => histogram::draw(area, spec, edges, options, legend),
        ChartKind::Box { categories } => boxplot::draw(area, spec, categories, options, legend),
        ChartKind::HBars { metrics } => hbars::draw(area, spec, metrics, options, legend),
        ChartKind::Stacked { rows } => stacked::draw(area, spec, rows, options, legend),
    }
}

/// Renders `spec` as a standalone SVG document string.
#[cfg(feature = "svg")]
pub fn to_svg(
    spec: &ChartSpec,
    size: (u32, u32),
    options: &DrawOptions,
) -> Result<String, DrawError> {
    let mut out = String::new();
    {
        let root = plotters_svg::SVGBackend::with_string(&mut out, size).into_drawing_area();
        draw(&root, spec, options)?;
        root.present()?;
    }
    Ok(text_at_drawn_size(&out))
}

/// plotters' SVG backend writes every `font-size` 1.24 times smaller than the size it was given
/// (a points-to-pixels guess of its own), so an SVG's text came out 19% smaller than the same
/// chart's on a canvas, and smaller than the layout made room for. This puts each size back to
/// the one the drawing asked for, so the files, the PNGs made from them and the page's canvas
/// all show one text size.
#[cfg(feature = "svg")]
pub(crate) fn text_at_drawn_size(svg: &str) -> String {
    const ATTRIBUTE: &str = "font-size=\"";
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(at) = rest.find(ATTRIBUTE) {
        let (head, tail) = rest.split_at(at + ATTRIBUTE.len());
        out.push_str(head);
        let end = tail.find('"').unwrap_or(tail.len());
        match tail[..end].parse::<f64>() {
            Ok(size) => out.push_str(&format!("{}", (size * 1.24 * 100.0).round() / 100.0)),
            Err(_) => out.push_str(&tail[..end]),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}
