//! How much room text takes on a chart, estimated without a font (the same in the browser, in SVG
//! and in PNG): enough to lay out labels without collisions.

/// Rough text width in pixels (0.6 em per character), enough to avoid collisions.
pub(super) fn estimate_text_width(text: &str, size: u32) -> u32 {
    (text.chars().count() as f64 * f64::from(size) * 0.6).ceil() as u32
}
