//! Small multiples: several specs in one drawing (the 2×2 TTFT / throughput / latency /
//! success-rate grid), in rows of panels under one shared legend; a panel may span several
//! columns (seed 004's dashboard has a whole row for its use cases). Each panel draws its own
//! title and axes with the same code as a single chart.

use crate::chart::theme::font;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::draw::draw_kind;
use super::{header, ChartSpec, DrawError, DrawOptions, Frame};

/// The shared legend of `specs`: each distinct (series name, palette slot), in first-seen order.
/// In [`draw_grid`], bit `i` of `DrawOptions::hidden` hides entry `i` in every panel.
pub fn grid_legend(specs: &[ChartSpec]) -> Vec<(String, usize)> {
    let mut entries: Vec<(String, usize)> = Vec::new();
    for s in specs.iter().flat_map(|spec| &spec.series) {
        if !entries.iter().any(|(n, c)| *n == s.name && *c == s.color) {
            entries.push((s.name.clone(), s.color));
        }
    }
    entries
}

/// Where each of `count` panels goes in rows of `columns`: (row, first column, columns spanned).
/// Panel `i` spans `spans[i]` columns (1 when not given, at most `columns`); a panel that does
/// not fit in what is left of its row starts the next one.
pub fn grid_cells(count: usize, spans: &[usize], columns: usize) -> Vec<(usize, usize, usize)> {
    let columns = columns.max(1);
    let mut cells = Vec::with_capacity(count);
    let (mut row, mut column) = (0, 0);
    for i in 0..count {
        let span = spans.get(i).copied().unwrap_or(1).clamp(1, columns);
        if column + span > columns {
            row += 1;
            column = 0;
        }
        cells.push((row, column, span));
        column += span;
    }
    cells
}

/// Draws `specs` as panels in rows of `columns` under one legend, panel `i` spanning
/// `spans[i]` columns ([`grid_cells`]); returns one [`Frame`] per spec (targets in backend
/// pixels, like [`super::draw`]). A panel with nothing to draw says so; when no panel has
/// anything, or `specs` is empty, the result is [`DrawError::Empty`].
pub fn draw_grid<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    specs: &[ChartSpec],
    columns: usize,
    spans: &[usize],
    options: &DrawOptions,
) -> Result<Vec<Frame>, DrawError> {
    if specs.is_empty() {
        return Err(DrawError::Empty("grid".to_string()));
    }
    let theme = &options.theme;
    area.fill(&theme.background)?;
    let entries = grid_legend(specs);
    let names: Vec<(&str, usize)> = entries.iter().map(|(n, c)| (n.as_str(), *c)).collect();
    let legend_bottom = header::draw_legend(area, &names, options, 10)?;
    let body = area.margin(legend_bottom, 0, 0, 0);
    let columns = columns.clamp(1, specs.len());
    let cells = grid_cells(specs.len(), spans, columns);
    let rows = cells.last().map_or(1, |c| c.0 + 1);
    let (w, h) = body.dim_in_pixel();
    let panels: Vec<DrawingArea<DB, Shift>> = cells
        .iter()
        .map(|&(row, column, span)| {
            let x = |c: usize| (c as u64 * u64::from(w) / columns as u64) as u32;
            let y = |r: usize| (r as u64 * u64::from(h) / rows as u64) as u32;
            body.clone().shrink(
                (x(column), y(row)),
                (x(column + span) - x(column), y(row + 1) - y(row)),
            )
        })
        .collect();

    let mut frames = Vec::with_capacity(specs.len());
    let mut empty = 0;
    for (spec, panel) in specs.iter().zip(&panels) {
        let mut hidden = 0u64;
        for (j, s) in spec.series.iter().enumerate().take(64) {
            let entry = entries
                .iter()
                .position(|(n, c)| *n == s.name && *c == s.color);
            if entry.is_some_and(|e| options.is_hidden(e)) {
                hidden |= 1 << j;
            }
        }
        let panel_options = DrawOptions {
            theme: options.theme,
            hidden,
            legend: false,
            zoom: None,
            direct_labels: false,
        };
        match draw_kind(panel, spec, &panel_options, false) {
            Ok(frame) => frames.push(frame),
            Err(DrawError::Empty(_)) => {
                empty += 1;
                header::draw(panel, spec, &panel_options, false)?;
                let (w, h) = panel.dim_in_pixel();
                panel.draw(&Text::new(
                    "No data to draw",
                    (w as i32 / 2, h as i32 / 2),
                    font(13)
                        .color(&theme.muted)
                        .pos(Pos::new(HPos::Center, VPos::Center)),
                ))?;
                frames.push(Frame::default());
            }
            Err(e) => return Err(e),
        }
    }
    if empty == specs.len() {
        let ids: Vec<&str> = specs.iter().map(|s| s.id.as_str()).collect();
        return Err(DrawError::Empty(ids.join(", ")));
    }
    Ok(frames)
}

/// Renders a grid as one standalone SVG document of `width` pixels, each row of panels about
/// as tall as a chart at that width.
#[cfg(feature = "svg")]
pub fn grid_to_svg(
    specs: &[ChartSpec],
    columns: usize,
    spans: &[usize],
    width: u32,
    options: &DrawOptions,
) -> Result<String, DrawError> {
    let Some(first) = specs.first() else {
        return Err(DrawError::Empty("grid".to_string()));
    };
    let columns = columns.clamp(1, specs.len());
    let rows = grid_cells(specs.len(), spans, columns)
        .last()
        .map_or(1, |c| c.0 as u32 + 1);
    let panel_width = f64::from(width) / columns as f64;
    let height = 40 + rows * (super::preferred_height(first, panel_width).round() as u32);
    let mut out = String::new();
    {
        let root =
            plotters_svg::SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        draw_grid(&root, specs, columns, spans, options)?;
        root.present()?;
    }
    Ok(super::draw::text_at_drawn_size(&out))
}
