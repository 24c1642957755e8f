//! ```` ```chart ```` kinds drawn as bars: `bars` (a metric by load point, a bar per
//! configuration) and `percentiles` (p50 to p99 at one load); `hbars` is in `hbars.rs`.

use super::call::{alternatives, point, quantity_axis, ChartCall};
use crate::chart::{
    percentile_bars, Axis, ChartKind, ChartSpec, Series, SeriesInput, STANDARD_PERCENTILES,
};
use crate::quantity::Quantity;
use crate::report::context::ReportContext;
use crate::report::load::load_label;

/// Grouped bars: one group per load point, one bar per configuration.
pub(super) fn bars(ctx: &ReportContext<'_>, c: ChartCall<'_>) -> Result<ChartSpec, String> {
    let ChartCall { id, d, keys } = c;
    let quantity = super::call::quantity(d)?;
    let sigma = super::consistency::error_bars(quantity, d.error_bars.as_deref())?;
    let loads = ctx.loads_of(keys);
    let categories: Vec<String> = loads.iter().map(load_label).collect();
    let series_of = |q: Quantity| -> Vec<Series> {
        ctx.series_per_config(keys, |key| {
            let runs = ctx.runs_of(key);
            loads
                .iter()
                .enumerate()
                .filter_map(|(i, load)| {
                    // Of several runs at one load (say, an offline throughput and an
                    // offline latency run), the first that reports the quantity.
                    let mut at_load = runs.iter().filter(|r| r.load.target == *load);
                    let run = at_load
                        .clone()
                        .find(|r| q.of(r).is_some())
                        .or_else(|| at_load.next())?;
                    let p = point(i as f64, q, run);
                    // Error bars belong to the mean they were asked for.
                    Some(match sigma.filter(|_| q == quantity) {
                        Some(metric) => super::consistency::with_sigma(p, run, metric),
                        None => p,
                    })
                })
                .collect()
        })
    };
    let series = series_of(quantity);
    let alternatives = alternatives(quantity, series_of);
    let x_title = loads.first().map_or("Load", |l| l.axis().title());
    let mut annotations = d.sla.as_ref().map_or_else(Vec::new, |slas| {
        slas.values()
            .into_iter()
            .map(|v| super::call::sla_line(v, quantity.unit()))
            .collect()
    });
    let drawn = keys.iter().flat_map(|k| ctx.runs_of(k));
    annotations.extend(super::call::limit_lines(drawn, quantity));
    Ok(ChartSpec {
        id: id.to_string(),
        title: format!("{quantity} by load"),
        caption: format!(
            "{quantity} ({}) at each load point, by configuration.",
            quantity.unit()
        ),
        kind: ChartKind::GroupedBars { categories },
        x: Axis::new(x_title, ""),
        y: quantity_axis(quantity),
        series,
        annotations,
        alternatives,
    })
}

/// Percentile bars of one metric at one load, a bar per configuration.
pub(super) fn percentiles(ctx: &ReportContext<'_>, c: ChartCall<'_>) -> Result<ChartSpec, String> {
    let ChartCall { id, d, keys } = c;
    let metric = super::call::latency_metric(
        d,
        "`percentiles` needs a latency metric (ttft, tpot, itl, e2e)",
    )?;
    let mut inputs = Vec::new();
    for key in keys {
        let (name, color) = ctx.display(key);
        let run = ctx.run_at(key, d.load.as_ref())?;
        let distribution = run
            .filter(|r| !r.all_failed())
            .and_then(|r| r.latency(metric))
            .cloned()
            .unwrap_or_default();
        let source = run.map(|r| r.source()).unwrap_or_default();
        inputs.push((name, color, distribution, source));
    }
    let series: Vec<SeriesInput<'_, _>> = inputs
        .iter()
        .map(|(name, color, data, source)| SeriesInput {
            name,
            color: *color,
            data,
            source,
            failed: 0,
        })
        .collect();
    let percentiles = d.percentiles.as_deref().unwrap_or(&STANDARD_PERCENTILES);
    let at = d
        .load
        .as_ref()
        .and_then(|l| l.parse().ok().map(|(v, _)| v))
        .map_or(String::new(), |v| {
            format!(" at {}", crate::format::number(v))
        });
    let title = format!("{} percentiles{at}", metric.label());
    let mut spec = percentile_bars(
        id,
        &title,
        Axis::new(metric.label(), "ms"),
        &series,
        percentiles,
    );
    if let Some(slas) = &d.sla {
        spec.annotations.extend(
            slas.values()
                .into_iter()
                .map(|v| super::call::sla_line(v, "ms")),
        );
    }
    if percentiles.contains(&99.0) {
        let drawn = keys
            .iter()
            .filter_map(|k| ctx.run_at(k, d.load.as_ref()).ok().flatten());
        let p99 = Quantity::Latency {
            metric,
            stat: crate::model::Stat::P(99.0),
        };
        spec.annotations
            .extend(super::call::limit_lines(drawn, p99));
    }
    Ok(spec)
}
