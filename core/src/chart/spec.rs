//! What to draw: a [`ChartSpec`] carries the plotted values themselves (already reduced from
//! runs), its kind, axes, series and annotations, so a page needs no other data to draw,
//! tabulate or export a chart.

use serde::{Deserialize, Serialize};

use super::infinite_json;
use super::scale::Scale;
use crate::analysis::BoxStats;
use crate::quantity::Better;

/// Everything needed to draw one chart.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChartSpec {
    /// Identifier, unique within its report; used in URLs and file names.
    pub id: String,
    /// Title drawn above the chart.
    pub title: String,
    /// What the chart shows, in one sentence; also the text alternative.
    #[serde(default)]
    pub caption: String,
    /// The chart's kind and its kind-specific data.
    pub kind: ChartKind,
    /// Horizontal axis.
    pub x: Axis,
    /// Vertical axis.
    pub y: Axis,
    /// The data, one series per configuration (or per metric).
    pub series: Vec<Series>,
    /// Threshold lines and labelled markers drawn over the data (kinds with numeric axes).
    #[serde(default)]
    pub annotations: Vec<Annotation>,
    /// Other statistics of the same metric (p50, p99...) the reader can switch to: each replaces
    /// `series` and the y axis title. Empty when the chart has no such choice.
    #[serde(default)]
    pub alternatives: Vec<Alternative>,
}

/// A statistic a chart can be switched to, with its data.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Alternative {
    /// The choice as the reader sees it: `p99`, `mean`.
    pub label: String,
    /// The y axis title with that statistic: `TTFT p99`.
    pub y_title: String,
    /// The series, in the order of [`ChartSpec::series`].
    pub series: Vec<Series>,
}

impl ChartSpec {
    /// This chart switched to alternative `index` (`None`: as built) and to `scale` on y.
    pub fn with_view(&self, index: Option<usize>, y_scale: Option<Scale>) -> ChartSpec {
        let mut spec = self.clone();
        if let Some(alt) = index.and_then(|i| self.alternatives.get(i)) {
            if alt.y_title != self.y.title {
                spec.series = alt.series.clone();
                spec.y.title = alt.y_title.clone();
                spec.title = format!("{} ({})", self.title, alt.label);
            }
        }
        if let Some(scale) = y_scale {
            spec.y.scale = scale;
        }
        spec
    }

    /// The vertical threshold (a CDF's SLA line), if the chart has one.
    pub fn x_threshold(&self) -> Option<f64> {
        self.annotations.iter().find_map(|a| match a {
            Annotation::Threshold {
                axis: AxisName::X,
                value,
                ..
            } => Some(*value),
            _ => None,
        })
    }

    /// This chart with its vertical threshold at `value`, labelled `SLA <value> <unit>`.
    pub fn with_x_threshold(mut self, value: f64) -> ChartSpec {
        self.annotations.retain(|a| {
            !matches!(
                a,
                Annotation::Threshold {
                    axis: AxisName::X,
                    ..
                }
            )
        });
        self.annotations.push(Annotation::Threshold {
            axis: AxisName::X,
            value,
            label: format!("SLA {}", crate::format::with_unit(value, &self.x.unit)),
        });
        self
    }
}

/// The kinds of chart, serialised externally tagged (`"lines"`, `{"grouped_bars": {…}}`): the
/// browser then reads them without buffering (an internal tag costs serde a copy of every
/// deserializer underneath it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChartKind {
    /// Bars grouped per category, one bar per series in each group. A point's `x` is the index
    /// of its category. Percentile bars (p50/p90/p95/p99) are grouped bars too
    /// ([`percentile_bars`]).
    GroupedBars {
        /// Category labels, left to right.
        categories: Vec<String>,
    },
    /// A metric against load: one line per series over numeric `x` (concurrency, request rate;
    /// `+∞` sits at the right end under an `∞` tick). A point's optional `lo`/`hi` draw a band
    /// (p50 to p99, say). Missing values break the line and are marked on the x axis.
    Lines,
    /// Points at (`x`, `y`). When both axes say which direction is `better`, each series'
    /// Pareto frontier is drawn as a staircase.
    Scatter,
    /// Empirical CDFs: per series, points (`x` = value, `y` = percent of requests at or below)
    /// as made by [`cdf_chart`]. A vertical threshold annotation is labelled with each series'
    /// share at or below it.
    Cdf,
    /// Histograms over shared bins: a point's `x` is its bin index, `y` its count or share.
    Histogram {
        /// Bin edges, ascending; bin `i` is `edges[i]..edges[i + 1]`.
        edges: Vec<f64>,
    },
    /// Box plots per category, one box per series: a point's `x` is its category index, `y` the
    /// median and `summary` the five numbers and mean.
    #[serde(rename = "box")]
    Box {
        /// Category labels, left to right.
        categories: Vec<String>,
    },
    /// Head to head: one row per metric (each with its own unit and better direction), one
    /// horizontal bar per series; a point's `x` is its metric index. The best value of each row
    /// is marked with ✓.
    #[serde(rename = "hbars")]
    HBars {
        /// The rows, top to bottom.
        metrics: Vec<HBarMetric>,
    },
    /// Where the time goes: one horizontal bar per row, split into stacked parts, one series
    /// per part (before the first token, decoding). A point's `x` is its row index and `y` the
    /// part's length in the y axis' unit; each part is labelled with its share of the row.
    Stacked {
        /// The rows, top to bottom (a configuration at a load point).
        rows: Vec<String>,
    },
    /// A metric over time: one line per series through evenly spaced runs (dates or version
    /// labels), drawn like [`ChartKind::Lines`]; a point's `x` is the index of its run, its
    /// `lo`/`hi` the range the runs before it lead one to expect, and a regression is a
    /// [`Annotation::Marker`].
    Trend {
        /// The runs' labels, oldest first.
        runs: Vec<String>,
    },
}

impl Default for ChartKind {
    /// Grouped bars with no categories (specs are built field by field).
    fn default() -> Self {
        ChartKind::GroupedBars {
            categories: Vec::new(),
        }
    }
}

impl ChartKind {
    /// The label a point at `x` stands for when `x` is an index (a category, a bin, a metric):
    /// `Some("∞")`, `Some("100–200")`, `Some("TTFT p99")`; `None` for numeric kinds or an index
    /// out of range.
    pub fn x_label(&self, x: f64) -> Option<String> {
        let index = x.round();
        if !(index >= 0.0 && x.is_finite()) {
            return None;
        }
        let i = index as usize;
        match self {
            ChartKind::GroupedBars { categories } | ChartKind::Box { categories } => {
                categories.get(i).cloned()
            }
            ChartKind::Histogram { edges } => {
                let (lo, hi) = (edges.get(i)?, edges.get(i + 1)?);
                Some(format!(
                    "{}–{}",
                    crate::format::number(*lo),
                    crate::format::number(*hi)
                ))
            }
            ChartKind::HBars { metrics } => metrics.get(i).map(|m| m.label.clone()),
            ChartKind::Stacked { rows } | ChartKind::Trend { runs: rows } => rows.get(i).cloned(),
            ChartKind::Lines | ChartKind::Scatter | ChartKind::Cdf => None,
        }
    }
}

/// One row of a head-to-head chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HBarMetric {
    /// What is compared, e.g. `TTFT p99`.
    pub label: String,
    /// Its unit, e.g. `ms`; empty when it has none.
    #[serde(default)]
    pub unit: String,
    /// Which direction wins.
    pub better: Better,
}

/// An axis: title, unit, scale and, where it matters, which direction is better.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Axis {
    /// Title without the unit, e.g. `Mean TTFT`.
    pub title: String,
    /// Unit, e.g. `ms`; empty when the quantity has none.
    #[serde(default)]
    pub unit: String,
    /// Linear or log; kinds with a category axis ignore it there.
    #[serde(default)]
    pub scale: Scale,
    /// Which direction of this quantity is better (scatter frontiers use it).
    #[serde(default)]
    pub better: Option<Better>,
}

impl Axis {
    /// A linear axis with no better direction.
    pub fn new(title: impl Into<String>, unit: impl Into<String>) -> Axis {
        Axis {
            title: title.into(),
            unit: unit.into(),
            ..Axis::default()
        }
    }

    /// `Mean TTFT (ms)`.
    pub fn label(&self) -> String {
        if self.unit.is_empty() {
            self.title.clone()
        } else {
            format!("{} ({})", self.title, self.unit)
        }
    }
}

/// One series.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Legend name.
    pub name: String,
    /// Palette slot; the same configuration has the same slot everywhere.
    pub color: usize,
    /// The points, in x order.
    pub points: Vec<Point>,
}

/// One plotted value.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Position on the x axis (a category, bin or metric index for bar-like kinds). `+∞` (a
    /// request rate of "all at once") is written `"inf"` in JSON.
    #[serde(with = "infinite_json")]
    pub x: f64,
    /// The value; `None` when the run failed or did not report it (drawn as a marked gap).
    pub y: Option<f64>,
    /// Lower end of a band around `y` (e.g. p50 when `y` is the mean), for line charts.
    #[serde(default)]
    pub lo: Option<f64>,
    /// Upper end of the band (e.g. p99).
    #[serde(default)]
    pub hi: Option<f64>,
    /// The five-number summary a box plot draws (its `y` is the median).
    #[serde(default)]
    pub summary: Option<BoxStats>,
    /// The values the summary was made from, when few enough to show each: a box plot draws
    /// them as dots over the box, so two modes show where quartiles alone would hide them.
    /// (No `skip_serializing_if`: the site's data is a binary format that needs every field.)
    #[serde(default)]
    pub values: Vec<f64>,
    /// Where the value came from (`file:line`), shown in tooltips.
    #[serde(default)]
    pub source: String,
    /// Why `y` is missing, when it is.
    #[serde(default)]
    pub note: String,
    /// The value's 95% interval, when the data bounds it ([`crate::noise`]); where a chart
    /// draws nothing else around its points, `lo`/`hi` carry the same interval.
    #[serde(default)]
    pub ci: Option<[f64; 2]>,
    /// What the interval was computed from, as a tooltip says it: `from 400 requests`,
    /// `over 3 runs`.
    #[serde(default)]
    pub ci_basis: String,
    /// The site path of the result file the value came from (`results/nightly/…json`), for
    /// kinds where a point is one run (trends); empty otherwise. A click on the point opens it.
    #[serde(default)]
    pub link: String,
}

impl Point {
    /// A point with no band, source or note.
    pub fn new(x: f64, y: Option<f64>) -> Point {
        Point {
            x,
            y,
            ..Point::default()
        }
    }
}

/// Which axis an annotation belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AxisName {
    /// The horizontal axis (a vertical line).
    X,
    /// The vertical axis (a horizontal line).
    Y,
}

/// Something drawn over the data (externally tagged, like [`ChartKind`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Annotation {
    /// A dashed line at `value` on `axis`: an SLA on a latency axis (horizontal, `axis: y`) or
    /// on a CDF's latency axis (vertical, `axis: x`).
    Threshold {
        /// The axis the value is on.
        axis: AxisName,
        /// Where the line is.
        value: f64,
        /// What it means, e.g. `SLA 500 ms`; the value with its unit when empty.
        #[serde(default)]
        label: String,
    },
    /// A ring with a label at (`x`, `y`), e.g. a series' breaking point. Drawn in the series'
    /// colour and hidden with it when `series` is given.
    Marker {
        /// Index into [`ChartSpec::series`].
        #[serde(default)]
        series: Option<usize>,
        /// Horizontal position (`+∞`, written `"inf"`, for the `∞` slot).
        #[serde(with = "infinite_json")]
        x: f64,
        /// Vertical position.
        y: f64,
        /// What it marks.
        label: String,
    },
    /// A series' fitted line, `y = intercept + slope · x` from `from` to `to` on the x axis (the
    /// range of the points it was fitted to), drawn in the series' colour and hidden with it;
    /// `label` (e.g. `10.2 ms/token`) sits at its right end.
    Fit {
        /// Index into [`ChartSpec::series`].
        series: usize,
        /// Change in y per unit of x.
        slope: f64,
        /// y at x = 0.
        intercept: f64,
        /// Where the line starts on the x axis.
        from: f64,
        /// Where it ends.
        to: f64,
        /// What it says.
        label: String,
    },
}

impl ChartSpec {
    /// Whether a reader can zoom into it: lines over numbers and scatter plots.
    pub fn zoomable(&self) -> bool {
        matches!(self.kind, ChartKind::Lines | ChartKind::Scatter)
    }
}
