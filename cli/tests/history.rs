//! `benchdeck history` and `compare --history` run as a user runs them: a folder of nightly
//! results written to disk, with a slower prefill from a new driver on the 11th night.

use std::path::Path;
use std::process::{Command, Output};

/// Night `day`'s `vllm bench serve` result at 4 req/s: mean TTFT `ttft` ms, and the driver.
fn night(day: usize, ttft: f64, driver: &str) -> String {
    format!(
        r#"{{"date": "202611{day:02}-020000", "backend": "vllm", "model_id": "acme/chat-7b", "request_rate": 4.0, "duration": 100.0, "completed": 400, "failed": 0, "output_throughput": 500.0, "mean_ttft_ms": {ttft}, "driver": "{driver}"}}"#
    )
}

/// Nights 1 to `days` in `dir/nightly/2026-11-DD/r.json`: 100 ms with a wobble of ±1.5%, 130 ms
/// with driver 560 from night 11 on.
fn write_nights(dir: &Path, days: usize) {
    for day in 1..=days {
        let wobble = [0.0, 1.5, -1.0, 0.5, -1.5, 1.0, -0.5][day % 7];
        let (level, driver) = if day >= 11 {
            (130.0, "560")
        } else {
            (100.0, "550")
        };
        let folder = dir.join(format!("nightly/2026-11-{day:02}"));
        std::fs::create_dir_all(&folder).unwrap();
        let ttft = level * (1.0 + wobble / 100.0);
        std::fs::write(folder.join("r.json"), night(day, ttft, driver)).unwrap();
    }
}

fn benchdeck(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_benchdeck"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn history_names_the_change_its_date_and_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    write_nights(dir.path(), 18);
    let out = benchdeck(dir.path(), &["history", "nightly", "--metric", "ttft:mean"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = stdout(&out);
    assert!(
        text.starts_with("benchdeck history: 1 series, 1 change point, 0 outliers"),
        "{text}"
    );
    assert!(text.contains("change: vllm at 4 req/s"), "{text}");
    assert!(
        text.contains("Mean TTFT +29.6% (worse) from 2026-11-11"),
        "{text}"
    );
    assert!(text.contains("what changed: driver 550 → 560"), "{text}");
    let json = benchdeck(
        dir.path(),
        &["history", "nightly", "--json", "--metric", "ttft:mean"],
    );
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["format"], "benchdeck-history/1");
    let change = &value["change_points"][0];
    assert_eq!(change["date"], "2026-11-11");
    assert_eq!(change["metric"], "Mean TTFT");
    assert_eq!(change["direction"], "worse");
    assert_eq!(change["what_changed"][0]["what"], "driver");
    assert_eq!(change["before"]["nights"], 10);
}

#[test]
fn a_bad_since_is_an_error_that_says_what_is_expected() {
    let dir = tempfile::tempdir().unwrap();
    write_nights(dir.path(), 5);
    let out = benchdeck(dir.path(), &["history", "nightly", "--since", "11/01/2026"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected a day as YYYY-MM-DD"));
}

#[test]
fn the_history_gate_fails_a_night_worse_than_the_current_level_only() {
    let dir = tempfile::tempdir().unwrap();
    write_nights(dir.path(), 18);
    let write_new = |name: &str, ttft: f64| {
        let folder = dir.path().join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("r.json"), night(19, ttft, "560")).unwrap();
    };
    write_new("same", 131.0);
    write_new("slower", 170.0);
    let gate = |new: &str| {
        benchdeck(
            dir.path(),
            &[
                "compare",
                "--history",
                "nightly",
                new,
                "--metric",
                "ttft:mean",
                "--fail-on",
                "worse",
            ],
        )
    };
    let same = gate("same");
    assert_eq!(same.status.code(), Some(0), "{}", stdout(&same));
    assert!(stdout(&same).contains("as the current level predicts"));
    let slower = gate("slower");
    assert_eq!(slower.status.code(), Some(1), "{}", stdout(&slower));
    assert!(stdout(&slower).contains("[worse, fails]"));
}
