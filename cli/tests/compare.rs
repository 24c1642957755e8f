//! `benchdeck compare` run as a user runs it: result files written to folders, the verdicts,
//! the three formats, the exit codes of the gate and of unreadable input.

use std::path::Path;
use std::process::{Command, Output};

/// A `vllm bench serve --save-result` object: `completed` requests at `rate` req/s with mean
/// TTFT `ttft` ms (standard deviation `sd`) and output throughput `tput`.
fn result(rate: f64, ttft: f64, sd: f64, tput: f64) -> String {
    format!(
        r#"{{"date": "20261101-120000", "backend": "vllm", "model_id": "acme/chat-7b", "num_prompts": 400, "request_rate": {rate}, "burstiness": 1.0, "max_concurrency": null, "duration": 100.0, "completed": 400, "failed": 0, "total_input_tokens": 102400, "total_output_tokens": 51200, "request_throughput": 4.0, "output_throughput": {tput}, "total_token_throughput": 1536.0, "mean_ttft_ms": {ttft}, "median_ttft_ms": {ttft}, "std_ttft_ms": {sd}, "p99_ttft_ms": {p99}, "mean_tpot_ms": 10.0, "median_tpot_ms": 10.0, "std_tpot_ms": 1.0, "p99_tpot_ms": 12.0, "mean_itl_ms": 10.0, "median_itl_ms": 10.0, "std_itl_ms": 1.0, "p99_itl_ms": 14.0, "mean_e2el_ms": 1500.0, "median_e2el_ms": 1500.0, "std_e2el_ms": 100.0, "p99_e2el_ms": 1900.0}}"#,
        p99 = ttft * 2.0
    )
}

/// Base: TTFT 100 ms at 1, 2, 4 and 8 req/s. New: 20% faster at 1, the same at 2, 20% slower at
/// 4, no run at 8. With 400 requests and a standard deviation of 20 ms, each mean is known to
/// about ±2%.
fn write_pair(dir: &Path) {
    let base: Vec<String> = [1.0, 2.0, 4.0, 8.0]
        .iter()
        .map(|&r| result(r, 100.0, 20.0, 512.0))
        .collect();
    let new = [
        result(1.0, 80.0, 20.0, 512.0),
        result(2.0, 100.5, 20.0, 512.0),
        result(4.0, 120.0, 20.0, 512.0),
    ];
    std::fs::create_dir_all(dir.join("base")).unwrap();
    std::fs::create_dir_all(dir.join("new")).unwrap();
    std::fs::write(dir.join("base/main.jsonl"), base.join("\n")).unwrap();
    std::fs::write(dir.join("new/pr.jsonl"), new.join("\n")).unwrap();
}

fn compare(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_benchdeck"))
        .current_dir(dir)
        .arg("compare")
        .args(["base", "new", "--metric", "ttft:mean,output_throughput"])
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_verdicts_and_the_gate() {
    let dir = tempfile::tempdir().unwrap();
    write_pair(dir.path());
    let text = compare(dir.path(), &[]);
    assert_eq!(text.status.code(), Some(0), "no gate without --fail-on");
    let out = stdout(&text);
    assert!(
        out.starts_with(
            "benchdeck compare: 1 worse (1 fails the 5% gate), 1 better, 1 no clear difference, \
             3 not judged (noise unknown: no interval on some side)"
        ),
        "{out}"
    );
    let line = |load: &str| {
        let at = out.find(&format!("at {load} req/s")).unwrap();
        out[at..].lines().nth(2).unwrap().trim_end().to_string()
    };
    assert!(line("1").ends_with("better"), "{}", line("1"));
    assert!(line("2").ends_with("no clear difference"), "{}", line("2"));
    assert!(
        line("4").ends_with("worse (fails the gate)"),
        "{}",
        line("4")
    );
    assert!(out.contains("only in base: vllm at 8 req/s"), "{out}");
    // The gate: 1 with the 20% regression, 0 when the threshold is above it.
    assert_eq!(
        compare(dir.path(), &["--fail-on", "worse"]).status.code(),
        Some(1)
    );
    assert_eq!(
        compare(dir.path(), &["--fail-on", "worse", "--threshold", "25"])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        compare(dir.path(), &["--fail-on", "worse", "--threshold", "19.9"])
            .status
            .code(),
        Some(1)
    );
}

#[test]
fn markdown_is_a_github_table_with_the_regressions_first() {
    let dir = tempfile::tempdir().unwrap();
    write_pair(dir.path());
    let md = stdout(&compare(dir.path(), &["--format", "markdown"]));
    insta::assert_snapshot!(md);
    // GitHub's table rules: every row of a table has as many cells as its header.
    for table in md.split("\n\n").filter(|b| b.starts_with("| ")) {
        // Cells are between unescaped pipes.
        let cells: Vec<usize> = table
            .lines()
            .map(|l| l.replace("\\|", "").matches('|').count() - 1)
            .collect();
        assert!(cells.iter().all(|&c| c == cells[0]), "{table}");
        assert!(table.lines().nth(1).unwrap().starts_with("|---"), "{table}");
    }
}

#[test]
fn json_has_its_format_and_every_row() {
    let dir = tempfile::tempdir().unwrap();
    write_pair(dir.path());
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&compare(dir.path(), &["--format", "json"]))).unwrap();
    assert_eq!(json["format"], "benchdeck-compare/2");
    assert_eq!(json["points"].as_array().unwrap().len(), 3);
    assert_eq!(json["only_base"][0]["load"], "8 req/s");
    assert_eq!(json["fails"], true);
    let worse = &json["points"][2]["rows"][0];
    assert_eq!(worse["verdict"], "worse");
    assert!((worse["change_pct"].as_f64().unwrap() - 20.0).abs() < 1e-9);
}

#[test]
fn unreadable_input_exits_2_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    write_pair(dir.path());
    std::fs::write(dir.path().join("new/broken.json"), "{ not json").unwrap();
    let out = compare(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("new/broken.json"), "{err}");
    let missing = Command::new(env!("CARGO_BIN_EXE_benchdeck"))
        .args(["compare", "nowhere", "new"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("base `nowhere` does not exist"));
}

#[test]
fn charts_are_written_per_metric() {
    let dir = tempfile::tempdir().unwrap();
    write_pair(dir.path());
    let out = compare(dir.path(), &["--chart", "charts"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for name in ["ttft-mean.svg", "ttft-mean.png", "output-throughput.svg"] {
        assert!(dir.path().join("charts").join(name).is_file(), "{name}");
    }
    let svg = std::fs::read_to_string(dir.path().join("charts/ttft-mean.svg")).unwrap();
    assert!(svg.contains("Mean TTFT: base against new"));
}

#[test]
fn a_value_from_a_file_cannot_start_a_line_of_its_own_in_a_ci_log() {
    // A model name with a newline and a GitHub Actions command, and a terminal escape.
    let dir = tempfile::tempdir().unwrap();
    let hostile = result(1.0, 100.0, 20.0, 512.0).replace(
        "acme/chat-7b",
        "m\\n::error title=Injected::from result data\\u001b]0;title\\u0007",
    );
    for side in ["base", "new"] {
        std::fs::create_dir_all(dir.path().join(side)).unwrap();
        std::fs::write(dir.path().join(side).join("r.json"), &hostile).unwrap();
    }
    let inspect = Command::new(env!("CARGO_BIN_EXE_benchdeck"))
        .current_dir(dir.path())
        .args(["inspect", "base"])
        .output()
        .unwrap();
    let printed = [stdout(&inspect), stdout(&compare(dir.path(), &[]))].join("\n");
    assert!(printed.contains("m\\n::error title=Injected"), "{printed}");
    assert!(
        printed.lines().all(|line| !line.starts_with("::")),
        "{printed}"
    );
    assert!(!printed.contains('\u{1b}'), "{printed}");
}
