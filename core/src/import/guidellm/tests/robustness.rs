//! Robustness sweeps: many requests read in one pass, and truncated fixtures, wrong types and
//! junk cells that never panic.

use serde_json::{json, Value};

use super::read;
use crate::import::import;

#[test]
fn many_requests_are_read_in_one_pass() {
    let request = json!({
        "request_start_time": 1.0, "request_end_time": 2.5, "request_latency": 1.5,
        "time_to_first_token_ms": 40.0, "inter_token_latency_ms": 9.5,
        "prompt_tokens": 256, "output_tokens": 128
    });
    let mut doc: Value = serde_json::from_slice(&read("v0.7/benchmarks.json")).unwrap();
    let n = 100_000;
    doc["benchmarks"][0]["requests"]["successful"] = Value::Array(vec![request; n]);
    let text = doc.to_string();
    let start = std::time::Instant::now();
    let f = import("big.json", text.as_bytes());
    let s = f.runs[0].samples.as_ref().unwrap();
    assert_eq!(s.len(), n);
    assert_eq!((s.e2e_ms[n - 1], s.tpot_ms[0]), (1500.0, 9.5));
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
}

/// Every fixture, cut at many places, never panics.
#[test]
fn truncated_fixtures_never_panic() {
    for path in [
        "v0.3/benchmarks.csv",
        "v0.5/benchmarks.csv",
        "v0.6/benchmarks.json",
        "v0.7/benchmarks.json",
        "v0.7/benchmarks.yaml",
        "v0.7/benchmarks.csv",
        "broken/broken.csv",
    ] {
        let bytes = read(path);
        let step = (bytes.len() / 700).max(1);
        for end in (0..bytes.len()).step_by(step) {
            let f = import(path, &bytes[..end]);
            assert!(
                !f.runs.is_empty() || !f.problems.is_empty(),
                "{path} cut at {end}: nothing and no reason"
            );
        }
    }
}

/// Every value of a report, one at a time, replaced by values of the wrong type, never panics.
#[test]
fn wrong_types_anywhere_in_a_report_never_panic() {
    let replacements = [
        Value::Null,
        json!("slow"),
        json!("-Infinity"),
        json!(-1),
        json!([]),
        json!({}),
    ];
    for doc in [
        reduced("v0.6/benchmarks.json"),
        reduced("v0.3/benchmarks.json"),
    ] {
        let places = crate::fixtures::json_pointers(&doc);
        for place in &places {
            for replacement in &replacements {
                let mut changed = doc.clone();
                if let Some(slot) = changed.pointer_mut(place) {
                    *slot = replacement.clone();
                }
                let f = import("x.json", changed.to_string().as_bytes());
                assert!(
                    !f.runs.is_empty() || !f.problems.is_empty(),
                    "{place} = {replacement}: nothing and no reason"
                );
            }
        }
    }
}

/// A fixture cut down to keep the sweep short: its first benchmark, the `successful` status of
/// each metric, one request per list, without the parts nothing reads.
fn reduced(path: &str) -> Value {
    let mut doc: Value = serde_json::from_slice(&read(path)).unwrap();
    if let Some(Value::Array(benchmarks)) = doc.get_mut("benchmarks") {
        benchmarks.truncate(1);
    }
    if let Some(Value::Object(metrics)) = doc.pointer_mut("/benchmarks/0/metrics") {
        for metric in metrics.values_mut() {
            if let Value::Object(statuses) = metric {
                statuses.retain(|k, _| k == "successful");
            }
        }
    }
    if let Some(Value::Object(lists)) = doc.pointer_mut("/benchmarks/0/requests") {
        for list in lists.values_mut() {
            if let Value::Array(items) = list {
                items.truncate(1);
            }
        }
    }
    strip(&mut doc);
    doc
}

/// Removes the parts no importer reads (request timings, scheduler state, ...).
fn strip(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|k, _| {
                !matches!(
                    k.as_str(),
                    "info"
                        | "input_metrics"
                        | "output_metrics"
                        | "scheduler_info"
                        | "backend_info"
                        | "scheduler_state"
                        | "request_loader"
                        | "constraints"
                        | "environment"
                        | "profile"
                        | "text"
                        | "image"
                        | "video"
                        | "audio"
                        | "tool_call"
                )
            });
            m.values_mut().for_each(strip);
        }
        Value::Array(items) => items.iter_mut().for_each(strip),
        _ => {}
    }
}

/// Every cell of the CSVs, one at a time, replaced by junk, never panics.
#[test]
fn junk_in_any_csv_cell_never_panics() {
    for path in ["v0.7/benchmarks.csv", "v0.3/benchmarks.csv"] {
        let text = String::from_utf8(read(path)).unwrap();
        let rows: Vec<Vec<String>> = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes())
            .records()
            .map(|r| r.unwrap().iter().map(String::from).collect())
            .collect();
        for r in 0..rows.len() {
            for c in 0..rows[r].len() {
                for junk in ["", "x", "[1, 2", "NaN", "-1", "{}", "inf"] {
                    let mut changed = rows.clone();
                    changed[r][c] = junk.to_string();
                    let mut w = csv::Writer::from_writer(Vec::new());
                    for row in &changed {
                        w.write_record(row).unwrap();
                    }
                    let bytes = w.into_inner().unwrap();
                    let f = import(path, &bytes);
                    assert!(
                        !f.runs.is_empty() || !f.problems.is_empty(),
                        "{path} row {r} cell {c} = {junk:?}: nothing and no reason"
                    );
                }
            }
        }
    }
}
