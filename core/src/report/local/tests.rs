//! The page of dropped files: every fixture we wrote, dropped alone, gives a page whose only
//! problems are the file's own; several files together give charts, tables and the wizard;
//! untrusted names never reach the page as markup.

use super::*;
use crate::problem::Severity;
use crate::site::Block;

fn fixture_files() -> Vec<InputFile> {
    let root = crate::fixtures::path("");
    let mut files = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(&root)];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.ends_with("fuzz-regressions") {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.push(InputFile {
                    path: rel,
                    bytes: std::fs::read(&path).unwrap(),
                });
            }
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

fn results(glob_prefix: &str) -> Vec<InputFile> {
    let root = format!("{}/../results/{glob_prefix}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<InputFile> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| InputFile {
            path: p.file_name().unwrap().to_string_lossy().into_owned(),
            bytes: std::fs::read(&p).unwrap(),
        })
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// Problems the generated report itself caused (not the files').
fn own_problems(page: &ReportPage) -> Vec<String> {
    page.problems
        .iter()
        .filter(|p| p.file == "dropped files")
        .map(|p| p.to_string())
        .collect()
}

#[test]
fn every_fixture_dropped_alone_gives_a_page_without_problems_of_its_own() {
    let files = fixture_files();
    assert!(files.len() > 40, "found only {} fixtures", files.len());
    let mut charted = 0;
    for file in &files {
        let report = local_report(std::slice::from_ref(file));
        let page = &report.page;
        assert_eq!(own_problems(page), Vec::<String>::new(), "{}", file.path);
        let runs: usize = report.imports.iter().map(|f| f.runs.len()).sum();
        assert_eq!(page.summary.runs, runs, "{}", file.path);
        // Every problem of the file is on the page, at its location.
        let file_problems: Vec<_> = report.imports[0].all_problems().collect();
        for problem in file_problems {
            assert!(page.problems.contains(problem), "{}: {problem}", file.path);
        }
        if page.charts().count() > 0 {
            charted += 1;
        } else if runs > 0 {
            let says_why = page
                .blocks
                .iter()
                .any(|b| matches!(b, Block::Html { html } if html.contains("could be charted")));
            assert!(says_why, "{}: runs but no chart and no reason", file.path);
        }
    }
    assert!(charted > 25, "only {charted} fixtures gave charts");
}

#[test]
fn a_sweep_of_two_engines_gets_the_standard_charts_tables_and_wizard() {
    let report = local_report(&results("vllm-vs-sglang"));
    let page = &report.page;
    assert_eq!(own_problems(page), Vec::<String>::new());
    assert_eq!(page.summary.title, "Your result files");
    assert_eq!(page.summary.slug, LOCAL_SLUG);
    let ids: Vec<&str> = page.charts().map(|c| c.id.as_str()).collect();
    for id in [
        "ttft",
        "tpot",
        "itl",
        "output_throughput",
        "success_rate",
        "tradeoff",
    ] {
        assert!(ids.contains(&id), "no chart `{id}` in {ids:?}");
    }
    assert_eq!(page.grids().count(), 1);
    let html = page.prose_html();
    assert!(html.contains("<table"), "no summary table");
    assert!(html.contains("Each configuration at its best"), "{html}");
    assert!(html.contains("nothing was"), "{html}");
    let decision = page.decision.as_ref().expect("two engines get the wizard");
    assert_eq!(decision.candidates.len(), 2);
}

#[test]
fn files_without_a_sweep_get_bars() {
    let files: Vec<InputFile> = fixture_files()
        .into_iter()
        .filter(|f| f.path.starts_with("vllm-throughput") || f.path.starts_with("vllm-latency"))
        .collect();
    assert!(!files.is_empty());
    let page = local_report(&files).page;
    assert_eq!(own_problems(&page), Vec::<String>::new());
    assert!(page.charts().count() > 0);
}

#[test]
fn nothing_readable_says_so_and_lists_why() {
    let page = local_report(&[InputFile {
        path: "notes.txt".into(),
        bytes: b"hello".to_vec(),
    }])
    .page;
    assert_eq!(own_problems(&page), Vec::<String>::new());
    assert_eq!(page.charts().count(), 0);
    assert!(page
        .problems
        .iter()
        .any(|p| p.file == "notes.txt" && p.severity == Severity::Error));
}

#[test]
fn untrusted_file_names_and_labels_never_become_markup() {
    let mut files = results("vllm-vs-sglang");
    let evil = "<img src=x onerror=alert(1)>";
    for f in &mut files {
        f.path = format!("{evil}{}", f.path);
        let text = String::from_utf8(f.bytes.clone()).unwrap();
        f.bytes = text
            .replace("\"vllm\"", "\"<script>alert(1)</script>\"")
            .into_bytes();
    }
    let page = local_report(&files).page;
    let json = serde_json::to_string(&page).unwrap();
    for block in &page.blocks {
        if let Block::Html { html } = block {
            assert!(!html.contains("<script"), "{html}");
            assert!(!html.contains("<img"), "{html}");
        }
    }
    // The label is still shown, as text.
    assert!(json.contains("&lt;script&gt;") || json.contains("<script>alert(1)</script>"));
}

#[test]
fn broken_and_mixed_files_still_get_the_wizard_on_the_usual_sweep() {
    let mut files = results("vllm-vs-sglang");
    files.extend(
        fixture_files()
            .into_iter()
            .filter(|f| f.path == "sglang/broken.jsonl"),
    );
    assert_eq!(files.len(), 2);
    let page = local_report(&files).page;
    assert_eq!(own_problems(&page), Vec::<String>::new());
    let decision = page.decision.expect("the rate sweeps are compared");
    let keys: Vec<&str> = decision.candidates.iter().map(|c| c.key.as_str()).collect();
    assert!(keys.contains(&"vllm") && keys.contains(&"sgl"), "{keys:?}");
}

#[test]
fn per_request_data_gets_its_distribution_and_shared_loads_a_head_to_head() {
    let report = local_report(&results("latency-analysis"));
    let page = &report.page;
    assert_eq!(own_problems(page), Vec::<String>::new());
    let cdf = page
        .charts()
        .find(|c| c.id == "ttft-cdf")
        .expect("a CDF of per-request TTFT");
    assert_eq!(cdf.series.len(), 2, "both setups share their loads");
    assert!(cdf.title.contains("TTFT"), "{}", cdf.title);
    let html = page.prose_html();
    assert!(html.contains("Faster by"), "a head-to-head table: {html}");
}
