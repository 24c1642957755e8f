//! Latency CDFs: per visible series, the empirical CDF as a step line (x = value, y = percent of
//! requests at or below it, points made by `builders::cdf_chart`). A vertical threshold (the SLA
//! line) is labelled with each series' share at or below it, read off the same steps.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::plot::{self, dedup_path, draw_label, label_box, AxisSetup, LabelBox, Plot, XAxis};
use super::text::estimate_text_width;
use super::{Annotation, AxisName, ChartSpec, DrawError, DrawOptions, Frame, Scale, Series};
use crate::format;

/// Series with more points than this are drawn without point markers.
const MARKER_LIMIT: usize = 30;

pub(super) fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    options: &DrawOptions,
    legend: bool,
) -> Result<Frame, DrawError> {
    let x_scale = spec.x.scale;
    plot::require_drawable_x(spec, |x| x_scale.placeable(x))?;
    let theme = &options.theme;
    let visible = plot::visible(spec, options);
    let xs = plot::axis_values(spec, options, &visible, AxisName::X, |p| [p.x]);
    let x = AxisSetup::fitted(xs, x_scale);
    // Shares are percentages: the axis is always 0 to 100.
    let y = AxisSetup::from_zero([0.0, 100.0], Scale::Linear);
    let plot = plot::frame(area, spec, options, legend, XAxis::Numeric(x), y)?;

    let mut frame = Frame::default();
    for &si in &visible {
        let series = &spec.series[si];
        let color = theme.series(series.color);
        let order = crate::order::order_by(series.points.len(), &|i| series.points[i].x);
        let mut steps: Vec<(i32, i32)> = Vec::new();
        let mut placed: Vec<(i32, i32)> = Vec::new();
        for pi in order {
            let p = &series.points[pi];
            let Some(px) = plot.x_px(p.x) else {
                continue;
            };
            let Some(py) = p.y.and_then(|y| plot.y_px(y.clamp(0.0, 100.0))) else {
                let mark = plot.gap(area, color, px)?;
                frame.targets.push(plot.target(si, pi, mark));
                continue;
            };
            // Flat until the value, then up to its share.
            let level = steps.last().map_or(plot.bottom, |&(_, y)| y);
            steps.push((px, level));
            steps.push((px, py));
            placed.push((px, py));
            frame.targets.push(plot.target(si, pi, (px, py)));
        }
        if let Some(&(_, y)) = steps.last() {
            steps.push((plot.right, y));
        }
        super::look::line(area, dedup_path(steps), color, series.color)?;
        if placed.len() <= MARKER_LIMIT {
            for at in placed {
                area.draw(&Circle::new(at, 3, super::look::dot(color, series.color)))?;
            }
        }
    }
    let placed = plot.annotations(area, spec, options)?;
    shares_at_thresholds(area, spec, options, &plot, &visible, placed)?;
    Ok(frame)
}

/// Under each vertical threshold's label: every visible series' share at or below it.
fn shares_at_thresholds<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    options: &DrawOptions,
    plot: &Plot,
    visible: &[usize],
    mut placed: Vec<LabelBox>,
) -> Result<(), DrawError> {
    for a in &spec.annotations {
        let Annotation::Threshold {
            axis: AxisName::X,
            value,
            ..
        } = a
        else {
            continue;
        };
        let Some(px) = plot.x_px(*value) else {
            continue;
        };
        if px < plot.left || px > plot.right {
            continue;
        }
        let lines: Vec<(String, RGBColor)> = visible
            .iter()
            .filter_map(|&si| {
                let s = &spec.series[si];
                let share = share_at(s, *value)?;
                Some((
                    format!("{}: {}", s.name, format::with_unit(share, &spec.y.unit)),
                    options.theme.series(s.color),
                ))
            })
            .collect();
        let widest = lines
            .iter()
            .map(|(t, _)| estimate_text_width(t, 12) as i32)
            .max()
            .unwrap_or(0);
        let (tx, h) = readout_anchor(px, widest, plot.left, plot.right);
        for (k, (text, color)) in lines.into_iter().enumerate() {
            let at = (tx, plot.top + 18 + 15 * k as i32);
            let b = label_box(&text, at, h, VPos::Top, 12, &placed);
            draw_label(area, &text, b, true, color, options.theme.background)?;
            placed.push(b);
        }
    }
    Ok(())
}

/// Where the readouts of a threshold at `px` start, `widest` pixels wide, between the plot's
/// `left` and `right`: beside the line, right of it when they fit there, else left of it; when
/// they fit on neither side (a narrow chart, long series names), across the line, kept inside
/// the plot, so no readout is cut off at the chart's edge.
fn readout_anchor(px: i32, widest: i32, left: i32, right: i32) -> (i32, HPos) {
    if px + 4 + widest <= right {
        (px + 4, HPos::Left)
    } else if px - 4 - widest >= left {
        (px - 4, HPos::Right)
    } else {
        ((right - widest).max(left), HPos::Left)
    }
}

/// The share (the CDF's y) at or below `x`: the y of the last point at or before `x`, 0 before
/// the first; `None` when the series has no value.
pub(super) fn share_at(series: &Series, x: f64) -> Option<f64> {
    let mut best: Option<(f64, f64)> = None;
    let mut any = false;
    for p in &series.points {
        let Some(y) = p.y.filter(|y| y.is_finite()) else {
            continue;
        };
        if !p.x.is_finite() {
            continue;
        }
        any = true;
        if p.x <= x && best.is_none_or(|(bx, _)| p.x >= bx) {
            best = Some((p.x, y));
        }
    }
    any.then(|| best.map_or(0.0, |(_, y)| y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threshold_readouts_stay_inside_the_plot() {
        // Room on the right: beside the line, after it.
        assert!(matches!(
            readout_anchor(100, 200, 50, 600),
            (104, HPos::Left)
        ));
        // Room on the left only: before it, right-aligned.
        assert!(matches!(
            readout_anchor(500, 200, 50, 600),
            (496, HPos::Right)
        ));
        // Room on neither side (a 600 px embed, labels 240 px wide, the line at 210 px): across
        // the line, ending at the plot's right edge, starting inside it.
        let (x, h) = readout_anchor(210, 240, 66, 290);
        assert!(matches!(h, HPos::Left));
        assert_eq!(x, 66, "wider than the plot: it starts at the left edge");
        let (x, h) = readout_anchor(210, 200, 66, 420);
        assert!(matches!(h, HPos::Left));
        assert!(x >= 66 && x + 200 <= 420, "{x}");
    }
}
