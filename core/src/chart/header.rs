//! The part above every chart: title (wrapped to the chart's width) and legend. Small multiples
//! draw one shared legend above their panels and only titles in the panels.

use crate::chart::theme::font;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::text::estimate_text_width;
use super::{ChartSpec, DrawError, DrawOptions};

const TITLE_SIZE: u32 = 16;
const LEGEND_SIZE: u32 = 12;
const SWATCH: i32 = 10;

/// Draws the title and, with `legend`, a wrapping legend; returns the height used, in pixels.
pub(super) fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    options: &DrawOptions,
    legend: bool,
) -> Result<u32, DrawError> {
    let theme = &options.theme;
    let (width, _) = area.dim_in_pixel();
    let mut y = 10;
    for line in title_lines(&spec.title, width as i32 - 24) {
        area.draw(&Text::new(
            line,
            (12, y),
            font(TITLE_SIZE)
                .style(FontStyle::Bold)
                .color(&theme.text)
                .pos(Pos::new(HPos::Left, VPos::Top)),
        ))?;
        y += TITLE_SIZE as i32 + 4;
    }
    let y = y.max(10 + TITLE_SIZE as i32 + 4) + 6;
    if !legend {
        return Ok(y as u32);
    }
    let entries: Vec<(&str, usize)> = spec
        .series
        .iter()
        .map(|s| (s.name.as_str(), s.color))
        .collect();
    draw_legend(area, &entries, options, y)
}

/// Bold text is about this much wider than the regular text [`estimate_text_width`] measures.
const BOLD: f64 = 1.08;

/// The words of `title` in lines that fit `width` pixels, so a long title wraps on a narrow
/// screen instead of running off the chart; a word longer than a line gets a line of its own.
fn title_lines(title: &str, width: i32) -> Vec<String> {
    let fits =
        |line: &str| f64::from(estimate_text_width(line, TITLE_SIZE)) * BOLD <= f64::from(width);
    let mut lines: Vec<String> = Vec::new();
    for word in title.split_whitespace() {
        match lines.last_mut() {
            Some(line) if fits(&format!("{line} {word}")) => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// Draws legend entries (name, palette slot) from `y` down, wrapping at the area's width;
/// entry `i` is shown as hidden when bit `i` of `options.hidden` is set. Returns the bottom.
pub(super) fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(&str, usize)],
    options: &DrawOptions,
    mut y: i32,
) -> Result<u32, DrawError> {
    let theme = &options.theme;
    let (width, _) = area.dim_in_pixel();
    let width = width as i32;
    let mut x = 12;
    for (i, (name, slot)) in entries.iter().enumerate() {
        let label_w = estimate_text_width(name, LEGEND_SIZE) as i32;
        let item_w = SWATCH + 6 + label_w + 18;
        if x + item_w > width - 8 && x > 12 {
            x = 12;
            y += LEGEND_SIZE as i32 + 8;
        }
        let color = theme.series(*slot);
        let hidden = options.is_hidden(i);
        let styles = if hidden {
            vec![color.stroke_width(1)]
        } else {
            super::look::bar(color, *slot)
        };
        for style in styles {
            area.draw(&Rectangle::new(
                [(x, y + 1), (x + SWATCH, y + 1 + SWATCH)],
                style,
            ))?;
        }
        let text_color = if hidden { theme.muted } else { theme.text };
        area.draw(&Text::new(
            name.to_string(),
            (x + SWATCH + 6, y),
            font(LEGEND_SIZE)
                .color(&text_color)
                .pos(Pos::new(HPos::Left, VPos::Top)),
        ))?;
        x += item_w;
    }
    Ok((y + LEGEND_SIZE as i32 + 8) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_title_wraps_to_the_width_and_a_short_one_keeps_its_line() {
        let title = "Dollars per million output tokens by concurrency (example prices)";
        let lines = title_lines(title, 340);
        assert!(lines.len() >= 2, "{lines:?}");
        assert_eq!(lines.join(" "), title);
        for line in &lines {
            let width = f64::from(estimate_text_width(line, TITLE_SIZE)) * BOLD;
            assert!(width <= 340.0 || !line.contains(' '), "{line}: {width}");
        }
        assert_eq!(title_lines(title, 2000), vec![title.to_string()]);
        assert_eq!(title_lines("", 300), Vec::<String>::new());
    }
}
