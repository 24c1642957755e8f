//! Reusable pieces of pages.

mod chart;
mod chart_image;
mod diagram;
mod downloads;
mod drop;
mod filters;
mod flowchart;
pub mod fresh;
mod grid;
mod handler;
mod legend;
mod prices;
mod problems;
mod wizard;
mod zoom;

pub use chart::ChartView;
pub use chart_image::Drawings;
pub use downloads::{Download, Downloads};
#[cfg(feature = "csr")]
pub use drop::hand_over;
pub use drop::{accept_drops_anywhere, DropZone};
pub use filters::{FilterPanel, Filters};
pub use flowchart::FlowchartView;
pub use grid::GridView;
pub use handler::handler;
pub use prices::{PricePanel, Prices};
pub use problems::{LoadErrorPanel, ProblemList};
pub use wizard::Wizard;
