//! Flowchart blocks read from the seeds' own mermaid diagrams, and every kind of mistake.

use super::parse;
use crate::decision::tree::layout::{lay_out, Style};
use crate::decision::tree::Node;

/// Seed 001's disaggregated prefill diagram, as the blog wrote it.
const DISAGGREGATED: &str = r#"%%| fig-cap: "Disaggregated Prefill Architecture"
flowchart LR
Input[Input Tokens] --> Prefill[Prefill Workers<br/>Compute Optimized]
Prefill --> KV[KV Cache Transfer]
KV --> Decode[Decode Workers<br/>Memory Optimized]
Decode --> Output[Output Tokens]
"#;

/// Seed 001's decision matrix: labelled arrows, decisions and nodes reached twice.
const DECISION_MATRIX: &str = "flowchart TD
Start[What's your priority?] --> Cost{Cost Sensitive?}
Cost -->|Yes| Bursty{Bursty Traffic?}
Bursty -->|Yes| Modal[Modal + LMCache]
Bursty -->|No| Qwen[Qwen on Anyscale]
Cost -->|No| Throughput{Need Max Throughput?}
Throughput -->|Yes| DeepSeek[DeepSeek + Disagg Prefill]
Throughput -->|No| Tools{Need Tool Calling?}
Tools -->|Yes| Qwen
Tools -->|No| DeepSeek
";

#[test]
fn the_seeds_disaggregated_prefill_diagram() {
    let chart = parse(DISAGGREGATED, 10).unwrap();
    assert_eq!(chart.caption, "Disaggregated Prefill Architecture");
    assert_eq!(chart.tree.start, "Input");
    assert_eq!(
        chart.tree.nodes["Prefill"],
        Node::Question {
            question: "Prefill Workers\nCompute Optimized".into(),
            answers: vec![crate::decision::tree::Answer {
                label: String::new(),
                next: "KV".into()
            }],
        }
    );
    assert_eq!(
        chart.ends,
        vec![("Output".to_string(), "Output Tokens".to_string())]
    );
    // `<br/>` breaks the line in the drawing, and only there.
    let style = Style {
        line_breaks: true,
        ..Style::default()
    };
    let diagram = lay_out(&chart.tree, |id| id.to_string(), &style);
    let texts: Vec<&str> = diagram
        .node("Prefill")
        .unwrap()
        .lines
        .iter()
        .map(|l| l.text.as_str())
        .collect();
    assert_eq!(texts, ["Prefill Workers", "Compute Optimized"]);
    assert_eq!(
        chart.description,
        "Diagram: Input Tokens to Prefill Workers Compute Optimized; Prefill Workers Compute \
         Optimized to KV Cache Transfer; KV Cache Transfer to Decode Workers Memory Optimized; \
         Decode Workers Memory Optimized to Output Tokens."
    );
}

#[test]
fn the_seeds_decision_matrix_with_labels_and_shared_nodes() {
    let chart = parse(DECISION_MATRIX, 1).unwrap();
    assert_eq!(chart.tree.start, "Start");
    let Node::Question { question, answers } = &chart.tree.nodes["Cost"] else {
        panic!("{:?}", chart.tree.nodes["Cost"])
    };
    assert_eq!(question, "Cost Sensitive?");
    let labelled: Vec<(&str, &str)> = answers
        .iter()
        .map(|a| (a.label.as_str(), a.next.as_str()))
        .collect();
    assert_eq!(labelled, [("Yes", "Bursty"), ("No", "Throughput")]);
    assert_eq!(
        chart.ends,
        [
            ("Modal", "Modal + LMCache"),
            ("Qwen", "Qwen on Anyscale"),
            ("DeepSeek", "DeepSeek + Disagg Prefill")
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    // Laid out by the decision tree's engine: every node once, no two boxes overlapping.
    let diagram = lay_out(
        &chart.tree,
        |id| chart.ends.iter().find(|(e, _)| e == id).unwrap().1.clone(),
        &Style {
            line_breaks: true,
            ..Style::default()
        },
    );
    let qwen = diagram.node("Qwen").unwrap();
    assert_eq!(qwen.lines.len(), 1, "{:?}", qwen.lines);
    assert_eq!(diagram.nodes.len(), 8);
    assert_eq!(diagram.edges.len(), 9);
    for (i, a) in diagram.nodes.iter().enumerate() {
        for b in &diagram.nodes[i + 1..] {
            assert!(!a.frame.overlaps(&b.frame), "{} and {} overlap", a.id, b.id);
        }
    }
}

#[test]
fn other_arrows_quoted_text_and_labels_between_dashes() {
    let chart = parse(
        "A([\"Client\"]) -- HTTPS --> B[(Gateway)] ==> C{{Router}}\nC -.-> D((vLLM)); C --- E>SGLang]",
        1,
    )
    .unwrap();
    let Node::Question { question, answers } = &chart.tree.nodes["A"] else {
        panic!()
    };
    assert_eq!(question, "Client");
    assert_eq!(answers[0].label, "HTTPS");
    assert_eq!(chart.ends.len(), 2);
    assert_eq!(chart.ends[1], ("E".to_string(), "SGLang".to_string()));
}

#[test]
fn mistakes_name_their_line_and_what_to_write() {
    let error = |body: &str| {
        let (line, message) = parse(body, 20).unwrap_err();
        format!("{line}: {message}")
    };
    assert_eq!(
        error("A[One] --> B[Two]\nC[Three] --> B"),
        "20: flowchart block: a diagram is drawn from one starting node, but `A` and `C` have no \
         arrow into them; join them under one"
    );
    assert_eq!(
        error("S --> A\nA --> B\nB --> A"),
        "20: flowchart block: the arrows loop: A → B → A"
    );
    assert_eq!(
        error("A[One --> B"),
        "20: flowchart block: node `A`: its text opens with `[` but never closes with `]`"
    );
    assert_eq!(
        error("A --> B\nsubgraph cluster"),
        "21: flowchart block: `subgraph` is not drawn here; a flowchart block takes nodes \
         and arrows only"
    );
    assert_eq!(
        error("A[One] --> B\nA[Uno] --> C"),
        "21: flowchart block: node `A` is called `One` already; write its text once and \
         then use `A` alone"
    );
    assert_eq!(
        error("A --> B -> C"),
        "20: flowchart block: expected an arrow (`-->`, `-->|label|`, `---`, `==>` or \
         `-.->`) before `-> C`"
    );
    assert_eq!(
        error("A -->|yes B"),
        "20: flowchart block: an arrow's label opens with `|` but never closes"
    );
    assert!(error("").contains("expected nodes and arrows"));
    assert!(error("A --> B --> A").contains("no start"));
}

#[test]
fn markup_in_text_stays_text() {
    let chart = parse("A[\"<img src=x onerror=alert(1)>\"] --> B[<b>bold</b>]", 1).unwrap();
    assert_eq!(
        chart.ends[0].1, "<b>bold</b>",
        "kept as text: the app draws it as a text node"
    );
}

/// `n` nodes, each with an arrow to each of the next `reach`: a diagram of very many paths.
fn dense(n: usize, reach: usize) -> String {
    let mut text = String::from("flowchart TD\n");
    for i in 0..n {
        for j in i + 1..(i + 1 + reach).min(n) {
            text.push_str(&format!("N{i} --> N{j}\n"));
        }
    }
    text
}

#[test]
fn a_diagram_of_many_paths_is_read_and_laid_out() {
    // 30 nodes each joined to the next 10: about 10^8 paths, which the loop search once
    // followed one by one (25 such nodes took 92 s; timed now in `core/benches/inputs.rs`).
    let chart = parse(&dense(30, 10), 1).unwrap();
    let diagram = lay_out(&chart.tree, |id| id.to_string(), &Style::default());
    assert_eq!(diagram.nodes.len(), 30);
    // A loop is still found, at the end of a long chain.
    let mut looped = dense(60, 2);
    looped.push_str("N59 --> N0\n");
    let (_, error) = parse(&looped, 1).unwrap_err();
    assert!(error.contains("the arrows loop"), "{error}");
}

#[test]
fn a_diagram_over_the_limits_is_an_error_at_its_line() {
    let (line, error) = parse(&dense(400, 1), 10).unwrap_err();
    assert_eq!(line, 10 + 100, "the line of the 101st node");
    assert!(error.contains("at most 100 nodes"), "{error}");
    let (line, error) = parse(&dense(40, 39), 1).unwrap_err();
    assert!(error.contains("at most 300 arrows"), "{error}");
    assert_eq!(line, 301 + 1, "the line of the 301st arrow");
}

#[test]
fn the_largest_diagram_allowed_is_laid_out() {
    // A chain of 100 nodes and 200 more arrows from its first nodes to its last: long arrows
    // through every layer, the layout's most work within the limits.
    let mut text = dense(100, 1);
    for i in 0..200 {
        text.push_str(&format!("N{} --> N{}\n", i % 20, 99 - (i / 20)));
    }
    let chart = parse(&text, 1).unwrap();
    let diagram = lay_out(&chart.tree, |id| id.to_string(), &Style::default());
    assert_eq!(diagram.nodes.len(), 100);
}

#[test]
fn every_flowchart_that_once_stalled_is_read_and_laid_out() {
    let root = crate::fixtures::path("fuzz-regressions/flowchart");
    let mut seen = 0;
    for entry in std::fs::read_dir(&root).expect("the flowchart regressions exist") {
        let path = entry.expect("a readable file").path();
        let text = std::fs::read_to_string(&path).expect("a text file");
        // Read to an answer: a diagram laid out with every node, or an error.
        match parse(&text, 1) {
            Ok(chart) => {
                let diagram = lay_out(&chart.tree, |id| id.to_string(), &Style::default());
                assert!(!diagram.nodes.is_empty(), "{}", path.display());
            }
            Err((_, error)) => assert!(!error.is_empty(), "{}", path.display()),
        }
        seen += 1;
    }
    assert!(seen > 0);
}
