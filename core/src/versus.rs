//! Base against new: `benchdeck compare`'s verdict for a pull request or a night. Two sets of
//! runs (any format) are matched by configuration and load point, and each chosen metric is
//! compared with the site's own rule ([`crate::noise::Finding`]): **better**, **worse** or **no
//! clear difference**, by the 95% interval of the change, or **noise unknown** where a side has
//! no interval. The gate fails on a metric that is worse clearly, by more than a threshold, and
//! beyond the noise of the whole family of metrics judged (Holm's correction, [`family`]); a
//! metric whose noise is unknown never fails it.
//!
//! Matching: each side's runs are combined per load point first (repeats count once, whatever
//! their day), then paired by configuration key and load. A run left beside another at its
//! point (another workload) is named in a warning and not compared. When the two sides share
//! no configuration but each has exactly one (a branch renamed its label), they are paired by
//! load alone, with a warning saying so.

mod charts;
pub mod family;
mod judge;
mod metrics;
mod outcome;

use std::borrow::Cow;

use crate::model::{differences, LoadTarget, Run};
use crate::quantity::Better;

pub use charts::{charts, file_stem};
pub use judge::{id as metric_id, p_value, Verdict, VerdictRow};
pub use metrics::{parse_metrics, DEFAULT_METRICS};
pub use outcome::{Counts, Options, Outcome, PointComparison, PointId, FORMAT};

/// Compares `new` against `base`.
pub fn compare(base: &[&Run], new: &[&Run], options: &Options) -> Outcome {
    let base = combined(base);
    let new = combined(new);
    let base: Vec<&Run> = base.iter().map(AsRef::as_ref).collect();
    let new: Vec<&Run> = new.iter().map(AsRef::as_ref).collect();
    let mut warnings = Vec::new();
    let by_load_only = pairs_by_load_only(&base, &new);
    if let Some((b, n)) = &by_load_only {
        warnings.push(format!(
            "base's only configuration `{b}` is compared with new's only configuration `{n}` \
             (their names differ), load point by load point"
        ));
    }
    let key = |r: &Run| match &by_load_only {
        Some(_) => String::new(),
        None => r.config.key(),
    };
    let base = one_run_per_point("base", base, &key, &mut warnings);
    let new = one_run_per_point("new", new, &key, &mut warnings);
    let mut points = Vec::new();
    let mut only_base = Vec::new();
    for b in &base {
        let Some(n) = new
            .iter()
            .find(|n| key(n) == key(b) && n.load.target == b.load.target)
        else {
            only_base.push(id_of(b));
            continue;
        };
        warnings.extend(point_warnings(b, n));
        points.push(PointComparison {
            id: id_of(b),
            runs: [runs_in(b), runs_in(n)],
            rows: metrics::chosen(&options.metrics, b, n)
                .into_iter()
                .map(|q| judge::row(q, b, n, options.threshold_pct))
                .collect(),
        });
    }
    let only_new = new
        .iter()
        .filter(|n| {
            !base
                .iter()
                .any(|b| key(b) == key(n) && b.load.target == n.load.target)
        })
        .map(|n| id_of(n))
        .collect();
    family::correct(points.iter_mut().flat_map(|p| p.rows.iter_mut()));
    let counts = count(&points);
    Outcome {
        format: FORMAT,
        threshold_pct: options.threshold_pct,
        fails: counts.failing > 0,
        points,
        only_base,
        only_new,
        warnings,
        counts,
    }
}

fn combined<'a>(runs: &[&'a Run]) -> Vec<Cow<'a, Run>> {
    crate::noise::combine_side(runs.iter().map(|r| Cow::Borrowed(*r)).collect())
}

/// `runs` with one run per configuration and load: the first. Runs left at a point after its
/// repeats are combined measured another workload there; each one left out is a warning that
/// names it and what differs, never a silent choice.
fn one_run_per_point<'r>(
    side: &str,
    runs: Vec<&'r Run>,
    key: &dyn Fn(&Run) -> String,
    warnings: &mut Vec<String>,
) -> Vec<&'r Run> {
    let mut kept: Vec<&'r Run> = Vec::new();
    for run in runs {
        let Some(first) = kept
            .iter()
            .find(|k| key(k) == key(run) && k.load.target == run.load.target)
        else {
            kept.push(run);
            continue;
        };
        let (first_name, name) = (first.provenance.to_string(), run.provenance.to_string());
        let pair = [vec![(first_name.as_str(), *first), (name.as_str(), run)]];
        let what: Vec<String> = differences::among(&pair).iter().map(|d| d.text()).collect();
        warnings.push(format!(
            "{side}: `{name}` is not compared: `{first_name}` is the run compared at {} at {}, \
             and the two are not repeats of one measurement ({})",
            run.config.key(),
            load_text(&run.load.target),
            if what.is_empty() {
                "their workloads differ".to_string()
            } else {
                what.join("; ")
            }
        ));
    }
    kept
}

/// The two configurations' keys, when the sides share none and each has exactly one.
fn pairs_by_load_only(base: &[&Run], new: &[&Run]) -> Option<(String, String)> {
    let keys = |runs: &[&Run]| {
        let mut keys: Vec<String> = runs.iter().map(|r| r.config.key()).collect();
        keys.sort();
        keys.dedup();
        keys
    };
    let (b, n) = (keys(base), keys(new));
    match (b.as_slice(), n.as_slice()) {
        ([b], [n]) if b != n => Some((b.clone(), n.clone())),
        _ => None,
    }
}

fn id_of(run: &Run) -> PointId {
    PointId {
        config: run.config.key(),
        load: load_text(&run.load.target),
    }
}

fn load_text(load: &LoadTarget) -> String {
    load.to_string()
}

fn runs_in(run: &Run) -> usize {
    run.repeats.as_ref().map_or(1, |r| r.count)
}

/// What differs between the two runs of a point beyond the change under test: the workload
/// (dataset, lengths, load kind, prompts), and the engine's or the benchmark tool's version.
fn point_warnings(base: &Run, new: &Run) -> Vec<String> {
    let at = format!("{} at {}", base.config.key(), load_text(&base.load.target));
    let side_by_side = [vec![("base", base), ("new", new)]];
    let mut warnings: Vec<String> = differences::among(&side_by_side)
        .iter()
        .map(|d| format!("{at}: the workloads differ: {}", d.text()))
        .collect();
    let versions = [
        (
            "engine version",
            &base.workload.engine_version,
            &new.workload.engine_version,
        ),
        (
            "benchmark tool version",
            &base.provenance.producer_version,
            &new.provenance.producer_version,
        ),
    ];
    for (what, b, n) in versions {
        if let (Some(b), Some(n)) = (b, n) {
            if b != n {
                warnings.push(format!("{at}: the {what} differs: base {b}, new {n}"));
            }
        }
    }
    warnings
}

fn count(points: &[PointComparison]) -> Counts {
    let mut c = Counts::default();
    for row in points.iter().flat_map(|p| &p.rows) {
        match row.verdict {
            Verdict::Better => c.better += 1,
            Verdict::Worse => c.worse += 1,
            Verdict::NoClearDifference => c.no_clear_difference += 1,
            Verdict::NoiseUnknown => c.noise_unknown += 1,
            Verdict::Missing => c.missing += 1,
        }
        if row.fails {
            c.failing += 1;
        }
        if row.p_value.is_some() {
            c.judged += 1;
        }
    }
    c
}

/// Which way a change is good, as the rows say it.
pub fn better_word(better: Better) -> &'static str {
    match better {
        Better::Lower => "lower is better",
        Better::Higher => "higher is better",
    }
}

#[cfg(test)]
mod tests;
