//! Comparisons with known verdicts: simulated runs whose truth is set (one better, one worse,
//! one the same), a point only base has, the threshold's edges, the JSON's shape.

use super::*;
use crate::fixtures::simulated::{self, summary_only};
use crate::model::{LoadTarget, Metric, Stat};
use crate::quantity::Quantity;

const P50: Quantity = Quantity::Latency {
    metric: Metric::Ttft,
    stat: Stat::P(50.0),
};

fn options(threshold_pct: f64) -> Options {
    Options {
        metrics: vec![P50],
        threshold_pct,
    }
}

/// A run of `key` at concurrency `load` with 2,000 requests whose median TTFT is `median`.
fn at(key: &str, load: f64, median: f64, seed: u64) -> Run {
    let mut rng = simulated::rng(seed);
    let mut run = simulated::run(key, "r.json", simulated::latencies(&mut rng, 2000, median));
    run.load.target = LoadTarget::Concurrency(load);
    run
}

fn verdicts(outcome: &Outcome) -> Vec<(String, Verdict, bool)> {
    outcome
        .points
        .iter()
        .flat_map(|p| {
            p.rows.iter().map(move |r| {
                (
                    format!("{} @ {}", p.id.config, p.id.load),
                    r.verdict,
                    r.fails,
                )
            })
        })
        .collect()
}

#[test]
fn known_changes_get_their_verdicts_and_the_worse_one_fails_the_gate() {
    // At concurrency 1 new is 20% faster, at 2 the same, at 4 20% slower; 8 only in base.
    let base = [
        at("a", 1.0, 100.0, 1),
        at("a", 2.0, 100.0, 2),
        at("a", 4.0, 100.0, 3),
        at("a", 8.0, 100.0, 4),
    ];
    let new = [
        at("a", 1.0, 80.0, 11),
        at("a", 2.0, 100.0, 12),
        at("a", 4.0, 120.0, 13),
    ];
    let outcome = compare(
        &base.iter().collect::<Vec<_>>(),
        &new.iter().collect::<Vec<_>>(),
        &options(5.0),
    );
    assert_eq!(
        verdicts(&outcome),
        [
            ("a @ concurrency 1".to_string(), Verdict::Better, false),
            (
                "a @ concurrency 2".to_string(),
                Verdict::NoClearDifference,
                false
            ),
            ("a @ concurrency 4".to_string(), Verdict::Worse, true),
        ]
    );
    assert_eq!(
        outcome.only_base,
        [PointId {
            config: "a".into(),
            load: "concurrency 8".into()
        }]
    );
    assert!(outcome.only_new.is_empty());
    assert!(outcome.fails);
    assert_eq!(outcome.counts.failing, 1);
    let worse = &outcome.points[2].rows[0];
    let [lo, hi] = worse.interval_pct.unwrap();
    assert!(
        lo > 0.0 && hi > lo && worse.change_pct.unwrap() > lo,
        "{worse:?}"
    );
}

#[test]
fn the_threshold_spares_a_clear_but_small_regression() {
    // 3% slower over 200,000 requests each: clearly worse, and under a 5% threshold.
    let mut rng = simulated::rng(5);
    let big = |rng: &mut _, median| simulated::latencies(rng, 200_000, median);
    let base = simulated::run("a", "b.json", big(&mut rng, 100.0));
    let new = simulated::run("a", "n.json", big(&mut rng, 103.0));
    let gated = |t: f64| compare(&[&base], &[&new], &options(t));
    let row = gated(5.0).points[0].rows[0].clone();
    assert_eq!(row.verdict, Verdict::Worse);
    assert!(!row.fails, "{row:?}");
    assert!(!gated(5.0).fails);
    // The same change fails a 2% threshold; a threshold equal to the change does not.
    assert!(gated(2.0).fails);
    let change = row.change_pct.unwrap();
    assert!(!gated(change).fails, "at exactly {change}%");
    assert!(gated(change - 1e-9).fails);
}

#[test]
fn without_intervals_the_noise_is_unknown_and_never_fails_the_gate() {
    // A p50 from summaries alone has no interval: 30% higher is a change the noise may make.
    let base = summary_only(at("a", 1.0, 100.0, 1));
    let new = summary_only(at("a", 1.0, 130.0, 2));
    let outcome = compare(&[&base], &[&new], &options(5.0));
    let row = &outcome.points[0].rows[0];
    assert!(!row.noise_known);
    assert_eq!(row.verdict, Verdict::NoiseUnknown);
    assert!(!row.fails, "{row:?}");
    assert!(!outcome.fails);
    assert_eq!(outcome.counts.noise_unknown, 1);
    assert_eq!(outcome.counts.judged, 0);
    assert!(row.change_pct.unwrap() > 5.0, "{row:?}");
    let json = serde_json::to_value(&outcome).unwrap();
    assert_eq!(json["points"][0]["rows"][0]["verdict"], "noise_unknown");
}

#[test]
fn renamed_configurations_pair_by_load_with_a_warning() {
    let base = at("main", 1.0, 100.0, 1);
    let new = at("pr-123", 1.0, 100.0, 2);
    let outcome = compare(&[&base], &[&new], &options(5.0));
    assert_eq!(outcome.points.len(), 1);
    assert!(
        outcome.warnings[0].contains("`main` is compared with new's only configuration `pr-123`"),
        "{:?}",
        outcome.warnings
    );
}

#[test]
fn workload_and_version_differences_are_warned_about() {
    let base = at("a", 1.0, 100.0, 1);
    let mut new = at("a", 1.0, 100.0, 2);
    new.config.dataset = Some("sharegpt".into());
    new.workload.engine_version = Some("0.7.0".into());
    let mut base = base;
    base.workload.engine_version = Some("0.6.3".into());
    let outcome = compare(&[&base], &[&new], &options(5.0));
    // The dataset is part of matching only through the key, which it is not: same point.
    assert_eq!(outcome.points.len(), 1);
    let w = outcome.warnings.join("\n");
    assert!(
        w.contains("the engine version differs: base 0.6.3, new 0.7.0"),
        "{w}"
    );
    assert!(
        !w.contains("dataset"),
        "base states no dataset: nothing to compare: {w}"
    );
}

#[test]
fn metrics_parse_and_tpot_falls_back_to_itl() {
    assert_eq!(
        parse_metrics("ttft:p95, output_throughput").unwrap(),
        [
            Quantity::Latency {
                metric: Metric::Ttft,
                stat: Stat::P(95.0)
            },
            Quantity::OutputThroughput
        ]
    );
    assert!(parse_metrics("ttfx:p95")
        .unwrap_err()
        .starts_with("--metric `ttfx:p95`: unknown metric"));
    assert!(parse_metrics(" , ").is_err());
    // A run with ITL and no TPOT compares ITL where TPOT was asked.
    let mut run = at("a", 1.0, 100.0, 1);
    let itl = Quantity::Latency {
        metric: Metric::Itl,
        stat: Stat::P(50.0),
    };
    run.latency.push(crate::model::LatencyMetric {
        metric: Metric::Itl,
        distribution: crate::model::Distribution {
            median: Some(10.0),
            ..Default::default()
        },
    });
    let chosen = metrics::chosen(&DEFAULT_METRICS, &run, &run);
    assert!(chosen.contains(&itl), "{chosen:?}");
    assert!(
        !chosen.contains(&Quantity::OutputThroughput),
        "neither side has it"
    );
}

#[test]
fn the_json_has_a_stable_shape() {
    let base = at("a", 1.0, 100.0, 1);
    let new = at("a", 1.0, 80.0, 2);
    let outcome = compare(&[&base], &[&new], &options(5.0));
    let json = serde_json::to_value(&outcome).unwrap();
    assert_eq!(json["format"], "benchdeck-compare/2");
    let row = &json["points"][0]["rows"][0];
    for key in [
        "metric",
        "label",
        "unit",
        "better",
        "base",
        "new",
        "change_pct",
        "interval_pct",
        "noise_known",
        "verdict",
        "p_value",
        "worse_beyond_threshold",
        "fails",
    ] {
        assert!(row.get(key).is_some(), "{key} in {row}");
    }
    assert_eq!(row["metric"], "ttft:p50");
    assert_eq!(row["verdict"], "better");
    assert_eq!(json["points"][0]["config"], "a");
    assert_eq!(json["points"][0]["load"], "concurrency 1");
    assert_eq!(json["counts"]["better"], 1);
}

#[test]
fn compare_reads_the_seed_002_runs_as_the_site_s_head_to_head_does() {
    // Seed 002's twelve result lines: SGLang as base, vLLM as new, mean TTFT.
    let file = "vllm-vs-sglang/llama-3.1-8b-instruct.jsonl";
    let imported = crate::import::import(file, &crate::fixtures::repository_result(file));
    let side = |engine: &str| -> Vec<&Run> {
        imported
            .runs
            .iter()
            .filter(|r| r.config.engine.as_deref() == Some(engine))
            .collect()
    };
    let mean = Quantity::Latency {
        metric: Metric::Ttft,
        stat: Stat::Mean,
    };
    let outcome = compare(
        &side("sgl"),
        &side("vllm"),
        &Options {
            metrics: vec![mean],
            threshold_pct: 5.0,
        },
    );
    // The site's head-to-head of the same runs (reports/inference-framework-benchmarks.md):
    // vLLM faster at 1 to 35 req/s, no clear difference at ∞.
    let text = format!(
        "---\ntitle: T\nresults: [\"{file}\"]\n---\n\n```table\nkind: head-to-head\nmetric: \
         ttft:mean\nconfigs: [vllm, sgl]\n```\n"
    );
    let page = crate::report::build_report(
        "reports/r.md",
        "r",
        &text,
        std::slice::from_ref(&imported),
        &crate::report::Palette::new(),
    );
    let html = page.prose_html();
    let table = html.split("<details").next().unwrap_or_default();
    let rows: Vec<&str> = table.split("<tr><th scope=\"row\">").skip(1).collect();
    assert_eq!(rows.len(), 6);
    for (point, row) in outcome.points.iter().zip(&rows) {
        let site = if row.contains("no clear difference") {
            Verdict::NoClearDifference
        } else if row.contains("<td>vllm</td>") {
            Verdict::Better
        } else {
            Verdict::Worse
        };
        assert_eq!(point.rows[0].verdict, site, "{}: {row}", point.id.load);
    }
    assert_eq!(
        outcome.points[5].rows[0].verdict,
        Verdict::NoClearDifference
    );
}

fn with_metrics(metrics: Vec<Quantity>) -> Options {
    Options {
        metrics,
        threshold_pct: 5.0,
    }
}

/// `run` with `succeeded` of `total` requests served and an output throughput of `tok_s`.
fn served(mut run: Run, total: u64, succeeded: u64, tok_s: f64) -> Run {
    run.requests = crate::model::RequestCounts::counted(total, succeeded);
    run.throughput.output_tok_s = Some(tok_s);
    run
}

#[test]
fn a_new_side_whose_every_request_failed_fails_the_gate() {
    let base = served(at("a", 1.0, 100.0, 1), 2000, 2000, 400.0);
    let mut new = served(summary_only(at("a", 1.0, 100.0, 2)), 2000, 0, 0.0);
    new.latency.clear();
    let metrics = vec![Quantity::SuccessRate, Quantity::OutputThroughput];
    let outcome = compare(&[&base], &[&new], &with_metrics(metrics));
    let rows = &outcome.points[0].rows;
    assert_eq!(
        rows.iter()
            .map(|r| (r.verdict, r.fails, r.change_pct))
            .collect::<Vec<_>>(),
        [
            (Verdict::Worse, true, Some(-100.0)),
            // One run's throughput has no interval: its noise is unknown, whatever the drop.
            (Verdict::NoiseUnknown, false, Some(-100.0))
        ],
        "{rows:?}"
    );
    assert!(rows[0].noise_known, "both counts bound the rates");
    assert!(outcome.fails);
}

#[test]
fn errors_from_an_error_free_base_are_judged_by_the_difference() {
    let base = served(at("a", 1.0, 100.0, 1), 400, 400, 400.0);
    let row = |failed: u64| {
        let new = served(at("a", 1.0, 100.0, 2), 400, 400 - failed, 400.0);
        let outcome = compare(&[&base], &[&new], &with_metrics(vec![Quantity::ErrorRate]));
        outcome.points[0].rows[0].clone()
    };
    // 40 of 400 failed: clearly worse than none, by more than any threshold.
    let ten = row(40);
    assert_eq!(
        (ten.verdict, ten.fails, ten.change_pct),
        (Verdict::Worse, true, None)
    );
    // One of 400 is within the noise of none (Wilson: 0–0.95% against 0.04–1.4%).
    let one = row(1);
    assert_eq!(
        (one.verdict, one.fails),
        (Verdict::NoClearDifference, false)
    );
    let none = row(0);
    assert_eq!(
        (none.verdict, none.fails),
        (Verdict::NoClearDifference, false)
    );
}

#[test]
fn repeats_of_equal_success_are_no_clear_difference_from_one_failure_in_each() {
    // 3 × 400/400 against 3 × 399/400: the runs do not spread, the 1,200 requests do.
    let side = |ok: u64, seed: u64| -> Vec<Run> {
        (0..3)
            .map(|i| served(at("a", 1.0, 100.0, seed + i), 400, ok, 400.0))
            .collect()
    };
    let (base, new) = (side(400, 1), side(399, 10));
    let outcome = compare(
        &base.iter().collect::<Vec<_>>(),
        &new.iter().collect::<Vec<_>>(),
        &Options {
            metrics: vec![Quantity::SuccessRate],
            threshold_pct: 0.1,
        },
    );
    assert_eq!(outcome.points[0].runs, [3, 3]);
    let row = &outcome.points[0].rows[0];
    assert_eq!(row.verdict, Verdict::NoClearDifference, "{row:?}");
    assert!(!outcome.fails);
}

#[test]
fn every_run_of_a_side_counts_at_max_throughput_and_across_days() {
    // Offline throughput runs, and runs of one point on two days: repeats of one side.
    let offline = |tok_s: f64, seed: u64| {
        let mut run = served(at("a", 1.0, 100.0, seed), 2000, 2000, tok_s);
        run.load.target = LoadTarget::MaxThroughput;
        run
    };
    let base = [offline(1000.0, 1), offline(1100.0, 2), offline(1200.0, 3)];
    let new = [offline(800.0, 4), offline(1300.0, 5), offline(1400.0, 6)];
    let metrics = || with_metrics(vec![Quantity::OutputThroughput]);
    let outcome = compare(
        &base.iter().collect::<Vec<_>>(),
        &new.iter().collect::<Vec<_>>(),
        &metrics(),
    );
    assert_eq!(outcome.points.len(), 1);
    assert_eq!(outcome.points[0].runs, [3, 3]);
    let row = &outcome.points[0].rows[0];
    assert_eq!(
        (row.base, row.verdict),
        (Some(1100.0), Verdict::NoClearDifference)
    );
    let dated = |day: &str, median: f64, seed: u64| {
        let mut run = at("a", 1.0, median, seed);
        run.provenance.date = crate::date::RunDate::parse(day);
        run
    };
    let base = dated("2025-10-20", 100.0, 1);
    let new = [dated("2025-10-20", 100.0, 2), dated("2025-10-21", 100.0, 3)];
    let outcome = compare(&[&base], &new.iter().collect::<Vec<_>>(), &options(5.0));
    assert_eq!(outcome.points[0].runs, [1, 2]);
    assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
}

#[test]
fn a_run_of_another_workload_at_a_compared_point_is_named_not_dropped() {
    let base = at("a", 1.0, 100.0, 1);
    let prompts = |len: u64, file: &str, seed: u64| {
        let mut run = at("a", 1.0, 100.0, seed);
        run.tokens.total_input = Some(2000 * len);
        run.provenance.file = file.into();
        run
    };
    let new = [prompts(512, "short.json", 2), prompts(4096, "long.json", 3)];
    let outcome = compare(&[&base], &new.iter().collect::<Vec<_>>(), &options(5.0));
    assert_eq!(outcome.points.len(), 1);
    assert_eq!(outcome.points[0].runs, [1, 1]);
    let w = outcome.warnings.join("\n");
    assert!(
        w.contains("new: `long.json` is not compared: `short.json` is the run compared at a at concurrency 1"),
        "{w}"
    );
    assert!(
        w.contains("input length: short.json: ~512; long.json: ~4,096"),
        "{w}"
    );
}

#[test]
fn combined_repeats_are_not_said_to_send_more_prompts() {
    // Three runs of 2,000 prompts against one: each run sent 2,000.
    let base: Vec<Run> = (0..3).map(|i| at("a", 1.0, 100.0, i)).collect();
    let new = at("a", 1.0, 100.0, 9);
    let outcome = compare(&base.iter().collect::<Vec<_>>(), &[&new], &options(5.0));
    assert_eq!(outcome.points[0].runs, [3, 1]);
    assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
}

#[test]
fn an_unbounded_end_is_written_inf_in_json_never_null() {
    // p99 of 200 requests: a lower bound and no upper one on each side.
    let mut rng = simulated::rng(11);
    let base = simulated::run("a", "b.json", simulated::latencies(&mut rng, 200, 100.0));
    let new = simulated::run("a", "n.json", simulated::latencies(&mut rng, 200, 100.0));
    let p99 = Quantity::Latency {
        metric: Metric::Ttft,
        stat: Stat::P(99.0),
    };
    let outcome = compare(&[&base], &[&new], &with_metrics(vec![p99]));
    let json = serde_json::to_value(&outcome).unwrap();
    let row = &json["points"][0]["rows"][0];
    assert!(row["base_interval"][0].is_number(), "{row}");
    assert_eq!(row["base_interval"][1], "inf");
    // A ratio unbounded below is a change of −100% at most; above, unbounded.
    assert_eq!(row["interval_pct"][0], -100.0);
    assert_eq!(row["interval_pct"][1], "inf");
    assert_eq!(row["verdict"], "no_clear_difference");
}

#[test]
fn holm_spares_a_lone_marginal_worse_among_many_metrics_judged() {
    // p-values: one of 0.03 among eight rows; alone it would fail, in the family it does not.
    let mut rows: Vec<VerdictRow> = (0..8)
        .map(|k| VerdictRow {
            metric: format!("m{k}"),
            label: format!("m{k}"),
            unit: "ms".into(),
            better: crate::quantity::Better::Lower,
            base: Some(1.0),
            new: Some(1.0),
            base_interval: None,
            new_interval: None,
            change_pct: Some(0.0),
            interval_pct: None,
            noise_known: true,
            verdict: Verdict::NoClearDifference,
            p_value: Some(0.5),
            worse_beyond_threshold: false,
            fails: false,
        })
        .collect();
    rows[3].p_value = Some(0.03);
    rows[3].verdict = Verdict::Worse;
    rows[3].worse_beyond_threshold = true;
    family::correct(rows.iter_mut());
    assert!(!rows[3].fails);
    rows[3].p_value = Some(0.001);
    family::correct(rows.iter_mut());
    assert!(rows[3].fails, "0.001 ≤ 0.05 / 8");
}

#[test]
fn p_values_agree_with_the_intervals_they_are_read_from() {
    // An interval whose end touches no change is p = 0.05, whatever its degrees of freedom.
    for df in [3.0, 30.0, f64::INFINITY] {
        let p = p_value(0.2, (0.0, 0.4), df);
        assert!((p - 0.05).abs() < 1e-6, "{df}: {p}");
    }
    assert!(p_value(0.2, (0.1, 0.3), 10.0) < 0.05);
    assert!(p_value(0.2, (-0.1, 0.5), 10.0) > 0.05);
    assert_eq!(p_value(0.2, (f64::NEG_INFINITY, 0.5), 10.0), 1.0);
    // Twice as far from no change as the 95% half-width: with four blocks (t at 3 degrees of
    // freedom) that is p = 0.0078 (scipy: 2·t.sf(6.365, 3)); read as normal it was 0.00009.
    let p = p_value(0.2, (0.1, 0.3), 3.0);
    assert!((p - 0.00787).abs() < 5e-4, "{p}");
}
