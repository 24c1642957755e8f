//! inference-perf's `config.yaml`, dumped beside its reports (field order, PyYAML): what the
//! reports leave out. `server.model_name` is the model and `server.type` the engine (`vllm`,
//! `sglang`, `tgi`); `data.input_distribution.mean` / `output_distribution.mean` are the target
//! lengths of a random workload and `tokenizer.pretrained_model_name_or_path` the tokenizer.
//! It is not a run: `import_all` gives these to the runs of the reports beside it.

use serde_json::{Map, Value};

use crate::import::ImportedFile;
use crate::model::{ConfigIdentity, Location, Producer, Workload};
use crate::problem::Problem;
use crate::yaml;

/// True for text whose top-level keys include inference-perf's `load:` and `server:`, and `api:`
/// or `data:`.
pub(crate) fn is_config(text: &str) -> bool {
    let top: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_alphabetic()))
        .map(str::trim_end)
        .collect();
    top.contains(&"load:")
        && top.contains(&"server:")
        && (top.contains(&"api:") || top.contains(&"data:"))
}

/// Reads the configuration for its problems and says what it gives.
pub(crate) fn read_config(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile::new(file, Some(Producer::InferencePerf));
    match config_of(file, text) {
        Ok((identity, workload)) => {
            let model = identity.model.as_deref().unwrap_or("none");
            let engine = identity.engine.as_deref().unwrap_or("none");
            let lengths = match (workload.input_len, workload.output_len) {
                (Some(i), Some(o)) => format!(", target lengths {i} in / {o} out"),
                _ => String::new(),
            };
            out.problems.push(Problem::warning(
                file,
                Location::File,
                format!(
                    "inference-perf's configuration (model {model}, engine {engine}{lengths}), \
                     not a run: the `*_lifecycle_metrics.json` reports beside it are the runs, \
                     and take their model from it"
                ),
            ));
        }
        Err(problem) => out.problems.push(problem),
    }
    out
}

/// The configuration and workload `text` (the file `file`) states, or the problem that stops
/// it being read.
pub(crate) fn config_of(file: &str, text: &str) -> Result<(ConfigIdentity, Workload), Problem> {
    let value = yaml::parse(text, yaml::Schema::PyYaml)
        .map_err(|e| Problem::error(file, e.location, e.message))?;
    let server = section(&value, "server");
    let identity = ConfigIdentity {
        model: server.and_then(|s| text_at(s, "model_name")),
        engine: server.and_then(|s| text_at(s, "type")),
        ..ConfigIdentity::default()
    };
    let data = section(&value, "data");
    let mean_of = |key: &str| {
        data.and_then(|d| d.get(key))
            .and_then(|d| d.get("mean"))
            .and_then(Value::as_f64)
            .filter(|m| m.is_finite() && *m >= 0.0 && *m < 1e12)
            .map(|m| m.round() as u64)
    };
    let workload = Workload {
        input_len: mean_of("input_distribution"),
        output_len: mean_of("output_distribution"),
        tokenizer: section(&value, "tokenizer")
            .and_then(|t| text_at(t, "pretrained_model_name_or_path")),
        ..Workload::default()
    };
    Ok((identity, workload))
}

fn section<'a>(value: &'a Value, key: &str) -> Option<&'a Map<String, Value>> {
    value.get(key).and_then(Value::as_object)
}

fn text_at(obj: &Map<String, Value>, key: &str) -> Option<String> {
    obj.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
}
