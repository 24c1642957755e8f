//! One benchmark as any of the layouts reads it (report, YAML or CSV), and the run it becomes;
//! with why GuideLLM 0.2–0.3's `time_per_output_token_ms` is left out of it.

use crate::model::{
    ConfigIdentity, LatencyMetric, LoadPoint, Location, Producer, Provenance, RequestCounts,
    RequestSamples, Run, RunDate, Throughput, TokenStats,
};
use crate::problem::Problem;

/// Why GuideLLM 0.2–0.3's `time_per_output_token_ms` is not imported.
pub(super) const TPOT_0_3: &str = "in GuideLLM 0.2–0.3 it is (last − first token) / output \
    tokens, the decode time spread over every token including the first: neither TPOT (which \
    divides by output tokens − 1) nor TPOT including the first token (which counts from the \
    request's start); `inter_token_latency_ms` is read as the TPOT";

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
        let provenance = Provenance {
            file: file.to_string(),
            location: self.location,
            producer: Producer::Guidellm,
            producer_version: self.version,
            date: self.date,
        };
        let run = Run::new(provenance, self.config, self.load);
        Run {
            samples: self.samples.map(std::sync::Arc::new),
            problems: self.problems,
            ..run.measured(self.requests, self.latency, self.throughput, self.tokens)
        }
    }
}
