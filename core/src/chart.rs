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
mod draw;
mod frame;
mod grid;
mod hbars;
mod header;
mod histogram;
mod infinite_json;
pub mod inline;
mod lines;
mod look;
mod options;
mod plot;
pub mod scale;
mod scatter;
mod size;
mod spec;
mod stacked;
pub mod synthetic;
mod text;
pub mod theme;
mod view_state;
pub mod zoom;

pub use builders::{
    box_chart, box_point, cdf_chart, histogram_chart, percentile_bars, SeriesInput,
    STANDARD_PERCENTILES,
};
pub use draw::draw;
#[cfg(feature = "svg")]
pub use draw::to_svg;
pub use frame::{Frame, Target};
#[cfg(feature = "svg")]
pub use grid::grid_to_svg;
pub use grid::{draw_grid, grid_cells, grid_legend};
pub use options::{DrawError, DrawOptions};
pub use scale::{nice_ceiling, Scale};
pub use size::{
    export_size, narrow_size, page_drawings, preferred_height, size_at, EXPORT_WIDTH, MEDIUM_WIDTH,
    NARROW_WIDTH, PAGE_DRAWINGS, SMALL_WIDTH,
};
pub use spec::{
    Alternative, Annotation, Axis, AxisName, ChartKind, ChartSpec, HBarMetric, Point, Series,
};
pub use theme::{Theme, ThemeName};
pub use view_state::ViewState;
pub use zoom::{PlotArea, Zoom};

#[cfg(test)]
mod tests;
