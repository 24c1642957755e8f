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
pub const NOISE_UNKNOWN: &str = "Noise unknown: some of these values have no interval (their \
     runs carry neither per-request values nor repeats, or too few requests for the percentile), \
     so their differences are between single measurements; a difference of a few percent may \
     be noise.";

/// The note a comparison carries when the requests of some of its runs were alike their
/// neighbours ([`crate::noise::dependence`]).
pub const QUEUED: &str = "Neighbouring requests were alike in some of these runs (each waits \
     behind the ones before it), so their intervals come from blocks of consecutive requests \
     and are wider than independent requests would give. One run of each side is weak \
     evidence: repeated runs of each configuration give the verdicts that hold.";

/// The note a comparison carries when the send order of some of its runs' requests is unknown.
pub const ORDER_UNKNOWN: &str = "The order in which some of these runs' requests were sent is \
     unknown (their files record no start times), so how alike neighbouring requests were was \
     read in the files' order.";

/// The notes a comparison of `quantities` between the runs `side_by_side` (each a list of the
/// runs compared with one another, with the names their configurations are shown by) carries:
/// the noise-unknown note when any value has no interval, the queueing note when neighbouring
/// requests were alike, the order note when the send order is unknown, the workload note when
/// workloads differ.
pub fn notes(quantities: &[Quantity], side_by_side: &[Vec<(&str, &Run)>]) -> Vec<String> {
    let mut notes = Vec::new();
    if noise_unknown(quantities, side_by_side) {
        notes.push(NOISE_UNKNOWN.to_string());
    }
    let runs = || side_by_side.iter().flatten().map(|(_, run)| *run);
    let orders: Vec<(bool, bool)> = runs()
        .flat_map(|run| {
            quantities
                .iter()
                .filter_map(move |&q| request_order(q, run))
        })
        .collect();
    if orders.iter().any(|(dependent, _)| *dependent) {
        notes.push(QUEUED.to_string());
    }
    if orders.iter().any(|(_, known)| !known) {
        notes.push(ORDER_UNKNOWN.to_string());
    }
    notes.extend(differences::note(&differences::among(side_by_side)));
    notes
}

/// For a latency `q` that `run`'s own requests bound: whether they were alike their
/// neighbours, and whether their send order is known.
fn request_order(q: Quantity, run: &Run) -> Option<(bool, bool)> {
    let Quantity::Latency { metric, .. } = q else {
        return None;
    };
    let samples = run.samples.as_ref()?;
    let ordered = noise::dependence::Ordered::of(samples, metric)?;
    (ordered.values.len() >= noise::interval::MIN_VALUES)
        .then(|| (ordered.dependent(), samples.order_known()))
}

/// True when some value of `quantities` on the runs compared has no interval.
pub fn noise_unknown(quantities: &[Quantity], side_by_side: &[Vec<(&str, &Run)>]) -> bool {
    side_by_side.iter().flatten().any(|(_, run)| {
        quantities
            .iter()
            .any(|&q| noise::estimate(q, run).is_some_and(|e| e.bounds().is_none()))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::simulated;
    use crate::model::{Metric, Stat};

    const P50: Quantity = Quantity::Latency {
        metric: Metric::Ttft,
        stat: Stat::P(50.0),
    };

    #[test]
    fn runs_whose_requests_queue_say_why_their_intervals_are_wide() {
        let mut rng = simulated::rng(2);
        let queued = simulated::run(
            "a",
            "a.json",
            simulated::ar1_latencies(&mut rng, 1_000, 200.0, 0.9),
        );
        let independent =
            simulated::run("b", "b.json", simulated::latencies(&mut rng, 1_000, 200.0));
        let notes_of = |a: &Run, b: &Run| notes(&[P50], &[vec![("a", a), ("b", b)]]);
        assert!(notes_of(&queued, &independent).contains(&QUEUED.to_string()));
        let mut other = independent.clone();
        other.provenance.file = "c.json".into();
        assert!(!notes_of(&independent, &other).contains(&QUEUED.to_string()));
        // The simulated runs' lists follow the send order; a file's without start times do not.
        assert!(!notes_of(&queued, &independent).contains(&ORDER_UNKNOWN.to_string()));
        let mut unordered = independent.clone();
        let mut samples = (**unordered.samples.as_ref().unwrap()).clone();
        samples.sent_in_file_order = false;
        unordered.samples = Some(std::sync::Arc::new(samples));
        assert!(notes_of(&queued, &unordered).contains(&ORDER_UNKNOWN.to_string()));
    }
}
