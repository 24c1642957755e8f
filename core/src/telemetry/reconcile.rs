//! The client's figures beside the server's: a benchmark client that reports speculative
//! decoding's acceptance (`vllm bench serve`) and the server's counters over the same run, and
//! the requests each counted. Where both exist the server's counters are kept and a note names
//! both figures when they disagree: a scrape's window may hold other traffic, or the scrapes
//! were not taken right before and after the run. Nothing is hidden.

use crate::model::EngineMetrics;

/// Acceptance rates further apart than this many percentage points disagree.
const ACCEPTANCE_TOLERANCE_PCT: f64 = 1.0;

/// `server`'s figures, completed by what only `client` has, and a note per disagreement;
/// `succeeded` is the client's count of successful requests.
pub fn reconcile(
    client: Option<EngineMetrics>,
    mut server: EngineMetrics,
    succeeded: Option<u64>,
) -> (EngineMetrics, Vec<String>) {
    let mut notes = Vec::new();
    if let Some(client) = client {
        match (client.spec_acceptance_pct, server.spec_acceptance_pct) {
            (Some(c), Some(s)) if (c - s).abs() > ACCEPTANCE_TOLERANCE_PCT => notes.push(format!(
                "the benchmark client reports {}% of draft tokens accepted, the server's counters \
                 {}% over the scrapes' window: the window may hold other traffic, or the scrapes \
                 were not taken right before and after the run; the server's figure is shown",
                crate::format::number(c),
                crate::format::number(s)
            )),
            (Some(c), None) => server.spec_acceptance_pct = Some(c),
            _ => {}
        }
        if server.spec_acceptance_length.is_none() {
            server.spec_acceptance_length = client.spec_acceptance_length;
        }
        for source in client.sources {
            if !server.sources.contains(&source) {
                server.sources.insert(0, source);
            }
        }
    }
    if let (Some(finished), Some(ok)) = (server.server_requests, succeeded) {
        let ok = ok as f64;
        if (finished - ok).abs() > (0.01 * ok).max(1.0) {
            notes.push(format!(
                "the server finished {} requests between its scrapes, the client counted {} \
                 successful ones: the window holds other traffic (a warm-up, another client), or \
                 the scrapes were not taken right before and after the run",
                crate::format::number(finished),
                crate::format::number(ok)
            ));
        }
    }
    (server, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(acceptance: Option<f64>, requests: Option<f64>) -> EngineMetrics {
        EngineMetrics {
            spec_acceptance_pct: acceptance,
            server_requests: requests,
            ..EngineMetrics::default()
        }
    }

    #[test]
    fn agreeing_figures_say_nothing_and_the_clients_fill_gaps() {
        let (m, notes) = reconcile(
            Some(with(Some(40.0), None)),
            with(None, Some(100.0)),
            Some(100),
        );
        assert_eq!(m.spec_acceptance_pct, Some(40.0));
        assert!(notes.is_empty(), "{notes:?}");
        let (_, notes) = reconcile(Some(with(Some(40.0), None)), with(Some(40.5), None), None);
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn disagreeing_figures_are_both_named() {
        let (m, notes) = reconcile(
            Some(with(Some(40.0), None)),
            with(Some(17.5), Some(160.0)),
            Some(100),
        );
        assert_eq!(m.spec_acceptance_pct, Some(17.5));
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes[0].contains("40%") && notes[0].contains("17.5%"),
            "{}",
            notes[0]
        );
        assert!(
            notes[1].contains("finished 160") && notes[1].contains("counted 100"),
            "{}",
            notes[1]
        );
    }
}
