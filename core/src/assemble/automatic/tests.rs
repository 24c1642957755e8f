//! Automatic pages: result files no report names get one page per folder, with the standard
//! sections, a title from the folder and the runs, a URL that collides with nothing, and no
//! problem of our own making; their files' problems never fail the build.

use crate::assemble::build_site;
use crate::input::InputFile;
use crate::problem::Severity;
use crate::site::ReportPage;

/// The fixture at `fixture`, as the result file `name`.
fn result(name: &str, fixture: &str) -> InputFile {
    InputFile {
        path: name.into(),
        bytes: crate::fixtures::bytes(fixture),
    }
}

fn report(name: &str, results: &str) -> InputFile {
    InputFile {
        path: name.into(),
        bytes: format!(
            "---\ntitle: Written\ndate: 2026-01-01\nresults: [\"{results}\"]\n---\nText.\n"
        )
        .into_bytes(),
    }
}

/// Problems the page's own Markdown caused: they name the page's folder, not a result file.
fn own_problems(page: &ReportPage) -> Vec<String> {
    let folder = page.summary.automatic.as_deref().unwrap();
    let display = if folder.is_empty() {
        "results/".to_string()
    } else {
        format!("results/{folder}/")
    };
    page.problems
        .iter()
        .filter(|p| p.file == display)
        .map(|p| p.to_string())
        .collect()
}

#[test]
fn results_alone_give_one_page_per_folder_with_the_standard_charts() {
    let results = [
        result("qwen/a.json", "vllm/concurrency2-qwen.json"),
        result("sglang/mixed.jsonl", "sglang/sglang_0314_mixed.jsonl"),
    ];
    let site = build_site(&[], &results);
    assert_eq!(
        site.errors().count(),
        0,
        "{:?}",
        site.errors().collect::<Vec<_>>()
    );
    let slugs: Vec<&str> = site.index.reports.iter().map(|r| r.slug.as_str()).collect();
    assert_eq!(slugs, ["qwen", "sglang"]);
    for page in &site.pages {
        assert_eq!(
            own_problems(page),
            Vec::<String>::new(),
            "{}",
            page.summary.slug
        );
        assert!(page.charts().count() > 0, "{}", page.summary.slug);
        assert!(
            page.prose_html().contains("1 result file holds"),
            "{}",
            page.prose_html()
        );
        assert!(page.summary.summary.contains("that no report names"));
    }
    let qwen = &site.pages[0];
    assert_eq!(qwen.summary.automatic.as_deref(), Some("qwen"));
    assert!(
        qwen.summary.title.starts_with("qwen: "),
        "{}",
        qwen.summary.title
    );
    assert_eq!(qwen.sources, ["qwen/a.json"]);
}

#[test]
fn files_a_report_names_stay_on_it_and_written_reports_come_first() {
    let results = [
        result("runs/a.json", "vllm/concurrency2-qwen.json"),
        result("runs/b.jsonl", "sglang/sglang_0314_mixed.jsonl"),
    ];
    let site = build_site(&[report("written.md", "runs/a.json")], &results);
    let slugs: Vec<&str> = site.index.reports.iter().map(|r| r.slug.as_str()).collect();
    assert_eq!(slugs, ["written", "runs"]);
    assert_eq!(site.pages[1].sources, ["runs/b.jsonl"]);
    assert_eq!(site.pages[0].summary.automatic, None);
}

#[test]
fn urls_never_collide_with_reports_or_the_sites_own() {
    let results = [
        result("written/a.json", "vllm/concurrency2-qwen.json"),
        result("local/a.json", "vllm/concurrency2-qwen.json"),
        result("a.json", "vllm/concurrency2-qwen.json"),
        result("<i>Odd Name!/x/a.json", "vllm/concurrency2-qwen.json"),
    ];
    let site = build_site(&[report("written.md", "nothing/*")], &results);
    let mut slugs: Vec<&str> = site.index.reports.iter().map(|r| r.slug.as_str()).collect();
    slugs.sort();
    assert_eq!(
        slugs,
        [
            "i-odd-name",
            "local-results",
            "results-results",
            "written",
            "written-results"
        ]
    );
    let odd = site
        .pages
        .iter()
        .find(|p| p.summary.slug == "i-odd-name")
        .unwrap();
    assert_eq!(
        odd.summary.title,
        "<i>Odd Name!: Qwen/Qwen2.5-7B-Instruct on openai-chat"
    );
    assert!(
        !odd.prose_html().contains("<i>"),
        "a folder name never becomes markup: {}",
        odd.prose_html()
    );
}

#[test]
fn unreadable_folders_warn_and_their_problems_never_fail_the_build() {
    let results = [
        InputFile {
            path: "notes/todo.txt".into(),
            bytes: b"remember to rerun".to_vec(),
        },
        result("mixed/a.json", "vllm/concurrency2-qwen.json"),
        InputFile {
            path: "mixed/broken.json".into(),
            bytes: b"{\"completed\": ".to_vec(),
        },
    ];
    let site = build_site(&[], &results);
    assert_eq!(site.errors().count(), 0);
    let warnings: Vec<String> = site.warnings().map(|p| p.to_string()).collect();
    assert!(
        warnings.iter().any(|w| w.contains("results/notes/")
            && w.contains("no page shows it")
            && w.contains("benchdeck inspect results/notes/")),
        "{warnings:?}"
    );
    assert!(
        site.warnings()
            .any(|p| p.file == "mixed/broken.json" && p.severity == Severity::Error),
        "the broken file's error is on its page and said by the build: {warnings:?}"
    );
    let slugs: Vec<&str> = site.index.reports.iter().map(|r| r.slug.as_str()).collect();
    assert_eq!(slugs, ["mixed"]);
    assert!(site.pages[0].prose_html().contains("1 file gave no run"));
}

/// A folder of each format of round 3, as its tool writes it: an automatic page that draws its
/// charts, with no error (of the files or of the page); files of per-request data draw the
/// latency CDF from their samples.
#[test]
fn a_folder_of_each_round3_format_draws_its_charts() {
    use crate::chart::ChartKind;
    let ip = "inference-perf/rate-sweep";
    let c8 = "llm-d/inference-perf-c8";
    let aiperf = "aiperf/Qwen_Qwen3-0.6B-openai-chat-concurrency4";
    let bench = "llmperf-bench/meta-llama_Meta-Llama-3-8B-Instruct_tp_1";
    let folders: [(&str, Vec<String>, bool); 10] = [
        (
            "inference-perf",
            ["config.yaml", "stage_0_lifecycle_metrics.json", "stage_0_prometheus_metrics.json"]
                .iter()
                .chain(&["stage_1_lifecycle_metrics.json", "summary_lifecycle_metrics.json"])
                .chain(&["summary_prometheus_metrics.json"])
                .map(|n| format!("{ip}/{n}"))
                .collect(),
            false,
        ),
        (
            "llm-d",
            [
                "benchmark_report,_stage_0_lifecycle_metrics.json.yaml",
                "benchmark_report_v0.2,_stage_0_lifecycle_metrics.json.yaml",
                "stage_0_lifecycle_metrics.json",
            ]
            .iter()
            .map(|n| format!("{c8}/{n}"))
            .chain(["llm-d/vllm-rate10/benchmark_report_v0.2,_vllm_serve_rate10_c32.json".into()])
            .collect(),
            false,
        ),
        (
            "aiperf-records",
            vec![
                format!("{aiperf}/profile_export.jsonl"),
                format!("{aiperf}/profile_export_aiperf.json"),
            ],
            true,
        ),
        (
            "perf-analyzer",
            vec![
                "genai-perf/meta-llama_Llama-3.1-8B-Instruct-openai-chat-concurrency2/profile_export.json"
                    .into(),
            ],
            true,
        ),
        (
            "llmperf-bench",
            ["_results.json", "_summary.json", "_cur_8.json"]
                .iter()
                .map(|s| format!("{bench}{s}"))
                .collect(),
            false,
        ),
        (
            "aiperf-console",
            vec!["aiperf/console-80-columns.log".into(), "aiperf/console.txt".into()],
            false,
        ),
        ("genai-perf-console", vec!["genai-perf/README-sweep.md".into()], false),
        ("k6-console", vec!["k6/legacy-0.54.txt".into()], false),
        ("k6-rate", vec!["k6/rate-scenario.log".into()], false),
        (
            "guidellm-yaml",
            vec!["guidellm/v0.3/benchmarks-from-file.yaml".into()],
            true,
        ),
    ];
    for (folder, fixtures, per_request) in folders {
        let results: Vec<InputFile> = fixtures
            .iter()
            .map(|fixture| {
                let name = fixture.rsplit('/').next().unwrap_or(fixture);
                let sub = if fixture.starts_with("llm-d/vllm") {
                    "vllm/"
                } else {
                    ""
                };
                result(&format!("{folder}/{sub}{name}"), fixture)
            })
            .collect();
        let site = build_site(&[], &results);
        let page = site
            .pages
            .iter()
            .find(|p| p.summary.automatic.as_deref() == Some(folder))
            .unwrap_or_else(|| panic!("{folder}: no automatic page"));
        let errors: Vec<String> = page
            .problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .map(ToString::to_string)
            .collect();
        assert_eq!(errors, Vec::<String>::new(), "{folder}");
        assert_eq!(own_problems(page), Vec::<String>::new(), "{folder}");
        assert!(
            page.charts().count() >= 2,
            "{folder}: {} charts",
            page.charts().count()
        );
        let cdf = page.charts().any(|c| matches!(c.kind, ChartKind::Cdf));
        assert_eq!(cdf, per_request, "{folder}: the latency CDF");
    }
}

/// One configuration measured by request rate and by concurrency, its TPOT only in the
/// concurrency runs (vLLM console outputs), beside an SGLang run by rate with no TPOT: more runs
/// by rate than by concurrency, yet each chart is drawn along the load kind whose runs
/// report its metric, and the page has no error of its own.
#[test]
fn a_configuration_on_two_load_kinds_draws_each_metric_where_it_was_measured() {
    let results: Vec<InputFile> = [
        "console/by-rate.md",
        "console/cut-off.txt",
        "console/fork-sections.log",
        "console/sglang.log",
        "console/sweep-commented.sh",
    ]
    .iter()
    .map(|f| result(&format!("mixed/{}", f.rsplit('/').next().unwrap()), f))
    .collect();
    let site = build_site(&[], &results);
    let page = &site.pages[0];
    assert_eq!(own_problems(page), Vec::<String>::new());
    let tpot = page
        .charts()
        .find(|c| c.id == "tpot")
        .expect("a TPOT chart");
    assert!(tpot.x.title.starts_with("Concurrency"), "{}", tpot.x.title);
}

/// Repeats on one day are one point of a trend (the report combines them): a folder whose only
/// dated runs are two of one day gets no trend, and no error for one.
#[test]
fn repeats_on_one_day_make_no_trend() {
    let one_day = |hour: u32| {
        let text = String::from_utf8(crate::fixtures::bytes("vllm/concurrency2-qwen.json"))
            .unwrap()
            .replacen("20251020-101500", &format!("20260201-{hour:02}0000"), 1);
        InputFile {
            path: format!("day/run-{hour}.json"),
            bytes: text.into_bytes(),
        }
    };
    let site = build_site(&[], &[one_day(9), one_day(14)]);
    let page = &site.pages[0];
    assert_eq!(own_problems(page), Vec::<String>::new());
    assert!(page.charts().all(|c| !c.id.starts_with("trend")));
}

/// Night `i` (from 0) of a nightly folder: a `vllm bench serve` result of one configuration at
/// 4 req/s on 2026-09-(1 + i) onwards, median TTFT `ttft` and TPOT `tpot` ms, with the engine
/// version `version`.
fn night(i: usize, ttft: f64, tpot: f64, version: &str) -> InputFile {
    let day = chrono_day(i);
    let text = format!(
        r#"{{"date": "{}-020000", "backend": "vllm", "model_id": "m", "request_rate": 4.0,
        "num_prompts": 400, "completed": 400, "failed": 0, "duration": 100.0,
        "median_ttft_ms": {ttft}, "median_tpot_ms": {tpot},
        "output_throughput": {out}, "vllm_version": "{version}"}}"#,
        day.replace('-', ""),
        out = 25_000.0 / tpot,
    );
    InputFile {
        path: format!("nightly/{day}/vllm-4qps.json"),
        bytes: text.into_bytes(),
    }
}

/// 2026-09-01 plus `i` days, for `i` under 60.
fn chrono_day(i: usize) -> String {
    match i {
        0..30 => format!("2026-09-{:02}", i + 1),
        _ => format!("2026-10-{:02}", i - 29),
    }
}

/// Forty nights of one configuration at one load: TPOT 10% lower from night 25 (a new engine
/// version), 2% noise, and the newest night's TTFT 40% worse.
fn forty_nights() -> Vec<InputFile> {
    let mut rng = crate::fixtures::simulated::rng(5);
    let mut noise = || 1.0 + 0.02 * crate::fixtures::simulated::normal(&mut rng);
    (0..40)
        .map(|i| {
            let (tpot, version) = if i >= 25 {
                (22.5, "0.11.1")
            } else {
                (25.0, "0.11.0")
            };
            let ttft = if i == 39 { 168.0 } else { 120.0 * noise() };
            night(i, ttft, tpot * noise(), version)
        })
        .collect()
}

/// A folder of nightly runs of one configuration at one load reads as a history: it opens with
/// where the newest run stands against the current level, then a trend per metric with its
/// change and what changed; no chart of one point, no "at its best", and every night a row.
#[test]
fn a_nightly_folder_leads_with_its_history() {
    let site = build_site(&[], &forty_nights());
    let page = &site.pages[0];
    assert_eq!(own_problems(page), Vec::<String>::new());
    let charts: Vec<(&str, String)> = page
        .charts()
        .map(|c| (c.id.as_str(), format!("{:?}", c.kind)))
        .collect();
    assert!(
        charts.iter().all(|(_, kind)| kind.starts_with("Trend")),
        "{charts:?}"
    );
    let ids: Vec<&str> = charts.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, ["history-0", "history-1", "history-2"]);
    let prose = page.prose_html();
    let at = |text: &str| {
        prose
            .find(text)
            .unwrap_or_else(|| panic!("{text}: {prose}"))
    };
    assert!(at("Where it stands") < at("Over time"));
    assert!(at("Over time") < at("Every run (40)"));
    assert!(
        !prose.contains("at its best") && !prose.contains("Best for"),
        "{prose}"
    );
    let stands = &prose[at("Where it stands")..at("Over time")];
    assert!(
        stands.contains(
            "<p class=\"table-lead\">Against its current level, the newest run is worse on \
             Median TTFT (+"
        ),
        "{stands}"
    );
    assert!(stands.contains("2026-09-26<small>after −"), "{stands}");
    assert!(
        stands.contains("<strong>worse</strong><small>+"),
        "{stands}"
    );
    let changes: Vec<&str> = page
        .summary
        .changes
        .iter()
        .map(|c| c.what_changed.as_str())
        .collect();
    assert!(
        changes.iter().any(|c| c.contains("0.11.0 → 0.11.1")),
        "{changes:?}"
    );
    let every_run = &prose[at("Every run (40)")..];
    assert!(
        every_run.contains("<th scope=\"col\">Date</th>"),
        "{every_run}"
    );
    assert!(every_run.contains("2026-09-01") && every_run.contains("2026-10-10"));
}

/// Runs of several configurations at one load each, undated, are bars, never lines of one
/// point.
#[test]
fn one_load_per_configuration_draws_bars_not_lines() {
    let site = build_site(
        &[],
        &[
            result("one/a.json", "vllm/concurrency2-qwen.json"),
            InputFile {
                path: "one/b.json".into(),
                bytes: String::from_utf8(crate::fixtures::bytes("vllm/concurrency2-qwen.json"))
                    .unwrap()
                    .replacen("\"1x A10G\"", "\"1x L4\"", 1)
                    .into_bytes(),
            },
        ],
    );
    let page = &site.pages[0];
    assert_eq!(own_problems(page), Vec::<String>::new());
    let kinds: Vec<String> = page.charts().map(|c| format!("{:?}", c.kind)).collect();
    assert!(
        kinds.iter().any(|k| k.starts_with("GroupedBars")),
        "{kinds:?}"
    );
    assert!(
        kinds
            .iter()
            .all(|k| !k.starts_with("Lines") && !k.starts_with("Scatter")),
        "{kinds:?}"
    );
}
