//! The frame of a plot: the plotting rectangle under the header, its axes' ticks, the grid,
//! tick labels thinned so none overlaps (with the `∞` slot and its axis break), and axis titles.

use crate::chart::theme::font;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::super::scale::{keep_labels, linear_ticks, log_bounds, log_ticks, AxisMap, Scale};
use super::super::text::estimate_text_width;
use super::super::theme::Theme;
use super::super::{ChartSpec, DrawError, DrawOptions};
use super::area::{AxisSetup, Plot, XAxis, TICK_FONT};
use crate::format;

/// Axis title size.
const TITLE_FONT: u32 = 13;

/// Bounds and tick values of one axis.
#[derive(Debug, Clone, PartialEq)]
struct AxisTicks {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
}

fn ticks_for(setup: &AxisSetup, max_ticks: usize) -> AxisTicks {
    match setup.scale {
        Scale::Linear => {
            let (min, max) = setup.extent.range.unwrap_or((0.0, 1.0));
            let t = linear_ticks(min, max, max_ticks, setup.zero);
            AxisTicks {
                lo: t.lo,
                hi: t.hi,
                ticks: t.values(),
            }
        }
        Scale::Log => {
            let (min, max) = setup.extent.range.unwrap_or((1.0, 10.0));
            let (lo, hi) = log_bounds(min, max);
            AxisTicks {
                lo,
                hi,
                ticks: log_ticks(lo, hi, max_ticks),
            }
        }
    }
}

/// Draws the header, grid, axes, ticks and titles; returns the plot to draw data in.
pub(in crate::chart) fn frame<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    options: &DrawOptions,
    legend: bool,
    x: XAxis<'_>,
    y: AxisSetup,
) -> Result<Plot, DrawError> {
    let theme = &options.theme;
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let header = super::super::header::draw(area, spec, options, legend)? as i32;
    let top = header + 8;
    let bottom = (h - 50).max(top + 20);

    let y_count = ((bottom - top) / 34 + 1).clamp(2, 9) as usize;
    let yt = ticks_for(&y, y_count);
    let y_labels: Vec<String> = yt.ticks.iter().map(|v| format::number(*v)).collect();
    let label_w = y_labels
        .iter()
        .map(|l| estimate_text_width(l, TICK_FONT) as i32)
        .max()
        .unwrap_or(8);
    let left = (12 + 16 + 8 + label_w).min(w / 2);
    let right = (w - 18).max(left + 20);
    let y_map = AxisMap {
        lo: yt.lo,
        hi: yt.hi,
        scale: y.scale,
        from: f64::from(bottom),
        to: f64::from(top),
        infinite: false,
    };
    let (x_map, x_ticks, categories) = x_axis(x, left, right);
    let plot = Plot {
        left,
        top,
        right,
        bottom,
        x: x_map,
        y: y_map,
        base: area.get_base_pixel(),
    };

    let y_px: Vec<i32> = yt.ticks.iter().filter_map(|v| plot.y_px(*v)).collect();
    let x_px: Vec<(f64, i32)> = x_ticks
        .iter()
        .filter_map(|v| plot.x_px(*v).map(|p| (*v, p)))
        .collect();
    draw_grid_and_axes(area, &plot, theme, &y_px, &x_px)?;
    draw_y_tick_labels(area, &plot, theme, &y_labels, &y_px)?;
    draw_x_tick_labels(area, &plot, theme, categories, &x_px)?;
    draw_axis_titles(area, spec, &plot, theme, h)?;
    Ok(plot)
}

/// The horizontal map between `left` and `right`, its tick values, and its category labels
/// (for a category axis): as many ticks as fit the widest label.
fn x_axis(x: XAxis<'_>, left: i32, right: i32) -> (AxisMap, Vec<f64>, Option<&[String]>) {
    match x {
        XAxis::Numeric(setup) => {
            let infinite = setup.infinite_slot && setup.extent.infinite;
            let finite_w = f64::from(right - left)
                * if infinite {
                    super::super::scale::FINITE_SHARE
                } else {
                    1.0
                };
            let (a, b) = setup.extent.range.unwrap_or((0.0, 1.0));
            let widest = estimate_text_width(&format::number(a), TICK_FONT)
                .max(estimate_text_width(&format::number(b), TICK_FONT))
                .max(estimate_text_width(&format::number(b * 1.25), TICK_FONT));
            let count = (finite_w / f64::from(widest + 28)).floor() as usize + 1;
            let xt = ticks_for(&setup, count.clamp(2, 11));
            let map = AxisMap {
                lo: xt.lo,
                hi: xt.hi,
                scale: setup.scale,
                from: f64::from(left),
                to: f64::from(right),
                infinite,
            };
            (map, xt.ticks, None)
        }
        XAxis::Categories(labels) => {
            let map = AxisMap {
                lo: -0.5,
                hi: labels.len() as f64 - 0.5,
                scale: Scale::Linear,
                from: f64::from(left),
                to: f64::from(right),
                infinite: false,
            };
            (map, Vec::new(), Some(labels))
        }
    }
}

/// The grid lines at the ticks' pixels, then the axes.
fn draw_grid_and_axes<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    plot: &Plot,
    theme: &Theme,
    y_px: &[i32],
    x_px: &[(f64, i32)],
) -> Result<(), DrawError> {
    let Plot {
        left,
        top,
        right,
        bottom,
        ..
    } = *plot;
    for &py in y_px {
        area.draw(&PathElement::new(
            [(left, py), (right, py)],
            theme.grid.stroke_width(1),
        ))?;
    }
    for &(_, px) in x_px {
        area.draw(&PathElement::new(
            [(px, top), (px, bottom)],
            theme.grid.stroke_width(1),
        ))?;
    }
    area.draw(&PathElement::new(
        [(left, top), (left, bottom), (right, bottom)],
        theme.axis.stroke_width(1),
    ))?;
    Ok(())
}

/// The y tick labels, thinned so none overlaps.
fn draw_y_tick_labels<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    plot: &Plot,
    theme: &Theme,
    y_labels: &[String],
    y_px: &[i32],
) -> Result<(), DrawError> {
    let left = plot.left;
    let tick_style = font(TICK_FONT).color(&theme.text);
    let spans: Vec<(f64, f64)> = y_px
        .iter()
        .map(|&p| (f64::from(p) - 7.0, f64::from(p) + 7.0))
        .collect();
    let keep = keep_labels(&spans, 2.0, &[]);
    for ((label, &py), kept) in y_labels.iter().zip(y_px).zip(keep) {
        if kept {
            draw_tick(
                area,
                theme,
                [(left - 4, py), (left, py)],
                label,
                (left - 6, py),
                tick_style.pos(Pos::new(HPos::Right, VPos::Center)),
            )?;
        }
    }
    Ok(())
}

/// One tick label that is kept: its tick mark along `tick` and `label` at `at` in `style`.
fn draw_tick<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
    tick: [(i32, i32); 2],
    label: &str,
    at: (i32, i32),
    style: TextStyle<'_>,
) -> Result<(), DrawError> {
    area.draw(&PathElement::new(tick, theme.axis.stroke_width(1)))?;
    area.draw(&Text::new(label, at, style))?;
    Ok(())
}

/// The x tick labels: numbers (with `∞` kept last, after a break in the axis) or categories,
/// thinned so none overlaps.
fn draw_x_tick_labels<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    plot: &Plot,
    theme: &Theme,
    categories: Option<&[String]>,
    x_px: &[(f64, i32)],
) -> Result<(), DrawError> {
    let (right, bottom) = (plot.right, plot.bottom);
    let tick_style = font(TICK_FONT).color(&theme.text);
    let mut labels: Vec<(String, i32)> = match categories {
        Some(names) => names
            .iter()
            .enumerate()
            .filter_map(|(i, n)| plot.x_px(i as f64).map(|p| (n.clone(), p)))
            .collect(),
        None => x_px.iter().map(|&(v, p)| (format::number(v), p)).collect(),
    };
    let mut must = vec![false; labels.len()];
    if plot.x.infinite {
        labels.push(("∞".to_string(), right));
        must.push(true);
    }
    let spans: Vec<(f64, f64)> = labels
        .iter()
        .map(|(l, p)| {
            let half = f64::from(estimate_text_width(l, TICK_FONT)) / 2.0;
            (f64::from(*p) - half, f64::from(*p) + half)
        })
        .collect();
    let keep = keep_labels(&spans, 6.0, &must);
    for ((label, px), kept) in labels.iter().zip(keep) {
        if kept {
            draw_tick(
                area,
                theme,
                [(*px, bottom), (*px, bottom + 4)],
                label,
                (*px, bottom + 6),
                tick_style.pos(Pos::new(HPos::Center, VPos::Top)),
            )?;
        }
    }
    if plot.x.infinite {
        // The distance to `∞` is not to scale: break the axis before it.
        let bx = ((plot.x.finite_end() + f64::from(right)) / 2.0).round() as i32;
        for dx in [-3, 3] {
            area.draw(&PathElement::new(
                [(bx + dx - 3, bottom + 5), (bx + dx + 3, bottom - 5)],
                theme.axis.stroke_width(1),
            ))?;
        }
    }
    Ok(())
}

/// The axis titles, with units: x under the axis, y turned along the left edge.
fn draw_axis_titles<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    plot: &Plot,
    theme: &Theme,
    h: i32,
) -> Result<(), DrawError> {
    let Plot {
        left,
        top,
        right,
        bottom,
        ..
    } = *plot;
    let title_style = font(TITLE_FONT).color(&theme.text);
    area.draw(&Text::new(
        spec.x.label(),
        ((left + right) / 2, h - 6),
        title_style.pos(Pos::new(HPos::Center, VPos::Bottom)),
    ))?;
    area.draw(&Text::new(
        fitted_y_title(spec, (bottom - top).max(0) as u32),
        (8, (top + bottom) / 2),
        title_style
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Center, VPos::Top)),
    ))?;
    Ok(())
}

/// The y axis title as long as fits along `length` pixels (the plot's height, since it is turned):
/// with its unit; else the unit alone when the chart's title already names the quantity (a
/// panel "Output throughput" reads its axis as `tok/s`, which the bare name would not say); else
/// the name without its unit; else the unit alone (a fact, where a cut name is a guess); else the
/// name cut with `…`. On a short plot (a phone, a grid's panel, a home card) a long title would
/// otherwise run up into the chart's own title.
pub(in crate::chart) fn fitted_y_title(spec: &ChartSpec, length: u32) -> String {
    let fits = |text: &str| estimate_text_width(text, TITLE_FONT) <= length;
    let full = spec.y.label();
    if fits(&full) {
        return full;
    }
    let unit = (!spec.y.unit.is_empty() && fits(&spec.y.unit)).then(|| spec.y.unit.clone());
    // ASCII case only: Unicode's case tables would cost the app's wasm 12 KB for a title test.
    let named_above = !spec.y.title.is_empty()
        && spec
            .title
            .to_ascii_lowercase()
            .contains(&spec.y.title.to_ascii_lowercase());
    if let (true, Some(unit)) = (named_above, &unit) {
        return unit.clone();
    }
    if fits(&spec.y.title) {
        return spec.y.title.clone();
    }
    if let Some(unit) = unit {
        return unit;
    }
    let mut cut: String = spec.y.title.clone();
    while !cut.is_empty() && !fits(&format!("{cut}…")) {
        cut.pop();
    }
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::Axis;

    #[test]
    fn a_y_title_longer_than_the_plot_is_shortened_never_spilled() {
        let spec = ChartSpec {
            y: Axis::new("Output throughput per GPU", "tok/s/GPU"),
            ..ChartSpec::default()
        };
        assert_eq!(
            fitted_y_title(&spec, 1000),
            "Output throughput per GPU (tok/s/GPU)"
        );
        let without_unit = estimate_text_width("Output throughput per GPU", TITLE_FONT);
        assert_eq!(
            fitted_y_title(&spec, without_unit),
            "Output throughput per GPU"
        );
        // Shorter than the name: its unit, while that fits; then the name cut.
        assert_eq!(fitted_y_title(&spec, without_unit - 1), "tok/s/GPU");
        let unit = estimate_text_width("tok/s/GPU", TITLE_FONT);
        let cut = fitted_y_title(&spec, unit - 1);
        assert!(cut.ends_with('…') && cut.starts_with("Out"), "{cut}");
        assert!(estimate_text_width(&cut, TITLE_FONT) < unit);
        assert_eq!(fitted_y_title(&spec, 0), "…");
    }

    #[test]
    fn a_y_title_the_chart_title_names_keeps_its_unit_when_it_must_be_short() {
        let spec = ChartSpec {
            title: "Output throughput".into(),
            y: Axis::new("Output throughput", "tok/s"),
            ..ChartSpec::default()
        };
        let full = estimate_text_width("Output throughput (tok/s)", TITLE_FONT);
        assert_eq!(fitted_y_title(&spec, full), "Output throughput (tok/s)");
        assert_eq!(fitted_y_title(&spec, full - 1), "tok/s");
        // Under another title the quantity's name says more than its unit.
        let other = ChartSpec {
            title: "Throughput against latency".into(),
            ..spec
        };
        assert_eq!(fitted_y_title(&other, full - 1), "Output throughput");
    }
}
