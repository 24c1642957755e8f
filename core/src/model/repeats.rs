//! [`Repeats`]: the runs that one combined run stands for, when a configuration was measured
//! several times at one load point on one day (a sweep's `run=0.json`, `run=1.json`; a
//! nightly job run twice). `crate::noise::combine` makes them; every chart, table and value
//! then reads the combined run, and its intervals come from the runs' spread or their pooled
//! requests.

use serde::{Deserialize, Serialize};

use super::Run;

/// The runs a combined run stands for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Repeats {
    /// How many runs were combined (two or more).
    pub count: usize,
    /// True when the combined run's requests are all the runs' requests pooled (each had
    /// per-request values); false when its statistics are the means of the runs'.
    pub pooled: bool,
    /// Where each run came from (`file#place`), in the order they were read.
    pub sources: Vec<String>,
    /// The runs as read, for intervals over runs (their per-request values are in the combined
    /// run when pooled, not here).
    #[serde(skip)]
    pub runs: Vec<Run>,
}

impl Repeats {
    /// `3 runs`, as tooltips and tables say it.
    pub fn text(&self) -> String {
        format!("{} runs", self.count)
    }
}
