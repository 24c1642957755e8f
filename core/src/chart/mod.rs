//! Charts: a serialisable [`ChartSpec`] (what to draw) and one drawing function per kind,
//! generic over plotters' `DrawingBackend`, so the canvas in the browser and the SVG written by
//! the build come from the same code.
//!
//! A spec carries the plotted values themselves (already reduced from runs), so a page needs no
//! other data to draw, tabulate or export a chart.

mod bars;
mod header;
pub mod theme;

use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

pub use theme::{Theme, ThemeName};

/// Everything needed to draw one chart.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChartSpec {
    /// Identifier, unique within its report; used in URLs and file names.
    pub id: String,
    /// Title drawn above the chart.
    pub title: String,
    /// What the chart shows, in one sentence; also the text alternative.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub caption: String,
    /// The chart's kind and its kind-specific data.
    pub kind: ChartKind,
    /// Horizontal axis.
    pub x: Axis,
    /// Vertical axis.
    pub y: Axis,
    /// The data, one series per configuration (or per metric).
    pub series: Vec<Series>,
}

/// The kinds of chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ChartKind {
    /// Bars grouped per category, one bar per series in each group. A point's `x` is the index
    /// of its category.
    GroupedBars {
        /// Category labels, left to right.
        categories: Vec<String>,
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

/// An axis: title and unit.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Axis {
    /// Title without the unit, e.g. `Mean TTFT`.
    pub title: String,
    /// Unit, e.g. `ms`; empty when the quantity has none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub unit: String,
}

impl Axis {
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
    /// Position on the x axis (a category index for bar charts).
    pub x: f64,
    /// The value; `None` when the run failed or did not report it (drawn as a marked gap).
    pub y: Option<f64>,
    /// Where the value came from (`file:line`), shown in tooltips.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// Why `y` is missing, when it is.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// Where a drawn chart put things, in backend pixels: what hover and keyboard navigation need.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Frame {
    /// Pixel position of every drawn point: (series index, point index, x, y).
    pub targets: Vec<Target>,
}

/// A point's place on the drawing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Target {
    /// Index into [`ChartSpec::series`].
    pub series: usize,
    /// Index into [`Series::points`].
    pub point: usize,
    /// Horizontal pixel position of the point's anchor (a bar's top centre).
    pub x: i32,
    /// Vertical pixel position.
    pub y: i32,
}

impl Frame {
    /// The target nearest to pixel (x, y), if any lies within `radius` pixels.
    pub fn nearest(&self, x: i32, y: i32, radius: i32) -> Option<Target> {
        let r2 = i64::from(radius) * i64::from(radius);
        self.targets
            .iter()
            .map(|t| {
                let dx = i64::from(t.x - x);
                let dy = i64::from(t.y - y);
                (dx * dx + dy * dy, t)
            })
            .filter(|(d, _)| *d <= r2)
            .min_by_key(|(d, _)| *d)
            .map(|(_, t)| *t)
    }
}

/// Drawing options that are not part of the data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DrawOptions {
    /// Colours.
    pub theme: Theme,
    /// Series indices to leave out (hidden from the legend by the reader).
    pub hidden: u64,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            theme: Theme::named(ThemeName::Light),
            hidden: 0,
        }
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
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    options: &DrawOptions,
) -> Result<Frame, DrawError> {
    area.fill(&options.theme.background)?;
    match &spec.kind {
        ChartKind::GroupedBars { categories } => bars::draw(area, spec, categories, options),
    }
}

/// Largest y value over visible series, for axis ranges.
fn max_y(spec: &ChartSpec, options: &DrawOptions) -> Option<f64> {
    spec.series
        .iter()
        .enumerate()
        .filter(|(i, _)| !options.is_hidden(*i))
        .flat_map(|(_, s)| s.points.iter().filter_map(|p| p.y))
        .filter(|v| v.is_finite())
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
    Ok(out)
}

#[cfg(test)]
mod tests;
