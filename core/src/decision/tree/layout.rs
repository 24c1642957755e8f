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
//!
//! Each step has its own child module: `graph` (1), `ranks` (2 to 4), `place` (5), `text` (the
//! wrapping and the box sizes) and `path` (the path taken).

mod diagram;
mod graph;
mod path;
mod place;
mod ranks;
mod text;

use super::Tree;
use graph::Graph;
use place::Placement;
use ranks::Ranked;
use text::place_lines;

use diagram::round;
pub use diagram::{Diagram, DiagramEdge, DiagramNode, Point, Rect, Shape, Style, TextLine};
pub use path::{describe_path, PathTaken};
pub use text::wrap;

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
    let texts = text::node_texts(&graph, recommendation_text, style);
    let labels = text::answer_labels(&graph, style);
    let mut ranked = Ranked::of(&graph);
    text::size_boxes(&mut ranked, &texts, &labels, style);
    ranked.order_to_reduce_crossings();
    let centres = ranked.place_across(style.gap);
    let placement = Placement::new(&ranked, centres, style);

    let nodes: Vec<DiagramNode> = texts
        .iter()
        .enumerate()
        .map(|(n, (shape, lines))| {
            let frame = placement.frame_of(ranked.node_vertex[n]);
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
            let label_frame = placement.frame_of(chain[0]);
            let from = nodes[edge.from].frame;
            let to = nodes[edge.to].frame;
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
                points: placement.arrow(edge, chain, &from, &to, style.port_inset),
            }
        })
        .collect();
    Diagram {
        width: round(placement.width(style.margin)),
        height: placement.height,
        text_size: style.text_size,
        label_size: style.label_size,
        nodes,
        edges,
    }
}

#[cfg(test)]
mod tests;
