//! ```` ```flowchart ```` blocks: a diagram written in the arrow syntax of mermaid's flowcharts,
//! laid out by the same engine that draws the decision tree ([`crate::decision::tree::layout`])
//! and drawn by the app as SVG: no diagram script runs in the reader's browser.
//!
//! ````markdown
//! ```flowchart
//! %%| fig-cap: "Disaggregated prefill"
//! flowchart LR
//! Input[Input tokens] --> Prefill[Prefill workers<br/>compute optimised]
//! Prefill -->|KV cache over NIXL| Decode[Decode workers]
//! ```
//! ````
//!
//! A statement is a chain of nodes joined by arrows (`-->`, `---`, `==>`, `-.->`), each arrow
//! optionally labelled (`-->|label|` or `-- label -->`). A node is an id, with its text the first
//! time it appears: `[box]`, `(rounded)`, `([stadium])`, `{decision}` and the like, all drawn as
//! boxes; `<br/>` breaks a line. The direction line (`flowchart LR`, `graph TD`) is accepted and
//! the diagram is drawn top to bottom; Quarto's `%%| fig-cap:` gives the caption. The diagram
//! must start at one node and may not loop. Anything else (subgraphs, styles, clicks) is an
//! error at its line: the text is a report's, so it is only ever shown as text.

use std::collections::BTreeMap;

use crate::decision::tree::layout::{lay_out, Style};
use crate::decision::tree::{Answer, Node, Tree, MAX_ANSWERS, MAX_NODES};
use crate::site::Flowchart;

/// A flowchart as read: the question tree the layout engine draws (a node with arrows out of
/// it is a question whose answers are the arrows, labelled or not; the others are where paths
/// end), each end's text, the caption and the arrows in words. The page carries only what
/// [`Parsed::drawn`] keeps.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Parsed {
    /// The nodes and arrows.
    pub tree: Tree,
    /// The text of each node no arrow leaves: `(id, text)`.
    pub ends: Vec<(String, String)>,
    /// Shown under the diagram; may be empty.
    pub caption: String,
    /// Every arrow in words, the drawing's accessible name.
    pub description: String,
}

impl Parsed {
    /// The flowchart as the page shows it: laid out top to bottom, `<br/>` breaking lines.
    pub(super) fn drawn(self) -> Flowchart {
        let text_of = |id: &str| match self.ends.iter().find(|(end, _)| end == id) {
            Some((_, text)) => text.clone(),
            None => id.to_string(),
        };
        let style = Style {
            line_breaks: true,
            ..Style::default()
        };
        Flowchart {
            diagram: lay_out(&self.tree, text_of, &style),
            caption: self.caption,
            description: self.description,
        }
    }
}

/// The arrows, longest first so that `-.->` is not read as `-`.
const ARROWS: [&str; 4] = ["-.->", "-->", "==>", "---"];

/// Node text delimiters, opening and closing, longest first.
const SHAPES: [(&str, &str); 9] = [
    ("([", "])"),
    ("[(", ")]"),
    ("((", "))"),
    ("[[", "]]"),
    ("{{", "}}"),
    ("[", "]"),
    ("(", ")"),
    ("{", "}"),
    (">", "]"),
];

/// A flowchart being read: its nodes' texts and its arrows, in the order written.
#[derive(Default)]
struct Reading {
    texts: BTreeMap<String, String>,
    order: Vec<String>,
    arrows: Vec<(String, String, String)>,
    caption: String,
}

/// The flowchart of a block's `body`, whose first line is the file's line `first_line`; a
/// mistake is the line it is on (the first line for the diagram as a whole) and what is wrong.
pub(super) fn parse(body: &str, first_line: usize) -> Result<Parsed, (usize, String)> {
    let mut reading = Reading::default();
    for (i, raw) in body.lines().enumerate() {
        let line = raw.trim().trim_end_matches(';');
        let at = first_line + i;
        if let Some(caption) = line.strip_prefix("%%| fig-cap:") {
            reading.caption = caption.trim().trim_matches('"').to_string();
        } else if line.is_empty() || line.starts_with("%%") || is_direction(line) {
            continue;
        } else {
            reading
                .statement(line)
                .map_err(|e| (at, format!("flowchart block: {e}")))?;
        }
    }
    reading.into_flowchart().map_err(|e| (first_line, e))
}

/// `flowchart LR`, `graph TD` and the like.
fn is_direction(line: &str) -> bool {
    let mut words = line.split_whitespace();
    matches!(words.next(), Some("flowchart" | "graph"))
        && words
            .next()
            .is_none_or(|d| ["TD", "TB", "LR", "RL", "BT"].contains(&d))
        && words.next().is_none()
}

impl Reading {
    /// One line: a node, or nodes joined by arrows.
    fn statement(&mut self, line: &str) -> Result<(), String> {
        let mut rest = line;
        let mut previous = self.node(&mut rest)?;
        while !rest.trim().is_empty() {
            // `;` ends a chain and starts another on the same line.
            if let Some(after) = rest.trim_start().strip_prefix(';') {
                rest = after;
                previous = self.node(&mut rest)?;
                continue;
            }
            let label = arrow(&mut rest)?;
            let next = self.node(&mut rest)?;
            if self.arrows.len() >= MAX_ANSWERS {
                return Err(format!(
                    "one arrow too many: a flowchart has at most {MAX_ANSWERS} arrows"
                ));
            }
            self.arrows.push((previous, next.clone(), label));
            previous = next;
        }
        Ok(())
    }

    /// Reads a node (`id` and perhaps its text) from the start of `rest`, and returns its id.
    fn node(&mut self, rest: &mut &str) -> Result<String, String> {
        let text = rest.trim_start();
        let id_len = id_end(text);
        if id_len == 0 {
            return Err(format!(
                "expected a node such as `Prefill[Prefill workers]`, found `{}`",
                text.trim()
            ));
        }
        let id = text[..id_len].to_string();
        if [
            "subgraph",
            "end",
            "style",
            "classDef",
            "class",
            "click",
            "linkStyle",
        ]
        .contains(&id.as_str())
        {
            return Err(format!(
                "`{id}` is not drawn here; a flowchart block takes nodes and arrows only"
            ));
        }
        let after = &text[id_len..];
        let shape = SHAPES.iter().find(|(open, _)| after.starts_with(open));
        *rest = match shape {
            None => after,
            Some((open, close)) => {
                let inner = &after[open.len()..];
                let end = inner.find(close).ok_or_else(|| {
                    format!(
                        "node `{id}`: its text opens with `{open}` but never closes with `{close}`"
                    )
                })?;
                self.name(&id, &inner[..end])?;
                &inner[end + close.len()..]
            }
        };
        if !self.order.contains(&id) {
            if self.order.len() >= MAX_NODES {
                return Err(format!(
                    "node `{id}` is one too many: a flowchart has at most {MAX_NODES} nodes (its \
                     layout grows faster than its size, and a larger diagram is not read anyway)"
                ));
            }
            self.order.push(id.clone());
        }
        Ok(id)
    }

    /// Gives node `id` its text, unless it already has another.
    fn name(&mut self, id: &str, raw: &str) -> Result<(), String> {
        let text = node_text(raw);
        match self.texts.get(id) {
            Some(known) if *known != text => Err(format!(
                "node `{id}` is called `{known}` already; write its text once and then use `{id}` \
                 alone"
            )),
            _ => {
                self.texts.insert(id.to_string(), text);
                Ok(())
            }
        }
    }

    /// The diagram as a tree the layout engine draws: nodes with arrows out of them are
    /// questions whose answers are the arrows, the others are where paths end.
    fn into_flowchart(self) -> Result<Parsed, String> {
        let has_into = |id: &String| self.arrows.iter().any(|(_, to, _)| to == id);
        let starts: Vec<&String> = self.order.iter().filter(|id| !has_into(id)).collect();
        let start = match starts.as_slice() {
            [start] => (*start).clone(),
            [] if self.order.is_empty() => {
                return Err("flowchart block: expected nodes and arrows such as `A[Load balancer] --> B[vLLM]`".into())
            }
            [] => return Err("flowchart block: every node has an arrow into it, so the diagram has no start; the arrows loop".into()),
            many => {
                return Err(format!(
                    "flowchart block: a diagram is drawn from one starting node, but {} have no arrow into them; join them under one",
                    many.iter().map(|id| format!("`{id}`")).collect::<Vec<_>>().join(" and ")
                ))
            }
        };
        let text_of = |id: &str| {
            self.texts
                .get(id)
                .cloned()
                .unwrap_or_else(|| id.to_string())
        };
        let mut nodes = BTreeMap::new();
        for id in &self.order {
            let answers: Vec<Answer> = self
                .arrows
                .iter()
                .filter(|(from, _, _)| from == id)
                .map(|(_, to, label)| Answer {
                    label: label.clone(),
                    next: to.clone(),
                })
                .collect();
            let node = if answers.is_empty() {
                Node::Recommendation {
                    recommend: id.clone(),
                    because: String::new(),
                }
            } else {
                Node::Question {
                    question: text_of(id),
                    answers,
                }
            };
            nodes.insert(id.clone(), node);
        }
        let tree = Tree { start, nodes };
        if let Some(cycle) = loop_in(&tree) {
            return Err(format!("flowchart block: the arrows loop: {cycle}"));
        }
        let description = self
            .arrows
            .iter()
            .map(|(from, to, label)| {
                let via = if label.is_empty() {
                    String::new()
                } else {
                    format!(" ({label})")
                };
                format!(
                    "{} to {}{via}",
                    one_line(&text_of(from)),
                    one_line(&text_of(to))
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        Ok(Parsed {
            ends: self
                .order
                .iter()
                .filter(|id| !self.arrows.iter().any(|(from, _, _)| from == *id))
                .map(|id| (id.clone(), text_of(id)))
                .collect(),
            tree,
            caption: self.caption,
            description: format!("Diagram: {description}."),
        })
    }
}

/// Where a node's id ends: letters, digits, `_`, and `-` not starting an arrow.
fn id_end(text: &str) -> usize {
    let mut end = 0;
    for (i, c) in text.char_indices() {
        let part = c.is_alphanumeric() || c == '_' || (c == '-' && !is_arrow_at(&text[i..]));
        if !part {
            break;
        }
        end = i + c.len_utf8();
    }
    end
}

/// Whether an arrow starts here.
fn is_arrow_at(text: &str) -> bool {
    ARROWS.iter().any(|a| text.starts_with(a)) || text.starts_with("--")
}

/// Reads an arrow and its label, if any, from the start of `rest`.
fn arrow(rest: &mut &str) -> Result<String, String> {
    let text = rest.trim_start();
    // `-- label -->`: the label between two dashes and the arrow.
    if let Some(after) = text.strip_prefix("-- ") {
        let end = after
            .find("-->")
            .ok_or_else(|| format!("`-- {after}`: a labelled arrow ends with `-->`"))?;
        *rest = &after[end + 3..];
        return Ok(node_text(after[..end].trim()));
    }
    let Some(arrow) = ARROWS.iter().find(|a| text.starts_with(*a)) else {
        return Err(format!(
            "expected an arrow (`-->`, `-->|label|`, `---`, `==>` or `-.->`) before `{}`",
            text.trim()
        ));
    };
    let after = &text[arrow.len()..];
    if let Some(labelled) = after.strip_prefix('|') {
        let end = labelled
            .find('|')
            .ok_or("an arrow's label opens with `|` but never closes")?;
        *rest = &labelled[end + 1..];
        return Ok(node_text(&labelled[..end]));
    }
    *rest = after;
    Ok(String::new())
}

/// A node's or label's text as written: quotes taken off, `<br/>` a line break, nothing else of
/// HTML kept as markup (the text is drawn as text).
fn node_text(raw: &str) -> String {
    let text = raw.trim().trim_matches('"');
    ["<br/>", "<br />", "<br>"]
        .iter()
        .fold(text.to_string(), |t, br| t.replace(br, "\n"))
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Text with its line breaks as spaces, for the diagram's description.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A loop of arrows, as `a → b → a`, if there is one: depth first without recursion, each node
/// visited once, so a diagram of many paths (every node joined to every later one) costs time in
/// proportion to its arrows, not to its paths.
fn loop_in(tree: &Tree) -> Option<String> {
    /// Nodes on the current path, and those whose every path was followed.
    #[derive(Clone, Copy, PartialEq)]
    enum Seen {
        OnPath,
        Done,
    }
    let mut seen: BTreeMap<&str, Seen> = BTreeMap::new();
    for root in tree.nodes.keys() {
        if seen.contains_key(root.as_str()) {
            continue;
        }
        // The path from `root`: each node with the index of its next answer to follow.
        let mut path: Vec<(&str, usize)> = vec![(root, 0)];
        seen.insert(root, Seen::OnPath);
        while let Some(&mut (id, ref mut next)) = path.last_mut() {
            let answers = match tree.nodes.get(id) {
                Some(Node::Question { answers, .. }) => answers.as_slice(),
                _ => &[],
            };
            let Some(answer) = answers.get(*next) else {
                seen.insert(id, Seen::Done);
                path.pop();
                continue;
            };
            *next += 1;
            let to = answer.next.as_str();
            match seen.get(to) {
                Some(Seen::OnPath) => {
                    let at = path.iter().position(|(p, _)| *p == to).unwrap_or(0);
                    let mut cycle: Vec<&str> = path[at..].iter().map(|(p, _)| *p).collect();
                    cycle.push(to);
                    return Some(cycle.join(" → "));
                }
                Some(Seen::Done) => {}
                None => {
                    seen.insert(to, Seen::OnPath);
                    path.push((to, 0));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests;
