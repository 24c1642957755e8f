//! Engine and GPU telemetry matched to the run it was recorded beside
//! ([`crate::telemetry`]): a file goes with the result file whose name begins its own
//! (`sweep_c16.json` takes `sweep_c16.m0.prom` and `sweep_c16_gpu.csv`), else with the run of
//! its folder when the folder holds one configuration at one load (the same run may be there
//! twice, as a JSON and as the console output it printed), with a warning naming that
//! assumption. Files that match no run say why. The run then carries the figures of all its
//! files ([`crate::model::Run::engine`]).

use std::collections::BTreeMap;

use super::join::{folder_and_name, folder_of};
use crate::import::ImportedFile;
use crate::model::{EngineMetrics, Location, Run};
use crate::problem::Problem;
use crate::telemetry::reconcile::reconcile;
use crate::telemetry::server_report;
use crate::telemetry::summary::{self, Source};

/// Matches every telemetry file among `imports` to its run and gives the runs their figures.
pub(super) fn join(imports: &mut [ImportedFile]) {
    from_server_reports(imports);
    let mut matched: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for t in 0..imports.len() {
        let Some(readings) = &imports[t].telemetry else {
            continue;
        };
        if readings.is_empty() {
            continue;
        }
        match targets(imports, t) {
            Ok(runs) => {
                for r in runs {
                    matched.entry(r).or_default().push(t);
                }
            }
            Err(why) => warn(&mut imports[t], why),
        }
    }
    for (run_file, telemetry) in matched {
        let sources: Vec<Source> = telemetry
            .iter()
            .filter_map(|&t| {
                Some(Source {
                    file: &imports[t].file,
                    readings: imports[t].telemetry.as_deref()?,
                })
            })
            .collect();
        let (metrics, notes) = summary::summarise(&sources);
        for &t in &telemetry {
            if imports[t].joined_into.is_none() {
                imports[t].joined_into = Some(imports[run_file].file.clone());
                let name = imports[t].file.clone();
                imports[run_file].joined.push(name);
            }
        }
        for (file, note) in notes {
            if let Some(&t) = telemetry.iter().find(|&&t| imports[t].file == file) {
                warn(&mut imports[t], note);
            }
        }
        give(&mut imports[run_file].runs[0], metrics);
    }
}

/// Runs that carry a server report (inference-perf's) take its engine figures, set beside the
/// client's own.
fn from_server_reports(imports: &mut [ImportedFile]) {
    for run in imports.iter_mut().flat_map(|f| f.runs.iter_mut()) {
        let Some(server) = run.server.as_deref().and_then(server_report::engine_of) else {
            continue;
        };
        give(run, server);
    }
}

/// Gives `run` the server's figures, set beside what its own file said (the client's), with a
/// warning on the run for each figure the two disagree on.
fn give(run: &mut Run, server: EngineMetrics) {
    let client = run.engine.take().map(|e| *e);
    let (metrics, disagreements) = reconcile(client, server, run.requests.succeeded);
    run.engine = Some(Box::new(metrics));
    for note in disagreements {
        let at = run.provenance.location.clone();
        run.problems
            .push(Problem::warning(&run.provenance.file, at, note));
    }
}

fn warn(file: &mut ImportedFile, message: String) {
    let problem = Problem::warning(&file.file, Location::File, message);
    if !file.problems.contains(&problem) {
        file.problems.push(problem);
    }
}

/// The files of one run that telemetry file `t` belongs to, or why it belongs to none.
fn targets(imports: &mut [ImportedFile], t: usize) -> Result<Vec<usize>, String> {
    let (folder, name) = folder_and_name(&imports[t].file);
    let name = name.to_string();
    let in_folder: Vec<usize> = (0..imports.len())
        .filter(|&i| i != t && !imports[i].runs.is_empty())
        .filter(|&i| folder_of(&imports[i].file) == folder.trim_end_matches('/'))
        .collect();
    let named: Vec<usize> = in_folder
        .iter()
        .copied()
        .filter(|&i| begins(&name, folder_and_name(&imports[i].file).1))
        .collect();
    let candidates = if named.is_empty() { &in_folder } else { &named };
    if candidates.is_empty() {
        return Err("matched to no run: no result file in its folder gave one".to_string());
    }
    let runs = || candidates.iter().flat_map(|&i| imports[i].runs.iter());
    // One measurement, maybe written twice: one model, one load, one count of successes.
    let identity = |r: &Run| (r.config.model.clone(), r.load.target, r.requests.succeeded);
    let first = runs().next().map(identity);
    let one_run = runs().all(|r| Some(identity(r)) == first);
    let one_per_file = candidates.iter().all(|&i| imports[i].runs.len() == 1);
    if !(one_run && one_per_file) {
        return Err(format!(
            "matched to no run: its folder holds {} runs of different models, loads or request counts, \
             and no result file's name begins its own (`run.json` takes `run.m0.prom` and \
             `run_gpu.csv`); give each run a folder of its own, or name the file after its run",
            runs().count()
        ));
    }
    if named.is_empty() {
        let files: Vec<String> = candidates
            .iter()
            .map(|&i| format!("`{}`", folder_and_name(&imports[i].file).1))
            .collect();
        let note = format!(
            "read as the engine and GPU metrics of the run in {} (the one configuration and \
             load in its folder)",
            files.join(" and ")
        );
        warn(&mut imports[t], note);
    }
    Ok(candidates.clone())
}

/// True when the result file `run`'s name without its extension begins `name`, followed by
/// `.`, `_` or `-`.
fn begins(name: &str, run: &str) -> bool {
    let stem = run.rsplit_once('.').map_or(run, |(s, _)| s);
    name.strip_prefix(stem)
        .is_some_and(|rest| rest.starts_with(['.', '_', '-']))
}

#[cfg(test)]
mod tests {
    use crate::import::{import_all, ImportedFile};
    use crate::input::InputFile;

    fn file(path: &str, text: &str) -> InputFile {
        InputFile {
            path: path.to_string(),
            bytes: text.as_bytes().to_vec(),
        }
    }

    fn vllm(rate: f64, completed: u64) -> String {
        format!(
            r#"{{"date": "20250301-101010", "backend": "vllm", "model_id": "m",
            "request_rate": {rate}, "completed": {completed}, "total_output_tokens": 10000,
            "mean_ttft_ms": 90.0}}"#
        )
    }

    const BEFORE: &str = "# TYPE vllm:prefix_cache_queries_total counter\n\
        vllm:prefix_cache_queries_total{engine=\"0\"} 1000\n\
        vllm:prefix_cache_hits_total{engine=\"0\"} 100\n";
    const AFTER: &str = "# TYPE vllm:prefix_cache_queries_total counter\n\
        vllm:prefix_cache_queries_total{engine=\"0\"} 2000\n\
        vllm:prefix_cache_hits_total{engine=\"0\"} 760\n";
    const GPU: &str = "timestamp, index, power.draw [W]\n\
        2025/03/01 10:00:00.000, 0, 400.00 W\n\
        2025/03/01 10:00:10.000, 0, 400.00 W\n";

    fn named<'a>(files: &'a [ImportedFile], name: &str) -> &'a ImportedFile {
        files.iter().find(|f| f.file.ends_with(name)).expect(name)
    }

    #[test]
    fn files_named_after_a_run_go_with_it_and_give_its_deltas_and_energy() {
        let files = import_all(&[
            file("r/a.json", &vllm(4.0, 100)),
            file("r/a.before.prom", BEFORE),
            file("r/a.after.prom", AFTER),
            file("r/a_gpu.csv", GPU),
            file("r/b.json", &vllm(8.0, 100)),
        ]);
        let a = named(&files, "a.json");
        let engine = a.runs[0].engine.as_deref().expect("engine figures");
        assert_eq!(engine.prefix_cache_hit_pct, Some(66.0));
        assert_eq!(engine.energy_j, Some(4_000.0));
        assert_eq!(engine.joules_per_token(Some(10_000)), Some(0.4));
        assert_eq!(a.joined.len(), 3);
        assert!(named(&files, "b.json").runs[0].engine.is_none());
        let gpu = named(&files, "a_gpu.csv");
        assert_eq!(gpu.joined_into.as_deref(), Some("r/a.json"));
        assert!(gpu.problems.is_empty(), "{:?}", gpu.problems);
    }

    #[test]
    fn the_clients_acceptance_stays_and_a_disagreeing_count_is_named() {
        let run = vllm(4.0, 100).replace(
            "\"mean_ttft_ms\": 90.0",
            "\"mean_ttft_ms\": 90.0, \"spec_decode_acceptance_rate\": 80.74, \"spec_decode_acceptance_length\": 3.42",
        );
        let scrape = |n: u32| {
            format!("# TYPE vllm:request_success_total counter\nvllm:request_success_total{{finished_reason=\"stop\"}} {n}\n")
        };
        let files = import_all(&[
            file("r/a.json", &run),
            file("r/a.m0.prom", &scrape(10)),
            file("r/a.m1.prom", &scrape(142)),
        ]);
        let a = named(&files, "a.json");
        let engine = a.runs[0].engine.as_deref().unwrap();
        assert_eq!(engine.spec_acceptance_pct, Some(80.74));
        assert_eq!(engine.spec_acceptance_length, Some(3.42));
        assert_eq!(engine.server_requests, Some(132.0));
        let note = a.runs[0]
            .problems
            .iter()
            .find(|p| p.message.contains("finished 132"));
        assert!(
            note.is_some_and(|p| p.message.contains("counted 100")),
            "{:?}",
            a.runs[0].problems
        );
    }

    #[test]
    fn inference_perfs_server_report_gives_its_stages_engine_figures() {
        let names = [
            "stage_0_lifecycle_metrics.json",
            "stage_0_prometheus_metrics.json",
        ];
        let files = crate::fixtures::import_folder("inference-perf/rate-sweep", &names, "r");
        let run = &named(&files, "stage_0_lifecycle_metrics.json").runs[0];
        let engine = run.engine.as_deref().expect("engine figures");
        assert_eq!(engine.running.map(|g| g.mean), Some(3.6));
        assert_eq!(engine.prefix_cache_hit_pct, Some(12.5));
        // 24 finished on the server and 24 succeeded on the client: nothing to say.
        assert!(run
            .problems
            .iter()
            .all(|p| !p.message.contains("the server finished")));
    }

    #[test]
    fn a_folder_of_one_run_takes_any_file_and_says_so() {
        let files = import_all(&[
            file("r/result.json", &vllm(4.0, 100)),
            file("r/power.csv", GPU),
        ]);
        assert!(named(&files, "result.json").runs[0].engine.is_some());
        let gpu = named(&files, "power.csv");
        assert!(gpu.problems[0]
            .message
            .contains("the one configuration and load in its folder"));
    }

    #[test]
    fn a_folder_of_several_runs_matches_no_unnamed_file_and_says_why() {
        let files = import_all(&[
            file("r/a.json", &vllm(4.0, 100)),
            file("r/b.json", &vllm(8.0, 100)),
            file("r/power.csv", GPU),
        ]);
        let gpu = named(&files, "power.csv");
        assert!(!gpu.failed());
        assert!(gpu.joined_into.is_none());
        assert!(
            gpu.problems[0].message.contains("matched to no run"),
            "{:?}",
            gpu.problems
        );
        assert!(files
            .iter()
            .all(|f| f.runs.iter().all(|r| r.engine.is_none())));
    }
}
