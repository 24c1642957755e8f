//! The question tree drawn as a flowchart: questions and recommendations as boxes in layers, top
//! to bottom, joined by arrows labelled with their answers; and which of them a walk followed.
//!
//! Several answers may lead to the same node, so a tree is a directed acyclic graph. It is laid
//! out the layered (Sugiyama) way:
//!
//! 1. **Layers.** A node's layer is its longest path from the start, so every arrow points down
//!    and a node shared by several answers is drawn once, below all of them.
//! 2. **Ranks.** Node layers alternate with bands for the answer labels: each arrow gets a label
//!    box in the band under its question, and an arrow that skips layers gets an invisible
//!    waypoint in every rank it crosses, so it never runs through a box.
//! 3. **Order.** Within each rank, a few barycentre sweeps (each box moves to the mean position
//!    of its neighbours in the rank above, then in the rank below) reduce crossings; the order
//!    with the fewest crossings is kept.
//! 4. **Across.** Alternating passes put each box at the mean of its neighbours' centres, as
//!    close as the minimum gaps allow (an isotonic regression, solved exactly); the last pass
//!    centres parents over their children.
//! 5. **Down.** Ranks stack with fixed gaps, nodes aligned at the top of their rank. Arrows curve
//!    only in the gaps and run straight down through label bands, so they meet no other box.
//!
//! There is no font here: text is wrapped to a maximum width with an estimated character width,
//! which [`Style`] sets a little wide so the browser's text fits inside its box. Coordinates are
//! rounded to a tenth of a unit, and the same tree always gives the same diagram.
//!
//! [`PathTaken`] says which nodes and arrows a list of answers followed, and [`describe_path`]
//! says it in words, for the drawing's accessible name.

use std::collections::BTreeMap;

use super::{Node, Tree};
use crate::format::plural;

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
        }
    }
}

/// A point of the drawing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Rightwards from the drawing's left edge.
    pub x: f64,
    /// Downwards from the drawing's top edge.
    pub y: f64,
}

/// A box: its top-left corner and its size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

impl Frame {
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
    pub fn overlaps(&self, other: &Frame) -> bool {
        self.x < other.right()
            && other.x < self.right()
            && self.y < other.bottom()
            && other.y < self.bottom()
    }
}

/// One line of wrapped text, centred on `x`.
#[derive(Debug, Clone, PartialEq)]
pub struct TextLine {
    /// The text.
    pub text: String,
    /// Horizontal centre (draw with `text-anchor: middle`).
    pub x: f64,
    /// Baseline.
    pub baseline: f64,
}

/// What a node is, which decides how it is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A question, with an arrow per answer.
    Question,
    /// A recommendation, where a path ends.
    Recommendation,
}

/// A node of the tree, placed.
#[derive(Debug, Clone, PartialEq)]
pub struct DiagramNode {
    /// The node's id in the tree.
    pub id: String,
    /// Question or recommendation.
    pub shape: Shape,
    /// Its layer: the longest chain of answers from the start to it.
    pub layer: usize,
    /// Its box.
    pub frame: Frame,
    /// Its text (the question, or what is recommended), wrapped.
    pub lines: Vec<TextLine>,
}

/// An answer: an arrow from its question to the node it leads to, with its label.
#[derive(Debug, Clone, PartialEq)]
pub struct DiagramEdge {
    /// The question's id.
    pub from: String,
    /// Which of the question's answers (0-based, as `Tree::walk` takes them).
    pub answer: usize,
    /// The id of the node it leads to.
    pub to: String,
    /// The label's box, on the arrow.
    pub label_frame: Frame,
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
#[derive(Debug, Clone, PartialEq)]
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

/// Lays out `tree` as a top-to-bottom flowchart. `recommendation_text` gives the text shown for
/// a recommended configuration key (its label, say).
///
/// Only nodes reachable from the start are drawn. The tree should pass [`Tree::check`]; if it
/// does not, answers that name no node or that loop back are left out rather than drawn wrong.
pub fn lay_out(
    tree: &Tree,
    recommendation_text: impl Fn(&str) -> String,
    style: &Style,
) -> Diagram {
    let graph = Graph::of(tree);
    let texts: Vec<(Shape, Vec<String>)> = graph
        .nodes
        .iter()
        .map(|node| match node {
            Node::Question { question, .. } => (
                Shape::Question,
                wrap(
                    question,
                    chars_within(style.question_width, style.text_size, style),
                ),
            ),
            Node::Recommendation { recommend, .. } => (
                Shape::Recommendation,
                wrap(
                    &recommendation_text(recommend),
                    chars_within(style.recommendation_width, style.text_size, style),
                ),
            ),
        })
        .collect();
    let labels: Vec<Vec<String>> = graph
        .edges
        .iter()
        .map(|edge| {
            wrap(
                graph.answer_label(edge),
                chars_within(style.label_width, style.label_size, style),
            )
        })
        .collect();

    let mut ranked = Ranked::of(&graph);
    for (vertex, kind) in ranked.kinds.iter().enumerate() {
        let (width, height) = match *kind {
            Kind::Node(n) => text_box(
                &texts[n].1,
                style.text_size,
                style.padding_x,
                style.padding_y,
                style,
            ),
            Kind::Label(e) => text_box(
                &labels[e],
                style.label_size,
                style.label_padding,
                style.label_padding,
                style,
            ),
            Kind::Waypoint => (0.0, 0.0),
        };
        // Whole units: half a width is then a multiple of 0.5, so rounded centres and edges
        // agree.
        ranked.widths[vertex] = width.ceil();
        ranked.heights[vertex] = height.ceil();
    }
    ranked.order_to_reduce_crossings();
    let centres = ranked.place_across(style.gap);

    // Down: each rank as tall as its tallest box, with a gap between ranks.
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
    let x_of = |vertex: usize| round(centres[vertex] + shift);
    let frame_of = |vertex: usize| {
        let rank = ranked.rank_of[vertex];
        let (width, height) = (ranked.widths[vertex], ranked.heights[vertex]);
        let y = match ranked.kinds[vertex] {
            Kind::Node(_) => rank_tops[rank],
            _ => round(rank_tops[rank] + (rank_heights[rank] - height) / 2.0),
        };
        Frame {
            x: round(x_of(vertex) - width / 2.0),
            y,
            width,
            height,
        }
    };
    let width = ranked
        .kinds
        .iter()
        .enumerate()
        .map(|(v, _)| frame_of(v).right() + style.margin)
        .fold(2.0 * style.margin, f64::max);

    let nodes: Vec<DiagramNode> = texts
        .iter()
        .enumerate()
        .map(|(n, (shape, lines))| {
            let frame = frame_of(ranked.node_vertex[n]);
            DiagramNode {
                id: graph.ids[n].to_string(),
                shape: *shape,
                layer: graph.layers[n],
                frame,
                lines: place_lines(lines, &frame, style.text_size, style.padding_y, style),
            }
        })
        .collect();
    let edges = graph
        .edges
        .iter()
        .enumerate()
        .map(|(e, edge)| {
            let chain = &ranked.chains[e];
            let label_frame = frame_of(chain[0]);
            let from = nodes[edge.from].frame;
            let to = nodes[edge.to].frame;
            let mut points = Vec::new();
            let leave_x = port(&from, x_of(chain[0]), style.port_inset);
            points.push(Point {
                x: leave_x,
                y: from.bottom(),
            });
            let from_rank = ranked.rank_of[ranked.node_vertex[edge.from]];
            points.push(Point {
                x: leave_x,
                y: round(rank_tops[from_rank] + rank_heights[from_rank]),
            });
            for &vertex in chain {
                let rank = ranked.rank_of[vertex];
                let x = x_of(vertex);
                points.push(Point {
                    x,
                    y: rank_tops[rank],
                });
                points.push(Point {
                    x,
                    y: round(rank_tops[rank] + rank_heights[rank]),
                });
            }
            let last_x = x_of(chain[chain.len() - 1]);
            points.push(Point {
                x: port(&to, last_x, style.port_inset),
                y: to.y,
            });
            points.dedup();
            // A point between two others straight above and below it adds nothing.
            let mut kept: Vec<Point> = Vec::with_capacity(points.len());
            for (i, &p) in points.iter().enumerate() {
                let straight_through = kept.last().is_some_and(|q| q.x == p.x)
                    && points.get(i + 1).is_some_and(|n| n.x == p.x);
                if !straight_through {
                    kept.push(p);
                }
            }
            let points = kept;
            DiagramEdge {
                from: graph.ids[edge.from].to_string(),
                answer: edge.answer,
                to: graph.ids[edge.to].to_string(),
                label_frame,
                label: place_lines(
                    &labels[e],
                    &label_frame,
                    style.label_size,
                    style.label_padding,
                    style,
                ),
                points,
            }
        })
        .collect();
    Diagram {
        width: round(width),
        height,
        text_size: style.text_size,
        label_size: style.label_size,
        nodes,
        edges,
    }
}

/// Wraps `text` at spaces into lines of at most `max_chars` characters; a word longer than that
/// is cut. Always at least one line.
pub fn wrap(text: &str, max_chars: usize) -> Vec<String> {
    let max_chars = max_chars.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut line_chars = 0;
    for word in text.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        if line_chars > 0 && line_chars + 1 + word.len() <= max_chars {
            line.push(' ');
            line.extend(&word);
            line_chars += 1 + word.len();
            continue;
        }
        if line_chars > 0 {
            lines.push(std::mem::take(&mut line));
        }
        while word.len() > max_chars {
            lines.push(word.drain(..max_chars).collect());
        }
        line_chars = word.len();
        line = word.into_iter().collect();
    }
    if line_chars > 0 || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Which nodes and answers a list of answers followed, from the start to the node reached.
#[derive(Debug, Clone, PartialEq)]
pub struct PathTaken {
    /// The nodes in order: the start, each answer's node, and last the node reached.
    nodes: Vec<String>,
    /// The answer given at each node but the last.
    answers: Vec<usize>,
}

impl PathTaken {
    /// Follows `answers` (indices, as [`Tree::walk`] takes them) from the start.
    pub fn follow(tree: &Tree, answers: &[usize]) -> Result<PathTaken, String> {
        let walk = tree.walk(answers)?;
        let mut nodes: Vec<String> = walk.steps.into_iter().map(|s| s.node).collect();
        nodes.push(walk.at);
        Ok(PathTaken {
            nodes,
            answers: answers.to_vec(),
        })
    }

    /// The node reached: the question being asked, or the recommendation.
    pub fn current(&self) -> &str {
        self.nodes.last().map_or("", String::as_str)
    }

    /// The nodes on the path, from the start to the current one.
    pub fn nodes(&self) -> &[String] {
        &self.nodes
    }

    /// Whether the path passes through (or stops at) node `id`.
    pub fn has_node(&self, id: &str) -> bool {
        self.nodes.iter().any(|n| n == id)
    }

    /// Whether the path took answer `answer` of question `from`.
    pub fn has_edge(&self, from: &str, answer: usize) -> bool {
        self.nodes
            .iter()
            .zip(&self.answers)
            .any(|(node, &given)| node == from && given == answer)
    }

    /// How many answers lead to node `id` on this path: keeping only that many goes back to it.
    pub fn answers_before(&self, id: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n == id)
    }
}

/// The path in words, for a reader who cannot see the drawing: how big the tree is, each
/// question with the answer given, and the question now asked or the recommendation reached.
pub fn describe_path(
    tree: &Tree,
    path: &PathTaken,
    recommendation_text: impl Fn(&str) -> String,
) -> String {
    let questions = tree
        .nodes
        .values()
        .filter(|n| matches!(n, Node::Question { .. }))
        .count();
    let recommendations = tree.nodes.len() - questions;
    let mut words = format!(
        "Flowchart of {questions} question{} leading to {recommendations} recommendation{}.",
        plural(questions),
        plural(recommendations)
    );
    if path.answers.is_empty() {
        words.push_str(" No answer given yet.");
    } else {
        words.push_str(" Path taken:");
        for (id, &answer) in path.nodes.iter().zip(&path.answers) {
            if let Some(Node::Question { question, answers }) = tree.nodes.get(id) {
                let label = answers.get(answer).map_or("?", |a| a.label.as_str());
                words.push_str(&format!(" {} {}.", question.trim(), label.trim()));
            }
        }
    }
    match tree.nodes.get(path.current()) {
        Some(Node::Question { question, .. }) => {
            words.push_str(&format!(" Now asking: {}", question.trim()));
        }
        Some(Node::Recommendation { recommend, .. }) => {
            words.push_str(&format!(
                " Recommendation reached: {}.",
                recommendation_text(recommend)
            ));
        }
        None => {}
    }
    words
}

/// Rounds to a tenth, so the output reads well and compares exactly.
fn round(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

fn chars_within(width: f64, size: f64, style: &Style) -> usize {
    (width / (size * style.char_width)).floor().max(1.0) as usize
}

fn text_box(
    lines: &[String],
    size: f64,
    padding_x: f64,
    padding_y: f64,
    style: &Style,
) -> (f64, f64) {
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    (
        longest as f64 * size * style.char_width + 2.0 * padding_x,
        lines.len() as f64 * size * style.line_height + 2.0 * padding_y,
    )
}

/// The lines of text of a box, centred in it.
fn place_lines(
    lines: &[String],
    frame: &Frame,
    size: f64,
    padding_y: f64,
    style: &Style,
) -> Vec<TextLine> {
    let line_height = size * style.line_height;
    lines
        .iter()
        .enumerate()
        .map(|(i, text)| TextLine {
            text: text.clone(),
            x: round(frame.centre_x()),
            // The middle of the line, lowered by about half a capital's height.
            baseline: round(frame.y + padding_y + (i as f64 + 0.5) * line_height + 0.35 * size),
        })
        .collect()
}

/// Where an arrow leaves or enters a box: straight above or below `towards` when that is over
/// the box, else as near to it as the box's corners allow.
fn port(frame: &Frame, towards: f64, inset: f64) -> f64 {
    let inset = inset.min(frame.width / 2.0);
    round(towards.clamp(frame.x + inset, frame.right() - inset))
}

/// The reachable part of a tree, its nodes numbered in depth-first order.
struct Graph<'t> {
    ids: Vec<&'t str>,
    nodes: Vec<&'t Node>,
    /// Answers between reachable nodes, sorted by question, then answer; none loops back.
    edges: Vec<Edge>,
    /// Each node's layer: its longest path from the start.
    layers: Vec<usize>,
}

struct Edge {
    from: usize,
    answer: usize,
    to: usize,
}

impl<'t> Graph<'t> {
    fn of(tree: &'t Tree) -> Graph<'t> {
        let mut graph = Graph {
            ids: Vec::new(),
            nodes: Vec::new(),
            edges: Vec::new(),
            layers: Vec::new(),
        };
        let Some((start, node)) = tree.nodes.get_key_value(&tree.start) else {
            return graph;
        };
        let mut number: BTreeMap<&str, usize> = BTreeMap::new();
        let mut finished: Vec<bool> = Vec::new();
        let mut finishing_order = Vec::new();
        // Depth first without recursion (a report's tree may be deep): node and next answer.
        let mut stack: Vec<(usize, usize)> = Vec::new();
        number.insert(start, 0);
        graph.ids.push(start);
        graph.nodes.push(node);
        finished.push(false);
        stack.push((0, 0));
        while let Some(&mut (at, ref mut next_answer)) = stack.last_mut() {
            let answers: &[super::Answer] = match graph.nodes[at] {
                Node::Question { answers, .. } => answers,
                Node::Recommendation { .. } => &[],
            };
            let Some(answer) = answers.get(*next_answer) else {
                finished[at] = true;
                finishing_order.push(at);
                stack.pop();
                continue;
            };
            let answer_index = *next_answer;
            *next_answer += 1;
            let Some((id, node)) = tree.nodes.get_key_value(&answer.next) else {
                continue; // names no node
            };
            match number.get(id.as_str()) {
                Some(&seen) if !finished[seen] => {} // loops back
                Some(&seen) => graph.edges.push(Edge {
                    from: at,
                    answer: answer_index,
                    to: seen,
                }),
                None => {
                    let new = graph.ids.len();
                    number.insert(id, new);
                    graph.ids.push(id);
                    graph.nodes.push(node);
                    finished.push(false);
                    graph.edges.push(Edge {
                        from: at,
                        answer: answer_index,
                        to: new,
                    });
                    stack.push((new, 0));
                }
            }
        }
        crate::order::sort_by_keys(&mut graph.edges, &|e| [e.from as f64, e.answer as f64, 0.0]);
        // Longest path, in topological order (the reverse of finishing order).
        graph.layers = vec![0; graph.ids.len()];
        for &node in finishing_order.iter().rev() {
            let below = graph.layers[node] + 1;
            for edge in graph.edges.iter().filter(|e| e.from == node) {
                graph.layers[edge.to] = graph.layers[edge.to].max(below);
            }
        }
        graph
    }

    fn answer_label(&self, edge: &Edge) -> &'t str {
        match self.nodes[edge.from] {
            Node::Question { answers, .. } => answers[edge.answer].label.as_str(),
            Node::Recommendation { .. } => "",
        }
    }
}

/// What a vertex of the ranked graph stands for.
#[derive(Clone, Copy)]
enum Kind {
    /// A node of the tree (its number in [`Graph`]).
    Node(usize),
    /// The label of an edge (its number in [`Graph`]).
    Label(usize),
    /// Where a long edge crosses a rank.
    Waypoint,
}

/// The graph with labels and waypoints, every link joining two neighbouring ranks.
struct Ranked {
    kinds: Vec<Kind>,
    rank_of: Vec<usize>,
    widths: Vec<f64>,
    heights: Vec<f64>,
    /// Links to the rank above and below, per vertex.
    above: Vec<Vec<usize>>,
    below: Vec<Vec<usize>>,
    /// Vertices per rank, left to right.
    ranks: Vec<Vec<usize>>,
    /// Each tree node's vertex.
    node_vertex: Vec<usize>,
    /// Each edge's vertices between its two nodes: its label, then its waypoints.
    chains: Vec<Vec<usize>>,
}

impl Ranked {
    fn of(graph: &Graph) -> Ranked {
        let mut ranked = Ranked {
            kinds: Vec::new(),
            rank_of: Vec::new(),
            widths: Vec::new(),
            heights: Vec::new(),
            above: Vec::new(),
            below: Vec::new(),
            ranks: Vec::new(),
            node_vertex: Vec::new(),
            chains: Vec::new(),
        };
        for (n, &layer) in graph.layers.iter().enumerate() {
            let vertex = ranked.add(Kind::Node(n), 2 * layer);
            ranked.node_vertex.push(vertex);
        }
        for (e, edge) in graph.edges.iter().enumerate() {
            let from_rank = 2 * graph.layers[edge.from];
            let to_rank = 2 * graph.layers[edge.to];
            let mut chain = vec![ranked.add(Kind::Label(e), from_rank + 1)];
            for rank in from_rank + 2..to_rank {
                chain.push(ranked.add(Kind::Waypoint, rank));
            }
            let mut previous = ranked.node_vertex[edge.from];
            for &vertex in chain.iter().chain([&ranked.node_vertex[edge.to]]) {
                ranked.below[previous].push(vertex);
                ranked.above[vertex].push(previous);
                previous = vertex;
            }
            ranked.chains.push(chain);
        }
        // First order: depth first from the start, answers in their order.
        let rank_count = ranked.rank_of.iter().max().map_or(0, |&r| r + 1);
        ranked.ranks = vec![Vec::new(); rank_count];
        let mut placed = vec![false; ranked.kinds.len()];
        let mut stack: Vec<usize> = ranked.node_vertex.first().copied().into_iter().collect();
        while let Some(vertex) = stack.pop() {
            if std::mem::replace(&mut placed[vertex], true) {
                continue;
            }
            ranked.ranks[ranked.rank_of[vertex]].push(vertex);
            stack.extend(ranked.below[vertex].iter().rev().filter(|&&v| !placed[v]));
        }
        ranked
    }

    fn add(&mut self, kind: Kind, rank: usize) -> usize {
        self.kinds.push(kind);
        self.rank_of.push(rank);
        self.widths.push(0.0);
        self.heights.push(0.0);
        self.above.push(Vec::new());
        self.below.push(Vec::new());
        self.kinds.len() - 1
    }

    /// Barycentre sweeps, down then up, keeping the order with the fewest crossings.
    fn order_to_reduce_crossings(&mut self) {
        let mut best = self.ranks.clone();
        let mut fewest = self.crossings();
        for _ in 0..4 {
            for rank in 1..self.ranks.len() {
                self.sort_by_neighbours(rank, true);
            }
            for rank in (0..self.ranks.len().saturating_sub(1)).rev() {
                self.sort_by_neighbours(rank, false);
            }
            let crossings = self.crossings();
            if crossings < fewest {
                fewest = crossings;
                best = self.ranks.clone();
            }
            if fewest == 0 {
                break;
            }
        }
        self.ranks = best;
    }

    fn positions(&self) -> Vec<usize> {
        let mut positions = vec![0; self.kinds.len()];
        for rank in &self.ranks {
            for (i, &vertex) in rank.iter().enumerate() {
                positions[vertex] = i;
            }
        }
        positions
    }

    fn sort_by_neighbours(&mut self, rank: usize, by_above: bool) {
        let positions = self.positions();
        let neighbours = if by_above { &self.above } else { &self.below };
        let key = |vertex: usize| -> f64 {
            let linked = &neighbours[vertex];
            if linked.is_empty() {
                positions[vertex] as f64
            } else {
                linked.iter().map(|&v| positions[v] as f64).sum::<f64>() / linked.len() as f64
            }
        };
        crate::order::sort_by_f64(&mut self.ranks[rank], &|&v| key(v));
    }

    fn crossings(&self) -> usize {
        let positions = self.positions();
        let mut total = 0;
        for rank in &self.ranks {
            let links: Vec<(usize, usize)> = rank
                .iter()
                .flat_map(|&u| self.below[u].iter().map(move |&v| (u, v)))
                .map(|(u, v)| (positions[u], positions[v]))
                .collect();
            for (i, a) in links.iter().enumerate() {
                for b in &links[i + 1..] {
                    if (a.0 < b.0 && a.1 > b.1) || (a.0 > b.0 && a.1 < b.1) {
                        total += 1;
                    }
                }
            }
        }
        total
    }

    /// Horizontal centres: packed, then pulled towards neighbours rank by rank, ending with
    /// parents over their children.
    fn place_across(&self, gap: f64) -> Vec<f64> {
        let mut centres = vec![0.0; self.kinds.len()];
        for rank in &self.ranks {
            let mut cursor = 0.0;
            for &vertex in rank {
                centres[vertex] = cursor + self.widths[vertex] / 2.0;
                cursor += self.widths[vertex] + gap;
            }
        }
        let count = self.ranks.len();
        for towards_children in [true, false, true, false, true] {
            let ranks: Vec<usize> = if towards_children {
                (0..count.saturating_sub(1)).rev().collect()
            } else {
                (1..count).collect()
            };
            for rank in ranks {
                let vertices = &self.ranks[rank];
                let neighbours = if towards_children {
                    &self.below
                } else {
                    &self.above
                };
                let desired: Vec<f64> = vertices
                    .iter()
                    .map(|&v| {
                        let linked = &neighbours[v];
                        if linked.is_empty() {
                            centres[v]
                        } else {
                            linked.iter().map(|&u| centres[u]).sum::<f64>() / linked.len() as f64
                        }
                    })
                    .collect();
                let widths: Vec<f64> = vertices.iter().map(|&v| self.widths[v]).collect();
                for (&v, x) in vertices
                    .iter()
                    .zip(closest_in_order(&desired, &widths, gap))
                {
                    centres[v] = x;
                }
            }
        }
        centres
    }
}

/// Centres as close as possible (least squares) to `desired`, keeping the order and at least
/// `gap` between neighbouring boxes: with each centre shifted by the room the boxes before it
/// need, this is an isotonic regression, solved by pooling adjacent violators.
fn closest_in_order(desired: &[f64], widths: &[f64], gap: f64) -> Vec<f64> {
    let mut offsets = Vec::with_capacity(desired.len());
    let mut offset = 0.0;
    for (i, width) in widths.iter().enumerate() {
        if i > 0 {
            offset += (widths[i - 1] + width) / 2.0 + gap;
        }
        offsets.push(offset);
    }
    // Blocks of (sum, count) whose means never decrease.
    let mut blocks: Vec<(f64, usize)> = Vec::new();
    for (d, o) in desired.iter().zip(&offsets) {
        blocks.push((d - o, 1));
        while blocks.len() >= 2 {
            let (sum, count) = blocks[blocks.len() - 1];
            let (previous_sum, previous_count) = blocks[blocks.len() - 2];
            if previous_sum / previous_count as f64 <= sum / count as f64 {
                break;
            }
            blocks.pop();
            let last = blocks.len() - 1;
            blocks[last] = (previous_sum + sum, previous_count + count);
        }
    }
    blocks
        .iter()
        .flat_map(|&(sum, count)| std::iter::repeat_n(sum / count as f64, count))
        .zip(&offsets)
        .map(|(shifted, offset)| shifted + offset)
        .collect()
}

#[cfg(test)]
mod tests;
