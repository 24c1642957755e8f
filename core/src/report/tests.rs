use super::*;
use crate::chart::ChartKind;
use crate::import::import;
use crate::problem::Severity;

fn results() -> Vec<ImportedFile> {
    ["concurrency2-qwen.json", "llama-appended.jsonl"]
        .into_iter()
        .map(|name| {
            let path = format!("vllm/{name}");
            import(&path, &crate::fixtures::bytes(&path))
        })
        .collect()
}

const REPORT: &str = "---
title: Llama at three rates
date: 2025-10-20
summary: One engine, three request rates.
results: [\"vllm/llama-*.jsonl\"]
configs:
  - key: vllm
    label: vLLM 0.11
---
# Results

```chart
id: ttft
metric: ttft
stat: p99
```

Done.
";

#[test]
fn a_report_becomes_html_and_charts() {
    let page = build_report("reports/r.md", "r", REPORT, &results(), &Palette::new());
    assert_eq!(page.summary.title, "Llama at three rates");
    assert_eq!(page.summary.date.as_deref(), Some("2025-10-20"));
    assert_eq!(page.summary.runs, 3);
    assert_eq!(page.summary.charts, 1);
    assert_eq!(page.sources, vec!["vllm/llama-appended.jsonl"]);
    let chart = page.charts().next().unwrap();
    assert_eq!(chart.title, "TTFT p99 by load");
    let ChartKind::GroupedBars { categories } = &chart.kind else {
        panic!("expected grouped bars, got {:?}", chart.kind)
    };
    assert_eq!(categories, &vec!["5", "15", "∞"]);
    let series = &chart.series[0];
    assert_eq!(series.name, "vLLM 0.11");
    let ys: Vec<Option<f64>> = series.points.iter().map(|p| p.y).collect();
    assert_eq!(ys, vec![Some(75.0), Some(180.75), None]);
    assert_eq!(series.points[2].note, "every request failed");
    assert_eq!(series.points[0].source, "vllm/llama-appended.jsonl:1");
    // The file's own problems travel with the page.
    assert!(page
        .problems
        .iter()
        .any(|p| p.place().starts_with("vllm/llama-appended.jsonl:3")));
}

/// Every error of `page`, as text.
fn page_errors(page: &ReportPage) -> Vec<String> {
    page.problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .map(|p| p.to_string())
        .collect()
}

fn errors_of(report: &str) -> Vec<String> {
    build_report("reports/r.md", "r", report, &results(), &Palette::new())
        .problems
        .into_iter()
        .filter(|p| p.severity == Severity::Error && p.file == "reports/r.md")
        .map(|p| p.to_string())
        .collect()
}

#[test]
fn directives_naming_missing_data_are_errors_at_their_line() {
    let bad_metric = REPORT.replace("metric: ttft", "metric: ttfx");
    assert_eq!(
        errors_of(&bad_metric),
        vec![format!(
            "reports/r.md:13: error: chart `ttft`: unknown metric `ttfx`; expected one of {}",
            crate::quantity::QUANTITY_NAMES
        )]
    );
    let bad_config = REPORT.replace("stat: p99", "stat: p99\nconfigs: [sglang]");
    assert_eq!(
        errors_of(&bad_config),
        vec!["reports/r.md:13: error: chart `ttft`: configuration `sglang` is not in this report's results; found vllm"]
    );
    let unreported = REPORT.replace("metric: ttft\nstat: p99", "metric: e2e\nstat: p90");
    assert_eq!(
        errors_of(&unreported),
        vec!["reports/r.md:13: error: chart `ttft`: no run of vllm reports End-to-end latency p90"]
    );
    let typo = REPORT.replace("stat: p99", "stat: p99\ncolour: red");
    let errors = errors_of(&typo);
    assert!(errors[0].contains("unknown field `colour`"), "{errors:?}");
}

#[test]
fn front_matter_problems_name_the_key() {
    let no_glob_match = REPORT.replace("vllm/llama-*.jsonl", "sglang/*.jsonl");
    let errors = errors_of(&no_glob_match);
    assert!(
        errors.contains(&"reports/r.md:2: error: front matter `results`: `sglang/*.jsonl` matches no file in results/".to_string()),
        "{errors:?}"
    );
    let errors = errors_of("# no front matter\n");
    assert_eq!(errors.len(), 1);
    assert!(errors[0].starts_with("reports/r.md:1: error: expected front matter"));
    let errors = errors_of("---\ntitle: x\nsumary: typo\n---\n");
    assert!(errors[0].contains("unknown field `sumary`"), "{errors:?}");
    let errors = errors_of("---\ntitle: x\n");
    assert!(errors[0].contains("not closed"), "{errors:?}");
}

#[test]
fn chart_ids_must_be_file_names_and_unique() {
    let report = "---\ntitle: T\nresults: [\"vllm/llama-*.jsonl\"]\n---\n\
                  ```chart\nid: ../../etc\nmetric: ttft\nstat: mean\n```\n\n\
                  ```chart\nid: a\nmetric: ttft\nstat: mean\n```\n\n\
                  ```chart\nid: a\nmetric: tpot\nstat: mean\n```\n";
    let page = build_report("reports/r.md", "r", report, &results(), &Palette::new());
    assert_eq!(page.summary.charts, 1);
    let text = page_errors(&page).join("\n");
    assert!(text.contains("reports/r.md:6"), "{text}");
    assert!(
        text.contains("id `../../etc` cannot be a file name"),
        "{text}"
    );
    assert!(text.contains("reports/r.md:18"), "{text}");
    assert!(text.contains("already has the id `a`"), "{text}");
}

/// A report over both fixtures with one chart block of `body`.
fn chart_of(body: &str) -> Result<crate::chart::ChartSpec, Vec<String>> {
    let report =
        format!("---\ntitle: T\nresults: [\"vllm/*\"]\n---\n\n```chart\nid: c\n{body}\n```\n");
    let page = build_report("reports/r.md", "r", &report, &results(), &Palette::new());
    let chart = page.charts().next().cloned();
    chart.ok_or_else(|| {
        page.problems
            .iter()
            .filter(|p| p.file == "reports/r.md")
            .map(|p| p.to_string())
            .collect()
    })
}

#[test]
fn lines_with_a_band_an_sla_and_the_breaking_point() {
    let spec = chart_of(
        "kind: lines\nmetric: ttft\nstat: median\nband: [p50, p99]\nsla: 150\nbreaking: true\n\
         configs: [vllm]\ny_scale: log",
    )
    .unwrap();
    assert_eq!(spec.kind, ChartKind::Lines);
    assert_eq!(spec.y.scale, crate::chart::Scale::Log);
    let xs: Vec<f64> = spec.series[0].points.iter().map(|p| p.x).collect();
    assert_eq!(xs, vec![5.0, 15.0, f64::INFINITY]);
    let first = &spec.series[0].points[0];
    assert_eq!((first.lo, first.hi), (Some(50.25), Some(75.0)));
    // The all-failed point is a gap with its reason, never a zero.
    let last = &spec.series[0].points[2];
    assert_eq!(last.y, None);
    assert_eq!(last.note, "every request failed");
    assert!(spec.annotations.iter().any(|a| matches!(
        a,
        crate::chart::Annotation::Threshold { value, label, .. } if *value == 150.0 && label == "SLA 150 ms"
    )));
    // Every request fails at ∞: the sweep breaks there.
    assert!(
        spec.annotations.iter().any(|a| matches!(
            a,
            crate::chart::Annotation::Marker { x, .. } if x.is_infinite()
        )),
        "{:?}",
        spec.annotations
    );
}

#[test]
fn percentiles_and_head_to_head_at_one_load() {
    let spec = chart_of("kind: percentiles\nmetric: ttft\nload: 15\nconfigs: [vllm]").unwrap();
    let ChartKind::GroupedBars { categories } = &spec.kind else {
        panic!("{:?}", spec.kind)
    };
    assert_eq!(categories, &["p50", "p90", "p95", "p99"]);
    assert_eq!(spec.series[0].points[3].y, Some(180.75));
    assert!(
        spec.series[0].points[1].y.is_none(),
        "p90 is not in the file"
    );

    let spec =
        chart_of("kind: hbars\nmetrics: [ttft:p99, output_throughput]\nload: 15\nconfigs: [vllm]")
            .unwrap();
    let ChartKind::HBars { metrics } = &spec.kind else {
        panic!("{:?}", spec.kind)
    };
    assert_eq!(metrics[0].label, "TTFT p99");
    assert_eq!(metrics[1].unit, "tok/s");
    assert_eq!(spec.series[0].points[0].y, Some(180.75));

    let missing_load = chart_of("kind: percentiles\nmetric: ttft\nconfigs: [vllm]").unwrap_err();
    assert!(
        missing_load[0].contains("has 3 load points; say which with `load:` (one of 5, 15, ∞)"),
        "{missing_load:?}"
    );
}

#[test]
fn scatter_cdf_histogram_and_box() {
    let spec =
        chart_of("kind: scatter\nx: output_throughput\ny: ttft:p99\nconfigs: [vllm]").unwrap();
    assert_eq!(spec.kind, ChartKind::Scatter);
    assert_eq!(spec.x.better, Some(crate::quantity::Better::Higher));
    assert_eq!(spec.y.better, Some(crate::quantity::Better::Lower));

    // Per-request samples come from the Qwen fixture (label-less: keyed by its engine).
    let cdf = chart_of("kind: cdf\nmetric: ttft\nconfigs: [openai-chat]\nsla: 190").unwrap();
    assert_eq!(cdf.kind, ChartKind::Cdf);
    let ys: Vec<f64> = cdf.series[0].points.iter().filter_map(|p| p.y).collect();
    // One of its four requests failed: a miss at every latency, so the curve ends at 75%.
    assert_eq!(
        ys.last().copied(),
        Some(75.0),
        "the CDF ends at the share that succeeded"
    );
    assert_eq!(cdf.series[0].name, "openai-chat (25% failed)");
    let hist = chart_of("kind: histogram\nmetric: e2e\nconfigs: [openai-chat]").unwrap();
    assert!(matches!(hist.kind, ChartKind::Histogram { .. }));
    let boxes = chart_of("kind: box\nmetric: ttft\nconfigs: [openai-chat]").unwrap();
    assert!(boxes.series[0].points[0].summary.is_some());

    let no_samples = chart_of("kind: cdf\nmetric: ttft\nload: 5\nconfigs: [vllm]").unwrap_err();
    assert!(
        no_samples[0].contains("has no per-request TTFT samples"),
        "{no_samples:?}"
    );
    let bad_kind = chart_of("kind: pie\nmetric: ttft").unwrap_err();
    assert!(bad_kind[0].contains("unknown kind `pie`"), "{bad_kind:?}");
    let bad_scale =
        chart_of("kind: lines\nmetric: ttft\nx_scale: squared\nconfigs: [vllm]").unwrap_err();
    assert!(
        bad_scale[0].contains("scale `squared` is not `linear` or `log`"),
        "{bad_scale:?}"
    );
}

#[test]
fn latency_charts_carry_the_statistics_a_reader_can_switch_to() {
    let spec = chart_of("metric: ttft\nstat: mean\nconfigs: [vllm]").unwrap();
    let labels: Vec<&str> = spec.alternatives.iter().map(|a| a.label.as_str()).collect();
    assert_eq!(
        labels,
        ["mean", "median", "p99"],
        "p90 and p95 are not in the files"
    );
    let p99 = spec.with_view(Some(2), None);
    assert_eq!(p99.y.title, "TTFT p99");
    assert_eq!(p99.series[0].points[0].y, Some(75.0));
    let log = spec.with_view(None, Some(crate::chart::Scale::Log));
    assert_eq!(log.series, spec.series);
    assert_eq!(log.y.scale, crate::chart::Scale::Log);
    // Throughput has one value per run: nothing to switch.
    let tput = chart_of("metric: output_throughput\nconfigs: [vllm]").unwrap();
    assert!(tput.alternatives.is_empty());
}

#[test]
fn an_embed_page_takes_its_chart_its_grid_or_one_panel_of_it() {
    let report = "---\ntitle: T\nresults: [\"vllm/*\"]\n---\n\n```chart\nid: glance\nkind: grid\n\
                  configs: [vllm]\npanels:\n  - {kind: lines, metric: ttft, stat: p99}\n  \
                  - {kind: bars, metric: success_rate, id: ok}\n```\n\n```chart\nid: alone\n\
                  metric: ttft\nconfigs: [vllm]\n```\n";
    let page = build_report("reports/r.md", "r", report, &results(), &Palette::new());
    let taken = |id: &str| page.clone().take_embedded(id);
    assert!(matches!(taken("glance"), Some(Block::Grid { grid }) if grid.panels.len() == 2));
    assert!(matches!(taken("ok"), Some(Block::Chart { chart }) if chart.id == "ok"));
    assert!(matches!(taken("alone"), Some(Block::Chart { chart }) if chart.id == "alone"));
    assert!(taken("missing").is_none());
    let mut rest = page.clone();
    rest.take_embedded("alone");
    assert_eq!(rest.charts().count(), 2, "the other blocks stay");
}

#[test]
fn a_grid_builds_its_panels_and_checks_every_id() {
    let report = "---\ntitle: T\nresults: [\"vllm/*\"]\n---\n\n```chart\nid: glance\nkind: grid\n\
                  columns: 2\nconfigs: [vllm]\npanels:\n  - {kind: lines, metric: ttft, stat: p99}\n  \
                  - {kind: bars, metric: success_rate, id: ok}\n```\n";
    let page = build_report("reports/r.md", "r", report, &results(), &Palette::new());
    let grid = page.grids().next().expect("a grid");
    assert_eq!(grid.columns, 2);
    let ids: Vec<&str> = grid.panels.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["glance-1", "ok"]);
    assert_eq!(page.summary.charts, 2);
    assert_eq!(page.charts().count(), 2, "panels are charts the app draws");
    // Panels inherit the grid's configurations.
    assert!(grid.panels.iter().all(|p| p.series.len() == 1));

    let nested = report.replace(
        "- {kind: bars, metric: success_rate, id: ok}",
        "- {kind: grid}",
    );
    let errors = errors_of(&nested);
    assert!(errors[0].contains("a panel cannot be a grid"), "{errors:?}");
    let clash = report.replace("id: ok}", "id: glance}");
    let errors = errors_of(&clash);
    assert!(
        errors[0].contains("already has the id `glance`"),
        "{errors:?}"
    );
    let empty = report.replace("panels:", "unused_panels:");
    assert!(errors_of(&empty)[0].contains("unknown field `unused_panels`"));
}

mod colours;
mod cost;
mod decision;
mod directives;
mod filters;
mod seeds;
