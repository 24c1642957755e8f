//! The `decision:` front matter, on the default site's production-stack report and its data.

use super::*;
use crate::decision::{decide, Question};

pub(super) fn production() -> ReportPage {
    let root = format!("{}/..", env!("CARGO_MANIFEST_DIR"));
    let dir = format!("{root}/results/production-stack");
    let mut results = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = format!(
            "production-stack/{}",
            path.file_name().unwrap().to_string_lossy()
        );
        results.push(import(&name, &std::fs::read(&path).unwrap()));
    }
    let text =
        std::fs::read_to_string(format!("{root}/reports/production-inference-stack.md")).unwrap();
    build_report(
        "reports/production-inference-stack.md",
        "production-inference-stack",
        &text,
        &results,
        &Palette::new(),
    )
}

#[test]
fn the_seed_answers_give_the_seed_recommendations() {
    let page = production();
    assert_eq!(page_errors(&page), Vec::<String>::new());
    let decision = page.decision.expect("the report defines a decision");
    let tree = decision.tree.as_ref().unwrap();
    // The blog's decision matrix, row by row: answers as indices, the configuration it names.
    for (answers, expected) in [
        (&[0, 0][..], "llama-lmcache"), // cost-sensitive, bursty: Modal + LMCache
        (&[0, 1][..], "qwen-rayserve"), // cost-sensitive, steady: Qwen on Anyscale
        (&[1, 0][..], "deepseek-disagg"), // maximum throughput: DeepSeek disaggregated
        (&[1, 1][..], "qwen-rayserve"), // tool calling: Qwen on Anyscale
        (&[1, 2][..], "deepseek-disagg"), // neither: DeepSeek disaggregated
    ] {
        let walk = tree.walk(answers).unwrap();
        let crate::decision::tree::Node::Recommendation { recommend, .. } = &tree.nodes[&walk.at]
        else {
            panic!("{answers:?} ends at a question");
        };
        assert_eq!(recommend, expected, "{answers:?}");
        assert!(decision.reasons[&walk.at].html.contains("class=\"value\""));
    }
}

#[test]
fn the_default_slas_reject_the_baseline_and_the_weights_decide_between_the_rest() {
    let decision = production().decision.unwrap();
    let mut question = Question {
        load: decision.load,
        constraints: decision.constraints.clone(),
        required: Vec::new(),
        criteria: decision.criteria.clone(),
    };
    // At 5 req/s with every criterion weighted 1, Qwen (TTFT p50, tool calling) and DeepSeek
    // disaggregated (TTFT p99, max stable load) tie, and the verdict says so.
    let d = decide(&decision.candidates, &question);
    let ranked: Vec<&str> = d.ranked.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(ranked, ["qwen-rayserve", "deepseek-disagg"], "{d:#?}");
    assert!(d.verdict.contains("tie"), "{}", d.verdict);
    assert!(
        !d.verdict.contains("vouch"),
        "a tie has no winner to qualify: {}",
        d.verdict
    );
    assert_eq!(
        d.rejected[0].reasons,
        [
            "Success rate is 78% at load 5, below the minimum of 99%",
            "TTFT p99 is 54,889 ms at load 5, above the limit of 2,000 ms"
        ]
    );
    // No extrapolation: LLaMA was only run at 1 req/s.
    assert!(d.rejected.iter().any(|r| r.key == "llama-lmcache"
        && r.reasons[0].contains("measured from load 1 to 1, not at 5 (no extrapolation)")));
    // Caring twice as much about sustained load picks disaggregation; about tools, Qwen.
    let weight = |q: &mut Question, name: &str, w: f64| {
        q.criteria
            .iter_mut()
            .find(|c| c.kind.name() == name)
            .unwrap()
            .weight = w;
    };
    weight(&mut question, "Max stable load", 2.0);
    let d = decide(&decision.candidates, &question);
    assert_eq!(d.ranked[0].key, "deepseek-disagg");
    let range = d
        .sensitivity
        .iter()
        .find(|r| r.criterion == "Max stable load")
        .unwrap();
    // Back at weight 1 it is a tie again: the range starts there.
    assert!(
        (range.min - 1.0).abs() < 1e-9 && range.max.is_none(),
        "{range:?}"
    );
    weight(&mut question, "Max stable load", 1.0);
    weight(&mut question, "tool calling", 2.0);
    assert_eq!(
        decide(&decision.candidates, &question).ranked[0].key,
        "qwen-rayserve"
    );
}

#[test]
fn mistakes_in_the_decision_block_are_errors_at_its_line() {
    let results = vec![import(
        "sweep.csv",
        b"# benchdeck: load=rate:qps, config=engine, ttft.p50=t (ms)\nqps,engine,t\n1,vllm,40\n2,vllm,50\n",
    )];
    let text = "---\ntitle: T\nresults: [sweep.csv]\ndecision:\n  criteria: [speed]\n  slas: [{metric: ttft:p99}]\n  attributes: {trt: {fast: true}}\n  tree:\n    start: a\n    nodes:\n      a: {recommend: sglang, because: \"`=value(ttft:p50, vllm, 9)`\"}\n---\nBody.\n";
    let page = build_report("reports/r.md", "r", text, &results, &Palette::new());
    let messages: Vec<String> = page.problems.iter().map(|p| p.to_string()).collect();
    assert!(page.decision.is_none());
    for expected in [
        "reports/r.md:4: error: decision `tree`, `a`: inline value `=value(ttft:p50, vllm, 9)`: `vllm` has no run at load 9",
        "reports/r.md:4: error: decision `attributes`: configuration `trt` is not in this report's results; found vllm",
        "reports/r.md:4: error: decision `slas`, `ttft:p99`: expected exactly one of `max` or `min`",
        "reports/r.md:4: error: decision `criteria`: `speed` is neither a metric",
        "reports/r.md:4: error: decision `tree`: `a` recommends `sglang`, which is not in this report's results; found vllm",
    ] {
        assert!(
            messages.iter().any(|m| m.starts_with(expected)),
            "missing {expected} in {messages:#?}"
        );
    }
}

#[test]
fn offline_batch_runs_get_no_implicit_wizard_but_a_load_sweep_does() {
    let batch = "# benchdeck: load=batch:batch, config=label, e2e.p95=p95 (s)\n\
                 batch,label,p95\n1,a,0.5\n16,a,2.5\n1,b,0.4\n16,b,2.0\n";
    let rate = batch.replace("load=batch:batch", "load=rate:batch");
    let page = |csv: &str| {
        let results = [import("w/runs.csv", csv.as_bytes())];
        build_report(
            "reports/w.md",
            "w",
            "---\ntitle: W\nresults: [\"w/*\"]\n---\n\nText.\n",
            &results,
            &Palette::new(),
        )
    };
    assert!(
        page(batch).decision.is_none(),
        "no sweep to check SLAs along"
    );
    assert!(
        page(&rate).decision.is_some(),
        "two setups over a rate sweep"
    );
}
