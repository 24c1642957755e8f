//! Head-to-head horizontal bars: one row per metric, each with its own unit and better direction
//! (so each row is scaled to its own largest value), one bar per visible series. Every bar
//! carries its value with the unit; the best value of a row is bold and marked ✓ (only when there
//! is something to beat). A missing value is a ✕ with `n/a`, never an empty bar.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::plot::{self, gap_mark, to_target, FONT};
use super::text::estimate_text_width;
use super::{ChartSpec, DrawError, DrawOptions, Frame, HBarMetric};
use crate::format;
use crate::quantity::Better;

const LABEL_FONT: u32 = 12;
const HINT_FONT: u32 = 11;
const VALUE_FONT: u32 = 11;
const BAR_GAP: i32 = 4;
const ROW_GAP: i32 = 14;

pub(super) fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    metrics: &[HBarMetric],
    options: &DrawOptions,
    legend: bool,
) -> Result<Frame, DrawError> {
    let in_rows = |x: f64| {
        let i = x.round();
        (x.is_finite() && i >= 0.0 && (i as usize) < metrics.len()).then_some(i as usize)
    };
    if !spec
        .series
        .iter()
        .any(|s| s.points.iter().any(|p| in_rows(p.x).is_some()))
    {
        return Err(DrawError::Empty(spec.id.clone()));
    }
    let theme = &options.theme;
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let header = super::header::draw(area, spec, options, legend)? as i32;
    let visible = plot::visible(spec, options);
    let base = area.get_base_pixel();

    // values[row][k]: the first point of visible series k in that row.
    let values: Vec<Vec<Option<Entry>>> = (0..metrics.len())
        .map(|row| {
            visible
                .iter()
                .map(|&si| {
                    spec.series[si]
                        .points
                        .iter()
                        .enumerate()
                        .find(|(_, p)| in_rows(p.x) == Some(row))
                        .map(|(pi, p)| (pi, p.y.filter(|y| y.is_finite())))
                })
                .collect()
        })
        .collect();
    let text_of = |row: usize, v: f64| format::with_unit(v, &metrics[row].unit);

    let label_w = metrics
        .iter()
        .map(|m| {
            estimate_text_width(&m.label, LABEL_FONT)
                .max(estimate_text_width(hint(m.better), HINT_FONT))
        })
        .max()
        .unwrap_or(0) as i32;
    let label_w = label_w.min(w * 35 / 100) + 16;
    let value_w = values
        .iter()
        .enumerate()
        .flat_map(|(row, vs)| {
            vs.iter()
                .flatten()
                .filter_map(move |(_, v)| v.map(|v| text_of(row, v)))
        })
        .map(|t| estimate_text_width(&format!("{t} ✓"), VALUE_FONT) as i32)
        .max()
        .unwrap_or(30)
        .max(30)
        + 12;
    let x0 = 12 + label_w;
    let x1 = (w - 12 - value_w).max(x0 + 40);

    let n = visible.len().max(1) as i32;
    let room = (h - header - 8) / metrics.len().max(1) as i32;
    let bar_h = ((room - ROW_GAP) / n - BAR_GAP).clamp(4, 18);
    let pitch = (n * (bar_h + BAR_GAP) - BAR_GAP).max(30) + ROW_GAP;
    let first_top = header + 6;

    let label_style = (FONT, LABEL_FONT)
        .into_font()
        .style(FontStyle::Bold)
        .color(&theme.text)
        .pos(Pos::new(HPos::Left, VPos::Top));
    let hint_style = (FONT, HINT_FONT)
        .into_font()
        .color(&theme.muted)
        .pos(Pos::new(HPos::Left, VPos::Top));
    let mut frame = Frame::default();
    for (row, metric) in metrics.iter().enumerate() {
        let top = first_top + row as i32 * pitch;
        area.draw(&Text::new(
            metric.label.clone(),
            (12, top),
            label_style.clone(),
        ))?;
        area.draw(&Text::new(
            hint(metric.better),
            (12, top + 16),
            hint_style.clone(),
        ))?;
        let row_values = &values[row];
        let finite: Vec<f64> = row_values
            .iter()
            .flatten()
            .filter_map(|(_, v)| *v)
            .collect();
        let max = finite.iter().copied().fold(0.0f64, f64::max);
        let best = best_value(&finite, metric.better);
        for (k, entry) in row_values.iter().enumerate() {
            let Some((pi, value)) = *entry else {
                continue;
            };
            let si = visible[k];
            let color = theme.series(spec.series[si].color);
            let y = top + k as i32 * (bar_h + BAR_GAP);
            let mid = y + bar_h / 2;
            match value {
                Some(v) => {
                    let len = if max > 0.0 {
                        ((v.max(0.0) / max) * f64::from(x1 - x0)).round() as i32
                    } else {
                        0
                    };
                    if len > 0 {
                        area.draw(&Rectangle::new(
                            [(x0, y), (x0 + len, y + bar_h)],
                            color.filled(),
                        ))?;
                    }
                    let is_best = best == Some(v);
                    let text = if is_best {
                        format!("{} ✓", text_of(row, v))
                    } else {
                        text_of(row, v)
                    };
                    let font = (FONT, VALUE_FONT).into_font();
                    let font = if is_best {
                        font.style(FontStyle::Bold)
                    } else {
                        font
                    };
                    area.draw(&Text::new(
                        text,
                        (x0 + len + 6, mid),
                        font.color(&theme.text)
                            .pos(Pos::new(HPos::Left, VPos::Center)),
                    ))?;
                    frame.targets.push(to_target(base, si, pi, (x0 + len, mid)));
                }
                None => {
                    let mark = gap_mark(area, color, (x0 + 8, mid + 7))?;
                    area.draw(&Text::new(
                        "n/a",
                        (x0 + 18, mid),
                        (FONT, VALUE_FONT)
                            .into_font()
                            .color(&theme.muted)
                            .pos(Pos::new(HPos::Left, VPos::Center)),
                    ))?;
                    frame.targets.push(to_target(base, si, pi, mark));
                }
            }
        }
    }
    // The common baseline of every row.
    let last = first_top + metrics.len() as i32 * pitch - ROW_GAP;
    area.draw(&PathElement::new(
        [(x0, first_top - 2), (x0, last)],
        theme.axis.stroke_width(1),
    ))?;
    Ok(frame)
}

/// A point's index and its finite value, if any.
type Entry = (usize, Option<f64>);

/// `lower is better` or `higher is better`.
fn hint(better: Better) -> &'static str {
    match better {
        Better::Lower => "lower is better",
        Better::Higher => "higher is better",
    }
}

/// The winning value of a row, when at least two values differ.
pub(super) fn best_value(values: &[f64], better: Better) -> Option<f64> {
    let min = values.iter().copied().reduce(f64::min)?;
    let max = values.iter().copied().reduce(f64::max)?;
    if values.len() < 2 || min == max {
        return None;
    }
    Some(match better {
        Better::Lower => min,
        Better::Higher => max,
    })
}
