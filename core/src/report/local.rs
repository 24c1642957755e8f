//! The report of result files a reader drops on the site (or picks with a file dialog): the
//! standard charts, a summary table and the decision wizard for whatever the files hold, built in
//! the browser (a Web Worker) by the very code that builds the site's reports.
//!
//! The page is written as a Markdown report whose every word is ours: only numbers and the names
//! of quantities go into the generated text. What comes from the files (names, labels, models)
//! reaches the page only through charts, tables and problem lists, which escape it.

use crate::format::plural;
use crate::import::{date_by_path, import, join_siblings, ImportedFile};
use crate::input::InputFile;
use crate::model::Run;
use crate::report::{build_report, draft, Palette};
use crate::site::{Block, ReportPage};

pub use crate::site::LOCAL_SLUG;

/// What dropped files gave: the page, and every file as imported (for the downloads of
/// normalised data).
#[derive(Debug, Clone)]
pub struct LocalReport {
    /// The page to show.
    pub page: ReportPage,
    /// Every file, imported, in the order given.
    pub imports: Vec<ImportedFile>,
}

/// Imports `files` and builds their report. Never fails: files no importer recognises, and every
/// other problem, are listed on the page with their locations.
pub fn local_report(files: &[InputFile]) -> LocalReport {
    local_report_with_progress(files, &mut |_, _| {})
}

/// [`local_report`], calling `progress(done, file)` before importing each file and
/// `progress(files.len(), "")` before building the page (the worker posts these to the page).
pub fn local_report_with_progress(
    files: &[InputFile],
    progress: &mut dyn FnMut(usize, &str),
) -> LocalReport {
    let mut imports: Vec<ImportedFile> = files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            progress(i, &f.path);
            import(&f.path, &f.bytes)
        })
        .collect();
    join_siblings(files, &mut imports);
    date_by_path(&mut imports);
    progress(files.len(), "");
    let page = local_page(&imports);
    LocalReport { page, imports }
}

/// The page of already imported files.
fn local_page(imports: &[ImportedFile]) -> ReportPage {
    let runs: Vec<&Run> = imports.iter().flat_map(|f| f.runs.iter()).collect();
    let palette: Palette = {
        let mut keys: Vec<String> = runs.iter().map(|r| r.config.key()).collect();
        keys.sort();
        keys.dedup();
        keys.into_iter().enumerate().map(|(i, k)| (k, i)).collect()
    };
    let text = markdown_for(imports, &runs);
    let mut page = build_report("dropped files", LOCAL_SLUG, &text, imports, &palette);
    page.summary.title = "Your result files".to_string();
    // Dropped files are not published: a point has no result file to open.
    for block in &mut page.blocks {
        let charts = match block {
            Block::Chart { chart } => std::slice::from_mut(chart),
            Block::Grid { grid } => grid.panels.as_mut_slice(),
            Block::Html { .. } | Block::Flowchart { .. } => &mut [],
        };
        for point in charts
            .iter_mut()
            .flat_map(|c| c.series.iter_mut())
            .flat_map(|s| s.points.iter_mut())
        {
            point.link.clear();
        }
    }
    page
}

/// The generated report: front matter selecting every file, what was read, then the standard
/// sections for what the runs measured.
fn markdown_for(imports: &[ImportedFile], runs: &[&Run]) -> String {
    let configs = {
        let mut keys: Vec<String> = runs.iter().map(|r| r.config.key()).collect();
        keys.sort();
        keys.dedup();
        keys.len()
    };
    let failed = imports.iter().filter(|f| f.failed()).count();
    let mut md = String::from(
        "---\ntitle: Your result files\nsummary: Result files read in this browser.\nresults: [\"**\"]\ntoc: false\n---\n\n",
    );
    md.push_str(&format!(
        "Read in this browser from {} file{} ({} run{} of {} configuration{}); nothing was \
         uploaded, and the data is gone when you leave or reload the page.{}\n\n",
        imports.len(),
        plural(imports.len()),
        runs.len(),
        plural(runs.len()),
        configs,
        plural(configs),
        if failed > 0 {
            format!(
                " {failed} file{} could not be read: see the problems listed above.",
                plural(failed)
            )
        } else {
            String::new()
        }
    ));
    md.push_str(&draft::sections(runs));
    md
}

#[cfg(test)]
mod tests;
