//! Colours for charts: light and dark themes and a colour-blind-safe palette.
//!
//! The palette is Okabe and Ito's (2008), ordered so that neighbouring slots differ in both hue
//! and lightness. A configuration keeps its slot across the whole site (see `site`).

use plotters::style::{FontDesc, FontFamily, FontStyle, RGBColor};
use serde::{Deserialize, Serialize};

/// Light or dark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThemeName {
    /// Dark text on white.
    #[default]
    Light,
    /// Light text on near-black.
    Dark,
}

/// The colours one chart is drawn with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    /// Canvas background.
    pub background: RGBColor,
    /// Titles, labels and values.
    pub text: RGBColor,
    /// Secondary text such as captions and notes.
    pub muted: RGBColor,
    /// Grid lines.
    pub grid: RGBColor,
    /// Axis lines.
    pub axis: RGBColor,
    /// Series colours, by palette slot.
    pub palette: [RGBColor; PALETTE_SIZE],
}

/// The font family of every text a chart draws, and of the page's body text
/// (`style/main.css`; a test keeps them equal), so a chart reads in the page's face on the
/// canvas, in the SVG and in the PNG. Helvetica and Arial and their metric twins (Liberation
/// Sans, Arimo) come first: the text widths `text.rs` estimates are theirs. Unquoted, as an SVG
/// attribute holds it.
pub const FONT_FAMILY: &str =
    "Helvetica Neue, Helvetica, Arial, Liberation Sans, Arimo, sans-serif";

/// The charts' font at `size` pixels. plotters' `(name, size).into_font()` lower-cases the name
/// to recognise `serif` and the like, which alone pulls Unicode's case tables (about 12 KB) into
/// the app's wasm; naming the family directly gives the same font without them.
pub fn font(size: impl Into<f64>) -> FontDesc<'static> {
    FontDesc::new(
        FontFamily::Name(FONT_FAMILY),
        size.into(),
        FontStyle::Normal,
    )
}

/// How many colours the palette has. Slots `PALETTE_SIZE` to `2 × PALETTE_SIZE - 1` are the
/// same hues drawn with a pattern ([`patterned`]); beyond that, slots wrap around.
pub const PALETTE_SIZE: usize = 12;

/// How many distinct looks a series can have: every hue plain, then every hue patterned.
pub const LOOKS: usize = 2 * PALETTE_SIZE;

/// Whether slot `slot` is drawn with a pattern: its lines dashed, its dots hollow, its bars and
/// legend swatch light with an outline. A report of more than twelve configurations gives the
/// thirteenth to the twenty-fourth the twelve hues again, patterned, instead of repeating a
/// look.
pub fn patterned(slot: usize) -> bool {
    slot % LOOKS >= PALETTE_SIZE
}

/// Okabe–Ito, reordered (blue, orange, bluish green, vermillion, sky blue, reddish purple,
/// yellow, grey), then four darker hues from Paul Tol's colour-blind-safe "muted" scheme and
/// Tableau's brown (indigo, olive, wine, brown) for reports with more than eight
/// configurations: twelve colours before any repeats.
const OKABE_ITO: [RGBColor; PALETTE_SIZE] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(213, 94, 0),
    RGBColor(86, 180, 233),
    RGBColor(204, 121, 167),
    RGBColor(240, 228, 66),
    RGBColor(140, 140, 140),
    RGBColor(51, 34, 136),
    RGBColor(153, 153, 51),
    RGBColor(136, 34, 85),
    RGBColor(140, 86, 75),
];

/// The same hues, lightened for a dark background.
const OKABE_ITO_DARK: [RGBColor; PALETTE_SIZE] = [
    RGBColor(77, 163, 224),
    RGBColor(240, 178, 50),
    RGBColor(40, 196, 150),
    RGBColor(240, 128, 60),
    RGBColor(130, 200, 240),
    RGBColor(224, 150, 190),
    RGBColor(240, 228, 66),
    RGBColor(170, 170, 170),
    RGBColor(136, 124, 226),
    RGBColor(196, 196, 92),
    RGBColor(214, 98, 152),
    RGBColor(196, 140, 124),
];

impl Theme {
    /// The theme called `name`.
    pub fn named(name: ThemeName) -> Theme {
        match name {
            ThemeName::Light => Theme {
                background: RGBColor(255, 255, 255),
                text: RGBColor(33, 37, 41),
                muted: RGBColor(95, 99, 104),
                grid: RGBColor(226, 229, 233),
                axis: RGBColor(120, 124, 130),
                palette: OKABE_ITO,
            },
            ThemeName::Dark => Theme {
                background: RGBColor(22, 24, 29),
                text: RGBColor(230, 232, 235),
                muted: RGBColor(160, 165, 172),
                grid: RGBColor(52, 56, 64),
                axis: RGBColor(140, 145, 152),
                palette: OKABE_ITO_DARK,
            },
        }
    }

    /// The colour of palette slot `slot` (wrapping around).
    pub fn series(&self, slot: usize) -> RGBColor {
        self.palette[slot % self.palette.len()]
    }
}

/// The CSS of a legend swatch of palette slot `slot` in both themes (the page rendered at build
/// time is then right in either): its colour, or for a patterned slot a light fill with an
/// outline, as the charts draw its bars (`look.rs`).
pub fn css_swatch(slot: usize) -> String {
    let [light, dark] =
        [ThemeName::Light, ThemeName::Dark].map(|t| css_hex(Theme::named(t).series(slot)));
    let colour = format!("light-dark({light}, {dark})");
    if patterned(slot) {
        format!(
            "background: color-mix(in srgb, {colour} 22%, transparent); box-shadow: inset 0 0 0 2px {colour}"
        )
    } else {
        format!("background: {colour}")
    }
}

/// `#rrggbb` for CSS.
pub fn css_hex(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

#[cfg(test)]
mod tests {
    use super::FONT_FAMILY;

    #[test]
    fn the_page_body_is_set_in_the_charts_font() {
        let css = include_str!("../../../style/main.css");
        let body = css
            .lines()
            .find_map(|l| l.trim().strip_prefix("font: 16px/1.6 "))
            .expect("style/main.css sets the body's font");
        assert_eq!(
            body.trim_end_matches(';').replace('"', ""),
            FONT_FAMILY,
            "style/main.css's body font must be the charts' FONT_FAMILY"
        );
    }
}
