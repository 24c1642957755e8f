//! Whether the winner's lead is larger than the noise of the measurements it rests on: the
//! wizard ranks by weighted scores, and scores turn any difference into a ranking, however
//! small. The lead is scored again with every measured criterion on which the two are not
//! clearly apart (the 95% interval of the difference includes none) counted as a tie; when the
//! winner no longer leads, the wizard says the two are tied within noise and names the
//! runner-up, or, when some of those measurements carry no interval, that their noise is
//! unknown. Attributes and stable loads are no samples: they separate the two for sure.

use super::answer::{Ranked, TIE};
use super::candidate::Candidate;
use super::question::{CriterionKind, Question};
use crate::noise::{difference, Finding};
use crate::quantity::Quantity;

/// What the verdict adds when the lead may not hold.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Note {
    /// The sentence.
    pub text: String,
    /// True when the two are tied within noise (not only of unknown noise).
    pub tied: bool,
}

/// How a measured criterion sets the winner and the runner-up apart.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Apart {
    /// By more than the noise, whichever way.
    Clearly,
    /// Within the noise.
    NotClearly,
    /// Unknown: a side has no interval or no value.
    Unknown,
}

/// The sentence the verdict adds about the noise, if any.
pub(super) fn note(
    passed: &[&Candidate],
    ranked: &[Ranked],
    question: &Question,
    weights: &[f64],
) -> Option<Note> {
    let [first, second, ..] = ranked else {
        return None;
    };
    let total: f64 = weights.iter().sum();
    if first.score - second.score <= TIE || !(total > 0.0 && total.is_finite()) {
        // A tie of scores is said by the verdict itself.
        return None;
    }
    let find = |key: &str| passed.iter().find(|c| c.key == key);
    let (winner, runner_up) = (find(&first.key)?, find(&second.key)?);
    let (mut sure_lead, mut unknown) = (0.0, false);
    for (j, (criterion, &weight)) in question.criteria.iter().zip(weights).enumerate() {
        if weight <= 0.0 {
            continue;
        }
        let gap = weight * (first.scores[j].score - second.scores[j].score) / total;
        let apart = match criterion.kind {
            CriterionKind::Measured(q) => apart(q, winner, runner_up, question.load),
            CriterionKind::MaxStableLoad | CriterionKind::Attribute(_) => Apart::Clearly,
        };
        match apart {
            Apart::Clearly => sure_lead += gap,
            Apart::NotClearly => {}
            Apart::Unknown => unknown |= gap != 0.0,
        }
    }
    if sure_lead > TIE {
        None
    } else if sure_lead < -TIE && !unknown {
        Some(Note {
            text: format!(
                "Its lead is within the noise: on the criteria where the data sets the two \
                 clearly apart, {} leads {}, and {} ranks first only by differences within the \
                 noise, so treat the two as tied.",
                second.label, first.label, first.label
            ),
            tied: true,
        })
    } else if unknown {
        Some(Note {
            text: format!(
                "The noise of some of these measurements is unknown (no per-request values or \
                 repeats), so {}'s lead over {} may not hold.",
                first.label, second.label
            ),
            tied: false,
        })
    } else {
        Some(Note {
            text: format!(
                "Its lead is within the noise: with every criterion on which {} and {} are not \
                 clearly apart (the 95% interval of the difference includes none) counted as a \
                 tie, {} no longer leads, so treat the two as tied.",
                first.label, second.label, first.label
            ),
            tied: true,
        })
    }
}

/// How `q` at `load` sets `a` and `b` apart: by the interval of their ratio, or of their
/// difference where a side is zero.
fn apart(q: Quantity, a: &Candidate, b: &Candidate, load: f64) -> Apart {
    let side = |c: &Candidate| {
        c.value_at(q, load)
            .ok()
            .map(|v| (v, c.interval_at(q, load)))
    };
    let (a, b) = match (side(a), side(b)) {
        (Some(a), Some(b)) => (a, b),
        // A side without the value scores 0 by the engine's rule, not by a sample.
        (None, None) => return Apart::NotClearly,
        _ => return Apart::Clearly,
    };
    match Finding::between(a, b, q.better()) {
        Some(Finding::Clear { .. }) => Apart::Clearly,
        Some(Finding::NoClearDifference { .. }) => Apart::NotClearly,
        Some(Finding::NoiseUnknown) => Apart::Unknown,
        None if a.0 == b.0 => Apart::NotClearly,
        None => match (a.1, b.1) {
            (Some(ia), Some(ib)) => {
                let d = difference((a.0, ia), (b.0, ib));
                if d.lo <= 0.0 && 0.0 <= d.hi {
                    Apart::NotClearly
                } else {
                    Apart::Clearly
                }
            }
            _ => Apart::Unknown,
        },
    }
}
