//! `cargo xtask scale`: a synthetic project of many reports and runs (200 reports of 100 runs by
//! default, 20,000 runs), written deterministically to its own folder (`target/scale/` by
//! default, never the repository's `reports/` or `results/`), to measure how the build and the
//! pages scale ([`measure`], `--measure`).
//!
//! Each report compares two to five made-up serving configurations over one load sweep (request
//! rate or concurrency) in one of four result formats, mixed across reports: `vllm bench serve`
//! JSON Lines, SGLang `bench_serving` JSON Lines, a GuideLLM 0.7 `benchmarks.json` per
//! configuration, or one benchdeck tidy CSV ([`formats`]). Latencies follow a queueing knee: flat
//! at light load, rising steeply as the load nears the configuration's capacity, and past it
//! requests time out; a few sweeps end in a point where every request failed. Every report says
//! it is synthetic (its title and a note in its body) and so does every result file (a
//! `synthetic` field, a label, or a comment line).
//!
//! Every report is drawn from its own generator seeded by its number, so the first reports of a
//! small set are the same as those of a large one: a page can be compared between a 3-report
//! and a 200-report site.

mod formats;
pub mod measure;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::rng::Rng;
use crate::run::step;

/// Reports in the default set.
pub const DEFAULT_REPORTS: usize = 200;
/// Runs per report in the default set.
pub const DEFAULT_RUNS_PER_REPORT: usize = 100;

/// The file that marks a folder as this generator's: only such a folder is ever cleared.
const MARKER: &str = "README.md";
const MARKER_TEXT: &str = "# Synthetic benchdeck project\n\nWritten by `cargo xtask scale`: every \
report and result file below is synthetic, generated deterministically to measure how benchdeck \
scales. It measures nothing real. This folder is rewritten by the next `cargo xtask scale`.\n";

/// `cargo xtask scale [--reports N] [--runs-per-report M] [--out DIR] [--measure [--write]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Args {
    /// Reports to generate (the largest site with `--measure`).
    pub reports: usize,
    /// Runs in each report.
    pub runs_per_report: usize,
    /// The folder to write, relative to the workspace root unless absolute.
    pub out: Option<PathBuf>,
    /// Build sites of several sizes and measure them.
    pub measure: bool,
    /// With `--measure`: also put the section into `docs/PERFORMANCE.md`.
    pub write: bool,
}

impl Args {
    /// Parses the command's arguments.
    pub fn parse(args: &[String]) -> Result<Args> {
        let mut parsed = Args {
            reports: DEFAULT_REPORTS,
            runs_per_report: DEFAULT_RUNS_PER_REPORT,
            out: None,
            measure: false,
            write: false,
        };
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            let (name, inline) = match arg.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (arg.as_str(), None),
            };
            let mut value = |what: &str| -> Result<String> {
                inline
                    .clone()
                    .or_else(|| iter.next().cloned())
                    .with_context(|| format!("`{name}` needs {what}"))
            };
            match name {
                "--reports" => parsed.reports = count(name, &value("a number of reports")?)?,
                "--runs-per-report" => {
                    parsed.runs_per_report = count(name, &value("a number of runs")?)?;
                }
                "--out" => parsed.out = Some(PathBuf::from(value("a folder")?)),
                "--measure" if inline.is_none() => parsed.measure = true,
                "--write" if inline.is_none() => parsed.write = true,
                _ => bail!("unexpected argument `{arg}`; see `cargo xtask help`"),
            }
        }
        if parsed.write && !parsed.measure {
            bail!("`--write` goes with `--measure`: it writes what was measured");
        }
        if parsed.runs_per_report < 2 {
            bail!(
                "`--runs-per-report` must be at least 2: each report compares two configurations"
            );
        }
        Ok(parsed)
    }
}

fn count(name: &str, text: &str) -> Result<usize> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => bail!("`{name} {text}`: expected a whole number of at least 1"),
    }
}

/// Runs `cargo xtask scale` without `--measure`: writes the set and says how big it is.
pub fn generate_into(root: &Path, args: &Args) -> Result<()> {
    let out = out_dir(root, args.out.as_deref());
    let set = generate(args.reports, args.runs_per_report);
    write(root, &out, &set)?;
    step(&format!(
        "wrote {} synthetic reports and {} result files ({} runs, {} bytes) to {}",
        set.reports.len(),
        set.results.len(),
        set.runs,
        set.result_bytes(),
        out.display()
    ));
    step(&format!(
        "build it with `cargo xtask scale --measure`, or by hand: BENCHDECK_REPORTS={} \
         BENCHDECK_RESULTS={} trunk build --release",
        out.join("reports").display(),
        out.join("results").display()
    ));
    Ok(())
}

/// The output folder: `--out` (relative to the workspace root), or `target/scale`.
pub fn out_dir(root: &Path, out: Option<&Path>) -> PathBuf {
    match out {
        Some(p) if p.is_absolute() => p.to_path_buf(),
        Some(p) => root.join(p),
        None => root.join("target").join("scale"),
    }
}

/// A generated file: its path (relative to `reports/` or `results/`) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// Relative path with `/` separators.
    pub path: String,
    /// The file's content.
    pub text: String,
}

/// A generated project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Set {
    /// Markdown reports, relative to `reports/`.
    pub reports: Vec<GeneratedFile>,
    /// Result files, relative to `results/`.
    pub results: Vec<GeneratedFile>,
    /// Runs in all the result files.
    pub runs: usize,
    /// The slug of every report, in the order generated.
    pub slugs: Vec<String>,
}

impl Set {
    /// Bytes of all the result files.
    pub fn result_bytes(&self) -> usize {
        self.results.iter().map(|f| f.text.len()).sum()
    }
}

/// Generates `reports` reports of `runs_per_report` runs each (at least two per report).
pub fn generate(reports: usize, runs_per_report: usize) -> Set {
    let mut set = Set {
        reports: Vec::new(),
        results: Vec::new(),
        runs: 0,
        slugs: Vec::new(),
    };
    for index in 1..=reports {
        let plan = Plan::new(index, runs_per_report.max(2));
        set.runs += plan.configs.iter().map(|c| c.points.len()).sum::<usize>();
        set.results.extend(formats::files(&plan));
        set.reports.push(GeneratedFile {
            path: format!("{}.md", plan.slug),
            text: report_markdown(&plan),
        });
        set.slugs.push(plan.slug);
    }
    set
}

/// Writes `set` to `out/reports` and `out/results`, replacing what an earlier run wrote there.
/// Refuses a folder that holds anything but this generator's output, and the repository's own
/// `reports/` and `results/`.
pub fn write(root: &Path, out: &Path, set: &Set) -> Result<()> {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same(out, root)
        || out.starts_with(root.join("reports"))
        || out.starts_with(root.join("results"))
    {
        bail!(
            "`{}` is the repository's own project; the synthetic set goes to a folder of its \
             own, such as target/scale",
            out.display()
        );
    }
    if out.exists() {
        let marker = out.join(MARKER);
        let ours = std::fs::read_to_string(&marker).is_ok_and(|t| t == MARKER_TEXT);
        let empty = std::fs::read_dir(out)
            .with_context(|| format!("cannot list `{}`", out.display()))?
            .next()
            .is_none();
        if !ours && !empty {
            bail!(
                "`{}` exists and was not written by `cargo xtask scale` (no {MARKER} of ours); \
                 choose another `--out`",
                out.display()
            );
        }
        for sub in ["reports", "results"] {
            let dir = out.join(sub);
            if dir.exists() {
                std::fs::remove_dir_all(&dir)
                    .with_context(|| format!("cannot clear `{}`", dir.display()))?;
            }
        }
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create `{}`", out.display()))?;
    std::fs::write(out.join(MARKER), MARKER_TEXT)
        .with_context(|| format!("cannot write `{}`", out.join(MARKER).display()))?;
    for (sub, files) in [("reports", &set.reports), ("results", &set.results)] {
        for file in files {
            let path = out.join(sub).join(&file.path);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create `{}`", dir.display()))?;
            }
            std::fs::write(&path, &file.text)
                .with_context(|| format!("cannot write `{}`", path.display()))?;
        }
    }
    Ok(())
}

/// The result format of a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    VllmJsonl,
    SglangJsonl,
    GuidellmJson,
    TidyCsv,
}

impl Format {
    fn tool(self) -> &'static str {
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
enum Sweep {
    /// Requests per second, in steps of the given size.
    Rate(f64),
    /// Requests in flight, in steps of the given size.
    Concurrency(u32),
}

impl Sweep {
    fn load(self, i: usize) -> f64 {
        match self {
            Sweep::Rate(step) => step * (i + 1) as f64,
            Sweep::Concurrency(step) => f64::from(step) * (i + 1) as f64,
        }
    }

    fn is_rate(self) -> bool {
        matches!(self, Sweep::Rate(_))
    }

    /// `4 req/s` or `concurrency 16`, as a reader would say it.
    fn say(self, load: f64) -> String {
        match self {
            Sweep::Rate(_) => format!("{} req/s", number(load)),
            Sweep::Concurrency(_) => format!("concurrency {}", number(load)),
        }
    }
}

/// A number as the files and reports write it: no trailing zeros.
fn number(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A serving engine of the generated configurations.
struct Engine {
    key: &'static str,
    name: &'static str,
    /// Relative prefill and decode speed (1 = the reference).
    prefill: f64,
    decode: f64,
}

const ENGINES: [Engine; 6] = [
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
const HARDWARE: [(&str, &str, f64); 5] = [
    ("h100", "H100", 1.0),
    ("a100", "A100", 1.6),
    ("l40s", "L40S", 2.1),
    ("mi300x", "MI300X", 1.05),
    ("a10g", "A10G", 3.4),
];

/// Variants: key, name, effect on prefill and decode time, on capacity.
const VARIANTS: [(&str, &str, f64, f64, f64); 6] = [
    ("tp1", "TP 1", 1.0, 1.0, 1.0),
    ("tp2", "TP 2", 0.65, 0.7, 1.7),
    ("fp8", "FP8", 0.85, 0.75, 1.35),
    ("prefix-cache", "prefix cache", 0.55, 1.0, 1.2),
    ("spec-decode", "speculative decoding", 1.05, 0.6, 0.9),
    ("chunked-prefill", "chunked prefill", 1.1, 0.9, 1.15),
];

/// Models: name, prefill ms at light load, decode ms per token, requests/s one H100 sustains.
const MODELS: [(&str, f64, f64, f64); 4] = [
    ("synthetic/chat-8b", 45.0, 9.0, 18.0),
    ("synthetic/code-7b", 40.0, 8.5, 20.0),
    ("synthetic/moe-16b", 70.0, 12.0, 11.0),
    ("synthetic/chat-70b", 160.0, 28.0, 4.0),
];

/// Datasets: name, mean input and output tokens, what they stand for.
const DATASETS: [(&str, f64, f64, &str); 4] = [
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
struct Config {
    key: String,
    label: String,
    engine: &'static Engine,
    hardware: &'static str,
    /// Prefill time at light load (ms) and decode time per token (ms).
    ttft0: f64,
    tpot0: f64,
    /// Requests per second it sustains.
    capacity: f64,
    /// The runs of its sweep.
    points: Vec<Point>,
}

/// One run: a load point's outcome, latencies in ms.
#[derive(Debug, Clone)]
struct Point {
    load: f64,
    prompts: u64,
    completed: u64,
    failed: u64,
    duration_s: f64,
    req_per_s: f64,
    concurrency: f64,
    input_mean: f64,
    output_mean: f64,
    ttft: Dist,
    tpot: Dist,
    itl: Dist,
    e2e: Dist,
}

impl Point {
    fn output_tok_s(&self) -> f64 {
        self.req_per_s * self.output_mean
    }

    fn input_tok_s(&self) -> f64 {
        self.req_per_s * self.input_mean
    }

    fn total_input(&self) -> u64 {
        (self.completed as f64 * self.input_mean).round() as u64
    }

    fn total_output(&self) -> u64 {
        (self.completed as f64 * self.output_mean).round() as u64
    }
}

/// A log-normal latency distribution: its median and shape.
#[derive(Debug, Clone, Copy)]
struct Dist {
    median: f64,
    sigma: f64,
}

impl Dist {
    fn mean(self) -> f64 {
        self.median * (self.sigma * self.sigma / 2.0).exp()
    }

    fn std(self) -> f64 {
        self.mean() * ((self.sigma * self.sigma).exp() - 1.0).sqrt()
    }

    /// The value at percentile `p` (0–100).
    fn p(self, p: f64) -> f64 {
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

/// Everything about one report, drawn from its own generator.
struct Plan {
    index: usize,
    slug: String,
    title: String,
    /// Days since 1970-01-01, or none (a few reports are undated).
    date: Option<i64>,
    format: Format,
    sweep: Sweep,
    model: &'static str,
    dataset: (&'static str, f64, f64, &'static str),
    configs: Vec<Config>,
}

impl Plan {
    fn new(index: usize, runs: usize) -> Plan {
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
        let sweep = if rng.uniform() < 0.6 {
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
        };
        let model = *rng.pick(&MODELS);
        let dataset = *rng.pick(&DATASETS);
        let top = sweep.load(longest - 1);
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
        // Dates over three years from 2023-01-01; one in twenty-five has none, one in twenty
        // shares its predecessor's (ties are ordered by title).
        let date = if index % 25 == 13 {
            None
        } else if index % 20 == 7 {
            Some(19_358 + Rng::for_report(index - 1).below(1096) as i64)
        } else {
            Some(19_358 + Rng::for_report(index).below(1096) as i64)
        };
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
        for c in &configs {
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
            model.0.trim_start_matches("synthetic/")
        );
        Plan {
            index,
            slug,
            title,
            date,
            format,
            sweep,
            model: model.0,
            dataset,
            configs,
        }
    }

    /// The loads every configuration reached, in order.
    fn common_loads(&self) -> Vec<f64> {
        let n = self
            .configs
            .iter()
            .map(|c| c.points.len())
            .min()
            .unwrap_or(0);
        (0..n).map(|i| self.sweep.load(i)).collect()
    }
}

/// Simulates one run of `config` at `load`.
fn simulate(
    rng: &mut Rng,
    sweep: Sweep,
    dataset: (&str, f64, f64, &str),
    config: &Config,
    load: f64,
    crashed: bool,
) -> Point {
    let (input_mean, output_mean) = (dataset.1 * rng.jitter(0.02), dataset.2 * rng.jitter(0.02));
    let (ttft_ms, tpot_ms, busy, failure_share, req_per_s, prompts) = match sweep {
        Sweep::Rate(_) => {
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
            (ttft, tpot, rho.min(1.2), failures, rps, prompts)
        }
        Sweep::Concurrency(_) => {
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
            (
                ttft,
                tpot,
                (2.0 * u).min(1.2),
                failures,
                rps_ok * (1.0 - failures) * rng.range(0.97, 0.995),
                prompts,
            )
        }
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
    if crashed {
        return Point {
            load,
            prompts,
            completed: 0,
            failed: prompts,
            duration_s: rng.range(2.0, 8.0),
            req_per_s: 0.0,
            concurrency: 0.0,
            input_mean,
            output_mean,
            ttft,
            tpot,
            itl,
            e2e,
        };
    }
    let failed = (prompts as f64 * failure_share).round() as u64;
    let completed = prompts - failed;
    let duration_s = completed as f64 / req_per_s.max(1e-6);
    Point {
        load,
        prompts,
        completed,
        failed,
        duration_s,
        req_per_s,
        concurrency: req_per_s * e2e.mean() / 1000.0,
        input_mean,
        output_mean,
        ttft,
        tpot,
        itl,
        e2e,
    }
}

/// `YYYY-MM-DD` of a day count since 1970-01-01 (proleptic Gregorian).
fn ymd(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn date_text(days: i64) -> String {
    let (y, m, d) = ymd(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The report: front matter, a note that it is synthetic, charts of several kinds, a summary
/// table and inline values, in the patterns of the seed reports.
fn report_markdown(plan: &Plan) -> String {
    let mut rng = Rng::for_report(plan.index ^ 0x00ff_0000);
    let loads = plan.common_loads();
    let (low, mid) = (loads[0], loads[loads.len() / 2]);
    let sweep = plan.sweep;
    let (a, b) = (&plan.configs[0], &plan.configs[1]);
    let keys: Vec<&str> = plan.configs.iter().map(|c| c.key.as_str()).collect();
    let axis = if sweep.is_rate() {
        "request rate"
    } else {
        "concurrency"
    };
    let runs: usize = plan.configs.iter().map(|c| c.points.len()).sum();
    let mut md = String::new();
    let _ = writeln!(md, "---");
    let _ = writeln!(md, "title: \"{}\"", plan.title);
    if let Some(days) = plan.date {
        let _ = writeln!(md, "date: {}", date_text(days));
    }
    let _ = writeln!(md, "authors: [benchdeck scale generator]");
    let _ = writeln!(md, "summary: >-");
    let _ = writeln!(
        md,
        "  Synthetic data for benchdeck's scale test: {} made-up configurations of {} on {}, \
         swept over {} from {} to {}; it measures nothing real.",
        plan.configs.len(),
        plan.model,
        plan.dataset.3,
        axis,
        sweep.say(loads[0]),
        sweep.say(
            sweep.load(
                plan.configs
                    .iter()
                    .map(|c| c.points.len())
                    .max()
                    .unwrap_or(1)
                    - 1
            )
        ),
    );
    let glob = if plan.format == Format::GuidellmJson {
        "**/*.json"
    } else {
        "*"
    };
    let _ = writeln!(md, "results: [\"{}/{glob}\"]", plan.slug);
    let _ = writeln!(md, "configs:");
    for (i, c) in plan.configs.iter().enumerate() {
        let _ = writeln!(md, "  - key: {}\n    label: \"{}\"", c.key, c.label);
        if plan.index.is_multiple_of(3) {
            let _ = writeln!(md, "    color: {i}");
        }
    }
    let _ = writeln!(md, "---\n");
    let _ = writeln!(
        md,
        "> [!NOTE]\n> This report is **synthetic**: `cargo xtask scale` generated it and its {runs} \
         runs to test benchdeck with hundreds of reports. The configurations, their names and \
         every number are made up; it measures nothing real.\n"
    );
    let _ = writeln!(md, "## Setup\n");
    let _ = writeln!(
        md,
        "Each configuration served `{}` on {}. The load was swept by {} ({}), from {} upwards; \
         the results were written by {}.\n",
        plan.model,
        plan.dataset.3,
        axis,
        if sweep.is_rate() {
            "Poisson arrivals at a fixed rate"
        } else {
            "a fixed number of requests in flight"
        },
        sweep.say(loads[0]),
        plan.format.tool()
    );
    let _ = writeln!(md, "| key | configuration | runs |\n|---|---|---|");
    for c in &plan.configs {
        let _ = writeln!(md, "| `{}` | {} | {} |", c.key, c.label, c.points.len());
    }
    let _ = writeln!(md);
    let _ = writeln!(md, "## At a glance\n");
    let _ = writeln!(
        md,
        "```chart\nid: at-a-glance\nkind: grid\ncolumns: 2\ntitle: Every configuration across the {axis}\n\
         caption: Median TTFT and TPOT, output throughput and the share of requests that completed.\n\
         panels:\n  - {{kind: lines, metric: ttft, stat: median, y_scale: log, title: Median TTFT}}\n  \
         - {{kind: lines, metric: tpot, stat: median, title: Median TPOT}}\n  \
         - {{kind: lines, metric: output_throughput, title: Output throughput}}\n  \
         - {{kind: lines, metric: success_rate, title: Requests completed}}\n```\n"
    );
    let _ = writeln!(md, "## Time to first token\n");
    let _ = writeln!(
        md,
        "```chart\nid: ttft-tail\nkind: lines\nmetric: ttft\nstat: median\nband: [p50, p99]\ny_scale: log\n\
         title: TTFT from median to p99 as the {axis} grows\n\
         caption: Median TTFT (line) and the p50 to p99 band, on a log scale.\n```\n"
    );
    let _ = writeln!(
        md,
        "At {} the median TTFT of {} is `=value(ttft:p50, {}, {})` against `=value(ttft:p50, {}, {})` \
         for {}. At {} the p99 is `=value(ttft:p99, {}, {})`, `=ratio(value(ttft:p99, {}, {}), value(ttft:p50, {}, {}))` \
         its median: the queue has started to form. Without failed requests, {} holds up to `=stable({})`.\n",
        sweep.say(low),
        a.label,
        a.key,
        number(low),
        b.key,
        number(low),
        b.label,
        sweep.say(mid),
        a.key,
        number(mid),
        a.key,
        number(mid),
        a.key,
        number(mid),
        a.label,
        a.key,
    );
    let _ = writeln!(
        md,
        "```chart\nid: ttft-percentiles\nkind: percentiles\nmetric: ttft\nload: {}\n\
         title: TTFT percentiles at {}\n```\n",
        number(mid),
        sweep.say(mid)
    );
    if rng.uniform() < 0.5 && loads.len() <= 30 {
        let _ = writeln!(
            md,
            "```chart\nid: e2e-p99\nkind: bars\nmetric: e2e\nstat: p99\ntitle: p99 end-to-end latency at each {axis}\n```\n"
        );
    }
    let _ = writeln!(md, "## Throughput against latency\n");
    let _ = writeln!(
        md,
        "```chart\nid: throughput-vs-ttft\nkind: scatter\nx: output_throughput\ny: ttft:p99\ny_scale: log\n\
         title: Output throughput against p99 TTFT\n\
         caption: Each point is one run; the frontier joins the runs no other run beats on both.\n```\n"
    );
    let _ = writeln!(
        md,
        "{} peaks at `=max(output_throughput, {})` and {} at `=max(output_throughput, {})`.\n",
        a.label, a.key, b.label, b.key
    );
    let _ = writeln!(md, "## Head to head\n");
    let _ = writeln!(
        md,
        "```chart\nid: head-to-head\nkind: hbars\nmetrics: [ttft:p50, tpot:p50, e2e:p99, output_throughput]\n\
         load: {}\ntitle: Every configuration at {}\n\
         caption: ✓ marks the best configuration on each metric.\n```\n",
        number(mid),
        sweep.say(mid)
    );
    if plan.configs.len() == 2 {
        let _ = writeln!(
            md,
            "```table\nkind: head-to-head\nmetric: ttft:p50\nconfigs: [{}, {}]\ntitle: \"Median TTFT, head to head\"\n```\n",
            a.key, b.key
        );
    }
    let _ = writeln!(md, "## Summary\n");
    let _ = writeln!(
        md,
        "```table\nkind: summary\nconfigs: [{}]\nmetrics: [output_throughput:max, ttft:p50, tpot:p50, success_rate]\n\
         title: Each configuration at its best\n```\n",
        keys.join(", ")
    );
    let _ = writeln!(
        md,
        "> [!TIP]\n> Synthetic or not, read the knee: where the p99 leaves the median behind, the \
         engine is queueing, and the load just before it is the one to plan for."
    );
    md
}

#[cfg(test)]
mod tests {
    use super::*;
    use benchdeck_core::build::build_site;
    use benchdeck_core::input::InputFile;

    fn inputs(files: &[GeneratedFile]) -> Vec<InputFile> {
        files
            .iter()
            .map(|f| InputFile {
                path: f.path.clone(),
                bytes: f.text.as_bytes().to_vec(),
            })
            .collect()
    }

    #[test]
    fn the_generator_is_deterministic_and_a_small_set_is_a_prefix_of_a_large_one() {
        let (a, b) = (generate(3, 40), generate(3, 40));
        assert_eq!(a, b);
        let larger = generate(5, 40);
        assert_eq!(a.reports[..], larger.reports[..3]);
        assert_eq!(a.runs, 3 * 40);
        assert_eq!(larger.runs, 5 * 40);
    }

    #[test]
    fn every_file_says_it_is_synthetic() {
        let set = generate(8, 20);
        for f in set.reports.iter().chain(&set.results) {
            assert!(f.text.to_lowercase().contains("synthetic"), "{}", f.path);
        }
        for f in &set.reports {
            assert!(f.text.contains("title: \"Synthetic"), "{}", f.path);
        }
    }

    #[test]
    fn a_small_set_imports_and_builds_without_errors() {
        let set = generate(2, 100);
        let site = build_site(&inputs(&set.reports), &inputs(&set.results));
        let errors: Vec<String> = site.errors().map(|p| p.to_string()).collect();
        assert!(errors.is_empty(), "{errors:#?}");
        let problems: Vec<String> = site
            .imports
            .iter()
            .flat_map(|f| {
                f.problems
                    .iter()
                    .chain(f.runs.iter().flat_map(|r| &r.problems))
            })
            .filter(|p| p.severity == benchdeck_core::problem::Severity::Error)
            .map(|p| p.to_string())
            .collect();
        assert!(problems.is_empty(), "{problems:#?}");
        let runs: usize = site.imports.iter().map(|f| f.runs.len()).sum();
        assert_eq!(runs, 200);
        assert_eq!(site.pages.len(), 2);
        for page in &site.pages {
            assert_eq!(page.summary.runs, 100, "{}", page.summary.slug);
            assert!(page.summary.charts >= 5, "{}", page.summary.slug);
        }
    }

    #[test]
    fn every_format_imports_without_errors() {
        // Enough reports to hold each of the four formats and both sweeps.
        let n = 20;
        let set = generate(n, 24);
        let plans: Vec<Plan> = (1..=n).map(|i| Plan::new(i, 24)).collect();
        let formats: std::collections::BTreeSet<usize> =
            plans.iter().map(|p| p.format as usize).collect();
        assert_eq!(
            formats.len(),
            4,
            "the first reports should use every format"
        );
        assert!(plans.iter().any(|p| p.sweep.is_rate()));
        assert!(plans.iter().any(|p| !p.sweep.is_rate()));
        let site = build_site(&inputs(&set.reports), &inputs(&set.results));
        let errors: Vec<String> = site.errors().map(|p| p.to_string()).collect();
        assert!(errors.is_empty(), "{errors:#?}");
        assert_eq!(
            site.imports.iter().map(|f| f.runs.len()).sum::<usize>(),
            n * 24
        );
    }

    #[test]
    fn dates_are_calendar_dates() {
        assert_eq!(date_text(0), "1970-01-01");
        assert_eq!(date_text(19_358), "2023-01-01");
        assert_eq!(date_text(19_358 + 365 + 31 + 28), "2024-02-29");
    }

    #[test]
    fn arguments() {
        let args = |s: &[&str]| Args::parse(&s.iter().map(|a| a.to_string()).collect::<Vec<_>>());
        let parsed = args(&["--reports", "5", "--runs-per-report=10", "--out", "x"]).unwrap();
        assert_eq!((parsed.reports, parsed.runs_per_report), (5, 10));
        assert_eq!(parsed.out.as_deref(), Some(Path::new("x")));
        assert!(args(&["--measure", "--write"]).unwrap().write);
        assert!(args(&["--write"]).is_err());
        assert!(args(&["--reports", "0"]).is_err());
        assert!(args(&["--reports"]).is_err());
        assert!(args(&["--nope"]).is_err());
    }

    #[test]
    fn the_repository_folders_are_refused() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let set = generate(1, 2);
        assert!(write(root, root, &set).is_err());
        assert!(write(root, &root.join("results"), &set).is_err());
        assert!(write(root, &root.join("reports").join("x"), &set).is_err());
    }
}
