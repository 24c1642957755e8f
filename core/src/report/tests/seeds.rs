//! What the seed documents draw, on the repository's own result files: seed 004's latency
//! against output tokens with its fitted 10.2 ms per token, its percentiles under several SLA
//! lines, its queue time as shares of 100% and its dashboard grid; seed 002's prompts beside each
//! load; seed 000's setups over their whole sweeps.

use super::*;
use crate::chart::Annotation;

/// The report `body` on the result files of `results/<folder>/`, with `front` added to the
/// front matter.
fn on(folder: &str, front: &str, body: &str) -> ReportPage {
    let root = format!("{}/..", env!("CARGO_MANIFEST_DIR"));
    let mut results = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(format!("{root}/results/{folder}"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for path in paths {
        let name = format!("{folder}/{}", path.file_name().unwrap().to_string_lossy());
        results.push(import(&name, &std::fs::read(&path).unwrap()));
    }
    let text = format!("---\ntitle: T\nresults: [\"{folder}/*\"]\n{front}---\n\n{body}\n");
    build_report("reports/r.md", "r", &text, &results, &Palette::new())
}

fn week2(body: &str) -> ReportPage {
    on("week-2-baseline", "", body)
}

/// The report's own problems, but the note that its folder's configurations were measured on
/// different workloads (they are the seed's separate tests).
fn problems(page: &ReportPage) -> Vec<String> {
    page.problems
        .iter()
        .filter(|p| p.place().starts_with("reports/"))
        .map(ToString::to_string)
        .filter(|p| !p.contains("differ in workload"))
        .collect()
}

const BY_OUTPUT_TOKENS: &str = "```chart
id: by-tokens
kind: lines
x: output_tokens
metric: e2e
stat: mean
fit: true
series:
  - {name: Short prompt, configs: [sys-short-10, sys-short-20, sys-short-50, sys-short-100]}
  - {name: Medium prompt, configs: [sys-medium-50]}
  - {name: Long prompt, configs: [sys-long-50]}
```";

#[test]
fn latency_against_output_tokens_is_a_line_per_prompt_length_with_its_fitted_slope() {
    let page = week2(BY_OUTPUT_TOKENS);
    assert_eq!(problems(&page), Vec::<String>::new());
    let spec = page.charts().next().unwrap();
    assert_eq!(spec.kind, ChartKind::Lines);
    assert_eq!(spec.x.title, "Output tokens");
    let xs: Vec<f64> = spec.series[0].points.iter().map(|p| p.x).collect();
    assert_eq!(xs, [10.0, 20.0, 50.0, 100.0]);
    assert!((spec.series[0].points[3].y.unwrap() - 1021.0).abs() < 1e-9);
    assert_eq!(spec.series[1].points.len(), 1);
    // Seed 004: "Its slope (10.2ms per token)"; by hand through the four means, 10.18.
    let [Annotation::Fit { series, slope, .. }] = spec.annotations.as_slice() else {
        panic!("{:?}", spec.annotations)
    };
    assert_eq!(
        *series, 0,
        "one point is no line: only the short prompt's is fitted"
    );
    assert!((slope - 10.18).abs() < 0.005, "{slope}");
    assert!(
        spec.caption.contains(
            "Dashed: least-squares lines, Short prompt 10.18 ms per output token (R² 1.00, 4 \
             points)."
        ),
        "{}",
        spec.caption
    );
    assert!(
        !spec.caption.contains("output length: "),
        "the lengths are the x axis, not a workload note: {}",
        spec.caption
    );
    insta::assert_snapshot!(
        "lines_against_output_tokens",
        crate::chart::to_svg(spec, (640, 360), &Default::default()).unwrap()
    );
}

#[test]
fn the_fitted_slope_and_the_latency_per_token_are_inline_values() {
    let page = week2(
        "`=claim(10.2 ms per output token, fit(e2e:mean, output_tokens, sys-short-10, sys-short-20, sys-short-50, sys-short-100))`; \
         `=value(e2e_per_output_token, sys-short-10, 1)`, \
         `=claim(0.0105 s/tok, seconds(value(e2e_per_output_token, sys-short-10, 1)))`, \
         `=value(output_tok_s_per_request, sys-short-100, 1)`.",
    );
    assert_eq!(problems(&page), Vec::<String>::new());
    let html = page.prose_html();
    assert!(html.contains(">10.2 ms per output token<"), "{html}");
    assert!(
        html.contains("10.18 ms per output token in the data"),
        "{html}"
    );
    assert!(html.contains(">10.5 ms/tok<"), "{html}");
    assert!(html.contains(">0.0105 s/tok<"), "{html}");
    assert!(html.contains(">97.94 tok/s<"), "{html}");
}

#[test]
fn a_key_the_kind_does_not_take_is_an_error_naming_the_keys_it_does() {
    let page = week2("```chart\nkind: bars\nx: output_tokens\nmetric: e2e\n```");
    let e = problems(&page);
    assert!(
        e[0].contains("kind `bars` does not take `x` (to draw against output or prompt tokens, use `kind: lines`); its keys are id, title, caption, kind, configs, metric, stat, error_bars, sla"),
        "{e:?}"
    );
    let page = week2("```chart\nkind: lines\nx: seconds\nmetric: e2e\n```");
    assert!(
        problems(&page)[0].contains("`x: seconds`: a lines chart draws against the load"),
        "{:?}",
        problems(&page)
    );
    let page = week2("```chart\nkind: lines\nfit: true\nmetric: e2e\nconfigs: [sys-short-10]\n```");
    assert!(
        problems(&page)[0].contains("`series` and `fit` draw against tokens"),
        "{:?}",
        problems(&page)
    );
    let page = week2(
        "```chart\nkind: grid\npanels:\n  - {kind: cv, span: 3, configs: [sys-short-10]}\n```",
    );
    assert!(
        problems(&page)[0].contains("`span: 3`: a panel spans 1 to 2 of the grid's 2 columns"),
        "{:?}",
        problems(&page)
    );
    let page = week2("```chart\nkind: cv\nspan: 2\n```");
    assert!(
        problems(&page)[0].contains("does not take `span` (`span` places a grid's panel)"),
        "{:?}",
        problems(&page)
    );
}

#[test]
fn percentile_bars_take_several_sla_lines_and_a_cdf_one() {
    let page = week2(
        "```chart\nkind: percentiles\nmetric: e2e\nload: 16\nconfigs: [production]\nsla: [1500, 2000, 3000]\n```",
    );
    assert_eq!(problems(&page), Vec::<String>::new());
    let spec = page.charts().next().unwrap();
    let labels: Vec<&str> = spec
        .annotations
        .iter()
        .filter_map(|a| match a {
            Annotation::Threshold { label, .. } => Some(label.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(labels, ["SLA 1,500 ms", "SLA 2,000 ms", "SLA 3,000 ms"]);
    insta::assert_snapshot!(
        "percentiles_under_three_slas",
        crate::chart::to_svg(spec, (640, 360), &Default::default()).unwrap()
    );
}

#[test]
fn the_queue_time_as_shares_of_one_hundred_and_in_words() {
    let page = week2(
        "```chart\nkind: breakdown\nstat: p50\nshare: true\nparts: [Queue time, Generation time]\nconfigs: [production-queue]\n```\n\n\
         `=claim(10.47 s, seconds(value(ttft:p50, production-queue, 16)))` of queue against \
         `=claim(1.78 s, seconds(diff(value(e2e:p50, production-queue, 16), value(ttft:p50, production-queue, 16))))` \
         of generation: `=claim(85%, share(value(ttft:p50, production-queue, 16), value(e2e:p50, production-queue, 16)))` waiting.",
    );
    assert_eq!(problems(&page), Vec::<String>::new());
    let spec = page.charts().next().unwrap();
    assert_eq!(spec.series[0].name, "Queue time");
    assert_eq!(spec.y.unit, "%");
    let html = page.prose_html();
    for shown in [
        ">10.47 s<",
        ">1.78 s<",
        ">85%<",
        "10.47 s in the data",
        "85.47% in the data",
    ] {
        assert!(html.contains(shown), "{shown}: {html}");
    }
    // A claim in the data's unit would not agree: 10.47 against 10,470 ms.
    let page = week2("`=claim(10.47 s, value(ttft:p50, production-queue, 16))`");
    assert!(
        problems(&page)[0].contains("the data gives 10,470 ms"),
        "{:?}",
        problems(&page)
    );
    let page = week2("`=seconds(value(output_throughput, production, 16))` `=diff(value(e2e:p50, production, 16), value(output_throughput, production, 16))`");
    let e = problems(&page);
    assert!(
        e[0].contains("`seconds` turns milliseconds into seconds, but the value is 949 tok/s"),
        "{e:?}"
    );
    assert!(
        e[1].contains("`diff` subtracts values of one unit"),
        "{e:?}"
    );
}

#[test]
fn a_dashboard_grid_spans_a_panel_over_its_row() {
    let page = week2(
        "```chart
id: dashboard
kind: grid
columns: 2
panels:
  - {kind: lines, x: output_tokens, metric: e2e, stat: mean, fit: true, series: [{name: Short prompt, configs: [sys-short-10, sys-short-20, sys-short-50, sys-short-100]}]}
  - {kind: percentiles, metric: e2e, load: 16, configs: [production], sla: 1500}
  - {kind: percentiles, metric: e2e, load: 16, percentiles: [50, 95, 99], configs: [ultra-short-qa, short-qa, code, medium-explanations, long-form], sla: [1500, 2000], span: 2}
  - {kind: breakdown, stat: p50, share: true, parts: [Queue time, Generation time], configs: [production-queue]}
  - {kind: hbars, metrics: [output_throughput, request_throughput], load: 16, configs: [production]}
```",
    );
    assert_eq!(problems(&page), Vec::<String>::new());
    let grid = page.grids().next().unwrap();
    assert_eq!(grid.spans, [1, 1, 2, 1, 1]);
    assert_eq!(
        crate::chart::grid_cells(5, &grid.spans, 2),
        [(0, 0, 1), (0, 1, 1), (1, 0, 2), (2, 0, 1), (2, 1, 1)]
    );
    let svg =
        crate::chart::grid_to_svg(&grid.panels, 2, &grid.spans, 960, &Default::default()).unwrap();
    insta::assert_snapshot!("dashboard_grid", svg);
}

#[test]
fn seed_002s_tables_give_the_prompts_beside_each_load() {
    let page = on(
        "vllm-vs-sglang",
        "",
        "```table\nkind: head-to-head\nmetric: ttft:mean\nconfigs: [vllm, sgl]\nworkload: [requests, completed]\n```",
    );
    assert_eq!(problems(&page), Vec::<String>::new());
    let html = page.prose_html();
    let table = html.split("</figure>").next().unwrap();
    assert!(
        table.contains("<th scope=\"col\">Load</th><th scope=\"col\" class=\"workload\">Prompts</th><th scope=\"col\" class=\"workload\">Completed</th>"),
        "{table}"
    );
    assert!(table.contains("<td class=\"workload\">120</td>"), "{table}");
    assert!(
        table.contains("<td class=\"workload\">4,200</td>"),
        "{table}"
    );
    insta::assert_snapshot!("head_to_head_with_prompts", table);
    let page = on(
        "vllm-vs-sglang",
        "",
        "```table\nkind: head-to-head\nmetric: ttft:mean\nconfigs: [vllm, sgl]\nworkload: [seconds]\n```",
    );
    assert!(problems(&page)[0].contains("`workload: seconds`: expected requests, completed"));
}

#[test]
fn seed_000s_setups_side_by_side_over_their_whole_sweeps() {
    let page = super::decision::production();
    let spec = page
        .charts()
        .find(|c| c.id == "complete-comparison")
        .expect("the report draws seed 000's complete comparison");
    let ChartKind::HBars { metrics } = &spec.kind else {
        panic!("{:?}", spec.kind)
    };
    let labels: Vec<&str> = metrics.iter().map(|m| m.label.as_str()).collect();
    assert!(labels.contains(&"Max stable request rate"), "{labels:?}");
    assert!(
        labels.contains(&"Success rate (all requests)"),
        "{labels:?}"
    );
    let row = |label: &str| labels.iter().position(|l| *l == label).unwrap();
    let value = |series: usize, label: &str| spec.series[series].points[row(label)].y;
    // Seed 000: max stable RPS 10, 10, 2 and none for LLaMA (the blog plots 1.0, its table "<1.0").
    let stable = "Max stable request rate";
    assert_eq!(
        (0..4).map(|s| value(s, stable)).collect::<Vec<_>>(),
        [Some(10.0), Some(10.0), Some(2.0), None]
    );
    assert!(spec.series[3].points[row(stable)]
        .note
        .contains("already at 1 req/s"));
    // 407 of 640 requests of the baseline succeeded over its runs (the blog's 64.7% adds 20 it
    // does not publish).
    let overall = value(2, "Success rate (all requests)").unwrap();
    assert!((overall - 407.0 / 640.0 * 100.0).abs() < 1e-9, "{overall}");
    let e = problems(&on(
        "production-stack",
        "",
        "```chart\nkind: hbars\nmetrics: [stable_rate:rate]\nload: 1\nconfigs: [qwen-rayserve]\n```\n\n\
         ```chart\nkind: hbars\nmetrics: [stable_rate]\nconfigs: [qwen-rayserve]\n```",
    ));
    assert!(
        e[0].contains("`stable_rate:rate` is taken over the whole sweep; leave out `load`"),
        "{e:?}"
    );
    assert!(
        e[1].contains("write `stable_rate:rate` or `stable_rate:concurrency`"),
        "{e:?}"
    );
}

#[test]
fn a_window_value_is_the_number_the_windows_chart_shows() {
    let page = on(
        "model-distributions",
        "",
        "```chart\nkind: windows\nstat: p95\nconfigs: [synthetic-gpt]\n```\n\n\
         `=window(p95, synthetic-gpt, 2, median)` `=window(tok_s, synthetic-gpt, 2, slowest)` \
         `=seconds(window(p99, synthetic-gpt, 2, max, 30))` `=window(p95, synthetic-gpt, 2, typical)`",
    );
    let spec = page.charts().next().unwrap();
    let html = page.prose_html();
    let median = html
        .split("<span class=\"value\"")
        .nth(1)
        .and_then(|v| v.split('>').nth(1))
        .and_then(|v| v.split('<').next())
        .unwrap();
    assert!(
        spec.caption.contains(&format!("(median window {median})")),
        "{median}: {}",
        spec.caption
    );
    assert!(html.contains("(the highest end-to-end p95)"), "{html}");
    assert!(html.contains("one of 20 windows of 30 s"), "{html}");
    let e = problems(&page);
    assert!(
        e[0].contains("`typical`: expected which window: median, min, max, first, last or slowest"),
        "{e:?}"
    );
}

#[test]
fn money_reads_as_money_in_prose_tables_and_tiles() {
    let page = super::decision::production();
    let html = page.prose_html();
    assert!(
        html.contains(">$1.23 per million output tokens</span>"),
        "prose"
    );
    assert!(html.contains(">$1.23/1M tok</span>"), "head-to-head");
    assert!(
        !html.contains(" $/1M tok<"),
        "no number before a dollar sign"
    );
    let page = on(
        "production-stack",
        "configs:\n  - key: qwen-rayserve-sharegpt\n    price: {gpu_hour: 1.418, gpus: 1}\n",
        "```tiles\n- label: Cost\n  value: value(cost_per_1m_output, qwen-rayserve-sharegpt, 64)\n```\n\n\
         `=claim($1.23 per million output tokens, value(cost_per_1m_output, qwen-rayserve-sharegpt, 64))`",
    );
    assert_eq!(problems(&page), Vec::<String>::new());
    let html = page.prose_html();
    assert!(
        html.contains("data-unit=\"$\">$1.23</span> <span class=\"tile-unit\">per million output tokens</span>"),
        "{html}"
    );
}

#[test]
fn counts_over_a_configurations_runs() {
    let page = on(
        "production-stack",
        "",
        "`=requests(qwen-rayserve, concurrency 1)` `=requests(qwen-rayserve, 10 req/s)` \
         `=claim(63.6%, overall(success_rate, deepseek-baseline))` `=overall(latency, qwen-rayserve)`",
    );
    let html = page.prose_html();
    assert!(html.contains(">20 requests<"), "{html}");
    assert!(html.contains(">300 requests<"), "{html}");
    assert!(html.contains("407 of 640 requests"), "{html}");
    assert!(
        problems(&page)[0].contains("`overall(latency, …)`: expected success_rate or error_rate"),
        "{:?}",
        problems(&page)
    );
}

/// AIPerf's timeslices beside its summary (`tests/fixtures/aiperf/timeslices/`): the windows
/// chart draws the slices as the run's windows, leaves out the slice of 6 requests' neighbour
/// with fewer than five, and refuses to cut them again.
#[test]
fn a_windows_chart_draws_a_tools_time_slices() {
    let files = crate::fixtures::import_folder(
        "aiperf/timeslices",
        &[
            "profile_export_aiperf.json",
            "profile_export_aiperf_timeslices.json",
        ],
        "sliced",
    );
    let page = |body: &str| {
        let text = format!("---\ntitle: T\nresults: [\"sliced/*\"]\n---\n\n{body}\n");
        build_report("reports/r.md", "r", &text, &files, &Palette::new())
    };
    let ok = page("```chart\nkind: windows\nstat: p95\nmetric: ttft\n```");
    assert_eq!(problems(&ok), Vec::<String>::new());
    let spec = ok.charts().next().unwrap();
    assert_eq!(spec.title, "TTFT p95 per 10 s window");
    // Two slices with successes (130 and 480 ms), one of failures only: left out.
    assert_eq!(spec.series[0].points[0].values, vec![130.0, 480.0]);
    assert!(
        spec.caption.contains("One window with fewer than 5"),
        "{}",
        spec.caption
    );
    assert!(
        spec.caption
            .contains("TTFT p95 as the tool summarised each of its time slices"),
        "{}",
        spec.caption
    );
    let tokens = page("```chart\nkind: windows\nstat: tok_s\n```");
    assert!(
        problems(&tokens)[0].contains("its tool's time slices"),
        "{:?}",
        problems(&tokens)
    );
    let cut = page("```chart\nkind: windows\nwindow: 5\n```");
    let e = problems(&cut);
    assert!(
        e[0].contains(
            "its tool cut the run into 10 s slices, which cannot be cut again; give `window: 10`"
        ),
        "{e:?}"
    );
}

/// MLPerf's constraints are drawn as lines on charts of the statistic they hold (p99 TTFT and
/// TPOT), and on no other.
#[test]
fn mlperf_constraints_are_lines_on_charts_of_the_p99_they_limit() {
    let files = vec![crate::fixtures::import_named(
        "mlperf/server_mlperf_log_summary.txt",
        "mlperf/mlperf_log_summary.txt",
    )];
    let page = |body: &str| {
        let text = format!("---\ntitle: T\nresults: [\"mlperf/*\"]\n---\n\n{body}\n");
        build_report("reports/r.md", "r", &text, &files, &Palette::new())
    };
    let labels = |p: &ReportPage| -> Vec<String> {
        p.charts()
            .flat_map(|c| c.annotations.iter())
            .filter_map(|a| match a {
                Annotation::Threshold { label, .. } => Some(label.clone()),
                _ => None,
            })
            .collect()
    };
    let p99 = page("```chart\nkind: bars\nmetric: ttft\nstat: p99\nsla: 1500\n```");
    assert_eq!(labels(&p99), ["SLA 1,500 ms", "MLPerf limit 2,000 ms"]);
    let tpot = page("```chart\nkind: percentiles\nmetric: tpot\n```");
    assert_eq!(labels(&tpot), ["MLPerf limit 100 ms"]);
    let mean = page("```chart\nkind: lines\nmetric: ttft\nstat: mean\n```");
    assert_eq!(labels(&mean), Vec::<String>::new());
}
