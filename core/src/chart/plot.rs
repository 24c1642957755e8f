//! The frame shared by the kinds with a numeric value axis (lines, scatter, CDF, histogram,
//! box): layout under the header, grid, axes, tick labels that never overlap, axis titles with
//! units, the `∞` slot, threshold and marker annotations, and the ✕ that marks a missing value.
//!
//! Everything is placed in pixels of the drawing area; [`Plot`] maps data to those pixels and
//! turns them into [`Target`]s in backend pixels. The frame itself (rectangle, grid, ticks and
//! titles) is drawn by the child module `axes`; what a plot spans is `area`.

use crate::chart::theme::font;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::text::estimate_text_width;
use super::{Annotation, AxisName, ChartSpec, DrawError, DrawOptions, Point, Target};
use crate::format;

mod area;
mod axes;
mod clip;

pub(super) use area::{AxisSetup, Plot, XAxis, TICK_FONT};
pub(super) use axes::{fitted_y_title, frame};

impl Plot {
    /// The area pixel of data point (x, y), if both can be placed.
    pub fn at(&self, x: f64, y: f64) -> Option<(i32, i32)> {
        Some((self.x_px(x)?, self.y_px(y)?))
    }

    /// The area pixel column of `x`.
    pub fn x_px(&self, x: f64) -> Option<i32> {
        self.x.px(x).map(|v| v.round() as i32)
    }

    /// The area pixel row of `y`.
    pub fn y_px(&self, y: f64) -> Option<i32> {
        self.y.px(y).map(|v| v.round() as i32)
    }

    /// A target at area pixel `at`.
    pub fn target(&self, series: usize, point: usize, at: (i32, i32)) -> Target {
        to_target(self.base, series, point, at)
    }

    /// Marks a missing value at column `x` with a ✕ just above the x axis (never a zero);
    /// returns where the mark is, for its target.
    pub fn gap<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        color: RGBColor,
        x: i32,
    ) -> Result<(i32, i32), DrawError> {
        gap_mark(area, color, (x, self.bottom - 2))
    }

    /// Draws threshold lines and markers over the data. Their labels sit on a backdrop and are
    /// moved up when they would cover one another; returns the labels' boxes.
    pub fn annotations<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        spec: &ChartSpec,
        options: &DrawOptions,
    ) -> Result<Vec<LabelBox>, DrawError> {
        let theme = &options.theme;
        let mut placed: Vec<LabelBox> = Vec::new();
        // Lines first, so labels can avoid every line's label.
        for a in &spec.annotations {
            let Annotation::Threshold { axis, value, label } = a else {
                continue;
            };
            let (from, to, text, anchor) = match axis {
                AxisName::Y => {
                    let Some(py) = self
                        .y_px(*value)
                        .filter(|p| (self.top..=self.bottom).contains(p))
                    else {
                        continue;
                    };
                    let text = threshold_label(label, *value, &spec.y.unit);
                    let anchor = ((self.right - 4, py - 3), HPos::Right, VPos::Bottom);
                    ((self.left, py), (self.right, py), text, anchor)
                }
                AxisName::X => {
                    let Some(px) = self
                        .x_px(*value)
                        .filter(|p| (self.left..=self.right).contains(p))
                    else {
                        continue;
                    };
                    let text = threshold_label(label, *value, &spec.x.unit);
                    let width = estimate_text_width(&text, TICK_FONT) as i32;
                    // Right of the line where it fits, else left of it, else as far left as
                    // the plot allows: a label never leaves the plot (a narrow chart's note).
                    let anchor = if px + 4 + width <= self.right {
                        ((px + 4, self.top + 2), HPos::Left, VPos::Top)
                    } else if px - 4 - width >= self.left {
                        ((px - 4, self.top + 2), HPos::Right, VPos::Top)
                    } else {
                        let x = (self.right - width).max(self.left);
                        ((x, self.top + 2), HPos::Left, VPos::Top)
                    };
                    ((px, self.top), (px, self.bottom), text, anchor)
                }
            };
            area.draw(&DashedPathElement::new(
                [from, to],
                6,
                4,
                theme.text.stroke_width(1),
            ))?;
            let (at, h, v) = anchor;
            let b = label_box(&text, at, h, v, TICK_FONT, &placed);
            draw_label(area, &text, b, false, theme.text, theme.background)?;
            placed.push(b);
        }
        for a in &spec.annotations {
            if let Some(b) = self.fit_line(area, spec, options, a, &placed)? {
                placed.push(b);
            }
        }
        for a in &spec.annotations {
            let Annotation::Marker {
                series,
                x,
                y,
                label,
            } = a
            else {
                continue;
            };
            if series.is_some_and(|s| options.is_hidden(s) || s >= spec.series.len()) {
                continue;
            }
            let Some((px, py)) = self.at(*x, *y).filter(|&p| self.inside(p)) else {
                continue;
            };
            let color = series.map_or(theme.text, |s| theme.series(spec.series[s].color));
            area.draw(&Circle::new((px, py), 7, color.stroke_width(2)))?;
            let width = estimate_text_width(label, TICK_FONT) as i32;
            let (tx, h) = if px + 10 + width > self.right {
                (px - 10, HPos::Right)
            } else {
                (px + 10, HPos::Left)
            };
            let ty = (py - 9).max(self.top + 14);
            let b = label_box(label, (tx, ty), h, VPos::Bottom, TICK_FONT, &placed);
            draw_label(area, label, b, true, theme.text, theme.background)?;
            placed.push(b);
        }
        Ok(placed)
    }
}

impl Plot {
    /// Draws `a` if it is a visible series' fitted line, clipped to the plot (dashed in the
    /// text's colour on a line chart), with its label at its right end; returns the label's box.
    fn fit_line<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        spec: &ChartSpec,
        options: &DrawOptions,
        a: &Annotation,
        placed: &[LabelBox],
    ) -> Result<Option<LabelBox>, DrawError> {
        let Annotation::Fit {
            series,
            slope,
            intercept,
            from,
            to,
            label,
        } = a
        else {
            return Ok(None);
        };
        if *series >= spec.series.len() || options.is_hidden(*series) {
            return Ok(None);
        }
        let ends = [*from, *to].map(|x| {
            let y = intercept + slope * x;
            Some((f64::from(self.x_px(x)?), f64::from(self.y_px(y)?)))
        });
        let [Some(start), Some(end)] = ends else {
            return Ok(None);
        };
        let px = |p: (f64, f64)| (p.0.round() as i32, p.1.round() as i32);
        let Some((start, end)) = self.clip_segment(px(start), px(end)) else {
            return Ok(None);
        };
        let color = options.theme.series(spec.series[*series].color);
        if matches!(spec.kind, super::ChartKind::Lines) {
            // A line chart's own line runs through the points the fit is made from: the fit is
            // dashed in the text's colour over it (seed 004's dashed fit), its label in the
            // series' colour says whose it is.
            area.draw(&plotters::element::DashedPathElement::new(
                [start, end],
                6,
                4,
                options.theme.text.stroke_width(2),
            ))?;
        } else {
            area.draw(&PathElement::new([start, end], color.stroke_width(2)))?;
        }
        let (x, y) = end;
        let b = label_box(
            label,
            (x - 4, y - 6),
            HPos::Right,
            VPos::Bottom,
            TICK_FONT,
            placed,
        );
        draw_label(area, label, b, true, color, options.theme.background)?;
        Ok(Some(b))
    }
}

/// Where a label's text goes: its anchor and the box it covers (area pixels).
#[derive(Clone, Copy)]
pub(super) struct LabelBox {
    /// Anchor of the text.
    pub at: (i32, i32),
    /// Horizontal anchoring.
    pub h: HPos,
    /// Left, top, right, bottom.
    pub rect: (i32, i32, i32, i32),
}

impl LabelBox {
    /// Whether it covers any part of `other`.
    pub(super) fn overlaps(&self, other: &LabelBox) -> bool {
        let (a, b) = (self.rect, other.rect);
        a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
    }

    /// Whether it hides part of a line: a point of any of `lines` (polylines in area pixels),
    /// or a stretch between two of them.
    pub(super) fn covers_lines(&self, lines: &[Vec<(i32, i32)>]) -> bool {
        lines.iter().any(|line| match line.as_slice() {
            [only] => clip::clip_segment_to(self.rect, *only, *only).is_some(),
            points => points
                .windows(2)
                .any(|pair| clip::clip_segment_to(self.rect, pair[0], pair[1]).is_some()),
        })
    }
}

/// The box of `text` anchored at `at`, moved up (down for top-anchored labels) in steps of a
/// line until it covers none of `placed` (at most four steps).
pub(super) fn label_box(
    text: &str,
    at: (i32, i32),
    h: HPos,
    v: VPos,
    size: u32,
    placed: &[LabelBox],
) -> LabelBox {
    let w = estimate_text_width(text, size) as i32 + 4;
    let line = size as i32 + 3;
    let left = match h {
        HPos::Left => at.0 - 2,
        HPos::Center => at.0 - w / 2,
        HPos::Right => at.0 - w + 2,
    };
    let top = match v {
        VPos::Top => at.1 - 1,
        VPos::Center => at.1 - line / 2,
        VPos::Bottom => at.1 - line + 1,
    };
    let step = if matches!(v, VPos::Top) { line } else { -line };
    let mut b = LabelBox {
        at: (at.0, top + 1),
        h,
        rect: (left, top, left + w, top + line),
    };
    for _ in 0..4 {
        if !placed.iter().any(|p| p.overlaps(&b)) {
            break;
        }
        b.at.1 += step;
        b.rect.1 += step;
        b.rect.3 += step;
    }
    b
}

/// Draws `text` in box `b` over a backdrop of the background colour, so it reads over lines.
pub(super) fn draw_label<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    b: LabelBox,
    bold: bool,
    color: RGBColor,
    background: RGBColor,
) -> Result<(), DrawError> {
    let (l, t, r, bottom) = b.rect;
    area.draw(&Rectangle::new(
        [(l, t), (r, bottom)],
        background.mix(0.85).filled(),
    ))?;
    let font = font(TICK_FONT);
    let font = if bold {
        font.style(FontStyle::Bold)
    } else {
        font
    };
    area.draw(&Text::new(
        text.to_string(),
        b.at,
        font.color(&color).pos(Pos::new(b.h, VPos::Top)),
    ))?;
    Ok(())
}

/// A target at area pixel `at` of an area whose corner is `base`.
pub(super) fn to_target(base: (i32, i32), series: usize, point: usize, at: (i32, i32)) -> Target {
    Target {
        series,
        point,
        x: at.0 + base.0,
        y: at.1 + base.1,
    }
}

/// Draws the ✕ of a missing value with its bottom at `at`; returns the mark's centre.
pub(super) fn gap_mark<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    color: RGBColor,
    at: (i32, i32),
) -> Result<(i32, i32), DrawError> {
    area.draw(&Text::new(
        "✕",
        at,
        font(13)
            .color(&color)
            .pos(Pos::new(HPos::Center, VPos::Bottom)),
    ))?;
    Ok((at.0, at.1 - 7))
}

fn threshold_label(label: &str, value: f64, unit: &str) -> String {
    if label.is_empty() {
        format::with_unit(value, unit)
    } else {
        label.to_string()
    }
}

/// The values annotations put on `axis`, so the axis covers them. Markers of hidden series do
/// not count.
pub(super) fn annotation_values(
    spec: &ChartSpec,
    options: &DrawOptions,
    axis: AxisName,
) -> Vec<f64> {
    spec.annotations
        .iter()
        .filter_map(|a| match (a, axis) {
            (
                Annotation::Threshold {
                    axis: on, value, ..
                },
                _,
            ) if *on == axis => Some(*value),
            (Annotation::Marker { series, x, y, .. }, _)
                if !series.is_some_and(|s| options.is_hidden(s)) =>
            {
                Some(if axis == AxisName::X { *x } else { *y })
            }
            _ => None,
        })
        .collect()
}

/// What `axis` must cover: the values `of` gives for each point of the `visible` series, then
/// the annotations' values on it.
pub(super) fn axis_values<'a, I: IntoIterator<Item = f64> + 'a>(
    spec: &'a ChartSpec,
    options: &DrawOptions,
    visible: &'a [usize],
    axis: AxisName,
    of: impl Fn(&'a Point) -> I + Copy + 'a,
) -> impl Iterator<Item = f64> + 'a {
    let annotations = annotation_values(spec, options, axis);
    visible
        .iter()
        .flat_map(move |&i| spec.series[i].points.iter().flat_map(of))
        .chain(annotations)
}

/// Drops consecutive duplicates from a pixel path (100,000 samples become a few hundred
/// distinct pixels).
pub(super) fn dedup_path(points: impl IntoIterator<Item = (i32, i32)>) -> Vec<(i32, i32)> {
    let mut out: Vec<(i32, i32)> = Vec::new();
    for p in points {
        if out.last() != Some(&p) {
            out.push(p);
        }
    }
    out
}

/// `Err(DrawError::Empty)` unless some point of `spec` has an x that `drawable` accepts: a
/// chart with nothing to place is an error, never a blank chart.
pub(super) fn require_drawable_x(
    spec: &ChartSpec,
    drawable: impl Fn(f64) -> bool,
) -> Result<(), DrawError> {
    if spec
        .series
        .iter()
        .any(|s| s.points.iter().any(|p| drawable(p.x)))
    {
        Ok(())
    } else {
        Err(DrawError::Empty(spec.id.clone()))
    }
}

/// `Err(DrawError::Empty)` when a chart by category has no category or no point.
pub(super) fn require_categories(spec: &ChartSpec, categories: &[String]) -> Result<(), DrawError> {
    if categories.is_empty() || spec.series.iter().all(|s| s.points.is_empty()) {
        Err(DrawError::Empty(spec.id.clone()))
    } else {
        Ok(())
    }
}

/// Indices of the series not hidden.
pub(super) fn visible(spec: &ChartSpec, options: &DrawOptions) -> Vec<usize> {
    (0..spec.series.len())
        .filter(|&i| !options.is_hidden(i))
        .collect()
}
