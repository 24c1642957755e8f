//! Runs counted once: several runs of one configuration at one load point on one day (with one
//! workload) become one run that stands for them all ([`combine`]), so no chart, table or value
//! picks one of them and says nothing.
//!
//! Where every run has per-request values, the combined run pools them: its statistics are
//! computed again over all the requests. Otherwise each statistic is the mean of the runs'
//! values. Either way its interval spans the t interval over the runs and the one its requests
//! give ([`super::estimate`]). Counts and token totals add up; rates are averaged.

use std::borrow::Cow;

use crate::analysis::quantile;
use crate::model::differences::Aspect;
use crate::model::{
    Distribution, LatencyMetric, LoadTarget, Metric, Repeats, RequestCounts, RequestSamples, Run,
    Throughput, TokenStats,
};
use crate::problem::Problem;

/// `runs` with each group of repeats (same configuration, load point, day and workload)
/// replaced by one combined run, in the place of its first run. Single runs stay as they are.
pub fn combine<'a>(runs: Vec<Cow<'a, Run>>) -> Vec<Cow<'a, Run>> {
    combine_by(runs, same_point)
}

/// [`combine`] for one side of a comparison (`benchdeck compare`'s base or new), whose runs
/// the user chose as one measurement: runs on other days repeat it too, and so do runs at
/// maximum throughput (where a site keeps them apart, as their files may not state a load).
pub fn combine_side<'a>(runs: Vec<Cow<'a, Run>>) -> Vec<Cow<'a, Run>> {
    combine_by(runs, same_measurement)
}

fn combine_by<'a>(runs: Vec<Cow<'a, Run>>, same: fn(&Run, &Run) -> bool) -> Vec<Cow<'a, Run>> {
    let mut groups: Vec<Vec<Cow<'a, Run>>> = Vec::new();
    for run in runs {
        match groups.iter_mut().find(|g| same(&g[0], &run)) {
            Some(group) => group.push(run),
            None => groups.push(vec![run]),
        }
    }
    groups
        .into_iter()
        .map(|mut group| {
            if group.len() == 1 {
                group.pop().expect("a group has a run")
            } else {
                let runs: Vec<&Run> = group.iter().map(AsRef::as_ref).collect();
                Cow::Owned(combined(&runs))
            }
        })
        .collect()
}

/// True when `a` and `b` are repeats of one measurement on one day, at a stated load.
fn same_point(a: &Run, b: &Run) -> bool {
    same_measurement(a, b)
        && a.load.target != LoadTarget::MaxThroughput
        && a.provenance.date.as_ref().map(|d| d.day())
            == b.provenance.date.as_ref().map(|d| d.day())
}

/// True when `a` and `b` measured one configuration at one load with prompts of one kind (the
/// same stated lengths, and measured lengths within a tenth of each other, as
/// [`Aspect::differs`] judges them).
fn same_measurement(a: &Run, b: &Run) -> bool {
    const WORKLOAD: [Aspect; 5] = [
        Aspect::Dataset,
        Aspect::InputLength,
        Aspect::OutputLength,
        Aspect::Burstiness,
        Aspect::Tokenizer,
    ];
    a.config.key() == b.config.key()
        && a.load.target == b.load.target
        && a.config.dataset == b.config.dataset
        && a.workload.input_len == b.workload.input_len
        && a.workload.output_len == b.workload.output_len
        && !WORKLOAD.iter().any(|aspect| aspect.differs(a, b))
}

/// One run standing for `runs` (two or more).
fn combined(runs: &[&Run]) -> Run {
    let first = runs[0];
    let pooled = pooled_samples(runs);
    let mut problems: Vec<Problem> = Vec::new();
    for p in runs.iter().flat_map(|r| &r.problems) {
        if !problems.contains(p) {
            problems.push(p.clone());
        }
    }
    let latency = latency_of(runs, pooled.as_ref(), &mut problems);
    let tokens = tokens_of(runs, pooled.as_ref());
    let mut load = first.load.clone();
    load.achieved_rps = mean_of(runs, |r| r.load.achieved_rps);
    load.achieved_concurrency = mean_of(runs, |r| r.load.achieved_concurrency);
    let originals = runs
        .iter()
        .map(|r| Run {
            samples: if pooled.is_some() {
                None
            } else {
                r.samples.clone()
            },
            ..(*r).clone()
        })
        .collect();
    Run {
        provenance: first.provenance.clone(),
        config: first.config.clone(),
        load,
        requests: counts_of(runs),
        latency,
        throughput: throughput_of(runs),
        tokens,
        repeats: Some(Box::new(Repeats {
            count: runs.len(),
            pooled: pooled.is_some(),
            sources: runs.iter().map(|r| r.provenance.to_string()).collect(),
            runs: originals,
        })),
        samples: pooled.map(std::sync::Arc::new),
        // Each run's slices stay with it, among the repeats' runs.
        slices: Vec::new(),
        workload: first.workload.clone(),
        // The server's view of one run's window is not the combined runs'.
        server: None,
        engine: None,
        price: first.price,
        // What every repeat's metadata agrees on.
        metadata: first
            .metadata
            .iter()
            .filter(|(k, v)| runs.iter().all(|r| r.metadata.get(*k) == Some(*v)))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        problems,
    }
}

/// Reads one per-request list of samples.
type Read = fn(&RequestSamples) -> &Vec<f64>;
/// Writes one per-request list of samples.
type Write = fn(&mut RequestSamples) -> &mut Vec<f64>;

/// Every run's requests in one list, when every run has them.
fn pooled_samples(runs: &[&Run]) -> Option<RequestSamples> {
    let all: Vec<&RequestSamples> = runs
        .iter()
        .map(|r| r.samples.as_deref().filter(|s| !s.is_empty()))
        .collect::<Option<_>>()?;
    let mut pooled = RequestSamples::default();
    // A list some run lacks stays empty in the pool rather than misaligned.
    let every = |list: Read| all.iter().all(|s| !list(s).is_empty());
    let lists: [(Read, Write); 6] = [
        (|s| &s.ttft_ms, |s| &mut s.ttft_ms),
        (|s| &s.e2e_ms, |s| &mut s.e2e_ms),
        (|s| &s.tpot_ms, |s| &mut s.tpot_ms),
        (|s| &s.input_tokens, |s| &mut s.input_tokens),
        (|s| &s.output_tokens, |s| &mut s.output_tokens),
        (|s| &s.start_s, |s| &mut s.start_s),
    ];
    for s in &all {
        pooled.ok.extend_from_slice(&s.ok);
    }
    for (read, write) in lists {
        if every(read) {
            for s in &all {
                write(&mut pooled).extend_from_slice(read(s));
            }
        }
    }
    // Each run's clock starts at its first request: the runs follow one another in the pool, so
    // that neighbours in send order are neighbours within one run, never requests of two runs
    // interleaved.
    if every(|s| &s.start_s) {
        let mut offset = 0.0;
        pooled.start_s.clear();
        for s in &all {
            pooled.start_s.extend(s.start_s.iter().map(|t| t + offset));
            let last = s
                .start_s
                .iter()
                .copied()
                .filter(|t| t.is_finite())
                .fold(0.0, f64::max);
            offset += last + 1.0;
        }
    }
    pooled.sent_in_file_order = all.iter().all(|s| s.sent_in_file_order);
    Some(pooled)
}

/// The latency metrics every run reports: computed over the pooled requests where they hold
/// the metric, else each statistic the mean of the runs'. A metric some runs lack is left out,
/// with a warning saying so.
fn latency_of(
    runs: &[&Run],
    pooled: Option<&RequestSamples>,
    problems: &mut Vec<Problem>,
) -> Vec<LatencyMetric> {
    let mut out = Vec::new();
    for metric in Metric::ALL {
        let dists: Vec<&Distribution> = runs.iter().filter_map(|r| r.latency(metric)).collect();
        if dists.is_empty() {
            continue;
        }
        if dists.len() < runs.len() {
            problems.push(Problem::warning(
                &runs[0].provenance.file,
                runs[0].provenance.location.clone(),
                format!(
                    "{} of the {} runs combined at {} report {}: the combined run leaves it out",
                    dists.len(),
                    runs.len(),
                    runs[0].load.target,
                    metric.label()
                ),
            ));
            continue;
        }
        let sorted = pooled
            .and_then(|s| s.sorted(metric))
            .filter(|s| !s.is_empty());
        let distribution = match sorted {
            Some(sorted) => recomputed(sorted, &dists),
            None => averaged(&dists),
        };
        out.push(LatencyMetric {
            metric,
            distribution,
        });
    }
    out
}

/// The statistics the runs report, computed again over `sorted` (all their requests).
fn recomputed(sorted: &[f64], dists: &[&Distribution]) -> Distribution {
    let n = sorted.len() as f64;
    let mean = sorted.iter().sum::<f64>() / n;
    let std = (sorted.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    let mut d = Distribution {
        mean: Some(mean),
        median: quantile(sorted, 0.5),
        std: Some(std),
        min: sorted.first().copied(),
        max: sorted.last().copied(),
        percentiles: Vec::new(),
    };
    for p in dists.iter().flat_map(|d| d.percentiles.iter().map(|q| q.p)) {
        if let Some(v) = quantile(sorted, p / 100.0) {
            d.set_percentile(p, v);
        }
    }
    d
}

/// Each statistic that every distribution has, as the mean of theirs.
fn averaged(dists: &[&Distribution]) -> Distribution {
    let mean_of = |get: fn(&Distribution) -> Option<f64>| -> Option<f64> {
        let values: Option<Vec<f64>> = dists.iter().map(|d| get(d)).collect();
        values.map(|v| v.iter().sum::<f64>() / v.len() as f64)
    };
    let mut d = Distribution {
        mean: mean_of(|d| d.mean),
        median: mean_of(|d| d.median),
        std: mean_of(|d| d.std),
        min: dists.iter().filter_map(|d| d.min).reduce(f64::min),
        max: dists.iter().filter_map(|d| d.max).reduce(f64::max),
        percentiles: Vec::new(),
    };
    if dists.iter().any(|x| x.min.is_none()) {
        d.min = None;
    }
    if dists.iter().any(|x| x.max.is_none()) {
        d.max = None;
    }
    for q in &dists[0].percentiles {
        let values: Option<Vec<f64>> = dists.iter().map(|d| d.percentile(q.p)).collect();
        if let Some(v) = values {
            d.set_percentile(q.p, v.iter().sum::<f64>() / v.len() as f64);
        }
    }
    d
}

/// The mean of `get` over the runs, when every run has it.
fn mean_of(runs: &[&Run], get: impl Fn(&Run) -> Option<f64>) -> Option<f64> {
    let values: Option<Vec<f64>> = runs.iter().map(|r| get(r)).collect();
    values.map(|v| v.iter().sum::<f64>() / v.len() as f64)
}

/// The sum of `get` over the runs, when every run has it.
fn sum_of(runs: &[&Run], get: impl Fn(&Run) -> Option<u64>) -> Option<u64> {
    runs.iter()
        .map(|r| get(r))
        .try_fold(0u64, |sum, v| sum.checked_add(v?))
}

fn counts_of(runs: &[&Run]) -> RequestCounts {
    RequestCounts {
        total: sum_of(runs, |r| r.requests.total),
        succeeded: sum_of(runs, |r| r.requests.succeeded),
        failed: sum_of(runs, |r| r.requests.failed),
        incomplete: sum_of(runs, |r| r.requests.incomplete),
    }
}

fn throughput_of(runs: &[&Run]) -> Throughput {
    Throughput {
        output_tok_s: mean_of(runs, |r| r.throughput.output_tok_s),
        output_tok_s_per_user: mean_of(runs, |r| r.throughput.output_tok_s_per_user),
        total_tok_s: mean_of(runs, |r| r.throughput.total_tok_s),
        input_tok_s: mean_of(runs, |r| r.throughput.input_tok_s),
        requests_per_s: mean_of(runs, |r| r.throughput.requests_per_s),
        goodput_req_s: mean_of(runs, |r| r.throughput.goodput_req_s),
    }
}

fn tokens_of(runs: &[&Run], pooled: Option<&RequestSamples>) -> TokenStats {
    let length = |pooled_values: Option<&Vec<f64>>,
                  get: fn(&TokenStats) -> Option<&Distribution>| {
        if let Some(values) = pooled_values.filter(|v| !v.is_empty()) {
            let ok: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
            return (!ok.is_empty()).then(|| Distribution {
                mean: Some(ok.iter().sum::<f64>() / ok.len() as f64),
                ..Distribution::default()
            });
        }
        let dists: Option<Vec<&Distribution>> = runs.iter().map(|r| get(&r.tokens)).collect();
        dists.map(|d| averaged(&d))
    };
    TokenStats {
        total_input: sum_of(runs, |r| r.tokens.total_input),
        total_output: sum_of(runs, |r| r.tokens.total_output),
        input_len: length(pooled.map(|s| &s.input_tokens), |t| t.input_len.as_ref()),
        output_len: length(pooled.map(|s| &s.output_tokens), |t| t.output_len.as_ref()),
    }
}
