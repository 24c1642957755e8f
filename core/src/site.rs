//! The built site as data: what the build writes and the app reads.
//!
//! The app never sees raw result files for a built report: it fetches `data/index.bin`
//! ([`SiteIndex`]) and `data/reports/<slug>.bin` ([`ReportPage`]), in the binary form of
//! [`wire`], whose charts already carry their plotted values. These types are the contract
//! between `benchdeck site` and the app.

mod address;
pub mod filter;
mod paths;
mod route;
pub mod wire;

use serde::{Deserialize, Serialize};

pub use address::{encode_path, result_file_href, served_file};
pub use paths::{
    chart_card_svg_paths, chart_csv_path, chart_dark_svg_path, chart_png_path, chart_svg_path,
    embed_page_path, report_data_path, result_file_path, runs_csv_path, runs_json_path,
    BENCH_PAGE_PATH, INDEX_PATH, LOCAL_PAGE_PATH, LOCAL_SLUG, NOT_FOUND_META,
    OPEN_DROPPED_FUNCTION, RESERVED_SLUGS,
};
pub use route::Route;

use crate::chart::ChartSpec;
use crate::problem::Problem;

/// The largest single file a reader may drop on the site: 100 MiB. The browser holds a file, its
/// parsed form and its runs in memory at once; a larger file is refused with this limit named.
pub const LOCAL_MAX_FILE_BYTES: u64 = 100 * 1024 * 1024;

/// The most a reader may drop at once, all files together: 300 MiB.
pub const LOCAL_MAX_TOTAL_BYTES: u64 = 300 * 1024 * 1024;

/// Why a set of dropped files is refused before reading: each file over
/// [`LOCAL_MAX_FILE_BYTES`], or the total over [`LOCAL_MAX_TOTAL_BYTES`]. Empty when they may be
/// read. `files` are names with sizes in bytes.
pub fn local_size_refusals(files: &[(String, u64)]) -> Vec<String> {
    let mib = |b: u64| crate::format::fixed(b as f64 / (1024.0 * 1024.0), 1);
    let mut refusals: Vec<String> = files
        .iter()
        .filter(|(_, size)| *size > LOCAL_MAX_FILE_BYTES)
        .map(|(name, size)| {
            format!(
                "{name}: {} MiB is over the limit of {} MiB per file; split the file or build the site with it in results/",
                mib(*size),
                mib(LOCAL_MAX_FILE_BYTES)
            )
        })
        .collect();
    let total: u64 = files.iter().map(|(_, s)| *s).fold(0, u64::saturating_add);
    if refusals.is_empty() && total > LOCAL_MAX_TOTAL_BYTES {
        refusals.push(format!(
            "{} files, {} MiB in all, are over the limit of {} MiB at once; drop fewer files",
            files.len(),
            mib(total),
            mib(LOCAL_MAX_TOTAL_BYTES)
        ));
    }
    refusals
}

/// What the Web Worker that reads dropped files tells the page, in the binary form of [`wire`]
/// (one message each).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkerReport {
    /// The worker has started and takes files.
    Ready,
    /// How far it got: `done` of `total` bytes read, or files imported.
    Progress {
        /// What it is doing.
        stage: WorkerStage,
        /// The file it is on.
        file: String,
        /// Units done.
        done: u64,
        /// Units in all.
        total: u64,
    },
    /// The report of the files, and their runs normalised.
    Done {
        /// The page.
        page: Box<ReportPage>,
        /// Every run, as JSON (the canonical model).
        runs_json: String,
        /// Every run, one row each, as CSV.
        runs_csv: String,
    },
    /// The files were refused or the worker failed; the page says why.
    Failed {
        /// Why, for the reader.
        message: String,
    },
    /// After [`WorkerReport::Done`]: whether the files are kept for the next visit (`None`), or
    /// why the browser would not keep them.
    Kept {
        /// Why not, for the reader.
        error: Option<String>,
    },
    /// Asked to read the kept files, the worker found none.
    NothingKept,
    /// Asked to forget the kept files: done (`None`), or why not.
    Forgotten {
        /// Why not, for the reader.
        error: Option<String>,
    },
}

/// The IndexedDB database in which the worker keeps dropped files for the next visit (the page
/// looks for it by name before it starts the worker to read them back).
pub const KEPT_FILES_DATABASE: &str = "benchdeck";

/// What the page asks the worker: the first item of its message (an array), a word; after
/// [`WorkerCommand::Read`] come the files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkerCommand {
    /// Read, import and report the files that follow, then keep them for the next visit.
    Read,
    /// Read and report the files an earlier visit kept, if any.
    Restore,
    /// Delete the kept files.
    Forget,
}

impl WorkerCommand {
    /// The word in the message.
    pub fn word(self) -> &'static str {
        match self {
            Self::Read => "read",
            Self::Restore => "restore",
            Self::Forget => "forget",
        }
    }

    /// The command a message's word names, if any.
    pub fn from_word(word: &str) -> Option<Self> {
        [Self::Read, Self::Restore, Self::Forget]
            .into_iter()
            .find(|c| c.word() == word)
    }
}

/// A stage of reading dropped files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkerStage {
    /// Reading the files' bytes (progress in bytes).
    Reading,
    /// Importing them (progress in files).
    Importing,
    /// Building the report.
    Building,
}

/// True for a chart id that can be a file name and a URL fragment: ASCII letters, digits, `-`
/// and `_`, at most 64 characters.
pub fn is_valid_chart_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The home page: every report, newest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteIndex {
    /// The reports.
    pub reports: Vec<ReportSummary>,
}

/// A report as listed on the home page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportSummary {
    /// URL segment and file stem.
    pub slug: String,
    /// Title.
    pub title: String,
    /// Publication date, `YYYY-MM-DD`.
    #[serde(default)]
    pub date: Option<String>,
    /// Authors.
    #[serde(default)]
    pub authors: Vec<String>,
    /// One or two sentences.
    #[serde(default)]
    pub summary: String,
    /// Number of charts.
    pub charts: usize,
    /// Number of runs the report draws on.
    pub runs: usize,
    /// Its first chart (grid panels count), which the home page shows.
    pub first_chart: Option<ChartRef>,
    /// For a page the build made for result files no report names: their folder under
    /// `results/` (`""` for files directly in it).
    #[serde(default)]
    pub automatic: Option<String>,
    /// The change points its trend charts found, oldest first: the site feed's entries.
    /// (Always written: the app's data is postcard, which cannot skip a field.)
    #[serde(default)]
    pub changes: Vec<ChangeEntry>,
}

/// A change point a report's trend chart found, as the site's feed announces it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChangeEntry {
    /// The day of the first run of the new level.
    pub date: String,
    /// The chart's id, the anchor the entry links to.
    pub chart: String,
    /// `vLLM nightly: Median TPOT −8.1% (better) from 2026-11-08`.
    pub title: String,
    /// What differs between the runs either side of it.
    pub what_changed: String,
}

/// A chart named from elsewhere (the home page's report cards): enough to show its image.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChartRef {
    /// The chart's id in its report.
    pub id: String,
    /// What it shows, in words: the image's alternative text.
    pub alt: String,
    /// The size in pixels of its card drawing (`chart_card_svg_paths`).
    pub size: (u32, u32),
}

impl ChartRef {
    /// The reference to `spec`.
    pub fn of(spec: &crate::chart::ChartSpec) -> ChartRef {
        ChartRef {
            id: spec.id.clone(),
            alt: crate::export::alt_text(spec),
            size: crate::chart::narrow_size(spec),
        }
    }
}

/// One report page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportPage {
    /// What the home page shows of it.
    pub summary: ReportSummary,
    /// What the decision wizard offers for this report, when its front matter defines one.
    #[serde(default)]
    pub decision: Option<DecisionData>,
    /// Its table of contents (sections and subsections); empty when the report has none.
    #[serde(default)]
    pub toc: Vec<TocEntry>,
    /// The body, in order.
    pub blocks: Vec<Block>,
    /// The prices the reader may change, when configurations state one.
    #[serde(default)]
    pub prices: Option<crate::cost::PriceSheet>,
    /// What the reader may filter its configurations by, when it has many.
    #[serde(default)]
    pub filters: Option<filter::FilterSheet>,
    /// The result files it uses, relative to `results/`.
    #[serde(default)]
    pub sources: Vec<String>,
    /// Problems with the report or its data, shown on the page.
    #[serde(default)]
    pub problems: Vec<Problem>,
}

/// The decision wizard's data: the candidates with their measured values, the SLAs and criteria
/// the report proposes, and the guided question tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DecisionData {
    /// The load the reader starts from.
    pub load: f64,
    /// The SLAs proposed (the reader may change them).
    pub constraints: Vec<crate::decision::Constraint>,
    /// The criteria proposed, weight 1 each.
    pub criteria: Vec<crate::decision::Criterion>,
    /// One per configuration.
    pub candidates: Vec<crate::decision::Candidate>,
    /// The guided questions, if the report has them.
    #[serde(default)]
    pub tree: Option<crate::decision::tree::Tree>,
    /// The questions laid out as a flowchart (the candidates' labels in its boxes), when there
    /// is a tree: laid out by the build, so the app carries no layout code.
    #[serde(default)]
    pub diagram: Option<crate::decision::tree::layout::Diagram>,
    /// Each recommendation node's reason, rendered (sanitised HTML), by node id.
    #[serde(default)]
    pub reasons: std::collections::BTreeMap<String, RenderedReason>,
}

/// A recommendation's reason as sanitised HTML.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RenderedReason {
    /// The HTML.
    pub html: String,
}

/// A line of the table of contents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TocEntry {
    /// 2 for a section, 3 for a subsection.
    pub level: u8,
    /// The heading's text (with its number when sections are numbered).
    pub text: String,
    /// The heading's anchor id.
    pub id: String,
}

impl ReportPage {
    /// Takes out the block an embed page of `id` shows: the chart or grid with that id, or the
    /// grid's panel with that id as a chart of its own; the page keeps its other blocks.
    pub fn take_embedded(&mut self, id: &str) -> Option<Block> {
        let at = self.blocks.iter().position(|b| match b {
            Block::Chart { chart } => chart.id == id,
            Block::Grid { grid } => grid.id == id || grid.panels.iter().any(|p| p.id == id),
            Block::Html { .. } | Block::Flowchart { .. } => false,
        })?;
        Some(match self.blocks.remove(at) {
            Block::Grid { grid } if grid.id != id => {
                let chart = grid.panels.into_iter().find(|p| p.id == id)?;
                Block::Chart { chart }
            }
            block => block,
        })
    }

    /// The charts of the page, in order, the panels of grids included: everything the app draws
    /// on a canvas of its own.
    pub fn charts(&self) -> impl Iterator<Item = &ChartSpec> {
        self.blocks.iter().flat_map(|b| match b {
            Block::Chart { chart } => std::slice::from_ref(chart),
            Block::Grid { grid } => grid.panels.as_slice(),
            Block::Html { .. } | Block::Flowchart { .. } => &[],
        })
    }

    /// The chart whose PNG is the report's link-preview image: its first (a grid's panels
    /// count), the only chart a built site has a PNG of (crawlers take no SVG).
    pub fn preview_chart(&self) -> Option<&ChartSpec> {
        self.charts().next()
    }

    /// Every chart of the page, as [`ReportPage::charts`], to change.
    pub fn charts_mut(&mut self) -> impl Iterator<Item = &mut ChartSpec> {
        self.blocks.iter_mut().flat_map(|b| match b {
            Block::Chart { chart } => std::slice::from_mut(chart),
            Block::Grid { grid } => grid.panels.as_mut_slice(),
            Block::Html { .. } | Block::Flowchart { .. } => &mut [],
        })
    }

    /// The page's HTML blocks (prose, tables, tiles) joined, in order: what it says in words.
    pub fn prose_html(&self) -> String {
        self.blocks
            .iter()
            .filter_map(|b| match b {
                Block::Html { html } => Some(html.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The grids of the page, in order.
    pub fn grids(&self) -> impl Iterator<Item = &ChartGrid> {
        self.blocks.iter().filter_map(|b| match b {
            Block::Grid { grid } => Some(grid),
            _ => None,
        })
    }
}

/// A piece of a report body.
// A chart block is a few hundred bytes inline; blocks are built once per page, so boxing it
// would only complicate every match on it.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Block {
    /// Sanitised HTML rendered from the Markdown.
    Html {
        /// The HTML.
        html: String,
    },
    /// A chart.
    Chart {
        /// What to draw.
        chart: ChartSpec,
    },
    /// Small multiples: charts side by side sharing their configurations' colours.
    Grid {
        /// The panels and their layout.
        grid: ChartGrid,
    },
    /// A diagram of boxes and arrows (a ```` ```flowchart ```` block).
    Flowchart {
        /// Its nodes and arrows, and its caption.
        flowchart: Flowchart,
    },
}

/// A diagram of boxes and arrows (a ```` ```flowchart ```` block, read by `report::flowchart`
/// as the question tree the layout engine draws), laid out by the build: what the app draws.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Flowchart {
    /// Shown under the diagram; may be empty.
    pub caption: String,
    /// Every arrow in words, the drawing's accessible name.
    pub description: String,
    /// The nodes and arrows laid out, as the build drew them.
    pub diagram: crate::decision::tree::layout::Diagram,
}

/// Small multiples: a titled grid of charts (the blog's 2x2 of TTFT, throughput, latency and
/// success rate). In the app each panel is a chart of its own; the build also writes the whole
/// grid as one SVG.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChartGrid {
    /// Identifier, unique within its report among charts and grids.
    pub id: String,
    /// Title above the panels.
    pub title: String,
    /// What the grid shows, in one sentence.
    #[serde(default)]
    pub caption: String,
    /// Panels per row on a wide screen.
    pub columns: usize,
    /// The panels, row by row.
    pub panels: Vec<ChartSpec>,
    /// How many columns each panel spans, in the order of `panels` (1 each unless a report's
    /// panel says `span`); a panel that does not fit in what is left of its row starts the
    /// next.
    #[serde(default)]
    pub spans: Vec<usize>,
}
