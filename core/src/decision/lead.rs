//! Whether the winner's lead is larger than the noise of the measurements it rests on: the
//! wizard ranks by weighted scores, and scores turn any difference into a ranking, however
//! small. When no weighted measurement separates the winner from the runner-up (the 95%
//! interval of each difference includes none), the wizard says the two are tied within noise
//! and names the runner-up; when those measurements carry no intervals, it says their noise is
//! unknown.

use super::answer::{Ranked, TIE};
use super::candidate::Candidate;
use super::question::{CriterionKind, Question};
use crate::noise::Finding;

/// The sentence the verdict adds about the noise, if any.
pub(super) fn note(
    passed: &[&Candidate],
    ranked: &[Ranked],
    question: &Question,
    weights: &[f64],
) -> Option<String> {
    let [first, second, ..] = ranked else {
        return None;
    };
    if first.score - second.score <= TIE {
        // A tie of scores is said by the verdict itself.
        return None;
    }
    let find = |key: &str| passed.iter().find(|c| c.key == key);
    let (winner, runner_up) = (find(&first.key)?, find(&second.key)?);
    let mut findings = Vec::new();
    for (criterion, &weight) in question.criteria.iter().zip(weights) {
        let CriterionKind::Measured(q) = criterion.kind else {
            // An attribute or a stable load is no sample: it separates them for sure.
            if weight > 0.0 && first.scores != second.scores {
                return None;
            }
            continue;
        };
        if weight <= 0.0 {
            continue;
        }
        let side = |c: &Candidate| {
            c.value_at(q, question.load)
                .ok()
                .map(|v| (v, c.interval_at(q, question.load)))
        };
        if let (Some(a), Some(b)) = (side(winner), side(runner_up)) {
            findings.push(Finding::between(a, b, q.better()));
        }
    }
    if findings.is_empty() {
        return None;
    }
    let clear_lead = findings
        .iter()
        .any(|f| matches!(f, Some(Finding::Clear { winner: 0, .. })));
    let unknown = findings
        .iter()
        .any(|f| matches!(f, Some(Finding::NoiseUnknown)));
    if clear_lead {
        None
    } else if unknown {
        Some(format!(
            "The noise of some of these measurements is unknown (no per-request values or \
             repeats), so {}'s lead over {} may not hold.",
            first.label, second.label
        ))
    } else {
        Some(format!(
            "Its lead is within the noise: on no weighted criterion is {} clearly better than \
             {} (each 95% interval of the difference includes none), so treat the two as tied.",
            first.label, second.label
        ))
    }
}
