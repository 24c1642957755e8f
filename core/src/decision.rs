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

mod answer;
mod candidate;
mod lead;
mod question;
pub mod tree;

use answer::TIE;
pub use answer::{CriterionScore, Decision, Ranked, Rejected, WeightRange};
pub use candidate::{Attribute, Candidate, LoadValues};
pub use question::{
    allowed_failures, too_many_failures, Bound, Compliance, Constraint, Criterion, CriterionKind,
    Question,
};

use crate::format;
use crate::quantity::{Better, Quantity};

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
    let note = lead::note(&passed, &ranked, question, &weights);
    let verdict = match &note {
        Some(note) => format!("{verdict} {}", note.text),
        None => verdict,
    };
    let scores_apart =
        ranked.len() == 1 || (ranked.len() > 1 && ranked[0].score - ranked[1].score > TIE);
    // A tie of scores has no winner to qualify.
    let winner = ranked
        .first()
        .filter(|_| scores_apart)
        .and_then(|r| passed.iter().find(|c| c.key == r.key));
    let verdict = match winner.and_then(|c| limits_within_noise(c, question)) {
        Some(caveat) => format!("{verdict} {caveat}"),
        None => verdict,
    };
    // How far each weight may move means nothing for a winner tied within noise.
    let clear_winner = note.is_none_or(|n| !n.tied) && scores_apart;
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
                    let between = interpolated(c, Quantity::SuccessRate, question.load);
                    reasons.push(format!(
                        "at load {}{between}, {why}",
                        format::number(question.load)
                    ));
                }
            }
            Ok(v) => {
                let interval = c.interval_at(k.quantity, question.load);
                let compliance = k.bound.judge(v, interval);
                let between = interpolated(c, k.quantity, question.load);
                reasons.push(missed(k, v, compliance, question.load, &between));
            }
            Err(missing) => reasons.push(format!("cannot be checked: {missing}")),
        }
    }
    reasons
}

/// ` (interpolated between loads 4 and 6)` when `q` was not measured at `load`, else nothing.
fn interpolated(c: &Candidate, q: Quantity, load: f64) -> String {
    c.interpolated_between(q, load)
        .map(|(a, b)| {
            format!(
                " (interpolated between loads {} and {})",
                format::number(a),
                format::number(b)
            )
        })
        .unwrap_or_default()
}

/// Why `k` is not met by `value` at `load` (`between`: where it was interpolated): beyond the
/// limit, and whether clearly.
fn missed(k: &Constraint, value: f64, compliance: Compliance, load: f64, between: &str) -> String {
    let unit = k.quantity.unit();
    let limit = format::with_unit(k.bound.limit(), unit);
    let beyond = match k.bound {
        Bound::AtMost(_) => "above the limit of",
        Bound::AtLeast(_) => "below the minimum of",
    };
    let noise = match compliance {
        Compliance::WithinNoise(i) => format!(" (but within its noise: {})", i.text(unit)),
        _ => String::new(),
    };
    format!(
        "{} is {} at load {}{between}, {beyond} {limit}{noise}",
        k.quantity,
        format::with_unit(value, unit),
        format::number(load)
    )
}

/// What the verdict adds when the winner meets a limit by its value but not by its whole 95%
/// interval: a TTFT p99 of 495 ms known to 397–540 ms meets at most 500 ms by a hair that the
/// data cannot vouch for.
fn limits_within_noise(c: &Candidate, question: &Question) -> Option<String> {
    let close: Vec<String> = question
        .constraints
        .iter()
        .filter_map(|k| {
            let v = c.value_at(k.quantity, question.load).ok()?;
            let interval = c.interval_at(k.quantity, question.load);
            let Compliance::WithinNoise(i) = k.bound.judge(v, interval) else {
                return None;
            };
            let unit = k.quantity.unit();
            Some(format!(
                "{} ({}, {}) against {}",
                k.quantity,
                format::with_unit(v, unit),
                i.text(unit),
                format::with_unit(k.bound.limit(), unit)
            ))
        })
        .collect();
    (!close.is_empty()).then(|| {
        format!(
            "{} meets {} by {} value{} but not by {} 95% interval{}, so the data cannot vouch \
             for it: {}.",
            c.label,
            if close.len() == 1 {
                "a limit"
            } else {
                "limits"
            },
            if close.len() == 1 { "its" } else { "their" },
            if close.len() == 1 { "" } else { "s" },
            if close.len() == 1 { "its" } else { "their" },
            if close.len() == 1 { "" } else { "s" },
            close.join("; ")
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
