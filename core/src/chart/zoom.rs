//! Zooming into a chart with numeric axes (lines and scatter): the reader's [`Zoom`], a box in
//! data units that the axes then span, and the drawn [`PlotArea`] that turns a dragged
//! rectangle of pixels (or a step in or out) into one. Data outside the box is clipped to the
//! plot (`plot::Plot::clip_*`), never drawn over the axes.

use super::scale::{AxisMap, Scale};

/// The part of the data a reader zoomed into: the x and y ranges the axes span.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Zoom {
    /// Smallest and largest x shown.
    pub x: (f64, f64),
    /// Smallest and largest y shown.
    pub y: (f64, f64),
}

impl Zoom {
    /// A zoom whose ranges are finite, ordered and not empty on their scales, else `None`.
    pub fn checked(self, x_scale: Scale, y_scale: Scale) -> Option<Zoom> {
        let ok = |(lo, hi): (f64, f64), scale: Scale| {
            lo.is_finite() && hi.is_finite() && lo < hi && scale.placeable(lo)
        };
        (ok(self.x, x_scale) && ok(self.y, y_scale)).then_some(self)
    }

    /// The text for the address: `z1.5,8,100,2400` (x from, x to, y from, y to).
    pub fn encode(&self) -> String {
        format!("z{},{},{},{}", self.x.0, self.x.1, self.y.0, self.y.1)
    }

    /// Reads [`Zoom::encode`]'s text (without its `z`).
    pub fn decode(text: &str) -> Option<Zoom> {
        Zoom::decode_with(text, &|v| v.parse().ok())
    }

    /// Reads [`Zoom::encode`]'s text (without its `z`) with `number` reading each decimal as
    /// `str::parse::<f64>` does ([`super::ViewState::decode_with`]).
    pub fn decode_with(text: &str, number: &dyn Fn(&str) -> Option<f64>) -> Option<Zoom> {
        let v: Vec<f64> = text.split(',').map(number).collect::<Option<_>>()?;
        let [x0, x1, y0, y1] = v.as_slice() else {
            return None;
        };
        let zoom = Zoom {
            x: (*x0, *x1),
            y: (*y0, *y1),
        };
        let finite = v.iter().all(|v| v.is_finite());
        (finite && x0 < x1 && y0 < y1).then_some(zoom)
    }
}

/// Where a chart's data was drawn: the plot rectangle (backend pixels) and its axes' maps, so
/// the page can turn pixels back into data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlotArea {
    /// Left, top, right and bottom edges, backend pixels.
    pub rect: (i32, i32, i32, i32),
    /// The horizontal axis (pixels from the area's left edge).
    pub x: AxisMap,
    /// The vertical axis.
    pub y: AxisMap,
    /// The area's top-left corner in backend pixels.
    pub base: (i32, i32),
}

impl PlotArea {
    /// The data value at backend pixel (`px`, `py`).
    pub fn data_at(&self, (px, py): (i32, i32)) -> Option<(f64, f64)> {
        let x = unmap(&self.x, f64::from(px - self.base.0))?;
        let y = unmap(&self.y, f64::from(py - self.base.1))?;
        Some((x, y))
    }

    /// Whether backend pixel (`px`, `py`) is inside the plot.
    pub fn contains(&self, (px, py): (i32, i32)) -> bool {
        let (l, t, r, b) = self.rect;
        (l..=r).contains(&px) && (t..=b).contains(&py)
    }

    /// The zoom onto the rectangle between pixels `a` and `b` (clamped to the plot), or `None`
    /// when it is too small to mean a zoom (under 6 pixels either way: a click).
    pub fn zoom_between(&self, a: (i32, i32), b: (i32, i32)) -> Option<Zoom> {
        let (l, t, r, bottom) = self.rect;
        let clamp = |(x, y): (i32, i32)| (x.clamp(l, r), y.clamp(t, bottom));
        let (a, b) = (clamp(a), clamp(b));
        if (a.0 - b.0).abs() < 6 || (a.1 - b.1).abs() < 6 {
            return None;
        }
        self.zoom_onto(a, b)
    }

    /// The zoom `factor` times closer (2: half the range each way; 0.5: twice) around backend
    /// pixel `center`, or the plot's centre.
    pub fn zoom_by(&self, factor: f64, center: Option<(i32, i32)>) -> Option<Zoom> {
        let (l, t, r, b) = self.rect;
        let (cx, cy) = center
            .filter(|c| self.contains(*c))
            .unwrap_or(((l + r) / 2, (t + b) / 2));
        let reach = |from: i32, to: i32, c: i32| {
            let half = f64::from(to - from) / (2.0 * factor);
            let lo = (f64::from(c) - half).round() as i32;
            (lo, lo + (2.0 * half).round() as i32)
        };
        let (x0, x1) = reach(l, r, cx);
        let (y0, y1) = reach(t, b, cy);
        self.zoom_onto((x0, y1), (x1, y0))
    }

    /// The zoom a pinch makes: `factor` times closer (the fingers' spread now over their spread
    /// at the start), with the data that was at pixel `from` (the fingers' midpoint at the
    /// start) now at pixel `to` (their midpoint now), so that the fingers hold the data they
    /// touched. `None` for a factor that is not a positive number.
    pub fn pinched(&self, factor: f64, from: (f64, f64), to: (f64, f64)) -> Option<Zoom> {
        if !(factor.is_finite() && factor > 0.0) {
            return None;
        }
        let (l, t, r, b) = self.rect;
        // The plot's edges, in the pixels of this drawing, once the pinch is applied.
        let edge =
            |edge: i32, to: f64, from: f64| (from + (f64::from(edge) - to) / factor).round() as i32;
        let (x0, x1) = (edge(l, to.0, from.0), edge(r, to.0, from.0));
        let (y0, y1) = (edge(t, to.1, from.1), edge(b, to.1, from.1));
        self.zoom_onto((x0, y1), (x1, y0))
            .filter(|z| z.x.0 < z.x.1 && z.y.0 < z.y.1)
    }

    /// The zoom whose box has its corners at pixels `a` and `b` of this drawing (inside the
    /// plot or beyond it).
    fn zoom_onto(&self, a: (i32, i32), b: (i32, i32)) -> Option<Zoom> {
        let (x0, y0) = self.data_at(a)?;
        let (x1, y1) = self.data_at(b)?;
        Some(Zoom {
            x: (x0.min(x1), x0.max(x1)),
            y: (y0.min(y1), y0.max(y1)),
        })
    }
}

/// The data value at pixel `p` of `map` (the inverse of [`AxisMap::px`] on its finite part).
fn unmap(map: &AxisMap, p: f64) -> Option<f64> {
    let end = map.finite_end();
    if (end - map.from).abs() < f64::EPSILON {
        return None;
    }
    let t = (p - map.from) / (end - map.from);
    let v = match map.scale {
        Scale::Linear => map.lo + t * (map.hi - map.lo),
        Scale::Log => (map.lo.ln() + t * (map.hi.ln() - map.lo.ln())).exp(),
    };
    v.is_finite().then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area() -> PlotArea {
        let map = |lo: f64, hi: f64, from: f64, to: f64, scale: Scale| AxisMap {
            lo,
            hi,
            scale,
            from,
            to,
            infinite: false,
        };
        PlotArea {
            rect: (110, 20, 510, 320),
            x: map(0.0, 100.0, 100.0, 500.0, Scale::Linear),
            // Rows grow downwards: 1 at the bottom (300), 1000 at the top (0).
            y: map(1.0, 1000.0, 300.0, 0.0, Scale::Log),
            base: (10, 20),
        }
    }

    #[test]
    fn pixels_turn_back_into_data_on_linear_and_log_axes() {
        let (x, y) = area().data_at((310, 170)).unwrap();
        assert!((x - 50.0).abs() < 1e-9, "{x}");
        assert!((y - 1000f64.sqrt()).abs() < 1e-6, "{y}");
    }

    #[test]
    fn a_dragged_rectangle_is_a_zoom_and_a_click_is_not() {
        let zoom = area().zoom_between((310, 320), (210, 170)).unwrap();
        assert!((zoom.x.0 - 25.0).abs() < 1e-9 && (zoom.x.1 - 50.0).abs() < 1e-9);
        assert!((zoom.y.0 - 1.0).abs() < 1e-9, "{:?}", zoom.y);
        assert_eq!(area().zoom_between((300, 100), (303, 200)), None);
        // Beyond the plot: clamped to its edges.
        let all = area().zoom_between((0, 0), (600, 400)).unwrap();
        assert!((all.x.0 - 0.0).abs() < 1e-9 && (all.x.1 - 100.0).abs() < 1e-9);
    }

    #[test]
    fn stepping_in_halves_the_ranges_around_the_centre() {
        let zoom = area().zoom_by(2.0, None).unwrap();
        assert!((zoom.x.0 - 25.0).abs() < 1e-9 && (zoom.x.1 - 75.0).abs() < 1e-9);
        // On the log axis a quarter of the decades each side of the middle.
        let mid = 1000f64.sqrt();
        assert!(
            (zoom.y.0 * zoom.y.1 - mid * mid).abs() < 1e-3,
            "{:?}",
            zoom.y
        );
    }

    #[test]
    fn a_pinch_zooms_around_the_fingers_and_follows_them() {
        let area = area();
        // Spread twice as far around the plot's centre, held in place: as stepping in.
        let centre = (310.0, 170.0);
        assert_eq!(
            area.pinched(2.0, centre, centre),
            area.zoom_by(2.0, Some((310, 170)))
        );
        // Around x = 25 (pixel 210), the fingers moved 100 pixels right: x = 25 is drawn at
        // pixel 310, the middle, with half the range either side.
        let zoom = area.pinched(2.0, (210.0, 170.0), (310.0, 170.0)).unwrap();
        assert!(
            (zoom.x.0 - 0.0).abs() < 0.5 && (zoom.x.1 - 50.0).abs() < 0.5,
            "{zoom:?}"
        );
        // Pinched together: further out than the whole chart.
        let out = area.pinched(0.5, centre, centre).unwrap();
        assert!(out.x.0 < -49.0 && out.x.1 > 149.0, "{out:?}");
        assert_eq!(area.pinched(0.0, centre, centre), None);
        assert_eq!(area.pinched(f64::NAN, centre, centre), None);
    }

    #[test]
    fn the_address_form_round_trips_and_nonsense_is_none() {
        let zoom = Zoom {
            x: (1.5, 8.0),
            y: (100.0, 2400.0),
        };
        assert_eq!(zoom.encode(), "z1.5,8,100,2400");
        assert_eq!(Zoom::decode("1.5,8,100,2400"), Some(zoom));
        for bad in ["", "1,2,3", "2,1,3,4", "1,2,NaN,4", "a,b,c,d", "1,2,3,4,5"] {
            assert_eq!(Zoom::decode(bad), None, "{bad}");
        }
        assert_eq!(zoom.checked(Scale::Linear, Scale::Log), Some(zoom));
        let below_zero = Zoom {
            y: (-1.0, 5.0),
            ..zoom
        };
        assert_eq!(below_zero.checked(Scale::Linear, Scale::Log), None);
    }
}
