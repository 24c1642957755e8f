//! Where the time goes: one horizontal bar per row (a configuration at a load point), split into
//! stacked parts, one series per part (time before the first token, decoding). All rows share one
//! scale, so longer bars are slower requests; each part carries its share of the row where it is
//! wide enough, and each bar ends with its total. A row missing a part is drawn with the parts
//! it has and `n/a` for the rest, never a made-up zero.

use crate::chart::theme::font;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::plot::{gap_mark, to_target};
use super::text::estimate_text_width;
use super::{ChartSpec, DrawError, DrawOptions, Frame};
use crate::format;

const LABEL_FONT: u32 = 12;
const VALUE_FONT: u32 = 11;
const ROW_GAP: i32 = 10;
/// Room above each bar for its label.
const LABEL_ROOM: i32 = 17;
/// A share is written inside its part only when the part is at least this wide (pixels).
const SHARE_ROOM: i32 = 34;

pub(super) fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    rows: &[String],
    options: &DrawOptions,
    legend: bool,
) -> Result<Frame, DrawError> {
    let parts = parts(spec, rows.len());
    if parts
        .iter()
        .all(|row| row.iter().all(|p| p.point.is_none()))
    {
        return Err(DrawError::Empty(spec.id.clone()));
    }
    let header = super::header::draw(area, spec, options, legend)? as i32;
    let visible = super::plot::visible(spec, options);
    let totals: Vec<f64> = parts
        .iter()
        .map(|row| shown(row, &visible).map(|(_, _, v)| v).sum())
        .collect();
    let max = totals.iter().copied().fold(0.0f64, f64::max);
    let layout = Layout::of(
        area.dim_in_pixel(),
        header,
        rows.len(),
        &totals,
        &spec.y.unit,
    );
    let mut frame = Frame::default();
    for (r, label) in rows.iter().enumerate() {
        let row = Row {
            top: layout.top + r as i32 * layout.pitch,
            total: totals[r],
            max,
        };
        draw_row_label(area, label, row.top - LABEL_ROOM, options)?;
        draw_row(
            area, spec, &layout, &row, &parts[r], &visible, options, &mut frame,
        )?;
    }
    Ok(frame)
}

/// Where a row is and the numbers it is scaled by.
struct Row {
    top: i32,
    total: f64,
    /// The longest row's total.
    max: f64,
}

impl Row {
    fn mid(&self, layout: &Layout) -> i32 {
        self.top + layout.bar_h / 2
    }
}

/// Draws one row's parts, then a ✕ for each part it lacks, then its total.
#[allow(clippy::too_many_arguments)]
fn draw_row<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    layout: &Layout,
    row: &Row,
    parts: &[Part],
    visible: &[usize],
    options: &DrawOptions,
    frame: &mut Frame,
) -> Result<(), DrawError> {
    let base = area.get_base_pixel();
    let mid = row.mid(layout);
    let mut x = layout.x0;
    for (series, point, value) in shown(parts, visible) {
        let width = layout.length(value, row.max);
        let color = options.theme.series(spec.series[series].color);
        if width > 0 {
            area.draw(&Rectangle::new(
                [(x, row.top), (x + width, row.top + layout.bar_h)],
                color.filled(),
            ))?;
        }
        if width >= SHARE_ROOM && row.total > 0.0 {
            draw_share(area, value / row.total, (x + width / 2, mid), options)?;
        }
        frame
            .targets
            .push(to_target(base, series, point, (x + width / 2, mid)));
        x += width;
    }
    let mut end = x + 6;
    for &series in visible {
        let Some(Part {
            point: Some(point),
            value: None,
        }) = parts.get(series).copied()
        else {
            continue;
        };
        let color = options.theme.series(spec.series[series].color);
        let at = gap_mark(area, color, (end + 6, mid + 7))?;
        frame.targets.push(to_target(base, series, point, at));
        end += 16;
    }
    let missing = end > x + 6;
    let total = format::with_unit(row.total, &spec.y.unit);
    area.draw(&Text::new(
        if missing {
            format!("{total} + n/a")
        } else {
            total
        },
        (end, mid),
        font(VALUE_FONT)
            .color(&options.theme.text)
            .pos(Pos::new(HPos::Left, VPos::Center)),
    ))?;
    Ok(())
}

/// A row's label, above its bar (so a long label never squeezes the bars on a phone).
fn draw_row_label<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    label: &str,
    top: i32,
    options: &DrawOptions,
) -> Result<(), DrawError> {
    area.draw(&Text::new(
        label.to_string(),
        (12, top),
        font(LABEL_FONT)
            .color(&options.theme.text)
            .pos(Pos::new(HPos::Left, VPos::Top)),
    ))?;
    Ok(())
}

/// One part of one row: the point it comes from (none when the series has no point in the row)
/// and its finite, non-negative value.
#[derive(Clone, Copy)]
struct Part {
    point: Option<usize>,
    value: Option<f64>,
}

/// `parts[row][series]`: each series' first point in each row.
fn parts(spec: &ChartSpec, rows: usize) -> Vec<Vec<Part>> {
    (0..rows)
        .map(|row| {
            spec.series
                .iter()
                .map(|s| {
                    let found = s.points.iter().enumerate().find(|(_, p)| {
                        p.x.is_finite() && p.x.round() >= 0.0 && p.x.round() as usize == row
                    });
                    Part {
                        point: found.map(|(i, _)| i),
                        value: found.and_then(|(_, p)| p.y.filter(|y| y.is_finite() && *y >= 0.0)),
                    }
                })
                .collect()
        })
        .collect()
}

/// The visible parts of a row that have a value, in series order: (series, point, value).
fn shown<'a>(
    row: &'a [Part],
    visible: &'a [usize],
) -> impl Iterator<Item = (usize, usize, f64)> + 'a {
    visible.iter().filter_map(|&s| {
        let part = row.get(s)?;
        Some((s, part.point?, part.value?))
    })
}

/// A part's share of its row, in white on the part.
fn draw_share<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    share: f64,
    at: (i32, i32),
    options: &DrawOptions,
) -> Result<(), DrawError> {
    area.draw(&Text::new(
        format!("{}%", format::fixed(share * 100.0, 0)),
        at,
        font(VALUE_FONT)
            .style(FontStyle::Bold)
            .color(&options.theme.background)
            .pos(Pos::new(HPos::Center, VPos::Center)),
    ))?;
    Ok(())
}

/// Where the rows and bars go, in area pixels.
struct Layout {
    /// Where bars start.
    x0: i32,
    /// Where the longest bar ends: left of room for its total.
    x1: i32,
    bar_h: i32,
    /// From one row's top to the next.
    pitch: i32,
    /// The first bar's top.
    top: i32,
}

impl Layout {
    fn of((w, h): (u32, u32), header: i32, rows: usize, totals: &[f64], unit: &str) -> Layout {
        let (w, h) = (w as i32, h as i32);
        let total_w = totals
            .iter()
            .map(|t| {
                let text = format!("{} + n/a", format::with_unit(*t, unit));
                estimate_text_width(&text, VALUE_FONT) as i32
            })
            .max()
            .unwrap_or(40);
        let x0 = 12;
        let x1 = (w - 12 - total_w - 6).max(x0 + 40);
        let room = (h - header - 8) / rows.max(1) as i32;
        let bar_h = (room - ROW_GAP - LABEL_ROOM).clamp(8, 22);
        Layout {
            x0,
            x1,
            bar_h,
            pitch: LABEL_ROOM + bar_h + ROW_GAP,
            top: header + 4 + LABEL_ROOM,
        }
    }

    /// Pixels for `value` on a scale whose longest bar is `max`.
    fn length(&self, value: f64, max: f64) -> i32 {
        if max > 0.0 {
            (value / max * f64::from(self.x1 - self.x0)).round() as i32
        } else {
            0
        }
    }
}
