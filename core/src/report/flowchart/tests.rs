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
