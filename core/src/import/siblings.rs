//! Result files that only make sense together, joined after each was read alone: in one folder,
//!
//! | files | what the join gives |
//! |---|---|
//! | llmperf `X_summary.json` + `X_individual_responses.json` | the summary's run (model, concurrency, statistics) with the per-request samples |
//! | Locust `X_stats.csv` + `X_stats_history.csv` | the stats' run at the history's peak `User Count` (its load point) |
//! | GenAI-Perf or AIPerf `profile_export_*.json` + `profile_export_*.csv` | one run, the JSON's (load point, configuration), with any statistic only the CSV has |
//! | `vllm bench sweep`'s `summary.json` + `run=N.json` | each run once: from its `run=N.json`; the summary keeps only runs no run file holds |
//! | inference-perf `config.yaml` + `*_lifecycle_metrics.json` | each report's run with the configuration's model, engine and target lengths |
//! | inference-perf `stage_N_prometheus_metrics.json` + `stage_N_lifecycle_metrics.json` | the stage's run with the server's metrics |
//! | inference-perf `summary_lifecycle_metrics.json` + `stage_N_lifecycle_metrics.json` | the stages' runs; the summary's (the same requests again) is dropped |
//! | AIPerf `X_timeslices.json` + `X.json` (`profile_export_aiperf…`) | the summary's run with the slices, the run over time |
//! | AIPerf `profile_export.jsonl` + `profile_export_aiperf.json` | the JSON's run with the records as per-request samples, and ITL as their pooled chunk gaps |
//! | perf_analyzer `profile_export.json` + GenAI-Perf `profile_export_genai_perf.json` | the GenAI-Perf run with perf_analyzer's requests as samples |
//! | llmperf-bench `X_results.json` + `X_summary.json` + `X_cur_N.json` | the full summaries' runs; the condensed copies are joined into them |
//! | llm-d `benchmark_report_v0.2,_X.yaml` (and 0.1's `benchmark_report,_X.yaml`) + `X` | one run, the 0.2 report's, with `X`'s per-request samples and server metrics |
//! | a result file + Prometheus scrapes, engine series, `nvidia-smi` logs, engine logs | the run with its engine and GPU figures (`engine`) |
//!
//! The joined run stays in the file that names the configuration (the summary, the stats, the
//! JSON), which lists its sibling in [`ImportedFile::joined`]; the sibling gives up its run and
//! says where its data went ([`ImportedFile::joined_into`]). A file read without its sibling
//! keeps the warning that names what the sibling would add.

mod engine;
mod inference_perf;
mod join;
mod llmd;
mod llmperf_bench;
mod per_request;

use std::collections::BTreeMap;

use super::ImportedFile;
use crate::input::InputFile;
use crate::model::{LoadTarget, Location, Producer, Run};
use crate::problem::Problem;
use join::{by_name, drop_alone_warning, record};

/// Joins the siblings among `imports`; `files[i]` is what `imports[i]` was read from.
pub fn join_siblings(files: &[InputFile], imports: &mut [ImportedFile]) {
    let index = by_name(imports);
    for i in 0..imports.len() {
        let name = imports[i].file.clone();
        if let Some(prefix) = name.strip_suffix("_individual_responses.json") {
            let summary = sibling(&index, &format!("{prefix}_summary.json"));
            if let Some(summary) = summary.filter(|&s| both(imports, s, i, Producer::Llmperf)) {
                join_llmperf(imports, summary, i);
            }
        } else if let Some(prefix) = name.strip_suffix("_stats_history.csv") {
            let stats = sibling(&index, &format!("{prefix}_stats.csv"));
            if let Some(stats) = stats.filter(|&s| both(imports, s, i, Producer::Locust)) {
                join_locust(imports, stats, i, &files[i].bytes);
            }
        } else if let Some(prefix) = name.strip_suffix("_timeslices.json") {
            let summary = sibling(&index, &format!("{prefix}.json"));
            if let Some(summary) = summary.filter(|&s| both(imports, s, i, Producer::Aiperf)) {
                join_timeslices(imports, summary, i);
            }
        } else if let Some(folder) = name.strip_suffix("summary.json") {
            let folder = folder.to_string();
            join_sweep(imports, i, &folder);
        } else if let Some(json) = perf_analyzer_json(&name).and_then(|j| sibling(&index, &j)) {
            if same_tool(imports, json, i) {
                join_profile_exports(imports, json, i);
            }
        }
    }
    per_request::join(imports);
    llmperf_bench::join(imports);
    inference_perf::join(files, imports);
    // After inference-perf's joins: a stage's server metrics move on with its run.
    llmd::join(imports);
    // Last: telemetry goes with the runs the joins above left.
    engine::join(imports);
}

fn sibling(index: &BTreeMap<String, usize>, name: &str) -> Option<usize> {
    index.get(name).copied()
}

/// Both files were written by `producer`.
fn both(imports: &[ImportedFile], a: usize, b: usize, producer: Producer) -> bool {
    imports[a].producer == Some(producer) && imports[b].producer == Some(producer)
}

/// Both files are GenAI-Perf's, or both AIPerf's, and both gave runs.
fn same_tool(imports: &[ImportedFile], a: usize, b: usize) -> bool {
    let tool = imports[a].producer;
    matches!(tool, Some(Producer::GenaiPerf | Producer::Aiperf))
        && imports[b].producer == tool
        && !imports[a].runs.is_empty()
        && !imports[b].runs.is_empty()
}

/// `…/profile_export_genai_perf.csv` → `…/profile_export_genai_perf.json` (AIPerf alike).
fn perf_analyzer_json(name: &str) -> Option<String> {
    ["profile_export_genai_perf", "profile_export_aiperf"]
        .iter()
        .find_map(|stem| {
            let (folder, file) = name.rsplit_once('/').unwrap_or(("", name));
            (file == format!("{stem}.csv")).then(|| {
                if folder.is_empty() {
                    format!("{stem}.json")
                } else {
                    format!("{folder}/{stem}.json")
                }
            })
        })
}

/// The summary's run gets the per-request samples (and the other problems of the per-request
/// file's run).
fn join_llmperf(imports: &mut [ImportedFile], summary: usize, individual: usize) {
    let [summary_run] = imports[summary].runs.as_slice() else {
        return;
    };
    let [requests] = imports[individual].runs.as_slice() else {
        return;
    };
    if summary_run.samples.is_some() || requests.samples.is_none() {
        return;
    }
    let mut requests = requests.clone();
    drop_alone_warning(&mut requests, "per-request file: it names no model");
    let individual_file = imports[individual].file.clone();
    let run = &mut imports[summary].runs[0];
    let sampled = requests.samples.as_ref().map_or(0, |s| s.len()) as u64;
    if let Some(total) = run.requests.total.filter(|&t| t != sampled) {
        run.problems.push(Problem::warning(
            &individual_file,
            Location::File,
            format!(
                "holds {sampled} request{} but its summary counts {total}: the two files may come \
                 from different runs; the charts of per-request data show these {sampled}",
                crate::format::plural(sampled as usize)
            ),
        ));
    }
    run.samples = requests.samples.take();
    run.problems.append(&mut requests.problems);
    record(imports, summary, individual);
}

/// AIPerf's summary's run takes the slices of its timeslices export; the export's own run (a
/// sum of the slices, without percentiles) is dropped with its warning.
fn join_timeslices(imports: &mut [ImportedFile], summary: usize, timeslices: usize) {
    let ([run], [sliced]) = (
        imports[summary].runs.as_slice(),
        imports[timeslices].runs.as_slice(),
    ) else {
        return;
    };
    if !run.slices.is_empty() || run.load.target != sliced.load.target {
        return;
    }
    let slices = std::mem::take(&mut imports[timeslices].runs[0].slices);
    imports[summary].runs[0].slices = slices;
    record(imports, summary, timeslices);
}

/// The stats' run, whose load point is unknown, gets the history's peak user count.
fn join_locust(imports: &mut [ImportedFile], stats: usize, history: usize, bytes: &[u8]) {
    let unknown = |r: &Run| r.load.target == LoadTarget::MaxThroughput;
    if imports[stats].runs.is_empty() || !imports[stats].runs.iter().all(unknown) {
        return;
    }
    let Some(users) = peak_users(bytes) else {
        return;
    };
    for run in &mut imports[stats].runs {
        run.load.target = LoadTarget::Concurrency(users);
        drop_alone_warning(run, "the load point is unknown: Locust's stats");
    }
    imports[history]
        .problems
        .retain(|p| !p.message.starts_with("Locust stats history: a time series"));
    record(imports, stats, history);
}

/// The largest `User Count` of a Locust stats history (none when the column is missing or
/// holds no number).
fn peak_users(bytes: &[u8]) -> Option<f64> {
    let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(bytes);
    let headers = reader.headers().ok()?.clone();
    let column = headers
        .iter()
        .position(|h| h.trim().eq_ignore_ascii_case("user count"))?;
    reader
        .records()
        .filter_map(Result::ok)
        .filter_map(|row| row.get(column)?.trim().parse::<f64>().ok())
        .filter(|u| u.is_finite() && *u > 0.0)
        .reduce(f64::max)
}

/// A sweep's `summary.json` (file `summary`) repeats the runs of the `run=N.json` files beside
/// it: each run counts once, from its own file. The summary gives up every run a run file
/// holds, keeps those no run file holds (a folder copied in part), and warns when a run file
/// holds a run the summary does not (the two were written by different sweeps).
fn join_sweep(imports: &mut [ImportedFile], summary: usize, folder: &str) {
    if imports[summary].producer != Some(Producer::VllmServe) || imports[summary].runs.is_empty() {
        return;
    }
    let run_files: Vec<usize> = (0..imports.len())
        .filter(|&j| {
            imports[j]
                .file
                .strip_prefix(folder)
                .is_some_and(is_run_file)
                && imports[j].producer == Some(Producer::VllmServe)
                && !imports[j].runs.is_empty()
        })
        .collect();
    if run_files.is_empty() {
        return;
    }
    let in_files: Vec<Run> = run_files
        .iter()
        .flat_map(|&j| imports[j].runs.iter().cloned())
        .collect();
    let listed = imports[summary].runs.clone();
    imports[summary]
        .runs
        .retain(|r| !in_files.iter().any(|f| same_run(r, f)));
    let summary_name = imports[summary].file.clone();
    for &j in &run_files {
        if imports[j]
            .runs
            .iter()
            .all(|r| listed.iter().any(|l| same_run(r, l)))
        {
            continue;
        }
        let file = imports[j].file.clone();
        imports[j].problems.push(Problem::warning(
            &file,
            Location::File,
            format!(
                "its run is not the one `{summary_name}` beside it lists (different numbers): \
                 the two disagree, and both are counted"
            ),
        ));
    }
    if imports[summary].runs.is_empty() {
        imports[summary].joined_into = Some(format!("{folder}run=*.json"));
    }
}

/// `run=3.json`, a sweep's repetition file.
fn is_run_file(name: &str) -> bool {
    name.strip_prefix("run=")
        .and_then(|rest| rest.strip_suffix(".json"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// True when `a` and `b` are one measurement read from two files.
fn same_run(a: &Run, b: &Run) -> bool {
    a.provenance.date == b.provenance.date
        && a.config == b.config
        && a.load == b.load
        && a.requests == b.requests
        && a.latency == b.latency
        && a.throughput == b.throughput
}

/// The JSON's run keeps its load point and configuration and takes any latency metric or
/// statistic only the CSV has; the CSV's run (the same measurement) is dropped.
fn join_profile_exports(imports: &mut [ImportedFile], json: usize, csv: usize) {
    let ([json_run], [csv_run]) = (imports[json].runs.as_slice(), imports[csv].runs.as_slice())
    else {
        return;
    };
    let mut extra = csv_run.latency.clone();
    extra.retain(|m| json_run.latency.iter().all(|j| j.metric != m.metric));
    let run = &mut imports[json].runs[0];
    run.latency.append(&mut extra);
    record(imports, json, csv);
}

#[cfg(test)]
mod tests;
