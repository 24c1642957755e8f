//! The reachable part of a question tree as a numbered graph: its nodes in depth-first order,
//! the answers between them, and each node's layer (its longest path from the start).

use std::collections::BTreeMap;

use super::super::{Answer, Node, Tree};

/// The reachable part of a tree, its nodes numbered in depth-first order.
pub(super) struct Graph<'t> {
    pub(super) ids: Vec<&'t str>,
    pub(super) nodes: Vec<&'t Node>,
    /// Answers between reachable nodes, sorted by question, then answer; none loops back.
    pub(super) edges: Vec<Edge>,
    /// Each node's layer: its longest path from the start.
    pub(super) layers: Vec<usize>,
}

pub(super) struct Edge {
    pub(super) from: usize,
    pub(super) answer: usize,
    pub(super) to: usize,
}

impl<'t> Graph<'t> {
    pub(super) fn of(tree: &'t Tree) -> Graph<'t> {
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
            let answers: &[Answer] = match graph.nodes[at] {
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

    pub(super) fn answer_label(&self, edge: &Edge) -> &'t str {
        match self.nodes[edge.from] {
            Node::Question { answers, .. } => answers[edge.answer].label.as_str(),
            Node::Recommendation { .. } => "",
        }
    }
}
