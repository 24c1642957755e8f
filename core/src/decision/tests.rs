//! The decision engine on hand-made candidates (interpolation, SLAs, scores, weight ranges,
//! ties) and the question tree (walks and every kind of mistake).

use super::tree::{Answer, Node, Tree};
use super::*;
use crate::model::{Metric, Stat};
use std::collections::BTreeMap;

const TTFT_P90: Quantity = Quantity::Latency {
    metric: Metric::Ttft,
    stat: Stat::P(90.0),
};

/// A candidate from `(load, ttft p90, output tok/s, success %)` rows.
fn candidate(key: &str, rows: &[(f64, f64, f64, f64)]) -> Candidate {
    Candidate {
        key: key.into(),
        label: key.to_uppercase(),
        attributes: BTreeMap::new(),
        points: rows
            .iter()
            .map(|&(load, ttft, tput, ok)| LoadValues {
                load,
                values: vec![
                    (TTFT_P90, ttft),
                    (Quantity::OutputThroughput, tput),
                    (Quantity::SuccessRate, ok),
                ],
                intervals: Vec::new(),
            })
            .collect(),
    }
}

fn a() -> Candidate {
    candidate(
        "a",
        &[
            (1.0, 200.0, 100.0, 100.0),
            (5.0, 400.0, 400.0, 100.0),
            (10.0, 1200.0, 600.0, 95.0),
        ],
    )
}

fn b() -> Candidate {
    candidate(
        "b",
        &[(1.0, 300.0, 80.0, 100.0), (10.0, 800.0, 700.0, 100.0)],
    )
}

fn slas() -> Vec<Constraint> {
    vec![
        Constraint {
            quantity: TTFT_P90,
            bound: Bound::AtMost(1000.0),
        },
        Constraint {
            quantity: Quantity::SuccessRate,
            bound: Bound::AtLeast(99.0),
        },
    ]
}

fn question(load: f64, weights: &[(CriterionKind, f64)]) -> Question {
    Question {
        load,
        constraints: slas(),
        required: Vec::new(),
        criteria: weights
            .iter()
            .map(|(kind, weight)| Criterion {
                kind: kind.clone(),
                weight: *weight,
            })
            .collect(),
    }
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-6, "{a} != {b}");
}

#[test]
fn values_between_load_points_are_interpolated_and_never_extrapolated() {
    let b = b();
    close(b.value_at(TTFT_P90, 1.0).unwrap(), 300.0);
    close(b.value_at(TTFT_P90, 5.5).unwrap(), 550.0);
    assert_eq!(
        b.value_at(TTFT_P90, 20.0).unwrap_err(),
        "B has TTFT p90 measured from load 1 to 10, not at 20 (no extrapolation)"
    );
    assert_eq!(
        b.value_at(Quantity::Goodput, 5.0).unwrap_err(),
        "B does not report Goodput"
    );
    assert_eq!(a().max_stable_load(&slas()), Some(5.0));
    assert_eq!(b.max_stable_load(&slas()), Some(10.0));
}

#[test]
fn candidates_breaking_an_sla_are_rejected_with_the_reason_and_never_ranked() {
    let slow = candidate(
        "slow",
        &[(1.0, 900.0, 90.0, 100.0), (10.0, 2500.0, 650.0, 100.0)],
    );
    let short = candidate(
        "short",
        &[(1.0, 100.0, 50.0, 100.0), (2.0, 150.0, 90.0, 100.0)],
    );
    let d = decide(
        &[a(), b(), slow, short],
        &question(
            8.0,
            &[(CriterionKind::Measured(Quantity::OutputThroughput), 1.0)],
        ),
    );
    let ranked: Vec<&str> = d.ranked.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(ranked, ["b"]);
    let rejected: Vec<&str> = d.rejected.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(rejected, ["a", "slow", "short"]);
    // A's success rate at 8 is interpolated between 100% at 5 and 95% at 10.
    assert_eq!(
        d.rejected[0].reasons,
        ["Success rate is 97% at load 8 (interpolated between loads 5 and 10), below the minimum of 99%"]
    );
    assert_eq!(
        d.rejected[1].reasons,
        ["TTFT p90 is 2,144 ms at load 8 (interpolated between loads 1 and 10), above the limit of 1,000 ms"]
    );
    assert_eq!(
        d.rejected[2].reasons,
        [
            "cannot be checked: SHORT has TTFT p90 measured from load 1 to 2, not at 8 (no extrapolation)",
            "cannot be checked: SHORT has Success rate measured from load 1 to 2, not at 8 (no extrapolation)"
        ]
    );
    assert_eq!(
        d.verdict,
        "B is the only configuration that meets every requirement."
    );
}

#[test]
fn scores_weights_and_how_far_each_weight_can_move() {
    // At load 5: A 400 ms and 400 tok/s; B 300 ms (flat) and 355.6 tok/s.
    let b = candidate(
        "b",
        &[(1.0, 300.0, 80.0, 100.0), (10.0, 300.0, 700.0, 100.0)],
    );
    let q = question(
        5.0,
        &[
            (CriterionKind::Measured(Quantity::OutputThroughput), 2.0),
            (CriterionKind::Measured(TTFT_P90), 1.0),
        ],
    );
    let d = decide(&[a(), b], &q);
    assert_eq!(d.ranked[0].key, "a");
    close(d.ranked[0].score, 2.0 / 3.0);
    close(d.ranked[1].score, 1.0 / 3.0);
    assert_eq!(d.ranked[1].scores[0].shown, "355.6 tok/s");
    assert_eq!(
        d.verdict,
        "A ranks first (0.67 against 0.33 for B), best on Output throughput. The noise of some \
         of these measurements is unknown (no per-request values or repeats), so A's lead over \
         B may not hold."
    );
    // Throughput's weight may fall to 1 (a tie) and grow freely; TTFT's may grow to 2.
    assert_eq!(d.sensitivity.len(), 2);
    close(d.sensitivity[0].min, 1.0);
    assert_eq!(d.sensitivity[0].max, None);
    close(d.sensitivity[1].min, 0.0);
    close(d.sensitivity[1].max.unwrap(), 2.0);
    // Moving TTFT's weight past 2 changes the winner, as the range says.
    let mut q = q;
    q.criteria[1].weight = 2.5;
    assert_eq!(
        decide(
            &[
                a(),
                candidate(
                    "b",
                    &[(1.0, 300.0, 80.0, 100.0), (10.0, 300.0, 700.0, 100.0)]
                )
            ],
            &q
        )
        .ranked[0]
            .key,
        "b"
    );
}

#[test]
fn ties_required_attributes_and_empty_results_are_explained() {
    let twin = Candidate {
        key: "twin".into(),
        label: "TWIN".into(),
        ..a()
    };
    let d = decide(
        &[a(), twin],
        &question(5.0, &[(CriterionKind::MaxStableLoad, 1.0)]),
    );
    assert!(
        d.verdict.starts_with("A and TWIN tie at a score of 1.00"),
        "{}",
        d.verdict
    );
    assert!(d.sensitivity.is_empty());

    let mut tools = b();
    tools
        .attributes
        .insert("tool_calling".into(), Attribute::Flag(true));
    let d = decide(
        &[a(), tools],
        &Question {
            required: vec!["tool_calling".into()],
            ..question(
                5.0,
                &[(CriterionKind::Attribute("tool_calling".into()), 1.0)],
            )
        },
    );
    assert_eq!(d.ranked.len(), 1);
    assert_eq!(d.rejected[0].reasons, ["does not have tool calling"]);

    let strict = Question {
        constraints: vec![Constraint {
            quantity: TTFT_P90,
            bound: Bound::AtMost(10.0),
        }],
        ..question(5.0, &[])
    };
    let d = decide(&[a()], &strict);
    assert!(d.ranked.is_empty());
    assert_eq!(
        d.verdict,
        "No configuration meets every requirement: A TTFT p90 is 400 ms at load 5, above the limit of 10 ms."
    );
    assert_eq!(
        decide(&[], &strict).verdict,
        "There is no configuration to choose from."
    );
}

fn seedlike_tree() -> Tree {
    let (q, r) = (Node::question, Node::recommend);
    Tree {
        start: "cost".into(),
        nodes: [
            (
                "cost".to_string(),
                q("Cost sensitive?", &[("Yes", "modal"), ("No", "burst")]),
            ),
            (
                "burst".to_string(),
                q("Bursty traffic?", &[("Yes", "modal"), ("No", "tput")]),
            ),
            (
                "tput".to_string(),
                q("Need max throughput?", &[("Yes", "disagg"), ("No", "qwen")]),
            ),
            ("modal".to_string(), r("llama-lmcache")),
            ("disagg".to_string(), r("deepseek-disagg")),
            ("qwen".to_string(), r("qwen-rayserve")),
        ]
        .into_iter()
        .collect(),
    }
}

#[test]
fn a_tree_walks_its_answers_to_a_recommendation() {
    let tree = seedlike_tree();
    let configs: Vec<String> = ["llama-lmcache", "deepseek-disagg", "qwen-rayserve"]
        .map(String::from)
        .to_vec();
    assert_eq!(tree.check(&configs), Vec::<String>::new());
    let walk = tree.walk(&[1, 1, 0]).unwrap();
    assert_eq!(walk.at, "disagg");
    let answers: Vec<&str> = walk.steps.iter().map(|s| s.answer.as_str()).collect();
    assert_eq!(answers, ["No", "No", "Yes"]);
    assert_eq!(tree.walk(&[0]).unwrap().at, "modal");
    assert_eq!(tree.walk(&[]).unwrap().at, "cost");
    assert_eq!(
        tree.walk(&[2]).unwrap_err(),
        "answer 3 of question 1 does not exist; it has 2"
    );
    assert_eq!(
        tree.walk(&[0, 0]).unwrap_err(),
        "2 answers were given, but a recommendation was reached after 1"
    );
}

#[test]
fn tree_mistakes_are_all_reported() {
    let mut tree = seedlike_tree();
    tree.nodes.insert(
        "tput".into(),
        Node::Question {
            question: "Need max throughput?".into(),
            answers: vec![
                Answer {
                    label: "Yes".into(),
                    next: "nowhere".into(),
                },
                Answer {
                    label: "Again".into(),
                    next: "cost".into(),
                },
            ],
        },
    );
    let problems = tree.check(&["llama-lmcache".to_string()]);
    assert_eq!(
        problems,
        [
            "`disagg` recommends `deepseek-disagg`, which is not in this report's results; found llama-lmcache",
            "`qwen` recommends `qwen-rayserve`, which is not in this report's results; found llama-lmcache",
            "question `tput`, answer `Yes`: `next: nowhere` names no node",
            "the questions loop: cost → burst → tput → cost",
            "node `disagg` cannot be reached from `cost`",
            "node `qwen` cannot be reached from `cost`",
        ]
    );
}

#[test]
fn a_load_point_without_the_value_is_not_interpolated_across() {
    let mut c = a();
    // Every request failed at 5: no TTFT there.
    c.points[1].values.retain(|(q, _)| *q != TTFT_P90);
    assert_eq!(
        c.value_at(TTFT_P90, 4.0).unwrap_err(),
        "A has no TTFT p90 at load 5 (next to 4), so it cannot be interpolated"
    );
    close(c.value_at(TTFT_P90, 1.0).unwrap(), 200.0);
    close(c.value_at(TTFT_P90, 10.0).unwrap(), 1200.0);
}

#[test]
fn tree_nodes_read_from_json_and_name_what_is_wrong() {
    let read = |json: &str| serde_json::from_str::<Node>(json).map_err(|e| e.to_string());
    assert_eq!(
        read(r#"{"question": "Cost?", "answers": [{"label": "Yes", "next": "a"}]}"#),
        Ok(Node::Question {
            question: "Cost?".into(),
            answers: vec![Answer {
                label: "Yes".into(),
                next: "a".into()
            }]
        })
    );
    assert_eq!(
        read(r#"{"recommend": "vllm", "because": "Fast."}"#),
        Ok(Node::Recommendation {
            recommend: "vllm".into(),
            because: "Fast.".into()
        })
    );
    let typo = read(r#"{"question": "Cost?", "answres": []}"#).unwrap_err();
    assert!(
        typo.contains("unknown field `answres`") && typo.contains("`answers`"),
        "{typo}"
    );
    let missing = read(r#"{"recommend": "vllm"}"#).unwrap_err();
    assert!(missing.contains("missing field `because`"), "{missing}");
    let both = read(r#"{"question": "Q", "answers": [], "recommend": "x", "because": "y"}"#);
    assert!(both.unwrap_err().contains("not both"));
    assert!(read("{}").unwrap_err().contains("empty node"));
    // What is written reads back.
    let node = read(r#"{"recommend": "vllm", "because": "Fast."}"#).unwrap();
    assert_eq!(read(&serde_json::to_string(&node).unwrap()), Ok(node));
}

#[test]
fn failed_requests_count_as_misses_of_a_percentile_target() {
    // A's success rate falls to 95% at 10: a p90 target allows 10% failures, a p99 one 1%.
    let p99 = Quantity::Latency {
        metric: Metric::Ttft,
        stat: Stat::P(99.0),
    };
    assert_eq!(allowed_failures(TTFT_P90), Some(0.1));
    assert_eq!(allowed_failures(Quantity::OutputThroughput), None);
    assert_eq!(too_many_failures(TTFT_P90, 95.0), None);
    assert_eq!(
        too_many_failures(p99, 95.0).unwrap(),
        "5% of the requests failed: a TTFT p99 target counts them as misses and allows 1%"
    );
    let mut c = a();
    c.points[2].values.push((p99, 1200.0));
    c.points[1].values.push((p99, 400.0));
    c.points[0].values.push((p99, 200.0));
    let loose = |q| Constraint {
        quantity: q,
        bound: Bound::AtMost(5000.0),
    };
    // Every latency is far under the limit, yet at 10 the p99 target is missed by failures.
    assert_eq!(c.max_stable_load(&[loose(TTFT_P90)]), Some(10.0));
    assert_eq!(c.max_stable_load(&[loose(p99)]), Some(5.0));
    let question = Question {
        load: 10.0,
        constraints: vec![loose(p99)],
        required: Vec::new(),
        criteria: Vec::new(),
    };
    assert_eq!(
        rejections(&c, &question),
        ["at load 10, 5% of the requests failed: a TTFT p99 target counts them as misses and allows 1%"]
    );
}

/// `c` with a ±`spread` interval around every value.
fn with_intervals(mut c: Candidate, spread: f64) -> Candidate {
    for p in &mut c.points {
        p.intervals = p
            .values
            .iter()
            // A success rate's interval is Wilson's, never past 100%: left out here.
            .filter(|(q, _)| *q != Quantity::SuccessRate)
            .map(|&(q, v)| (q, v * (1.0 - spread), v * (1.0 + spread)))
            .collect();
    }
    c
}

#[test]
fn a_lead_within_the_noise_is_said_and_the_runner_up_named() {
    // At load 5: A 400 tok/s against B 380 (interpolated): 5% apart with ±10% intervals.
    let b = candidate(
        "b",
        &[(1.0, 300.0, 100.0, 100.0), (10.0, 300.0, 660.0, 100.0)],
    );
    let q = question(
        5.0,
        &[(CriterionKind::Measured(Quantity::OutputThroughput), 1.0)],
    );
    let d = decide(
        &[with_intervals(a(), 0.1), with_intervals(b.clone(), 0.1)],
        &q,
    );
    assert_eq!(d.ranked[0].key, "a");
    assert!(
        d.verdict.ends_with(
            "Its lead is within the noise: with every criterion on which A and B are not \
             clearly apart (the 95% interval of the difference includes none) counted as a tie, \
             A no longer leads, so treat the two as tied."
        ),
        "{}",
        d.verdict
    );
    // With ±1% intervals the 5% lead is clear, and the verdict says nothing more.
    let d = decide(&[with_intervals(a(), 0.01), with_intervals(b, 0.01)], &q);
    assert_eq!(
        d.verdict,
        "A ranks first (1.00 against 0.00 for B), best on Output throughput."
    );
}

#[test]
fn a_tree_over_the_limits_gets_one_problem_naming_them() {
    use crate::decision::tree::{Answer, Node, Tree, MAX_NODES};
    let mut nodes = std::collections::BTreeMap::new();
    for i in 0..=MAX_NODES {
        let node = if i == MAX_NODES {
            Node::Recommendation {
                recommend: "vllm".into(),
                because: String::new(),
            }
        } else {
            Node::Question {
                question: format!("Q{i}?"),
                answers: vec![Answer {
                    label: "next".into(),
                    next: format!("n{}", i + 1),
                }],
            }
        };
        nodes.insert(format!("n{i}"), node);
    }
    let tree = Tree {
        start: "n0".into(),
        nodes,
    };
    assert_eq!(
        tree.check(&["vllm".to_string()]),
        ["the tree has 101 nodes and 100 answers; the limit is 100 nodes and 300 answers"]
    );
}

/// A candidate with one TTFT p90 of `ttft` at load 4 known to `lo`–`hi`, and `tput` tok/s.
fn measured(key: &str, ttft: f64, (lo, hi): (f64, f64), tput: f64) -> Candidate {
    let mut c = candidate(key, &[(4.0, ttft, tput, 100.0)]);
    c.points[0].intervals = vec![
        (TTFT_P90, lo, hi),
        (Quantity::OutputThroughput, tput * 0.99, tput * 1.01),
    ];
    c
}

#[test]
fn a_limit_met_only_within_the_noise_is_said_with_the_verdict() {
    // 495 ms against at most 500, known to 397–540: met by its value, which the data cannot
    // vouch for. 505 ms known to 470–540 is above the limit, within its noise.
    let question = Question {
        load: 4.0,
        constraints: vec![Constraint {
            quantity: TTFT_P90,
            bound: Bound::AtMost(500.0),
        }],
        required: Vec::new(),
        criteria: vec![Criterion {
            kind: CriterionKind::Measured(Quantity::OutputThroughput),
            weight: 1.0,
        }],
    };
    let close = measured("a", 495.0, (397.0, 540.0), 100.0);
    let over = measured("b", 505.0, (470.0, 540.0), 200.0);
    assert_eq!(
        rejections(&over, &question),
        [
            "TTFT p90 is 505 ms at load 4, above the limit of 500 ms (but within its noise: 95% \
          CI 470–540 ms)"
        ]
    );
    let d = decide(&[close, over], &question);
    assert_eq!(d.ranked[0].key, "a");
    assert!(
        d.verdict.ends_with(
            "A meets a limit by its value but not by its 95% interval, so the data cannot vouch \
             for it: TTFT p90 (495 ms, 95% CI 397–540 ms) against 500 ms."
        ),
        "{}",
        d.verdict
    );
    // Met by the whole interval: nothing to add.
    let clear = measured("c", 450.0, (420.0, 480.0), 100.0);
    let d = decide(&[clear], &question);
    assert!(!d.verdict.contains("vouch"), "{}", d.verdict);
}

#[test]
fn a_load_with_failures_is_stable_only_where_a_percentile_target_allows_them() {
    let c = candidate(
        "a",
        &[(2.0, 100.0, 100.0, 100.0), (8.0, 150.0, 300.0, 60.0)],
    );
    assert_eq!(c.max_stable_load(&[]), Some(2.0));
    // A throughput target leaves no room for failures either; a median target leaves half.
    let at_least = |quantity, limit| Constraint {
        quantity,
        bound: Bound::AtLeast(limit),
    };
    assert_eq!(
        c.max_stable_load(&[at_least(Quantity::OutputThroughput, 10.0)]),
        Some(2.0)
    );
    let median = Quantity::Latency {
        metric: Metric::Ttft,
        stat: Stat::Median,
    };
    let mut with_median = c.clone();
    for p in &mut with_median.points {
        p.values.push((median, 100.0));
    }
    let at_most = Constraint {
        quantity: median,
        bound: Bound::AtMost(500.0),
    };
    assert_eq!(with_median.max_stable_load(&[at_most]), Some(8.0));
}

#[test]
fn an_interval_that_misses_its_value_is_widened_to_hold_it() {
    let i = crate::noise::Interval {
        lo: 501.0,
        hi: 540.0,
    };
    assert_eq!(
        Bound::AtMost(500.0).judge(495.0, Some(i)),
        Compliance::WithinNoise(crate::noise::Interval {
            lo: 495.0,
            hi: 540.0
        })
    );
    assert_eq!(
        Bound::AtMost(500.0).judge(
            500.0,
            Some(crate::noise::Interval {
                lo: 460.0,
                hi: 500.0
            })
        ),
        Compliance::Met
    );
}

#[test]
fn the_lead_is_scored_again_with_criteria_within_the_noise_tied() {
    let q = |criteria: &[(CriterionKind, f64)]| Question {
        load: 4.0,
        constraints: Vec::new(),
        required: Vec::new(),
        criteria: criteria
            .iter()
            .map(|(kind, weight)| Criterion {
                kind: kind.clone(),
                weight: *weight,
            })
            .collect(),
    };
    let ttft = CriterionKind::Measured(TTFT_P90);
    let tput = CriterionKind::Measured(Quantity::OutputThroughput);
    // A 202 ms against B 208 ms, each ±4%: within the noise.
    let a = measured("a", 202.0, (194.0, 210.0), 100.0);
    let b = measured("b", 208.0, (200.0, 216.0), 100.0);
    let tied = |d: &Decision| d.verdict.contains("so treat the two as tied");
    // An attribute both lack separates nothing: the note stays.
    let scale_to_zero = CriterionKind::Attribute("scale_to_zero".into());
    let d = decide(
        &[a.clone(), b.clone()],
        &q(&[(ttft.clone(), 1.0), (scale_to_zero, 1.0)]),
    );
    assert!(tied(&d), "{}", d.verdict);
    assert!(d.sensitivity.is_empty(), "no weight ranges for a tie");
    // A clear lead of A on throughput decides it, whatever the TTFT noise.
    let faster = measured("a", 202.0, (194.0, 210.0), 150.0);
    let d = decide(
        &[faster, b.clone()],
        &q(&[(ttft.clone(), 1.0), (tput.clone(), 1.0)]),
    );
    assert!(!tied(&d), "{}", d.verdict);
    // A clear lead of B on throughput, and A first only by the noisy TTFT: tied.
    let slower = measured("a", 202.0, (194.0, 210.0), 90.0);
    let b_clear = measured("b", 208.0, (200.0, 216.0), 100.0);
    let d = decide(
        &[slower, b_clear],
        &q(&[(ttft.clone(), 3.0), (tput.clone(), 1.0)]),
    );
    assert_eq!(d.ranked[0].key, "a");
    assert!(
        d.verdict
            .contains("on the criteria where the data sets the two clearly apart, B leads A"),
        "{}",
        d.verdict
    );
    // A side without a value is no noise: B has no throughput at all.
    let mut no_tput = measured("b", 208.0, (200.0, 216.0), 100.0);
    no_tput.points[0]
        .values
        .retain(|(q, _)| *q != Quantity::OutputThroughput);
    let d = decide(
        &[a.clone(), no_tput],
        &q(&[(ttft.clone(), 1.0), (tput.clone(), 1.0)]),
    );
    assert!(!d.verdict.contains("unknown"), "{}", d.verdict);
    assert!(!tied(&d), "{}", d.verdict);
}

#[test]
fn an_error_rate_of_zero_against_a_tenth_is_a_clear_lead() {
    let with_errors = |key: &str, rate: f64, (lo, hi): (f64, f64)| {
        let mut c = candidate(key, &[(4.0, 200.0, 100.0, 100.0 - rate)]);
        c.points[0].values.push((Quantity::ErrorRate, rate));
        c.points[0].intervals = vec![(Quantity::ErrorRate, lo, hi)];
        c
    };
    let none = with_errors("a", 0.0, (0.0, 0.38));
    let tenth = with_errors("b", 10.0, (8.3, 12.0));
    let question = Question {
        load: 4.0,
        constraints: Vec::new(),
        required: Vec::new(),
        criteria: vec![Criterion {
            kind: CriterionKind::Measured(Quantity::ErrorRate),
            weight: 1.0,
        }],
    };
    let d = decide(&[none, tenth], &question);
    assert_eq!(d.ranked[0].key, "a");
    assert!(!d.verdict.contains("tied"), "{}", d.verdict);
}
