//! llm-d result folders: beside the harness's own result file (`stage_0_lifecycle_metrics.json`,
//! `results.json`, …) llm-d-benchmark writes the reports it converted from it,
//! `benchmark_report_v0.2,_<native file>.yaml` and, version 0.1, `benchmark_report,_<native
//! file>.yaml`. The three hold one run: the 0.2 report's is kept (it names the model, the
//! hardware and the load generator), with the native file's per-request samples and server
//! metrics when it has them; the native file and the 0.1 report are joined into it.

use std::collections::BTreeMap;

use super::join::{by_name, folder_and_name};
use crate::import::llmd_report::VERSION_0_1;
use crate::import::ImportedFile;
use crate::model::{Location, Producer};
use crate::problem::Problem;

/// Joins every report among `imports` with the files of its run.
pub(super) fn join(imports: &mut [ImportedFile]) {
    let index = by_name(imports);
    let reports: Vec<(usize, bool, usize)> = (0..imports.len())
        .filter(|&i| imports[i].producer == Some(Producer::LlmdBenchmarkReport))
        .filter_map(|i| {
            let (is_0_2, native) = converted_from(&imports[i].file, &index)?;
            Some((i, is_0_2, native))
        })
        .collect();
    for &(report, is_0_2, native) in &reports {
        if is_0_2 {
            keep_the_report(imports, report, native);
        }
    }
    for &(old, is_0_2, native) in &reports {
        if is_0_2 || !is_version_0_1(&imports[old]) {
            continue;
        }
        let newer = reports
            .iter()
            .find(|(r, v, n)| *v && *n == native && !imports[*r].runs.is_empty())
            .map(|(r, _, _)| *r);
        let into = newer.or((!imports[native].runs.is_empty()).then_some(native));
        if let Some(into) = into {
            imports[old]
                .problems
                .retain(|p| !p.message.starts_with(VERSION_0_1));
            let name = imports[old].file.clone();
            imports[old].joined_into = Some(imports[into].file.clone());
            imports[into].joined.push(name);
        }
    }
}

/// Whether `path` names a 0.2 report (else 0.1) converted from a file in the same folder, and
/// that file's index: `…/benchmark_report_v0.2,_stage_0_lifecycle_metrics.json.yaml` was
/// converted from `…/stage_0_lifecycle_metrics.json`.
fn converted_from(path: &str, index: &BTreeMap<String, usize>) -> Option<(bool, usize)> {
    let (folder, name) = folder_and_name(path);
    let (prefix, native) = name.split_once(",_")?;
    let is_0_2 = match prefix {
        "benchmark_report" => false,
        p if p.starts_with("benchmark_report_v0.2") => true,
        _ => return None,
    };
    let stem = native
        .strip_suffix(".yaml")
        .or_else(|| native.strip_suffix(".json"))
        .unwrap_or(native);
    [stem, native]
        .iter()
        .find_map(|n| index.get(&format!("{folder}{n}")).copied())
        .map(|i| (is_0_2, i))
}

fn is_version_0_1(file: &ImportedFile) -> bool {
    file.problems
        .iter()
        .any(|p| p.message.starts_with(VERSION_0_1))
}

/// The 0.2 report's run is kept, with the native file's samples and server metrics.
fn keep_the_report(imports: &mut [ImportedFile], report: usize, native: usize) {
    if imports[native].producer == Some(Producer::LlmdBenchmarkReport) {
        return;
    }
    let ([_], [native_run]) = (
        imports[report].runs.as_slice(),
        imports[native].runs.as_slice(),
    ) else {
        return;
    };
    let samples = native_run.samples.clone();
    let server = native_run.server.clone();
    let native_name = imports[native].file.clone();
    let report_name = imports[report].file.clone();
    let run = &mut imports[report].runs[0];
    let mut kept = Vec::new();
    if run.samples.is_none() && samples.is_some() {
        run.samples = samples;
        kept.push("per-request samples");
    }
    if run.server.is_none() && server.is_some() {
        run.server = server;
        kept.push("server metrics");
    }
    let with = if kept.is_empty() {
        String::new()
    } else {
        format!(", with that file's {}", kept.join(" and "))
    };
    run.problems.push(Problem::warning(
        &report_name,
        Location::File,
        format!(
            "llm-d converted this report from `{native_name}` beside it: one run, counted once. \
             The report's run is kept (it names the model, hardware and load generator){with}; \
             `{native_name}` is joined into it"
        ),
    ));
    let mut carried = std::mem::take(&mut imports[native].joined);
    imports[native].runs.clear();
    imports[native].joined_into = Some(report_name);
    imports[report].joined.push(native_name);
    imports[report].joined.append(&mut carried);
}
