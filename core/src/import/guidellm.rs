//! vllm-project/guidellm `benchmarks.json`, `benchmarks.yaml` and `benchmarks.csv`: one run per
//! benchmark, that is per load point of the profile GuideLLM swept.
//!
//! **Generations of the report** (JSON, and YAML, which is the same object dumped by PyYAML):
//! - 0.2–0.3: `{"benchmarks": [...]}`; each benchmark has `args.strategy`, `run_stats`,
//!   `worker.backend_model`, `request_totals` and `metrics` at its top level;
//! - 0.4–0.5: `{"args": {target, model, data, ...}, "benchmarks"}`; each benchmark has
//!   `config.{strategy, backend, ...}`, `scheduler_state`, `scheduler_metrics`, `metrics`
//!   (with `request_totals` inside), `requests`, and `warmup_duration`/`cooldown_duration`;
//! - 0.6: the same with `metadata: {version: 1, guidellm_version, ...}`;
//! - 0.7+: `metadata.version 2` and `config: {metadata: {labels}, spec: {backend: {model,
//!   target}, ...}}` instead of `args`.
//!
//! The producer version comes from `metadata.guidellm_version` when the file has it. The model
//! is the benchmark's own backend model (`config.backend.model`, 0.2–0.3
//! `worker.backend_model`), else the report's (`config.spec.backend.model`, `args.model`).
//! `config.metadata.labels` name the configuration like vLLM's `--metadata` (`label`,
//! `framework`/`engine`, `hardware`/`gpu`, `dataset`); a single `args.data` string is the
//! dataset. The target URL has no place in the model's configuration identity and is not kept.
//!
//! **Statistics.** Each metric is `{successful, errored, incomplete, total}` distributions
//! (`mean`, `median`, `std_dev`, `min`, `max`, `count`, `total_sum`, `percentiles{p001 (0.1),
//! p01 (1), p05, p10, p25, p50, p75, p90, p95, p99, p999 (99.9)}`). The `successful` one is
//! imported; a distribution with `count: 0` is empty (its zeros are placeholders). Definitions:
//! - `time_to_first_token_ms` is [`Metric::Ttft`];
//! - `inter_token_latency_ms` is (last − first token) / (output tokens − 1), vLLM's TPOT
//!   ([`Metric::Tpot`]);
//! - `time_per_output_token_ms` includes the first token ([`Metric::TpotInclFirst`]) since 0.4:
//!   (last token − request start) / output tokens. In 0.2–0.3 it is (last − first token) /
//!   output tokens, the decode time spread over every token including the first: neither TPOT
//!   nor TPOT with the first token, so it is left out with a warning ([`TPOT_0_3`]);
//! - `request_latency` is in **seconds**, converted to ms ([`Metric::E2e`]);
//! - `requests_per_second.successful.mean` is the request throughput and the achieved rate,
//!   `request_concurrency.successful.mean` the achieved concurrency, and
//!   `output_tokens_per_second`, `tokens_per_second` and (0.7) `prompt_tokens_per_second` are
//!   the token throughputs (their means over the run);
//! - `prompt_token_count`/`output_token_count` give the length distributions and, from their
//!   `total_sum`, the token totals of the successful requests;
//! - `time_to_first_output_token_ms`, streaming-iteration and modality summaries have no place
//!   in the model and are not imported.
//!
//! **Counts.** `request_totals` (`metrics.request_totals` since 0.4) gives successful, errored
//! (failed) and incomplete (cancelled at the end of the run) requests. A benchmark where no
//! request succeeded is imported as failed, without latencies.
//!
//! **Load point** from the `strategy`: `synchronous` is sequential, `concurrent` (`streams`) a
//! concurrency, `throughput` the maximum throughput (its `max_concurrency` is kept as the cap),
//! `constant`/`poisson` (`rate`) a request rate. `trace` replays arrival times and has no load
//! value. The *measured* rate and concurrency are set as well: a sweep mixes strategies, and
//! those are what to plot it by.
//!
//! **Per-request samples** come from `requests.{successful, errored, incomplete}` (possibly a
//! sample of them, see `sample_size`): `time_to_first_token_ms`, `request_latency` (s),
//! `inter_token_latency_ms` as the TPOT, `prompt_tokens`, `output_tokens`. GuideLLM 0.4+ keeps
//! warm-up and cool-down requests in these lists but leaves them out of its metrics: where the
//! benchmark has a warm-up or cool-down, requests outside `scheduler_metrics.measure_start_time`
//! …`measure_end_time` are left out of the samples too, and the number left out is reported.
//!
//! **CSV** (see [`csv_file`]): 0.4+ writes three header rows (group, `[Status ]unit`, statistic)
//! and one row per benchmark, percentiles in one cell; 0.3 writes one header row. The CSV has no
//! per-request samples.

mod csv_file;
pub(super) mod report;

use serde_json::{Map, Value};

use super::ImportedFile;
use crate::model::{
    ConfigIdentity, LatencyMetric, LoadPoint, LoadTarget, Location, Producer, Provenance, Rate,
    RequestCounts, RequestSamples, Run, RunDate, Throughput, TokenStats, Workload,
};
use crate::number::{describe_json, json_number, Reading};
use crate::problem::{Problem, Severity};
use crate::yaml;

pub(super) use csv_file::{is_csv, is_csv_v03, read_csv, read_csv_v03};
pub(super) use report::{is_report, read_document, read_document_aside, reads_aside};

/// Why GuideLLM 0.2–0.3's `time_per_output_token_ms` is not imported.
pub(super) const TPOT_0_3: &str = "in GuideLLM 0.2–0.3 it is (last − first token) / output \
    tokens, the decode time spread over every token including the first: neither TPOT (which \
    divides by output tokens − 1) nor TPOT including the first token (which counts from the \
    request's start); `inter_token_latency_ms` is read as the TPOT";

/// True when the first line with content (after blank lines, comments, `%YAML` directives and a
/// `---` document start) is a top-level key of a GuideLLM report as PyYAML writes it (keys
/// sorted: `args:` for 0.4–0.6, `benchmarks:` for 0.2–0.3 and 0.7+). Whether the document really
/// is a report is checked on its content by [`read_yaml`].
pub(super) fn is_yaml(text: &str) -> bool {
    let line = yaml::first_content_line(text);
    matches!(line, "args:" | "benchmarks:" | "config:" | "metadata:")
        || line.starts_with("benchmarks: [")
}

/// Reads `benchmarks.yaml`: parsed into a JSON value and read like `benchmarks.json`.
pub(super) fn read_yaml(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile::new(file, None);
    match crate::yaml::parse(text, crate::yaml::Schema::PyYaml) {
        Ok(value) if is_report(&value) => {
            out.producer = Some(Producer::Guidellm);
            if !text.ends_with('\n') {
                // A cut YAML file usually still parses: say so, its last values may be partial.
                out.problems.push(Problem::error(
                    file,
                    Location::line(text.lines().count().max(1) as u64),
                    "the file ends in the middle of a line; PyYAML ends the report with a line \
                     break, so it was probably cut short and its last values may be incomplete",
                ));
            }
            read_document(&mut out, &value, Location::json(""));
        }
        Ok(_) => out.problems.push(Problem::error(
            file,
            Location::File,
            "YAML not recognised as a GuideLLM report; expected a `benchmarks` list of \
             `generative_benchmark` objects (`benchmarks.yaml`)",
        )),
        Err(e) => out
            .problems
            .push(Problem::error(file, e.location, e.message)),
    }
    out
}

/// One benchmark as read from any of the layouts, before it becomes a [`Run`].
pub(super) struct Benchmark {
    pub location: Location,
    pub version: Option<String>,
    pub date: Option<RunDate>,
    pub config: ConfigIdentity,
    pub load: LoadPoint,
    pub requests: RequestCounts,
    pub latency: Vec<LatencyMetric>,
    pub throughput: Throughput,
    pub achieved_concurrency: Option<f64>,
    pub tokens: TokenStats,
    pub samples: Option<RequestSamples>,
    pub problems: Vec<Problem>,
}

impl Benchmark {
    /// The run, with the measured load set and, when no request succeeded, the placeholder
    /// statistics dropped and a warning at `failed_at`.
    pub fn into_run(mut self, file: &str, failed_at: Location) -> Run {
        if self.requests.succeeded == Some(0) {
            self.problems.push(Problem::warning(
                file,
                failed_at,
                "no request succeeded; the run is shown as failed, its statistics are ignored",
            ));
            self.latency.clear();
            self.tokens.input_len = None;
            self.tokens.output_len = None;
        }
        self.latency.sort_by_key(|m| m.metric);
        self.load.achieved_rps = self.throughput.requests_per_s;
        self.load.achieved_concurrency = self.achieved_concurrency;
        Run {
            provenance: Provenance {
                file: file.to_string(),
                location: self.location,
                producer: Producer::Guidellm,
                producer_version: self.version,
                date: self.date,
            },
            config: self.config,
            load: self.load,
            requests: self.requests,
            latency: self.latency,
            throughput: self.throughput,
            tokens: self.tokens,
            samples: self.samples,
            workload: Workload::default(),
            server: None,
            repeats: None,
            price: None,
            problems: self.problems,
        }
    }
}

/// Something wrong with a strategy object, relative to it (`key` is the field, if one).
pub(super) struct StrategyIssue {
    pub severity: Severity,
    pub key: Option<&'static str>,
    pub message: String,
}

/// The load point a GuideLLM scheduling strategy (`{"type_": "concurrent", "streams": 4}`)
/// names, and what is wrong with it. When the load value cannot be read the target is
/// [`LoadTarget::MaxThroughput`] (no load value) and an issue says why.
pub(super) fn load_point(strategy: &Map<String, Value>) -> (LoadPoint, Vec<StrategyIssue>) {
    let mut issues = Vec::new();
    let mut issue = |severity, key, message: String| {
        issues.push(StrategyIssue {
            severity,
            key,
            message,
        });
    };
    let no_value = (LoadTarget::MaxThroughput, None);
    let kind = strategy.get("type_");
    let (target, max_concurrency) = match kind.and_then(Value::as_str) {
        Some("synchronous") => (LoadTarget::Sequential, None),
        Some("throughput") => (LoadTarget::MaxThroughput, cap(strategy, &mut issue)),
        Some("concurrent") => match positive(strategy.get("streams")) {
            Ok(n) => (LoadTarget::Concurrency(n), None),
            Err(found) => {
                issue(
                    Severity::Error,
                    Some("streams"),
                    format!(
                        "expected a positive number of concurrent streams, found {found}; the \
                         run has no load value"
                    ),
                );
                no_value
            }
        },
        Some("constant" | "poisson") => match positive(strategy.get("rate")) {
            Ok(r) => (
                LoadTarget::RequestRate(Rate::PerSecond(r)),
                cap(strategy, &mut issue),
            ),
            Err(found) => {
                issue(
                    Severity::Error,
                    Some("rate"),
                    format!(
                        "expected a positive request rate (requests per second), found {found}; \
                         the run has no load value"
                    ),
                );
                no_value
            }
        },
        Some("trace") => {
            issue(
                Severity::Warning,
                Some("type_"),
                "a `trace` strategy replays the arrival times of a trace; the run has no load \
                 value of its own (its measured rate and concurrency are kept)"
                    .to_string(),
            );
            no_value
        }
        Some(other) => {
            issue(
                Severity::Warning,
                Some("type_"),
                format!(
                    "strategy `{other}` is not one of synchronous, concurrent, throughput, \
                     constant, poisson or trace; the run has no load value"
                ),
            );
            no_value
        }
        None => {
            let found = kind.map_or_else(|| "nothing".to_string(), describe_json);
            issue(
                Severity::Error,
                Some("type_"),
                format!(
                    "expected the strategy type (synchronous, concurrent, throughput, constant, \
                     poisson), found {found}; the run has no load value"
                ),
            );
            no_value
        }
    };
    (
        LoadPoint {
            target,
            max_concurrency,
            achieved_rps: None,
            achieved_concurrency: None,
        },
        issues,
    )
}

/// The strategy's `max_concurrency` cap, if it has one.
fn cap(
    strategy: &Map<String, Value>,
    issue: &mut impl FnMut(Severity, Option<&'static str>, String),
) -> Option<u32> {
    let value = strategy.get("max_concurrency")?;
    match json_number(value) {
        Reading::Value(c) if c >= 1.0 && c.fract() == 0.0 && c <= f64::from(u32::MAX) => {
            Some(c as u32)
        }
        Reading::Missing => None,
        _ => {
            issue(
                Severity::Error,
                Some("max_concurrency"),
                format!(
                    "expected a whole number of at least 1, found {}",
                    describe_json(value)
                ),
            );
            None
        }
    }
}

/// A positive finite number, or a description of what was found instead.
fn positive(value: Option<&Value>) -> Result<f64, String> {
    let Some(value) = value else {
        return Err("nothing".to_string());
    };
    match json_number(value) {
        Reading::Value(v) if v.is_finite() && v > 0.0 => Ok(v),
        Reading::Value(v) => Err(v.to_string()),
        _ => Err(describe_json(value)),
    }
}

/// Text at `key` of a JSON object: strings (trimmed, non-empty) and numbers; `None` otherwise.
pub(super) fn text(obj: &Map<String, Value>, key: &str) -> Option<String> {
    match obj.get(key)? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The object at `path` below `obj`, if every step is an object.
pub(super) fn object_at<'a>(
    obj: &'a Map<String, Value>,
    path: &[&str],
) -> Option<&'a Map<String, Value>> {
    path.iter()
        .try_fold(obj, |o, key| o.get(*key).and_then(Value::as_object))
}

/// Configuration names from the report-level settings shared by every benchmark: the model
/// (`config.spec.backend.model` in 0.7+, `args.model` before), `config.metadata.labels`, and a
/// single `args.data` string as the dataset. Used by the JSON/YAML report and by the CSV's
/// `Arguments` cell, which holds the same object.
pub(super) fn report_identity(
    config: Option<&Map<String, Value>>,
    args: Option<&Map<String, Value>>,
) -> ConfigIdentity {
    let mut id = ConfigIdentity::default();
    if let Some(config) = config {
        id.model = object_at(config, &["spec", "backend"]).and_then(|b| text(b, "model"));
        if let Some(labels) = object_at(config, &["metadata", "labels"]) {
            id.engine = text(labels, "framework").or_else(|| text(labels, "engine"));
            id.label = text(labels, "label");
            id.hardware = text(labels, "hardware").or_else(|| text(labels, "gpu"));
            id.dataset = text(labels, "dataset");
        }
    }
    if let Some(args) = args {
        id.model = id.model.or_else(|| text(args, "model"));
        if id.dataset.is_none() {
            id.dataset = match args.get("data") {
                Some(Value::String(s)) => Some(s.as_str()),
                Some(Value::Array(items)) if items.len() == 1 => {
                    items.first().and_then(Value::as_str)
                }
                _ => None,
            }
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from);
        }
    }
    id
}

#[cfg(test)]
mod tests;
