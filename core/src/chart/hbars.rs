//! Head-to-head horizontal bars: one row per metric, each with its own unit and better direction
//! (so each row is scaled to its own largest value), one bar per visible series. Every bar
//! carries its value with the unit; the best value of a row is bold and marked ✓ (only when there
//! is something to beat). A missing value is a ✕ with `n/a`, never an empty bar.

use crate::chart::theme::font;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::plot::{self, gap_mark, to_target};
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
    plot::require_drawable_x(spec, |x| in_rows(x).is_some())?;
    let theme = &options.theme;
    let header = super::header::draw(area, spec, options, legend)? as i32;
    let visible = plot::visible(spec, options);
    let base = area.get_base_pixel();
    let values = entries(spec, metrics.len(), &visible, in_rows);
    let layout = Layout::of(area.dim_in_pixel(), header, metrics, &values, visible.len());

    let mut frame = Frame::default();
    for (row, metric) in metrics.iter().enumerate() {
        let top = layout.first_top + row as i32 * layout.pitch;
        draw_row_label(area, metric, (top, layout.x0 - 12 - 6), options)?;
        let row_values = &values[row];
        let finite: Vec<f64> = row_values
            .iter()
            .flatten()
            .filter_map(|(_, v)| *v)
            .collect();
        let max = finite.iter().copied().fold(0.0f64, f64::max);
        let best = best_value(&finite, metric.better);
        let unclear =
            best.is_some_and(|b| within_noise(spec, &visible, row_values, b, metric.better));
        let best = best.filter(|_| !unclear);
        draw_hint(area, metric, top, unclear, options)?;
        for (k, entry) in row_values.iter().enumerate() {
            let Some((pi, value)) = *entry else {
                continue;
            };
            let si = visible[k];
            let color = theme.series(spec.series[si].color);
            let y = top + k as i32 * (layout.bar_h + BAR_GAP);
            let at = match value {
                Some(v) => {
                    let bar = Bar {
                        y,
                        value: v,
                        max,
                        best: best == Some(v),
                        color,
                        slot: spec.series[si].color,
                    };
                    layout.draw_bar(area, bar, &metric.unit, options)?
                }
                None => layout.draw_missing(area, y, color, options)?,
            };
            frame.targets.push(to_target(base, si, pi, at));
        }
    }
    // The common baseline of every row.
    let last = layout.first_top + metrics.len() as i32 * layout.pitch - ROW_GAP;
    area.draw(&PathElement::new(
        [(layout.x0, layout.first_top - 2), (layout.x0, last)],
        theme.axis.stroke_width(1),
    ))?;
    Ok(frame)
}

/// `values[row][k]`: the first point of visible series `k` in that row.
fn entries(
    spec: &ChartSpec,
    rows: usize,
    visible: &[usize],
    in_rows: impl Fn(f64) -> Option<usize>,
) -> Vec<Vec<Option<Entry>>> {
    (0..rows)
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
        .collect()
}

/// Where the rows and bars go, in area pixels.
struct Layout {
    /// Where bars start: right of the widest metric label.
    x0: i32,
    /// Where the longest bar ends: left of room for the widest value.
    x1: i32,
    /// Height of one bar.
    bar_h: i32,
    /// From one row's top to the next.
    pitch: i32,
    /// The first row's top.
    first_top: i32,
}

/// One bar to draw: its top, its value against the row's largest, whether it is the row's best,
/// and its colour.
struct Bar {
    y: i32,
    value: f64,
    max: f64,
    best: bool,
    color: RGBColor,
    /// The series' palette slot (a patterned one is drawn outlined).
    slot: usize,
}

impl Layout {
    /// The layout of `metrics` rows of `series` bars in an area of `(w, h)` pixels below a
    /// header `header` pixels tall.
    fn of(
        (w, h): (u32, u32),
        header: i32,
        metrics: &[HBarMetric],
        values: &[Vec<Option<Entry>>],
        series: usize,
    ) -> Layout {
        let (w, h) = (w as i32, h as i32);
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
                    .filter_map(move |(_, v)| v.map(|v| format::with_unit(v, &metrics[row].unit)))
            })
            .map(|t| estimate_text_width(&format!("{t} ✓"), VALUE_FONT) as i32)
            .max()
            .unwrap_or(30)
            .max(30)
            + 12;
        let x0 = 12 + label_w;
        let x1 = (w - 12 - value_w).max(x0 + 40);

        let n = series.max(1) as i32;
        let room = (h - header - 8) / metrics.len().max(1) as i32;
        let bar_h = ((room - ROW_GAP) / n - BAR_GAP).clamp(4, 18);
        let pitch = (n * (bar_h + BAR_GAP) - BAR_GAP).max(30) + ROW_GAP;
        Layout {
            x0,
            x1,
            bar_h,
            pitch,
            first_top: header + 6,
        }
    }

    /// Draws a bar and its value with `unit` (bold with ✓ when best); returns the bar's end.
    fn draw_bar<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        bar: Bar,
        unit: &str,
        options: &DrawOptions,
    ) -> Result<(i32, i32), DrawError> {
        let (x0, x1) = (self.x0, self.x1);
        let Bar {
            y,
            value: v,
            max,
            best: is_best,
            color,
            slot,
        } = bar;
        let mid = y + self.bar_h / 2;
        let len = if max > 0.0 {
            ((v.max(0.0) / max) * f64::from(x1 - x0)).round() as i32
        } else {
            0
        };
        if len > 0 {
            for style in super::look::bar(color, slot) {
                area.draw(&Rectangle::new(
                    [(x0, y), (x0 + len, y + self.bar_h)],
                    style,
                ))?;
            }
        }
        let text = if is_best {
            format!("{} ✓", format::with_unit(v, unit))
        } else {
            format::with_unit(v, unit)
        };
        let font = font(VALUE_FONT);
        let font = if is_best {
            font.style(FontStyle::Bold)
        } else {
            font
        };
        area.draw(&Text::new(
            text,
            (x0 + len + 6, mid),
            font.color(&options.theme.text)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        Ok((x0 + len, mid))
    }

    /// Draws the ✕ and `n/a` of a missing value in the bar at `y`; returns the mark's centre.
    fn draw_missing<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        y: i32,
        color: RGBColor,
        options: &DrawOptions,
    ) -> Result<(i32, i32), DrawError> {
        let mid = y + self.bar_h / 2;
        let mark = gap_mark(area, color, (self.x0 + 8, mid + 7))?;
        area.draw(&Text::new(
            "n/a",
            (self.x0 + 18, mid),
            font(VALUE_FONT)
                .color(&options.theme.muted)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        Ok(mark)
    }
}

/// Draws a row's metric label and, under it, which way is better.
fn draw_row_label<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    metric: &HBarMetric,
    (top, room): (i32, i32),
    options: &DrawOptions,
) -> Result<(), DrawError> {
    let theme = &options.theme;
    let label_style = font(LABEL_FONT)
        .style(FontStyle::Bold)
        .color(&theme.text)
        .pos(Pos::new(HPos::Left, VPos::Top));
    let label = fitted(&metric.label, room);
    area.draw(&Text::new(label, (12, top), label_style))?;
    Ok(())
}

/// `label` as it fits in `room` pixels at the label's size: whole, or cut with `…` (on a phone a
/// long label would run under the bars; the tooltip and the data table give it whole).
fn fitted(label: &str, room: i32) -> String {
    let fits = |text: &str| estimate_text_width(text, LABEL_FONT) as i32 <= room;
    if fits(label) {
        return label.to_string();
    }
    let mut chars: Vec<char> = label.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let cut: String = chars.iter().collect::<String>().trim_end().to_string() + "…";
        if fits(&cut) {
            return cut;
        }
    }
    "…".to_string()
}

/// Draws under a row's label which way is better, and under that, when its best value is not
/// clearly better than another (the interval of their difference includes none), the words
/// readers learn for it: "no clear difference".
fn draw_hint<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    metric: &HBarMetric,
    top: i32,
    unclear: bool,
    options: &DrawOptions,
) -> Result<(), DrawError> {
    let hint_style = font(HINT_FONT)
        .color(&options.theme.muted)
        .pos(Pos::new(HPos::Left, VPos::Top));
    area.draw(&Text::new(
        hint(metric.better),
        (12, top + 16),
        hint_style.clone(),
    ))?;
    if unclear {
        let words = crate::noise::NO_CLEAR_DIFFERENCE;
        area.draw(&Text::new(words, (12, top + 30), hint_style))?;
    }
    Ok(())
}

/// True when the row's `best` value is within the noise of another value of the row: both
/// carry 95% intervals and the interval of their ratio includes one. Values without intervals
/// are compared bare (the chart's caption says their noise is unknown).
fn within_noise(
    spec: &ChartSpec,
    visible: &[usize],
    row: &[Option<Entry>],
    best: f64,
    better: Better,
) -> bool {
    let with_ci = |k: usize, (pi, v): Entry| {
        let ci = spec.series[visible[k]].points[pi].ci;
        v.map(|v| (v, ci.map(|[lo, hi]| crate::noise::Interval { lo, hi })))
    };
    let values: Vec<(f64, Option<crate::noise::Interval>)> = row
        .iter()
        .enumerate()
        .filter_map(|(k, e)| e.and_then(|e| with_ci(k, e)))
        .collect();
    let Some(&winner) = values.iter().find(|(v, _)| *v == best) else {
        return false;
    };
    values.iter().filter(|(v, _)| *v != best).any(|&other| {
        matches!(
            crate::noise::Finding::between(winner, other, better),
            Some(crate::noise::Finding::NoClearDifference { .. })
        )
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_too_long_for_its_room_is_cut_with_an_ellipsis() {
        assert_eq!(fitted("TTFT p50", 200), "TTFT p50");
        let long = "Output tok/s per user (peak)";
        let cut = fitted(long, 110);
        assert!(cut.ends_with('…') && cut.len() < long.len(), "{cut}");
        assert!(estimate_text_width(&cut, LABEL_FONT) <= 110, "{cut}");
        assert_eq!(fitted(long, 2), "…");
    }
}
