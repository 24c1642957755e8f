use super::*;
use crate::import::import;
use crate::problem::Severity;

fn results() -> Vec<ImportedFile> {
    let dir = format!("{}/../tests/fixtures/vllm", env!("CARGO_MANIFEST_DIR"));
    ["concurrency2-qwen.json", "llama-appended.jsonl"]
        .into_iter()
        .map(|name| {
            let bytes = std::fs::read(format!("{dir}/{name}")).unwrap();
            import(&format!("vllm/{name}"), &bytes)
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
            "reports/r.md:13: error: chart block: unknown metric `ttfx`; expected one of {}",
            crate::quantity::QUANTITY_NAMES
        )]
    );
    let bad_config = REPORT.replace("stat: p99", "stat: p99\nconfigs: [sglang]");
    assert_eq!(
        errors_of(&bad_config),
        vec!["reports/r.md:13: error: chart block: configuration `sglang` is not in this report's results; found vllm"]
    );
    let unreported = REPORT.replace("metric: ttft\nstat: p99", "metric: e2e\nstat: p90");
    assert_eq!(
        errors_of(&unreported),
        vec![
            "reports/r.md:13: error: chart `ttft`: no run of vllm reports E2E latency p90"
                .replace("E2E latency", "End-to-end latency")
        ]
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
    let errors: Vec<String> = page
        .problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .map(|p| p.to_string())
        .collect();
    let text = errors.join("\n");
    assert!(text.contains("reports/r.md:6"), "{text}");
    assert!(
        text.contains("id `../../etc` cannot be a file name"),
        "{text}"
    );
    assert!(text.contains("reports/r.md:18"), "{text}");
    assert!(text.contains("already has the id `a`"), "{text}");
}
