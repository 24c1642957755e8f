//! How sure a number is: a 95% interval for each statistic a page shows ([`estimate`]), and
//! whether two configurations differ by more than their noise ([`Finding`]).
//!
//! One benchmark run is a sample: a p50 TTFT of 400 requests moves by several percent from run
//! to run, a p99 by far more. benchdeck states that uncertainty the way criterion.rs states a
//! benchmark's: an interval beside every estimate, and a verdict decided by the interval of the
//! difference, never by the bare numbers. The interval comes from whatever the data holds:
//!
//! - **per-request values** (vLLM and SGLang `--save-detailed`, GuideLLM's requests, llmperf's
//!   individual responses, AIPerf's records): distribution-free order-statistic intervals for
//!   percentiles, a t interval for the mean ([`interval`]);
//! - **a mean with its standard deviation and request count** (most summaries): the t interval
//!   of the mean (two are compared by the MOVER interval of their ratio, close to Welch's);
//! - **repeated runs** of one configuration at one load ([`crate::model::Repeats`]): a t interval
//!   over the runs' values, for any quantity (throughputs and costs included), widened to the
//!   interval of their pooled requests where that is wider.
//!
//! A run with none of these has no interval; a page that compares it says its noise is unknown.
//! Intervals are deterministic (no resampling), so a site builds the same twice and a million
//! requests cost one sort per metric.

mod combine;
mod contrast;
pub mod dependence;
mod estimate;
pub mod interval;
pub mod student;

use crate::model::{Metric, Run, Stat};
use crate::quantity::Quantity;

pub use combine::{combine, combine_side};
pub use contrast::{difference, Finding, Ratio, NO_CLEAR_DIFFERENCE};
pub use estimate::{Basis, Estimate, Interval};

/// `q` on `run` with its 95% interval; `None` when the run does not report `q`.
///
/// A combined run has two: the t interval over its runs' values, which holds what varies from
/// run to run, and the one from its pooled requests or summed counts, which holds what varies
/// between requests. Its interval spans both. The runs' alone is zero wide when three runs
/// served 400 of 400 requests each; the requests' alone treats three runs of 400 as one of
/// 1,200 and calls a run-to-run drift of a few percent a difference.
pub fn estimate(q: Quantity, run: &Run) -> Option<Estimate> {
    let value = q.of(run)?;
    let interval = match (over_runs(q, run), within_run(q, run, value)) {
        (Some(runs), Some(requests)) => Some(spanning(runs, requests)),
        (runs, requests) => runs.or(requests),
    };
    Some(Estimate::new(value, interval))
}

/// The interval from `a`'s lower end to `b`'s upper end or the other way round, whichever is
/// wider, named by the wider of the two.
fn spanning(a: (Interval, Basis), b: (Interval, Basis)) -> (Interval, Basis) {
    let width = |i: &Interval| i.hi - i.lo;
    let basis = if width(&a.0) >= width(&b.0) { a.1 } else { b.1 };
    let interval = Interval {
        lo: a.0.lo.min(b.0.lo),
        hi: a.0.hi.max(b.0.hi),
    };
    (interval, basis)
}

/// The t interval over the runs that a combined run stands for.
fn over_runs(q: Quantity, run: &Run) -> Option<(Interval, Basis)> {
    let repeats = run.repeats.as_ref()?;
    let values: Vec<f64> = repeats.runs.iter().filter_map(|r| q.of(r)).collect();
    if values.len() < 2 || values.len() != repeats.runs.len() {
        return None;
    }
    interval::mean(&values).map(|i| (i, Basis::Runs(values.len())))
}

/// The interval from one run's own data: its requests, its summary, its counts.
fn within_run(q: Quantity, run: &Run, value: f64) -> Option<(Interval, Basis)> {
    match q {
        Quantity::Latency { metric, stat } => latency(run, metric, stat),
        Quantity::Interactivity => {
            // 1000 ÷ TPOT: the mean's interval turned over.
            let stat = if run.latency_stat(Metric::Tpot, Stat::Mean).is_some() {
                Stat::Mean
            } else {
                Stat::Median
            };
            let (i, basis) = latency(run, Metric::Tpot, stat)?;
            (i.lo > 0.0).then(|| {
                let turned = Interval {
                    lo: 1000.0 / i.hi,
                    hi: 1000.0 / i.lo,
                };
                (turned, basis)
            })
        }
        Quantity::SuccessRate | Quantity::ErrorRate => {
            let ok = run.requests.succeeded?;
            // Requests cut off by the end of the run count against the rate, as in its value.
            let n = run.requests.total.or_else(|| {
                ok.checked_add(run.requests.failed?)?
                    .checked_add(run.requests.incomplete.unwrap_or(0))
            })?;
            let share = interval::proportion(ok, n)?;
            let i = if matches!(q, Quantity::SuccessRate) {
                Interval {
                    lo: share.lo * 100.0,
                    hi: share.hi * 100.0,
                }
            } else {
                Interval {
                    lo: (1.0 - share.hi) * 100.0,
                    hi: (1.0 - share.lo) * 100.0,
                }
            };
            i.contains(value)
                .then_some((i, Basis::Requests(n as usize)))
        }
        _ => None,
    }
}

/// A latency statistic's interval: from the requests' values, else from the summary's mean,
/// standard deviation and count.
fn latency(run: &Run, metric: Metric, stat: Stat) -> Option<(Interval, Basis)> {
    if run.all_failed() {
        return None;
    }
    if let Some((sorted, ordered)) = requests_of(run, metric) {
        let basis = if ordered.dependent() {
            Basis::Blocks {
                requests: sorted.len(),
                blocks: ordered.blocks(),
            }
        } else {
            Basis::Requests(sorted.len())
        };
        let i = match stat {
            Stat::Mean => dependence::mean(&ordered),
            Stat::Median => dependence::quantile(&ordered, sorted, 0.5),
            Stat::P(p) => dependence::quantile(&ordered, sorted, p / 100.0),
            Stat::Std | Stat::Min | Stat::Max => None,
        };
        return i.map(|i| (i, basis));
    }
    if stat != Stat::Mean {
        return None;
    }
    // Two to four requests: too few for order statistics, enough for the mean's t interval,
    // which their own values give better than a summary's standard deviation.
    if let Some(values) = few_requests(run, metric) {
        return interval::mean(values).map(|i| (i, Basis::Requests(values.len())));
    }
    // Pooled inter-token gaps are not independent requests: a summary bounds no ITL.
    if metric == Metric::Itl {
        return None;
    }
    let d = run.latency(metric)?;
    let n = summary_count(run, metric)?;
    let std = match run.provenance.producer.population_std() {
        // NumPy's default: divided by n, not n − 1.
        true if n > 1 => d.std? * (n as f64 / (n - 1) as f64).sqrt(),
        _ => d.std?,
    };
    let i = interval::mean_of_summary(d.mean?, std, n)?;
    Some((i, Basis::Summary(n)))
}

/// How many requests a summary's mean of `metric` is over: the successful ones, but for TPOT
/// only those with more than one output token (a request of one token has no time per output
/// token), counted from the per-request lengths where the file has them; unknown when its
/// shortest output is a single token and no lengths say how many.
fn summary_count(run: &Run, metric: Metric) -> Option<u64> {
    let succeeded = run.requests.succeeded?;
    if metric != Metric::Tpot {
        return Some(succeeded);
    }
    if let Some(samples) = run.samples.as_ref().filter(|s| !s.output_tokens.is_empty()) {
        let counted = samples
            .ok
            .iter()
            .zip(&samples.output_tokens)
            .filter(|(ok, out)| **ok && **out > 1.0)
            .count();
        return Some(counted as u64);
    }
    match run.tokens.output_len.as_ref().and_then(|d| d.min) {
        Some(shortest) if shortest <= 1.0 => None,
        _ => Some(succeeded),
    }
}

/// The values of `metric` of `run`'s successful requests when there are two to four of them.
fn few_requests(run: &Run, metric: Metric) -> Option<&[f64]> {
    let sorted = run.samples.as_ref()?.sorted(metric)?;
    (2..interval::MIN_VALUES)
        .contains(&sorted.len())
        .then_some(sorted)
}

/// The per-request values of `metric` among `run`'s successful requests, sorted and in send
/// order, when it has enough of them for an interval.
fn requests_of(run: &Run, metric: Metric) -> Option<(&[f64], dependence::Ordered<'_>)> {
    let samples = run.samples.as_ref()?;
    let sorted = samples.sorted(metric)?;
    if sorted.len() < interval::MIN_VALUES {
        return None;
    }
    Some((sorted, dependence::Ordered::of(samples, metric)?))
}

#[cfg(test)]
mod tests;
