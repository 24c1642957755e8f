//! Box plots: per category, one box per visible series side by side (like grouped bars). The box
//! spans the quartiles, the line across it is the median, whiskers reach the minimum and maximum,
//! and a hollow dot marks the mean; a point that carries its values has each drawn as a dot over
//! the box. A point without a summary but with a value is drawn as a dot;
//! one with neither is marked with a ✕.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::plot::{self, AxisSetup, XAxis};
use super::{AxisName, ChartSpec, DrawError, DrawOptions, Frame};

/// Share of a category's width taken by its boxes.
const GROUP_WIDTH: f64 = 0.8;
/// Widest box, pixels.
const MAX_BOX: f64 = 44.0;

pub(super) fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    categories: &[String],
    options: &DrawOptions,
    legend: bool,
) -> Result<Frame, DrawError> {
    plot::require_categories(spec, categories)?;
    let theme = &options.theme;
    let visible = plot::visible(spec, options);
    let y_scale = spec.y.scale;
    let ys = plot::axis_values(spec, options, &visible, AxisName::Y, |p| match p.summary {
        Some(b) => vec![b.min, b.max],
        None => p.y.into_iter().collect(),
    });
    let y = AxisSetup::from_zero(ys, y_scale);
    let plot = plot::frame(
        area,
        spec,
        options,
        legend,
        XAxis::Categories(categories),
        y,
    )?;

    let slot = GROUP_WIDTH / visible.len().max(1) as f64;
    let px_per_unit = plot.x.px(1.0).unwrap_or(0.0) - plot.x.px(0.0).unwrap_or(0.0);
    let half = (slot * px_per_unit * 0.35)
        .clamp(1.0, MAX_BOX / 2.0)
        .round() as i32;
    let mut frame = Frame::default();
    for (k, &si) in visible.iter().enumerate() {
        let series = &spec.series[si];
        let color = theme.series(series.color);
        for (pi, p) in series.points.iter().enumerate() {
            let index = p.x.round();
            if !(p.x.is_finite() && index >= 0.0 && (index as usize) < categories.len()) {
                continue;
            }
            let centre = index - GROUP_WIDTH / 2.0 + (k as f64 + 0.5) * slot;
            let Some(cx) = plot.x_px(centre) else {
                continue;
            };
            let five = p.summary.and_then(|b| {
                Some([
                    plot.y_px(b.min)?,
                    plot.y_px(b.q1)?,
                    plot.y_px(b.median)?,
                    plot.y_px(b.q3)?,
                    plot.y_px(b.max)?,
                ])
            });
            match (five, p.y.and_then(|y| plot.y_px(y))) {
                (Some(five @ [_, _, median, _, _]), _) => {
                    draw_box(area, cx, half, five, color)?;
                    for (i, value) in p.values.iter().enumerate() {
                        if let Some(py) = plot.y_px(*value) {
                            let dx = (jitter(i) * f64::from(half)).round() as i32;
                            area.draw(&Circle::new((cx + dx, py), 3, color.mix(0.6).filled()))?;
                        }
                    }
                    if let Some(mean) = p.summary.and_then(|b| b.mean).and_then(|m| plot.y_px(m)) {
                        area.draw(&Circle::new((cx, mean), 3, theme.text.stroke_width(1)))?;
                    }
                    frame.targets.push(plot.target(si, pi, (cx, median)));
                }
                (None, Some(py)) => {
                    area.draw(&Circle::new((cx, py), 4, color.filled()))?;
                    frame.targets.push(plot.target(si, pi, (cx, py)));
                }
                (None, None) => {
                    let mark = plot.gap(area, color, cx)?;
                    frame.targets.push(plot.target(si, pi, mark));
                }
            }
        }
    }
    plot.annotations(area, spec, options)?;
    Ok(frame)
}

/// One box at `cx`, `half` pixels either side: whiskers from the minimum to the maximum with
/// caps, the box over the quartiles and a thick line at the median (`five`, pixels).
fn draw_box<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    cx: i32,
    half: i32,
    [min, q1, median, q3, max]: [i32; 5],
    color: RGBColor,
) -> Result<(), DrawError> {
    area.draw(&PathElement::new(
        [(cx, min), (cx, max)],
        color.stroke_width(1),
    ))?;
    for end in [min, max] {
        area.draw(&PathElement::new(
            [(cx - half / 2, end), (cx + half / 2, end)],
            color.stroke_width(1),
        ))?;
    }
    area.draw(&Rectangle::new(
        [(cx - half, q3), (cx + half, q1)],
        color.mix(0.3).filled(),
    ))?;
    area.draw(&Rectangle::new(
        [(cx - half, q3), (cx + half, q1)],
        color.stroke_width(1),
    ))?;
    area.draw(&PathElement::new(
        [(cx - half, median), (cx + half, median)],
        color.stroke_width(3),
    ))?;
    Ok(())
}

/// Where value `i`'s dot sits across a box, from -0.8 to 0.8 of its half width: spread evenly
/// (the golden-ratio sequence) and the same on every draw.
fn jitter(i: usize) -> f64 {
    let phase = (i as f64 * 0.618_033_988_749_895).fract();
    (phase * 2.0 - 1.0) * 0.8
}
