//! kubernetes-sigs/inference-perf reports, as its report generator writes them into one folder
//! (`reports-YYYYMMDD-HHMMSS/`, names possibly behind a `report_file_prefix`):
//!
//! | file | what it is | what benchdeck makes of it |
//! |---|---|---|
//! | `stage_N_lifecycle_metrics.json` (or `.yaml`) | the client's measurement of one load stage | one run |
//! | `summary_lifecycle_metrics.json` | every stage's requests together | a run without a load point, dropped when stage files are beside it (their requests are its requests) |
//! | `stage_N_prometheus_metrics.json`, `summary_prometheus_metrics.json` | the server's own Prometheus metrics over the stage's (or the benchmark's) time window | not a run: the server metrics of the stage's run ([`crate::model::ServerMetrics`]) |
//! | `config.yaml` | the run's configuration | not a run: the model (`server.model_name`), engine (`server.type`), target lengths and tokenizer of the runs beside it |
//!
//! The lifecycle reports ([`lifecycle`]) write every time in **seconds** (converted to ms here),
//! in distributions `{mean, min, max, median, p0.1 … p99.9}` whose percentiles are the user's
//! (`p50` in 0.1.x, `median` since); an empty distribution is `null`. Definitions, from the
//! report generator:
//! - `time_to_first_token` is TTFT; `request_latency` the end-to-end latency;
//! - `time_per_output_token` is (last − first token time) / (output tokens − 1), TPOT;
//! - `normalized_time_per_output_token` is the request latency / output tokens, TPOT including
//!   the first token;
//! - `inter_token_latency` is every gap between output tokens, pooled over the requests: ITL.
//!
//! Before 0.5 (files without `benchmark_time_seconds`) the "tokens" were streamed chunks (before
//! 0.3 every line of the HTTP body, empty lines included), so TPOT and ITL of such files count
//! chunks; a warning says so. Session workloads (`num_sessions`) and the per-request list
//! (`per_request_lifecycle_metrics.json`) are not read.

mod config;
mod lifecycle;
mod prometheus;

pub(super) use config::{config_of, is_config, read_config};
pub(super) use lifecycle::{
    is_lifecycle, is_lifecycle_yaml, read_lifecycle_document, read_lifecycle_yaml, NO_MODEL,
    SUMMARY,
};
pub(super) use prometheus::{is_prometheus, read_prometheus_document, server_metrics, NOT_A_RUN};

#[cfg(test)]
mod tests;
