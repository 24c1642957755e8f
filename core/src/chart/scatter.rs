//! Scatter plots: one dot per point, and, when both axes say which direction is better, each
//! visible series' Pareto frontier as a staircase (the boundary of what its frontier points
//! beat), with the frontier's points drawn solid and the others faded.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::plot::{self, annotation_values, AxisSetup, Extent, XAxis};
use super::{AxisName, ChartSpec, DrawError, DrawOptions, Frame};
use crate::analysis::pareto_frontier;
use crate::quantity::Better;

pub(super) fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    options: &DrawOptions,
    legend: bool,
) -> Result<Frame, DrawError> {
    let (x_scale, y_scale) = (spec.x.scale, spec.y.scale);
    if !spec
        .series
        .iter()
        .any(|s| s.points.iter().any(|p| x_scale.placeable(p.x)))
    {
        return Err(DrawError::Empty(spec.id.clone()));
    }
    let theme = &options.theme;
    let visible = plot::visible(spec, options);
    let points = || visible.iter().flat_map(|&i| spec.series[i].points.iter());
    let xs = points()
        .map(|p| p.x)
        .chain(annotation_values(spec, options, AxisName::X));
    let ys = points()
        .filter_map(|p| p.y)
        .chain(annotation_values(spec, options, AxisName::Y));
    let setup = |extent, scale| AxisSetup {
        extent,
        scale,
        zero: true,
        infinite_slot: false,
    };
    let plot = plot::frame(
        area,
        spec,
        options,
        legend,
        XAxis::Numeric(setup(Extent::of(xs, x_scale), x_scale)),
        setup(Extent::of(ys, y_scale), y_scale),
    )?;

    let mut frame = Frame::default();
    for &si in &visible {
        let series = &spec.series[si];
        let color = theme.series(series.color);
        // Placed points: (point index, data x, data y, pixel).
        let mut placed: Vec<(usize, f64, f64, (i32, i32))> = Vec::new();
        for (pi, p) in series.points.iter().enumerate() {
            let Some(px) = plot.x_px(p.x) else {
                continue;
            };
            match p.y.and_then(|y| plot.y_px(y).map(|py| (y, py))) {
                Some((y, py)) => placed.push((pi, p.x, y, (px, py))),
                None => {
                    let mark = plot.gap(area, color, px)?;
                    frame.targets.push(plot.target(si, pi, mark));
                }
            }
        }
        // Without better directions every point is drawn solid.
        let mut solid = vec![true; placed.len()];
        if let (Some(bx), Some(by)) = (spec.x.better, spec.y.better) {
            let data: Vec<(f64, f64)> = placed.iter().map(|&(_, x, y, _)| (x, y)).collect();
            let frontier = pareto_frontier(&data, bx, by);
            draw_staircase(area, &plot, &frontier, &data, bx, by, color)?;
            solid.fill(false);
            for k in frontier {
                solid[k] = true;
            }
        }
        for (k, &(pi, _, _, at)) in placed.iter().enumerate() {
            let style = if solid[k] {
                color.filled()
            } else {
                color.mix(0.45).filled()
            };
            area.draw(&Circle::new(at, 3, style))?;
            frame.targets.push(plot.target(si, pi, at));
        }
    }
    plot.annotations(area, spec, options)?;
    Ok(frame)
}

/// The frontier as steps: between neighbours (in x order), via the corner both of them beat.
fn draw_staircase<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    plot: &plot::Plot,
    frontier: &[usize],
    data: &[(f64, f64)],
    better_x: Better,
    better_y: Better,
    color: RGBColor,
) -> Result<(), DrawError> {
    let worse = |better: Better, a: f64, b: f64| match better {
        Better::Higher => a.min(b),
        Better::Lower => a.max(b),
    };
    let mut corners: Vec<(f64, f64)> = Vec::new();
    for (k, &i) in frontier.iter().enumerate() {
        if let Some(&prev) = k.checked_sub(1).and_then(|j| frontier.get(j)) {
            let (a, b) = (data[prev], data[i]);
            corners.push((worse(better_x, a.0, b.0), worse(better_y, a.1, b.1)));
        }
        corners.push(data[i]);
    }
    let path: Vec<(i32, i32)> = corners.iter().filter_map(|&(x, y)| plot.at(x, y)).collect();
    if path.len() >= 2 {
        area.draw(&PathElement::new(path, color.stroke_width(2)))?;
    }
    Ok(())
}
