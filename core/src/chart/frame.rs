//! Where a drawn chart put its points ([`Frame`]), and the nearest one to a pixel: what hover,
//! tooltips and keyboard navigation ask of a drawing. A few hundred points are scanned; beyond
//! that a grid of buckets ([`TargetIndex`]) finds the nearest among 100,000 in microseconds.

use std::sync::OnceLock;

use super::zoom::PlotArea;
#[cfg(doc)]
use super::{ChartSpec, Series};

/// Where a drawn chart put things, in backend pixels: what hover and keyboard navigation need.
///
/// `targets` is filled by drawing and meant to be read; [`Frame::nearest`] builds a bucket index
/// over it on first use (when there are many targets) and falls back to a scan when the number of
/// targets has changed since.
#[derive(Debug, Clone, Default)]
pub struct Frame {
    /// Pixel position of every drawn point: (series index, point index, x, y).
    pub targets: Vec<Target>,
    /// Where the data was drawn, for the kinds a reader can zoom (lines, scatter).
    pub plot: Option<PlotArea>,
    pub(super) index: OnceLock<TargetIndex>,
}

impl PartialEq for Frame {
    fn eq(&self, other: &Frame) -> bool {
        self.targets == other.targets
    }
}

/// A point's place on the drawing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Target {
    /// Index into [`ChartSpec::series`].
    pub series: usize,
    /// Index into [`Series::points`].
    pub point: usize,
    /// Horizontal pixel position of the point's anchor (a bar's top centre).
    pub x: i32,
    /// Vertical pixel position.
    pub y: i32,
}

/// Up to this many targets, [`Frame::nearest`] scans them all.
const SCAN_LIMIT: usize = 512;

impl Frame {
    /// A frame holding `targets`.
    pub fn new(targets: Vec<Target>) -> Frame {
        Frame {
            targets,
            plot: None,
            index: OnceLock::new(),
        }
    }

    /// Builds the lookup index [`Frame::nearest`] would build on its first call, so that a
    /// page can do it in idle time and the reader's first hover never waits for it.
    pub fn prepare_lookup(&self) {
        if self.targets.len() > SCAN_LIMIT {
            self.index.get_or_init(|| TargetIndex::build(&self.targets));
        }
    }

    /// The target nearest to pixel (x, y), if any lies within `radius` pixels. Ties go to the
    /// target drawn first. Fast on 100,000 targets: beyond a few hundred it searches a grid of
    /// buckets around (x, y) instead of every target.
    pub fn nearest(&self, x: i32, y: i32, radius: i32) -> Option<Target> {
        if self.targets.len() <= SCAN_LIMIT {
            return scan_nearest(&self.targets, x, y, radius);
        }
        let index = self.index.get_or_init(|| TargetIndex::build(&self.targets));
        if index.len != self.targets.len() {
            return scan_nearest(&self.targets, x, y, radius);
        }
        index.nearest(&self.targets, x, y, radius).0
    }
}

/// Squared pixel distance from `t` to (x, y).
fn distance2(t: &Target, x: i32, y: i32) -> i64 {
    let dx = i64::from(t.x) - i64::from(x);
    let dy = i64::from(t.y) - i64::from(y);
    dx * dx + dy * dy
}

/// The nearest of `targets` to (x, y) within `radius`, looking at every one.
pub(super) fn scan_nearest(targets: &[Target], x: i32, y: i32, radius: i32) -> Option<Target> {
    let r2 = i64::from(radius) * i64::from(radius);
    targets
        .iter()
        .map(|t| (distance2(t, x, y), t))
        .filter(|(d, _)| *d <= r2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, t)| *t)
}

/// Targets bucketed by pixel cell, for [`Frame::nearest`].
#[derive(Debug, Clone, PartialEq)]
pub(super) struct TargetIndex {
    /// How many targets it was built from.
    pub(super) len: usize,
    /// Cell side, pixels.
    cell: i64,
    /// Top left of the grid.
    x0: i64,
    y0: i64,
    /// Grid size, cells.
    cols: i64,
    rows: i64,
    /// Targets per cell, row by row: `order[starts[c]..starts[c + 1]]` are the target indices
    /// in cell `c`, ascending.
    starts: Vec<u32>,
    order: Vec<u32>,
}

impl TargetIndex {
    /// The index of `targets`.
    pub(super) fn build(targets: &[Target]) -> TargetIndex {
        let xs = targets.iter().map(|t| i64::from(t.x));
        let ys = targets.iter().map(|t| i64::from(t.y));
        let (x0, x1) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
        let (y0, y1) = (ys.clone().min().unwrap_or(0), ys.max().unwrap_or(0));
        // 16-pixel cells, coarser when the targets are spread so far apart that the grid would
        // have more cells than a few per target.
        let max_cells = (targets.len() as i64 * 4).max(1024);
        let mut cell = 16i64;
        while ((x1 - x0) / cell + 1) * ((y1 - y0) / cell + 1) > max_cells {
            cell *= 2;
        }
        let cols = (x1 - x0) / cell + 1;
        let rows = (y1 - y0) / cell + 1;
        let cell_of = |t: &Target| {
            let c = (i64::from(t.x) - x0) / cell;
            let r = (i64::from(t.y) - y0) / cell;
            (r * cols + c) as usize
        };
        let mut starts = vec![0u32; (cols * rows) as usize + 1];
        for t in targets {
            starts[cell_of(t) + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut fill = starts.clone();
        let mut order = vec![0u32; targets.len()];
        for (i, t) in targets.iter().enumerate() {
            let c = cell_of(t);
            order[fill[c] as usize] = i as u32;
            fill[c] += 1;
        }
        TargetIndex {
            len: targets.len(),
            cell,
            x0,
            y0,
            cols,
            rows,
            starts,
            order,
        }
    }

    /// The nearest target within `radius`, and how many targets were looked at.
    pub(super) fn nearest(
        &self,
        targets: &[Target],
        x: i32,
        y: i32,
        radius: i32,
    ) -> (Option<Target>, usize) {
        let radius = i64::from(radius.max(0));
        let r2 = radius * radius;
        let (x, y) = (i64::from(x), i64::from(y));
        let c0 = ((x - radius - self.x0).div_euclid(self.cell)).max(0);
        let c1 = ((x + radius - self.x0).div_euclid(self.cell)).min(self.cols - 1);
        let r0 = ((y - radius - self.y0).div_euclid(self.cell)).max(0);
        let r1 = ((y + radius - self.y0).div_euclid(self.cell)).min(self.rows - 1);
        let mut best: Option<(i64, u32)> = None;
        let mut looked = 0;
        for r in r0..=r1 {
            for c in c0..=c1 {
                let cell = (r * self.cols + c) as usize;
                let range = self.starts[cell] as usize..self.starts[cell + 1] as usize;
                for &i in &self.order[range] {
                    looked += 1;
                    let d = distance2(&targets[i as usize], x as i32, y as i32);
                    if d <= r2 && best.is_none_or(|b| (d, i) < b) {
                        best = Some((d, i));
                    }
                }
            }
        }
        (best.map(|(_, i)| targets[i as usize]), looked)
    }
}
