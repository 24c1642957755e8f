//! The engine's answer ([`Decision`]): the candidates ranked with their scores, the rejected
//! with their reasons, the verdict and how far each weight can move.

use serde::{Deserialize, Serialize};

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

/// Scores closer than this are a tie.
pub(super) const TIE: f64 = 1e-9;
