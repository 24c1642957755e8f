//! `vllm bench sweep`'s `summary.json`: a grid of `vllm bench serve` runs over server and
//! benchmark parameters, as one JSON array of `--save-result` objects, each read by the serve
//! reader (`vllm.rs`). The server parameters that tell the sweep's configurations apart are read
//! by `settings.rs`, for the summary's runs and the sweep's `run=N.json` files alike.

use serde_json::Value;

use super::{is_serve_result, read_serve_document};
use crate::import::ImportedFile;
use crate::model::Location;

/// True for a sweep's `summary.json`: a non-empty array of `vllm bench serve` results.
pub(in crate::import) fn is_summary(value: &Value) -> bool {
    value
        .as_array()
        .is_some_and(|runs| !runs.is_empty() && runs.iter().all(is_serve_result))
}

/// Every result of a `summary.json` as a run, located by its index in the array.
pub(in crate::import) fn read_summary(out: &mut ImportedFile, value: &Value, at: Location) {
    let Some(runs) = value.as_array() else {
        return;
    };
    for (i, run) in runs.iter().enumerate() {
        read_serve_document(out, run, at.child(&format!("[{i}]")));
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::import::import;
    use crate::model::{LoadTarget, Metric, Producer, Stat};

    /// One run of a sweep's `summary.json`, with the server settings the sweep adds (also what
    /// `settings.rs`'s tests read).
    pub(in crate::import::vllm) const RUN: &str = r#"{"date": "20260818-021333", "backend": "openai", "model_id": "m",
        "max_concurrency": 2, "request_rate": "inf", "completed": 8, "failed": 0,
        "duration": 1.5, "output_throughput": 93.7, "mean_ttft_ms": 217.3, "p99_ttft_ms": 762.5,
        "run_number": 0, "max_num_seqs": 4, "enable_prefix_caching": true}"#;

    #[test]
    fn a_summary_is_an_array_of_runs_with_their_settings() {
        let other = RUN
            .replace("\"max_num_seqs\": 4", "\"max_num_seqs\": 8")
            .replace("217.3", "301.0");
        let text = format!("[{RUN}, {other}]");
        let f = import("sweep/summary.json", text.as_bytes());
        assert_eq!(f.producer, Some(Producer::VllmServe));
        assert_eq!(f.problems, vec![]);
        let keys: Vec<String> = f.runs.iter().map(|r| r.config.key()).collect();
        assert_eq!(
            keys,
            [
                "openai enable_prefix_caching=true max_num_seqs=4",
                "openai enable_prefix_caching=true max_num_seqs=8"
            ]
        );
        assert_eq!(
            f.runs[1].latency_stat(Metric::Ttft, Stat::Mean),
            Some(301.0)
        );
        assert_eq!(f.runs[0].load.target, LoadTarget::Concurrency(2.0));
        assert_eq!(f.runs[1].provenance.to_string(), "sweep/summary.json#[1]");
    }

    /// A sweep folder as `vllm bench sweep` writes it: `summary.json` and `run=N.json`.
    #[test]
    fn a_sweep_folder_reads_the_same_runs_from_the_summary_and_the_run_files() {
        let dir = "vllm/sweep/SERVE--max_num_seqs=8-BENCH--max_concurrency=4-num_prompts=16";
        let read = |name: &str| crate::fixtures::import_file(&format!("{dir}/{name}"));
        let summary = read("summary.json");
        let single = read("run=1.json");
        assert_eq!(summary.runs.len(), 2);
        assert_eq!(summary.problems, vec![]);
        let (a, b) = (&summary.runs[1], &single.runs[0]);
        assert_eq!(a.config, b.config);
        assert_eq!(a.config.key(), "openai max_num_seqs=8");
        assert_eq!(a.load, b.load);
        assert_eq!(a.load.target, LoadTarget::Concurrency(4.0));
        assert_eq!(a.latency, b.latency);
        assert_eq!(a.latency_stat(Metric::Ttft, Stat::Mean), Some(96.25));
        assert_eq!(a.throughput, b.throughput);
    }

    #[test]
    fn an_array_with_something_else_in_it_is_not_a_summary() {
        let value: Value = serde_json::from_str(&format!("[{RUN}, {{\"a\": 1}}]")).unwrap();
        assert!(!is_summary(&value));
        assert!(!is_summary(&Value::Array(vec![])));
    }
}
