//! Reusable pieces of pages.

mod chart;
mod problems;
mod wizard;

pub use chart::ChartView;
pub use problems::{LoadErrorPanel, ProblemList};
pub use wizard::Wizard;
