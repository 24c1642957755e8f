//! Scatter plots: one dot per point, and, when both axes say which direction is better, each
//! visible series' Pareto frontier as a staircase (the boundary of what its frontier points
//! beat), with the frontier's points drawn solid and the others faded.
//!
//! Large series (per-request samples: 100,000 points) are drawn with one backend call per
//! distinct pixel rather than per point when all their dots look the same; every point keeps
//! its hover target.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::plot::{self, AxisSetup, XAxis};
use super::{AxisName, ChartSpec, DrawError, DrawOptions, Frame};
use crate::analysis::pareto_frontier;
use crate::quantity::Better;

pub(super) fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    options: &DrawOptions,
    legend: bool,
) -> Result<Frame, DrawError> {
    let (x_scale, y_scale) = (spec.x.scale, spec.y.scale);
    plot::require_drawable_x(spec, |x| x_scale.placeable(x))?;
    let theme = &options.theme;
    let visible = plot::visible(spec, options);
    let xs = plot::axis_values(spec, options, &visible, AxisName::X, |p| [p.x]);
    let ys = plot::axis_values(spec, options, &visible, AxisName::Y, |p| p.y);
    // A reader's zoom: the axes span it, and only the points inside it are drawn.
    let zoom = options.zoom.and_then(|z| z.checked(x_scale, y_scale));
    let (x, y) = match zoom {
        Some(z) => (
            AxisSetup::zoomed(z.x, x_scale),
            AxisSetup::zoomed(z.y, y_scale),
        ),
        None => (
            AxisSetup::from_zero(xs, x_scale),
            AxisSetup::from_zero(ys, y_scale),
        ),
    };
    let plot = plot::frame(area, spec, options, legend, XAxis::Numeric(x), y)?;

    let mut frame = Frame::default();
    for &si in &visible {
        let series = &spec.series[si];
        let color = theme.series(series.color);
        // Placed points: (point index, data x, data y, pixel).
        let mut placed: Vec<(usize, f64, f64, (i32, i32))> = Vec::new();
        for (pi, p) in series.points.iter().enumerate() {
            let Some(px) = plot.x_px(p.x) else {
                continue;
            };
            match p.y.and_then(|y| plot.y_px(y).map(|py| (y, py))) {
                Some((y, py)) => placed.push((pi, p.x, y, (px, py))),
                None if !(plot.left..=plot.right).contains(&px) => {}
                None => {
                    let mark = plot.gap(area, color, px)?;
                    frame.targets.push(plot.target(si, pi, mark));
                }
            }
        }
        // Without better directions every point is drawn solid.
        let mut solid = vec![true; placed.len()];
        let mut mixed = false;
        if let (Some(bx), Some(by)) = (spec.x.better, spec.y.better) {
            let data: Vec<(f64, f64)> = placed.iter().map(|&(_, x, y, _)| (x, y)).collect();
            let frontier = pareto_frontier(&data, bx, by);
            draw_staircase(area, &plot, &frontier, &data, (bx, by), color, series.color)?;
            solid.fill(false);
            for k in frontier {
                solid[k] = true;
            }
            mixed = true;
        }
        // When every dot is the same opaque disc, a second dot on the same pixel only darkens
        // the first one's anti-aliased rim a little: draw it once (each dot is a backend call,
        // on a canvas a path and a fill).
        let mut drawn = (!mixed && placed.len() >= DEDUP_MIN)
            .then(|| PixelSet::new(area.dim_in_pixel()))
            .flatten();
        // The frontier is the whole series'; a zoom shows the points inside it.
        for (k, &(pi, _, _, at)) in placed.iter().enumerate() {
            if !plot.inside(at) {
                continue;
            }
            frame.targets.push(plot.target(si, pi, at));
            if drawn.as_mut().is_some_and(|d| !d.insert(at)) {
                continue;
            }
            let style = match (solid[k], super::theme::patterned(series.color)) {
                (true, false) => color.filled(),
                (false, false) => color.mix(0.45).filled(),
                (true, true) => color.stroke_width(1),
                (false, true) => color.mix(0.45).stroke_width(1),
            };
            area.draw(&Circle::new(at, 3, style))?;
        }
    }
    plot.annotations(area, spec, options)?;
    frame.plot = Some(plot.area());
    Ok(frame)
}

/// Series with at least this many points draw each pixel's dot once (smaller ones are cheap
/// either way).
const DEDUP_MIN: usize = 2048;

/// A set of pixels of a drawing area, one bit each.
struct PixelSet {
    width: i64,
    height: i64,
    bits: Vec<u64>,
}

impl PixelSet {
    /// The largest area tracked: 4096 × 4096 pixels (2 MB of bits).
    const MAX_PIXELS: i64 = 1 << 24;

    /// An empty set over a `(width, height)` area; `None` when the area is too large to track.
    fn new((width, height): (u32, u32)) -> Option<PixelSet> {
        let (width, height) = (i64::from(width), i64::from(height));
        let pixels = width * height;
        (pixels <= Self::MAX_PIXELS).then(|| PixelSet {
            width,
            height,
            bits: vec![0; (pixels as usize).div_ceil(64)],
        })
    }

    /// Adds pixel `(x, y)`; false when it was there already. Pixels outside the area are
    /// never recorded (always true).
    fn insert(&mut self, (x, y): (i32, i32)) -> bool {
        let (x, y) = (i64::from(x), i64::from(y));
        if !(0..self.width).contains(&x) || !(0..self.height).contains(&y) {
            return true;
        }
        let i = (y * self.width + x) as usize;
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let fresh = self.bits[word] & bit == 0;
        self.bits[word] |= bit;
        fresh
    }
}

/// The frontier as steps: between neighbours (in x order), via the corner both of them beat.
fn draw_staircase<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    plot: &plot::Plot,
    frontier: &[usize],
    data: &[(f64, f64)],
    (better_x, better_y): (Better, Better),
    color: RGBColor,
    slot: usize,
) -> Result<(), DrawError> {
    let worse = |better: Better, a: f64, b: f64| match better {
        Better::Higher => a.min(b),
        Better::Lower => a.max(b),
    };
    let mut corners: Vec<(f64, f64)> = Vec::new();
    for (k, &i) in frontier.iter().enumerate() {
        if let Some(&prev) = k.checked_sub(1).and_then(|j| frontier.get(j)) {
            let (a, b) = (data[prev], data[i]);
            corners.push((worse(better_x, a.0, b.0), worse(better_y, a.1, b.1)));
        }
        corners.push(data[i]);
    }
    let path: Vec<(i32, i32)> = corners.iter().filter_map(|&(x, y)| plot.at(x, y)).collect();
    for piece in plot.clip_polyline(&path) {
        super::look::line(area, piece, color, slot)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{draw as draw_chart, synthetic, Axis, ChartKind, ChartSpec, Point, Series};
    use super::*;

    fn stacked(better: Option<Better>) -> ChartSpec {
        // 3,000 points on 3 values per series: most of them share a pixel.
        let series = |k: usize| Series {
            name: format!("synthetic {k}"),
            color: k,
            points: (0..3000)
                .map(|i| Point::new((i % 3) as f64 + k as f64, Some((i % 3) as f64)))
                .collect(),
        };
        ChartSpec {
            id: "stacked".into(),
            title: "Stacked points".into(),
            kind: ChartKind::Scatter,
            x: Axis {
                better,
                ..Axis::new("x", "")
            },
            y: Axis {
                better,
                ..Axis::new("y", "")
            },
            series: vec![series(0), series(1)],
            ..ChartSpec::default()
        }
    }

    /// Draws `spec` as SVG: how many dots are in it, and how many targets the frame has.
    fn draw_svg(spec: &ChartSpec) -> (usize, usize) {
        let mut out = String::new();
        let targets = {
            let root =
                plotters_svg::SVGBackend::with_string(&mut out, (640, 360)).into_drawing_area();
            let frame = draw_chart(&root, spec, &DrawOptions::default()).unwrap();
            root.present().unwrap();
            frame.targets.len()
        };
        (out.matches("<circle").count(), targets)
    }

    #[test]
    fn large_series_draw_each_pixel_once_and_keep_every_target() {
        let (circles, targets) = draw_svg(&stacked(None));
        assert_eq!(targets, 6000);
        assert_eq!(circles, 6, "one dot per distinct pixel");
        // With a frontier, faded and solid dots interleave: every one is drawn.
        let (circles, targets) = draw_svg(&stacked(Some(Better::Higher)));
        assert_eq!((circles, targets), (6000, 6000));
    }

    #[test]
    fn the_synthetic_scatter_draws_every_target() {
        let spec = synthetic::scatter(20_000);
        let (circles, targets) = draw_svg(&spec);
        assert_eq!(targets, 20_000);
        assert!(circles > 5_000 && circles <= 20_000, "{circles}");
    }

    #[test]
    fn pixel_sets_ignore_pixels_outside_and_refuse_huge_areas() {
        let mut set = PixelSet::new((10, 10)).unwrap();
        assert!(set.insert((3, 4)));
        assert!(!set.insert((3, 4)));
        assert!(
            set.insert((-1, 4)) && set.insert((-1, 4)),
            "outside: always drawn"
        );
        assert!(set.insert((9, 9)) && !set.insert((9, 9)));
        assert!(PixelSet::new((5000, 5000)).is_none());
    }
}
