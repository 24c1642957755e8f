//! How large a chart is drawn: the widths of the files and of a page's drawings, and the height
//! a spec asks for at a width.

use super::spec::{ChartKind, ChartSpec};

/// Width of the chart files the build writes (SVG; the PNGs have twice its pixels), in pixels.
pub const EXPORT_WIDTH: u32 = 960;

/// Width of the second drawing a pre-rendered page carries for narrow screens (phones), in
/// pixels: about a phone's chart box, so its text reads at the page's size.
pub const NARROW_WIDTH: u32 = 360;

/// Width of the drawing a pre-rendered page carries for boxes between a phone's and a desktop's
/// (a tablet, a grid's panel in one column), in pixels: without it those boxes showed the wide
/// drawing scaled down, its text at 7-8 pixels.
pub const MEDIUM_WIDTH: u32 = 640;

/// Width of the drawing a pre-rendered page carries for boxes a little wider than a phone's (a
/// grid's panel beside another on a desktop, a phone held sideways), in pixels: the phone's
/// drawing, as tall as such a box, left a fifth of its width empty.
pub const SMALL_WIDTH: u32 = 480;

/// The drawings a pre-rendered page carries of each chart, widest first: the class the page gives
/// each and the width it is drawn at. The stylesheet shows the one drawn nearest the chart box's
/// width (`style/main.css`: narrow up to 420 px, small up to 560, medium up to 840, wide above),
/// so that it fills the box and its smallest text (11 px drawn) is at least 9.5 px on screen.
pub const PAGE_DRAWINGS: [(&str, u32); 4] = [
    ("wide", EXPORT_WIDTH),
    ("medium", MEDIUM_WIDTH),
    ("small", SMALL_WIDTH),
    ("narrow", NARROW_WIDTH),
];

/// The drawings a report's page needs of a chart: all of [`PAGE_DRAWINGS`], or, for a grid's
/// panel spanning `span` of its grid's `columns` columns, all but the wide one when the panel
/// shares its row. Such a panel is never in a wide box on a page laid out at 16 px to the rem:
/// beside another it is at most about 630 px wide (`main`'s 62rem less its padding, less the
/// grid's 1.5rem gaps, two of three columns), and below 760 px the grid is one column, at most
/// 720 px. The stylesheet shows the widest drawing a chart has in every box too wide for the
/// others (class `widest`), so a reader with a larger font still sees the medium one there.
/// Embed pages, whose frame may be any width, carry every drawing.
pub fn page_drawings(panel: Option<(usize, usize)>) -> &'static [(&'static str, u32)] {
    match panel {
        Some((span, columns)) if span < columns => &PAGE_DRAWINGS[1..],
        _ => &PAGE_DRAWINGS,
    }
}

/// The size of `spec`'s exported SVG: [`EXPORT_WIDTH`] wide and its [`preferred_height`] at that
/// width.
pub fn export_size(spec: &ChartSpec) -> (u32, u32) {
    size_at(spec, EXPORT_WIDTH)
}

/// The size of `spec`'s drawing for narrow screens: [`NARROW_WIDTH`] wide and its
/// [`preferred_height`] there, the height the page's box has at that width.
pub fn narrow_size(spec: &ChartSpec) -> (u32, u32) {
    size_at(spec, NARROW_WIDTH)
}

/// The size of `spec`'s drawing `width` pixels wide: that width and its [`preferred_height`]
/// there, the height the page's box has at that width.
pub fn size_at(spec: &ChartSpec, width: u32) -> (u32, u32) {
    let height = preferred_height(spec, f64::from(width)).round() as u32;
    (width, height.max(1))
}

/// The height a chart wants at `width` pixels: a 16:9-ish figure for plots, and for head-to-head
/// bars just enough for their rows, so a short comparison does not float in empty space.
pub fn preferred_height(spec: &ChartSpec, width: f64) -> f64 {
    match &spec.kind {
        ChartKind::HBars { metrics } => {
            let bars = spec.series.len().max(1) as f64;
            let rows = metrics.len().max(1) as f64;
            (74.0 + rows * (bars * 22.0 + 8.0)).clamp(140.0, 900.0)
        }
        ChartKind::Stacked { rows } => {
            // Title and legend, then per row its label, bar and gap (see `stacked`).
            (70.0 + rows.len().max(1) as f64 * 49.0).clamp(120.0, 900.0)
        }
        _ => (width * 0.56).clamp(260.0, 460.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panel_sharing_its_row_is_drawn_without_the_wide_drawing() {
        let classes = |panel| page_drawings(panel).iter().map(|d| d.0).collect::<Vec<_>>();
        let all = ["wide", "medium", "small", "narrow"];
        assert_eq!(classes(None), all, "a chart of its own");
        assert_eq!(
            classes(Some((2, 2))),
            all,
            "a panel spanning its grid's columns"
        );
        assert_eq!(
            classes(Some((3, 2))),
            all,
            "a span beyond the columns fills the row"
        );
        assert_eq!(classes(Some((1, 2))), ["medium", "small", "narrow"]);
        assert_eq!(classes(Some((2, 3))), ["medium", "small", "narrow"]);
    }
}
