//! Histograms over shared bins (edges made by `analysis::histogram_bins`): each visible series is
//! drawn as translucent bars with a solid outline, so overlapping series stay readable. A bin
//! whose value is missing is marked with a ✕, never drawn as zero. The value axis is linear.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::plot::{self, annotation_values, dedup_path, AxisSetup, XAxis};
use super::{AxisName, ChartSpec, DrawError, DrawOptions, Frame, Scale};

pub(super) fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    edges: &[f64],
    options: &DrawOptions,
    legend: bool,
) -> Result<Frame, DrawError> {
    let bins = edges.len().saturating_sub(1);
    let bin_of = |x: f64| {
        let i = x.round();
        (x.is_finite() && i >= 0.0 && (i as usize) < bins).then_some(i as usize)
    };
    plot::require_drawable_x(spec, |x| bin_of(x).is_some())?;
    let theme = &options.theme;
    let visible = plot::visible(spec, options);
    let x_scale = spec.x.scale;
    let x = AxisSetup::fitted(
        edges
            .iter()
            .copied()
            .chain(annotation_values(spec, options, AxisName::X)),
        x_scale,
    );
    let ys = plot::axis_values(spec, options, &visible, AxisName::Y, |p| p.y);
    let y = AxisSetup::from_zero(ys, Scale::Linear);
    let plot = plot::frame(area, spec, options, legend, XAxis::Numeric(x), y)?;
    let alpha = if visible.len() > 1 { 0.3 } else { 0.6 };

    let mut frame = Frame::default();
    for &si in &visible {
        let series = &spec.series[si];
        let color = theme.series(series.color);
        let order = crate::order::order_by(series.points.len(), &|i| series.points[i].x);
        let mut outline: Vec<(i32, i32)> = Vec::new();
        for pi in order {
            let p = &series.points[pi];
            let Some(bin) = bin_of(p.x) else {
                continue;
            };
            let (Some(l), Some(r)) = (plot.x_px(edges[bin]), plot.x_px(edges[bin + 1])) else {
                continue;
            };
            let Some(top) = p.y.filter(|y| *y >= 0.0).and_then(|y| plot.y_px(y)) else {
                flush(area, &mut outline, plot.bottom, color, series.color)?;
                let mark = plot.gap(area, color, (l + r) / 2)?;
                frame.targets.push(plot.target(si, pi, mark));
                continue;
            };
            area.draw(&Rectangle::new(
                [(l, top), (r, plot.bottom)],
                color.mix(alpha).filled(),
            ))?;
            if outline.last().is_some_and(|&(x, _)| x != l) {
                flush(area, &mut outline, plot.bottom, color, series.color)?;
            }
            if outline.is_empty() {
                outline.push((l, plot.bottom));
            }
            outline.push((l, top));
            outline.push((r, top));
            frame.targets.push(plot.target(si, pi, ((l + r) / 2, top)));
        }
        flush(area, &mut outline, plot.bottom, color, series.color)?;
    }
    plot.annotations(area, spec, options)?;
    Ok(frame)
}

/// Draws and empties the outline of adjacent bins of palette slot `slot`, closing it down to
/// the axis.
fn flush<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    outline: &mut Vec<(i32, i32)>,
    bottom: i32,
    color: RGBColor,
    slot: usize,
) -> Result<(), DrawError> {
    if let Some(&(x, _)) = outline.last() {
        outline.push((x, bottom));
    }
    super::look::line(area, dedup_path(outline.drain(..)), color, slot)
}
