//! One synthetic report's plan, drawn from its own generator: its format, sweep, model and
//! dataset, its configurations and their simulated runs, its date, slug and title.

use super::model::{
    Config, Dist, Format, Point, Sweep, DATASETS, ENGINES, HARDWARE, MODELS, VARIANTS,
};
use crate::rng::Rng;

/// Everything about one report, drawn from its own generator.
pub(super) struct Plan {
    pub(super) index: usize,
    pub(super) slug: String,
    pub(super) title: String,
    /// Days since 1970-01-01, or none (a few reports are undated).
    pub(super) date: Option<i64>,
    pub(super) format: Format,
    pub(super) sweep: Sweep,
    pub(super) model: &'static str,
    pub(super) dataset: (&'static str, f64, f64, &'static str),
    pub(super) configs: Vec<Config>,
}

/// A dataset: name, mean input and output tokens, what it stands for.
type Dataset = (&'static str, f64, f64, &'static str);

impl Plan {
    pub(super) fn new(index: usize, runs: usize) -> Plan {
        let mut rng = Rng::for_report(index);
        let format = match rng.uniform() {
            u if u < 0.35 => Format::VllmJsonl,
            u if u < 0.6 => Format::SglangJsonl,
            u if u < 0.8 => Format::GuidellmJson,
            _ => Format::TidyCsv,
        };
        let k = (2 + rng.below(4)).min(runs);
        // Every configuration gets the same sweep; the first `runs % k` one step more (the
        // others stopped a step earlier), so the report has exactly `runs` runs.
        let (base, extra) = (runs / k, runs % k);
        let longest = base + usize::from(extra > 0);
        let sweep = pick_sweep(&mut rng, longest);
        let model = *rng.pick(&MODELS);
        let dataset = *rng.pick(&DATASETS);
        let top = sweep.load(longest - 1);
        let mut configs = pick_configs(&mut rng, k, sweep, model, dataset, top);
        // A few sweeps end in a crash: every request at the top load failed.
        let crash = (rng.uniform() < 0.15).then(|| rng.below(configs.len()));
        for (j, config) in configs.iter_mut().enumerate() {
            let n = base + usize::from(j < extra);
            for i in 0..n {
                let crashed = crash == Some(j) && i + 1 == n && n > 2;
                let point = simulate(&mut rng, sweep, dataset, config, sweep.load(i), crashed);
                config.points.push(point);
            }
        }
        let (slug, title) = slug_and_title(index, sweep, model.0, dataset, &configs);
        Plan {
            index,
            slug,
            title,
            date: report_date(index),
            format,
            sweep,
            model: model.0,
            dataset,
            configs,
        }
    }

    /// The loads every configuration reached, in order.
    pub(super) fn common_loads(&self) -> Vec<f64> {
        let n = self
            .configs
            .iter()
            .map(|c| c.points.len())
            .min()
            .unwrap_or(0);
        (0..n).map(|i| self.sweep.load(i)).collect()
    }
}

/// The sweep's step, so that its top (after `longest` steps) lands between 8 and 100 req/s
/// or between 16 and 400 requests in flight.
fn pick_sweep(rng: &mut Rng, longest: usize) -> Sweep {
    if rng.uniform() < 0.6 {
        // The top of the sweep lands between 8 and 100 req/s.
        let steps = [0.25, 0.5, 1.0, 2.0];
        let fitting: Vec<f64> = steps
            .iter()
            .copied()
            .filter(|s| (8.0..=100.0).contains(&(s * longest as f64)))
            .collect();
        Sweep::Rate(*rng.pick(if fitting.is_empty() {
            &steps[..]
        } else {
            &fitting
        }))
    } else {
        let steps = [1, 2, 4, 8];
        let fitting: Vec<u32> = steps
            .iter()
            .copied()
            .filter(|s| (16.0..=400.0).contains(&(f64::from(*s) * longest as f64)))
            .collect();
        Sweep::Concurrency(*rng.pick(if fitting.is_empty() {
            &steps[..]
        } else {
            &fitting
        }))
    }
}

/// Up to `k` different configurations serving `model`, each with its knee somewhere inside a
/// sweep reaching `top`; their runs are still to simulate.
fn pick_configs(
    rng: &mut Rng,
    k: usize,
    sweep: Sweep,
    model: (&str, f64, f64, f64),
    dataset: Dataset,
    top: f64,
) -> Vec<Config> {
    let mut configs: Vec<Config> = Vec::new();
    let mut tries = 0;
    while configs.len() < k && tries < 100 {
        tries += 1;
        let engine = rng.pick(&ENGINES);
        let hardware = *rng.pick(&HARDWARE);
        let variant = *rng.pick(&VARIANTS);
        let key = format!("{}-{}-{}", engine.key, hardware.0, variant.0);
        if configs.iter().any(|c| c.key == key) {
            continue;
        }
        let ttft0 = model.1 * engine.prefill * hardware.2 * variant.2 * rng.jitter(0.08);
        let tpot0 = model.2 * engine.decode * hardware.2.sqrt() * variant.3 * rng.jitter(0.05);
        // Put each configuration's knee inside the sweep, at a different place.
        let capacity = match sweep {
            Sweep::Rate(_) => top * rng.range(0.35, 0.9),
            Sweep::Concurrency(_) => {
                let single_s = (ttft0 + tpot0 * (dataset.2 - 1.0)) / 1000.0;
                top * rng.range(0.12, 0.5) / single_s
            }
        };
        configs.push(Config {
            label: format!("{}, {}, {}", engine.name, hardware.1, variant.1),
            key,
            engine,
            hardware: hardware.1,
            ttft0,
            tpot0,
            capacity,
            points: Vec::new(),
        });
    }
    configs
}

/// Dates over three years from 2023-01-01; one in twenty-five has none, one in twenty shares
/// its predecessor's (ties are ordered by title).
fn report_date(index: usize) -> Option<i64> {
    if index % 25 == 13 {
        None
    } else if index % 20 == 7 {
        Some(19_358 + Rng::for_report(index - 1).below(1096) as i64)
    } else {
        Some(19_358 + Rng::for_report(index).below(1096) as i64)
    }
}

/// The report's slug (its number, topic and sweep) and title (its engines, sweep and model).
fn slug_and_title(
    index: usize,
    sweep: Sweep,
    model: &str,
    dataset: Dataset,
    configs: &[Config],
) -> (String, String) {
    let sweep_word = if sweep.is_rate() {
        "rate"
    } else {
        "concurrency"
    };
    let topic = match dataset.0 {
        "sharegpt" => "chat",
        "summaries" => "summaries",
        _ => "random",
    };
    let slug = format!("synthetic-{index:04}-{topic}-{sweep_word}-sweep");
    let mut engines: Vec<&str> = Vec::new();
    for c in configs {
        if !engines.contains(&c.engine.name) {
            engines.push(c.engine.name);
        }
    }
    let title = format!(
        "Synthetic #{index}: {} ({} sweep, {})",
        if engines.len() == 1 {
            format!("{} configurations of {}", configs.len(), engines[0])
        } else {
            engines.join(" vs ")
        },
        sweep_word,
        model.trim_start_matches("synthetic/")
    );
    (slug, title)
}

/// Simulates one run of `config` at `load`.
/// What a load does to a configuration, before one run's noise.
struct Regime {
    /// Median time to first token, ms.
    ttft_ms: f64,
    /// Median time per output token, ms.
    tpot_ms: f64,
    /// How busy the server is, 0 to 1.2: it widens the latencies' spread.
    busy: f64,
    /// The share of prompts that fail.
    failure_share: f64,
    /// Successful requests per second.
    req_per_s: f64,
    /// Prompts sent.
    prompts: f64,
}

/// A request-rate sweep's point at `load` req/s.
fn at_rate(rng: &mut Rng, config: &Config, load: f64) -> Regime {
    let rho = load / config.capacity;
    // Waiting for prefill grows like an M/M/1 queue up to the knee; past capacity the
    // queue grows for the whole run, so the average request waits half of the backlog.
    let q = rho.min(0.97) / (1.0 - rho.min(0.97));
    let prompts = ((load * 120.0 / 100.0).ceil() * 100.0).clamp(200.0, 2000.0);
    let overload_ms = if rho > 1.0 {
        (1.0 - 1.0 / rho) * (prompts / load) * 1000.0 / 2.0
    } else {
        0.0
    };
    let ttft = config.ttft0 * (1.0 + 0.45 * q) + overload_ms;
    let tpot = config.tpot0 * (1.0 + 0.8 * rho.min(1.25));
    let failures = if rho > 1.05 {
        (0.5 * (rho - 1.05)).min(0.55)
    } else {
        0.0
    };
    let rps = load.min(config.capacity) * (1.0 - failures) * rng.range(0.97, 0.995);
    Regime {
        ttft_ms: ttft,
        tpot_ms: tpot,
        busy: rho.min(1.2),
        failure_share: failures,
        req_per_s: rps,
        prompts,
    }
}

/// A concurrency sweep's point at `load` concurrent requests of `output_mean` tokens.
fn at_concurrency(rng: &mut Rng, config: &Config, load: f64, output_mean: f64) -> Regime {
    // Throughput saturates as X(c) = C·c/(c + h), h the concurrency at the knee; by
    // Little's law a request then takes c/X, of which decoding takes its share.
    let single_s = (config.ttft0 + config.tpot0 * (output_mean - 1.0)) / 1000.0;
    let h = config.capacity * single_s;
    let u = load / (load + h);
    let rps_ok = config.capacity * u;
    let tpot = config.tpot0 * (1.0 + 0.9 * u);
    let e2e_s = load / rps_ok;
    let decode_s = tpot * (output_mean - 1.0) / 1000.0;
    let ttft = (config.ttft0 * (1.0 + 0.5 * u)).max((e2e_s - decode_s) * 1000.0);
    let failures = if load > 3.0 * h {
        (0.05 * (load / h - 3.0)).min(0.35)
    } else {
        0.0
    };
    let prompts = ((load * 8.0 / 100.0).ceil() * 100.0).clamp(200.0, 3200.0);
    Regime {
        ttft_ms: ttft,
        tpot_ms: tpot,
        busy: (2.0 * u).min(1.2),
        failure_share: failures,
        req_per_s: rps_ok * (1.0 - failures) * rng.range(0.97, 0.995),
        prompts,
    }
}

fn simulate(
    rng: &mut Rng,
    sweep: Sweep,
    dataset: (&str, f64, f64, &str),
    config: &Config,
    load: f64,
    crashed: bool,
) -> Point {
    let (input_mean, output_mean) = (dataset.1 * rng.jitter(0.02), dataset.2 * rng.jitter(0.02));
    let Regime {
        ttft_ms,
        tpot_ms,
        busy,
        failure_share,
        req_per_s,
        prompts,
    } = match sweep {
        Sweep::Rate(_) => at_rate(rng, config, load),
        Sweep::Concurrency(_) => at_concurrency(rng, config, load, output_mean),
    };
    let prompts = prompts as u64;
    let ttft = Dist {
        median: ttft_ms * rng.jitter(0.04),
        sigma: 0.3 + 0.45 * busy,
    };
    let tpot = Dist {
        median: tpot_ms * rng.jitter(0.02),
        sigma: 0.1 + 0.1 * busy,
    };
    let itl = Dist {
        median: tpot.median * 0.97,
        sigma: 0.35 + 0.25 * busy,
    };
    let e2e = Dist {
        median: ttft.median + tpot.median * (output_mean - 1.0),
        sigma: 0.25 + 0.2 * busy,
    };
    // A crashed server completes nothing: every prompt failed, with no rate and no concurrency.
    let (completed, failed, duration_s, req_per_s, concurrency) = if crashed {
        (0, prompts, rng.range(2.0, 8.0), 0.0, 0.0)
    } else {
        let failed = (prompts as f64 * failure_share).round() as u64;
        let completed = prompts - failed;
        let duration_s = completed as f64 / req_per_s.max(1e-6);
        let concurrency = req_per_s * e2e.mean() / 1000.0;
        (completed, failed, duration_s, req_per_s, concurrency)
    };
    Point {
        load,
        prompts,
        completed,
        failed,
        duration_s,
        req_per_s,
        concurrency,
        input_mean,
        output_mean,
        ttft,
        tpot,
        itl,
        e2e,
    }
}
