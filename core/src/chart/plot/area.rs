//! What a plot spans: each axis's values and scale ([`Extent`], [`AxisSetup`], [`XAxis`]), and
//! the plotting rectangle with its data-to-pixel maps ([`Plot`]), which `axes` lays out and the
//! parent's methods draw in.

use crate::chart::scale::{AxisMap, Scale};

/// Tick label size.
pub(in crate::chart) const TICK_FONT: u32 = 12;

/// The placeable values along one axis: their range and whether `+∞` occurs.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(in crate::chart) struct Extent {
    /// Smallest and largest placeable finite value.
    pub range: Option<(f64, f64)>,
    /// Whether a `+∞` value occurs.
    pub infinite: bool,
}

impl Extent {
    /// The extent of `values` on `scale`: values the scale cannot place are left out, `+∞`
    /// only sets `infinite`.
    pub fn of(values: impl IntoIterator<Item = f64>, scale: Scale) -> Extent {
        let mut e = Extent::default();
        for v in values {
            if v == f64::INFINITY {
                e.infinite = true;
            } else if scale.placeable(v) {
                e.range = Some(match e.range {
                    None => (v, v),
                    Some((a, b)) => (a.min(v), b.max(v)),
                });
            }
        }
        e
    }
}

/// How one numeric axis is set up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::chart) struct AxisSetup {
    /// The values to cover.
    pub extent: Extent,
    /// Linear or log.
    pub scale: Scale,
    /// Start a linear axis of non-negative values at zero.
    pub zero: bool,
    /// Give `+∞` a slot at the far end (x axis only).
    pub infinite_slot: bool,
}

impl AxisSetup {
    /// An axis spanning exactly `range` (a reader's zoom) on `scale`, without a `+∞` slot.
    pub fn zoomed(range: (f64, f64), scale: Scale) -> AxisSetup {
        AxisSetup {
            extent: Extent {
                range: Some(range),
                infinite: false,
            },
            scale,
            zero: false,
            infinite_slot: false,
        }
    }

    /// An axis covering `values` on `scale`; a linear one of non-negative values starts at zero.
    pub fn from_zero(values: impl IntoIterator<Item = f64>, scale: Scale) -> AxisSetup {
        AxisSetup {
            zero: true,
            ..AxisSetup::fitted(values, scale)
        }
    }

    /// An axis covering just `values` on `scale`.
    pub fn fitted(values: impl IntoIterator<Item = f64>, scale: Scale) -> AxisSetup {
        AxisSetup {
            extent: Extent::of(values, scale),
            scale,
            zero: false,
            infinite_slot: false,
        }
    }
}

/// The horizontal axis: numbers, or categories at 0, 1, 2...
pub(in crate::chart) enum XAxis<'a> {
    /// A numeric axis.
    Numeric(AxisSetup),
    /// One slot per label.
    Categories(&'a [String]),
}

/// The plotting rectangle (area pixels) and its data-to-pixel maps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::chart) struct Plot {
    /// Left edge, area pixels.
    pub left: i32,
    /// Top edge.
    pub top: i32,
    /// Right edge.
    pub right: i32,
    /// Bottom edge (the x axis).
    pub bottom: i32,
    /// Horizontal map.
    pub x: AxisMap,
    /// Vertical map.
    pub y: AxisMap,
    /// The area's top-left corner in backend pixels.
    pub base: (i32, i32),
}
