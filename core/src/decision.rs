//! The decision engine behind the wizard: which configuration to run, given the reader's hard
//! limits (SLAs) and how much each criterion matters to them.
//!
//! Pure and serialisable, so the build, the CLI and the browser (for dropped files) run the
//! same code:
//!
//! 1. Each [`Candidate`] holds a configuration's measured values per load point. A value at a
//!    load between two measured points is interpolated linearly; a load outside the measured
//!    range is never extrapolated: the value is missing, with the measured range in the reason.
//! 2. [`decide`] rejects every candidate that breaks a [`Constraint`] at the required load, with
//!    the reason, then scores the rest: each criterion is scaled from 0 (worst candidate) to 1
//!    (best), and the score is the weighted mean. Ties and "nothing passes" are explained.
//! 3. For each criterion it reports how far its weight can move, the others fixed, before the
//!    winner changes ([`WeightRange`]).
//!
//! The guided mode (a question tree from front matter) is in [`tree`].

mod lead;
pub mod tree;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::format;
use crate::model::{Run, Stat};
use crate::quantity::{Better, Quantity};

/// A configuration as the engine sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The configuration key.
    pub key: String,
    /// Its display name.
    pub label: String,
    /// Qualitative attributes from front matter: `scale_to_zero: true`, `cost_model: per-second`.
    #[serde(default)]
    pub attributes: BTreeMap<String, Attribute>,
    /// Measured values, by load, ascending.
    pub points: Vec<LoadValues>,
}

/// A qualitative attribute. Written as the bare value in front matter and JSON (`true`,
/// `"A100"`); binary formats (`site::wire`) tag it.
#[derive(Debug, Clone, PartialEq)]
pub enum Attribute {
    /// Has it or not (scores 1 or 0).
    Flag(bool),
    /// A description (shown, and matched by constraints).
    Text(String),
}

/// [`Attribute`] as binary formats carry it: tagged, as they cannot tell a bool from a string.
#[derive(Serialize, Deserialize)]
enum TaggedAttribute {
    Flag(bool),
    Text(String),
}

impl Serialize for Attribute {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match (self, s.is_human_readable()) {
            (Attribute::Flag(flag), true) => s.serialize_bool(*flag),
            (Attribute::Text(text), true) => s.serialize_str(text),
            (Attribute::Flag(flag), false) => TaggedAttribute::Flag(*flag).serialize(s),
            (Attribute::Text(text), false) => TaggedAttribute::Text(text.clone()).serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Attribute {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Attribute, D::Error> {
        if !d.is_human_readable() {
            return Ok(match TaggedAttribute::deserialize(d)? {
                TaggedAttribute::Flag(flag) => Attribute::Flag(flag),
                TaggedAttribute::Text(text) => Attribute::Text(text),
            });
        }
        struct Bare;
        impl serde::de::Visitor<'_> for Bare {
            type Value = Attribute;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("true, false or a text")
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Attribute, E> {
                Ok(Attribute::Flag(v))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Attribute, E> {
                Ok(Attribute::Text(v.to_string()))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Attribute, E> {
                Ok(Attribute::Text(v))
            }
        }
        d.deserialize_any(Bare)
    }
}

/// The values measured at one load point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadValues {
    /// Concurrency or request rate.
    pub load: f64,
    /// Each quantity the run reports.
    pub values: Vec<(Quantity, f64)>,
    /// The 95% intervals of those values the data bounds ([`crate::noise`]), low and high.
    #[serde(default)]
    pub intervals: Vec<(Quantity, f64, f64)>,
}

impl LoadValues {
    fn get(&self, q: Quantity) -> Option<f64> {
        self.values.iter().find(|(k, _)| *k == q).map(|(_, v)| *v)
    }

    fn interval(&self, q: Quantity) -> Option<(f64, f64)> {
        self.intervals
            .iter()
            .find(|(k, ..)| *k == q)
            .map(|&(_, lo, hi)| (lo, hi))
    }
}

/// A hard limit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Constraint {
    /// What is limited.
    pub quantity: Quantity,
    /// The bound.
    pub bound: Bound,
}

/// An upper or lower bound.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// The value must be at most this.
    AtMost(f64),
    /// The value must be at least this.
    AtLeast(f64),
}

impl Bound {
    fn holds(self, v: f64) -> bool {
        match self {
            Bound::AtMost(limit) => v <= limit,
            Bound::AtLeast(limit) => v >= limit,
        }
    }
}

/// Something the reader cares about, with its weight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Criterion {
    /// What is scored.
    pub kind: CriterionKind,
    /// How much it counts (any non-negative number; only ratios matter).
    pub weight: f64,
}

/// What a criterion scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CriterionKind {
    /// A measured quantity at the required load.
    Measured(Quantity),
    /// The highest measured load at which every constraint holds.
    MaxStableLoad,
    /// A flag attribute: having it scores 1.
    Attribute(String),
}

impl CriterionKind {
    /// Its name for people.
    pub fn name(&self) -> String {
        match self {
            CriterionKind::Measured(q) => q.to_string(),
            CriterionKind::MaxStableLoad => "Max stable load".into(),
            CriterionKind::Attribute(a) => a.replace('_', " "),
        }
    }
}

/// What the reader asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Question {
    /// The load the SLAs and measured criteria are checked at.
    pub load: f64,
    /// Hard limits.
    pub constraints: Vec<Constraint>,
    /// Attributes a candidate must have (`tool_calling`).
    #[serde(default)]
    pub required: Vec<String>,
    /// What to optimise.
    pub criteria: Vec<Criterion>,
}

/// The engine's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// Candidates meeting every constraint, best first.
    pub ranked: Vec<Ranked>,
    /// Candidates that do not, with why.
    pub rejected: Vec<Rejected>,
    /// One sentence: the winner and why, a tie, or why nothing qualifies.
    pub verdict: String,
    /// Per criterion, the weights that keep the winner (none without a clear winner).
    pub sensitivity: Vec<WeightRange>,
}

/// A candidate that passed, with its scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ranked {
    /// The configuration key.
    pub key: String,
    /// Its display name.
    pub label: String,
    /// Weighted mean of the criterion scores, 0 to 1.
    pub score: f64,
    /// Per criterion, in the question's order.
    pub scores: Vec<CriterionScore>,
}

/// One criterion's value and score for one candidate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CriterionScore {
    /// The criterion's name.
    pub criterion: String,
    /// The value, formatted (`412 ms`, `yes`), or why it is missing.
    pub shown: String,
    /// 0 (worst of the candidates) to 1 (best).
    pub score: f64,
}

/// A candidate that failed, with every reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rejected {
    /// The configuration key.
    pub key: String,
    /// Its display name.
    pub label: String,
    /// Each broken constraint or missing measurement, as a sentence.
    pub reasons: Vec<String>,
}

/// How far one weight can move before the winner changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WeightRange {
    /// The criterion's name.
    pub criterion: String,
    /// Its weight now.
    pub weight: f64,
    /// The lowest weight that keeps the winner.
    pub min: f64,
    /// The highest; `None` when it can grow without limit.
    pub max: Option<f64>,
}

impl Candidate {
    /// A candidate from its runs, with the given quantities read from each.
    pub fn from_runs(key: &str, label: &str, runs: &[&Run], quantities: &[Quantity]) -> Candidate {
        let mut points: Vec<LoadValues> = runs
            .iter()
            .filter_map(|r| {
                let load = r.load.target.value().filter(|v| v.is_finite())?;
                let estimates: Vec<(Quantity, crate::noise::Estimate)> = quantities
                    .iter()
                    .filter_map(|q| crate::noise::estimate(*q, r).map(|e| (*q, e)))
                    .collect();
                let values = estimates.iter().map(|(q, e)| (*q, e.value)).collect();
                let intervals = estimates
                    .iter()
                    .filter_map(|(q, e)| e.interval.map(|(i, _)| (*q, i.lo, i.hi)))
                    .collect();
                Some(LoadValues {
                    load,
                    values,
                    intervals,
                })
            })
            .collect();
        crate::order::sort_by_f64(&mut points, &|p| p.load);
        Candidate {
            key: key.to_string(),
            label: label.to_string(),
            attributes: BTreeMap::new(),
            points,
        }
    }

    /// `q` at `load`: measured, or interpolated between the two measured loads around it.
    /// Outside the measured range, or next to a point without `q`, it is an error saying so.
    pub fn value_at(&self, q: Quantity, load: f64) -> Result<f64, String> {
        let with: Vec<(f64, f64)> = self
            .points
            .iter()
            .filter_map(|p| p.get(q).map(|v| (p.load, v)))
            .collect();
        let (Some(first), Some(last)) = (with.first(), with.last()) else {
            return Err(format!("{} does not report {q}", self.label));
        };
        // A load point without the value (every request failed there) is not skipped over.
        if let Some(gap) = self.points.iter().find(|p| {
            p.get(q).is_none() && p.load >= first.0 && p.load <= last.0 && {
                let (below, above) = (
                    with.iter().rev().find(|(l, _)| *l <= load),
                    with.iter().find(|(l, _)| *l >= load),
                );
                below.is_some_and(|b| b.0 <= p.load) && above.is_some_and(|a| p.load <= a.0)
            }
        }) {
            return Err(format!(
                "{} has no {q} at load {} (next to {}), so it cannot be interpolated",
                self.label,
                format::number(gap.load),
                format::number(load)
            ));
        }
        if load < first.0 || load > last.0 {
            return Err(format!(
                "{} has {q} measured from load {} to {}, not at {} (no extrapolation)",
                self.label,
                format::number(first.0),
                format::number(last.0),
                format::number(load)
            ));
        }
        for pair in with.windows(2) {
            let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
            if load >= x0 && load <= x1 {
                if x1 == x0 {
                    return Ok(y0);
                }
                return Ok(y0 + (y1 - y0) * (load - x0) / (x1 - x0));
            }
        }
        // A single measured point equal to `load`.
        Ok(first.1)
    }

    /// The 95% interval of `q` at `load`: a measured point's, or between two measured points
    /// with intervals, each end interpolated as the value is. `None` where no interval is known.
    pub fn interval_at(&self, q: Quantity, load: f64) -> Option<crate::noise::Interval> {
        let with: Vec<(f64, (f64, f64))> = self
            .points
            .iter()
            .filter_map(|p| p.interval(q).map(|i| (p.load, i)))
            .collect();
        if let Some((_, (lo, hi))) = with.iter().find(|(l, _)| *l == load) {
            return Some(crate::noise::Interval { lo: *lo, hi: *hi });
        }
        let pair = with.windows(2).find(|w| w[0].0 < load && load < w[1].0)?;
        let ((x0, (lo0, hi0)), (x1, (lo1, hi1))) = (pair[0], pair[1]);
        // Only between two neighbours that both carry the value (no gap in between).
        let between = self
            .points
            .iter()
            .filter(|p| p.load > x0 && p.load < x1)
            .count();
        if between > 0 {
            return None;
        }
        let t = (load - x0) / (x1 - x0);
        Some(crate::noise::Interval {
            lo: lo0 + t * (lo1 - lo0),
            hi: hi0 + t * (hi1 - hi0),
        })
    }

    /// The highest measured load up to which every constraint holds (contiguously from the
    /// lowest), if any.
    pub fn max_stable_load(&self, constraints: &[Constraint]) -> Option<f64> {
        let mut stable = None;
        for p in &self.points {
            let success = p.get(Quantity::SuccessRate);
            let ok = constraints.iter().all(|c| {
                p.get(c.quantity).is_some_and(|v| c.bound.holds(v))
                    && success
                        .and_then(|s| too_many_failures(c.quantity, s))
                        .is_none()
            });
            if !ok {
                break;
            }
            stable = Some(p.load);
        }
        stable
    }

    fn flag(&self, name: &str) -> bool {
        matches!(self.attributes.get(name), Some(Attribute::Flag(true)))
    }
}

/// Evaluates every candidate against `question`.
pub fn decide(candidates: &[Candidate], question: &Question) -> Decision {
    let mut passed = Vec::new();
    let mut rejected = Vec::new();
    for c in candidates {
        let reasons = rejections(c, question);
        if reasons.is_empty() {
            passed.push(c);
        } else {
            rejected.push(Rejected {
                key: c.key.clone(),
                label: c.label.clone(),
                reasons,
            });
        }
    }
    let raw: Vec<Vec<Result<f64, String>>> = passed
        .iter()
        .map(|c| {
            question
                .criteria
                .iter()
                .map(|k| raw_value(c, k, question))
                .collect()
        })
        .collect();
    // Per criterion, each candidate's 0-to-1 score.
    let per_criterion: Vec<Vec<f64>> = question
        .criteria
        .iter()
        .enumerate()
        .map(|(j, k)| {
            let values: Vec<Option<f64>> = raw.iter().map(|r| r[j].clone().ok()).collect();
            scaled(&values, better(&k.kind))
        })
        .collect();
    let weights: Vec<f64> = question
        .criteria
        .iter()
        .map(|k| k.weight.clamp(0.0, 1e6))
        .collect();
    let mut ranked: Vec<Ranked> = passed
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let s: Vec<f64> = per_criterion.iter().map(|col| col[i]).collect();
            Ranked {
                key: c.key.clone(),
                label: c.label.clone(),
                score: weighted(&s, &weights),
                scores: question
                    .criteria
                    .iter()
                    .enumerate()
                    .map(|(j, k)| CriterionScore {
                        criterion: k.kind.name(),
                        shown: shown(&k.kind, &raw[i][j]),
                        score: s[j],
                    })
                    .collect(),
            }
        })
        .collect();
    // Best first; equal scores keep their order.
    crate::order::sort_by_f64(&mut ranked, &|r| -r.score);
    let verdict = verdict(&ranked, &rejected);
    let verdict = match lead::note(&passed, &ranked, question, &weights) {
        Some(note) => format!("{verdict} {note}"),
        None => verdict,
    };
    let clear_winner =
        ranked.len() == 1 || (ranked.len() > 1 && ranked[0].score - ranked[1].score > TIE);
    let sensitivity = if clear_winner && ranked.len() > 1 {
        sensitivity(&ranked, &question.criteria, &weights)
    } else {
        Vec::new()
    };
    Decision {
        ranked,
        rejected,
        verdict,
        sensitivity,
    }
}

/// Scores closer than this are a tie.
const TIE: f64 = 1e-9;

fn rejections(c: &Candidate, question: &Question) -> Vec<String> {
    let mut reasons = Vec::new();
    for name in &question.required {
        if !c.flag(name) {
            reasons.push(format!("does not have {}", name.replace('_', " ")));
        }
    }
    for k in &question.constraints {
        // A latency within its limit still misses a percentile target when more requests
        // failed than the percentile leaves room for.
        let failures = c
            .value_at(Quantity::SuccessRate, question.load)
            .ok()
            .and_then(|s| too_many_failures(k.quantity, s));
        match c.value_at(k.quantity, question.load) {
            Ok(v) if k.bound.holds(v) => {
                if let Some(why) = failures {
                    reasons.push(format!("at load {}, {why}", format::number(question.load)));
                }
            }
            Ok(v) => reasons.push(format!(
                "{} is {} at load {}, {} {}",
                k.quantity,
                format::with_unit(v, k.quantity.unit()),
                format::number(question.load),
                match k.bound {
                    Bound::AtMost(_) => "above the limit of",
                    Bound::AtLeast(_) => "below the minimum of",
                },
                format::with_unit(
                    match k.bound {
                        Bound::AtMost(l) | Bound::AtLeast(l) => l,
                    },
                    k.quantity.unit()
                )
            )),
            Err(missing) => reasons.push(format!("cannot be checked: {missing}")),
        }
    }
    reasons
}

/// The share of the requests sent (0 to 1) a latency percentile target lets fail: failed
/// requests count as misses, so a `pP` target needs P% of them to succeed (a p95 target leaves
/// room for 5% failures, a median for half). `None` when `q` is not a latency percentile.
pub fn allowed_failures(q: Quantity) -> Option<f64> {
    match q {
        Quantity::Latency {
            stat: Stat::P(p), ..
        } => Some((100.0 - p) / 100.0),
        Quantity::Latency {
            stat: Stat::Median, ..
        } => Some(0.5),
        _ => None,
    }
}

/// Why a run whose requests succeeded `success_pct`% of the time misses a `q` target whatever
/// its latency: `15% of the requests failed: a TTFT p90 target counts them as misses and allows
/// 10%`. `None` when the failures fit, or when `q` is not a latency percentile.
pub fn too_many_failures(q: Quantity, success_pct: f64) -> Option<String> {
    let allowed = allowed_failures(q)?;
    let failed = 1.0 - success_pct / 100.0;
    (failed > allowed + 1e-12).then(|| {
        format!(
            "{}% of the requests failed: a {q} target counts them as misses and allows {}%",
            format::number(failed * 100.0),
            format::number(allowed * 100.0)
        )
    })
}

fn raw_value(c: &Candidate, k: &Criterion, question: &Question) -> Result<f64, String> {
    match &k.kind {
        CriterionKind::Measured(q) => c.value_at(*q, question.load),
        CriterionKind::MaxStableLoad => c
            .max_stable_load(&question.constraints)
            .ok_or_else(|| "not stable at any measured load".to_string()),
        CriterionKind::Attribute(name) => Ok(if c.flag(name) { 1.0 } else { 0.0 }),
    }
}

fn better(kind: &CriterionKind) -> Better {
    match kind {
        CriterionKind::Measured(q) => q.better(),
        _ => Better::Higher,
    }
}

fn shown(kind: &CriterionKind, raw: &Result<f64, String>) -> String {
    match (kind, raw) {
        (_, Err(why)) => why.clone(),
        (CriterionKind::Measured(q), Ok(v)) => format::with_unit(*v, q.unit()),
        (CriterionKind::MaxStableLoad, Ok(v)) => format!("load {}", format::number(*v)),
        (CriterionKind::Attribute(_), Ok(v)) => if *v > 0.0 { "yes" } else { "no" }.into(),
    }
}

/// Min-max scaling: the best value scores 1, the worst 0, a missing value 0; all equal, 1.
fn scaled(values: &[Option<f64>], better: Better) -> Vec<f64> {
    let present = values.iter().flatten();
    let (lo, hi) = present.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
        (lo.min(v), hi.max(v))
    });
    values
        .iter()
        .map(|v| match v {
            None => 0.0,
            Some(_) if hi - lo <= 0.0 => 1.0,
            Some(v) => match better {
                Better::Higher => (v - lo) / (hi - lo),
                Better::Lower => (hi - v) / (hi - lo),
            },
        })
        .collect()
}

fn weighted(scores: &[f64], weights: &[f64]) -> f64 {
    let total: f64 = weights.iter().sum();
    if !(total > 0.0 && total.is_finite()) {
        return 0.0;
    }
    scores.iter().zip(weights).map(|(s, w)| s * w).sum::<f64>() / total
}

fn verdict(ranked: &[Ranked], rejected: &[Rejected]) -> String {
    match ranked {
        [] if rejected.is_empty() => "There is no configuration to choose from.".into(),
        [] => format!(
            "No configuration meets every requirement: {}.",
            rejected
                .iter()
                .map(|r| format!("{} {}", r.label, r.reasons.join("; ")))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        [only] => format!(
            "{} is the only configuration that meets every requirement.",
            only.label
        ),
        [first, second, ..] if first.score - second.score <= TIE => {
            let tied: Vec<&str> = ranked
                .iter()
                .filter(|r| first.score - r.score <= TIE)
                .map(|r| r.label.as_str())
                .collect();
            format!(
                "{} tie at a score of {:.2}: the weights do not separate them; change a weight or add a criterion.",
                tied.join(" and "),
                first.score
            )
        }
        [first, second, ..] => {
            // Where it is best and the runner-up is not (criteria everyone ties on say nothing).
            let strengths: Vec<&str> = first
                .scores
                .iter()
                .zip(&second.scores)
                .filter(|(a, b)| a.score >= 1.0 - TIE && b.score < 1.0 - TIE)
                .map(|(a, _)| a.criterion.as_str())
                .collect();
            format!(
                "{} ranks first ({:.2} against {:.2} for {}){}.",
                first.label,
                first.score,
                second.score,
                second.label,
                if strengths.is_empty() {
                    String::new()
                } else {
                    format!(", best on {}", strengths.join(", "))
                }
            )
        }
    }
}

/// For each criterion: the range of its weight (others fixed) over which the current winner
/// stays first. The score difference between the winner and another candidate is, up to a
/// positive factor, `(A − B) + w (a − b)`: linear in `w`, so each rival gives one bound.
fn sensitivity(ranked: &[Ranked], criteria: &[Criterion], weights: &[f64]) -> Vec<WeightRange> {
    let winner = &ranked[0];
    criteria
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let (mut min, mut max) = (0.0f64, None::<f64>);
            for rival in &ranked[1..] {
                let rest = |r: &Ranked| -> f64 {
                    r.scores
                        .iter()
                        .zip(weights)
                        .enumerate()
                        .filter(|(j, _)| *j != i)
                        .map(|(_, (s, w))| s.score * w)
                        .sum()
                };
                let (a_rest, b_rest) = (rest(winner), rest(rival));
                let (a, b) = (winner.scores[i].score, rival.scores[i].score);
                if a == b {
                    continue;
                }
                // (a_rest − b_rest) + w (a − b) > 0
                let w_star = (b_rest - a_rest) / (a - b);
                if a > b {
                    min = min.max(w_star);
                } else {
                    max = Some(max.map_or(w_star, |m: f64| m.min(w_star)));
                }
            }
            WeightRange {
                criterion: k.kind.name(),
                weight: weights[i],
                min: min.max(0.0),
                max,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
