//! Table blocks and inline values, on a small tidy CSV whose numbers are chosen to check the
//! arithmetic (seed 002's mean TTFT at 1 QPS: 45.04 against 64.88 ms, faster by 30.58%).

use super::*;

const DATA: &str = "\
# benchdeck: load=rate:qps, config=engine, ttft.mean=ttft (ms), ttft.p99=ttft99 (ms), ttft.std=sd (ms)
# benchdeck: output_tok_s=tok_s, output_tok_s_per_user=user_tok_s, succeeded=ok, failed=bad, requests_per_s=rps
qps,engine,ttft,ttft99,sd,tok_s,user_tok_s,ok,bad,rps
1,vllm,45.04,60,9.008,100,85.1,100,0,0.99
2,vllm,50.5,70,10,190,80,100,0,1.98
4,vllm,80,300,40,300,60,97,3,3.9
1,sglang,64.88,90,10,95,6.6,100,0,1
2,sglang,60.1,95,12,180,6.2,100,0,2
4,sglang,70,120,14,310,5,100,0,4
";

fn page(body: &str) -> ReportPage {
    let results = vec![import("sweep.csv", DATA.as_bytes())];
    assert_eq!(results[0].problems, vec![], "the fixture imports cleanly");
    let text = format!(
        "---\ntitle: T\nresults: [sweep.csv]\nconfigs:\n  - key: vllm\n    label: vLLM\n  - key: sglang\n    label: SGLang\n---\n{body}\n"
    );
    build_report("reports/r.md", "r", &text, &results, &Palette::new())
}

/// The page's prose and tables, without the "What differs" section every page of two
/// configurations ends with (its own test is `what_differs_marks_the_cells_that_differ`).
fn blocks_before_what_differs(page: &ReportPage) -> String {
    let html = page.prose_html();
    match html.split_once("<details class=\"what-differs\">") {
        Some((before, _)) => before.to_string(),
        None => html,
    }
}

fn messages(page: &ReportPage) -> Vec<String> {
    page.problems.iter().map(|p| p.to_string()).collect()
}

#[test]
fn inline_values_are_computed_with_units_and_sources() {
    let p = page(
        "TTFT `=value(ttft:mean, vllm, 1)` vs `=value(ttft:mean, sglang, 1)`, \
         `=pct(value(ttft:mean, vllm, 1), value(ttft:mean, sglang, 1))` faster; \
         per user `=max(output_tok_s_per_user, vllm)` vs `=max(output_tok_s_per_user, sglang)` \
         (`=ratio(max(output_tok_s_per_user, vllm), max(output_tok_s_per_user, sglang))`); \
         stable to `=stable(vllm)` and `=stable(sglang, ttft:p99 <= 100)`; \
         breaks at `=breaking(vllm)`; lowest p99 `=min(ttft:p99, sglang)`.",
    );
    assert_eq!(messages(&p), Vec::<String>::new());
    let text = p.prose_html();
    for shown in [
        ">45.04 ms<",
        ">64.88 ms<",
        ">30.6%<",
        ">85.1 tok/s<",
        ">6.6 tok/s<",
        ">12.9x<",
        ">2 req/s<",
        ">90 ms<",
    ] {
        assert!(text.contains(shown), "{shown} missing in {text}");
    }
    // sglang stays under 100 ms p99 up to 2 req/s; vllm breaks at 4 (3% errors, p99 4.3x).
    assert_eq!(text.matches(">2 req/s<").count(), 2, "{text}");
    assert!(text.contains(">4 req/s<"), "{text}");
    // Welch's bound from the row's mean, standard deviation and count: 45.04 ± t(99) · 9.008
    // / √100 = 45.04 ± 1.787; 64.88 ± 1.984.
    assert!(
        text.contains(
            "title=\"Mean TTFT of vLLM at 1 req/s (sweep.csv:4); 95% CI 43.25–46.83 ms from \
             the mean and standard deviation of 100 requests\""
        ),
        "{text}"
    );
    // The interval of pct by MOVER on the log scale: 1 − [0.660, 0.730].
    assert!(text.contains("; 95% CI 27.0–34.0%\">30.6%<"), "{text}");
}

#[test]
fn a_claim_inside_the_interval_agrees() {
    // 44 ms is not 45.04 ms at the typed precision, but it lies in 43.25–46.83 ms.
    let p = page("About `=claim(44 ms, value(ttft:mean, vllm, 1))`.");
    assert_eq!(messages(&p), Vec::<String>::new());
    let text = p.prose_html();
    assert!(text.contains(">44 ms<"), "{text}");
    assert!(
        text.contains("(45.04 ms in the data, 95% CI 43.25–46.83)"),
        "{text}"
    );
}

#[test]
fn claims_show_the_prose_and_warn_when_the_data_disagrees() {
    let p = page(
        "About `=claim(13x, ratio(max(output_tok_s_per_user, vllm), max(output_tok_s_per_user, sglang)))` \
         and `=claim(40 ms, value(ttft:mean, vllm, 1))`.",
    );
    let text = p.prose_html();
    assert!(
        text.contains("class=\"value\"") && text.contains(">13x<"),
        "{text}"
    );
    assert!(
        text.contains("class=\"value value-contradicted\"")
            && text.contains("40 ms <small>(data: 45.04 ms)</small>"),
        "{text}"
    );
    assert_eq!(
        messages(&p),
        [
            "reports/r.md:10: warning: the prose says 40 ms, but the data gives 45.04 ms \
          (Mean TTFT of vLLM at 1 req/s (sweep.csv:4); 95% CI 43.25–46.83 ms from the mean \
          and standard deviation of 100 requests)"
        ]
    );
}

#[test]
fn inline_values_naming_missing_data_are_errors_at_their_line_and_marked_on_the_page() {
    let p = page(
        "Line one.\n\n`=value(ttft:mean, trt, 1)` and `=value(ttft:mean, vllm, 3)` and \
         `=value(ttfx, vllm, 1)` and `=median(x)` and `=value(ttft:mean, vllm`",
    );
    let m = messages(&p);
    assert_eq!(m.len(), 5, "{m:?}");
    assert!(m[0].starts_with("reports/r.md:12: error: inline value `=value(ttft:mean, trt, 1)`: configuration `trt` is not in this report's results; found vllm, sglang"), "{}", m[0]);
    assert!(
        m[1].contains("`vllm` has no run at load 3; its loads are 1 req/s, 2 req/s, 4 req/s"),
        "{}",
        m[1]
    );
    assert!(m[2].contains("unknown metric `ttfx`"), "{}", m[2]);
    assert!(m[3].contains("unknown function `median`"), "{}", m[3]);
    assert!(m[4].contains("expected `,` or `)`"), "{}", m[4]);
    let text = p.prose_html();
    assert_eq!(
        text.matches("class=\"value value-error\"").count(),
        5,
        "{text}"
    );
    assert!(text.contains("⚠ value(ttft:mean, trt, 1)"));
}

#[test]
fn inline_values_cannot_inject_markup() {
    let p = page("`=value(<script>alert(1)</script>, vllm, 1)` `=claim(<img src=x onerror=alert(1)>, value(ttft:mean, vllm, 1))`");
    let text = p.prose_html();
    assert!(
        !text.contains("<script") && !text.contains("<img"),
        "{text}"
    );
}

#[test]
fn the_head_to_head_table_matches_seed_002() {
    let p = page("```table\nkind: head-to-head\nmetric: ttft:mean\nconfigs: [vllm, sglang]\n```");
    assert_eq!(messages(&p), Vec::<String>::new());
    insta::assert_snapshot!(blocks_before_what_differs(&p));
}

#[test]
fn the_summary_table_marks_the_best_and_says_what_each_is_best_for() {
    let p = page(
        "```table\nkind: summary\nmetrics:\n  - output_tok_s_per_user\n  - ttft:mean\n  - {metric: ttft:p99, load: 4}\n  - success_rate\n```",
    );
    assert_eq!(messages(&p), Vec::<String>::new());
    insta::assert_snapshot!(blocks_before_what_differs(&p));
}

#[test]
fn a_summary_of_one_configuration_awards_nothing() {
    let p = page("```table\nkind: summary\nconfigs: [vllm]\nmetrics: [ttft:mean, output_throughput:max]\n```");
    assert_eq!(messages(&p), Vec::<String>::new());
    let html = blocks_before_what_differs(&p);
    assert!(html.contains("45.04 ms"), "{html}");
    assert!(
        !html.contains("Best for") && !html.contains("class=\"best\""),
        "{html}"
    );
    assert!(!html.contains("Best value of each row in bold"), "{html}");
}

#[test]
fn a_configuration_with_no_value_in_a_summary_has_no_column() {
    // sglang reports no goodput here, vllm does: the column of a configuration without a value
    // in any row is left out, and with one left nothing is awarded.
    let csv = "# benchdeck: load=rate:qps, config=engine, goodput_req_s=good\nqps,engine,good\n1,vllm,0.9\n1,sglang,\n";
    let results = vec![import("g.csv", csv.as_bytes())];
    let text =
        "---\ntitle: T\nresults: [g.csv]\n---\n```table\nkind: summary\nmetrics: [goodput]\n```\n";
    let p = build_report("reports/r.md", "r", text, &results, &Palette::new());
    let html = blocks_before_what_differs(&p);
    assert!(html.contains("<th scope=\"col\">vllm</th>"), "{html}");
    assert!(!html.contains("<th scope=\"col\">sglang</th>"), "{html}");
    assert!(!html.contains("Best for"), "{html}");
}

#[test]
fn table_blocks_naming_missing_data_are_errors_at_their_line() {
    let errors = |body: &str| -> Vec<String> { messages(&page(body)) };
    assert_eq!(
        errors("```table\nkind: head-to-head\nmetric: ttft:mean\nconfigs: [vllm]\n```"),
        ["reports/r.md:11: error: table block: a head-to-head needs `configs`: exactly two configurations"]
    );
    assert_eq!(
        errors("```table\nkind: summary\nmetrics: [goodput]\n```"),
        ["reports/r.md:11: error: table block: no configuration reports Goodput (goodput)"]
    );
    let e = errors("```table\nkind: pie\n```");
    assert!(
        e[0].contains(
            "unknown kind `pie`; expected summary, head-to-head, sla, runs, history or scorecard"
        ),
        "{e:?}"
    );
    assert_eq!(
        errors("```table\nkind: history\n```"),
        ["reports/r.md:11: error: table block: a history table needs `metrics`, such as [ttft:p50, output_throughput]"]
    );
    let e = errors("```table\nkind: history\nmetrics: [ttft:mean]\n```");
    assert!(
        e[0].contains("has Mean TTFT at one load on two dates or more, so there is no history"),
        "{e:?}"
    );
    let e =
        errors("```table\nkind: sla\nuse_cases: [{name: Chat, metric: ttft:p99}]\nload: 1\n```");
    assert!(
        e[0].contains("use case `Chat`: expected exactly one of `max` or `min`"),
        "{e:?}"
    );
    let e = errors("```table\nkind: sla\nuse_cases: [{name: Chat, metric: ttft:p99, max: 1}]\n```");
    assert!(e[0].contains("an sla table needs `load`"), "{e:?}");
    let e = errors("```table\nkind: summary\nmetrics: [x]\ncolour: red\n```");
    assert!(
        e[0].contains("unknown field `colour`") && e[0].contains("expected keys kind, title"),
        "{e:?}"
    );
}

#[test]
fn the_sla_table_passes_and_fails_each_use_case_at_one_load() {
    let p = page(
        "```table\nkind: sla\nload: 4\nuse_cases:\n  - {name: Chat, metric: ttft:p99, max: 200}\n  - {name: Batch, metric: output_throughput, min: 305}\n```",
    );
    assert_eq!(messages(&p), Vec::<String>::new());
    insta::assert_snapshot!(blocks_before_what_differs(&p));
}

/// A percentile target counts failed requests as misses: vLLM's p99 of 300 ms is within 400 ms,
/// but 3% of its requests failed where a p99 target leaves room for 1%.
#[test]
fn a_percentile_target_fails_when_too_many_requests_failed() {
    let p = page(
        "```table\nkind: sla\nload: 4\nuse_cases:\n  - {name: Chat, metric: ttft:p99, max: 400}\n```",
    );
    assert_eq!(messages(&p), Vec::<String>::new());
    let text = p.prose_html();
    assert!(
        text.contains(
            "<td class=\"fail\" title=\"3% of the requests failed: a TTFT p99 target counts them \
             as misses and allows 1%; sweep.csv:6\">✗ 300 ms <small>(failures)</small></td>"
        ),
        "{text}"
    );
    assert!(
        text.contains("<td class=\"pass\""),
        "SGLang had no failure: {text}"
    );
}

#[test]
fn spread_and_daily_capacity() {
    let p =
        page("CV `=cv(ttft, vllm, 1)`; capacity `=per_day(value(request_throughput, sglang, 4))`.");
    assert_eq!(messages(&p), Vec::<String>::new());
    let text = p.prose_html();
    assert!(text.contains(">20.0%<"), "{text}");
    assert!(text.contains(">345,600 requests per day<"), "{text}");
    // A latency is no rate: a day of it is an error, not 3.9 million.
    let p = page("`=per_day(value(ttft:mean, vllm, 1))`");
    let m = messages(&p);
    assert!(
        m.len() == 1 && m[0].contains("`per_day` needs a rate per second (req/s, tok/s, tok/s/GPU"),
        "{m:?}"
    );
}

#[test]
fn typed_numbers_may_group_thousands_and_arguments_still_split_at_commas() {
    let p = page(
        "`=claim(1,000 ms, value(ttft:mean,vllm,1))` `=claim(45 ms, value(ttft:mean, vllm, 1))`",
    );
    let m = messages(&p);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(
        m[0].contains("the prose says 1,000 ms, but the data gives 45.04 ms"),
        "{}",
        m[0]
    );
    assert!(
        p.prose_html().contains(">45 ms<"),
        "45 ms matches 45.04 at the typed precision"
    );
}

/// Two sweeps under one label: concurrency 1, 2 and rates 1, 2 req/s.
const TWO_SWEEPS: [(&str, &str); 2] = [
    (
        "conc.csv",
        "# benchdeck: load=concurrency:c, config.label=\"x\", ttft.p50=t (ms), succeeded=ok, failed=bad\n\
         c,t,ok,bad\n1,100,10,0\n2,150,10,0\n4,900,5,5\n",
    ),
    (
        "rate.csv",
        "# benchdeck: load=rate:r, config.label=\"x\", ttft.p50=t (ms), succeeded=ok, failed=bad\n\
         r,t,ok,bad\n1,400,10,0\n2,800,8,2\n",
    ),
];

fn two_sweeps(body: &str) -> ReportPage {
    let results: Vec<ImportedFile> = TWO_SWEEPS
        .iter()
        .map(|(name, text)| import(name, text.as_bytes()))
        .collect();
    let text = format!("---\ntitle: T\nresults: [\"*.csv\"]\n---\n{body}\n");
    build_report("reports/r.md", "r", &text, &results, &Palette::new())
}

#[test]
fn a_configuration_with_two_kinds_of_sweep_is_never_mixed_up() {
    let p = two_sweeps(
        "`=value(ttft:p50, x, 1 req/s)` `=value(ttft:p50, x, concurrency 1)` \
         `=stable(x, rate)` `=stable(x, concurrency)` `=claim(<1.0, stable(x, rate, ttft:p50 <= 300))`",
    );
    assert_eq!(messages(&p), Vec::<String>::new());
    let text = p.prose_html();
    for shown in [
        ">400 ms<",
        ">100 ms<",
        ">1 req/s<",
        ">concurrency 2<",
        ">&lt;1.0<",
    ] {
        assert!(text.contains(shown), "{shown} missing in {text}");
    }
    let p = two_sweeps("`=value(ttft:p50, x, 1)` `=stable(x)`");
    let m = messages(&p);
    assert!(
        m[0].contains(
            "`x` has runs at concurrency 1 and at 1 req/s; write `1 req/s` or `concurrency 1`"
        ),
        "{m:?}"
    );
    assert!(m[1].contains("`x` has both a concurrency sweep and a request-rate sweep; say which: `stable(x, rate)`"), "{m:?}");
}

#[test]
fn contents_and_section_numbers() {
    let body = "# Title\n\n## One\n\n### One a\n\n#### Deep\n\n## Two\n\n## Three\n";
    let p = page(body);
    let toc: Vec<(u8, &str, &str)> = p
        .toc
        .iter()
        .map(|e| (e.level, e.text.as_str(), e.id.as_str()))
        .collect();
    assert_eq!(
        toc,
        [
            (2, "One", "one"),
            (3, "One a", "one-a"),
            (2, "Two", "two"),
            (2, "Three", "three")
        ]
    );
    // Fewer than three sections: no contents unless asked for.
    assert!(page("## Only\n\n## Two\n").toc.is_empty());
    let results = vec![import("sweep.csv", DATA.as_bytes())];
    let numbered = build_report(
        "reports/r.md",
        "r",
        &format!(
            "---\ntitle: T\nresults: [sweep.csv]\nnumber_sections: true\ntoc: true\n---\n{body}"
        ),
        &results,
        &Palette::new(),
    );
    let texts: Vec<&str> = numbered.toc.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(texts, ["1 One", "1.1 One a", "2 Two", "3 Three"]);
    let html = numbered.prose_html();
    assert!(html.contains("<h2 id=\"two\">2 Two</h2>"), "{html}");
    assert!(html.contains("<h4 id=\"deep\">1.1.1 Deep</h4>"), "{html}");
    assert!(html.contains("<h1 id=\"title\">Title</h1>"), "{html}");
}

#[test]
fn a_report_without_a_decision_block_still_gets_the_requirements_form() {
    let decision = page("Text.")
        .decision
        .expect("two configurations to compare");
    assert_eq!(decision.candidates.len(), 2);
    assert!(decision.tree.is_none());
    assert_eq!(decision.constraints.len(), 1, "every request successful");
    assert_eq!(decision.criteria.len(), 4);
    assert_eq!(decision.load, 1.0);
    // One configuration (with two kinds of sweep): nothing to compare, no form and no error.
    let mixed = two_sweeps("Text.");
    assert!(mixed.decision.is_none());
    assert_eq!(messages(&mixed), Vec::<String>::new());
}

#[test]
fn hostile_or_odd_expressions_get_errors_not_panics_or_wrong_numbers() {
    let deep = format!("`={}1{}`", "ratio(".repeat(40), ")".repeat(40));
    let m = messages(&page(&deep));
    assert!(m[0].contains("expressions nest at most 16 deep"), "{m:?}");
    // A comma after a name is an argument separator, even before three digits.
    let m = messages(&page("`=value(ttft:mean,vllm,100)`"));
    assert!(m[0].contains("`vllm` has no run at load 100"), "{m:?}");
    // The typed figure must start with the number.
    let m = messages(&page(
        "`=claim(p99 under 406 ms, value(ttft:mean, vllm, 1))`",
    ));
    assert!(m[0].contains("expected a number as written"), "{m:?}");
    // "none" is a finding, not a number to compute with.
    let p = two_sweeps("`=ratio(stable(x, rate, ttft:p50 <= 1), stable(x, concurrency))`");
    let m = messages(&p);
    assert!(
        m[0].contains("`ratio` needs numbers, but one value is none"),
        "{m:?}"
    );
}

#[test]
fn a_table_load_that_could_be_concurrency_or_rate_is_an_error_saying_what_to_write() {
    let p = two_sweeps("```table\nkind: summary\nmetrics: [ttft:p50]\nload: 1\n```");
    let m = messages(&p);
    assert!(
        m[0].contains(
            "`load: 1` is ambiguous: `x` has runs at concurrency 1 and at 1 req/s; write \
             `load: 1 req/s` or `load: concurrency 1`"
        ),
        "{m:?}"
    );
    let p = two_sweeps(
        "```table\nkind: summary\nmetrics: [{metric: ttft:p50, load: 2}]\n```\n\n\
         ```table\nkind: sla\nload: 2\nuse_cases:\n  - {name: Chat, metric: ttft:p50, max: 500}\n```",
    );
    let m = messages(&p);
    assert_eq!(m.len(), 2, "a row's own load and an sla table's: {m:?}");
    assert!(
        m.iter().all(|m| m.contains("`load: 2` is ambiguous")),
        "{m:?}"
    );
    let p = two_sweeps(
        "```table\nkind: summary\nmetrics: [ttft:p50]\nload: 1 req/s\n```\n\n\
         ```table\nkind: summary\nmetrics: [ttft:p50]\nload: 4\n```",
    );
    assert_eq!(
        messages(&p),
        Vec::<String>::new(),
        "a kind written, or one kind at 4"
    );
    assert!(p.prose_html().contains(">400 ms<"), "{}", p.prose_html());
}

#[test]
fn a_flowchart_block_is_a_diagram_and_its_mistake_an_error_at_its_line() {
    let p = page("Intro.\n\n```flowchart\nA[Gateway] --> B[vLLM]\n```\n\nAfter.");
    assert_eq!(messages(&p), Vec::<String>::new());
    let diagram = p.blocks.iter().find_map(|b| match b {
        Block::Flowchart { flowchart } => Some(flowchart),
        _ => None,
    });
    assert_eq!(diagram.unwrap().description, "Diagram: Gateway to vLLM.");
    assert!(p.prose_html().contains("After."));
    let p = page("Intro.\n\n```flowchart\nA --> B\nB --> C\nsubgraph x\n```");
    let m = messages(&p);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(
        m[0].starts_with("reports/r.md:15: error: flowchart block: `subgraph` is not drawn here"),
        "{m:?}"
    );
}

/// Two configurations whose site-wide colours collide (slots 0 and 12 of a twelve-colour
/// palette) get distinct colours in the report, the same on every chart.
#[test]
fn configurations_of_a_report_never_share_a_colour_and_keep_it_on_every_chart() {
    let results = vec![import("sweep.csv", DATA.as_bytes())];
    let site: Palette = [("vllm".to_string(), 0), ("sglang".to_string(), 12)].into();
    let text = "---\ntitle: T\nresults: [sweep.csv]\n---\n\n```chart\nmetric: ttft\n```\n\n\
                ```chart\nkind: lines\nmetric: output_throughput\n```\n";
    let p = build_report("reports/r.md", "r", text, &results, &site);
    assert_eq!(messages(&p), Vec::<String>::new());
    let colours: Vec<Vec<(String, usize)>> = p
        .charts()
        .map(|c| {
            let mut s: Vec<(String, usize)> =
                c.series.iter().map(|s| (s.name.clone(), s.color)).collect();
            s.sort();
            s
        })
        .collect();
    assert_eq!(colours.len(), 2);
    assert_eq!(
        colours[0], colours[1],
        "one colour per configuration on every chart"
    );
    assert_eq!(
        colours[0],
        [("sglang".to_string(), 1), ("vllm".to_string(), 0)],
        "vllm keeps its site colour; sglang's (12, colour 0 again) is taken, so it gets the next"
    );
}

/// Two engines 2% apart in mean TTFT, each over 100 requests with a standard deviation of 9 ms:
/// the 95% interval of the difference (about ±5%) includes none.
const CLOSE: &str = "\
# benchdeck: load=rate:qps, config=engine, ttft.mean=ttft (ms), ttft.std=sd (ms)
# benchdeck: succeeded=ok, failed=bad
qps,engine,ttft,sd,ok,bad
1,vllm,45.04,9,100,0
1,sglang,45.94,9,100,0
";

fn close_page(body: &str) -> ReportPage {
    let results = vec![import("close.csv", CLOSE.as_bytes())];
    let text = format!("---\ntitle: T\nresults: [close.csv]\n---\n{body}\n");
    build_report("reports/r.md", "r", &text, &results, &Palette::new())
}

#[test]
fn a_difference_within_the_noise_reads_no_clear_difference_and_ties() {
    let p = close_page(
        "```table\nkind: head-to-head\nmetric: ttft:mean\nconfigs: [vllm, sglang]\n```\n\n\
         ```table\nkind: summary\nmetrics: [ttft:mean]\n```",
    );
    assert_eq!(messages(&p), Vec::<String>::new());
    let html = p.prose_html();
    assert!(
        html.contains("<td><span class=\"unclear\">no clear difference</span></td>"),
        "{html}"
    );
    // vLLM's value is 1.96% lower; the interval crosses zero.
    assert!(
        html.contains("1.96% <small class=\"ci\">(95% CI −"),
        "{html}"
    );
    // The summary bolds no best and awards nothing.
    assert!(!html.contains("class=\"best\""), "{html}");
    assert_eq!(html.matches("<small>(tied)</small>").count(), 2, "{html}");
    assert!(
        html.contains("<th scope=\"row\">Best for</th><td>–</td><td>–</td>"),
        "{html}"
    );
}

#[test]
fn what_differs_marks_the_cells_that_differ() {
    const TWO: &str = "\
# benchdeck: load=concurrency:c, config=engine, ttft.mean=ttft (ms), config.dataset=data, config.model=model
c,engine,ttft,data,model
8,vllm,45,sharegpt,m
8,sglang,46,random-1024-128,m
16,vllm,50,sharegpt,m
";
    let results = vec![import("two.csv", TWO.as_bytes())];
    let text = "---\ntitle: T\nresults: [two.csv]\n---\nText.\n";
    let p = build_report("reports/r.md", "r", text, &results, &Palette::new());
    let html = p.prose_html();
    let (_, section) = html
        .split_once("<details class=\"what-differs\">")
        .expect("a page of two configurations ends with the section");
    insta::assert_snapshot!(section);
    assert!(
        section.contains("<td class=\"differs\"><mark>sharegpt</mark></td>"),
        "{section}"
    );
    // What both share is one line, not a row of equal cells.
    assert!(
        section.contains("Shared by all: Model <strong>m</strong>"),
        "{section}"
    );
    assert!(
        !section.contains("<th scope=\"row\">Model</th>"),
        "{section}"
    );
    // The build warns once, naming the difference.
    assert!(
        messages(&p).iter().any(|m| m.contains(
            "workload. Workloads differ: dataset: vllm: sharegpt; sglang: random-1024-128."
        )),
        "{:?}",
        messages(&p)
    );
}

#[test]
fn what_differs_between_many_configurations_turns_on_its_side() {
    let mut csv = String::from("# benchdeck: load=concurrency:c, config=engine, ttft.mean=ttft (ms), config.dataset=data, config.model=model\nc,engine,ttft,data,model\n");
    for (i, engine) in ["a", "b", "c", "d", "e"].iter().enumerate() {
        csv.push_str(&format!("8,{engine},{},set-{i},m\n", 40 + i));
    }
    let results = vec![import("five.csv", csv.as_bytes())];
    let text = "---\ntitle: T\nresults: [five.csv]\n---\nText.\n";
    let p = build_report("reports/r.md", "r", text, &results, &Palette::new());
    let html = p.prose_html();
    let (_, section) = html.split_once("<details class=\"what-differs\">").unwrap();
    // A row per configuration, a column per thing that differs: it grows down, not across.
    assert!(section.contains("<th scope=\"col\">Configuration</th><th scope=\"col\">Engine</th><th scope=\"col\">Dataset</th>"), "{section}");
    assert!(section.contains("<tr><th scope=\"row\">e</th><td class=\"differs\"><mark>e</mark></td><td class=\"differs\"><mark>set-4</mark></td></tr>"), "{section}");
}

#[test]
fn the_runs_table_lists_every_run_with_its_numbers() {
    let p = page("```table\nkind: runs\n```");
    assert_eq!(messages(&p), Vec::<String>::new());
    let html = blocks_before_what_differs(&p);
    assert!(
        html.contains("<figcaption>Every run (6)</figcaption>"),
        "{html}"
    );
    // vLLM at 4 req/s: 97 ok and 3 failed, its TTFT p99 and throughput; no TPOT in the file.
    assert!(
        html.contains(
            "<tr><th scope=\"row\">vLLM</th><td title=\"sweep.csv:6\">4 req/s</td><td>97 / 3</td>\
             <td>–</td><td>300 ms</td><td>–</td><td>–</td><td>300 tok/s</td></tr>"
        ),
        "{html}"
    );
    assert!(!html.contains("<details"), "six rows are not collapsed");
}

#[test]
fn an_inline_value_over_different_workloads_says_so_briefly() {
    const TWO: &str = "\
# benchdeck: load=concurrency:c, config=engine, ttft.mean=ttft (ms), config.dataset=data
c,engine,ttft,data
8,vllm,45,sharegpt
8,sglang,90,random-1024-128
";
    let results = vec![import("two.csv", TWO.as_bytes())];
    let text = "---\ntitle: T\nresults: [two.csv]\n---\n\
        Ratio `=ratio(max(ttft, sglang), max(ttft, vllm))`.\n";
    let p = build_report("reports/r.md", "r", text, &results, &Palette::new());
    let html = p.prose_html();
    // A few words in the sentence; the values in the note's title.
    assert!(
        html.contains(
            "<small class=\"workload-differs\" title=\"Workloads differ: dataset: sglang: \
             random-1024-128; vllm: sharegpt.\">(workloads differ: dataset)</small>"
        ),
        "{html}"
    );
    assert!(messages(&p)
        .iter()
        .any(|m| m.contains("an inline value compares runs whose workloads differ")));
}

#[test]
fn a_grid_of_more_panels_than_its_picture_can_hold_is_refused_at_its_line() {
    let grid = |n: usize| {
        let panels = "  - {kind: bars, metric: ttft}\n".repeat(n);
        page(&format!(
            "\n```chart\nid: g\nkind: grid\npanels:\n{panels}```\n"
        ))
    };
    assert_eq!(
        messages(&grid(crate::report::charts::MAX_GRID_PANELS)),
        Vec::<String>::new()
    );
    assert_eq!(
        messages(&grid(crate::report::charts::MAX_GRID_PANELS + 1)),
        ["reports/r.md:12: error: grid `g`: 25 panels, expected at most 24 (the grid is drawn as \
          one picture; split it into several grids)"]
    );
}

/// vLLM's mean TTFT at 1 QPS is 45.04 ms, known to 43.25–46.83 ms from its mean, standard
/// deviation and 100 requests: a target of 46 ms is within that noise, 50 ms clearly met.
#[test]
fn a_target_within_the_noise_of_the_value_is_neither_met_nor_missed() {
    let p = page(
        "```table\nkind: sla\nload: 1\nconfigs: [vllm]\nuse_cases:\n  - {name: Tight, metric: ttft:mean, max: 46}\n  - {name: Loose, metric: ttft:mean, max: 50}\n  - {name: Strict, metric: ttft:mean, max: 40}\n```",
    );
    assert_eq!(messages(&p), Vec::<String>::new());
    let text = p.prose_html();
    let table = text.split("</figure>").next().unwrap();
    let cells: Vec<&str> = table
        .split("<td class=\"")
        .skip(1)
        .map(|c| c.split('"').next().unwrap())
        .collect();
    assert_eq!(cells, ["unclear", "pass", "fail"], "{text}");
    assert!(
        text.contains("title=\"within the noise of the target: 95% CI 43.25–46.83 ms; "),
        "{text}"
    );
    assert!(text.contains(">≈ 45.04 ms</td>"), "{text}");
    assert!(
        text.contains("≈: the value's 95% interval holds the target"),
        "the mark is explained: {text}"
    );
}

#[test]
fn a_load_point_where_every_request_failed_misses_every_target() {
    let data = "\
# benchdeck: load=rate:qps, config=engine, ttft.p99=ttft (ms), succeeded=ok, failed=bad
qps,engine,ttft,ok,bad
4,vllm,,0,100
4,sglang,120,100,0
";
    let results = vec![import("failed.csv", data.as_bytes())];
    let text = "---\ntitle: T\nresults: [failed.csv]\n---\n\n```table\nkind: sla\nload: 4\nuse_cases:\n  - {name: Chat, metric: ttft:p99, max: 500}\n```\n";
    let page = build_report("reports/r.md", "r", text, &results, &Palette::new());
    let html = page.prose_html();
    assert!(
        html.contains("<td class=\"fail\" title=\"failed.csv:3\">✗ every request failed</td>"),
        "{html}"
    );
}

/// A scorecard reads each configuration at the highest load where the target holds,
/// interpolated where it is crossed: vLLM's mean TTFT reaches 55 ms between 2 req/s (50.5 ms)
/// and 4 req/s (80 ms), at t = 4.5 / 29.5 of the way, so at ≈ 2.305 req/s with 206.8 tok/s;
/// SGLang starts above it.
#[test]
fn a_scorecard_interpolates_to_the_target_and_says_who_misses_it() {
    let p = page(
        "```table\nkind: scorecard\ntarget: {metric: ttft:mean, max: 55}\nmetrics: [ttft:mean, output_throughput]\n```",
    );
    assert_eq!(messages(&p), Vec::<String>::new());
    let html = blocks_before_what_differs(&p);
    assert!(
        html.contains(
            "<p class=\"table-lead\">At Mean TTFT ≤ 55 ms, Mean TTFT: vLLM 55 ms; SGLang does \
             not reach it.</p>"
        ),
        "{html}"
    );
    assert!(
        html.contains("<td>≈ 2.31 req/s</td><td>≈ 55 ms<small class=\"ci\">"),
        "{html}"
    );
    assert!(html.contains("<td>≈ 206.8 tok/s</td>"), "{html}");
    assert!(html.contains("not reached"), "{html}");
    // The reader may read it at half, three quarters, one and a half and twice the target
    // (two digits), the author's checked.
    let targets: Vec<&str> = html
        .split("\">")
        .filter_map(|part| part.strip_suffix(" ms</label"))
        .collect();
    assert_eq!(html.matches("type=\"radio\"").count(), 5, "{html}");
    assert!(html.contains("id=\"scorecard-11-2\" checked"), "{html}");
    assert!(
        html.contains(">28 ms</label>") && html.contains(">110 ms</label>"),
        "{targets:?}"
    );
    insta::assert_snapshot!(html);
    // Every load meets a low floor; a higher one is crossed between 2 and 4 req/s by SGLang.
    let p = page(
        "```table\nkind: scorecard\ntarget: {metric: output_tok_s_per_user, min: 6}\nmetrics: [output_throughput]\n```",
    );
    let html = blocks_before_what_differs(&p);
    assert!(html.contains("4 req/s<small>every load</small>"), "{html}");
    assert!(html.contains("<td>≈ 2.33 req/s</td>"), "{html}");
    assert!(
        html.contains(
            "At 6 tok/s per user, Output throughput: vLLM 300 tok/s, SGLang 201.7 tok/s."
        ),
        "{html}"
    );
    let e = messages(&page(
        "```table\nkind: scorecard\ntarget: {metric: ttft:mean}\n```",
    ));
    assert!(e[0].contains("one of `min` or `max`"), "{e:?}");
}
