//! inference-perf's files of one folder joined: `config.yaml` names the model of every report
//! beside it; the summary report is dropped when stage reports are there (it holds their
//! requests again); each `stage_N_prometheus_metrics.json` becomes the server metrics of
//! `stage_N_lifecycle_metrics.json`'s (or `.yaml`'s) run.

use std::collections::BTreeSet;

use super::join::{drop_alone_warning, folder_of};
use crate::import::inference_perf::{
    config_of, is_config, is_prometheus, server_metrics, NOT_A_RUN, NO_MODEL, SUMMARY,
};
use crate::import::ImportedFile;
use crate::input::InputFile;
use crate::model::{Location, Producer};
use crate::problem::Problem;

/// Joins the inference-perf files among `imports`, folder by folder.
pub(super) fn join(files: &[InputFile], imports: &mut [ImportedFile]) {
    let folders: BTreeSet<String> = imports
        .iter()
        .filter(|f| f.producer == Some(Producer::InferencePerf))
        .map(|f| folder_of(&f.file).to_string())
        .collect();
    for folder in folders {
        let members: Vec<usize> = (0..imports.len())
            .filter(|&i| {
                imports[i].producer == Some(Producer::InferencePerf)
                    && folder_of(&imports[i].file) == folder
            })
            .collect();
        drop_the_summary(imports, &members);
        name_the_model(files, imports, &members);
        attach_server_metrics(files, imports, &members);
    }
}

/// True for a file whose run is the summary of every stage.
fn is_summary(file: &ImportedFile) -> bool {
    file.runs
        .iter()
        .any(|r| r.problems.iter().any(|p| p.message.starts_with(SUMMARY)))
}

/// Every report's runs take the model, engine and workload of the folder's `config.yaml`.
fn name_the_model(files: &[InputFile], imports: &mut [ImportedFile], members: &[usize]) {
    let configs: Vec<usize> = members
        .iter()
        .copied()
        .filter(|&i| {
            imports[i].runs.is_empty()
                && files[i].path.ends_with(".yaml")
                && is_config(&String::from_utf8_lossy(&files[i].bytes))
        })
        .collect();
    let [config] = configs.as_slice() else {
        return;
    };
    let text = String::from_utf8_lossy(&files[*config].bytes);
    let Ok((identity, workload)) = config_of(&files[*config].path, &text) else {
        return;
    };
    let config_name = imports[*config].file.clone();
    let reports: Vec<usize> = members
        .iter()
        .copied()
        .filter(|&i| !imports[i].runs.is_empty())
        .collect();
    let mut first = None;
    for i in reports {
        for run in &mut imports[i].runs {
            if run.config.model.is_none() {
                run.config.model.clone_from(&identity.model);
            }
            if run.config.engine.is_none() {
                run.config.engine.clone_from(&identity.engine);
            }
            let w = &mut run.workload;
            w.input_len = w.input_len.or(workload.input_len);
            w.output_len = w.output_len.or(workload.output_len);
            w.tokenizer = w.tokenizer.take().or_else(|| workload.tokenizer.clone());
            if identity.model.is_some() {
                drop_alone_warning(run, NO_MODEL);
            }
        }
        imports[i].joined.push(config_name.clone());
        first.get_or_insert(i);
    }
    if let Some(first) = first {
        imports[*config].joined_into = Some(imports[first].file.clone());
        imports[*config].problems.clear();
    }
}

/// The summary report gives up its run when stage reports are beside it.
fn drop_the_summary(imports: &mut [ImportedFile], members: &[usize]) {
    let stages: Vec<String> = members
        .iter()
        .filter(|&&i| !imports[i].runs.is_empty() && !is_summary(&imports[i]))
        .map(|&i| format!("`{}`", imports[i].file))
        .collect();
    if stages.is_empty() {
        return;
    }
    for &i in members {
        if is_summary(&imports[i]) {
            imports[i].runs.clear();
            let file = imports[i].file.clone();
            imports[i].problems.push(Problem::warning(
                &file,
                Location::File,
                format!(
                    "{SUMMARY}: its requests are those of {}, each a run, so it is not counted \
                     again",
                    stages.join(", ")
                ),
            ));
        }
    }
}

/// `X_prometheus_metrics.json` becomes the server metrics of `X_lifecycle_metrics.json`'s run.
fn attach_server_metrics(files: &[InputFile], imports: &mut [ImportedFile], members: &[usize]) {
    for &i in members {
        let Some(stem) = imports[i].file.strip_suffix("_prometheus_metrics.json") else {
            continue;
        };
        let written_as = |ext: &str| format!("{stem}_lifecycle_metrics.{ext}");
        let Some(&run_file) = members
            .iter()
            .find(|&&j| [written_as("json"), written_as("yaml")].contains(&imports[j].file))
        else {
            continue;
        };
        let lifecycle = imports[run_file].file.clone();
        let Ok(value) = crate::json::parse(&String::from_utf8_lossy(&files[i].bytes), 0) else {
            continue;
        };
        if !is_prometheus(&value) {
            continue;
        }
        let [_] = imports[run_file].runs.as_slice() else {
            explain_unattached(&mut imports[i], &lifecycle);
            continue;
        };
        let (Some(metrics), _) = server_metrics(&imports[i].file, &value, Location::json(""))
        else {
            continue;
        };
        imports[run_file].runs[0].server = Some(Box::new(metrics));
        imports[run_file].joined.push(imports[i].file.clone());
        imports[i].joined_into = Some(lifecycle);
        imports[i]
            .problems
            .retain(|p| !p.message.starts_with(NOT_A_RUN));
    }
}

/// The summary's server metrics, when the summary report gave up its run to the stages'.
fn explain_unattached(prometheus: &mut ImportedFile, lifecycle: &str) {
    prometheus
        .problems
        .retain(|p| !p.message.starts_with(NOT_A_RUN));
    prometheus.problems.push(Problem::warning(
        &prometheus.file,
        Location::File,
        format!(
            "{NOT_A_RUN} over the whole benchmark, not a run: `{lifecycle}` is not counted \
             because each stage beside it is a run, and these server metrics cannot be split \
             among the stages"
        ),
    ));
}
