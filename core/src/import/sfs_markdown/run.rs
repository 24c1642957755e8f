//! A level's values become a run: its request counts reconciled and checked against the
//! success and error rates, its measurements, and a level where nothing succeeded shown as failed.

use super::columns::{Col, Level};
use super::entry::Entry;
use crate::import::fields::latency_entry;
use crate::import::sfs_load_test::{file_stem, report_identity};
use crate::model::{
    Distribution, LatencyMetric, LoadPoint, Location, Provenance, RequestCounts, Run, Throughput,
};
use crate::problem::Problem;

/// Request counts as the tables give them, reconciled.
#[derive(Debug, Clone, Copy)]
struct Counts {
    total: Option<u64>,
    succeeded: Option<u64>,
    failed: Option<u64>,
}

/// A level's measurements, by kind.
#[derive(Debug, Default)]
struct Measured {
    latency: Vec<LatencyMetric>,
    input: Distribution,
    output: Distribution,
    throughput: Throughput,
    achieved_rps: Option<f64>,
}

/// The run of one level.
pub(super) fn finish_entry(
    file: &str,
    mut e: Entry,
    model: Option<&str>,
    dataset: Option<&str>,
) -> Run {
    let mut problems = std::mem::take(&mut e.problems);
    let at = Location::line(e.line);
    let mut counts = counts(file, &e, &at, &mut problems);
    let mut m = measured(&e.values);
    check_failed(file, &at, &mut m, &mut counts, &mut problems);
    m.latency.sort_by_key(|l| l.metric);
    let mut config = report_identity(
        file,
        model,
        match e.level {
            Level::Baseline(n) => Some(n),
            _ => None,
        },
    );
    if config.dataset.is_none() {
        config.dataset = dataset.map(str::to_string);
    }
    if config.label.is_none() {
        config.label = Some(file_stem(file));
    }
    let mut run = Run::new(
        Provenance::new(file, at, e.level.producer()),
        config,
        LoadPoint {
            achieved_rps: m.achieved_rps,
            ..LoadPoint::new(e.level.target())
        },
    );
    run.requests = RequestCounts {
        total: counts.total,
        succeeded: counts.succeeded,
        failed: counts.failed,
        incomplete: None,
    };
    run.latency = m.latency;
    run.throughput = m.throughput;
    run.tokens.input_len = (!m.input.is_empty()).then_some(m.input);
    run.tokens.output_len = (!m.output.is_empty()).then_some(m.output);
    run.samples = e.samples.map(std::sync::Arc::new);
    run.problems = problems;
    run
}

/// Counts: from `ok/total`, counts of successes, requests and errors, or per-request samples;
/// checked against each other and against the success and error rates.
fn counts(file: &str, e: &Entry, at: &Location, problems: &mut Vec<Problem>) -> Counts {
    let mut counts = given_counts(e);
    reconcile(file, at, &mut counts, problems);
    check_success_pct(file, e, &mut counts, problems);
    check_error_pct(file, e, &counts, problems);
    if counts.succeeded == Some(0) && counts.failed.is_none() {
        counts.failed = counts.total;
    }
    counts
}

/// The counts the tables give, with the per-request samples' when they agree on the total.
fn given_counts(e: &Entry) -> Counts {
    let mut total = e.total.as_ref().map(|(v, _)| *v);
    let mut succeeded = e.succeeded.as_ref().map(|(v, _)| *v);
    let failed = e.errors.as_ref().map(|(v, _)| *v);
    if let Some(s) = &e.samples {
        let ok = s.ok.iter().filter(|o| **o).count() as u64;
        let n = s.ok.len() as u64;
        if total.is_none_or(|t| t == n) {
            total = Some(n);
            succeeded = succeeded.or(Some(ok));
        }
    }
    Counts {
        total,
        succeeded,
        failed,
    }
}

/// Fills the count two others give, and drops counts that cannot be.
fn reconcile(file: &str, at: &Location, counts: &mut Counts, problems: &mut Vec<Problem>) {
    match (counts.total, counts.succeeded, counts.failed) {
        (Some(t), Some(s), None) if s <= t => counts.failed = Some(t - s),
        (Some(t), None, Some(f)) if f <= t => counts.succeeded = Some(t - f),
        (None, Some(s), Some(f)) => counts.total = s.checked_add(f),
        (Some(t), Some(s), Some(f)) if s.checked_add(f) != Some(t) => {
            problems.push(Problem::warning(
                file,
                at.clone(),
                format!("{s} successes and {f} errors do not add up to {t} requests"),
            ))
        }
        _ => {}
    }
    if let (Some(t), Some(s)) = (counts.total, counts.succeeded) {
        if s > t {
            problems.push(Problem::error(
                file,
                at.clone(),
                format!("{s} successes of {t} requests; the counts are unknown"),
            ));
            *counts = Counts {
                total: None,
                succeeded: None,
                failed: None,
            };
        }
    }
}

/// The share of `t` requests that `ok` is, in percent.
fn rate(ok: u64, t: u64) -> Option<f64> {
    (t > 0).then(|| 100.0 * ok as f64 / t as f64)
}

/// `Success%` against the counts; 0% means nothing succeeded even without counts.
fn check_success_pct(file: &str, e: &Entry, counts: &mut Counts, problems: &mut Vec<Problem>) {
    let Some((pct, pct_at)) = &e.success_pct else {
        return;
    };
    match (counts.succeeded, counts.total) {
        (Some(s), Some(t)) => {
            if let Some(r) = rate(s, t) {
                if (r - pct).abs() > 0.5 + 1e-9 {
                    problems.push(Problem::warning(
                        file,
                        pct_at.clone(),
                        format!(
                            "`Success%` {}% does not match {s} of {t} requests",
                            crate::format::number(*pct)
                        ),
                    ));
                }
            }
        }
        _ if *pct == 0.0 => counts.succeeded = Some(0),
        _ if *pct < 100.0 => problems.push(Problem::warning(
            file,
            pct_at.clone(),
            format!(
                "`Success%` is {}%, but no table gives this level's request counts, so the \
                 run's counts are unknown",
                crate::format::number(*pct)
            ),
        )),
        _ => {}
    }
}

/// The error rate against the counts.
fn check_error_pct(file: &str, e: &Entry, counts: &Counts, problems: &mut Vec<Problem>) {
    if let (Some((pct, pct_at)), Some(f), Some(t)) = (&e.error_pct, counts.failed, counts.total) {
        if let Some(r) = rate(f, t) {
            if (r - pct).abs() > 0.5 + 1e-9 {
                problems.push(Problem::warning(
                    file,
                    pct_at.clone(),
                    format!(
                        "the error rate {}% does not match {f} errors of {t} requests",
                        crate::format::number(*pct)
                    ),
                ));
            }
        }
    }
}

/// The measurements by kind: latency percentiles per metric, token lengths and throughputs.
fn measured(values: &[(Col, f64, Location)]) -> Measured {
    let mut m = Measured::default();
    for (c, v, _) in values {
        match *c {
            Col::Latency(metric, p) => latency_entry(&mut m.latency, metric).set_percentile(p, *v),
            Col::InputLen(p) => m.input.set_percentile(p, *v),
            Col::OutputLen(p) => m.output.set_percentile(p, *v),
            Col::OutputTokS => m.throughput.output_tok_s = Some(*v),
            Col::PerRequestTokS => m.throughput.output_tok_s_per_user = Some(*v),
            Col::RequestsPerS => {
                m.throughput.requests_per_s = Some(*v);
                m.achieved_rps = Some(*v);
            }
            Col::ActualRps => m.achieved_rps = m.achieved_rps.or(Some(*v)),
            _ => {}
        }
    }
    m
}

/// A level where nothing succeeded (every latency 0 ms is what the tool writes then) is a failed
/// run: its statistics are dropped, as are latencies of 0 ms when requests succeeded.
fn check_failed(
    file: &str,
    at: &Location,
    m: &mut Measured,
    counts: &mut Counts,
    problems: &mut Vec<Problem>,
) {
    let all_zero = !m.latency.is_empty()
        && m.latency
            .iter()
            .all(|l| l.distribution.percentiles.iter().all(|q| q.value == 0.0));
    if all_zero {
        if counts.succeeded.is_none_or(|s| s == 0) {
            counts.succeeded = Some(0);
            if counts.failed.is_none() {
                counts.failed = counts.total;
            }
            problems.push(Problem::warning(
                file,
                at.clone(),
                "every latency is 0 ms, which the tool writes when no request succeeded; the run \
                 is shown as failed",
            ));
        } else {
            problems.push(Problem::warning(
                file,
                at.clone(),
                "every latency is 0 ms although requests succeeded; the latencies are ignored",
            ));
        }
        m.latency.clear();
    } else if counts.succeeded == Some(0) {
        problems.push(Problem::warning(
            file,
            at.clone(),
            "no request succeeded; the run is shown as failed and its statistics are ignored",
        ));
    }
    if counts.succeeded == Some(0) {
        m.latency.clear();
        m.input = Distribution::default();
        m.output = Distribution::default();
        m.throughput.output_tok_s = None;
        m.throughput.output_tok_s_per_user = None;
    }
}
