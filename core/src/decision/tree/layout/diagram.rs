//! What a laid-out flowchart is: its [`Style`] (sizes in SVG user units), its nodes and edges
//! placed as [`Rect`]s and points, and the rounding every coordinate goes through. A diagram is
//! laid out by the build (and by the worker for dropped files) and travels in the page's data,
//! so the app's wasm carries no layout code.

use serde::{Deserialize, Serialize};

/// Sizes of the drawing, in SVG user units (pixels at scale 1).
#[derive(Debug, Clone, PartialEq)]
pub struct Style {
    /// Font size of the questions and recommendations.
    pub text_size: f64,
    /// Font size of the answer labels on the arrows.
    pub label_size: f64,
    /// Estimated advance of one character, as a fraction of the font size. Set wide: a narrower
    /// font leaves some room in the box, a wider one would overflow it.
    pub char_width: f64,
    /// Distance between two lines of text, as a fraction of the font size.
    pub line_height: f64,
    /// Widest line of a question's text.
    pub question_width: f64,
    /// Widest line of a recommendation's text.
    pub recommendation_width: f64,
    /// Widest line of an answer label.
    pub label_width: f64,
    /// Space between a node's border and its text, left and right.
    pub padding_x: f64,
    /// Space between a node's border and its text, above and below.
    pub padding_y: f64,
    /// Space around an answer label's text.
    pub label_padding: f64,
    /// Least horizontal space between two boxes (or waypoints) of a rank.
    pub gap: f64,
    /// Vertical space below a rank of nodes, where arrows fan out to their labels.
    pub rank_gap: f64,
    /// Vertical space below a rank of answer labels, down to the nodes they lead to.
    pub label_gap: f64,
    /// How far from a node's corner an arrow may leave or enter it.
    pub port_inset: f64,
    /// Empty space around the whole drawing (room for strokes).
    pub margin: f64,
    /// Whether a line break in a text breaks the line (a flowchart's `<br/>`); otherwise it is
    /// a space, as in the YAML of a question tree.
    pub line_breaks: bool,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            text_size: 14.0,
            label_size: 12.0,
            char_width: 0.6,
            line_height: 1.3,
            question_width: 190.0,
            recommendation_width: 150.0,
            label_width: 110.0,
            padding_x: 10.0,
            padding_y: 7.0,
            label_padding: 4.0,
            gap: 16.0,
            rank_gap: 28.0,
            label_gap: 14.0,
            port_inset: 12.0,
            margin: 4.0,
            line_breaks: false,
        }
    }
}

/// A point of the drawing.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Rightwards from the drawing's left edge.
    pub x: f64,
    /// Downwards from the drawing's top edge.
    pub y: f64,
}

/// A box: its top-left corner and its size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

impl Rect {
    /// Right edge.
    pub fn right(&self) -> f64 {
        self.x + self.width
    }

    /// Bottom edge.
    pub fn bottom(&self) -> f64 {
        self.y + self.height
    }

    /// Horizontal centre.
    pub fn centre_x(&self) -> f64 {
        self.x + self.width / 2.0
    }

    /// Whether the two boxes share any area (touching edges do not count).
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.x < other.right()
            && other.x < self.right()
            && self.y < other.bottom()
            && other.y < self.bottom()
    }
}

/// One line of wrapped text, centred on `x`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextLine {
    /// The text.
    pub text: String,
    /// Horizontal centre (draw with `text-anchor: middle`).
    pub x: f64,
    /// Baseline.
    pub baseline: f64,
}

/// What a node is, which decides how it is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Shape {
    /// A question, with an arrow per answer.
    Question,
    /// A recommendation, where a path ends.
    Recommendation,
}

/// A node of the tree, placed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiagramNode {
    /// The node's id in the tree.
    pub id: String,
    /// Question or recommendation.
    pub shape: Shape,
    /// Its layer: the longest chain of answers from the start to it.
    pub layer: usize,
    /// Its box.
    pub frame: Rect,
    /// Its text (the question, or what is recommended), wrapped.
    pub lines: Vec<TextLine>,
}

/// An answer: an arrow from its question to the node it leads to, with its label.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiagramEdge {
    /// The question's id.
    pub from: String,
    /// Which of the question's answers (0-based, as `Tree::walk` takes them).
    pub answer: usize,
    /// The id of the node it leads to.
    pub to: String,
    /// The label's box, on the arrow.
    pub label_frame: Rect,
    /// The answer's text, wrapped.
    pub label: Vec<TextLine>,
    /// Where the arrow goes: from the bottom of the question to the top of the node it leads
    /// to. Between two points with the same `x` it is straight; otherwise it is an S-curve,
    /// vertical at both ends ([`DiagramEdge::svg_path`]).
    pub points: Vec<Point>,
}

impl DiagramEdge {
    /// The arrow's line as SVG path data.
    pub fn svg_path(&self) -> String {
        let mut d = String::new();
        let mut previous: Option<Point> = None;
        for &p in &self.points {
            match previous {
                None => d.push_str(&format!("M{} {}", p.x, p.y)),
                Some(q) if q.x == p.x => d.push_str(&format!(" L{} {}", p.x, p.y)),
                Some(q) => {
                    let middle = round((q.y + p.y) / 2.0);
                    d.push_str(&format!(
                        " C{} {} {} {} {} {}",
                        q.x, middle, p.x, middle, p.x, p.y
                    ));
                }
            }
            previous = Some(p);
        }
        d
    }

    /// The arrowhead as SVG path data: a triangle whose tip is the arrow's end, pointing down
    /// (every arrow enters its node from above).
    pub fn arrowhead(&self) -> String {
        let Some(tip) = self.points.last() else {
            return String::new();
        };
        format!(
            "M{} {} L{} {} L{} {} Z",
            tip.x,
            tip.y,
            round(tip.x - 4.5),
            round(tip.y - 8.0),
            round(tip.x + 4.5),
            round(tip.y - 8.0)
        )
    }
}

/// The whole flowchart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diagram {
    /// Width of the drawing (its SVG `viewBox` is `0 0 width height`).
    pub width: f64,
    /// Height of the drawing.
    pub height: f64,
    /// Font size of node text.
    pub text_size: f64,
    /// Font size of answer labels.
    pub label_size: f64,
    /// Every node reachable from the start, once each, in the order a depth-first walk from
    /// the start meets them.
    pub nodes: Vec<DiagramNode>,
    /// Every answer between two of those nodes, by question (in `nodes` order), then answer.
    pub edges: Vec<DiagramEdge>,
}

impl Diagram {
    /// The node with this id.
    pub fn node(&self, id: &str) -> Option<&DiagramNode> {
        self.nodes.iter().find(|n| n.id == id)
    }
}

/// Rounds to a tenth, so the output reads well and compares exactly.
pub(super) fn round(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}
