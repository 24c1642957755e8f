//! How a series looks beyond its hue. A report of more than twelve configurations draws the
//! thirteenth to the twenty-fourth in the twelve hues again with a pattern
//! ([`theme::patterned`](super::theme::patterned)): lines dashed, dots and markers hollow, bars
//! and legend swatches light with an outline. Every kind draws its series through these, so a
//! look means the same on every chart.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::theme::patterned;
use super::DrawError;

/// Draws a 2-pixel line through `path` (area pixels) in `color`, dashed for a patterned `slot`.
pub(super) fn line<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    path: Vec<(i32, i32)>,
    color: RGBColor,
    slot: usize,
) -> Result<(), DrawError> {
    if path.len() < 2 {
        return Ok(());
    }
    if patterned(slot) {
        area.draw(&DashedPathElement::new(path, 7, 4, color.stroke_width(2)))?;
    } else {
        area.draw(&PathElement::new(path, color.stroke_width(2)))?;
    }
    Ok(())
}

/// A point marker's or dot's style: filled, or hollow for a patterned `slot`.
pub(super) fn dot(color: RGBColor, slot: usize) -> ShapeStyle {
    if patterned(slot) {
        color.stroke_width(1)
    } else {
        color.filled()
    }
}

/// The styles a bar or swatch is drawn with, in order: filled, or for a patterned `slot` a
/// light fill and then an outline.
pub(super) fn bar(color: RGBColor, slot: usize) -> Vec<ShapeStyle> {
    if patterned(slot) {
        vec![color.mix(0.22).filled(), color.stroke_width(2)]
    } else {
        vec![color.filled()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thirteenth_look_is_the_first_hue_patterned() {
        let blue = RGBColor(0, 114, 178);
        assert_eq!(bar(blue, 0).len(), 1);
        assert_eq!(bar(blue, 12).len(), 2);
        assert!(dot(blue, 0).filled);
        assert!(!dot(blue, 12).filled);
        assert!(dot(blue, 24).filled, "slot 24 is plain again");
    }
}
