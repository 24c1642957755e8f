//! The text of the flowchart: wrapping to a width with an estimated character width, the box
//! that holds wrapped text, and its lines placed in the box.

use super::super::Node;
use super::diagram::{round, Rect, Shape, Style, TextLine};
use super::graph::Graph;
use super::ranks::{Kind, Ranked};

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

impl Style {
    /// [`wrap`], keeping the text's own line breaks when [`Style::line_breaks`] says so.
    fn wrap(&self, text: &str, max_chars: usize) -> Vec<String> {
        if self.line_breaks && text.contains('\n') {
            text.lines()
                .flat_map(|line| wrap(line, max_chars))
                .collect()
        } else {
            wrap(text, max_chars)
        }
    }
}

/// Each node's shape and its text, wrapped to the width for its shape.
pub(super) fn node_texts(
    graph: &Graph,
    recommendation_text: impl Fn(&str) -> String,
    style: &Style,
) -> Vec<(Shape, Vec<String>)> {
    graph
        .nodes
        .iter()
        .map(|node| match node {
            Node::Question { question, .. } => (
                Shape::Question,
                style.wrap(
                    question,
                    chars_within(style.question_width, style.text_size, style),
                ),
            ),
            Node::Recommendation { recommend, .. } => (
                Shape::Recommendation,
                style.wrap(
                    &recommendation_text(recommend),
                    chars_within(style.recommendation_width, style.text_size, style),
                ),
            ),
        })
        .collect()
}

/// Each answer's label, wrapped.
pub(super) fn answer_labels(graph: &Graph, style: &Style) -> Vec<Vec<String>> {
    graph
        .edges
        .iter()
        .map(|edge| {
            style.wrap(
                graph.answer_label(edge),
                chars_within(style.label_width, style.label_size, style),
            )
        })
        .collect()
}

/// Sizes each vertex's box to hold its text (a node's or an answer label's); a waypoint has none.
pub(super) fn size_boxes(
    ranked: &mut Ranked,
    texts: &[(Shape, Vec<String>)],
    labels: &[Vec<String>],
    style: &Style,
) {
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
pub(super) fn place_lines(
    lines: &[String],
    frame: &Rect,
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
