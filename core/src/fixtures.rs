//! The test fixtures in `tests/fixtures/`: the one place that finds, reads and imports them.
//! A fixture that is missing fails the test with its path. Also what the importers' tests ask
//! of what a fixture gave (its one run, its errors, a value but for rounding), and the simulated
//! runs of known truth that the statistics are tested against ([`simulated`]).

use std::path::PathBuf;

use crate::import::{import, import_all, ImportedFile};
use crate::input::InputFile;
use crate::model::{Metric, Run, Stat};
use crate::problem::Severity;

/// The fixture at `relative` (to `tests/fixtures/`).
pub fn path(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(relative)
}

/// The bytes of the fixture at `relative`.
pub fn bytes(relative: &str) -> Vec<u8> {
    let path = path(relative);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The bytes of the repository's own result file at `relative` (to `results/`, the seed
/// reports' data), for tests that check a verdict the site shows.
pub fn repository_result(relative: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../results")
        .join(relative);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text of the fixture at `relative`.
pub fn text(relative: &str) -> String {
    String::from_utf8(bytes(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The fixture at `relative`, imported under that name.
pub fn import_file(relative: &str) -> ImportedFile {
    import(relative, &bytes(relative))
}

/// The fixture at `relative`, imported under `name` (what its problems and runs then say).
pub fn import_named(relative: &str, name: &str) -> ImportedFile {
    import(name, &bytes(relative))
}

/// The fixtures `names` of the folder `fixtures` (relative to `tests/fixtures/`), imported
/// together as the files of the folder `folder`, as [`import_all`] imports them (siblings
/// joined).
pub fn import_folder(fixtures: &str, names: &[&str], folder: &str) -> Vec<ImportedFile> {
    let files: Vec<InputFile> = names
        .iter()
        .map(|n| InputFile {
            path: format!("{folder}/{n}"),
            bytes: bytes(&format!("{fixtures}/{n}")),
        })
        .collect();
    import_all(&files)
}

/// The one run of `f`; the test fails with `f`'s problems when it has none or several.
pub fn one_run(f: &ImportedFile) -> &Run {
    let [run] = f.runs.as_slice() else {
        panic!("one run: {}", messages(f))
    };
    run
}

/// How many requests of `run` were sent, succeeded and failed, to compare at once.
pub fn counts(run: &Run) -> (Option<u64>, Option<u64>, Option<u64>) {
    (
        run.requests.total,
        run.requests.succeeded,
        run.requests.failed,
    )
}

/// `actual` is `expected` but for rounding (they differ by at most a billionth of `expected`,
/// or of 1 below 1); else the test fails with both.
pub fn close(actual: Option<f64>, expected: f64) {
    let a = actual.unwrap_or(f64::NAN);
    assert!(near(a, expected), "{a} != {expected}");
}

/// Each `(metric, statistic, value)` of `expected` is `run`'s but for rounding, as [`close`]
/// has it; else the test fails naming the statistic.
pub fn close_stats(run: &Run, expected: &[(Metric, Stat, f64)]) {
    for &(metric, stat, value) in expected {
        let a = run.latency_stat(metric, stat).unwrap_or(f64::NAN);
        assert!(near(a, value), "{metric:?} {stat:?}: {a} != {value}");
    }
}

/// True when `a` is `expected` but for rounding: [`close`]'s test.
fn near(a: f64, expected: f64) -> bool {
    (a - expected).abs() <= 1e-9 * expected.abs().max(1.0)
}

/// The errors among every problem of `f`, one string each: what a test of a good file expects
/// to be empty (its warnings aside).
pub fn errors(f: &ImportedFile) -> Vec<String> {
    f.all_problems()
        .filter(|p| p.severity == Severity::Error)
        .map(ToString::to_string)
        .collect()
}

/// Every problem of `f` (its own, then its runs'), one a line: what a test expects to be empty,
/// or to hold one message.
pub fn messages(f: &ImportedFile) -> String {
    f.all_problems()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The JSON documents of a fixture's text: one, or one a line for JSON Lines (lines that are
/// not JSON left out).
pub fn json_documents(text: &str) -> Vec<serde_json::Value> {
    if crate::json::looks_like_json_lines(text) {
        crate::json::parse_lines(text)
            .into_iter()
            .filter_map(|l| l.value.ok())
            .collect()
    } else {
        crate::json::parse(text, 0).into_iter().collect()
    }
}

/// Every value in `value` as a JSON pointer (`/a/0/b`), children before their parents, the
/// document itself (`""`) last: the places the robustness tests break one at a time.
pub fn json_pointers(value: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    pointers(value, String::new(), &mut out);
    out
}

fn pointers(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, child) in m {
                pointers(
                    child,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        serde_json::Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                pointers(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// Simulated runs whose truth is known: log-normal latencies from a seeded generator, so every
/// rate a test measures is the same on every machine.
pub mod simulated {
    use crate::chart::synthetic::XorShift;
    use crate::model::{
        ConfigIdentity, Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric,
        Producer, Provenance, RequestCounts, RequestSamples, Run,
    };

    /// The spread of the latencies on the log scale: a coefficient of variation of 0.42, as
    /// TTFTs under moderate load have.
    pub const SIGMA: f64 = 0.4;

    /// A generator for simulation `seed`.
    pub fn rng(seed: u64) -> XorShift {
        XorShift::new(0x9e37_79b9 ^ (seed + 1).wrapping_mul(0x2545_f491_4f6c_dd1d))
    }

    /// A standard normal draw (Box–Muller).
    pub fn normal(rng: &mut XorShift) -> f64 {
        let u1 = rng.unit().max(f64::MIN_POSITIVE);
        let u2 = rng.unit();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }

    /// `n` latencies with median `median` ms.
    pub fn latencies(rng: &mut XorShift, n: usize, median: f64) -> Vec<f64> {
        (0..n)
            .map(|_| median * (SIGMA * normal(rng)).exp())
            .collect()
    }

    /// `n` latencies in send order whose logs follow an AR(1) process with coefficient `phi`
    /// (lag-1 autocorrelation `phi`) around `median` ms, stationary from the first: each
    /// request log-normal with σ = [`SIGMA`], as [`latencies`], but alike its neighbours.
    pub fn ar1_latencies(rng: &mut XorShift, n: usize, median: f64, phi: f64) -> Vec<f64> {
        ar1(rng, n, phi)
            .into_iter()
            .map(|z| median * (SIGMA * z).exp())
            .collect()
    }

    /// `n` latencies in send order, each Pareto with shape `alpha` and scale `scale` ms (median
    /// `scale · 2^(1/alpha)`, mean `scale · alpha / (alpha − 1)`), their dependence that of a
    /// Gaussian AR(1) with coefficient `phi` (a Gaussian copula).
    pub fn ar1_pareto(rng: &mut XorShift, n: usize, scale: f64, alpha: f64, phi: f64) -> Vec<f64> {
        ar1(rng, n, phi)
            .into_iter()
            .map(|z| scale * crate::noise::student::normal_upper_tail(z).powf(-1.0 / alpha))
            .collect()
    }

    /// `n` standard normal values of a stationary AR(1) process with coefficient `phi`.
    fn ar1(rng: &mut XorShift, n: usize, phi: f64) -> Vec<f64> {
        let spread = (1.0 - phi * phi).sqrt();
        let mut z = normal(rng);
        (0..n)
            .map(|_| {
                let now = z;
                z = phi * z + spread * normal(rng);
                now
            })
            .collect()
    }

    /// The times in the system, in ms, of `n` requests in arrival order at one server that
    /// serves one at a time in the order they came (M/M/1: Poisson arrivals, exponential
    /// service of mean `service_ms`) at `load` (0 to 1, arrivals over capacity), started in
    /// its stationary state. Each waits for the ones before it, so neighbours are alike; the
    /// time in the system is exponential with mean `service_ms / (1 − load)`, its `q`
    /// quantile `−ln(1 − q) · service_ms / (1 − load)`.
    pub fn queue(rng: &mut XorShift, n: usize, service_ms: f64, load: f64) -> Vec<f64> {
        let exponential = |rng: &mut XorShift, mean: f64| -> f64 {
            -mean * (1.0 - rng.unit()).max(f64::MIN_POSITIVE).ln()
        };
        let mut wait = if rng.unit() < load {
            exponential(rng, service_ms / (1.0 - load))
        } else {
            0.0
        };
        (0..n)
            .map(|_| {
                let service = exponential(rng, service_ms);
                let gap = exponential(rng, service_ms / load);
                let sojourn = wait + service;
                wait = (sojourn - gap).max(0.0);
                sojourn
            })
            .collect()
    }

    /// A run of configuration `key` at concurrency 8, read from `file`, whose requests all
    /// succeeded with TTFTs `ttft`, and the summary a tool would write beside them (mean,
    /// standard deviation, median, p90, p99, p99.9).
    pub fn run(key: &str, file: &str, ttft: Vec<f64>) -> Run {
        let n = ttft.len();
        let mut samples = RequestSamples {
            sent_in_file_order: true,
            ..RequestSamples::default()
        };
        for &t in &ttft {
            samples.push(true, t, f64::NAN, f64::NAN, f64::NAN, f64::NAN);
        }
        let config = ConfigIdentity {
            label: Some(key.to_string()),
            ..ConfigIdentity::default()
        };
        let mut run = Run::new(
            Provenance::new(file, Location::File, Producer::VllmServe),
            config,
            LoadPoint::new(LoadTarget::Concurrency(8.0)),
        );
        run.requests = RequestCounts::counted(n as u64, n as u64);
        run.latency = vec![LatencyMetric {
            metric: Metric::Ttft,
            distribution: summary_of(&ttft),
        }];
        run.samples = Some(std::sync::Arc::new(samples));
        run
    }

    /// `run` with its summary only (no per-request values).
    pub fn summary_only(mut run: Run) -> Run {
        run.samples = None;
        run
    }

    fn summary_of(values: &[f64]) -> Distribution {
        let sorted = crate::analysis::sorted_finite(values);
        let n = sorted.len() as f64;
        let mean = sorted.iter().sum::<f64>() / n;
        let std = (sorted.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        let mut d = Distribution {
            mean: Some(mean),
            std: Some(std),
            median: crate::analysis::quantile(&sorted, 0.5),
            ..Distribution::default()
        };
        for p in [90.0, 99.0, 99.9] {
            if let Some(v) = crate::analysis::quantile(&sorted, p / 100.0) {
                d.set_percentile(p, v);
            }
        }
        d
    }
}
