//! `cargo xtask synth`: writes the synthetic per-request data sets, deterministically, so anyone
//! can regenerate and check them: the latency-analysis report's (`results/latency-analysis/`,
//! here), the distributions-over-time report's (`results/model-distributions/`, in
//! [`over_time`]) and the nightly-regressions report's (`results/nightly/`, in [`nightly`]).
//!
//! The files are `vllm bench serve` results with per-request arrays. Every file says it is
//! synthetic (`label` and a `synthetic` metadata key). Here latencies are drawn from log-normal
//! distributions whose medians and tails grow with load, with a few failed requests at the top,
//! and each request first waits in a queue for the prefill of the ones sent before it (Poisson
//! arrivals, one prefill at a time), so neighbouring requests share their wait as in a real load
//! test, more so at the higher rates.

use std::path::Path;

use anyhow::{Context, Result};

use crate::rng::Rng;
use crate::run::step;

mod nightly;
mod over_time;
mod result;

use result::{vllm_result, Request};

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
    /// Prefill time per input token (s): the queue's service time.
    prefill_per_token: f64,
}

const SETUPS: [Setup; 2] = [
    Setup {
        label: "synthetic-chat-a10g",
        ttft_base: 0.180,
        ttft_growth: 0.35,
        sigma: 0.45,
        tpot: 0.028,
        prefill_per_token: 0.000_18,
    },
    Setup {
        label: "synthetic-chat-l4-prefix-cache",
        ttft_base: 0.120,
        ttft_growth: 0.55,
        sigma: 0.70,
        tpot: 0.034,
        prefill_per_token: 0.000_13,
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
    // The queue draws from its own stream, so the requests' other draws stay as they were.
    let mut queue = Queue::new(rate, step_index);
    let mut requests = Vec::new();
    for _ in 0..REQUESTS {
        let input = (150.0 + rng.uniform() * 900.0).round();
        let output = (40.0 + rng.uniform() * 220.0).round();
        let failed = rng.uniform() < failure_share;
        let wait = queue.wait(input * setup.prefill_per_token);
        if failed {
            requests.push(Request::failed(
                input,
                "TimeoutError: request exceeded 30 s",
            ));
            continue;
        }
        let ttft = wait + rng.lognormal(ttft_median * (input / 600.0).sqrt(), setup.sigma);
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

/// The prefill queue of one run: requests arrive at `rate` (Poisson) and are prefilled one at a
/// time, so each waits for the ones before it (Lindley's recursion).
struct Queue {
    rng: Rng,
    rate: f64,
    /// The wait of the next request (s).
    wait: f64,
}

impl Queue {
    fn new(rate: f64, step_index: usize) -> Queue {
        Queue {
            rng: Rng::for_report(1_000 + step_index),
            rate,
            wait: 0.0,
        }
    }

    /// The wait of the next request, whose prefill takes `service` seconds.
    fn wait(&mut self, service: f64) -> f64 {
        let wait = self.wait;
        let gap = -self.rng.uniform().ln() / self.rate;
        self.wait = (wait + service - gap).max(0.0);
        wait
    }
}
