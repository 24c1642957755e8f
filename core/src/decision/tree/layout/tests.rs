//! The flowchart layout: the default report's tree without overlaps, arrows from bottom to top,
//! shared nodes drawn once, wrapping, degenerate trees, the path taken, and a snapshot.

use super::super::Node;
use super::*;

fn question(text: &str, answers: &[(&str, &str)]) -> Node {
    Node::question(text, answers)
}

fn recommend(config: &str) -> Node {
    Node::recommend(config)
}

fn tree(start: &str, nodes: Vec<(&str, Node)>) -> Tree {
    Tree {
        start: start.into(),
        nodes: nodes
            .into_iter()
            .map(|(id, node)| (id.to_string(), node))
            .collect(),
    }
}

/// The question tree of `reports/production-inference-stack.md`, read from its front matter.
#[cfg(feature = "site")]
fn production_tree() -> Tree {
    let text = include_str!("../../../../../reports/production-inference-stack.md");
    let yaml = text
        .strip_prefix("---\n")
        .and_then(|rest| rest.split("\n---\n").next())
        .expect("front matter");
    let front = crate::yaml::parse(yaml, crate::yaml::Schema::Core).expect("front matter is YAML");
    serde_json::from_value(front["decision"]["tree"].clone()).expect("decision.tree is a tree")
}

/// A DAG: both branches of the first question can reach `tools`, and `fast` is reached from
/// two questions on different layers.
fn shared_tree() -> Tree {
    tree(
        "cost",
        vec![
            (
                "cost",
                question("Cost sensitive?", &[("Yes", "burst"), ("No", "tools")]),
            ),
            (
                "burst",
                question("Bursty traffic?", &[("Yes", "modal"), ("No", "tools")]),
            ),
            (
                "tools",
                question("Need tool calling?", &[("Yes", "qwen"), ("No", "fast")]),
            ),
            ("modal", recommend("llama-lmcache")),
            ("qwen", recommend("qwen-rayserve")),
            ("fast", recommend("deepseek-disagg")),
        ],
    )
}

/// Every geometric promise of a diagram: boxes inside the drawing and apart, labels on their
/// arrows' straight stretch, arrows from their question's bottom to their node's top, and arrows
/// bending only between ranks, outside every box.
fn assert_well_formed(diagram: &Diagram) {
    let mut boxes: Vec<(String, Rect)> = diagram
        .nodes
        .iter()
        .map(|n| (n.id.clone(), n.frame))
        .collect();
    boxes.extend(
        diagram
            .edges
            .iter()
            .map(|e| (format!("label {}#{}", e.from, e.answer), e.label_frame)),
    );
    for (name, frame) in &boxes {
        assert!(frame.width > 0.0 && frame.height > 0.0, "{name} is empty");
        assert!(
            frame.x >= 0.0
                && frame.y >= 0.0
                && frame.right() <= diagram.width
                && frame.bottom() <= diagram.height,
            "{name} {frame:?} is outside the {} × {} drawing",
            diagram.width,
            diagram.height
        );
    }
    for (i, (a, fa)) in boxes.iter().enumerate() {
        for (b, fb) in &boxes[i + 1..] {
            assert!(!fa.overlaps(fb), "{a} {fa:?} overlaps {b} {fb:?}");
        }
    }
    for edge in &diagram.edges {
        let name = format!("{}#{} → {}", edge.from, edge.answer, edge.to);
        let from = diagram.node(&edge.from).unwrap().frame;
        let to = diagram.node(&edge.to).unwrap().frame;
        let (first, last) = (edge.points[0], *edge.points.last().unwrap());
        assert_eq!(
            first.y,
            from.bottom(),
            "{name} starts at its question's bottom"
        );
        assert!(first.x > from.x && first.x < from.right(), "{name}");
        assert_eq!(last.y, to.y, "{name} ends at its node's top");
        assert!(last.x > to.x && last.x < to.right(), "{name}");
        assert!(
            edge.points.windows(2).all(|w| w[0].y <= w[1].y),
            "{name} only goes down: {:?}",
            edge.points
        );
        let label = edge.label_frame;
        assert!(
            edge.points
                .windows(2)
                .any(|w| (w[0].x - label.centre_x()).abs() < 0.01
                    && w[1].x == w[0].x
                    && w[0].y <= label.y
                    && w[1].y >= label.bottom()),
            "{name} runs straight through its label"
        );
        // Where the arrow bends, no box may be in the way: bends stay between ranks.
        for w in edge.points.windows(2).filter(|w| w[0].x != w[1].x) {
            let band = Rect {
                x: w[0].x.min(w[1].x),
                y: w[0].y,
                width: (w[0].x - w[1].x).abs(),
                height: w[1].y - w[0].y,
            };
            for (other, frame) in &boxes {
                assert!(!band.overlaps(frame), "{name} bends across {other}");
            }
        }
    }
}

#[cfg(feature = "site")]
#[test]
fn the_production_stack_tree_lays_out_without_overlaps() {
    let tree = production_tree();
    assert!(tree.check(&[]).iter().all(|p| p.contains("recommends")));
    let diagram = lay_out(&tree, str::to_string, &Style::default());
    assert_well_formed(&diagram);
    assert_eq!(diagram.nodes.len(), tree.nodes.len());
    let answers: usize = tree
        .nodes
        .values()
        .map(|n| match n {
            Node::Question { answers, .. } => answers.len(),
            Node::Recommendation { .. } => 0,
        })
        .sum();
    assert_eq!(diagram.edges.len(), answers);
    // Three layers: cost; traffic and need; the five recommendations, in the answers' order.
    let layer = |id: &str| diagram.node(id).unwrap().layer;
    assert_eq!((layer("cost"), layer("traffic"), layer("need")), (0, 1, 1));
    let mut bottom: Vec<&DiagramNode> = diagram.nodes.iter().filter(|n| n.layer == 2).collect();
    bottom.sort_by(|a, b| a.frame.x.total_cmp(&b.frame.x));
    let bottom: Vec<&str> = bottom.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(
        bottom,
        [
            "modal",
            "qwen-steady",
            "disagg",
            "qwen-tools",
            "disagg-default"
        ]
    );
    // A parent is centred over its children.
    let centre = |id: &str| diagram.node(id).unwrap().frame.centre_x();
    assert!((centre("cost") - (centre("traffic") + centre("need")) / 2.0).abs() < 0.5);
    // The drawing stays a sensible size for a page column.
    assert!(diagram.width < 900.0, "{} wide", diagram.width);
}

#[test]
fn a_node_shared_by_several_answers_is_drawn_once_below_all_of_them() {
    let tree = shared_tree();
    assert_eq!(
        tree.check(&["llama-lmcache", "qwen-rayserve", "deepseek-disagg"].map(String::from)),
        Vec::<String>::new()
    );
    let diagram = lay_out(&tree, str::to_string, &Style::default());
    assert_well_formed(&diagram);
    let ids: Vec<&str> = diagram.nodes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["cost", "burst", "modal", "tools", "qwen", "fast"]);
    // `tools` is reached from layer 0 and layer 1: longest path puts it on layer 2, and the
    // arrow from `cost` skips a layer through a waypoint, still entering from above.
    let tools = diagram.node("tools").unwrap();
    assert_eq!(tools.layer, 2);
    let into_tools: Vec<&DiagramEdge> = diagram.edges.iter().filter(|e| e.to == "tools").collect();
    assert_eq!(into_tools.len(), 2);
    assert_eq!(diagram.node("fast").unwrap().layer, 3);
}

#[test]
fn a_long_question_wraps_within_its_width() {
    let style = Style::default();
    let long = "When a burst of requests arrives after an idle hour, may the first answer take \
                several seconds while the servers start?";
    let tree = tree(
        "q",
        vec![
            ("q", question(long, &[("Yes", "a"), ("No", "b")])),
            ("a", recommend("modal")),
            ("b", recommend("qwen")),
        ],
    );
    let diagram = lay_out(&tree, str::to_string, &style);
    assert_well_formed(&diagram);
    let q = diagram.node("q").unwrap();
    assert!(q.lines.len() >= 4, "{:?}", q.lines);
    let max_chars = (style.question_width / (style.text_size * style.char_width)) as usize;
    for line in &q.lines {
        assert!(line.text.chars().count() <= max_chars, "{:?}", line.text);
    }
    let joined: Vec<&str> = q.lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        joined.join(" "),
        long.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    assert!(q.frame.width <= style.question_width + 2.0 * style.padding_x);
    // Baselines step down inside the box.
    assert!(q.lines.windows(2).all(|w| w[1].baseline > w[0].baseline));
    assert!(q.lines[0].baseline > q.frame.y);
    assert!(q.lines.last().unwrap().baseline < q.frame.bottom());
}

#[test]
fn wrapping_cuts_only_words_longer_than_a_line() {
    assert_eq!(wrap("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
    assert_eq!(wrap("abcdefghij xy", 4), ["abcd", "efgh", "ij", "xy"]);
    assert_eq!(wrap("  spaced\n out  ", 20), ["spaced out"]);
    assert_eq!(wrap("", 5), [""]);
    assert_eq!(wrap("éééé ü", 4), ["éééé", "ü"]);
}

#[test]
fn a_tree_of_one_recommendation_is_one_box() {
    let tree = tree("only", vec![("only", recommend("qwen-rayserve"))]);
    let diagram = lay_out(&tree, |key| format!("Use {key}"), &Style::default());
    assert_well_formed(&diagram);
    assert_eq!(diagram.nodes.len(), 1);
    assert!(diagram.edges.is_empty());
    let only = &diagram.nodes[0];
    assert_eq!(only.shape, Shape::Recommendation);
    assert_eq!(only.lines[0].text, "Use qwen-rayserve");
    assert_eq!(diagram.width, only.frame.width + 8.0);
    assert_eq!(diagram.height, only.frame.height + 8.0);
}

#[test]
fn broken_trees_lay_out_what_can_be_reached_without_looping() {
    // A cycle, an answer naming no node, and a node nothing leads to.
    let looping = tree(
        "a",
        vec![
            ("a", question("A?", &[("on", "b"), ("lost", "nowhere")])),
            ("b", question("B?", &[("back", "a"), ("end", "r")])),
            ("r", recommend("x")),
            ("orphan", recommend("y")),
        ],
    );
    let diagram = lay_out(&looping, str::to_string, &Style::default());
    assert_well_formed(&diagram);
    let ids: Vec<&str> = diagram.nodes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["a", "b", "r"]);
    let edges: Vec<(&str, usize)> = diagram
        .edges
        .iter()
        .map(|e| (e.from.as_str(), e.answer))
        .collect();
    assert_eq!(edges, [("a", 0), ("b", 1)]);
    let no_start = tree("missing", vec![("r", recommend("x"))]);
    let empty = lay_out(&no_start, str::to_string, &Style::default());
    assert!(empty.nodes.is_empty() && empty.edges.is_empty());
    assert!(empty.width > 0.0 && empty.height > 0.0);
}

#[test]
fn crossings_are_undone_by_reordering() {
    // Depth first, `s` is met first under A, but three answers lead to it and only one of them
    // is A's: the barycentre order moves it right and A's answers swap, so nothing crosses.
    let tree = tree(
        "q",
        vec![
            ("q", question("Q?", &[("a", "A"), ("b", "B")])),
            ("A", question("A?", &[("p", "s"), ("p2", "t")])),
            ("B", question("B?", &[("r", "s"), ("r2", "s")])),
            ("s", recommend("shared")),
            ("t", recommend("alone")),
        ],
    );
    let diagram = lay_out(&tree, str::to_string, &Style::default());
    assert_well_formed(&diagram);
    let x = |id: &str| diagram.node(id).unwrap().frame.centre_x();
    assert!(x("A") < x("B"));
    assert!(x("t") < x("s"));
    let label_x = |from: &str, answer: usize| {
        diagram
            .edges
            .iter()
            .find(|e| e.from == from && e.answer == answer)
            .unwrap()
            .label_frame
            .x
    };
    assert!(label_x("A", 1) < label_x("A", 0));
}

#[test]
fn the_path_taken_names_its_nodes_and_answers() {
    let tree = shared_tree();
    let path = PathTaken::follow(&tree, &[1, 0]).unwrap();
    assert_eq!(path.nodes(), ["cost", "tools", "qwen"]);
    assert_eq!(path.current(), "qwen");
    assert!(path.has_node("tools") && !path.has_node("burst"));
    assert!(path.has_edge("cost", 1) && path.has_edge("tools", 0));
    assert!(!path.has_edge("cost", 0) && !path.has_edge("qwen", 0));
    assert_eq!(path.answers_before("tools"), Some(1));
    assert_eq!(path.answers_before("fast"), None);
    let start = PathTaken::follow(&tree, &[]).unwrap();
    assert_eq!(start.current(), "cost");
    assert!(!start.has_edge("cost", 0));
    assert!(PathTaken::follow(&tree, &[5]).is_err());
}

#[test]
fn the_path_is_described_in_words() {
    let tree = shared_tree();
    let label = |key: &str| format!("the {key} setup");
    let start = PathTaken::follow(&tree, &[]).unwrap();
    assert_eq!(
        describe_path(&tree, &start, label),
        "Flowchart of 3 questions leading to 3 recommendations. No answer given yet. \
         Now asking: Cost sensitive?"
    );
    let middle = PathTaken::follow(&tree, &[0]).unwrap();
    assert_eq!(
        describe_path(&tree, &middle, label),
        "Flowchart of 3 questions leading to 3 recommendations. Path taken: Cost sensitive? \
         Yes. Now asking: Bursty traffic?"
    );
    let end = PathTaken::follow(&tree, &[0, 1, 1]).unwrap();
    assert_eq!(
        describe_path(&tree, &end, label),
        "Flowchart of 3 questions leading to 3 recommendations. Path taken: Cost sensitive? \
         Yes. Bursty traffic? No. Need tool calling? No. Recommendation reached: the \
         deepseek-disagg setup."
    );
}

#[test]
fn edges_are_drawn_as_svg_paths_with_arrowheads() {
    let edge = DiagramEdge {
        from: "a".into(),
        answer: 0,
        to: "b".into(),
        label_frame: Rect {
            x: 0.0,
            y: 40.0,
            width: 20.0,
            height: 10.0,
        },
        label: Vec::new(),
        points: vec![
            Point { x: 10.0, y: 30.0 },
            Point { x: 10.0, y: 60.0 },
            Point { x: 50.0, y: 80.0 },
        ],
    };
    assert_eq!(edge.svg_path(), "M10 30 L10 60 C10 70 50 70 50 80");
    assert_eq!(edge.arrowhead(), "M50 80 L45.5 72 L54.5 72 Z");
}

/// The diagram as text, one line per box or arrow, for the snapshot.
fn describe(diagram: &Diagram) -> String {
    let frame = |f: &Rect| format!("{}×{} at ({}, {})", f.width, f.height, f.x, f.y);
    let mut text = format!("diagram {}×{}\n", diagram.width, diagram.height);
    for node in &diagram.nodes {
        text.push_str(&format!(
            "{:?} {} (layer {}) {}\n",
            node.shape,
            node.id,
            node.layer,
            frame(&node.frame)
        ));
        for line in &node.lines {
            text.push_str(&format!(
                "    {:?} at ({}, {})\n",
                line.text, line.x, line.baseline
            ));
        }
    }
    for edge in &diagram.edges {
        let label: Vec<&str> = edge.label.iter().map(|l| l.text.as_str()).collect();
        text.push_str(&format!(
            "{}#{} {:?} → {}: label {}\n    {}\n",
            edge.from,
            edge.answer,
            label.join(" / "),
            edge.to,
            frame(&edge.label_frame),
            edge.svg_path()
        ));
    }
    text
}

#[test]
fn a_small_tree_lays_out_as_recorded() {
    let diagram = lay_out(
        &shared_tree(),
        |key| format!("Run {key}"),
        &Style::default(),
    );
    insta::assert_snapshot!(describe(&diagram));
}
