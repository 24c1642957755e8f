//! Where the ranked vertices go on the page: ranks stacked down with fixed gaps, each vertex's
//! box, and each arrow's route from its question through its label and waypoints.

use super::diagram::{round, Point, Rect, Style};
use super::graph::Edge;
use super::ranks::{Kind, Ranked};

/// The drawing's coordinates: the ranked vertices at their centres, the ranks stacked down.
pub(super) struct Placement<'r> {
    ranked: &'r Ranked,
    centres: Vec<f64>,
    /// How far every centre moves right so that the leftmost box starts at the margin.
    shift: f64,
    rank_tops: Vec<f64>,
    rank_heights: Vec<f64>,
    /// Height of the whole drawing.
    pub(super) height: f64,
}

impl<'r> Placement<'r> {
    /// Stacks the ranks down, each as tall as its tallest box, with a gap between ranks.
    pub(super) fn new(ranked: &'r Ranked, centres: Vec<f64>, style: &Style) -> Placement<'r> {
        let rank_count = ranked.ranks.len();
        let mut rank_heights = vec![0.0_f64; rank_count];
        for (vertex, &rank) in ranked.rank_of.iter().enumerate() {
            rank_heights[rank] = rank_heights[rank].max(ranked.heights[vertex]);
        }
        // Node ranks are even, label ranks odd.
        let gap_below = |rank: usize| {
            if rank.is_multiple_of(2) {
                style.rank_gap
            } else {
                style.label_gap
            }
        };
        let mut rank_tops = Vec::with_capacity(rank_count);
        let mut top = style.margin;
        for (rank, &height) in rank_heights.iter().enumerate() {
            rank_tops.push(round(top));
            top += height + gap_below(rank);
        }
        let height = match rank_count {
            0 => 2.0 * style.margin,
            count => round(top - gap_below(count - 1) + style.margin),
        };
        let left = ranked
            .kinds
            .iter()
            .enumerate()
            .map(|(v, _)| centres[v] - ranked.widths[v] / 2.0)
            .fold(f64::INFINITY, f64::min);
        let shift = if left.is_finite() {
            style.margin - left
        } else {
            0.0
        };
        Placement {
            ranked,
            centres,
            shift,
            rank_tops,
            rank_heights,
            height,
        }
    }

    /// A vertex's horizontal centre.
    fn x_of(&self, vertex: usize) -> f64 {
        round(self.centres[vertex] + self.shift)
    }

    /// The bottom of a rank.
    fn rank_bottom(&self, rank: usize) -> f64 {
        round(self.rank_tops[rank] + self.rank_heights[rank])
    }

    /// A vertex's box: a node at the top of its rank, a label or waypoint in its middle.
    pub(super) fn frame_of(&self, vertex: usize) -> Rect {
        let ranked = self.ranked;
        let rank = ranked.rank_of[vertex];
        let (width, height) = (ranked.widths[vertex], ranked.heights[vertex]);
        let y = match ranked.kinds[vertex] {
            Kind::Node(_) => self.rank_tops[rank],
            _ => round(self.rank_tops[rank] + (self.rank_heights[rank] - height) / 2.0),
        };
        Rect {
            x: round(self.x_of(vertex) - width / 2.0),
            y,
            width,
            height,
        }
    }

    /// Width of the whole drawing: every box, and the margin right of the rightmost.
    pub(super) fn width(&self, margin: f64) -> f64 {
        self.ranked
            .kinds
            .iter()
            .enumerate()
            .map(|(v, _)| self.frame_of(v).right() + margin)
            .fold(2.0 * margin, f64::max)
    }

    /// The points of an answer's arrow: down from its question (`from`), straight down through
    /// its label and waypoints (`chain`), into the top of the node it leads to (`to`).
    pub(super) fn arrow(
        &self,
        edge: &Edge,
        chain: &[usize],
        from: &Rect,
        to: &Rect,
        port_inset: f64,
    ) -> Vec<Point> {
        let ranked = self.ranked;
        let mut points = Vec::new();
        let leave_x = port(from, self.x_of(chain[0]), port_inset);
        points.push(Point {
            x: leave_x,
            y: from.bottom(),
        });
        let from_rank = ranked.rank_of[ranked.node_vertex[edge.from]];
        points.push(Point {
            x: leave_x,
            y: self.rank_bottom(from_rank),
        });
        for &vertex in chain {
            let rank = ranked.rank_of[vertex];
            let x = self.x_of(vertex);
            points.push(Point {
                x,
                y: self.rank_tops[rank],
            });
            points.push(Point {
                x,
                y: self.rank_bottom(rank),
            });
        }
        let last_x = self.x_of(chain[chain.len() - 1]);
        points.push(Point {
            x: port(to, last_x, port_inset),
            y: to.y,
        });
        points.dedup();
        without_straight_through(&points)
    }
}

/// The points without those between two others straight above and below them: they add
/// nothing.
fn without_straight_through(points: &[Point]) -> Vec<Point> {
    let mut kept: Vec<Point> = Vec::with_capacity(points.len());
    for (i, &p) in points.iter().enumerate() {
        let straight_through = kept.last().is_some_and(|q| q.x == p.x)
            && points.get(i + 1).is_some_and(|n| n.x == p.x);
        if !straight_through {
            kept.push(p);
        }
    }
    kept
}

/// Where an arrow leaves or enters a box: straight above or below `towards` when that is over
/// the box, else as near to it as the box's corners allow.
fn port(frame: &Rect, towards: f64, inset: f64) -> f64 {
    let inset = inset.min(frame.width / 2.0);
    round(towards.clamp(frame.x + inset, frame.right() - inset))
}
