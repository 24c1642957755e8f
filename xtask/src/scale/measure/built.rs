//! A built site and what it holds: its reports, runs and result files, its files and bytes,
//! and how long its build took.

use std::path::PathBuf;

/// How long one build took, and its hooks.
#[derive(Debug, Clone, Copy, Default)]
pub struct BuildTime {
    /// The whole `trunk build`.
    pub total: f64,
    /// The `benchdeck site` hook (data, chart SVGs, link-preview PNGs, runs, published result files).
    pub site: Option<f64>,
    /// The `benchdeck pages` hook (entry and embed pages).
    pub pages: Option<f64>,
}

/// One built site and what it holds.
#[derive(Debug, Clone)]
pub(super) struct Site {
    pub(super) name: String,
    pub(super) dir: PathBuf,
    pub(super) reports: usize,
    pub(super) runs: usize,
    pub(super) result_files: usize,
    pub(super) result_bytes: u64,
    pub(super) time: BuildTime,
    pub(super) files: usize,
    pub(super) bytes: u64,
    pub(super) html_bytes: u64,
    pub(super) html_pages: usize,
}
