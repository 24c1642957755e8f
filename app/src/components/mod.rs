//! Reusable pieces of pages.

mod chart;
mod problems;

pub use chart::ChartView;
pub use problems::{LoadErrorPanel, ProblemList};
