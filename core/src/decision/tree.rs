//! The guided mode: questions one at a time (a report's `decision.tree` front matter), each
//! answer leading to another question or to a recommended configuration with its reason.
//!
//! ```yaml
//! start: cost
//! nodes:
//!   cost:
//!     question: Is cost your main concern?
//!     answers:
//!       - {label: "Yes", next: modal}
//!       - {label: "No", next: throughput}
//!   modal:
//!     recommend: llama-lmcache
//!     because: "Scale to zero; TTFT p50 `=value(ttft:p50, llama-lmcache, 1)`."
//! ```
//!
//! [`Tree::check`] finds every mistake (unknown next node, unknown configuration, a cycle, a node
//! nothing leads to); [`Tree::walk`] follows a list of answer indices, as the URL stores them.
//! [`layout`] lays the tree out as a flowchart and says which nodes a walk passed through.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

pub mod layout;

/// A decision tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tree {
    /// The first node's id.
    pub start: String,
    /// Nodes by id.
    pub nodes: BTreeMap<String, Node>,
}

/// A question or a recommendation. Written as a map whose keys say which (`question` and
/// `answers`, or `recommend` and `because`); read by [`Node`]'s own `Deserialize`, so that a
/// misspelt or missing key is an error that names it (serde's `untagged` would say only "did
/// not match any variant"). Binary formats (`site::wire`) tag it instead.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// Asks, and branches on the answer.
    Question {
        /// The question.
        question: String,
        /// Its answers, in order.
        answers: Vec<Answer>,
    },
    /// The end of a path.
    Recommendation {
        /// The configuration key recommended.
        recommend: String,
        /// Why (Markdown with inline values).
        because: String,
    },
}

#[cfg(test)]
impl Node {
    /// A question with `(label, next)` answers, for tests.
    pub(crate) fn question(text: &str, answers: &[(&str, &str)]) -> Node {
        Node::Question {
            question: text.into(),
            answers: answers
                .iter()
                .map(|(label, next)| Answer {
                    label: (*label).into(),
                    next: (*next).into(),
                })
                .collect(),
        }
    }

    /// A recommendation of `config` because "`config` fits", for tests.
    pub(crate) fn recommend(config: &str) -> Node {
        Node::Recommendation {
            recommend: config.into(),
            because: format!("{config} fits"),
        }
    }
}

/// [`Node`] as binary formats carry it: tagged, as they have no keys to tell the kinds apart.
#[derive(Serialize, Deserialize)]
enum TaggedNode {
    Question {
        question: String,
        answers: Vec<Answer>,
    },
    Recommendation {
        recommend: String,
        because: String,
    },
}

impl Serialize for Node {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        if !s.is_human_readable() {
            return match self.clone() {
                Node::Question { question, answers } => {
                    TaggedNode::Question { question, answers }.serialize(s)
                }
                Node::Recommendation { recommend, because } => {
                    TaggedNode::Recommendation { recommend, because }.serialize(s)
                }
            };
        }
        let mut map = s.serialize_struct("Node", 2)?;
        match self {
            Node::Question { question, answers } => {
                map.serialize_field("question", question)?;
                map.serialize_field("answers", answers)?;
            }
            Node::Recommendation { recommend, because } => {
                map.serialize_field("recommend", recommend)?;
                map.serialize_field("because", because)?;
            }
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Node, D::Error> {
        if deserializer.is_human_readable() {
            return deserializer.deserialize_map(NodeVisitor);
        }
        Ok(match TaggedNode::deserialize(deserializer)? {
            TaggedNode::Question { question, answers } => Node::Question { question, answers },
            TaggedNode::Recommendation { recommend, because } => {
                Node::Recommendation { recommend, because }
            }
        })
    }
}

struct NodeVisitor;

const NODE_KEYS: &[&str] = &["question", "answers", "recommend", "because"];

impl<'de> serde::de::Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(
            "a question (`question` and `answers`) or a recommendation (`recommend` and `because`)",
        )
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        use serde::de::Error;
        let (mut question, mut answers, mut recommend, mut because) = (None, None, None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "question" => question = Some(map.next_value::<String>()?),
                "answers" => answers = Some(map.next_value::<Vec<Answer>>()?),
                "recommend" => recommend = Some(map.next_value::<String>()?),
                "because" => because = Some(map.next_value::<String>()?),
                other => return Err(A::Error::unknown_field(other, NODE_KEYS)),
            }
        }
        match (question, answers, recommend, because) {
            (Some(question), Some(answers), None, None) => Ok(Node::Question { question, answers }),
            (None, None, Some(recommend), Some(because)) => {
                Ok(Node::Recommendation { recommend, because })
            }
            (Some(_), None, None, None) => Err(A::Error::missing_field("answers")),
            (None, Some(_), None, None) => Err(A::Error::missing_field("question")),
            (None, None, Some(_), None) => Err(A::Error::missing_field("because")),
            (None, None, None, Some(_)) => Err(A::Error::missing_field("recommend")),
            (None, None, None, None) => Err(A::Error::custom(
                "an empty node; expected `question` and `answers`, or `recommend` and `because`",
            )),
            _ => Err(A::Error::custom(
                "a node is either a question (`question`, `answers`) or a recommendation \
                 (`recommend`, `because`), not both",
            )),
        }
    }
}

/// One answer of a question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// What the reader clicks.
    pub label: String,
    /// The node it leads to.
    pub next: String,
}

/// Where a list of answers leads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Walk {
    /// The questions asked and the answers given, in order.
    pub steps: Vec<Step>,
    /// The node reached: the next question, or a recommendation.
    pub at: String,
}

/// One answered question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The question's node id.
    pub node: String,
    /// The question.
    pub question: String,
    /// The answer chosen.
    pub answer: String,
}

/// Most nodes a question tree or a flowchart may have: its layout's work grows faster than its
/// size, and a larger diagram is not read anyway.
pub const MAX_NODES: usize = 100;

/// Most answers (arrows) a question tree or a flowchart may have in all.
pub const MAX_ANSWERS: usize = 300;

impl Tree {
    /// Every mistake in the tree; `configs` are the report's configuration keys. A tree over
    /// [`MAX_NODES`] or [`MAX_ANSWERS`] gets that one mistake, and is not checked further.
    pub fn check(&self, configs: &[String]) -> Vec<String> {
        let answers: usize = self
            .nodes
            .values()
            .map(|node| match node {
                Node::Question { answers, .. } => answers.len(),
                Node::Recommendation { .. } => 0,
            })
            .sum();
        if self.nodes.len() > MAX_NODES || answers > MAX_ANSWERS {
            return vec![format!(
                "the tree has {} nodes and {answers} answers; the limit is {MAX_NODES} nodes and \
                 {MAX_ANSWERS} answers",
                self.nodes.len()
            )];
        }
        let mut problems = Vec::new();
        if !self.nodes.contains_key(&self.start) {
            problems.push(format!("`start: {}` names no node", self.start));
            return problems;
        }
        for (id, node) in &self.nodes {
            match node {
                Node::Question { answers, .. } => {
                    if answers.is_empty() {
                        problems.push(format!("question `{id}` has no answers"));
                    }
                    for a in answers {
                        if !self.nodes.contains_key(&a.next) {
                            problems.push(format!(
                                "question `{id}`, answer `{}`: `next: {}` names no node",
                                a.label, a.next
                            ));
                        }
                    }
                }
                Node::Recommendation { recommend, .. } => {
                    if !configs.contains(recommend) {
                        problems.push(format!(
                            "`{id}` recommends `{recommend}`, which is not in this report's results; found {}",
                            configs.join(", ")
                        ));
                    }
                }
            }
        }
        // Reachability and cycles, depth first from the start.
        let mut seen = BTreeSet::new();
        let mut on_path = Vec::new();
        self.visit(&self.start, &mut seen, &mut on_path, &mut problems);
        for id in self.nodes.keys() {
            if !seen.contains(id) {
                problems.push(format!(
                    "node `{id}` cannot be reached from `{}`",
                    self.start
                ));
            }
        }
        problems
    }

    fn visit(
        &self,
        id: &str,
        seen: &mut BTreeSet<String>,
        on_path: &mut Vec<String>,
        problems: &mut Vec<String>,
    ) {
        if on_path.iter().any(|p| p == id) {
            problems.push(format!(
                "the questions loop: {} → {id}",
                on_path.join(" → ")
            ));
            return;
        }
        if !seen.insert(id.to_string()) {
            return;
        }
        on_path.push(id.to_string());
        if let Some(Node::Question { answers, .. }) = self.nodes.get(id) {
            for a in answers {
                if self.nodes.contains_key(&a.next) {
                    self.visit(&a.next, seen, on_path, problems);
                }
            }
        }
        on_path.pop();
    }

    /// Follows `answers` (indices into each question's answers) from the start.
    pub fn walk(&self, answers: &[usize]) -> Result<Walk, String> {
        let mut at = self.start.clone();
        let mut steps = Vec::new();
        for (n, &choice) in answers.iter().enumerate() {
            match self.nodes.get(&at) {
                Some(Node::Question { question, answers }) => {
                    let answer = answers.get(choice).ok_or_else(|| {
                        format!(
                            "answer {} of question {} does not exist; it has {}",
                            choice.saturating_add(1),
                            n + 1,
                            answers.len()
                        )
                    })?;
                    steps.push(Step {
                        node: at.clone(),
                        question: question.clone(),
                        answer: answer.label.clone(),
                    });
                    at = answer.next.clone();
                }
                Some(Node::Recommendation { .. }) => {
                    return Err(format!(
                        "{} answers were given, but a recommendation was reached after {n}",
                        answers.len()
                    ))
                }
                None => return Err(format!("node `{at}` does not exist")),
            }
        }
        if !self.nodes.contains_key(&at) {
            return Err(format!("node `{at}` does not exist"));
        }
        Ok(Walk { steps, at })
    }
}
