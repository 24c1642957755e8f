//! Keeping data inside the plot: a zoomed chart's lines, bands and dots are cut at the plot's
//! edges instead of running over the axes (`chart::zoom`). Unzoomed, every point is inside and
//! nothing changes.

use super::area::Plot;
use crate::chart::zoom::PlotArea;

impl Plot {
    /// Whether area pixel `p` is inside the plot rectangle.
    pub fn inside(&self, (x, y): (i32, i32)) -> bool {
        (self.left..=self.right).contains(&x) && (self.top..=self.bottom).contains(&y)
    }

    /// Where the plot was drawn, for turning the page's pixels back into data.
    pub fn area(&self) -> PlotArea {
        let (bx, by) = self.base;
        PlotArea {
            rect: (
                self.left + bx,
                self.top + by,
                self.right + bx,
                self.bottom + by,
            ),
            x: self.x,
            y: self.y,
            base: self.base,
        }
    }

    /// The parts of the polyline `points` inside the plot, each a polyline of its own.
    pub fn clip_polyline(&self, points: &[(i32, i32)]) -> Vec<Vec<(i32, i32)>> {
        let mut pieces: Vec<Vec<(i32, i32)>> = Vec::new();
        let mut current: Vec<(i32, i32)> = Vec::new();
        for pair in points.windows(2) {
            match self.clip_segment(pair[0], pair[1]) {
                Some((a, b)) => {
                    if current.last() != Some(&a) {
                        if current.len() >= 2 {
                            pieces.push(std::mem::take(&mut current));
                        }
                        current.clear();
                        current.push(a);
                    }
                    current.push(b);
                }
                None => {
                    if current.len() >= 2 {
                        pieces.push(std::mem::take(&mut current));
                    }
                    current.clear();
                }
            }
        }
        if current.len() >= 2 {
            pieces.push(current);
        }
        pieces
    }

    /// The part of the segment from `a` to `b` inside the plot.
    pub fn clip_segment(&self, a: (i32, i32), b: (i32, i32)) -> Option<((i32, i32), (i32, i32))> {
        clip_segment_to((self.left, self.top, self.right, self.bottom), a, b)
    }

    /// The polygon `points` cut to the plot (Sutherland–Hodgman); empty when nothing is inside.
    pub fn clip_polygon(&self, points: &[(i32, i32)]) -> Vec<(i32, i32)> {
        let (l, t, r, b) = (
            f64::from(self.left),
            f64::from(self.top),
            f64::from(self.right),
            f64::from(self.bottom),
        );
        let mut poly: Vec<(f64, f64)> = points
            .iter()
            .map(|&(x, y)| (f64::from(x), f64::from(y)))
            .collect();
        // Each edge: is a point inside, and where a segment crosses it.
        type Inside = fn((f64, f64), f64) -> bool;
        let edges: [(Inside, f64, bool); 4] = [
            (|p, e| p.0 >= e, l, true),
            (|p, e| p.0 <= e, r, true),
            (|p, e| p.1 >= e, t, false),
            (|p, e| p.1 <= e, b, false),
        ];
        for (inside, edge, vertical) in edges {
            let cross = |p: (f64, f64), q: (f64, f64)| {
                if vertical {
                    let s = (edge - p.0) / (q.0 - p.0);
                    (edge, p.1 + s * (q.1 - p.1))
                } else {
                    let s = (edge - p.1) / (q.1 - p.1);
                    (p.0 + s * (q.0 - p.0), edge)
                }
            };
            let input = std::mem::take(&mut poly);
            for (i, &q) in input.iter().enumerate() {
                let p = input[(i + input.len() - 1) % input.len()];
                match (inside(p, edge), inside(q, edge)) {
                    (true, true) => poly.push(q),
                    (true, false) => poly.push(cross(p, q)),
                    (false, true) => {
                        poly.push(cross(p, q));
                        poly.push(q);
                    }
                    (false, false) => {}
                }
            }
        }
        poly.iter()
            .map(|&(x, y)| (x.round() as i32, y.round() as i32))
            .collect()
    }
}

/// The part of the segment from `a` to `b` inside `rect` (left, top, right, bottom; Liang–Barsky).
pub fn clip_segment_to(
    rect: (i32, i32, i32, i32),
    a: (i32, i32),
    b: (i32, i32),
) -> Option<((i32, i32), (i32, i32))> {
    let (left, top, right, bottom) = rect;
    let (x0, y0) = (f64::from(a.0), f64::from(a.1));
    let (dx, dy) = (f64::from(b.0) - x0, f64::from(b.1) - y0);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, x0 - f64::from(left)),
        (dx, f64::from(right) - x0),
        (-dy, y0 - f64::from(top)),
        (dy, f64::from(bottom) - y0),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    if t0 > t1 {
        return None;
    }
    let at = |t: f64| ((x0 + t * dx).round() as i32, (y0 + t * dy).round() as i32);
    Some((at(t0), at(t1)))
}

#[cfg(test)]
mod tests {
    use super::super::super::scale::{AxisMap, Scale};
    use super::*;

    fn plot() -> Plot {
        let map = AxisMap {
            lo: 0.0,
            hi: 1.0,
            scale: Scale::Linear,
            from: 0.0,
            to: 1.0,
            infinite: false,
        };
        Plot {
            left: 10,
            top: 10,
            right: 110,
            bottom: 60,
            x: map,
            y: map,
            base: (0, 0),
        }
    }

    #[test]
    fn a_line_leaving_the_plot_is_cut_at_its_edge() {
        let p = plot();
        assert_eq!(
            p.clip_segment((60, 30), (160, 30)),
            Some(((60, 30), (110, 30)))
        );
        assert_eq!(p.clip_segment((0, 0), (5, 70)), None);
        // In, out and in again: two pieces.
        let pieces = p.clip_polyline(&[(20, 20), (60, 100), (100, 20)]);
        assert_eq!(
            pieces,
            [vec![(20, 20), (40, 60)], vec![(80, 60), (100, 20)]]
        );
        // Wholly inside: unchanged.
        let inside = [(20, 20), (50, 40), (90, 30)];
        assert_eq!(p.clip_polyline(&inside), [inside.to_vec()]);
    }

    #[test]
    fn a_band_reaching_past_the_top_is_cut_flat() {
        let p = plot();
        let band = [(20, 0), (100, 0), (100, 50), (20, 50)];
        assert_eq!(
            p.clip_polygon(&band),
            [(20, 10), (100, 10), (100, 50), (20, 50)]
        );
        assert_eq!(p.clip_polygon(&[(200, 0), (300, 0), (300, 5)]), []);
    }
}
