//! The synthetic data set behind the nightly-regressions report (`results/nightly/`): two
//! invented serving setups benchmarked every night for two weeks at 4 and 16 requests per
//! second, one folder per night (`results/nightly/2026-11-01/`), as a CI job that runs `vllm
//! bench serve` after each nightly build would leave them. Each night varies a little (the
//! machine, the sampled prompts). Three things happen on purpose, and the report's trend charts
//! and `benchdeck history` must find them and nothing else:
//! - on 2026-11-08 vLLM's setup moves to a new engine release (`vllm_version` 0.11.0 → 0.11.1
//!   in its files) whose decode is 8% faster: a change of level, for the better;
//! - on 2026-11-05 SGLang's run at 16 req/s shared its GPU with another job: its time to first
//!   token is 50% higher that night only, an outlier;
//! - on the last night SGLang's prefill got slower (a bad build): its time to first token at
//!   16 req/s is 45% higher, the newest night worse than its level.
//!
//! Every file carries the night's build as `--metadata commit=…`.

use std::path::Path;

use anyhow::{Context, Result};

use super::result::{vllm_result, Request};
use crate::rng::Rng;
use crate::run::step;

/// One invented serving setup.
struct Setup {
    /// File name and `label`.
    label: &'static str,
    /// Median TTFT at 4 req/s (s), and its factor at 16 req/s.
    ttft: f64,
    ttft_at_16: f64,
    /// Median decode time per token (s).
    tpot: f64,
}

const SETUPS: [Setup; 2] = [
    Setup {
        label: "nightly-vllm",
        ttft: 0.110,
        ttft_at_16: 2.2,
        tpot: 0.021,
    },
    Setup {
        label: "nightly-sglang",
        ttft: 0.095,
        ttft_at_16: 2.6,
        tpot: 0.019,
    },
];

/// Nights benchmarked, from 2026-11-01.
const NIGHTS: usize = 14;
/// Request rates of each night's sweep.
const RATES: [f64; 2] = [4.0, 16.0];
/// Requests per run.
const REQUESTS: usize = 400;
/// The injected regression: setup, night (0-based), rate and its TTFT factor.
const REGRESSION: (&str, usize, f64, f64) = ("nightly-sglang", NIGHTS - 1, 16.0, 1.45);
/// The noisy neighbour: setup, night, rate and its TTFT factor, that night only.
const OUTLIER: (&str, usize, f64, f64) = ("nightly-sglang", 4, 16.0, 1.5);
/// The engine upgrade: setup, first night on it, its TPOT factor from then on, and the
/// versions before and after.
const UPGRADE: (&str, usize, f64, &str, &str) = ("nightly-vllm", 7, 0.92, "0.11.0", "0.11.1");

/// Writes the data set under `results/nightly/`.
pub fn run(root: &Path) -> Result<()> {
    let mut rng = Rng::new(0x0417_0ba5_e11e_2026);
    for night in 0..NIGHTS {
        let day = format!("2026-11-{:02}", night + 1);
        let dir = root.join("results").join("nightly").join(&day);
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create `{}`", dir.display()))?;
        for setup in &SETUPS {
            // What differs from night to night for every request: the machine and the build.
            let drift = rng.jitter(0.01);
            for (i, &rate) in RATES.iter().enumerate() {
                // One `--save-result` file per run, named as vLLM names them.
                let path = dir.join(format!("{}-{rate:.0}qps.json", setup.label));
                std::fs::write(
                    &path,
                    run_json(&mut rng, setup, night, i, rate, drift) + "\n",
                )
                .with_context(|| format!("cannot write `{}`", path.display()))?;
            }
        }
        step(&format!("wrote {}", dir.display()));
    }
    Ok(())
}

/// One night's run of `setup` at `rate`, started at 02:00 plus a minute per load point.
fn run_json(
    rng: &mut Rng,
    setup: &Setup,
    night: usize,
    index: usize,
    rate: f64,
    drift: f64,
) -> String {
    let at = |(label, n, r): (&str, usize, f64)| (setup.label, night, rate) == (label, n, r);
    let regression = if at((REGRESSION.0, REGRESSION.1, REGRESSION.2)) {
        REGRESSION.3
    } else if at((OUTLIER.0, OUTLIER.1, OUTLIER.2)) {
        OUTLIER.3
    } else {
        1.0
    };
    let upgraded = setup.label == UPGRADE.0 && night >= UPGRADE.1;
    let decode = if upgraded { UPGRADE.2 } else { 1.0 };
    let ttft = setup.ttft * if rate > 4.0 { setup.ttft_at_16 } else { 1.0 } * drift * regression;
    let requests: Vec<Request> = (0..REQUESTS)
        .map(|_| {
            let input = (200.0 + rng.uniform() * 800.0).round();
            let output = (60.0 + rng.uniform() * 190.0).round();
            let tpot = rng.lognormal(setup.tpot * decode * drift * (1.0 + 0.02 * rate), 0.12);
            Request::served(input, output, rng.lognormal(ttft, 0.35), tpot)
        })
        .collect();
    let head = format!(
        "\"date\": \"202611{:02}-02{index:02}00\", \"backend\": \"openai-chat\", \
         \"label\": \"{label}\", \"synthetic\": \"true\", \"model_id\": \"synthetic/chat-model-8b\", \
         \"num_prompts\": {REQUESTS}, \"request_rate\": {rate:.1}, \"burstiness\": 1.0, \
         \"max_concurrency\": null, \"commit\": \"{commit}\"{version}",
        night + 1,
        label = setup.label,
        commit = build_commit(night),
        version = match setup.label == UPGRADE.0 {
            true if upgraded => format!(", \"vllm_version\": \"{}\"", UPGRADE.4),
            true => format!(", \"vllm_version\": \"{}\"", UPGRADE.3),
            false => String::new(),
        },
    );
    vllm_result(&head, &requests, REQUESTS as f64 / rate)
}

/// The nightly build's commit, as a CI job would pass it: seven hex digits, one per night.
fn build_commit(night: usize) -> String {
    let mixed = (night as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    format!("{:07x}", mixed >> 36)
}
