//! The made-up world the synthetic reports are drawn from: result formats, load sweeps,
//! engines, accelerators, variants, models and datasets, and the runs a configuration yields.

use super::numbers::number;

/// The result format of a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    VllmJsonl,
    SglangJsonl,
    GuidellmJson,
    TidyCsv,
}

impl Format {
    pub(super) fn tool(self) -> &'static str {
        match self {
            Format::VllmJsonl => "`vllm bench serve` (JSON Lines, one file per configuration)",
            Format::SglangJsonl => {
                "SGLang's `bench_serving` (JSON Lines, one file per configuration)"
            }
            Format::GuidellmJson => "GuideLLM 0.7 (a `benchmarks.json` per configuration)",
            Format::TidyCsv => "a tidy CSV with `# benchdeck:` mapping lines",
        }
    }
}

/// What the load sweep turns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Sweep {
    /// Requests per second, in steps of the given size.
    Rate(f64),
    /// Requests in flight, in steps of the given size.
    Concurrency(u32),
}

impl Sweep {
    pub(super) fn load(self, i: usize) -> f64 {
        match self {
            Sweep::Rate(step) => step * (i + 1) as f64,
            Sweep::Concurrency(step) => f64::from(step) * (i + 1) as f64,
        }
    }

    pub(super) fn is_rate(self) -> bool {
        matches!(self, Sweep::Rate(_))
    }

    /// `4 req/s` or `concurrency 16`, as a reader would say it.
    pub(super) fn say(self, load: f64) -> String {
        match self {
            Sweep::Rate(_) => format!("{} req/s", number(load)),
            Sweep::Concurrency(_) => format!("concurrency {}", number(load)),
        }
    }
}

/// A serving engine of the generated configurations.
pub(super) struct Engine {
    pub(super) key: &'static str,
    pub(super) name: &'static str,
    /// Relative prefill and decode speed (1 = the reference).
    pub(super) prefill: f64,
    pub(super) decode: f64,
}

pub(super) const ENGINES: [Engine; 6] = [
    Engine {
        key: "vllm-0.8",
        name: "vLLM 0.8",
        prefill: 1.0,
        decode: 1.0,
    },
    Engine {
        key: "vllm-0.6",
        name: "vLLM 0.6",
        prefill: 1.15,
        decode: 1.1,
    },
    Engine {
        key: "sglang-0.4",
        name: "SGLang 0.4",
        prefill: 0.95,
        decode: 0.95,
    },
    Engine {
        key: "tgi-3.0",
        name: "TGI 3.0",
        prefill: 1.1,
        decode: 1.15,
    },
    Engine {
        key: "trtllm-0.16",
        name: "TensorRT-LLM 0.16",
        prefill: 0.85,
        decode: 0.9,
    },
    Engine {
        key: "lmdeploy-0.7",
        name: "LMDeploy 0.7",
        prefill: 1.05,
        decode: 0.92,
    },
];

/// Accelerators: key, name, relative speed.
pub(super) const HARDWARE: [(&str, &str, f64); 5] = [
    ("h100", "H100", 1.0),
    ("a100", "A100", 1.6),
    ("l40s", "L40S", 2.1),
    ("mi300x", "MI300X", 1.05),
    ("a10g", "A10G", 3.4),
];

/// Variants: key, name, effect on prefill and decode time, on capacity.
pub(super) const VARIANTS: [(&str, &str, f64, f64, f64); 6] = [
    ("tp1", "TP 1", 1.0, 1.0, 1.0),
    ("tp2", "TP 2", 0.65, 0.7, 1.7),
    ("fp8", "FP8", 0.85, 0.75, 1.35),
    ("prefix-cache", "prefix cache", 0.55, 1.0, 1.2),
    ("spec-decode", "speculative decoding", 1.05, 0.6, 0.9),
    ("chunked-prefill", "chunked prefill", 1.1, 0.9, 1.15),
];

/// Models: name, prefill ms at light load, decode ms per token, requests/s one H100 sustains.
pub(super) const MODELS: [(&str, f64, f64, f64); 4] = [
    ("synthetic/chat-8b", 45.0, 9.0, 18.0),
    ("synthetic/code-7b", 40.0, 8.5, 20.0),
    ("synthetic/moe-16b", 70.0, 12.0, 11.0),
    ("synthetic/chat-70b", 160.0, 28.0, 4.0),
];

/// Datasets: name, mean input and output tokens, what they stand for.
pub(super) const DATASETS: [(&str, f64, f64, &str); 4] = [
    ("sharegpt", 230.0, 190.0, "ShareGPT-like conversations"),
    (
        "random-1024-128",
        1024.0,
        128.0,
        "random prompts of 1,024 tokens answered in 128",
    ),
    (
        "random-512-256",
        512.0,
        256.0,
        "random prompts of 512 tokens answered in 256",
    ),
    ("summaries", 1850.0, 160.0, "long documents to summarise"),
];

/// One configuration of a report and its simulated sweep.
pub(super) struct Config {
    pub(super) key: String,
    pub(super) label: String,
    pub(super) engine: &'static Engine,
    pub(super) hardware: &'static str,
    /// Prefill time at light load (ms) and decode time per token (ms).
    pub(super) ttft0: f64,
    pub(super) tpot0: f64,
    /// Requests per second it sustains.
    pub(super) capacity: f64,
    /// The runs of its sweep.
    pub(super) points: Vec<Point>,
}

/// One run: a load point's outcome, latencies in ms.
#[derive(Debug, Clone)]
pub(super) struct Point {
    pub(super) load: f64,
    pub(super) prompts: u64,
    pub(super) completed: u64,
    pub(super) failed: u64,
    pub(super) duration_s: f64,
    pub(super) req_per_s: f64,
    pub(super) concurrency: f64,
    pub(super) input_mean: f64,
    pub(super) output_mean: f64,
    pub(super) ttft: Dist,
    pub(super) tpot: Dist,
    pub(super) itl: Dist,
    pub(super) e2e: Dist,
}

impl Point {
    pub(super) fn output_tok_s(&self) -> f64 {
        self.req_per_s * self.output_mean
    }

    pub(super) fn input_tok_s(&self) -> f64 {
        self.req_per_s * self.input_mean
    }

    pub(super) fn total_input(&self) -> u64 {
        (self.completed as f64 * self.input_mean).round() as u64
    }

    pub(super) fn total_output(&self) -> u64 {
        (self.completed as f64 * self.output_mean).round() as u64
    }
}

/// A log-normal latency distribution: its median and shape.
#[derive(Debug, Clone, Copy)]
pub(super) struct Dist {
    pub(super) median: f64,
    pub(super) sigma: f64,
}

impl Dist {
    pub(super) fn mean(self) -> f64 {
        self.median * (self.sigma * self.sigma / 2.0).exp()
    }

    pub(super) fn std(self) -> f64 {
        self.mean() * ((self.sigma * self.sigma).exp() - 1.0).sqrt()
    }

    /// The value at percentile `p` (0–100).
    pub(super) fn p(self, p: f64) -> f64 {
        self.median * (self.sigma * z_score(p)).exp()
    }
}

/// The standard normal quantile of the percentiles the formats write.
fn z_score(p: f64) -> f64 {
    match p {
        p if p <= 0.1 => -3.090,
        p if p <= 1.0 => -2.326,
        p if p <= 5.0 => -1.645,
        p if p <= 10.0 => -1.282,
        p if p <= 25.0 => -0.674,
        p if p <= 50.0 => 0.0,
        p if p <= 75.0 => 0.674,
        p if p <= 90.0 => 1.282,
        p if p <= 95.0 => 1.645,
        p if p <= 99.0 => 2.326,
        _ => 3.090,
    }
}
