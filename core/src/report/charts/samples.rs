//! ```` ```chart ```` kinds drawn from per-request samples: `cdf` and `histogram` at one load
//! point, and `box` (the spread at each load point, from samples or reported percentiles).

use super::call::{ChartCall, ChartDirective};
use crate::analysis::BoxStats;
use crate::chart::{box_chart, cdf_chart, histogram_chart, Axis, ChartSpec, SeriesInput};
use crate::model::{Metric, Run};
use crate::report::context::ReportContext;
use crate::report::load::load_label;

/// Points kept per CDF curve (the exact point at the SLA is always kept).
const CDF_POINTS: usize = 400;

/// One configuration's per-request samples: legend name, palette slot, the successful requests'
/// values, how many requests failed, source.
type SampleSeries = (String, usize, Vec<f64>, usize, String);

/// How many of `run`'s requests failed: counted in its per-request data when it flags each
/// request, else the run's own count.
fn failed_requests(run: &Run) -> usize {
    match &run.samples {
        Some(samples) if !samples.ok.is_empty() => samples.ok.iter().filter(|ok| !**ok).count(),
        _ => run.requests.failed.unwrap_or(0) as usize,
    }
}

/// The per-request values of a latency metric on `run`, successes only.
fn samples_of(run: &Run, metric: Metric) -> Vec<f64> {
    let Some(samples) = &run.samples else {
        return Vec::new();
    };
    let Some(values) = samples.latencies(metric) else {
        return Vec::new();
    };
    values
        .iter()
        .zip(samples.ok.iter().chain(std::iter::repeat(&true)))
        .filter(|(v, ok)| **ok && v.is_finite())
        .map(|(v, _)| *v)
        .collect()
}

/// Per-request samples of `metric` for each configuration at the load asked for.
fn samples(
    ctx: &ReportContext<'_>,
    d: &ChartDirective,
    keys: &[String],
) -> Result<(Metric, Vec<SampleSeries>), String> {
    let metric = super::call::latency_metric(
        d,
        "needs a latency metric with per-request samples (ttft, tpot, e2e)",
    )?;
    let mut out = Vec::new();
    for key in keys {
        let (name, color) = ctx.display(key);
        let run = ctx.run_at(key, d.load.as_ref())?;
        let values = run.map(|r| samples_of(r, metric)).unwrap_or_default();
        let failed = run.map_or(0, failed_requests);
        if run.is_some_and(|r| r.samples.is_none())
            || (run.is_some() && values.is_empty() && failed == 0)
        {
            return Err(format!(
                "configuration `{key}` has no per-request {} samples at that load; the result \
                 file must carry per-request data",
                metric.label()
            ));
        }
        let source = run.map(|r| r.source()).unwrap_or_default();
        out.push((name, color, values, failed, source));
    }
    Ok((metric, out))
}

/// A CDF or histogram of per-request samples.
pub(super) fn samples_chart(
    ctx: &ReportContext<'_>,
    c: ChartCall<'_>,
    kind: &str,
) -> Result<ChartSpec, String> {
    let ChartCall { id, d, keys } = c;
    let (metric, data) = samples(ctx, d, keys)?;
    let inputs: Vec<SeriesInput<'_, [f64]>> = data
        .iter()
        .map(|(name, color, values, failed, source)| SeriesInput {
            name,
            color: *color,
            data: values.as_slice(),
            source,
            failed: *failed,
        })
        .collect();
    let axis = Axis::new(metric.label(), "ms");
    // A CDF's SLA is one line the reader moves, so one value.
    let sla = match d.sla.as_ref().map(super::call::Slas::values).as_deref() {
        None => None,
        Some([one]) => Some(*one),
        Some(_) => {
            return Err("`sla`: a CDF takes one value, the line a reader moves".into());
        }
    };
    let spec = if kind == "cdf" {
        cdf_chart(
            id,
            &format!("{} distribution (CDF)", metric.label()),
            axis,
            &inputs,
            sla,
            CDF_POINTS,
        )
    } else {
        histogram_chart(id, &format!("{} histogram", metric.label()), axis, &inputs)
    };
    Ok(spec)
}

/// Box plots of a latency at each load point: from per-request samples when the run has
/// them, else from its reported min, p25, median, p75 and max.
pub(super) fn boxes(ctx: &ReportContext<'_>, c: ChartCall<'_>) -> Result<ChartSpec, String> {
    let ChartCall { id, d, keys } = c;
    let metric =
        super::call::latency_metric(d, "`box` needs a latency metric (ttft, tpot, itl, e2e)")?;
    let loads = ctx.loads_of(keys);
    let categories: Vec<String> = loads.iter().map(load_label).collect();
    let mut inputs = Vec::new();
    for key in keys {
        let (name, color) = ctx.display(key);
        let runs = ctx.runs_of(key);
        let stats: Vec<Option<BoxStats>> = loads
            .iter()
            .map(|load| {
                let run = runs.iter().find(|r| r.load.target == *load)?;
                let samples = samples_of(run, metric);
                if samples.is_empty() {
                    run.latency(metric).and_then(BoxStats::from_distribution)
                } else {
                    BoxStats::from_samples(&samples)
                }
            })
            .collect();
        let source = runs
            .first()
            .map(|r| r.provenance.file.clone())
            .unwrap_or_default();
        inputs.push((name, color, stats, source));
    }
    let series: Vec<SeriesInput<'_, [Option<BoxStats>]>> = inputs
        .iter()
        .map(|(name, color, stats, source)| SeriesInput {
            name,
            color: *color,
            data: stats.as_slice(),
            source,
            failed: 0,
        })
        .collect();
    Ok(box_chart(
        id,
        &format!("{} spread by load", metric.label()),
        Axis::new(metric.label(), "ms"),
        categories,
        &series,
    ))
}
