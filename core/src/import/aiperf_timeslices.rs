//! AIPerf's timeslices export (`profile_export_aiperf_timeslices.json`, written with
//! `--slice-duration`): `{"timeslices": [...], "input_config": {...}}`, each slice
//! `{start_ns, end_ns, <metric>: {unit, avg, p1 … p99, min, max, std}, request_count: {avg}, …}`,
//! the same metric objects as the run's summary, over one window of the run. Read as **one
//! run** whose [`TimeSlice`]s the windows chart draws as the run over time.
//!
//! The slices hold no statistic of the whole run but what they add up to: the run's mean,
//! minimum and maximum of each latency are combined from the slices (the mean weighted by each
//! slice's requests); its percentiles cannot be, and are left out, with a warning naming the
//! summary (`profile_export_aiperf.json`) that has them. Beside that summary, the slices join
//! its run and this file gives up its own ([`super::siblings`]). A slice in which every
//! request failed has no latencies; its failures are counted.

use serde_json::Value;

use super::fields::Fields;
use super::genai_perf::{model_and_load, slice_metrics};
use super::ImportedFile;
use crate::model::{
    ConfigIdentity, Distribution, LatencyMetric, Location, Metric, Producer, Provenance,
    RequestCounts, Run, Throughput, TimeSlice, TokenStats,
};
use crate::problem::Problem;

/// True for AIPerf's timeslices: `timeslices`, a list of objects with `start_ns`, and
/// `input_config`.
pub(super) fn is_timeslices(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    let first = obj
        .get("timeslices")
        .and_then(Value::as_array)
        .and_then(|l| l.first());
    first.is_some_and(|s| s.get("start_ns").is_some() && s.get("end_ns").is_some())
        && obj.get("input_config").is_some_and(Value::is_object)
}

/// Reads the file into one run with its slices.
pub(super) fn read_document(out: &mut ImportedFile, value: &Value, at: Location) {
    let Some(obj) = out.require(
        value.as_object(),
        &at,
        "expected an object with `timeslices` and `input_config`",
    ) else {
        return;
    };
    let mut top = Fields::new(obj, &out.file, at.clone());
    let (model, load) = model_and_load(&mut top);
    let list = obj.get("timeslices").and_then(Value::as_array);
    let mut slices = Vec::new();
    let mut first_ns = None;
    for (i, item) in list.into_iter().flatten().enumerate() {
        let place = at.child(&format!("timeslices[{i}]"));
        let Some(slice_obj) = item.as_object() else {
            top.problems.push(Problem::error(
                &out.file,
                place,
                "expected a time slice object; skipped",
            ));
            continue;
        };
        let mut f = Fields::new(slice_obj, &out.file, place);
        let (Some(start), Some(end)) = (f.non_negative("start_ns"), f.non_negative("end_ns"))
        else {
            f.error_at(
                "start_ns",
                "expected `start_ns` and `end_ns` in ns; this slice is skipped",
            );
            top.problems.append(&mut f.problems);
            continue;
        };
        let origin = *first_ns.get_or_insert(start);
        let metrics = slice_metrics(&mut f);
        top.problems.append(&mut f.problems);
        if (end - start) / 1e9 <= 0.0 {
            top.problems.push(Problem::error(
                &out.file,
                at.child(&format!("timeslices[{i}].end_ns")),
                format!("ends at {end} ns, not after its start {start} ns; this slice is skipped"),
            ));
            continue;
        }
        slices.push(TimeSlice {
            start_s: (start - origin) / 1e9,
            width_s: (end - start) / 1e9,
            succeeded: metrics.succeeded,
            failed: metrics.failed,
            latency: metrics.latency,
            output_tok_s: metrics.output_tok_s,
        });
    }
    if slices.is_empty() {
        top.problems.push(Problem::error(
            &out.file,
            at.child("timeslices"),
            "no time slice could be read; expected a list of slices with `start_ns`, `end_ns` \
             and metric objects",
        ));
        out.problems.append(&mut top.problems);
        return;
    }
    out.problems.append(&mut top.problems);
    out.runs.push(run_of(&out.file, at, model, load, slices));
}

/// The run the slices add up to.
fn run_of(
    file: &str,
    at: Location,
    model: Option<String>,
    load: crate::model::LoadPoint,
    slices: Vec<TimeSlice>,
) -> Run {
    // A count no slice states is unknown, never 0 (which would make the run a failed one).
    let sum = |get: fn(&TimeSlice) -> Option<u64>| -> Option<u64> {
        slices.iter().any(|s| get(s).is_some()).then(|| {
            slices
                .iter()
                .filter_map(get)
                .fold(0u64, u64::saturating_add)
        })
    };
    let succeeded = sum(|s| s.succeeded);
    let failed = sum(|s| s.failed);
    let span: f64 = slices.iter().map(|s| s.width_s).sum();
    let output: f64 = slices
        .iter()
        .filter_map(|s| Some(s.output_tok_s? * s.width_s))
        .sum();
    let throughput = Throughput {
        output_tok_s: slices
            .iter()
            .any(|s| s.output_tok_s.is_some())
            .then(|| output / span),
        requests_per_s: succeeded.map(|n| n as f64 / span),
        ..Throughput::default()
    };
    let latency = [Metric::Ttft, Metric::Ttst, Metric::Tpot, Metric::E2e]
        .into_iter()
        .filter_map(|metric| combined(&slices, metric))
        .collect();
    let mut run = Run::new(
        Provenance::new(file, at.clone(), Producer::Aiperf),
        ConfigIdentity {
            model,
            ..ConfigIdentity::default()
        },
        load,
    )
    .measured(
        RequestCounts::outcomes(succeeded, failed),
        latency,
        throughput,
        TokenStats::default(),
    );
    run.load.achieved_rps = run.throughput.requests_per_s;
    run.problems.push(Problem::warning(
        file,
        at,
        format!(
            "AIPerf's {} time slices of this run: its mean, minimum and maximum latencies are \
             combined from them, its percentiles cannot be; `profile_export_aiperf.json` \
             beside this file has them, and takes these slices into its run",
            slices.len()
        ),
    ));
    run.slices = slices;
    run
}

/// The whole run's distribution of `metric` from its slices: the mean weighted by each slice's
/// requests (unknown if a slice with the metric does not count them), the least minimum and
/// the greatest maximum.
fn combined(slices: &[TimeSlice], metric: Metric) -> Option<LatencyMetric> {
    let with: Vec<(&TimeSlice, &Distribution)> = slices
        .iter()
        .filter_map(|s| Some((s, &s.latency_of(metric)?.distribution)))
        .collect();
    if with.is_empty() {
        return None;
    }
    let weighted = with
        .iter()
        .map(|(s, d)| Some((s.succeeded? as f64, d.mean?)))
        .collect::<Option<Vec<(f64, f64)>>>();
    let mean = weighted.and_then(|w| {
        let n: f64 = w.iter().map(|(n, _)| n).sum();
        (n > 0.0).then(|| w.iter().map(|(n, m)| n * m).sum::<f64>() / n)
    });
    let fold = |get: fn(&Distribution) -> Option<f64>, pick: fn(f64, f64) -> f64| {
        with.iter()
            .map(|(_, d)| get(d))
            .try_fold(None, |acc: Option<f64>, v| {
                let v = v?;
                Some(Some(acc.map_or(v, |a| pick(a, v))))
            })?
    };
    Some(LatencyMetric {
        metric,
        distribution: Distribution {
            mean,
            min: fold(|d| d.min, f64::min),
            max: fold(|d| d.max, f64::max),
            ..Distribution::default()
        },
    })
}

#[cfg(test)]
mod tests;
