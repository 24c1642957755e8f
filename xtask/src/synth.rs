//! `cargo xtask synth`: writes the synthetic per-request data set behind the latency-analysis
//! report (`results/latency-analysis/`), deterministically, so anyone can regenerate and check it.
//!
//! The files are `vllm bench serve` results with per-request arrays. Every file says it is
//! synthetic (`label` and a `synthetic` metadata key); latencies are drawn from log-normal
//! distributions whose medians and tails grow with load, with a few failed requests at the top.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};

use crate::rng::Rng;
use crate::run::step;

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

/// Writes the data set under `results/latency-analysis/`.
pub fn run(root: &Path) -> Result<()> {
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
    let (mut ttfts, mut latencies, mut inputs, mut outputs, mut errors) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..REQUESTS {
        let input = (150.0 + rng.uniform() * 900.0).round();
        let output = (40.0 + rng.uniform() * 220.0).round();
        let failed = rng.uniform() < failure_share;
        if failed {
            ttfts.push(0.0);
            latencies.push(0.0);
            inputs.push(input);
            outputs.push(0.0);
            errors.push("\"TimeoutError: request exceeded 30 s\"".to_string());
            continue;
        }
        let ttft = rng.lognormal(ttft_median * (input / 600.0).sqrt(), setup.sigma);
        let tpot = rng.lognormal(setup.tpot * (1.0 + 0.08 * rate), 0.15);
        ttfts.push(ttft);
        latencies.push(ttft + tpot * (output - 1.0));
        inputs.push(input);
        outputs.push(output);
        errors.push("\"\"".to_string());
    }
    let completed = errors.iter().filter(|e| e.as_str() == "\"\"").count();
    let ok: Vec<usize> = (0..REQUESTS).filter(|&i| errors[i] == "\"\"").collect();
    let duration = REQUESTS as f64 / rate;
    let total_out: f64 = ok.iter().map(|&i| outputs[i]).sum();
    let total_in: f64 = ok.iter().map(|&i| inputs[i]).sum();
    let sorted = |values: &[f64]| {
        let mut v: Vec<f64> = ok.iter().map(|&i| values[i] * 1000.0).collect();
        v.sort_by(f64::total_cmp);
        v
    };
    let ttft_ms = sorted(&ttfts);
    let e2e_ms = sorted(&latencies);
    let tpot_ms: Vec<f64> = {
        let mut v: Vec<f64> = ok
            .iter()
            .map(|&i| (latencies[i] - ttfts[i]) * 1000.0 / (outputs[i] - 1.0))
            .collect();
        v.sort_by(f64::total_cmp);
        v
    };
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
    let list = |v: &[f64], decimals: usize| {
        v.iter()
            .map(|x| format!("{x:.decimals$}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "{{\"date\": \"20260101-12000{step_index}\", \"backend\": \"openai-chat\", \"label\": \"{label}\", \
         \"synthetic\": \"true\", \"model_id\": \"synthetic/chat-model-8b\", \"num_prompts\": {REQUESTS}, \
         \"request_rate\": {rate:.1}, \"burstiness\": 1.0, \"max_concurrency\": null, \"duration\": {duration:.3}, \
         \"completed\": {completed}, \"failed\": {failed}, \"total_input_tokens\": {total_in}, \
         \"total_output_tokens\": {total_out}, \"request_throughput\": {rps:.4}, \
         \"output_throughput\": {otps:.4}, {stats}\"input_lens\": [{inputs}], \"output_lens\": [{outputs}], \
         \"ttfts\": [{ttfts}], \"latencies\": [{latencies}], \"errors\": [{errors}]}}",
        label = setup.label,
        failed = REQUESTS - completed,
        rps = completed as f64 / duration,
        otps = total_out / duration,
        inputs = list(&inputs, 0),
        outputs = list(&outputs, 0),
        ttfts = list(&ttfts, 5),
        latencies = list(&latencies, 5),
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
