//! `cargo xtask synth`: writes the synthetic per-request data sets, deterministically, so anyone
//! can regenerate and check them: the latency-analysis report's (`results/latency-analysis/`,
//! here), the distributions-over-time report's (`results/model-distributions/`, in
//! [`over_time`]) and the nightly-regressions report's (`results/nightly/`, in [`nightly`]).
//!
//! The files are `vllm bench serve` results with per-request arrays. Every file says it is
//! synthetic (`label` and a `synthetic` metadata key). Here latencies are drawn from log-normal
//! distributions whose medians and tails grow with load, with a few failed requests at the top.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};

use crate::rng::Rng;
use crate::run::step;

mod nightly;
mod over_time;

/// One serving setup of the data set.
struct Setup {
    label: &'static str,
    /// Median TTFT at 1 req/s (s), and how it grows per req/s.
    ttft_base: f64,
    ttft_growth: f64,
    /// Tail shape of TTFT.
    sigma: f64,
    /// Median decode time per token (s).
    tpot: f64,
}

const SETUPS: [Setup; 2] = [
    Setup {
        label: "synthetic-chat-a10g",
        ttft_base: 0.180,
        ttft_growth: 0.35,
        sigma: 0.45,
        tpot: 0.028,
    },
    Setup {
        label: "synthetic-chat-l4-prefix-cache",
        ttft_base: 0.120,
        ttft_growth: 0.55,
        sigma: 0.70,
        tpot: 0.034,
    },
];

/// Request rates of the sweep.
const RATES: [f64; 3] = [1.0, 4.0, 8.0];
/// Requests per run.
const REQUESTS: usize = 400;

/// Writes every data set.
pub fn run(root: &Path) -> Result<()> {
    latency_analysis(root)?;
    over_time::run(root)?;
    nightly::run(root)
}

/// Writes the data set under `results/latency-analysis/`.
fn latency_analysis(root: &Path) -> Result<()> {
    let dir = root.join("results").join("latency-analysis");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create `{}`", dir.display()))?;
    let mut rng = Rng::new(0x00be_1c4d_ec4d_a7a5);
    for setup in &SETUPS {
        let mut lines = Vec::new();
        for (step_index, &rate) in RATES.iter().enumerate() {
            lines.push(run_json(&mut rng, setup, rate, step_index));
        }
        let path = dir.join(format!("{}.jsonl", setup.label));
        std::fs::write(&path, lines.join("\n") + "\n")
            .with_context(|| format!("cannot write `{}`", path.display()))?;
        step(&format!("wrote {}", path.display()));
    }
    Ok(())
}

fn run_json(rng: &mut Rng, setup: &Setup, rate: f64, step_index: usize) -> String {
    let ttft_median = setup.ttft_base * (1.0 + setup.ttft_growth * (rate - 1.0));
    // Failures appear at the highest rate only: timeouts of the slowest requests.
    let failure_share = if step_index == RATES.len() - 1 {
        0.02
    } else {
        0.0
    };
    let mut requests = Vec::new();
    for _ in 0..REQUESTS {
        let input = (150.0 + rng.uniform() * 900.0).round();
        let output = (40.0 + rng.uniform() * 220.0).round();
        let failed = rng.uniform() < failure_share;
        if failed {
            requests.push(Request::failed(
                input,
                "TimeoutError: request exceeded 30 s",
            ));
            continue;
        }
        let ttft = rng.lognormal(ttft_median * (input / 600.0).sqrt(), setup.sigma);
        let tpot = rng.lognormal(setup.tpot * (1.0 + 0.08 * rate), 0.15);
        requests.push(Request::served(input, output, ttft, tpot));
    }
    let head = format!(
        "\"date\": \"20260101-12000{step_index}\", \"backend\": \"openai-chat\", \"label\": \"{label}\", \
         \"synthetic\": \"true\", \"model_id\": \"synthetic/chat-model-8b\", \"num_prompts\": {REQUESTS}, \
         \"request_rate\": {rate:.1}, \"burstiness\": 1.0, \"max_concurrency\": null",
        label = setup.label,
    );
    vllm_result(&head, &requests, REQUESTS as f64 / rate)
}

/// One synthetic request: tokens, times in seconds, the error text of a failed one, and its start
/// on the benchmark's clock when the data set records it.
pub(crate) struct Request {
    pub input: f64,
    pub output: f64,
    pub ttft: f64,
    pub e2e: f64,
    pub error: Option<&'static str>,
    pub start: Option<f64>,
}

impl Request {
    /// A request that succeeded: its first token after `ttft` seconds, then one every `tpot`.
    pub fn served(input: f64, output: f64, ttft: f64, tpot: f64) -> Request {
        Request {
            input,
            output,
            ttft,
            e2e: ttft + tpot * (output - 1.0),
            error: None,
            start: None,
        }
    }

    /// A request that failed with `error`, after `input` prompt tokens and no output.
    pub fn failed(input: f64, error: &'static str) -> Request {
        Request {
            input,
            output: 0.0,
            ttft: 0.0,
            e2e: 0.0,
            error: Some(error),
            start: None,
        }
    }
}

/// A `vllm bench serve --save-detailed` result: `head` (the metadata keys, as JSON members),
/// the totals and statistics of the successful requests over `duration` seconds, and the
/// per-request arrays (with `start_times` when every request has a start).
pub(crate) fn vllm_result(head: &str, requests: &[Request], duration: f64) -> String {
    let ok: Vec<&Request> = requests.iter().filter(|r| r.error.is_none()).collect();
    let completed = ok.len();
    let total_out: f64 = ok.iter().map(|r| r.output).sum();
    let total_in: f64 = ok.iter().map(|r| r.input).sum();
    let sorted = |value: &dyn Fn(&Request) -> f64| {
        let mut v: Vec<f64> = ok.iter().map(|r| value(r) * 1000.0).collect();
        v.sort_by(f64::total_cmp);
        v
    };
    let ttft_ms = sorted(&|r| r.ttft);
    let e2e_ms = sorted(&|r| r.e2e);
    let tpot_ms = sorted(&|r| (r.e2e - r.ttft) / (r.output - 1.0));
    let mut stats = String::new();
    for (name, values) in [("ttft", &ttft_ms), ("tpot", &tpot_ms), ("e2el", &e2e_ms)] {
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64;
        let _ = write!(
            stats,
            "\"mean_{name}_ms\": {mean:.4}, \"median_{name}_ms\": {:.4}, \"std_{name}_ms\": {:.4}, ",
            percentile(values, 50.0),
            var.sqrt()
        );
        for p in [90.0, 95.0, 99.0] {
            let _ = write!(stats, "\"p{p}_{name}_ms\": {:.4}, ", percentile(values, p));
        }
    }
    let list = |value: &dyn Fn(&Request) -> f64, decimals: usize| {
        requests
            .iter()
            .map(|r| format!("{:.decimals$}", value(r)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let errors: Vec<String> = requests
        .iter()
        .map(|r| format!("\"{}\"", r.error.unwrap_or_default()))
        .collect();
    let starts = if requests.iter().all(|r| r.start.is_some()) {
        format!(
            ", \"start_times\": [{}]",
            list(&|r| r.start.unwrap_or_default(), 4)
        )
    } else {
        String::new()
    };
    format!(
        "{{{head}, \"duration\": {duration:.3}, \
         \"completed\": {completed}, \"failed\": {failed}, \"total_input_tokens\": {total_in}, \
         \"total_output_tokens\": {total_out}, \"request_throughput\": {rps:.4}, \
         \"output_throughput\": {otps:.4}, {stats}\"input_lens\": [{inputs}], \"output_lens\": [{outputs}], \
         \"ttfts\": [{ttfts}], \"latencies\": [{latencies}], \"errors\": [{errors}]{starts}}}",
        failed = requests.len() - completed,
        rps = completed as f64 / duration,
        otps = total_out / duration,
        inputs = list(&|r| r.input, 0),
        outputs = list(&|r| r.output, 0),
        ttfts = list(&|r| r.ttft, 5),
        latencies = list(&|r| r.e2e, 5),
        errors = errors.join(", "),
    )
}

/// The nearest-rank percentile of ascending `sorted` values.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}
