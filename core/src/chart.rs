//! Charts: a serialisable [`ChartSpec`] (what to draw) and one drawing function per kind,
//! generic over plotters' `DrawingBackend`, so the canvas in the browser and the SVG written by
//! the build come from the same code.
//!
//! A spec carries the plotted values themselves (already reduced from runs), so a page needs no
//! other data to draw, tabulate or export a chart. The kinds: grouped bars (`bars`), metric
//! against load (`lines`), scatter with Pareto frontiers (`scatter`), latency CDFs (`cdf`),
//! histograms (`histogram`), box plots (`boxplot`), head-to-head bars (`hbars`) and where the
//! time goes (`stacked`); several specs can share one drawing as small multiples
//! ([`draw_grid`]). `builders` turns
//! distributions and samples into specs; `scale` holds the pure axis arithmetic; `synthetic`
//! makes the deterministic charts the speed benchmarks draw.

mod bars;
mod boxplot;
mod builders;
mod cdf;
pub mod dots;
mod frame;
mod grid;
mod hbars;
mod header;
mod histogram;
mod infinite_json;
pub mod inline;
mod lines;
mod look;
mod plot;
pub mod scale;
mod scatter;
mod stacked;
pub mod synthetic;
mod text;
pub mod theme;
mod view_state;
pub mod zoom;

use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use crate::analysis::BoxStats;
use crate::quantity::Better;

pub use builders::{
    box_chart, box_point, cdf_chart, histogram_chart, percentile_bars, SeriesInput,
    STANDARD_PERCENTILES,
};
pub use frame::{Frame, Target};
#[cfg(feature = "svg")]
pub use grid::grid_to_svg;
pub use grid::{draw_grid, grid_cells, grid_legend};
pub use scale::Scale;
pub use theme::{Theme, ThemeName};
pub use view_state::ViewState;
pub use zoom::{PlotArea, Zoom};

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

/// Width of the chart files the build writes (SVG; the PNGs have twice its pixels), in pixels.
pub const EXPORT_WIDTH: u32 = 960;

/// Width of the second drawing a pre-rendered page carries for narrow screens (phones), in
/// pixels: about a phone's chart box, so its text reads at the page's size.
pub const NARROW_WIDTH: u32 = 360;

/// Width of the drawing a pre-rendered page carries for boxes between a phone's and a desktop's
/// (a tablet, a grid's panel in one column), in pixels: without it those boxes showed the wide
/// drawing scaled down, its text at 7-8 pixels.
pub const MEDIUM_WIDTH: u32 = 640;

/// Width of the drawing a pre-rendered page carries for boxes a little wider than a phone's (a
/// grid's panel beside another on a desktop, a phone held sideways), in pixels: the phone's
/// drawing, as tall as such a box, left a fifth of its width empty.
pub const SMALL_WIDTH: u32 = 480;

/// The drawings a pre-rendered page carries of each chart, widest first: the class the page gives
/// each and the width it is drawn at. The stylesheet shows the one drawn nearest the chart box's
/// width (`style/main.css`: narrow up to 420 px, small up to 560, medium up to 840, wide above),
/// so that it fills the box and its smallest text (11 px drawn) is at least 9.5 px on screen.
pub const PAGE_DRAWINGS: [(&str, u32); 4] = [
    ("wide", EXPORT_WIDTH),
    ("medium", MEDIUM_WIDTH),
    ("small", SMALL_WIDTH),
    ("narrow", NARROW_WIDTH),
];

/// The size of `spec`'s exported SVG: [`EXPORT_WIDTH`] wide and its [`preferred_height`] at that
/// width.
pub fn export_size(spec: &ChartSpec) -> (u32, u32) {
    size_at(spec, EXPORT_WIDTH)
}

/// The size of `spec`'s drawing for narrow screens: [`NARROW_WIDTH`] wide and its
/// [`preferred_height`] there, the height the page's box has at that width.
pub fn narrow_size(spec: &ChartSpec) -> (u32, u32) {
    size_at(spec, NARROW_WIDTH)
}

/// The size of `spec`'s drawing `width` pixels wide: that width and its [`preferred_height`]
/// there, the height the page's box has at that width.
pub fn size_at(spec: &ChartSpec, width: u32) -> (u32, u32) {
    let height = preferred_height(spec, f64::from(width)).round() as u32;
    (width, height.max(1))
}

/// The height a chart wants at `width` pixels: a 16:9-ish figure for plots, and for head-to-head
/// bars just enough for their rows, so a short comparison does not float in empty space.
pub fn preferred_height(spec: &ChartSpec, width: f64) -> f64 {
    match &spec.kind {
        ChartKind::HBars { metrics } => {
            let bars = spec.series.len().max(1) as f64;
            let rows = metrics.len().max(1) as f64;
            (74.0 + rows * (bars * 22.0 + 8.0)).clamp(140.0, 900.0)
        }
        ChartKind::Stacked { rows } => {
            // Title and legend, then per row its label, bar and gap (see `stacked`).
            (70.0 + rows.len().max(1) as f64 * 49.0).clamp(120.0, 900.0)
        }
        _ => (width * 0.56).clamp(260.0, 460.0),
    }
}

/// Drawing options that are not part of the data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DrawOptions {
    /// Colours.
    pub theme: Theme,
    /// Series indices to leave out (hidden from the legend by the reader).
    pub hidden: u64,
    /// Draw the legend under the title. Files (SVG, PNG) carry theirs; a page's drawing leaves
    /// it to the page's own interactive legend, so a chart has one legend, not two.
    pub legend: bool,
    /// The part of the data a reader zoomed into (lines and scatter; other kinds ignore it).
    pub zoom: Option<Zoom>,
    /// Name each line at its end where the name fits (line charts); small multiples, which
    /// share one legend, leave it out.
    pub direct_labels: bool,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            theme: Theme::named(ThemeName::Light),
            hidden: 0,
            legend: true,
            zoom: None,
            direct_labels: true,
        }
    }
}

impl ChartSpec {
    /// Whether a reader can zoom into it: lines over numbers and scatter plots.
    pub fn zoomable(&self) -> bool {
        matches!(self.kind, ChartKind::Lines | ChartKind::Scatter)
    }
}

impl DrawOptions {
    /// True when series `i` is hidden.
    pub fn is_hidden(&self, i: usize) -> bool {
        i < 64 && self.hidden & (1 << i) != 0
    }
}

/// Why a chart could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum DrawError {
    /// The backend failed (canvas gone, string write failed...).
    #[error("drawing backend failed: {0}")]
    Backend(String),
    /// The spec has nothing to draw.
    #[error("chart `{0}` has no data to draw")]
    Empty(String),
}

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for DrawError {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        DrawError::Backend(e.to_string())
    }
}

/// Draws `spec` on `area`: the one entry point for every backend.
///
/// A spec with nothing to draw (no series, no points, no categories) is
/// [`DrawError::Empty`], never a blank chart. Hidden series keep their legend entry (so the
/// reader can show them again) and draw nothing else.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    options: &DrawOptions,
) -> Result<Frame, DrawError> {
    area.fill(&options.theme.background)?;
    draw_kind(area, spec, options, options.legend)
}

/// Draws `spec` without filling the background; `legend` is false in small multiples, which
/// share one legend.
fn draw_kind<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    options: &DrawOptions,
    legend: bool,
) -> Result<Frame, DrawError> {
    match &spec.kind {
        ChartKind::GroupedBars { categories } => {
            bars::draw(area, spec, categories, options, legend)
        }
        ChartKind::Lines => lines::draw(area, spec, None, options, legend),
        ChartKind::Trend { runs } => lines::draw(area, spec, Some(runs), options, legend),
        ChartKind::Scatter => scatter::draw(area, spec, options, legend),
        ChartKind::Cdf => cdf::draw(area, spec, options, legend),
        ChartKind::Histogram { edges } => histogram::draw(area, spec, edges, options, legend),
        ChartKind::Box { categories } => boxplot::draw(area, spec, categories, options, legend),
        ChartKind::HBars { metrics } => hbars::draw(area, spec, metrics, options, legend),
        ChartKind::Stacked { rows } => stacked::draw(area, spec, rows, options, legend),
    }
}

/// Bar axes do not stretch beyond this (plotters' tick arithmetic overflows near `f64::MAX`);
/// larger values run off the top.
const MAX_BAR_VALUE: f64 = 1e15;

/// Largest y value over visible series, for axis ranges.
fn max_y(spec: &ChartSpec, options: &DrawOptions) -> Option<f64> {
    max_over_points(spec, options, |p| p.y)
}

/// Largest value `of` the visible series' points gives (a bar's top, its error bar's top),
/// within the range a bar axis can hold.
fn max_over_points(
    spec: &ChartSpec,
    options: &DrawOptions,
    of: impl Fn(&Point) -> Option<f64>,
) -> Option<f64> {
    spec.series
        .iter()
        .enumerate()
        .filter(|(i, _)| !options.is_hidden(*i))
        .flat_map(|(_, s)| s.points.iter().filter_map(&of))
        .filter(|v| v.is_finite() && v.abs() < MAX_BAR_VALUE)
        .max_by(f64::total_cmp)
}

/// A "nice" upper bound for an axis that starts at zero: 1, 2, 2.5 or 5 times a power of ten.
pub fn nice_ceiling(max: f64) -> f64 {
    if !(max.is_finite() && max > 0.0) {
        return 1.0;
    }
    let magnitude = 10f64.powf(max.log10().floor());
    [1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|&c| c >= max * 1.0001)
        .unwrap_or(10.0 * magnitude)
}

/// Renders `spec` as a standalone SVG document string.
#[cfg(feature = "svg")]
pub fn to_svg(
    spec: &ChartSpec,
    size: (u32, u32),
    options: &DrawOptions,
) -> Result<String, DrawError> {
    let mut out = String::new();
    {
        let root = plotters_svg::SVGBackend::with_string(&mut out, size).into_drawing_area();
        draw(&root, spec, options)?;
        root.present()?;
    }
    Ok(text_at_drawn_size(&out))
}

/// plotters' SVG backend writes every `font-size` 1.24 times smaller than the size it was given
/// (a points-to-pixels guess of its own), so an SVG's text came out 19% smaller than the same
/// chart's on a canvas, and smaller than the layout made room for. This puts each size back to
/// the one the drawing asked for, so the files, the PNGs made from them and the page's canvas
/// all show one text size.
#[cfg(feature = "svg")]
pub(crate) fn text_at_drawn_size(svg: &str) -> String {
    const ATTRIBUTE: &str = "font-size=\"";
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(at) = rest.find(ATTRIBUTE) {
        let (head, tail) = rest.split_at(at + ATTRIBUTE.len());
        out.push_str(head);
        let end = tail.find('"').unwrap_or(tail.len());
        match tail[..end].parse::<f64>() {
            Ok(size) => out.push_str(&format!("{}", (size * 1.24 * 100.0).round() / 100.0)),
            Err(_) => out.push_str(&tail[..end]),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests;
