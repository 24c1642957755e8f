//! llm-d-benchmark's benchmark report, version 0.2 (and its additive 0.2.1): the common format
//! llm-d Prism ingests, one report per load point, written by `llm-d-benchmark` as
//! `benchmark_report_v0.2,_<native file>.yaml` beside the harness's own result file (PyYAML:
//! keys sorted, so the first line is `results:`; `None` left out) or as JSON (field order).
//!
//! `{version: "0.2", run: {uid, eid, time: {start, end, duration}, description, keywords},
//! scenario: {stack: [component], load: {standardized}}, results: {request_performance:
//! {aggregate: {requests, latency, throughput}}}}`. One run per report:
//! - **Configuration** ([`scenario`]): the stack's `inference_engine` components give the model
//!   (`model.name`), engine (`tool`), hardware (Σ `replicas` × `accelerator.count`, `2x
//!   NVIDIA-H100-80GB-HBM3`), `tp` and the replicas of each role; a non-empty `metadata.label`
//!   is the label. The load generator (`load.standardized.tool`) and its version are the
//!   producer's, its target `input_seq_len`/`output_seq_len` the workload.
//! - **Load**: `rate_qps` (req/s, `.inf` allowed) with `concurrency` as its cap; a finite
//!   `concurrency` alone, or from inference-perf (whose converter copies a concurrent stage's
//!   request count into `rate_qps`), is a concurrency.
//! - **Statistics** (`results`: `{units, mean, stddev, min, max, p0p1 (0.1), p1 … p50 (the
//!   median) … p99, p99p9 (99.9), mode}`), converted from their `units` (`s`, `ms`, `s/token`,
//!   `ms/token`). What each latency means depends on the tool the report was converted from
//!   ([`results::definition`]): `inter_token_latency` is pooled ITL from inference-perf and
//!   vLLM's benchmark, but per-request TPOT from GuideLLM and AIPerf.
//! - **Counts**: `requests.total`, `failures`, `incomplete`; AIPerf's converter writes its
//!   successful count as `total` and the number of error *kinds* as `failures`, so those are
//!   read as successes with the failures unknown.
//!
//! Reports of version 0.1 (`version`, `scenario`, `metrics`) are recognised, not read: llm-d
//! writes the 0.2 report of the same run beside them, and `import_all` joins them.

mod results;
mod scenario;

use serde_json::Value;

use super::fields::Fields;
use super::json_objects::nested;
use super::unread::Unread;
use super::ImportedFile;
use crate::model::{Location, Producer, Provenance, Run};
use crate::problem::Problem;
use crate::yaml;

/// The error of a 0.1 report read alone.
pub(crate) const VERSION_0_1: &str = "an llm-d benchmark report of version 0.1";

/// True for a 0.2 report as JSON: `version` 0.2 or 0.2.x, `run` and `results` objects.
pub(super) fn is_report(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    obj.get("version").is_some_and(is_version_0_2)
        && obj.get("run").is_some_and(Value::is_object)
        && obj.get("results").is_some_and(Value::is_object)
}

fn is_version_0_2(v: &Value) -> bool {
    match v {
        Value::String(s) => {
            let s = s.trim();
            s == "0.2"
                || s.strip_prefix("0.2.")
                    .is_some_and(|r| r.parse::<u32>().is_ok())
        }
        Value::Number(n) => n.as_f64() == Some(0.2),
        _ => false,
    }
}

/// The version a top-level `version:` line of a YAML report names (`0.2`, `0.1`), unquoted.
fn yaml_version(text: &str) -> Option<&str> {
    let line = text.lines().find_map(|l| l.strip_prefix("version:"))?;
    let v = line.split('#').next()?.trim();
    Some(v.trim_matches(|c| c == '\'' || c == '"'))
}

/// True when the text has the top-level keys of a report: `version: '0.2'` (or 0.1), `run:`
/// (0.2) or `metrics:` (0.1), and `results:` or `scenario:`; in any order (PyYAML sorts them).
pub(super) fn is_yaml_report(text: &str) -> bool {
    // `run: # a comment` is the key `run`.
    let top = |key: &str| {
        text.lines().any(|l| {
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim().is_empty() || rest.trim_start().starts_with('#'))
        })
    };
    match yaml_version(text) {
        Some(v) if v == "0.2" || v.starts_with("0.2.") => top("run:") && top("results:"),
        Some("0.1") => top("scenario:") && top("metrics:"),
        _ => false,
    }
}

/// Reads a YAML report: parsed into a JSON value and read like the JSON form; a 0.1 report is
/// recognised and refused with the reason.
pub(super) fn read_yaml(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile::new(file, Some(Producer::LlmdBenchmarkReport));
    if yaml_version(text) == Some("0.1") {
        out.problems.push(Problem::error(
            file,
            Location::File,
            format!(
                "{VERSION_0_1}: not read (its layout is superseded); llm-d writes the 0.2 report \
                 of the same run beside it (`benchmark_report_v0.2,_…`), which benchdeck reads"
            ),
        ));
        return out;
    }
    match yaml::parse(text, yaml::Schema::PyYaml) {
        Ok(value) => read_document(&mut out, &value, Location::json("")),
        Err(e) => out
            .problems
            .push(Problem::error(file, e.location, e.message)),
    }
    out
}

/// Reads one report into one run.
pub(super) fn read_document(out: &mut ImportedFile, value: &Value, at: Location) {
    let Some(obj) = out.require(
        value.as_object(),
        &at,
        "expected a benchmark report object with `version`, `run` and `results`",
    ) else {
        return;
    };
    let mut f = Fields::new(obj, &out.file, at.clone());
    let mut unread = Unread::default();
    unread.keys(obj, "", &["version", "run", "scenario", "results"]);
    let date = nested(&mut f, "run", |r| read_run(r, &mut unread)).flatten();
    let scenario =
        nested(&mut f, "scenario", |s| scenario::read(s, &mut unread)).unwrap_or_default();
    let Some(measured) = nested(&mut f, "results", |r| {
        results::read(r, &scenario.tool, &mut unread)
    })
    .flatten() else {
        f.error_at(
            "results.request_performance.aggregate",
            "expected the aggregate request statistics (`requests`, `latency`, `throughput`); \
             the report has no run",
        );
        out.problems.append(&mut f.problems);
        return;
    };
    let mut run = Run::new(
        Provenance {
            producer_version: scenario.tool_version.clone(),
            date,
            ..Provenance::new(&out.file, at.clone(), Producer::LlmdBenchmarkReport)
        },
        scenario.config,
        scenario.load,
    );
    run.workload = scenario.workload;
    measured.fill(&mut run);
    run.problems.append(&mut f.problems);
    run.problems
        .extend(unread.warning(&out.file, at, "the llm-d benchmark report"));
    out.runs.push(run);
}

/// `run`: when it started (its ids, user and description are not modelled).
fn read_run(r: &mut Fields<'_>, unread: &mut Unread) -> Option<crate::model::RunDate> {
    unread.keys(r.obj, "run", &["uid", "eid", "cid", "pid", "time"]);
    nested(r, "time", |t| t.date("start")).flatten()
}

#[cfg(test)]
mod tests;
