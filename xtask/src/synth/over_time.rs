//! The synthetic data set behind the distributions-over-time report (`results/model-distributions/`,
//! seed 003): three invented models, each served for ten minutes at 2 requests per second, with
//! every request's start time. The server drifts between regimes, as seed 003 describes: a light
//! one (fast decoding, p95 around 6 s), a normal one (p95 around 17 s) and a stressed one where
//! requests queue (p95 around 42 s, a few time out). The models differ in how fast they decode,
//! how long they answer, and when they meet each regime.

use std::path::Path;

use anyhow::{Context, Result};

use super::{vllm_result, Request};
use crate::rng::Rng;
use crate::run::step;

/// One invented model.
struct Model {
    label: &'static str,
    model_id: &'static str,
    /// Median decode time per token in the normal regime (s).
    tpot: f64,
    /// Output tokens, uniform between these.
    output: (f64, f64),
    /// The regime from each time on (seconds after the first request).
    schedule: &'static [(f64, Regime)],
}

const MODELS: [Model; 3] = [
    Model {
        label: "synthetic-gpt",
        model_id: "synthetic/gpt-like-20b",
        tpot: 0.0125,
        output: (400.0, 1400.0),
        schedule: &[
            (0.0, Regime::Normal),
            (150.0, Regime::Light),
            (210.0, Regime::Normal),
            (400.0, Regime::Stressed),
            (470.0, Regime::Normal),
        ],
    },
    Model {
        label: "synthetic-qwen3",
        model_id: "synthetic/qwen3-like-8b",
        tpot: 0.033,
        output: (150.0, 520.0),
        schedule: &[
            (0.0, Regime::Normal),
            (90.0, Regime::Light),
            (130.0, Regime::Normal),
            (300.0, Regime::Stressed),
            (390.0, Regime::Normal),
            (500.0, Regime::Light),
            (530.0, Regime::Normal),
        ],
    },
    Model {
        label: "synthetic-llama",
        model_id: "synthetic/llama-like-70b",
        tpot: 0.08,
        output: (60.0, 240.0),
        schedule: &[
            (0.0, Regime::Normal),
            (200.0, Regime::Stressed),
            (290.0, Regime::Normal),
            (450.0, Regime::Light),
            (480.0, Regime::Normal),
        ],
    },
];

/// The server's state for a stretch of time.
#[derive(Clone, Copy)]
enum Regime {
    Light,
    Normal,
    Stressed,
}

const RATE: f64 = 2.0;
const DURATION_S: f64 = 600.0;
/// Where the benchmark's clock (`time.perf_counter()`) stood at the first request.
const CLOCK_ORIGIN: f64 = 81_234.5;

/// Writes the data set under `results/model-distributions/`.
pub fn run(root: &Path) -> Result<()> {
    let dir = root.join("results").join("model-distributions");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create `{}`", dir.display()))?;
    let mut rng = Rng::new(0x5eed_0003_d157_7135);
    for model in &MODELS {
        let requests = requests(&mut rng, model);
        let head = format!(
            "\"date\": \"20260102-090000\", \"backend\": \"openai-chat\", \"label\": \"{}\", \
             \"synthetic\": \"true\", \"model_id\": \"{}\", \"num_prompts\": {}, \
             \"request_rate\": {RATE:.1}, \"burstiness\": 1.0, \"max_concurrency\": null",
            model.label,
            model.model_id,
            requests.len()
        );
        let path = dir.join(format!("{}.json", model.label));
        std::fs::write(&path, vllm_result(&head, &requests, DURATION_S) + "\n")
            .with_context(|| format!("cannot write `{}`", path.display()))?;
        step(&format!("wrote {}", path.display()));
    }
    Ok(())
}

/// Poisson arrivals at [`RATE`] for [`DURATION_S`], each served in the regime of its start.
fn requests(rng: &mut Rng, model: &Model) -> Vec<Request> {
    let mut out = Vec::new();
    let mut t = 0.0;
    while t < DURATION_S {
        let regime = model
            .schedule
            .iter()
            .rev()
            .find(|(start, _)| *start <= t)
            .map_or(Regime::Normal, |(_, r)| *r);
        let input = rng.range(200.0, 1200.0).round();
        let output = rng.range(model.output.0, model.output.1).round();
        let (speed_up, queue_s, timeout_share) = match regime {
            Regime::Light => (0.4, 0.0, 0.0),
            Regime::Normal => (1.0, 0.0, 0.0),
            Regime::Stressed => (1.25, rng.lognormal(17.0, 0.2), 0.02),
        };
        let mut request = if rng.uniform() < timeout_share {
            Request::failed(input, "TimeoutError: request exceeded 60 s")
        } else {
            let ttft = queue_s + rng.lognormal(0.35 * (input / 600.0), 0.4);
            let tpot = rng.lognormal(model.tpot * speed_up, 0.15);
            Request::served(input, output, ttft, tpot)
        };
        request.start = Some(CLOCK_ORIGIN + t);
        out.push(request);
        t += -rng.uniform().ln() / RATE;
    }
    out
}
