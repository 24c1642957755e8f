//! Engine and GPU telemetry: the files people keep beside a benchmark's results to say *why*
//! its latency is what it is, read into [`Readings`] and summed up per run into
//! [`crate::model::EngineMetrics`].
//!
//! | file | reader | gives |
//! |---|---|---|
//! | a Prometheus text scrape of vLLM's, SGLang's or DCGM's `/metrics` | [`prometheus`] | counters and gauges at one instant: two scrapes (before and after) give the run's deltas |
//! | a CSV of the engine's gauges over time (`time`, `num_requests_waiting`, …) | [`series`] | queue, running requests, KV-cache use, preemptions |
//! | `nvidia-smi --query-gpu … --format=csv` and `nvidia-smi dmon` logs | [`series`] | power and utilisation per GPU |
//! | inference-perf's `stage_N_prometheus_metrics.json`, read as a run's server metrics | [`server_report`] | queue, running requests, KV-cache use, prefix-cache hit rates, requests finished |
//! | vLLM's and SGLang's server logs (`Running: 17 reqs, Pending: 407 reqs, GPU KV cache usage: 4.9%`) | [`server_log`] | queue, running requests, KV-cache use |
//!
//! Readers are pure functions of a file's text, like the importers; [`summary`] turns the
//! readings of the files matched to one run (by `crate::import`'s join) into its figures.

pub mod prometheus;
mod readings;
pub mod reconcile;
pub mod series;
pub mod server_log;
pub mod server_report;
pub mod summary;

pub use readings::{Counter, Measure, Readings, Series, Snapshot};
