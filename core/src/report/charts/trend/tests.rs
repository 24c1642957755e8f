//! The trend chart on generated nightly runs: fourteen dates of two configurations, one run
//! made 30% slower on purpose (an outlier, not a change), and histories with a level shift.

use crate::chart::{Annotation, ChartKind, ChartSpec};
use crate::import::{import_all, ImportedFile};
use crate::input::InputFile;
use crate::report::{build_report, Palette};

/// A vLLM result of `engine` at 8 req/s whose mean TTFT is `ttft_ms`, dated `date` when given
/// (else its `date` is empty, and the path must say when it ran).
fn result(engine: &str, date: Option<&str>, ttft_ms: f64) -> String {
    let date = date.unwrap_or_default();
    format!(
        r#"{{"date": "{date}", "backend": "{engine}", "model_id": "m", "request_rate": 8.0,
        "completed": 100, "failed": 0, "duration": 12.5, "mean_ttft_ms": {ttft_ms},
        "median_ttft_ms": {ttft_ms}, "p99_ttft_ms": {p99}, "output_throughput": 900.0}}"#,
        p99 = ttft_ms * 1.5
    )
}

/// Mean TTFT of night `n` (0-based) for `engine`: a little noise around 200 ms (vLLM) or 260
/// ms (SGLang), and vLLM's night 9 30% slower.
fn ttft(engine: &str, n: usize) -> f64 {
    let noise = [
        0.0, 3.0, -2.0, 1.0, -3.0, 2.0, -1.0, 0.0, 2.0, -2.0, 1.0, 3.0, -1.0, 0.0,
    ][n];
    match engine {
        "vllm" if n == 9 => 260.0,
        "vllm" => 200.0 + noise,
        _ => 260.0 - noise,
    }
}

/// Fourteen nights, each in its own dated folder with no date inside the files (the path gives
/// it), plus what `extra` adds.
fn nights(extra: &[(String, String)]) -> Vec<ImportedFile> {
    let mut files: Vec<InputFile> = Vec::new();
    for n in 0..14 {
        for engine in ["vllm", "sglang"] {
            files.push(InputFile {
                path: format!("nightly/2026-11-{:02}/{engine}.json", n + 1),
                bytes: result(engine, None, ttft(engine, n)).into_bytes(),
            });
        }
    }
    files.extend(extra.iter().map(|(path, text)| InputFile {
        path: path.clone(),
        bytes: text.clone().into_bytes(),
    }));
    import_all(&files)
}

fn chart(results: &[ImportedFile], body: &str) -> Result<ChartSpec, Vec<String>> {
    let text = format!(
        "---\ntitle: Nightly\nresults: [\"nightly/**\"]\n---\n\n```chart\nid: c\n{body}\n```\n"
    );
    let page = build_report("reports/r.md", "r", &text, results, &Palette::new());
    let chart = page.charts().next().cloned();
    chart.ok_or_else(|| page.problems.iter().map(ToString::to_string).collect())
}

fn rings(spec: &ChartSpec) -> Vec<(Option<usize>, f64, String)> {
    spec.annotations
        .iter()
        .filter_map(|a| match a {
            Annotation::Marker {
                series, x, label, ..
            } => Some((*series, *x, label.clone())),
            _ => None,
        })
        .collect()
}

/// The report `text` built over `results`.
fn page_of(text: &str, results: &[ImportedFile]) -> crate::site::ReportPage {
    build_report("reports/r.md", "r", text, results, &Palette::new())
}

/// The tables of changes a page shows under its trends.
fn tables_of(page: &crate::site::ReportPage) -> Vec<&String> {
    page.blocks
        .iter()
        .filter_map(|b| match b {
            crate::site::Block::Html { html } if html.contains("trend-changes") => Some(html),
            _ => None,
        })
        .collect()
}

/// The table of changes the report of `body` shows under its chart.
fn changes_table(results: &[ImportedFile], body: &str) -> String {
    let text = format!(
        "---\ntitle: Nightly\nresults: [\"nightly/**\"]\n---\n\n```chart\nid: c\n{body}\n```\n"
    );
    let page = page_of(&text, results);
    tables_of(&page)
        .first()
        .map(|t| t.to_string())
        .expect("a table of changes under the trend")
}

/// SGLang's nights 15 to 22 at 300 ms with driver 560 (its first fourteen ran at about 260 ms
/// with no driver stated).
fn shifted() -> Vec<(String, String)> {
    (15..=22)
        .map(|n| {
            let text = result("sglang", None, 300.0 + [1.0, -2.0, 0.0, 2.0][n % 4])
                .replace("\"model_id\"", "\"driver\": \"560\", \"model_id\"");
            (format!("nightly/2026-11-{n}/sglang.json"), text)
        })
        .collect()
}

#[test]
fn the_injected_bad_night_is_an_outlier_and_nothing_else_is_ringed() {
    let spec = chart(&nights(&[]), "kind: trend\nmetric: ttft").unwrap();
    let ChartKind::Trend { runs } = &spec.kind else {
        panic!("{:?}", spec.kind)
    };
    assert_eq!(runs.len(), 14);
    assert_eq!(
        (runs[0].as_str(), runs[13].as_str()),
        ("2026-11-01", "2026-11-14")
    );
    let names: Vec<&str> = spec.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["vllm", "sglang"]);
    assert_eq!(rings(&spec), [(Some(0), 9.0, "outlier".to_string())]);
    assert!(
        spec.caption.contains(
            "Found: vllm: an outlier, Mean TTFT on 2026-11-10: 260 ms against 200.5 ms around it"
        ),
        "{}",
        spec.caption
    );
    assert!(spec.caption.contains("at 8 req/s"), "{}", spec.caption);
    // One step per line: neither changed level.
    let steps = spec
        .annotations
        .iter()
        .filter(|a| matches!(a, Annotation::Fit { slope, .. } if *slope == 0.0))
        .count();
    assert_eq!(steps, 2);
}

#[test]
fn a_level_shift_is_a_step_with_its_date_and_what_changed_in_the_table_under_it() {
    let spec = chart(&nights(&shifted()), "kind: trend\nmetric: ttft").unwrap();
    assert!(
        rings(&spec).contains(&(Some(1), 14.0, "change +15.6%".to_string())),
        "{:?}",
        rings(&spec)
    );
    assert!(
        spec.caption
            .contains("sglang: a change on 2026-11-15 (+15.6%, worse), what changed: driver (not stated) → 560"),
        "{}",
        spec.caption
    );
    let table = changes_table(&nights(&shifted()), "kind: trend\nmetric: ttft");
    assert!(
        table.contains(
            "<th scope=\"row\">2026-11-15</th><td>sglang</td><td>change, +15.6% (worse)</td>"
        ),
        "{table}"
    );
    assert!(table.contains("driver (not stated) → 560"), "{table}");
    assert!(
        table.contains("<th scope=\"row\">2026-11-10</th><td>vllm</td><td>one night unlike"),
        "{table}"
    );
    let quiet = changes_table(&nights(&[]), "kind: trend\nmetric: ttft\nconfigs: [sglang]");
    assert!(quiet.contains("no change point, no outlier"), "{quiet}");
}

#[test]
fn a_report_may_set_the_smallest_change_and_the_caption_states_it() {
    // A 40% floor lets the +30% night pass as ordinary.
    let spec = chart(&nights(&[]), "kind: trend\nmetric: ttft\nmin_change: 40").unwrap();
    assert_eq!(rings(&spec), []);
    assert!(
        spec.caption.contains("a change of at least 40%"),
        "{}",
        spec.caption
    );
    let problems = chart(&nights(&[]), "kind: trend\nmetric: ttft\nmin_change: -1").unwrap_err();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("chart `c`: `min_change: -1`: expected")),
        "{problems:?}"
    );
    let problems = chart(&nights(&[]), "kind: trend\nmetric: ttft\nmads: 3").unwrap_err();
    assert!(
        problems.iter().any(|p| p.contains("unknown field `mads`")),
        "{problems:?}"
    );
}

#[test]
fn each_run_carries_its_levels_range_and_a_link_to_its_file() {
    let spec = chart(&nights(&[]), "kind: trend\nmetric: ttft").unwrap();
    let vllm = &spec.series[0].points;
    let night_ten = &vllm[9];
    assert_eq!(night_ten.y, Some(260.0));
    assert_eq!(night_ten.link, "results/nightly/2026-11-10/vllm.json");
    // The outlier is left out of the level and its noise: every night's range is narrow.
    for point in vllm {
        let (lo, hi) = (point.lo.unwrap(), point.hi.unwrap());
        assert!(lo > 193.0 && hi < 207.0, "{lo}..{hi}");
    }
}
#[test]
fn a_points_link_is_percent_encoded() {
    // Night 15's vLLM file is named `run#1.json`: unencoded, `#1.json` would be a fragment.
    let extra = [(
        "nightly/2026-11-15/run#1 vllm.json".to_string(),
        result("vllm", None, 200.0),
    )];
    let spec = chart(&nights(&extra), "kind: trend\nmetric: ttft").unwrap();
    let last = spec.series[0].points.last().unwrap();
    assert_eq!(last.link, "results/nightly/2026-11-15/run%231%20vllm.json");
}

#[test]
fn a_higher_is_better_metric_regresses_downwards() {
    let mut extra = Vec::new();
    for (n, tok_s) in [(15, 900.0), (16, 700.0)] {
        let text = result("vllm", None, 200.0).replace("900.0", &format!("{tok_s:.1}"));
        extra.push((format!("nightly/2026-11-{n}/vllm.json"), text));
    }
    let spec = chart(&nights(&extra), "kind: trend\nmetric: output_throughput").unwrap();
    assert_eq!(rings(&spec), [(Some(0), 15.0, "worse −22.2%".to_string())]);
}

#[test]
fn a_trend_over_folders_orders_them_by_their_runs_dates() {
    let files: Vec<InputFile> = [
        ("v0.10.0", "20261101-020000", 200.0),
        ("v0.9.2", "20261020-020000", 210.0),
    ]
    .iter()
    .map(|(version, date, ms)| InputFile {
        path: format!("nightly/{version}/vllm.json"),
        bytes: result("vllm", Some(date), *ms).into_bytes(),
    })
    .collect();
    let spec = chart(&import_all(&files), "kind: trend\nmetric: ttft\nx: folder").unwrap();
    let ChartKind::Trend { runs } = &spec.kind else {
        panic!()
    };
    assert_eq!(runs, &["v0.9.2", "v0.10.0"]);
    assert!(
        spec.caption.contains("No change point, no outlier"),
        "{}",
        spec.caption
    );
}

#[test]
fn runs_without_dates_are_named_and_one_date_is_not_a_trend() {
    let undated = (
        "nightly/latest/vllm.json".to_string(),
        result("vllm", None, 200.0),
    );
    let spec = chart(&nights(&[undated]), "kind: trend\nmetric: ttft").unwrap();
    assert!(
        spec.caption
            .contains("Left out, with no date: nightly/latest/vllm.json."),
        "{}",
        spec.caption
    );

    let one: Vec<InputFile> = vec![InputFile {
        path: "nightly/2026-11-01/vllm.json".into(),
        bytes: result("vllm", None, 200.0).into_bytes(),
    }];
    let problems = chart(&import_all(&one), "kind: trend\nmetric: ttft").unwrap_err();
    assert!(
        problems.iter().any(|p| p.contains(
            "a trend needs runs on at least two dates; found 2026-11-01 at 8 req/s (vllm)"
        )),
        "{problems:?}"
    );

    let nowhere: Vec<InputFile> = vec![InputFile {
        path: "nightly/latest/vllm.json".into(),
        bytes: result("vllm", None, 200.0).into_bytes(),
    }];
    let problems = chart(&import_all(&nowhere), "kind: trend\nmetric: ttft").unwrap_err();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("none of the 1 runs says when it was measured")),
        "{problems:?}"
    );
}

#[test]
fn a_wrong_axis_or_an_ambiguous_load_is_an_error() {
    let problems = chart(&nights(&[]), "kind: trend\nmetric: ttft\nx: commit").unwrap_err();
    assert!(
        problems.iter().any(|p| p.contains("`x: commit`")),
        "{problems:?}"
    );

    let other_load = (
        "nightly/2026-11-15/vllm.json".to_string(),
        result("vllm", None, 200.0).replace("\"request_rate\": 8.0", "\"request_rate\": 2.0"),
    );
    let problems = chart(&nights(&[other_load]), "kind: trend\nmetric: ttft").unwrap_err();
    assert!(
        problems
            .iter()
            .any(|p| p
                .contains("the runs are at 2 load points; say which with `load:` (one of 8, 2)")),
        "{problems:?}"
    );
}

#[test]
fn every_other_chart_shows_the_newest_night_of_each_load_point() {
    let spec = chart(&nights(&[]), "kind: bars\nmetric: ttft").unwrap();
    let vllm = &spec.series[0].points;
    assert_eq!(vllm.len(), 1, "one bar for 8 req/s, not fourteen");
    assert_eq!(vllm[0].y, Some(ttft("vllm", 13)));
    assert!(
        vllm[0].source.starts_with("nightly/2026-11-14/"),
        "{}",
        vllm[0].source
    );
}

#[test]
fn a_drafted_report_of_dated_runs_gets_an_over_time_section() {
    let imports = nights(&[]);
    let runs: Vec<&crate::model::Run> = imports.iter().flat_map(|f| f.runs.iter()).collect();
    let md = crate::report::draft::sections(&runs);
    assert!(md.contains("## Over time"), "{md}");
    assert!(
        md.contains("kind: trend\nmetric: ttft\nstat: median\nload: \"8 req/s\"\nconfigs: [\"vllm\", \"sglang\"]"),
        "{md}"
    );
    assert!(
        md.contains("kind: trend\nmetric: output_throughput\nload: \"8 req/s\""),
        "{md}"
    );
    // The section's charts build: on the automatic page they draw.
    let text = format!("---\ntitle: T\nresults: [\"nightly/**\"]\n---\n\n{md}");
    let page = build_report("reports/r.md", "r", &text, &imports, &Palette::new());
    let errors: Vec<String> = page
        .problems
        .iter()
        .filter(|p| p.severity == crate::problem::Severity::Error)
        .map(ToString::to_string)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        page.charts()
            .filter(|c| matches!(c.kind, ChartKind::Trend { .. }))
            .count(),
        2
    );
}

#[test]
fn the_newest_night_is_judged_against_its_level_with_nights_as_units() {
    // Night 15 of vLLM at 230 ms: the thirteen ordinary nights before it (197–203 ms) predict
    // about 196–205 ms. The requests of different nights are never pooled.
    let extra = [(
        "nightly/2026-11-15/vllm.json".to_string(),
        result("vllm", None, 230.0),
    )];
    let spec = chart(&nights(&extra), "kind: trend\nmetric: ttft").unwrap();
    assert!(
        spec.caption.contains(
            "vllm's newest night: 230 ms on 2026-11-15: worse (+14.8%) against the 95% range \
             the current level's 13 nights predict"
        ),
        "{}",
        spec.caption
    );
    assert!(rings(&spec).contains(&(Some(0), 14.0, "worse +14.8%".to_string())));
}

#[test]
fn an_authors_note_is_a_line_at_its_date_and_a_row_beside_the_changes() {
    let text = "---\ntitle: Nightly\nresults: [\"nightly/**\"]\nannotations:\n  - date: 2026-11-15\n    text: driver 550 → 560\n    configs: [sglang]\n  - date: 2026-12-01\n    text: after every run\n---\n\n```chart\nid: c\nkind: trend\nmetric: ttft\n```\n";
    let page = page_of(text, &nights(&shifted()));
    assert!(page.problems.is_empty(), "{:?}", page.problems);
    let spec = page.charts().next().unwrap();
    let lines: Vec<(f64, &str)> = spec
        .annotations
        .iter()
        .filter_map(|a| match a {
            Annotation::Threshold { value, label, .. } => Some((*value, label.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(
        lines,
        [(14.0, "driver 550 → 560")],
        "a note after the last run is not drawn"
    );
    let table = tables_of(&page)[0];
    assert!(
        table.contains("<th scope=\"row\">2026-11-15</th><td>sglang</td><td>the author's note</td><td></td><td>driver 550 → 560</td>"),
        "{table}"
    );
}

#[test]
fn a_note_whose_date_is_not_a_day_is_an_error_that_says_so() {
    let text = "---\ntitle: N\nannotations:\n  - date: 11/08\n    text: x\n---\n\nBody.\n";
    let page = build_report("reports/r.md", "r", text, &[], &Palette::new());
    assert!(
        page.problems.iter().any(|p| p
            .to_string()
            .contains("date `11/08` is not a day; expected YYYY-MM-DD")),
        "{:?}",
        page.problems
    );
}

#[test]
fn a_trend_panel_of_a_grid_keeps_its_table_and_its_change_points() {
    let text = "---\ntitle: Nightly\nresults: [\"nightly/**\"]\n---\n\n```chart\nid: g\nkind: grid\npanels:\n  - kind: trend\n    metric: ttft\n  - kind: bars\n    metric: ttft\n```\n";
    let page = page_of(text, &nights(&shifted()));
    assert!(page.problems.is_empty(), "{:?}", page.problems);
    let tables = tables_of(&page).len();
    assert_eq!(tables, 1);
    let changes: Vec<(&str, &str)> = page
        .summary
        .changes
        .iter()
        .map(|c| (c.date.as_str(), c.chart.as_str()))
        .collect();
    assert_eq!(changes, [("2026-11-15", "g-1")]);
}
