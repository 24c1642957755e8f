//! One chart being built: the directive a block holds as read ([`ChartDirective`]), the call
//! each kind gets ([`ChartCall`]), and what every kind builds with (the quantity a directive
//! names, a point of a run, the value axis, SLA lines, the statistics a reader may switch to).

use serde::Deserialize;

use crate::chart::{Alternative, Axis, Point, Scale, Series};
use crate::model::{Metric, Run, Stat};
use crate::quantity::Quantity;
use crate::report::load::LoadText;

/// The keys a chart block may have, for error messages.
pub(super) const KEYS: &str =
    "id, title, caption, kind, metric, stat, metrics, x, y, load, configs, \
                    series, fit, x_scale, y_scale, band, error_bars, sla, breaking, speedup, \
                    percentiles, categories, tokens, share, parts, window, \
                    min_change, panels, columns, span";

/// One chart being built, as each kind gets it: its id, its directive, and the configurations
/// it shows, in order.
#[derive(Clone, Copy)]
pub(super) struct ChartCall<'a> {
    pub(super) id: &'a str,
    pub(super) d: &'a ChartDirective,
    pub(super) keys: &'a [String],
}

/// A ```` ```chart ```` block.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ChartDirective {
    #[serde(default)]
    pub(super) id: Option<String>,
    #[serde(default)]
    pub(super) title: Option<String>,
    #[serde(default)]
    pub(super) caption: Option<String>,
    #[serde(default)]
    pub(super) kind: Option<String>,
    #[serde(default)]
    pub(super) metric: Option<String>,
    #[serde(default)]
    pub(super) stat: Option<String>,
    #[serde(default)]
    pub(super) metrics: Option<Vec<String>>,
    #[serde(default)]
    pub(super) x: Option<String>,
    #[serde(default)]
    pub(super) y: Option<String>,
    #[serde(default)]
    pub(super) load: Option<LoadText>,
    #[serde(default)]
    pub(super) configs: Option<Vec<String>>,
    #[serde(default)]
    pub(super) series: Option<Vec<SeriesGroup>>,
    #[serde(default)]
    pub(super) fit: Option<bool>,
    #[serde(default)]
    pub(super) x_scale: Option<String>,
    #[serde(default)]
    pub(super) y_scale: Option<String>,
    #[serde(default)]
    pub(super) band: Option<Vec<String>>,
    #[serde(default)]
    pub(super) error_bars: Option<String>,
    #[serde(default)]
    pub(super) sla: Option<Slas>,
    #[serde(default)]
    pub(super) breaking: Option<bool>,
    #[serde(default)]
    pub(super) speedup: Option<bool>,
    #[serde(default)]
    pub(super) percentiles: Option<Vec<f64>>,
    #[serde(default)]
    pub(super) categories: Option<Vec<f64>>,
    #[serde(default)]
    pub(super) tokens: Option<String>,
    #[serde(default)]
    pub(super) share: Option<bool>,
    #[serde(default)]
    pub(super) parts: Option<Vec<String>>,
    #[serde(default)]
    pub(super) window: Option<f64>,
    #[serde(default)]
    pub(super) min_change: Option<f64>,
    #[serde(default)]
    pub(super) panels: Option<Vec<ChartDirective>>,
    #[serde(default)]
    pub(super) columns: Option<usize>,
    #[serde(default)]
    pub(super) span: Option<usize>,
}

/// A line of a `lines` chart made of several configurations (`series: [{name, configs}]`):
/// each configuration's runs are points along the tokens axis, as seed 004 draws a line per
/// prompt length through scenarios measured one by one.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SeriesGroup {
    pub(super) name: String,
    pub(super) configs: Vec<String>,
    /// Palette slot; the first configuration's when not given.
    #[serde(default)]
    pub(super) color: Option<usize>,
}

/// `sla: 1500` or `sla: [1500, 2000]`: dashed guide lines on the value axis.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub(super) enum Slas {
    One(f64),
    Many(Vec<f64>),
}

impl Slas {
    /// The values, in the order written.
    pub(super) fn values(&self) -> Vec<f64> {
        match self {
            Slas::One(v) => vec![*v],
            Slas::Many(v) => v.clone(),
        }
    }
}

/// The quantity a chart block plots: its `metric` and `stat`.
pub(super) fn quantity(d: &ChartDirective) -> Result<Quantity, String> {
    let metric = d
        .metric
        .as_deref()
        .ok_or("this kind needs `metric`, for example `metric: ttft`")?;
    Quantity::parse(metric, d.stat.as_deref())
}

/// The latency metric of the directive's `metric`; any other quantity is the error `needs`.
pub(super) fn latency_metric(d: &ChartDirective, needs: &str) -> Result<Metric, String> {
    match quantity(d)? {
        Quantity::Latency { metric, .. } => Ok(metric),
        _ => Err(needs.to_string()),
    }
}

/// The statistics a latency chart can switch between, each with the series `series_of` builds
/// for it; only those some configuration reports. Throughputs and rates have no choice.
pub(super) fn alternatives(
    quantity: Quantity,
    series_of: impl Fn(Quantity) -> Vec<Series>,
) -> Vec<Alternative> {
    let Quantity::Latency { metric, .. } = quantity else {
        return Vec::new();
    };
    let choices: Vec<Alternative> = [
        Stat::Mean,
        Stat::Median,
        Stat::P(90.0),
        Stat::P(95.0),
        Stat::P(99.0),
    ]
    .into_iter()
    .map(|stat| {
        let q = Quantity::Latency { metric, stat };
        Alternative {
            label: stat.to_string(),
            y_title: q.to_string(),
            series: series_of(q),
        }
    })
    .filter(|alt| {
        alt.series
            .iter()
            .any(|s| s.points.iter().any(|p| p.y.is_some()))
    })
    .collect();
    // A choice of one is no choice.
    if choices.len() > 1 {
        choices
    } else {
        Vec::new()
    }
}

/// One point of `quantity` on `run`, with its source, its 95% interval (as `lo`/`hi`, which
/// bars draw as a whisker and lines as a band) and, when missing, why.
pub(super) fn point(x: f64, quantity: Quantity, run: &Run) -> Point {
    let y = quantity.of(run);
    let note = match (y, run.all_failed()) {
        (None, true) => "every request failed".to_string(),
        (None, false) => format!("{quantity} not reported{}", quantity.lacking(run)),
        _ => String::new(),
    };
    let estimate = y.and_then(|_| crate::noise::estimate(quantity, run));
    let interval = estimate.and_then(|e| e.interval);
    Point {
        x,
        y,
        lo: interval.map(|(i, _)| i.lo),
        hi: interval.map(|(i, _)| i.hi),
        source: run.source(),
        note,
        ci: interval.map(|(i, _)| [i.lo, i.hi]),
        ci_basis: interval.map(|(_, b)| b.text()).unwrap_or_default(),
        ..Point::default()
    }
}

/// A dashed SLA line at `value` on the y axis, labelled `SLA 1,500 ms`.
pub(super) fn sla_line(value: f64, unit: &str) -> crate::chart::Annotation {
    crate::chart::Annotation::Threshold {
        axis: crate::chart::AxisName::Y,
        value,
        label: format!("SLA {}", crate::format::with_unit(value, unit)),
    }
}

/// The latency limits the benchmark of `runs` set on `quantity` (MLPerf's p99 TTFT and TPOT),
/// each once, as lines labelled with whose rule they are.
pub(super) fn limit_lines<'a>(
    runs: impl IntoIterator<Item = &'a crate::model::Run>,
    quantity: Quantity,
) -> Vec<crate::chart::Annotation> {
    let Quantity::Latency { metric, stat } = quantity else {
        return Vec::new();
    };
    let mut limits: Vec<&crate::model::LatencyLimit> = Vec::new();
    for run in runs {
        for limit in &run.workload.limits {
            let same = |l: &&crate::model::LatencyLimit| l.ms == limit.ms && l.by == limit.by;
            if limit.metric == metric && limit.stat == stat && !limits.iter().any(same) {
                limits.push(limit);
            }
        }
    }
    limits
        .into_iter()
        .map(|l| crate::chart::Annotation::Threshold {
            axis: crate::chart::AxisName::Y,
            value: l.ms,
            label: format!("{} limit {}", l.by, crate::format::with_unit(l.ms, "ms")),
        })
        .collect()
}

/// The value axis of `quantity`: its name, unit and better direction.
pub(super) fn quantity_axis(quantity: Quantity) -> Axis {
    let mut axis = Axis::new(quantity.to_string(), quantity.unit());
    axis.better = Some(quantity.better());
    axis
}

/// A chart block's `scale`: linear (the default) or log.
pub(super) fn scale(text: Option<&str>) -> Result<Scale, String> {
    match text.map(str::trim) {
        None | Some("linear") => Ok(Scale::Linear),
        Some("log") => Ok(Scale::Log),
        Some(other) => Err(format!("scale `{other}` is not `linear` or `log`")),
    }
}
