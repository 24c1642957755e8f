//! Colours across a report: twelve configurations on six charts get twelve colours, each the
//! same on every chart.

use std::collections::{BTreeMap, BTreeSet};

use super::*;

/// Configuration `i` at request rates 1 and 2, as `vllm bench serve --append-result` writes it.
fn result(i: usize) -> ImportedFile {
    let line = |rate: f64| {
        let ttft = 40.0 + i as f64 * 3.0 + rate * 10.0;
        format!(
            r#"{{"date": "20250301-10101{rate}", "backend": "vllm", "label": "setup-{i:02}", "model_id": "m",
            "request_rate": {rate}, "completed": 100, "failed": 0, "duration": 50.0,
            "output_throughput": {tp}, "request_throughput": {rate},
            "mean_ttft_ms": {ttft}, "median_ttft_ms": {ttft}, "std_ttft_ms": 5.0, "p90_ttft_ms": {p90},
            "p95_ttft_ms": {p95}, "p99_ttft_ms": {p99}, "mean_e2el_ms": {e2e}, "median_e2el_ms": {e2e},
            "std_e2el_ms": 50.0, "p99_e2el_ms": {e2e99}}}"#,
            tp = 1000.0 + i as f64 * 10.0 * rate,
            p90 = ttft * 1.5,
            p95 = ttft * 1.8,
            p99 = ttft * 2.5,
            e2e = ttft * 20.0,
            e2e99 = ttft * 40.0,
        )
    };
    let one_line = |rate: f64| line(rate).replace('\n', " ");
    let text = format!("{}\n{}\n", one_line(1.0), one_line(2.0));
    import(&format!("vllm/setup-{i:02}.jsonl"), text.as_bytes())
}

const REPORT: &str = "---
title: Twelve setups
results: [\"vllm/*\"]
---

```chart
id: bars
metric: ttft
```

```chart
id: lines
kind: lines
metric: e2e
stat: p99
```

```chart
id: percentiles
kind: percentiles
metric: ttft
load: 2
```

```chart
id: hbars
kind: hbars
metrics: [ttft:p99, output_throughput]
load: 1
```

```chart
id: scatter
kind: scatter
x: output_throughput
y: ttft:p99
```

```chart
id: cv
kind: cv
metric: ttft
```
";

#[test]
fn twelve_configurations_on_six_charts_have_twelve_colours_the_same_on_every_chart() {
    let results: Vec<ImportedFile> = (0..12).map(result).collect();
    let page = build_report("reports/r.md", "r", REPORT, &results, &Palette::new());
    assert_eq!(page_errors(&page), Vec::<String>::new());
    let mut colours: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    let mut charts = 0;
    for chart in page.charts() {
        charts += 1;
        assert_eq!(chart.series.len(), 12, "chart `{}`", chart.id);
        for series in &chart.series {
            colours
                .entry(series.name.clone())
                .or_default()
                .insert(series.color);
        }
    }
    assert_eq!(charts, 6);
    assert_eq!(colours.len(), 12);
    for (name, slots) in &colours {
        assert_eq!(
            slots.len(),
            1,
            "{name} changes colour between charts: {slots:?}"
        );
    }
    let distinct: BTreeSet<usize> = colours.values().flatten().copied().collect();
    assert_eq!(distinct.len(), 12, "{colours:?}");
}

#[test]
fn fourteen_configurations_get_twelve_colours_then_two_of_them_patterned_on_every_chart() {
    let results: Vec<ImportedFile> = (0..14).map(result).collect();
    let page = build_report("reports/r.md", "r", REPORT, &results, &Palette::new());
    assert_eq!(page_errors(&page), Vec::<String>::new());
    let mut looks: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for chart in page.charts() {
        for series in &chart.series {
            looks
                .entry(series.name.clone())
                .or_default()
                .insert(series.color);
        }
    }
    assert_eq!(looks.len(), 14);
    assert!(looks.values().all(|slots| slots.len() == 1), "{looks:?}");
    let slots: Vec<usize> = looks.values().flatten().copied().collect();
    let distinct: BTreeSet<usize> = slots.iter().copied().collect();
    assert_eq!(distinct.len(), 14, "no two share a look: {looks:?}");
    let patterned: Vec<usize> = slots
        .iter()
        .copied()
        .filter(|&s| crate::chart::theme::patterned(s))
        .collect();
    assert_eq!(patterned.len(), 2, "{looks:?}");
    // The patterned two are drawn dashed and hollow: their lines come in many short pieces.
    let lines = page.charts().find(|c| c.id == "lines").unwrap();
    let svg = |keep: usize| {
        let one = crate::chart::ChartSpec {
            series: vec![lines.series[keep].clone()],
            ..lines.clone()
        };
        crate::chart::to_svg(&one, (640, 360), &Default::default()).unwrap()
    };
    let plain = lines
        .series
        .iter()
        .position(|s| !crate::chart::theme::patterned(s.color))
        .unwrap();
    let dashed = lines
        .series
        .iter()
        .position(|s| crate::chart::theme::patterned(s.color))
        .unwrap();
    let pieces = |svg: &str| svg.matches("<polyline").count();
    assert!(
        pieces(&svg(dashed)) > pieces(&svg(plain)) + 3,
        "{} dashed pieces against {}",
        pieces(&svg(dashed)),
        pieces(&svg(plain))
    );
}

#[test]
fn two_configurations_labelled_alike_are_an_error_naming_both() {
    let results: Vec<ImportedFile> = (0..3).map(result).collect();
    let text = REPORT.replacen(
        "---\n\n",
        "configs:\n  - key: setup-00\n    label: vLLM\n  - key: setup-02\n    label: vLLM\n---\n\n",
        1,
    );
    let page = build_report("reports/r.md", "r", &text, &results, &Palette::new());
    let errors: Vec<String> = page.problems.iter().map(|p| p.to_string()).collect();
    let shared = "configurations `setup-00` and `setup-02` are both labelled `vLLM`";
    assert_eq!(
        errors.iter().filter(|e| e.contains(shared)).count(),
        1,
        "{errors:?}"
    );
    assert!(
        errors.iter().all(|e| e.starts_with("reports/r.md")),
        "{errors:?}"
    );
    // Each its own label: no such error.
    let fine = build_report("reports/r.md", "r", REPORT, &results, &Palette::new());
    assert!(
        !fine
            .problems
            .iter()
            .any(|p| p.to_string().contains("both labelled")),
        "{:?}",
        fine.problems
    );
}
