//! How a chart is drawn beyond its data ([`DrawOptions`]: colours, hidden series, zoom, legend),
//! and why it could not be ([`DrawError`]).

use plotters::prelude::DrawingAreaErrorKind;

use super::theme::{Theme, ThemeName};
use super::zoom::Zoom;

/// Drawing options that are not part of the data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DrawOptions {
    /// Colours.
    pub theme: Theme,
    /// Series indices to leave out (hidden from the legend by the reader).
    pub hidden: u64,
    /// Draw the legend under the title. Files (SVG, PNG) carry theirs; a page's drawing leaves
    /// it to the page's own interactive legend, so a chart has one legend, not two.
    pub legend: bool,
    /// The part of the data a reader zoomed into (lines and scatter; other kinds ignore it).
    pub zoom: Option<Zoom>,
    /// Name each line at its end where the name fits (line charts); small multiples, which
    /// share one legend, leave it out.
    pub direct_labels: bool,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            theme: Theme::named(ThemeName::Light),
            hidden: 0,
            legend: true,
            zoom: None,
            direct_labels: true,
        }
    }
}

impl DrawOptions {
    /// True when series `i` is hidden.
    pub fn is_hidden(&self, i: usize) -> bool {
        i < 64 && self.hidden & (1 << i) != 0
    }
}

/// Why a chart could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum DrawError {
    /// The backend failed (canvas gone, string write failed...).
    #[error("drawing backend failed: {0}")]
    Backend(String),
    /// The spec has nothing to draw.
    #[error("chart `{0}` has no data to draw")]
    Empty(String),
}

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for DrawError {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        DrawError::Backend(e.to_string())
    }
}
