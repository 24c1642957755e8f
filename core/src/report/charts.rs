//! ```` ```chart ```` blocks: a directive (YAML) naming the kind, the data and the options,
//! turned into a [`ChartSpec`] from the report's runs. Every name a directive uses (metric,
//! statistic, configuration, load point) is checked, and a mistake is an error at its line.
//!
//! | kind | what it draws | keys |
//! |---|---|---|
//! | `bars` (default) | a metric by load point, a bar per configuration | `metric`, `stat` |
//! | `lines` | a metric against load, a line per configuration | `metric`, `stat`, `band: [p50, p99]`, `x_scale`, `y_scale`, `sla`, `breaking` |
//! | `percentiles` | p50/p90/p95/p99 bars per configuration at one load | `metric`, `load`, `percentiles` |
//! | `hbars` | head to head: several metrics at one load, the better side marked | `metrics: [ttft:p50, output_throughput]`, `load` |
//! | `scatter` | one quantity against another over the sweep, with Pareto frontiers | `x`, `y`, `x_scale`, `y_scale` |
//! | `cdf` | share of requests under each latency (per-request samples) | `metric`, `load`, `sla` |
//! | `histogram` | distribution of per-request latencies | `metric`, `load` |
//! | `box` | per-request latency spread at each load point | `metric` |
//! | `grid` | small multiples: any of the above side by side | `panels: [{kind: lines, metric: ttft}, ...]`, `columns` |
//!
//! Every kind takes `id`, `title`, `caption` and `configs` (which configurations, in order).

use gray_matter::engine::{Engine, YAML};
use serde::Deserialize;

use super::context::ReportContext;
use super::load::LoadText;
use crate::analysis::{breaking_point, BoxStats, BreakingRule, LoadObservation};
use crate::chart::{
    box_chart, cdf_chart, histogram_chart, percentile_bars, Alternative, Annotation, Axis,
    AxisName, ChartKind, ChartSpec, HBarMetric, Point, Scale, Series, SeriesInput,
    STANDARD_PERCENTILES,
};
use crate::model::{LoadAxis, LoadTarget, Location, Metric, Rate, Run, Stat};
use crate::problem::Problem;
use crate::quantity::{Better, Quantity};
use crate::site::{Block, ChartGrid};

pub(super) mod tokens;

/// Points kept per CDF curve (the exact point at the SLA is always kept).
const CDF_POINTS: usize = 400;

/// The keys a chart block may have, for error messages.
const KEYS: &str = "id, title, caption, kind, metric, stat, metrics, x, y, load, configs, \
                    x_scale, y_scale, band, sla, breaking, percentiles, panels, columns";

/// A ```` ```chart ```` block.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChartDirective {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    caption: Option<String>,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    metric: Option<String>,
    #[serde(default)]
    stat: Option<String>,
    #[serde(default)]
    metrics: Option<Vec<String>>,
    #[serde(default)]
    x: Option<String>,
    #[serde(default)]
    y: Option<String>,
    #[serde(default)]
    load: Option<LoadText>,
    #[serde(default)]
    configs: Option<Vec<String>>,
    #[serde(default)]
    x_scale: Option<String>,
    #[serde(default)]
    y_scale: Option<String>,
    #[serde(default)]
    band: Option<Vec<String>>,
    #[serde(default)]
    sla: Option<f64>,
    #[serde(default)]
    breaking: Option<bool>,
    #[serde(default)]
    percentiles: Option<Vec<f64>>,
    #[serde(default)]
    panels: Option<Vec<ChartDirective>>,
    #[serde(default)]
    columns: Option<usize>,
}

/// What a chart block gave: one chart or a grid of them.
#[derive(Debug, Clone, PartialEq)]
pub enum Built {
    /// One chart.
    Chart(ChartSpec),
    /// Small multiples.
    Grid(ChartGrid),
}

impl Built {
    /// Every id it takes: the chart's, or the grid's and its panels'.
    pub fn ids(&self) -> Vec<String> {
        match self {
            Built::Chart(c) => vec![c.id.clone()],
            Built::Grid(g) => std::iter::once(g.id.clone())
                .chain(g.panels.iter().map(|p| p.id.clone()))
                .collect(),
        }
    }

    /// As a block of the page.
    pub fn into_block(self) -> Block {
        match self {
            Built::Chart(chart) => Block::Chart { chart },
            Built::Grid(grid) => Block::Grid { grid },
        }
    }
}

/// A chart id must be usable as a file name and in a URL.
fn check_id(id: &str) -> Result<(), String> {
    if crate::site::is_valid_chart_id(id) {
        Ok(())
    } else {
        Err(format!(
            "chart block: id `{id}` cannot be a file name; expected letters, digits, `-` and `_` (at most 64)"
        ))
    }
}

impl ReportContext<'_> {
    /// Builds the chart (or grid of charts) of the block whose body starts at `line`; `n`
    /// numbers it for its default id.
    pub fn chart(&self, body: &str, line: usize, n: usize) -> Result<Built, Problem> {
        let at = Location::line(line as u64);
        let error = |message: String| Problem::error(self.file, at.clone(), message);
        let pod =
            YAML::parse(body).map_err(|e| error(format!("chart block is not valid YAML: {e}")))?;
        let d: ChartDirective = pod
            .deserialize()
            .map_err(|e| error(format!("chart block: {e}; expected keys {KEYS}")))?;
        let id = d.id.clone().unwrap_or_else(|| format!("chart-{n}"));
        if d.kind.as_deref() != Some("grid") {
            return self.spec(&id, d).map(Built::Chart).map_err(error);
        }
        let panels =
            d.panels.clone().filter(|p| !p.is_empty()).ok_or_else(|| {
                error(format!("grid `{id}`: expected `panels`, a list of charts"))
            })?;
        let mut specs = Vec::new();
        for (i, mut panel) in panels.into_iter().enumerate() {
            if panel.kind.as_deref() == Some("grid") {
                return Err(error(format!("grid `{id}`: a panel cannot be a grid")));
            }
            // Panels inherit the grid's configurations unless they name their own.
            if panel.configs.is_none() {
                panel.configs = d.configs.clone();
            }
            let panel_id = panel
                .id
                .clone()
                .unwrap_or_else(|| format!("{id}-{}", i + 1));
            specs.push(self.spec(&panel_id, panel).map_err(&error)?);
        }
        check_id(&id).map_err(error)?;
        Ok(Built::Grid(ChartGrid {
            id,
            title: d.title.unwrap_or_default(),
            caption: d.caption.unwrap_or_default(),
            columns: d.columns.unwrap_or(2).clamp(1, 4),
            panels: specs,
        }))
    }

    /// One chart from its directive.
    fn spec(&self, id: &str, d: ChartDirective) -> Result<ChartSpec, String> {
        check_id(id)?;
        let keys = self
            .config_keys(d.configs.as_deref())
            .map_err(|e| format!("chart `{id}`: {e}"))?;
        let kind = d.kind.as_deref().unwrap_or("bars");
        let spec = match kind {
            "bars" => self.bars(id, &d, &keys),
            "lines" => self.lines(id, &d, &keys),
            "percentiles" => self.percentiles(id, &d, &keys),
            "hbars" => self.hbars(id, &d, &keys),
            "scatter" => self.scatter(id, &d, &keys),
            "cdf" | "histogram" => self.samples_chart(id, kind, &d, &keys),
            "box" => self.boxes(id, &d, &keys),
            "tokens" => self.tokens(id, &d, &keys),
            other => Err(format!(
                "unknown kind `{other}`; expected bars, lines, percentiles, hbars, scatter, cdf, histogram, box, tokens or grid"
            )),
        }
        .map_err(|e| format!("chart `{id}`: {e}"))?;
        if spec
            .series
            .iter()
            .all(|s| s.points.iter().all(|p| p.y.is_none()))
        {
            let what = Self::quantity(&d)
                .map_or_else(|_| "data for it".to_string(), |q| format!("reports {q}"));
            return Err(format!(
                "chart `{id}`: no run of {} {what}",
                keys.join(", ")
            ));
        }
        Ok(ChartSpec {
            title: d.title.unwrap_or(spec.title),
            caption: d.caption.unwrap_or(spec.caption),
            ..spec
        })
    }

    /// The configuration keys to plot: the directive's, checked, or every key in the report's
    /// runs, in front matter order first.
    pub(super) fn config_keys(&self, wanted: Option<&[String]>) -> Result<Vec<String>, String> {
        let mut present: Vec<String> = Vec::new();
        for run in self.runs {
            let key = run.config.key();
            if !present.contains(&key) {
                present.push(key);
            }
        }
        match wanted {
            Some(wanted) => {
                for key in wanted {
                    if !present.contains(key) {
                        return Err(format!(
                            "configuration `{key}` is not in this report's results; found {}",
                            present.join(", ")
                        ));
                    }
                }
                Ok(wanted.to_vec())
            }
            None => {
                let mut ordered: Vec<String> = self
                    .front
                    .configs
                    .iter()
                    .map(|c| c.key.clone())
                    .filter(|k| present.contains(k))
                    .collect();
                for key in present {
                    if !ordered.contains(&key) {
                        ordered.push(key);
                    }
                }
                Ok(ordered)
            }
        }
    }

    /// Legend name and palette slot of a configuration.
    pub fn display(&self, key: &str) -> (String, usize) {
        let shown = self.front.configs.iter().find(|c| c.key == key);
        let label = shown
            .and_then(|c| c.label.clone())
            .unwrap_or_else(|| key.to_string());
        let slot = shown
            .and_then(|c| c.color)
            .or_else(|| self.palette.get(key).copied())
            .unwrap_or(0);
        (label, slot)
    }

    /// The runs of configuration `key`, sorted by load.
    pub(super) fn runs_of(&self, key: &str) -> Vec<&Run> {
        let mut runs: Vec<&Run> = self
            .runs
            .iter()
            .copied()
            .filter(|r| r.config.key() == key)
            .collect();
        runs.sort_by(|a, b| load_order(&a.load.target).total_cmp(&load_order(&b.load.target)));
        runs
    }

    /// Every load point of the configurations `keys`, in increasing load.
    fn loads_of(&self, keys: &[String]) -> Vec<LoadTarget> {
        let mut loads: Vec<LoadTarget> = Vec::new();
        for key in keys {
            for run in self.runs_of(key) {
                if !loads.contains(&run.load.target) {
                    loads.push(run.load.target);
                }
            }
        }
        loads.sort_by(|a, b| load_order(a).total_cmp(&load_order(b)));
        loads
    }

    /// The run of `key` at `load`, or its only run when no load is given.
    fn run_at(&self, key: &str, load: Option<&LoadText>) -> Result<Option<&Run>, String> {
        let runs = self.runs_of(key);
        match load {
            Some(load) => {
                load.parse()?;
                Ok(runs
                    .into_iter()
                    .find(|r| load.matches(&r.load.target).unwrap_or(false)))
            }
            None if runs.len() <= 1 => Ok(runs.into_iter().next()),
            None => Err(format!(
                "configuration `{key}` has {} load points; say which with `load:` (one of {})",
                runs.len(),
                runs.iter()
                    .map(|r| load_label(&r.load.target))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    fn quantity(d: &ChartDirective) -> Result<Quantity, String> {
        let metric = d
            .metric
            .as_deref()
            .ok_or("this kind needs `metric`, for example `metric: ttft`")?;
        Quantity::parse(metric, d.stat.as_deref())
    }

    /// Grouped bars: one group per load point, one bar per configuration.
    fn bars(&self, id: &str, d: &ChartDirective, keys: &[String]) -> Result<ChartSpec, String> {
        let quantity = Self::quantity(d)?;
        let loads = self.loads_of(keys);
        let categories: Vec<String> = loads.iter().map(load_label).collect();
        let series_of = |q: Quantity| -> Vec<Series> {
            keys.iter()
                .map(|key| {
                    let (name, color) = self.display(key);
                    let runs = self.runs_of(key);
                    let points = loads
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
                            Some(point(i as f64, q, run))
                        })
                        .collect();
                    Series {
                        name,
                        color,
                        points,
                    }
                })
                .collect()
        };
        let series = series_of(quantity);
        let alternatives = alternatives(quantity, series_of);
        let x_title = loads.first().map_or("Load", |l| l.axis().title());
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
            annotations: Vec::new(),
            alternatives,
        })
    }

    /// A line per configuration over its load points, with an optional percentile band, SLA
    /// line and breaking-point markers.
    fn lines(&self, id: &str, d: &ChartDirective, keys: &[String]) -> Result<ChartSpec, String> {
        let quantity = Self::quantity(d)?;
        let band = match d.band.as_deref() {
            None => None,
            Some([lo, hi]) => {
                let parse = |s: &str| {
                    Stat::parse(s).ok_or_else(|| {
                        format!("`band` statistic `{s}` is not one of mean, median, min, max, pNN")
                    })
                };
                let Quantity::Latency { metric, .. } = quantity else {
                    return Err("`band` needs a latency metric (ttft, tpot, itl, e2e)".into());
                };
                Some((metric, parse(lo)?, parse(hi)?))
            }
            Some(_) => return Err("`band` takes two statistics, for example `[p50, p99]`".into()),
        };
        let axis = self.load_axis(keys)?;
        let mut series = Vec::new();
        let mut annotations = Vec::new();
        for (index, key) in keys.iter().enumerate() {
            let (name, color) = self.display(key);
            let runs: Vec<&Run> = self
                .runs_of(key)
                .into_iter()
                .filter(|r| r.load.target.axis() == axis && r.load.target.value().is_some())
                .collect();
            let points: Vec<Point> = runs
                .iter()
                .map(|run| {
                    let x = run.load.target.value().unwrap_or(f64::NAN);
                    let mut p = point(x, quantity, run);
                    if let (Some((metric, lo, hi)), Some(_)) = (band, p.y) {
                        p.lo = run.latency_stat(metric, lo);
                        p.hi = run.latency_stat(metric, hi);
                    }
                    p
                })
                .collect();
            if d.breaking.unwrap_or(false) {
                let observations: Vec<LoadObservation> = runs
                    .iter()
                    .zip(&points)
                    .map(|(run, p)| LoadObservation {
                        load: p.x,
                        value: p.y,
                        error_rate: run.requests.success_rate().map(|s| (1.0 - s) * 100.0),
                    })
                    .collect();
                let rule = BreakingRule {
                    better: quantity.better(),
                    ..BreakingRule::default()
                };
                if let Some(found) = breaking_point(&observations, &rule) {
                    let y = points
                        .get(found.index)
                        .and_then(|p| p.y)
                        .or_else(|| points.iter().filter_map(|p| p.y).next())
                        .unwrap_or(0.0);
                    annotations.push(Annotation::Marker {
                        series: Some(index),
                        x: found.load,
                        y,
                        label: format!("{name} breaks"),
                    });
                }
            }
            series.push(Series {
                name,
                color,
                points,
            });
        }
        if let Some(sla) = d.sla {
            annotations.push(Annotation::Threshold {
                axis: AxisName::Y,
                value: sla,
                label: format!("SLA {}", crate::format::with_unit(sla, quantity.unit())),
            });
        }
        let alternatives = alternatives(quantity, |q| {
            keys.iter()
                .map(|key| {
                    let (name, color) = self.display(key);
                    let points = self
                        .runs_of(key)
                        .into_iter()
                        .filter(|r| r.load.target.axis() == axis)
                        .filter_map(|run| Some(point(run.load.target.value()?, q, run)))
                        .collect();
                    Series {
                        name,
                        color,
                        points,
                    }
                })
                .collect()
        });
        let mut x = Axis::new(axis.title(), "");
        x.scale = scale(d.x_scale.as_deref())?;
        let mut y = quantity_axis(quantity);
        y.scale = scale(d.y_scale.as_deref())?;
        let band_note = band.map_or(String::new(), |(_, lo, hi)| {
            format!(" The band spans {lo} to {hi}.")
        });
        Ok(ChartSpec {
            id: id.to_string(),
            title: format!("{quantity} by {}", axis.title().to_lowercase()),
            caption: format!(
                "{quantity} ({}) against {}, by configuration.{band_note}",
                quantity.unit(),
                axis.title().to_lowercase()
            ),
            kind: ChartKind::Lines,
            x,
            y,
            series,
            annotations,
            alternatives,
        })
    }

    /// The load axis shared by the chosen configurations: the one most of their runs are on.
    fn load_axis(&self, keys: &[String]) -> Result<LoadAxis, String> {
        let mut counts: Vec<(LoadAxis, usize)> = Vec::new();
        for key in keys {
            for run in self.runs_of(key) {
                let axis = run.load.target.axis();
                if axis == LoadAxis::None {
                    continue;
                }
                match counts.iter_mut().find(|(a, _)| *a == axis) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((axis, 1)),
                }
            }
        }
        counts
            .into_iter()
            .max_by_key(|(_, n)| *n)
            .map(|(a, _)| a)
            .ok_or_else(|| {
                "no run has a load point (concurrency, request rate or batch size)".into()
            })
    }

    /// Percentile bars of one metric at one load, a bar per configuration.
    fn percentiles(
        &self,
        id: &str,
        d: &ChartDirective,
        keys: &[String],
    ) -> Result<ChartSpec, String> {
        let quantity = Self::quantity(d)?;
        let Quantity::Latency { metric, .. } = quantity else {
            return Err("`percentiles` needs a latency metric (ttft, tpot, itl, e2e)".into());
        };
        let mut inputs = Vec::new();
        for key in keys {
            let (name, color) = self.display(key);
            let run = self.run_at(key, d.load.as_ref())?;
            let distribution = run
                .filter(|r| !r.all_failed())
                .and_then(|r| r.latency(metric))
                .cloned()
                .unwrap_or_default();
            let source = run.map(|r| r.provenance.to_string()).unwrap_or_default();
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
        Ok(percentile_bars(
            id,
            &title,
            Axis::new(metric.label(), "ms"),
            &series,
            percentiles,
        ))
    }

    /// Head to head: a row per metric, a bar per configuration, at one load.
    fn hbars(&self, id: &str, d: &ChartDirective, keys: &[String]) -> Result<ChartSpec, String> {
        let names = d.metrics.as_deref().ok_or(
            "`hbars` needs `metrics`, for example `[ttft:p50, tpot:p50, output_throughput]`",
        )?;
        let quantities: Vec<Quantity> = names
            .iter()
            .map(|m| {
                let (metric, stat) = match m.split_once(':') {
                    Some((metric, stat)) => (metric, Some(stat)),
                    None => (m.as_str(), None),
                };
                Quantity::parse(metric, stat)
            })
            .collect::<Result<_, _>>()?;
        let metrics: Vec<HBarMetric> = quantities
            .iter()
            .map(|q| HBarMetric {
                label: q.to_string(),
                unit: q.unit().to_string(),
                better: q.better(),
            })
            .collect();
        let mut series = Vec::new();
        for key in keys {
            let (name, color) = self.display(key);
            let run = self.run_at(key, d.load.as_ref())?;
            let points = quantities
                .iter()
                .enumerate()
                .map(|(i, q)| match run {
                    Some(run) => point(i as f64, *q, run),
                    None => Point {
                        x: i as f64,
                        note: "no run at this load".to_string(),
                        ..Point::default()
                    },
                })
                .collect();
            series.push(Series {
                name,
                color,
                points,
            });
        }
        Ok(ChartSpec {
            id: id.to_string(),
            title: "Head to head".to_string(),
            caption: "Each metric side by side; ✓ marks the better configuration.".to_string(),
            kind: ChartKind::HBars { metrics },
            x: Axis::new("Value", ""),
            y: Axis::new("Metric", ""),
            series,
            annotations: Vec::new(),
            alternatives: Vec::new(),
        })
    }

    /// One quantity against another over each configuration's sweep.
    fn scatter(&self, id: &str, d: &ChartDirective, keys: &[String]) -> Result<ChartSpec, String> {
        let parse = |field: &str, text: Option<&String>| -> Result<Quantity, String> {
            let text = text.ok_or_else(|| {
                format!("`scatter` needs `{field}`, for example `x: output_throughput` and `y: ttft:p99`")
            })?;
            match text.split_once(':') {
                Some((metric, stat)) => Quantity::parse(metric, Some(stat)),
                None => Quantity::parse(text, None),
            }
        };
        let qx = parse("x", d.x.as_ref())?;
        let qy = parse("y", d.y.as_ref())?;
        let series = keys
            .iter()
            .map(|key| {
                let (name, color) = self.display(key);
                let points = self
                    .runs_of(key)
                    .into_iter()
                    .filter_map(|run| {
                        let x = qx.of(run)?;
                        let mut p = point(x, qy, run);
                        p.note = format!("at {}", load_label(&run.load.target));
                        Some(p)
                    })
                    .collect();
                Series {
                    name,
                    color,
                    points,
                }
            })
            .collect();
        let mut x = quantity_axis(qx);
        x.scale = scale(d.x_scale.as_deref())?;
        let mut y = quantity_axis(qy);
        y.scale = scale(d.y_scale.as_deref())?;
        Ok(ChartSpec {
            id: id.to_string(),
            title: format!("{qy} against {qx}"),
            caption: format!(
                "Each point is one load point; {} is better, and the line joins each \
                 configuration's best trade-offs.",
                corner(qx.better(), qy.better())
            ),
            kind: ChartKind::Scatter,
            x,
            y,
            series,
            annotations: Vec::new(),
            alternatives: Vec::new(),
        })
    }

    /// Per-request samples of `metric` for each configuration at the load asked for.
    fn samples(
        &self,
        d: &ChartDirective,
        keys: &[String],
    ) -> Result<(Metric, Vec<SampleSeries>), String> {
        let quantity = Self::quantity(d)?;
        let Quantity::Latency { metric, .. } = quantity else {
            return Err("needs a latency metric with per-request samples (ttft, tpot, e2e)".into());
        };
        let mut out = Vec::new();
        for key in keys {
            let (name, color) = self.display(key);
            let run = self.run_at(key, d.load.as_ref())?;
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
            let source = run.map(|r| r.provenance.to_string()).unwrap_or_default();
            out.push((name, color, values, failed, source));
        }
        Ok((metric, out))
    }

    /// A CDF or histogram of per-request samples.
    fn samples_chart(
        &self,
        id: &str,
        kind: &str,
        d: &ChartDirective,
        keys: &[String],
    ) -> Result<ChartSpec, String> {
        let (metric, data) = self.samples(d, keys)?;
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
        let spec = if kind == "cdf" {
            cdf_chart(
                id,
                &format!("{} distribution (CDF)", metric.label()),
                axis,
                &inputs,
                d.sla,
                CDF_POINTS,
            )
        } else {
            histogram_chart(id, &format!("{} histogram", metric.label()), axis, &inputs)
        };
        Ok(spec)
    }

    /// Box plots of a latency at each load point: from per-request samples when the run has
    /// them, else from its reported min, p25, median, p75 and max.
    fn boxes(&self, id: &str, d: &ChartDirective, keys: &[String]) -> Result<ChartSpec, String> {
        let quantity = Self::quantity(d)?;
        let Quantity::Latency { metric, .. } = quantity else {
            return Err("`box` needs a latency metric (ttft, tpot, itl, e2e)".into());
        };
        let loads = self.loads_of(keys);
        let categories: Vec<String> = loads.iter().map(load_label).collect();
        let mut inputs = Vec::new();
        for key in keys {
            let (name, color) = self.display(key);
            let runs = self.runs_of(key);
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
}

/// The statistics a latency chart can switch between, each with the series `series_of` builds
/// for it; only those some configuration reports. Throughputs and rates have no choice.
fn alternatives(
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

/// One point of `quantity` on `run`, with its source and, when missing, why.
fn point(x: f64, quantity: Quantity, run: &Run) -> Point {
    let y = quantity.of(run);
    let note = match (y, run.all_failed()) {
        (None, true) => "every request failed".to_string(),
        (None, false) => format!("{quantity} not reported"),
        _ => String::new(),
    };
    Point {
        x,
        y,
        source: run.provenance.to_string(),
        note,
        ..Point::default()
    }
}

/// The per-request values of a latency metric on `run`, successes only.
fn samples_of(run: &Run, metric: Metric) -> Vec<f64> {
    let Some(samples) = &run.samples else {
        return Vec::new();
    };
    let values = match metric {
        Metric::Ttft => &samples.ttft_ms,
        Metric::E2e => &samples.e2e_ms,
        Metric::Tpot => &samples.tpot_ms,
        _ => return Vec::new(),
    };
    values
        .iter()
        .zip(samples.ok.iter().chain(std::iter::repeat(&true)))
        .filter(|(v, ok)| **ok && v.is_finite())
        .map(|(v, _)| *v)
        .collect()
}

fn quantity_axis(quantity: Quantity) -> Axis {
    let mut axis = Axis::new(quantity.to_string(), quantity.unit());
    axis.better = Some(quantity.better());
    axis
}

fn scale(text: Option<&str>) -> Result<Scale, String> {
    match text.map(str::trim) {
        None | Some("linear") => Ok(Scale::Linear),
        Some("log") => Ok(Scale::Log),
        Some(other) => Err(format!("scale `{other}` is not `linear` or `log`")),
    }
}

/// Where a scatter's better corner is: `lower right` for throughput (x, higher) against a
/// latency (y, lower).
fn corner(x: Better, y: Better) -> &'static str {
    match (x, y) {
        (Better::Higher, Better::Lower) => "lower right",
        (Better::Higher, Better::Higher) => "upper right",
        (Better::Lower, Better::Lower) => "lower left",
        (Better::Lower, Better::Higher) => "upper left",
    }
}

/// Sort key of a load point; loads without a value last.
fn load_order(load: &LoadTarget) -> f64 {
    load.value().unwrap_or(f64::MAX)
}

/// The label of a load point on a category axis: `10`, `∞`.
pub(super) fn load_label(load: &LoadTarget) -> String {
    match load {
        LoadTarget::RequestRate(Rate::Infinite) => "∞".to_string(),
        other => other
            .value()
            .map_or_else(|| other.to_string(), crate::format::number),
    }
}
