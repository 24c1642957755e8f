//! Per-request files joined into the summary beside them: AIPerf's `profile_export.jsonl` into
//! `profile_export_aiperf.json`, and perf_analyzer's `profile_export.json` into GenAI-Perf's
//! `profile_export_genai_perf.json`. The summary's run keeps its load point, configuration,
//! counts and statistics, and takes the requests as its samples, with any latency metric only
//! they give (ITL as gaps pooled over requests).

use super::join::{by_name, drop_alone_warning, folder_and_name, record};
use crate::import::ImportedFile;
use crate::model::{Location, Producer};
use crate::problem::Problem;

/// The per-request files, their summary's name, and the warning they carry alone.
const PAIRS: [(&str, Producer, &str, Producer, &str); 2] = [
    (
        "profile_export.jsonl",
        Producer::Aiperf,
        "profile_export_aiperf.json",
        Producer::Aiperf,
        crate::import::aiperf_records::NO_SUMMARY,
    ),
    (
        "profile_export.json",
        Producer::PerfAnalyzer,
        "profile_export_genai_perf.json",
        Producer::GenaiPerf,
        crate::import::perf_analyzer::NO_SUMMARY,
    ),
];

/// Joins every per-request file of [`PAIRS`] with its summary in the same folder.
pub(super) fn join(imports: &mut [ImportedFile]) {
    let index = by_name(imports);
    for requests in 0..imports.len() {
        let name = imports[requests].file.clone();
        let (folder, file) = folder_and_name(&name);
        for (own, producer, summary_name, summary_producer, alone) in PAIRS {
            if file != own || imports[requests].producer != Some(producer) {
                continue;
            }
            let Some(&summary) = index.get(&format!("{folder}{summary_name}")) else {
                continue;
            };
            if imports[summary].producer == Some(summary_producer) {
                give_samples(imports, summary, requests, alone);
            }
        }
    }
}

/// The summary's one run takes the requests of the per-request file's one run.
fn give_samples(imports: &mut [ImportedFile], summary: usize, requests: usize, alone: &str) {
    let ([summary_run], [requests_run]) = (
        imports[summary].runs.as_slice(),
        imports[requests].runs.as_slice(),
    ) else {
        return;
    };
    if summary_run.samples.is_some() || requests_run.samples.is_none() {
        return;
    }
    let mut from = requests_run.clone();
    drop_alone_warning(&mut from, alone);
    let requests_file = imports[requests].file.clone();
    let run = &mut imports[summary].runs[0];
    let (theirs, ours) = (from.requests.succeeded, run.requests.succeeded);
    if let (Some(theirs), Some(ours)) = (theirs, ours) {
        if theirs != ours {
            run.problems.push(Problem::warning(
                &requests_file,
                Location::File,
                format!(
                    "holds {theirs} successful requests but the summary beside it counts {ours}: \
                     the two files may come from different runs; the charts of per-request data \
                     show these {theirs}"
                ),
            ));
        }
    }
    from.latency
        .retain(|m| run.latency.iter().all(|r| r.metric != m.metric));
    run.latency.append(&mut from.latency);
    run.latency.sort_by_key(|m| m.metric);
    run.samples = from.samples.take();
    run.problems.append(&mut from.problems);
    record(imports, summary, requests);
}
