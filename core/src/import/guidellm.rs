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
//!   nor TPOT with the first token, so it is left out with a warning ([`benchmark::TPOT_0_3`]);
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

mod benchmark;
mod csv_file;
mod identity;
mod load;
mod object;
pub(super) mod report;

use super::ImportedFile;
use crate::model::{Location, Producer};
use crate::problem::Problem;
use crate::yaml;

pub(super) use csv_file::{is_csv, is_csv_v03, read_csv, read_csv_v03};
pub(super) use report::{is_report, read_document, read_document_aside, reads_aside};

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

#[cfg(test)]
mod tests;
