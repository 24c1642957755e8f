//! A metric against load: one line per visible series over numeric x (linear or log), with an
//! optional band per point (`lo`..`hi`, e.g. p50 to p99), `+∞` loads at the right end under an
//! `∞` tick (reached by a dashed segment, since the distance is not to scale), and a ✕ on the
//! x axis where a value is missing; the line breaks there rather than dropping to zero.
//!
//! A trend ([`ChartKind::Trend`](super::ChartKind::Trend)) is the same drawing over evenly
//! spaced runs: `runs` gives the category axis, each point's `x` the index of its run.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use plotters::style::text_anchor::{HPos, VPos};

use super::plot::{self, dedup_path, AxisSetup, XAxis};
use super::text::estimate_text_width;
use super::{AxisName, ChartSpec, DrawError, DrawOptions, Frame, Point, Series, Zoom};

/// Series with more points than this are drawn without point markers.
const MARKER_LIMIT: usize = 100;

pub(super) fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    runs: Option<&[String]>,
    options: &DrawOptions,
    legend: bool,
) -> Result<Frame, DrawError> {
    let y_scale = spec.y.scale;
    let visible = plot::visible(spec, options);
    // A reader's zoom (lines over numbers only): the axes span it, the data is cut at them.
    let zoom = options
        .zoom
        .filter(|_| runs.is_none())
        .and_then(|z| z.checked(spec.x.scale, y_scale));
    let x_axis = x_axis(spec, options, &visible, runs, zoom)?;
    let theme = &options.theme;
    let ys = plot::axis_values(spec, options, &visible, AxisName::Y, |p| {
        [p.y, p.lo, p.hi].into_iter().flatten()
    });
    // Over time the question is what changed, so the axis fits the values rather than
    // starting at zero (the band of expected values gives the scale of the noise).
    let y = match (zoom, runs) {
        (Some(z), _) => AxisSetup::zoomed(z.y, y_scale),
        (None, Some(_)) => AxisSetup::fitted(ys, y_scale),
        (None, None) => AxisSetup::from_zero(ys, y_scale),
    };
    let plot = plot::frame(area, spec, options, legend, x_axis, y)?;

    // Bands under every line, then lines, then markers on top.
    for &si in &visible {
        let series = &spec.series[si];
        draw_bands(area, &plot, series, theme.series(series.color))?;
    }
    let mut frame = Frame::default();
    for &si in &visible {
        let series = &spec.series[si];
        draw_line(
            area,
            &plot,
            series,
            si,
            theme.series(series.color),
            &mut frame,
        )?;
    }
    let placed = plot.annotations(area, spec, options)?;
    if options.direct_labels {
        direct_labels(area, &plot, spec, options, &frame, placed)?;
    }
    frame.plot = (runs.is_none()).then(|| plot.area());
    Ok(frame)
}

/// The x axis: the runs' slots for a trend, else numbers from zero with a slot for `+∞`, or
/// the reader's `zoom`.
fn x_axis<'r>(
    spec: &ChartSpec,
    options: &DrawOptions,
    visible: &[usize],
    runs: Option<&'r [String]>,
    zoom: Option<Zoom>,
) -> Result<XAxis<'r>, DrawError> {
    Ok(match runs {
        Some(runs) => {
            plot::require_categories(spec, runs)?;
            XAxis::Categories(runs)
        }
        None => {
            let x_scale = spec.x.scale;
            plot::require_drawable_x(spec, |x| x == f64::INFINITY || x_scale.placeable(x))?;
            let xs = plot::axis_values(spec, options, visible, AxisName::X, |p| [p.x]);
            XAxis::Numeric(match zoom {
                Some(z) => AxisSetup::zoomed(z.x, x_scale),
                None => AxisSetup {
                    infinite_slot: true,
                    ..AxisSetup::from_zero(xs, x_scale)
                },
            })
        }
    })
}

/// A series' bands (`lo`..`hi` around each point), one per unbroken run of points that have
/// them.
fn draw_bands<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    plot: &plot::Plot,
    series: &Series,
    color: RGBColor,
) -> Result<(), DrawError> {
    let mut run: Vec<(i32, i32, i32)> = Vec::new();
    for p in in_x_order(series) {
        let band = plot.x_px(p.x).zip(
            p.lo.and_then(|lo| plot.y_px(lo))
                .zip(p.hi.and_then(|hi| plot.y_px(hi))),
        );
        match band {
            Some((px, (lo, hi))) if p.y.is_some() => run.push((px, lo, hi)),
            _ => draw_band(area, plot, &std::mem::take(&mut run), color)?,
        }
    }
    draw_band(area, plot, &run, color)
}

/// Series `si`'s line (broken and marked ✕ where a value is missing, dashed to `+∞`) and its
/// point markers when it has few points; each point drawn becomes a target of `frame`.
fn draw_line<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    plot: &plot::Plot,
    series: &Series,
    si: usize,
    color: RGBColor,
    frame: &mut Frame,
) -> Result<(), DrawError> {
    let mut segment: Vec<(i32, i32)> = Vec::new();
    let mut previous: Option<(f64, (i32, i32))> = None;
    let markers = series.points.len() <= MARKER_LIMIT;
    for (pi, p) in in_x_order_indexed(series) {
        let Some(px) = plot.x_px(p.x) else {
            continue;
        };
        let Some(at) = p.y.and_then(|y| plot.y_px(y)).map(|py| (px, py)) else {
            // Missing: break the line and mark the gap.
            flush(area, plot, &mut segment, color, series.color)?;
            previous = None;
            if (plot.left..=plot.right).contains(&px) {
                let mark = plot.gap(area, color, px)?;
                frame.targets.push(plot.target(si, pi, mark));
            }
            continue;
        };
        match previous {
            Some((prev_x, prev_at)) if p.x == f64::INFINITY && prev_x.is_finite() => {
                flush(area, plot, &mut segment, color, series.color)?;
                area.draw(&DashedPathElement::new(
                    [prev_at, at],
                    5,
                    4,
                    color.stroke_width(2),
                ))?;
                segment.push(at);
            }
            _ => segment.push(at),
        }
        previous = Some((p.x, at));
        if plot.inside(at) {
            frame.targets.push(plot.target(si, pi, at));
        }
    }
    flush(area, plot, &mut segment, color, series.color)?;
    if markers {
        for t in frame.targets.iter().filter(|t| t.series == si) {
            let p = &series.points[t.point];
            if p.y.is_some_and(|y| plot.y_px(y).is_some()) {
                let (bx, by) = area.get_base_pixel();
                area.draw(&Circle::new(
                    (t.x - bx, t.y - by),
                    3,
                    super::look::dot(color, series.color),
                ))?;
            }
        }
    }
    Ok(())
}

/// More visible series than this get no direct labels: the legend reads better.
const DIRECT_LABEL_LIMIT: usize = 8;

/// Each visible series' name at the end of its line, in its colour, where it fits (the style
/// guides' direct labels: the eye need not travel to a legend): just above and left of its
/// rightmost drawn value, moved up off the labels already placed, or else below it (two lines
/// ending close together at the top of the plot get one name each side). Where that would hide
/// part of a line (a point, or the stretch between two), up to two lines of text further up or
/// down, whichever is nearest and hides none; where every place hides some, the nearest. Left
/// out when the name is wider than two fifths of the plot, when it would leave the plot, or when
/// the chart has more than [`DIRECT_LABEL_LIMIT`] series.
fn direct_labels<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    plot: &plot::Plot,
    spec: &ChartSpec,
    options: &DrawOptions,
    frame: &Frame,
    mut placed: Vec<plot::LabelBox>,
) -> Result<(), DrawError> {
    let visible = plot::visible(spec, options);
    if visible.len() > DIRECT_LABEL_LIMIT {
        return Ok(());
    }
    let (bx, by) = area.get_base_pixel();
    let lines = drawn_lines(frame, (bx, by));
    let line_height = plot::TICK_FONT as i32 + 3;
    for &si in &visible {
        let series = &spec.series[si];
        let end = frame
            .targets
            .iter()
            .filter(|t| t.series == si && series.points[t.point].y.is_some())
            .max_by_key(|t| (t.x, -t.y));
        let Some(end) = end else {
            continue;
        };
        let width = estimate_text_width(&series.name, plot::TICK_FONT) as i32;
        let (x, y) = (end.x - bx, end.y - by);
        if width > (plot.right - plot.left) * 2 / 5 || x - 6 - width < plot.left {
            continue;
        }
        let at = |dy: i32, v: VPos| {
            plot::label_box(
                &series.name,
                (x - 6, y + dy),
                HPos::Right,
                v,
                plot::TICK_FONT,
                &placed,
            )
        };
        let fits = |b: &plot::LabelBox| {
            b.rect.1 >= plot.top && b.rect.3 <= plot.bottom && !placed.iter().any(|p| p.overlaps(b))
        };
        let near = [at(-5, VPos::Bottom), at(5, VPos::Top)];
        let further = (1..=2).flat_map(|k| {
            let dy = 5 + k * line_height;
            [at(-dy, VPos::Bottom), at(dy, VPos::Top)]
        });
        let clear = near
            .into_iter()
            .chain(further)
            .find(|b| fits(b) && !b.covers_lines(&lines));
        let Some(b) = clear.or_else(|| near.into_iter().find(fits)) else {
            continue;
        };
        let color = options.theme.series(series.color);
        plot::draw_label(area, &series.name, b, true, color, options.theme.background)?;
        placed.push(b);
    }
    Ok(())
}

/// The drawn lines, as polylines of area pixels (the frame's targets are page pixels; `base` is
/// the area's corner): [`draw_line`] adds each series' targets together, in increasing x.
fn drawn_lines(frame: &Frame, base: (i32, i32)) -> Vec<Vec<(i32, i32)>> {
    frame
        .targets
        .chunk_by(|a, b| a.series == b.series)
        .map(|line| line.iter().map(|t| (t.x - base.0, t.y - base.1)).collect())
        .collect()
}

/// The series' points in increasing x (ties keep their order).
fn in_x_order(series: &Series) -> impl Iterator<Item = &Point> {
    in_x_order_indexed(series).map(|(_, p)| p)
}

/// The same, with each point's index.
fn in_x_order_indexed(series: &Series) -> impl Iterator<Item = (usize, &Point)> {
    let order = crate::order::order_by(series.points.len(), &|i| series.points[i].x);
    order.into_iter().map(|i| (i, &series.points[i]))
}

/// Draws and empties a line segment of palette slot `slot`, cut at the plot's edges.
fn flush<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    plot: &plot::Plot,
    segment: &mut Vec<(i32, i32)>,
    color: RGBColor,
    slot: usize,
) -> Result<(), DrawError> {
    let path = dedup_path(segment.drain(..));
    for piece in plot.clip_polyline(&path) {
        super::look::line(area, piece, color, slot)?;
    }
    Ok(())
}

/// A translucent band through (x, lo, hi) columns; a lone column is drawn as a whisker.
fn draw_band<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    plot: &plot::Plot,
    run: &[(i32, i32, i32)],
    color: RGBColor,
) -> Result<(), DrawError> {
    match run {
        [] => Ok(()),
        [(x, lo, hi)] => {
            if let Some((a, b)) = plot.clip_segment((*x, *lo), (*x, *hi)) {
                area.draw(&PathElement::new([a, b], color.mix(0.5).stroke_width(3)))?;
            }
            Ok(())
        }
        _ => {
            let outline: Vec<(i32, i32)> = run
                .iter()
                .map(|&(x, _, hi)| (x, hi))
                .chain(run.iter().rev().map(|&(x, lo, _)| (x, lo)))
                .collect();
            let outline = plot.clip_polygon(&outline);
            if outline.len() >= 3 {
                area.draw(&Polygon::new(outline, color.mix(0.18).filled()))?;
            }
            Ok(())
        }
    }
}
