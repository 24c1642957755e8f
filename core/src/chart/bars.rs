//! Grouped bar charts: one group per category (a load point), one bar per visible series.

use crate::chart::theme::font;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::plot;
use super::text::estimate_text_width;
use super::{nice_ceiling, ChartSpec, DrawError, DrawOptions, Frame, Point, Target};
use crate::format;

/// Share of a category's width taken by its bars.
const GROUP_WIDTH: f64 = 0.8;
/// Pixel size of the value written above each bar.
const VALUE_SIZE: u32 = 11;
/// Pixel height of the band under the plot for the category labels and the x axis title.
const X_LABEL_AREA: u32 = 44;
/// The largest share of the plot's height that values turned upright may take above the bars.
const UPRIGHT_SHARE: f64 = 0.2;

/// The chart the bars are drawn in: categories at 0, 1, 2… across, values up.
type BarChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

pub(super) fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    categories: &[String],
    options: &DrawOptions,
    legend: bool,
) -> Result<Frame, DrawError> {
    plot::require_categories(spec, categories)?;
    let theme = &options.theme;
    let (width, _) = area.dim_in_pixel();
    let header = super::header::draw(area, spec, options, legend)?;
    let body = area.margin(header, 8, 8, 16);

    let highest = [
        max_y(spec, options),
        max_over_points(spec, options, |p| p.hi),
    ]
    .into_iter()
    .flatten()
    .chain(thresholds(spec).map(|(value, _)| value))
    .fold(1e-9f64, f64::max);
    let top = nice_ceiling(highest);
    let n = categories.len() as f64;
    let plot_width = f64::from(body.dim_in_pixel().0.saturating_sub(y_label_width(top)));
    let plot_height = f64::from(body.dim_in_pixel().1.saturating_sub(X_LABEL_AREA));
    let values = value_labels(spec, options, plot_width / n.max(1.0), plot_height);
    let mut chart = ChartBuilder::on(&body)
        // Room above the tallest bar for its value.
        .margin_top(values.map_or(0, |v| v.reach + 3))
        .x_label_area_size(X_LABEL_AREA)
        .y_label_area_size(y_label_width(top))
        .build_cartesian_2d(-0.5f64..n - 0.5, 0f64..top)?;

    let label_style = font(12).color(&theme.text);
    let plot_height = chart.plotting_area().dim_in_pixel().1;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_labels(6)
        .y_label_formatter(&|v| format::number(*v))
        .y_desc(plot::fitted_y_title(spec, plot_height))
        .x_desc(spec.x.label())
        .label_style(label_style.clone())
        .axis_desc_style(font(13).color(&theme.text))
        .axis_style(theme.axis)
        .bold_line_style(theme.grid)
        .light_line_style(theme.background)
        .draw()?;

    let (frame, feet) = draw_bars(area, &mut chart, spec, options, (n, top), values.is_some())?;
    let guides = draw_thresholds(area, &chart, spec, options, top)?;
    if let Some(values) = values {
        // After the guide lines, so that a line crossing a value passes behind it.
        for (value, foot) in feet {
            draw_value(area, value, foot, values, &guides, options)?;
        }
    }

    // Category labels under each group, skipping labels that would collide.
    let (base_x, base_y) = area.get_base_pixel();
    let mut last_right = i32::MIN;
    for (i, label) in categories.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(i as f64, 0.0));
        let (px, py) = (x - base_x, y - base_y);
        let half = (estimate_text_width(label, 12) / 2) as i32;
        if px - half <= last_right + 4 || px + half > width as i32 {
            continue;
        }
        last_right = px + half;
        area.draw(&Text::new(
            label.clone(),
            (px, py + 6),
            label_style.pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
    }
    Ok(frame)
}

/// The series `options` shows, by index.
fn visible_series(spec: &ChartSpec, options: &DrawOptions) -> Vec<usize> {
    (0..spec.series.len())
        .filter(|&i| !options.is_hidden(i))
        .collect()
}

/// A bar's value and the point (area pixels) its label stands on.
type ValueFoot = (f64, (i32, i32));

/// How the values above the bars are written.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ValueLabels {
    /// Digits after the point (see [`format::number_within`]).
    decimals: usize,
    /// Turned to read upwards, for bars too close together for values written across.
    upright: bool,
    /// How far the longest value reaches above its bar, in pixels.
    reach: u32,
}

/// How the values above the bars are written, with categories `category_px` pixels apart over
/// a plot about `plot_height` pixels high; `None` when they do not fit. Written across when the
/// widest is narrower than the distance between two bars; else turned upright when a line of
/// text fits between two bars and the longest value takes at most a fifth of the plot's height
/// (a phone's drawing of two series over six loads). Either way with as many digits as
/// [`format::number`] writes, else one, else none (see [`format::number_within`]): the first
/// that fits. Every value shows, or none, so that a reader can compare them.
fn value_labels(
    spec: &ChartSpec,
    options: &DrawOptions,
    category_px: f64,
    plot_height: f64,
) -> Option<ValueLabels> {
    let visible = visible_series(spec, options);
    let pitch = category_px * GROUP_WIDTH / visible.len().max(1) as f64;
    let values: Vec<f64> = visible
        .iter()
        .flat_map(|&i| &spec.series[i].points)
        .filter_map(|p| p.y.filter(|y| y.is_finite()))
        .collect();
    let widest = |decimals: usize| {
        values
            .iter()
            .map(|&y| estimate_text_width(&format::number_within(y, decimals), VALUE_SIZE))
            .max()
            .unwrap_or(0)
    };
    const DECIMALS: [usize; 3] = [usize::MAX, 1, 0];
    let across = DECIMALS.into_iter().find_map(|decimals| {
        (f64::from(widest(decimals)) + 2.0 <= pitch).then_some(ValueLabels {
            decimals,
            upright: false,
            reach: VALUE_SIZE,
        })
    });
    let upright = || {
        if f64::from(VALUE_SIZE) + 2.0 > pitch {
            return None;
        }
        DECIMALS.into_iter().find_map(|decimals| {
            let reach = widest(decimals);
            (f64::from(reach) <= plot_height * UPRIGHT_SHARE).then_some(ValueLabels {
                decimals,
                upright: true,
                reach,
            })
        })
    };
    across.or_else(upright)
}

/// The bars of the visible series in `chart` (`n` categories, values up to `top`), and a ✕ for
/// a missing value; returns where each was drawn and, when `with_values`, each value with the
/// point (area pixels) its label stands on: above the bar, or above its error bar.
fn draw_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &mut BarChart<'_, DB>,
    spec: &ChartSpec,
    options: &DrawOptions,
    (n, top): (f64, f64),
    with_values: bool,
) -> Result<(Frame, Vec<ValueFoot>), DrawError> {
    let theme = &options.theme;
    let visible = visible_series(spec, options);
    let bar_width = GROUP_WIDTH / visible.len().max(1) as f64;
    let (base_x, base_y) = area.get_base_pixel();
    let to_area = |(x, y): (i32, i32)| (x - base_x, y - base_y);

    let mut frame = Frame::default();
    let mut feet = Vec::new();
    for (slot, &si) in visible.iter().enumerate() {
        let series = &spec.series[si];
        let color = theme.series(series.color);
        for (pi, point) in series.points.iter().enumerate() {
            // Only category positions have a place (plotters overflows on wild coordinates).
            if !(point.x.is_finite() && point.x > -1.0 && point.x < n) {
                continue;
            }
            let left = point.x - GROUP_WIDTH / 2.0 + slot as f64 * bar_width;
            let right = left + bar_width * 0.92;
            let centre = (left + right) / 2.0;
            match point.y {
                Some(y) if y.is_finite() => {
                    // Values beyond the axis run off its ends rather than off the coordinates.
                    let shown = y.clamp(-top, top * 1.05);
                    for style in super::look::bar(color, series.color) {
                        chart.draw_series(std::iter::once(Rectangle::new(
                            [(left, 0.0), (right, shown)],
                            style,
                        )))?;
                    }
                    if let (Some(lo), Some(hi)) = (point.lo, point.hi) {
                        let whisker = Whisker {
                            centre,
                            half: (right - left) / 4.0,
                            lo,
                            hi,
                        };
                        draw_whisker(chart, whisker, top, theme.text)?;
                    }
                    let (px, py) = to_area(chart.backend_coord(&(centre, shown)));
                    frame.targets.push(Target {
                        series: si,
                        point: pi,
                        x: px + base_x,
                        y: py + base_y,
                    });
                    if with_values {
                        // Above the error bar, when there is one.
                        let above = point
                            .hi
                            .filter(|hi| hi.is_finite() && *hi > shown)
                            .map_or(py, |hi| {
                                to_area(chart.backend_coord(&(centre, hi.min(top)))).1
                            });
                        feet.push((y, (px, above - 3)));
                    }
                }
                _ => {
                    // A failed or missing value is marked, never drawn as zero.
                    let (px, py) = to_area(chart.backend_coord(&(centre, 0.0)));
                    area.draw(&Text::new(
                        "✕",
                        (px, py - 2),
                        font(13)
                            .color(&color)
                            .pos(Pos::new(HPos::Center, VPos::Bottom)),
                    ))?;
                    frame.targets.push(Target {
                        series: si,
                        point: pi,
                        x: px + base_x,
                        y: py - 8 + base_y,
                    });
                }
            }
        }
    }
    Ok((frame, feet))
}

/// Writes `value` as `labels` says, its foot at `foot` (centred over the bar), over a backdrop
/// where one of the guide lines at heights `guides` would run through it.
fn draw_value<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    value: f64,
    foot: (i32, i32),
    labels: ValueLabels,
    guides: &[i32],
    options: &DrawOptions,
) -> Result<(), DrawError> {
    let text = format::number_within(value, labels.decimals);
    let length = estimate_text_width(&text, VALUE_SIZE) as i32;
    let font = font(VALUE_SIZE).color(&options.theme.text);
    let (style, (half_width, height)) = if labels.upright {
        let style = font
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Left, VPos::Center));
        (style, (VALUE_SIZE as i32 / 2, length))
    } else {
        let style = font.pos(Pos::new(HPos::Center, VPos::Bottom));
        (style, (length / 2, VALUE_SIZE as i32))
    };
    let (x, y) = foot;
    let (left, top, right, bottom) = (
        x - half_width - 1,
        y - height - 1,
        x + half_width + 1,
        y + 1,
    );
    if guides.iter().any(|g| (top..=bottom).contains(g)) {
        area.draw(&Rectangle::new(
            [(left, top), (right, bottom)],
            options.theme.background.mix(0.85).filled(),
        ))?;
    }
    area.draw(&Text::new(text, foot, style))?;
    Ok(())
}

/// An error bar: from `lo` to `hi` at `centre`, with caps `half` wide on each side.
struct Whisker {
    centre: f64,
    half: f64,
    lo: f64,
    hi: f64,
}

/// Draws an error bar (±1σ, say) over a bar, clamped to the axis.
fn draw_whisker<DB: DrawingBackend>(
    chart: &mut BarChart<'_, DB>,
    w: Whisker,
    top: f64,
    color: RGBColor,
) -> Result<(), DrawError> {
    if !(w.lo.is_finite() && w.hi.is_finite()) {
        return Ok(());
    }
    let (lo, hi) = (w.lo.clamp(0.0, top), w.hi.clamp(0.0, top));
    let style = color.stroke_width(1);
    let (a, b) = (w.centre - w.half, w.centre + w.half);
    chart.draw_series([
        PathElement::new(vec![(w.centre, lo), (w.centre, hi)], style),
        PathElement::new(vec![(a, lo), (b, lo)], style),
        PathElement::new(vec![(a, hi), (b, hi)], style),
    ])?;
    Ok(())
}

/// The horizontal guide lines of a bar chart (an SLA, the 5% and 10% of a CV chart): value and
/// label.
fn thresholds(spec: &ChartSpec) -> impl Iterator<Item = (f64, String)> + '_ {
    spec.annotations.iter().filter_map(|a| match a {
        super::Annotation::Threshold {
            axis: super::AxisName::Y,
            value,
            label,
        } if value.is_finite() && *value >= 0.0 && *value < MAX_BAR_VALUE => {
            let label = if label.is_empty() {
                format::with_unit(*value, &spec.y.unit)
            } else {
                label.clone()
            };
            Some((*value, label))
        }
        _ => None,
    })
}

/// How far apart (pixels) two guide lines must be for both labels to sit at the right end.
const GUIDE_LABEL_HEIGHT: i32 = 15;

/// Draws each guide line dashed across the plot, its label at the right end above it (at the
/// left end where another label would cover it); returns the height of each (area pixels).
fn draw_thresholds<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &BarChart<'_, DB>,
    spec: &ChartSpec,
    options: &DrawOptions,
    top: f64,
) -> Result<Vec<i32>, DrawError> {
    let (base_x, base_y) = area.get_base_pixel();
    let x_range = chart.x_range();
    let mut heights = Vec::new();
    // Labels written at the right end, by height: a line too close to one of them (two SLAs
    // 500 ms apart on a tall axis) has its label at the left end instead.
    let mut at_right: Vec<i32> = Vec::new();
    for (value, label) in thresholds(spec).filter(|(v, _)| *v <= top) {
        let (x0, y) = chart.backend_coord(&(x_range.start, value));
        let (x1, _) = chart.backend_coord(&(x_range.end, value));
        let (x0, x1, y) = (x0 - base_x, x1 - base_x, y - base_y);
        heights.push(y);
        area.draw(&DashedPathElement::new(
            [(x0, y), (x1, y)],
            6,
            4,
            options.theme.text.stroke_width(1),
        ))?;
        let crowded = at_right
            .iter()
            .any(|other| (other - y).abs() < GUIDE_LABEL_HEIGHT);
        let (x, h) = if crowded {
            (x0 + 4, HPos::Left)
        } else {
            at_right.push(y);
            (x1 - 4, HPos::Right)
        };
        // On a backdrop: the label often stands over a bar taller than the line.
        let width = estimate_text_width(&label, 11) as i32;
        let left = if crowded { x } else { x - width };
        area.draw(&Rectangle::new(
            [(left - 2, y - 16), (left + width + 2, y - 2)],
            options.theme.background.mix(0.85).filled(),
        ))?;
        area.draw(&Text::new(
            label,
            (x, y - 3),
            font(11)
                .color(&options.theme.text)
                .pos(Pos::new(h, VPos::Bottom)),
        ))?;
    }
    Ok(heights)
}

/// Room for the widest y tick label plus the rotated axis title.
fn y_label_width(top: f64) -> u32 {
    let widest = estimate_text_width(&format::number(top), 12);
    widest + 30
}

/// Bar axes do not stretch beyond this (plotters' tick arithmetic overflows near `f64::MAX`);
/// larger values run off the top.
const MAX_BAR_VALUE: f64 = 1e15;

/// Largest y value over visible series, for axis ranges.
fn max_y(spec: &ChartSpec, options: &DrawOptions) -> Option<f64> {
    max_over_points(spec, options, |p| p.y)
}

/// Largest value `of` the visible series' points gives (a bar's top, its error bar's top),
/// within the range a bar axis can hold.
fn max_over_points(
    spec: &ChartSpec,
    options: &DrawOptions,
    of: impl Fn(&Point) -> Option<f64>,
) -> Option<f64> {
    spec.series
        .iter()
        .enumerate()
        .filter(|(i, _)| !options.is_hidden(*i))
        .flat_map(|(_, s)| s.points.iter().filter_map(&of))
        .filter(|v| v.is_finite() && v.abs() < MAX_BAR_VALUE)
        .max_by(f64::total_cmp)
}
