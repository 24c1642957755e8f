//! The settings of a vLLM run beyond its name: the server parameters of `vllm bench sweep` and the
//! keys research forks add (read for every `vllm bench serve` result, in a sweep or not).
//!
//! The sweep writes each combination into a folder named after it,
//! `SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/`, holding one `run=N.json` per
//! repetition (a `--save-result` object with the sweep's keys added: `run_number` and the server
//! parameters, e.g. `max_num_seqs`) and a `summary.json` with all of them as a JSON array.
//!
//! The server parameters are what tells the sweep's configurations apart, so they become the
//! run's [`ConfigIdentity::settings`](crate::model::ConfigIdentity): read from the folder name's
//! `SERVE--` part and from the keys a sweep adds (any key a plain result does not have, in an
//! object that has `run_number`). The benchmark parameters are the load, which the object itself
//! records (`max_concurrency`, `request_rate`). In a folder name, pairs are separated by `-` and
//! a value may contain `-` itself (`a=1-b=x-y-c=2` is `a=1`, `b=x-y`, `c=2`).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::keys::latency_key;
use crate::model::Location;
use crate::problem::Problem;

/// The keys of a plain `vllm bench serve` result (and of the forks and metadata this importer
/// reads elsewhere): every other key in a sweep's result is a server parameter.
const RESULT_KEYS: &[&str] = &[
    "date",
    "endpoint_type",
    "backend",
    "label",
    "model_id",
    "tokenizer_id",
    "num_prompts",
    "request_rate",
    "burstiness",
    "max_concurrency",
    "duration",
    "completed",
    "failed",
    "total_input_tokens",
    "total_output_tokens",
    "request_throughput",
    "request_goodput",
    "request_goodput:",
    "output_throughput",
    "total_token_throughput",
    "max_output_tokens_per_s",
    "max_concurrent_requests",
    "rtfx",
    "input_lens",
    "output_lens",
    "ttfts",
    "itls",
    "generated_texts",
    "errors",
    "start_times",
    "run_number",
    "framework",
    "engine",
    "hardware",
    "gpu",
    "dataset",
    "dataset_name",
];

/// Keys that research forks and `--metadata k=v` add to a result and that tell configurations
/// apart (tensor and pipeline parallelism, quantisation, an environment): settings of the
/// configuration, as written. (`label`, `framework`, `hardware` and `dataset` name it already.)
pub(super) const METADATA_SETTINGS: &[&str] = &[
    "tp",
    "tp_size",
    "tensor_parallel_size",
    "pp",
    "pipeline_parallel_size",
    "quant-type",
    "quant_type",
    "quantization",
    "env",
];

/// Keys of a result that the importer reads as its workload: not metadata.
const WORKLOAD_KEYS: &[&str] = &[
    "input_len",
    "output_len",
    "random_input_len",
    "random_output_len",
    "vllm_version",
    "engine",
    "tokenizer",
];

/// The run's other `--metadata k=v` pairs (strings, as `vllm bench serve` writes them) that
/// neither name the configuration nor describe the load or workload: a commit, a driver
/// version, a build. Empty in a sweep's result, whose extra keys are settings.
pub(super) fn metadata(obj: &Map<String, Value>) -> BTreeMap<String, String> {
    if obj.contains_key("run_number") {
        return BTreeMap::new();
    }
    obj.iter()
        .filter(|(key, _)| {
            let key = key.as_str();
            !RESULT_KEYS.contains(&key)
                && !METADATA_SETTINGS.contains(&key)
                && !WORKLOAD_KEYS.contains(&key)
                && latency_key(key).is_none()
        })
        .filter_map(|(key, value)| match value {
            Value::String(text) if !text.trim().is_empty() => {
                Some((key.clone(), text.trim().to_string()))
            }
            _ => None,
        })
        .collect()
}

/// The settings of the run `obj` from `file`: the sweep folder name's, the metadata keys
/// ([`METADATA_SETTINGS`]), then, in a sweep's result, the keys the sweep added (which win over
/// the folder name when the two disagree, with a warning).
pub(super) fn settings(
    file: &str,
    obj: &Map<String, Value>,
    at: &Location,
    problems: &mut Vec<Problem>,
) -> BTreeMap<String, String> {
    let mut settings = match folder_settings(file) {
        Some(Ok(settings)) => settings,
        Some(Err(folder)) => {
            problems.push(Problem::warning(
                file,
                Location::File,
                format!(
                    "the sweep folder name `{folder}` cannot be read as \
                     `SERVE--name=value-…-BENCH--name=value-…`; its server settings are not used"
                ),
            ));
            BTreeMap::new()
        }
        None => BTreeMap::new(),
    };
    for key in METADATA_SETTINGS {
        if let Some(text) = obj.get(*key).and_then(scalar) {
            settings.insert(key.to_string(), text);
        }
    }
    if !obj.contains_key("run_number") {
        return settings;
    }
    for (key, value) in obj {
        let known =
            RESULT_KEYS.contains(&key.as_str()) || METADATA_SETTINGS.contains(&key.as_str());
        if known || latency_key(key).is_some() {
            continue;
        }
        let Some(text) = scalar(value) else {
            continue;
        };
        if let Some(folder) = settings.get(key).filter(|v| **v != text) {
            problems.push(Problem::warning(
                file,
                at.child(key),
                format!(
                    "`{key}` is {text} in the result but {folder} in the sweep's folder name; \
                     the result's value is used"
                ),
            ));
        }
        settings.insert(key.clone(), text);
    }
    settings
}

/// A string, number or boolean as text; `None` for anything else (and for an empty string).
fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The server settings in the `SERVE--…-BENCH--…` folder `file` sits in: none when it sits in no
/// such folder, the folder's name when it cannot be read.
fn folder_settings(file: &str) -> Option<Result<BTreeMap<String, String>, String>> {
    let folder = file
        .split(['/', '\\'])
        .rev()
        .skip(1)
        .find(|part| part.starts_with("SERVE--"))?;
    let serve = folder["SERVE--".len()..]
        .split("-BENCH--")
        .next()
        .unwrap_or_default();
    Some(pairs(serve).ok_or_else(|| folder.to_string()))
}

/// The benchmark parameters of a sweep folder's name (its `BENCH--` part:
/// `max_concurrency=4-num_prompts=16-random_input_len=1024`); empty when the file is in no
/// sweep folder or the part cannot be read (the server part's warning says so).
pub(super) fn bench_settings(file: &str) -> BTreeMap<String, String> {
    file.split(['/', '\\'])
        .rev()
        .skip(1)
        .find(|part| part.starts_with("SERVE--"))
        .and_then(|folder| folder.split_once("-BENCH--"))
        .and_then(|(_, bench)| pairs(bench))
        .unwrap_or_default()
}

/// `a=1-b=x-y-c=2` as `{a: 1, b: x-y, c: 2}`; none when a part has no name or the text no `=`.
fn pairs(text: &str) -> Option<BTreeMap<String, String>> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut prefix = String::new();
    for token in text.split('-').filter(|t| !t.is_empty()) {
        match token.split_once('=') {
            Some((name, value)) => {
                let name = format!("{prefix}{name}");
                prefix.clear();
                if name.is_empty() {
                    return None;
                }
                out.push((name, value.to_string()));
            }
            // A value with `-` in it, or the start of a name with `-` in it.
            None => match out.last_mut() {
                Some((_, value)) if prefix.is_empty() => {
                    value.push('-');
                    value.push_str(token);
                }
                _ => {
                    prefix.push_str(token);
                    prefix.push('-');
                }
            },
        }
    }
    (prefix.is_empty() && (!out.is_empty() || text.is_empty())).then(|| out.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::super::sweep::tests::RUN;
    use super::*;
    use crate::import::import;

    #[test]
    fn folder_names_give_the_server_settings() {
        let settings = |file: &str| {
            folder_settings(file).map(|r| r.map(|s| s.into_iter().collect::<Vec<_>>()))
        };
        assert_eq!(
            settings("r/SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/run=0.json"),
            Some(Ok(vec![("max_num_seqs".into(), "4".into())]))
        );
        assert_eq!(
            settings("SERVE--a=1-b=x-y-c=2-BENCH--/summary.json"),
            Some(Ok(vec![
                ("a".into(), "1".into()),
                ("b".into(), "x-y".into()),
                ("c".into(), "2".into())
            ]))
        );
        assert_eq!(
            settings("SERVE---BENCH--rate=1/summary.json"),
            Some(Ok(vec![]))
        );
        assert_eq!(settings("results/run=0.json"), None);
        assert_eq!(
            settings("SERVE--oops-BENCH--x=1/summary.json"),
            Some(Err("SERVE--oops-BENCH--x=1".into()))
        );
    }

    #[test]
    fn the_folder_name_and_the_keys_agree_or_the_keys_win() {
        let f = import(
            "r/SERVE--max_num_seqs=16-BENCH--max_concurrency=2/run=0.json",
            RUN.as_bytes(),
        );
        let run = &f.runs[0];
        assert_eq!(run.config.settings["max_num_seqs"], "4");
        let messages: Vec<String> = f.all_problems().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "r/SERVE--max_num_seqs=16-BENCH--max_concurrency=2/run=0.json#max_num_seqs: \
              warning: `max_num_seqs` is 4 in the result but 16 in the sweep's folder name; the \
              result's value is used"
            ]
        );
        // Without the sweep's `run_number`, extra keys are not settings; the folder's still are.
        let plain = RUN.replace("\"run_number\": 0,", "");
        let f = import("x/SERVE--max_num_seqs=16-BENCH--/r.json", plain.as_bytes());
        let settings: Vec<(&String, &String)> = f.runs[0].config.settings.iter().collect();
        assert_eq!(settings, [(&"max_num_seqs".to_string(), &"16".to_string())]);
    }

    #[test]
    fn an_unreadable_folder_name_is_a_warning_and_the_run_is_kept() {
        let f = import("SERVE--nonsense-BENCH--/run=0.json", RUN.as_bytes());
        assert_eq!(f.runs.len(), 1);
        let messages: Vec<String> = f.all_problems().map(ToString::to_string).collect();
        assert!(
            messages
                .iter()
                .any(|m| m.contains("the sweep folder name `SERVE--nonsense-BENCH--`")),
            "{messages:?}"
        );
    }

    #[test]
    fn metadata_keys_of_forks_name_the_configuration() {
        let run = |extra: &str| {
            let text = format!(
                r#"{{"date": "20260101-000000", "backend": "vllm", "model_id": "m",
                "label": "fork", "hardware": "1x H100", "completed": 4, "failed": 0,
                "duration": 2.0, "mean_ttft_ms": 80.0, "request_rate": 1.0, {extra}}}"#
            );
            let file = import("r.json", text.as_bytes());
            assert_eq!(file.problems, vec![], "{extra}");
            file.runs[0].config.clone()
        };
        let a = run(r#""tp": 2, "quant-type": "awq", "env": "prod""#);
        assert_eq!(a.key(), "fork env=prod quant-type=awq tp=2");
        assert_eq!(a.hardware.as_deref(), Some("1x H100"));
        let b = run(r#""tp": 4, "quant-type": "awq", "env": "prod""#);
        assert_ne!(
            a.key(),
            b.key(),
            "two tensor-parallel sizes are two configurations"
        );
        let plain = run(r#""framework": "vllm", "quant-type": """#);
        assert_eq!(plain.key(), "fork", "an empty value names nothing");
        assert_eq!(plain.engine.as_deref(), Some("vllm"));
    }

    #[test]
    fn other_metadata_strings_are_the_runs_metadata_and_name_nothing() {
        let text = r#"{"date": "20260101-000000", "backend": "vllm", "model_id": "m",
            "completed": 4, "failed": 0, "duration": 2.0, "mean_ttft_ms": 80.0,
            "request_rate": 1.0, "commit": "a1b2c3", "driver": "560.35", "tp": "2",
            "random_input_len": "1024", "note": " ", "count": 3}"#;
        let file = import("r.json", text.as_bytes());
        let run = &file.runs[0];
        assert_eq!(run.config.key(), "vllm tp=2");
        let keys: Vec<(&str, &str)> = run
            .metadata
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(keys, vec![("commit", "a1b2c3"), ("driver", "560.35")]);
    }
}
