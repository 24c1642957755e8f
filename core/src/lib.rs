//! benchdeck's logic, free of any browser or file-system dependency: it is tested natively and
//! used by the CLI (site build, `inspect`, SVG export) and by the browser app alike.
//!
//! The pipeline is data in, data out:
//! 1. [`import`] turns result files (bytes) into canonical [`model::Run`]s and located
//!    [`problem::Problem`]s;
//! 2. [`quantity`] reads one measurable value from a run;
//! 3. `report` (feature `site`) renders a Markdown report with its chart directives into a
//!    [`site::ReportPage`], and `build` does it for the whole site;
//! 4. [`chart`] draws a [`chart::ChartSpec`] on any plotters backend.

pub mod analysis;
pub mod chart;
pub mod compare;
pub mod cost;
pub mod date;
pub mod decision;
pub mod export;
#[cfg(test)]
mod fixtures;
pub mod format;
pub mod history;
pub mod html;
pub mod import;
pub mod input;
pub mod json;
pub mod location;
pub mod model;
pub mod noise;
pub mod number;
pub mod order;
pub mod printable;
pub mod problem;
pub mod quantity;
pub mod random;
pub mod site;
pub mod telemetry;
pub mod versus;
pub mod yaml;

#[cfg(feature = "site")]
pub mod assemble;
#[cfg(feature = "site")]
pub mod markdown;
#[cfg(feature = "site")]
pub mod report;
