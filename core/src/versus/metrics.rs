//! Which metrics a comparison reads: `--metric ttft:p95,output_throughput` or the defaults, the
//! percentiles and throughput a serving change moves, with ITL standing in for TPOT where a
//! tool reports no TPOT.

use crate::model::{Metric, Run, Stat};
use crate::quantity::Quantity;

/// The metrics compared when none are named: TTFT p50 and p99, TPOT p50 and p99 (ITL where
/// neither side has TPOT), end-to-end p50, output throughput and success rate.
pub const DEFAULT_METRICS: [Quantity; 7] = [
    latency(Metric::Ttft, 50.0),
    latency(Metric::Ttft, 99.0),
    latency(Metric::Tpot, 50.0),
    latency(Metric::Tpot, 99.0),
    latency(Metric::E2e, 50.0),
    Quantity::OutputThroughput,
    Quantity::SuccessRate,
];

const fn latency(metric: Metric, p: f64) -> Quantity {
    Quantity::Latency {
        metric,
        stat: Stat::P(p),
    }
}

/// `ttft:p95,tpot:p50,output_throughput` as quantities; an unknown name is an error naming it
/// and what is accepted.
pub fn parse_metrics(text: &str) -> Result<Vec<Quantity>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(|m| {
            let (name, stat) = match m.split_once(':') {
                Some((name, stat)) => (name, Some(stat)),
                None => (m, None),
            };
            Quantity::parse(name, stat).map_err(|e| format!("--metric `{m}`: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()
        .and_then(|q| {
            if q.is_empty() {
                Err(
                    "--metric names no metric; expected a list such as ttft:p95,output_throughput"
                        .into(),
                )
            } else {
                Ok(q)
            }
        })
}

/// The metrics of `wanted` to compare at a point of `base` and `new`: each as asked, TPOT
/// replaced by ITL where neither side reports TPOT but one reports ITL, and those neither side
/// reports left out.
pub(super) fn chosen(wanted: &[Quantity], base: &Run, new: &Run) -> Vec<Quantity> {
    let reported = |q: Quantity| q.of(base).is_some() || q.of(new).is_some();
    let mut out: Vec<Quantity> = Vec::new();
    for &q in wanted {
        let q = match q {
            Quantity::Latency {
                metric: Metric::Tpot,
                stat,
            } if !reported(q) => Quantity::Latency {
                metric: Metric::Itl,
                stat,
            },
            other => other,
        };
        if reported(q) && !out.contains(&q) {
            out.push(q);
        }
    }
    out
}
