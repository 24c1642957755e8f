//! How the workloads of runs that a page compares differ ([`among`]).
//!
//! Two configurations measured with different prompts are not comparable by their numbers
//! alone: a run of 1,024-token prompts has a slower TTFT than one of ShareGPT's, whatever the
//! engine. Every place that sets runs side by side (charts, tables, inline values, the wizard,
//! the build's warnings, `inspect`, `compare`) asks [`among`] and names what differs.

use serde::Serialize;

use super::load::{LoadAxis, LoadTarget};
use super::run::Run;
use crate::format;

/// One thing about a run that can differ between runs a page compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Aspect {
    /// The prompts' source.
    Dataset,
    /// Input tokens per request: the target, else the measured mean.
    InputLength,
    /// Output tokens per request: the target, else the measured mean.
    OutputLength,
    /// Open loop (a request rate) or closed loop (a concurrency).
    LoadKind,
    /// The arrivals' burstiness.
    Burstiness,
    /// How many requests the run sent.
    Prompts,
    /// The tokenizer.
    Tokenizer,
}

impl Aspect {
    /// Every aspect, in the order notes name them.
    pub const ALL: [Aspect; 7] = [
        Aspect::Dataset,
        Aspect::InputLength,
        Aspect::OutputLength,
        Aspect::LoadKind,
        Aspect::Burstiness,
        Aspect::Prompts,
        Aspect::Tokenizer,
    ];

    /// The name a note gives it.
    pub fn name(self) -> &'static str {
        match self {
            Aspect::Dataset => "dataset",
            Aspect::InputLength => "input length",
            Aspect::OutputLength => "output length",
            Aspect::LoadKind => "load kind",
            Aspect::Burstiness => "burstiness",
            Aspect::Prompts => "prompts",
            Aspect::Tokenizer => "tokenizer",
        }
    }

    /// `run`'s value of this aspect, as a note writes it; `None` when its file does not say.
    pub fn of(self, run: &Run) -> Option<String> {
        match self {
            Aspect::Dataset => run.config.dataset.clone(),
            Aspect::InputLength => length(run.workload.input_len, measured_input(run)),
            Aspect::OutputLength => length(run.workload.output_len, measured_output(run)),
            Aspect::LoadKind => match run.load.target.axis() {
                LoadAxis::Concurrency => Some("concurrency".into()),
                LoadAxis::RequestRate => Some("request rate".into()),
                LoadAxis::BatchSize => Some("batch".into()),
                LoadAxis::None => None,
            },
            Aspect::Burstiness => run.workload.burstiness.map(format::number),
            Aspect::Prompts => prompts(run),
            Aspect::Tokenizer => run.workload.tokenizer.clone(),
        }
    }

    /// True when `a` and `b` differ by more than chance: texts unless equal; measured lengths
    /// by more than a tenth (outputs that stop early move a mean a little from run to run).
    pub fn differs(self, a: &Run, b: &Run) -> bool {
        match self {
            Aspect::InputLength => lengths_differ(
                a.workload.input_len,
                b.workload.input_len,
                measured_input(a),
                measured_input(b),
            ),
            Aspect::OutputLength => lengths_differ(
                a.workload.output_len,
                b.workload.output_len,
                measured_output(a),
                measured_output(b),
            ),
            // Sweeps often scale the prompts with the load: only runs at one load count.
            Aspect::Prompts if a.load.target != b.load.target => false,
            _ => match (self.of(a), self.of(b)) {
                (Some(x), Some(y)) => x != y,
                _ => false,
            },
        }
    }
}

/// The requests one run sent. A combined run sent them in each of its runs: `400` when each
/// sent 400, `390 to 410` when they differ; unstated when the runs it stands for are not at
/// hand (a page's data keeps only their sources).
fn prompts(run: &Run) -> Option<String> {
    let Some(repeats) = &run.repeats else {
        return run.requests.total.map(|n| format::number(n as f64));
    };
    let totals: Vec<u64> = repeats
        .runs
        .iter()
        .map(|r| r.requests.total)
        .collect::<Option<_>>()?;
    let (lo, hi) = (totals.iter().min()?, totals.iter().max()?);
    Some(if lo == hi {
        format::number(*lo as f64)
    } else {
        format!(
            "{} to {}",
            format::number(*lo as f64),
            format::number(*hi as f64)
        )
    })
}

/// A target length, else a measured mean written `~N`.
fn length(target: Option<u64>, measured: Option<f64>) -> Option<String> {
    match (target, measured) {
        (Some(t), _) => Some(format::number(t as f64)),
        (None, Some(m)) => Some(format!("~{}", format::number(m.round()))),
        (None, None) => None,
    }
}

fn lengths_differ(
    target_a: Option<u64>,
    target_b: Option<u64>,
    measured_a: Option<f64>,
    measured_b: Option<f64>,
) -> bool {
    if let (Some(a), Some(b)) = (target_a, target_b) {
        return a != b;
    }
    match (measured_a, measured_b) {
        (Some(a), Some(b)) if a > 0.0 && b > 0.0 => (a - b).abs() / a.max(b) > 0.1,
        _ => false,
    }
}

/// Mean input tokens per request: the length distribution's mean, else total ÷ requests.
fn measured_input(run: &Run) -> Option<f64> {
    mean_length(
        run.tokens.input_len.as_ref().and_then(|d| d.mean),
        run.tokens.total_input,
        run,
    )
}

/// Mean output tokens per request, as [`measured_input`].
fn measured_output(run: &Run) -> Option<f64> {
    mean_length(
        run.tokens.output_len.as_ref().and_then(|d| d.mean),
        run.tokens.total_output,
        run,
    )
}

fn mean_length(mean: Option<f64>, total: Option<u64>, run: &Run) -> Option<f64> {
    mean.or_else(|| {
        let n = run.requests.succeeded.filter(|&n| n > 0)?;
        Some(total? as f64 / n as f64)
    })
    .filter(|m| m.is_finite() && *m > 0.0)
}

/// How one aspect differs among the runs a page compares: each configuration's value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    /// What differs.
    pub aspect: Aspect,
    /// Per configuration (its key, as given), the value its runs have, `?` where unstated.
    pub values: Vec<(String, String)>,
}

impl Difference {
    /// `dataset: vllm: sharegpt; sglang: random`. Configurations with one value are named
    /// together (`a, b and 3 more: sharegpt`); those whose files do not say are left out.
    pub fn text(&self) -> String {
        let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
        for (name, value) in self.values.iter().filter(|(_, v)| v != "?") {
            match groups.iter_mut().find(|(v, _)| v == value) {
                Some((_, names)) => names.push(name),
                None => groups.push((value, vec![name])),
            }
        }
        let named = |names: &[&str]| match names {
            [one] => one.to_string(),
            [first, second] => format!("{first}, {second}"),
            [first, second, rest @ ..] => {
                format!("{first}, {second} and {} more", rest.len())
            }
            [] => String::new(),
        };
        let values: Vec<String> = groups
            .iter()
            .map(|(value, names)| format!("{}: {value}", named(names)))
            .collect();
        format!("{}: {}", self.aspect.name(), values.join("; "))
    }
}

/// The aspects in which the runs of different configurations differ, where each pair is
/// compared at one load point. `pairs` are runs set side by side (say, one row of a
/// head-to-head), each with the name its configuration is shown by. The number of prompts
/// counts only among runs at one load: sweeps often scale it with the load.
pub fn among(pairs: &[Vec<(&str, &Run)>]) -> Vec<Difference> {
    let mut found: Vec<Difference> = Vec::new();
    for aspect in Aspect::ALL {
        for side_by_side in pairs {
            let Some((first_name, first)) = side_by_side.first() else {
                continue;
            };
            let differs = side_by_side
                .iter()
                .skip(1)
                .any(|(name, run)| name != first_name && aspect.differs(first, run));
            if !differs || found.iter().any(|d| d.aspect == aspect) {
                continue;
            }
            found.push(Difference {
                aspect,
                values: side_by_side
                    .iter()
                    .map(|(name, run)| {
                        let value = aspect.of(run).unwrap_or_else(|| "?".to_string());
                        (name.to_string(), value)
                    })
                    .fold(Vec::new(), |mut seen, pair| {
                        if !seen.iter().any(|(n, _)| *n == pair.0) {
                            seen.push(pair);
                        }
                        seen
                    }),
            });
        }
    }
    found
}

/// The aspects in which configurations differ where `runs` measured them at one load point:
/// what a report's build warns about and `inspect` lists. Configurations are named by their
/// key.
pub fn between_configurations(runs: &[&Run]) -> Vec<Difference> {
    let mut loads: Vec<LoadTarget> = Vec::new();
    for run in runs {
        if !loads.contains(&run.load.target) {
            loads.push(run.load.target);
        }
    }
    let keys: Vec<String> = runs.iter().map(|r| r.config.key()).collect();
    let side_by_side: Vec<Vec<(&str, &Run)>> = loads
        .iter()
        .map(|load| {
            let mut seen: Vec<(&str, &Run)> = Vec::new();
            for (run, key) in runs.iter().zip(&keys) {
                if run.load.target == *load && !seen.iter().any(|(k, _)| k == key) {
                    seen.push((key.as_str(), *run));
                }
            }
            seen
        })
        .collect();
    among(&side_by_side)
}

/// The note a comparison shows when workloads differ: `Workloads differ: dataset: a: x; b: y.`
pub fn note(differences: &[Difference]) -> Option<String> {
    if differences.is_empty() {
        return None;
    }
    let parts: Vec<String> = differences.iter().map(Difference::text).collect();
    Some(format!("Workloads differ: {}.", parts.join("; ")))
}

/// The few words an inline value adds when workloads differ, `workloads differ: dataset,
/// output length`, for prose and table cells; [`note`] gives the values.
pub fn short_note(differences: &[Difference]) -> Option<String> {
    if differences.is_empty() {
        return None;
    }
    let names: Vec<&str> = differences.iter().map(|d| d.aspect.name()).collect();
    Some(format!("workloads differ: {}", names.join(", ")))
}
