use crate::import::{import_text, ImportedFile};
use crate::model::{LoadTarget, Location, Metric, Producer, Rate, Stat};
use crate::problem::Severity;

fn fixture(name: &str) -> ImportedFile {
    crate::fixtures::import_named(&format!("simple_full_stack_report/{name}"), name)
}

fn messages(f: &ImportedFile) -> Vec<String> {
    f.all_problems().map(ToString::to_string).collect()
}

fn loads(f: &ImportedFile) -> Vec<LoadTarget> {
    f.runs.iter().map(|r| r.load.target).collect()
}

#[test]
fn generated_report_one_run_per_row() {
    let f = fixture("generated.md");
    assert_eq!(f.producer, Some(Producer::SimpleFullStackLoadTest));
    assert_eq!(
        loads(&f),
        [
            LoadTarget::Sequential,
            LoadTarget::Sequential,
            LoadTarget::Concurrency(1.0),
            LoadTarget::Concurrency(2.0),
            LoadTarget::Concurrency(4.0),
            LoadTarget::Concurrency(8.0),
            LoadTarget::RequestRate(Rate::PerSecond(1.0)),
            LoadTarget::RequestRate(Rate::PerSecond(5.0)),
        ]
    );
    let lines: Vec<Location> = f
        .runs
        .iter()
        .map(|r| r.provenance.location.clone())
        .collect();
    assert_eq!(
        lines,
        [16, 17, 25, 26, 27, 28, 36, 37]
            .map(Location::line)
            .to_vec()
    );
    let c1 = &f.runs[2];
    assert_eq!(c1.provenance.producer, Producer::SimpleFullStackLoadTest);
    assert_eq!(c1.config.model.as_deref(), Some("acme-13b"));
    assert_eq!(c1.config.label.as_deref(), Some("generated"));
    assert_eq!(c1.latency_stat(Metric::Ttft, Stat::P(50.0)), Some(220.4));
    assert_eq!(c1.latency_stat(Metric::Ttft, Stat::P(99.0)), Some(281.2));
    assert_eq!(c1.latency_stat(Metric::E2e, Stat::P(90.0)), Some(2200.0));
    assert_eq!(c1.latency_stat(Metric::E2e, Stat::P(50.0)), None);
    // `Tok/s` is a mean of per-request rates: what one user sees, not the server's throughput.
    assert_eq!(c1.throughput.output_tok_s, None);
    assert_eq!(c1.throughput.output_tok_s_per_user, Some(61.2));
    // `Success%` has no counts.
    assert_eq!(c1.requests.total, None);
    let base = &f.runs[0];
    assert_eq!(base.requests.total, Some(3), "`Count`");
    assert_eq!(base.config.label.as_deref(), Some("generated baseline"));
    assert_eq!(base.config.dataset.as_deref(), Some("~32-token prompts"));
    let rps = &f.runs[7];
    assert_eq!(rps.latency_stat(Metric::Ttft, Stat::P(50.0)), Some(1500.5));
    assert_eq!(rps.load.achieved_rps, Some(4.9));
    assert_eq!(
        messages(&f),
        [
            "generated.md:17: warning: every latency is 0 ms, which the tool writes when no \
             request succeeded; the run is shown as failed"
                .to_string(),
            "generated.md:27:2: warning: `Success%` is 95%, but no table gives this level's \
             request counts, so the run's counts are unknown"
                .to_string(),
            "generated.md:28: warning: every latency is 0 ms, which the tool writes when no \
             request succeeded; the run is shown as failed"
                .to_string(),
            "generated.md:37:3: warning: `Success%` is 60%, but no table gives this level's \
             request counts, so the run's counts are unknown"
                .to_string(),
        ]
    );
}

#[test]
fn zero_latencies_mark_levels_where_nothing_succeeded() {
    let f = fixture("generated.md");
    let base64 = &f.runs[1];
    assert!(base64.all_failed());
    assert_eq!(base64.requests.total, Some(3));
    assert_eq!(base64.requests.failed, Some(3));
    assert!(base64.latency.is_empty());
    let c8 = &f.runs[5];
    assert!(c8.all_failed(), "0% and 0.0ms");
    assert!(c8.latency.is_empty());
    assert_eq!(c8.latency_stat(Metric::Ttft, Stat::P(50.0)), None);
}

#[test]
fn hand_edited_report_merges_raw_and_summary_tables_and_locates_every_problem() {
    let f = fixture("hand-edited.md");
    assert_eq!(
        loads(&f),
        [
            LoadTarget::Concurrency(1.0),
            LoadTarget::Concurrency(2.0),
            LoadTarget::Concurrency(4.0),
            LoadTarget::RequestRate(Rate::PerSecond(1.0)),
            LoadTarget::RequestRate(Rate::PerSecond(2.0)),
        ]
    );
    let c2 = &f.runs[1];
    assert_eq!(c2.config.model.as_deref(), Some("acme-13b-fp8"));
    // Counts from the raw `19/20`, percentiles from the summary table.
    assert_eq!(c2.requests.total, Some(20));
    assert_eq!(c2.requests.succeeded, Some(19));
    assert_eq!(c2.requests.failed, Some(1));
    assert_eq!(c2.latency_stat(Metric::Ttft, Stat::P(50.0)), Some(231.0));
    assert_eq!(
        c2.latency_stat(Metric::Ttft, Stat::P(90.0)),
        Some(275.0),
        "the first of two different values is kept, and the second reported"
    );
    let c1 = &f.runs[0];
    assert_eq!(
        c1.latency_stat(Metric::Ttft, Stat::P(50.0)),
        Some(221.0),
        "**bold**"
    );
    let c4 = &f.runs[2];
    assert_eq!(c4.latency_stat(Metric::Ttft, Stat::P(90.0)), Some(402.0));
    assert_eq!(
        c4.latency_stat(Metric::Ttft, Stat::P(99.0)),
        None,
        "redacted"
    );
    let r2 = &f.runs[4];
    assert_eq!(r2.requests.total, Some(60), "`Sent`");
    assert_eq!(r2.requests.succeeded, Some(45));
    assert_eq!(r2.load.achieved_rps, Some(2.0));
    assert_eq!(r2.latency_stat(Metric::Ttft, Stat::P(99.0)), None);
    assert_eq!(r2.latency_stat(Metric::E2e, Stat::P(99.0)), Some(4400.0));

    let mut got = messages(&f);
    got.sort();
    let mut expected = vec![
        "hand-edited.md:32:1: error: `Concurrency`: expected a concurrency of at least 1, found \
         `many`; this row cannot become a run"
            .to_string(),
        "hand-edited.md:41: error: expected 8 cells as in the header at line 36, found 4; this \
         row is skipped"
            .to_string(),
        "hand-edited.md:65: warning: table not recognised (header `Observation | Severity`); \
         expected a load_test.py or benchmark.py table whose first column is `Prompt Tokens`, \
         `Concurrency`, `Target RPS` or `Rate (req/s)`; not imported: 1 rows (line 67)"
            .to_string(),
        "hand-edited.md:39:4: warning: `TTFT p90` is 290 here but 275 at hand-edited.md:30:4; \
         the first is kept"
            .to_string(),
        "hand-edited.md:31:4: warning: `TTFT p90`: `0.x` looks redacted; it is read as missing"
            .to_string(),
        "hand-edited.md:40:5: warning: `TTFT p99`: `117xxxms` looks redacted; it is read as \
         missing"
            .to_string(),
        "hand-edited.md:54:1: warning: `⚠ 2.0`: the marker `⚠` is dropped and 2 is read"
            .to_string(),
        "hand-edited.md:61:6: error: `TTFT p99`: expected a number, found `fast`; the value is \
         missing"
            .to_string(),
    ];
    expected.sort();
    assert_eq!(got, expected);
}

#[test]
fn console_dump_with_box_tables_and_progress_lines() {
    let f = fixture("acme-console.txt");
    assert_eq!(f.producer, Some(Producer::SimpleFullStackLoadTest));
    assert_eq!(
        loads(&f),
        [
            LoadTarget::Sequential,
            LoadTarget::Concurrency(1.0),
            LoadTarget::Concurrency(4.0),
            LoadTarget::RequestRate(Rate::PerSecond(2.0)),
        ]
    );
    let base = &f.runs[0];
    assert_eq!(
        base.config.model.as_deref(),
        Some("acme-13b"),
        "` Model: …` line"
    );
    assert_eq!(base.provenance.location, Location::line(26));
    assert_eq!(base.latency_stat(Metric::Ttft, Stat::P(99.0)), Some(229.8));
    assert_eq!(base.latency_stat(Metric::E2e, Stat::P(99.0)), Some(2109.6));
    // Per-request lines are samples; the failed one has no TTFT.
    let s = base.samples.as_ref().unwrap();
    assert_eq!(s.ok, [true, false, true]);
    assert_eq!(s.e2e_ms, [2090.0, 35.0, 2110.0]);
    assert!(s.ttft_ms[1].is_nan());
    assert_eq!(base.requests.succeeded, Some(2));
    assert_eq!(base.requests.total, Some(3));
    let c4 = &f.runs[2];
    assert_eq!(c4.requests.total, Some(10));
    assert_eq!(c4.requests.succeeded, Some(7));
    assert_eq!(c4.latency_stat(Metric::Ttft, Stat::P(90.0)), Some(402.0));
    assert_eq!(c4.latency_stat(Metric::Ttft, Stat::P(99.0)), Some(455.0));
    let r2 = &f.runs[3];
    assert!(r2.all_failed());
    assert_eq!(r2.requests.failed, Some(60));
    assert!(r2.latency.is_empty());
    // The final summary's totals and `Throughput:` do not leak into the last level.
    assert_eq!(
        messages(&f),
        [
            "acme-console.txt:65: warning: every latency is 0 ms, which the tool writes when no \
             request succeeded; the run is shown as failed"
                .to_string(),
        ]
    );
}

#[test]
fn benchmark_py_tables_pasted_into_markdown() {
    let f = fixture("bench-console.md");
    assert_eq!(f.producer, Some(Producer::SimpleFullStackCsv));
    assert_eq!(
        loads(&f),
        [
            LoadTarget::Concurrency(1.0),
            LoadTarget::Concurrency(4.0),
            LoadTarget::RequestRate(Rate::PerSecond(2.0)),
        ]
    );
    let c4 = &f.runs[1];
    assert_eq!(c4.config.model.as_deref(), Some("acme_13b"), "`--model`");
    assert_eq!(c4.config.dataset.as_deref(), Some("random"));
    assert_eq!(c4.config.label.as_deref(), Some("bench-console"));
    assert_eq!(c4.requests.succeeded, Some(18));
    assert_eq!(c4.requests.failed, Some(2));
    assert_eq!(c4.latency_stat(Metric::E2e, Stat::P(50.0)), Some(2500.0));
    assert_eq!(c4.latency_stat(Metric::Tpot, Stat::P(99.0)), Some(21.0));
    assert_eq!(c4.latency_stat(Metric::Itl, Stat::P(99.0)), Some(45.2));
    assert_eq!(
        c4.latency_stat(Metric::Ttft, Stat::P(99.0)),
        None,
        "`1.2xxms`"
    );
    // benchmark.py's `Tok/s` is its output throughput; `Rate (req/s)` counts every request.
    assert_eq!(c4.throughput.output_tok_s, Some(190.4));
    assert_eq!(c4.throughput.requests_per_s, Some(1.6));
    let out = c4.tokens.output_len.as_ref().unwrap();
    assert_eq!(out.get(Stat::P(50.0)), Some(118.0));
    let rate = &f.runs[2];
    assert_eq!(rate.provenance.producer, Producer::SimpleFullStackCsv);
    assert_eq!(rate.requests.total, Some(20));
    assert_eq!(rate.requests.succeeded, Some(9));
    assert_eq!(rate.requests.failed, Some(11), "`11 (55%)`");
    assert_eq!(
        messages(&f),
        [
            "bench-console.md:34:5: warning: `TTFT p99`: `1.2xxms` looks redacted; it is read as \
             missing",
            "bench-console.md:48:1: warning: `⚠ 2.0`: the marker `⚠` is dropped and 2 is read",
        ]
    );
}

#[test]
fn markdown_without_a_report_is_not_recognised() {
    let f = fixture("notes.md");
    assert!(f.failed());
    assert_eq!(f.producer, None);
    assert!(f.problems[0].message.contains("format not recognised"));
    assert_eq!(f.problems[0].place(), "notes.md:1");
}

#[test]
fn counts_that_disagree_are_reported() {
    let text = "| Concurrency | Requests | Success | Success% |\n|---|---|---|---|\n\
                | 2 | 10 | 9/12 | 50% |\n| 3 | 10 | 11 | 100% |\n";
    let f = import_text("r.md", text);
    let got = messages(&f);
    assert_eq!(
        got,
        [
            "r.md:3:3: warning: 12 requests here, but 10 at r.md:3:2; the first is kept",
            "r.md:3:4: warning: `Success%` 50% does not match 9 of 10 requests",
            "r.md:4: error: 11 successes of 10 requests; the counts are unknown",
        ]
    );
    assert_eq!(f.runs[1].requests.total, None);
}

#[test]
fn anything_after_a_report_header_never_panics() {
    let heads = [
        "| Concurrency | Success% | TTFT p50 |\n|---|---|---|\n",
        "│ Target RPS │ Actual RPS │\n├──┼──┤\n",
        "# Load Test Report\n  Testing concurrency=2 (5 requests)...\n",
        "  Testing prompt length ~32 tokens...\n",
        "| Rate (req/s) | OK | Errors |\n",
    ];
    let tails = [
        "",
        "| 1 |",
        "| ∞ | 100% | 1e400ms |",
        "| -1 | x | |\n| 0.x | ⚠ | ✓ |",
        "    Request 1: ✓ TTFT=ms Total=\n    Success: / | TTFT p90: :",
        "| 2 | 5/3 | 12 (x%) |\n| 2 | 1/1 | (%) |",
        "│ 2.0 │ │ │ │ │",
        "Model:\n--model",
    ];
    for h in heads {
        for t in tails {
            let text = format!("{h}{t}");
            let f = import_text("x.md", &text);
            assert!(!f.runs.is_empty() || !f.problems.is_empty(), "{text:?}");
            for p in f.all_problems() {
                assert!(!p.message.is_empty());
            }
        }
    }
}

#[test]
fn truncated_fixtures_never_panic() {
    for name in ["hand-edited.md", "acme-console.txt", "bench-console.md"] {
        let text = crate::fixtures::text(&format!("simple_full_stack_report/{name}"));
        let step = (text.len() / 400).max(1);
        for end in (0..text.len())
            .step_by(step)
            .filter(|i| text.is_char_boundary(*i))
        {
            let f = import_text(name, &text[..end]);
            assert!(!f.runs.is_empty() || !f.problems.is_empty());
            assert!(f
                .all_problems()
                .all(|p| p.severity == Severity::Error || p.severity == Severity::Warning));
        }
    }
}

mod fuzz {
    use proptest::prelude::*;

    /// Pieces of every text format read here, so random files look nearly right.
    const PIECES: [&str; 40] = [
        "\n",
        "\r\n",
        " ",
        "|",
        "│",
        "┃",
        "├──┼──┤",
        "|---|:---:|",
        "# ",
        "## Phase 2\n",
        "# benchdeck: ",
        "load=concurrency:a",
        "ttft.p50=b (ms)",
        "config=c",
        ",",
        "a,b,c\n",
        "Concurrency",
        "Target RPS",
        "Rate (req/s)",
        "Prompt Tokens",
        "Success%",
        "TTFT p50",
        "Total p99",
        "Tok/s",
        "OK",
        "Errors",
        "20/20",
        "✓ 3/4 ok",
        "0.x",
        "117xxxms",
        "⚠ ",
        "12 (60%)",
        "Testing concurrency=",
        "Testing 2.0 RPS for 30s...\n",
        "Request 1: ✓ TTFT=",
        "Success: 1/2 | TTFT p90: 5ms",
        "Model: m\n",
        "```\n--model x\n",
        "Metric,avg,min,max\n",
        "Type,Name,Request Count\n,Aggregated,",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn near_miss_text_never_panics(
            pieces in prop::collection::vec(prop::sample::select(PIECES.to_vec()), 0..40),
            numbers in prop::collection::vec(-5.0f64..2e4, 0..8),
        ) {
            let mut text: String = pieces.concat();
            for n in numbers {
                text.push_str(&format!("| {n} "));
            }
            for first in ["", "# x\n", "| Concurrency | Success% |\n", "# benchdeck: load=rate:a\n"] {
                let f = crate::import::import_text("f.md", &format!("{first}{text}"));
                prop_assert!(!f.runs.is_empty() || !f.problems.is_empty());
            }
        }
    }
}
