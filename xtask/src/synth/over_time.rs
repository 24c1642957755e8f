//! The synthetic data set behind the distributions-over-time report (`results/model-distributions/`,
//! seed 003): three invented models, each served for ten minutes at 2 requests per second, with
//! every request's start time. The server drifts between regimes, as seed 003 describes: a light
//! one (fast decoding, a window's p95 around 6 s), a normal one (around 18 s) and a stressed one
//! (around 42 s: requests queue, a few time out), after a slower first half-minute (warm-up).
//! The models differ in how fast they decode, how long they answer, what each regime does to
//! them (GPT-like's stress is long answers and a short wait, so it keeps its speed; Qwen3-like's
//! light regime lifts it only a little, its ceiling) and when they meet each regime (Llama-like
//! twice in the stressed one).

use std::path::Path;

use anyhow::{Context, Result};

use super::result::{vllm_result, Request};
use crate::rng::Rng;
use crate::run::step;

/// One invented model.
struct Model {
    label: &'static str,
    model_id: &'static str,
    /// Median decode time per token in the normal regime (s).
    tpot: f64,
    /// Output tokens, uniform between these (normal regime).
    output: (f64, f64),
    /// What the light and the stressed regime do to this model's requests.
    light: Effect,
    stressed: Effect,
    /// The regime from each time on (seconds after the first request).
    schedule: &'static [(f64, Regime)],
}

/// What a regime does to a request: decode time and output length as factors, the median wait
/// before the first token (log-normal, σ 0.2; none when 0) and the share of requests that time
/// out.
struct Effect {
    tpot: f64,
    output: f64,
    queue_s: f64,
    timeout_share: f64,
}

const NORMAL: Effect = Effect {
    tpot: 1.0,
    output: 1.0,
    queue_s: 0.0,
    timeout_share: 0.0,
};

/// Seed 003's warm-up ("slower start, then stable regime"): for the first 30 s decoding is 20%
/// slower and the first token comes a second later.
const WARMUP_S: f64 = 30.0;
const WARMUP_TPOT: f64 = 1.2;
const WARMUP_TTFT_S: f64 = 1.0;

/// Seed 003's three models. GPT-like: very high throughput, and its stress is long answers
/// with a short wait, so it keeps its speed while its p95 rises. Qwen3-like: medium, under a
/// ceiling (its light regime gives short answers and only 1.6 times faster decoding).
/// Llama-like: low, in a degraded regime (a long queue) twice, with one isolated light window.
const MODELS: [Model; 3] = [
    Model {
        label: "synthetic-gpt",
        model_id: "synthetic/gpt-like-20b",
        tpot: 0.0125,
        output: (400.0, 1400.0),
        light: Effect {
            tpot: 0.3,
            ..NORMAL
        },
        stressed: Effect {
            tpot: 1.0,
            output: 2.1,
            queue_s: 4.5,
            timeout_share: 0.01,
        },
        schedule: &[
            (0.0, Regime::Normal),
            (150.0, Regime::Light),
            (210.0, Regime::Normal),
            (390.0, Regime::Stressed),
            (480.0, Regime::Normal),
        ],
    },
    Model {
        label: "synthetic-qwen3",
        model_id: "synthetic/qwen3-like-8b",
        tpot: 0.033,
        output: (150.0, 520.0),
        light: Effect {
            tpot: 0.6,
            output: 0.5,
            ..NORMAL
        },
        stressed: Effect {
            tpot: 1.25,
            output: 1.0,
            queue_s: 17.0,
            timeout_share: 0.02,
        },
        schedule: &[
            (0.0, Regime::Normal),
            (90.0, Regime::Light),
            (120.0, Regime::Normal),
            (300.0, Regime::Stressed),
            (390.0, Regime::Normal),
            (480.0, Regime::Light),
            (510.0, Regime::Normal),
        ],
    },
    Model {
        label: "synthetic-llama",
        model_id: "synthetic/llama-like-70b",
        tpot: 0.075,
        output: (60.0, 220.0),
        light: Effect {
            tpot: 0.3,
            ..NORMAL
        },
        stressed: Effect {
            tpot: 1.2,
            output: 1.0,
            queue_s: 17.5,
            timeout_share: 0.02,
        },
        schedule: &[
            (0.0, Regime::Normal),
            (120.0, Regime::Stressed),
            (210.0, Regime::Normal),
            (330.0, Regime::Stressed),
            (390.0, Regime::Normal),
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

/// Poisson arrivals at [`RATE`] for [`DURATION_S`], each served in the regime of its start,
/// the first [`WARMUP_S`] slower.
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
        let effect = match regime {
            Regime::Light => &model.light,
            Regime::Normal => &NORMAL,
            Regime::Stressed => &model.stressed,
        };
        let (warm_tpot, warm_ttft) = if t < WARMUP_S {
            (WARMUP_TPOT, WARMUP_TTFT_S)
        } else {
            (1.0, 0.0)
        };
        let input = rng.range(200.0, 1200.0).round();
        let output = rng
            .range(
                model.output.0 * effect.output,
                model.output.1 * effect.output,
            )
            .round();
        let queue_s = if effect.queue_s > 0.0 {
            rng.lognormal(effect.queue_s, 0.2)
        } else {
            0.0
        };
        let mut request = if rng.uniform() < effect.timeout_share {
            Request::failed(input, "TimeoutError: request exceeded 60 s")
        } else {
            let ttft = queue_s + warm_ttft + rng.lognormal(0.35 * (input / 600.0), 0.4);
            let tpot = rng.lognormal(model.tpot * effect.tpot * warm_tpot, 0.15);
            Request::served(input, output, ttft, tpot)
        };
        request.start = Some(CLOCK_ORIGIN + t);
        out.push(request);
        t += -rng.uniform().ln() / RATE;
    }
    out
}
