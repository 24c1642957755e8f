//! How a report words a comparison of configurations, wherever it makes one (head-to-head
//! tables and charts, the summary table, the wizard): the 95% interval of the difference
//! decides between "better by" and "no clear difference" ([`crate::noise::Finding`]), and two
//! notes say what the numbers cannot: that some runs' noise is unknown, and that the runs'
//! workloads differ ([`crate::model::differences`]).

use crate::model::differences;
use crate::model::Run;
use crate::noise;
use crate::quantity::Quantity;

/// The note a comparison carries when some of its values have no interval.
pub const NOISE_UNKNOWN: &str = "Noise unknown: some of these runs carry neither per-request \
     values nor repeats, so their differences are between single measurements; a difference \
     of a few percent may be noise.";

/// The notes a comparison of `quantities` between the runs `side_by_side` (each a list of the
/// runs compared with one another, with the names their configurations are shown by) carries:
/// the noise-unknown note when any value has no interval, the workload note when workloads
/// differ.
pub fn notes(quantities: &[Quantity], side_by_side: &[Vec<(&str, &Run)>]) -> Vec<String> {
    let mut notes = Vec::new();
    if noise_unknown(quantities, side_by_side) {
        notes.push(NOISE_UNKNOWN.to_string());
    }
    notes.extend(differences::note(&differences::among(side_by_side)));
    notes
}

/// True when some value of `quantities` on the runs compared has no interval.
pub fn noise_unknown(quantities: &[Quantity], side_by_side: &[Vec<(&str, &Run)>]) -> bool {
    side_by_side.iter().flatten().any(|(_, run)| {
        quantities
            .iter()
            .any(|&q| noise::estimate(q, run).is_some_and(|e| e.interval.is_none()))
    })
}

/// The finding of `q` between runs `a` and `b`, with their estimates.
pub fn finding(
    q: Quantity,
    a: &Run,
    b: &Run,
) -> Option<(noise::Finding, noise::Estimate, noise::Estimate)> {
    let (ea, eb) = (noise::estimate(q, a)?, noise::estimate(q, b)?);
    let finding = noise::Finding::of(&ea, &eb, q.better())?;
    Some((finding, ea, eb))
}
