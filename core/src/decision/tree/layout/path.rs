//! The path a walk took through the tree: which nodes and answers it followed, and the same in
//! words for the drawing's accessible name.

use super::super::{Node, Tree};
use crate::format::plural;

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
