//! Pages for result files that no report names: one per top folder of `results/`, with the standard
//! sections ([`draft::sections`]) for what its files hold, so a project with results and no
//! Markdown still gets a useful site. The page says it was made automatically and how to write a
//! report from it (`benchdeck new report`).

use std::collections::{BTreeMap, BTreeSet};

use crate::format::plural;
use crate::import::ImportedFile;
use crate::model::{Location, Run};
use crate::problem::Problem;
use crate::report::{build_report, draft, Palette};
use crate::site::{ReportPage, RESERVED_SLUGS};

/// One page per folder of result files that no page in `pages` uses; `slugs` (the reports')
/// gains theirs. A folder none of whose files gave a run gets no page but a warning.
pub(super) fn automatic_pages(
    imports: &[ImportedFile],
    pages: &[ReportPage],
    palette: &Palette,
    slugs: &mut BTreeSet<String>,
    problems: &mut Vec<Problem>,
) -> Vec<ReportPage> {
    let named: BTreeSet<&str> = pages
        .iter()
        .flat_map(|p| p.sources.iter().map(String::as_str))
        .collect();
    let mut folders: BTreeMap<&str, Vec<ImportedFile>> = BTreeMap::new();
    for file in imports.iter().filter(|f| !named.contains(f.file.as_str())) {
        folders
            .entry(folder_of(&file.file))
            .or_default()
            .push(file.clone());
    }
    let mut out = Vec::new();
    for (folder, files) in folders {
        if files.iter().all(|f| f.runs.is_empty()) {
            problems.push(unread_folder(folder, &files));
            continue;
        }
        let slug = free_slug(folder, slugs);
        out.push(automatic_page(folder, &slug, &files, palette));
    }
    out
}

/// The top folder under `results/`: `sweep/SERVE--max_num_seqs=8/run=1.json` → `sweep` (one
/// experiment, however its tool nests its files); a file directly in `results/` → `""`.
fn folder_of(file: &str) -> &str {
    file.split_once('/').map_or("", |(folder, _)| folder)
}

/// The page of one folder's files.
fn automatic_page(
    folder: &str,
    slug: &str,
    files: &[ImportedFile],
    palette: &Palette,
) -> ReportPage {
    let runs: Vec<&Run> = files.iter().flat_map(|f| f.runs.iter()).collect();
    let configs: BTreeSet<String> = runs.iter().map(|r| r.config.key()).collect();
    let unread = files.iter().filter(|f| f.runs.is_empty()).count();
    let mut text = String::from("---\ntitle: automatic\nresults: [\"**\"]\ntoc: false\n---\n\n");
    text.push_str(&format!(
        "{} result file{} hold{} {} run{} of {} configuration{}.{}\n\n",
        files.len(),
        plural(files.len()),
        if files.len() == 1 { "s" } else { "" },
        runs.len(),
        plural(runs.len()),
        configs.len(),
        plural(configs.len()),
        if unread > 0 {
            format!(
                " {unread} file{} gave no run: see the problems listed above.",
                plural(unread)
            )
        } else {
            String::new()
        }
    ));
    text.push_str(&draft::sections(&runs));
    let mut page = build_report(&display(folder), slug, &text, files, palette);
    page.summary.title = title(folder, &runs);
    page.summary.summary = format!(
        "{} run{} of {} configuration{} from {} file{} in {} that no report names.",
        runs.len(),
        plural(runs.len()),
        configs.len(),
        plural(configs.len()),
        files.len(),
        plural(files.len()),
        display(folder)
    );
    page.summary.automatic = Some(folder.to_string());
    page
}

/// `results/vllm/sweep/`, as a reader would find the folder.
fn display(folder: &str) -> String {
    if folder.is_empty() {
        "results/".into()
    } else {
        format!("results/{folder}/")
    }
}

/// The folder's name, then the models and engines of its runs: `sweep: Qwen2.5-7B on vLLM`.
fn title(folder: &str, runs: &[&Run]) -> String {
    let name = folder.rsplit('/').next().filter(|n| !n.is_empty());
    let models: BTreeSet<&str> = runs
        .iter()
        .filter_map(|r| r.config.model.as_deref())
        .collect();
    let engines: BTreeSet<&str> = runs
        .iter()
        .filter_map(|r| r.config.engine.as_deref())
        .collect();
    let list = |names: BTreeSet<&str>, noun: &str| -> Option<String> {
        match names.len() {
            0 => None,
            1..=3 => Some(names.into_iter().collect::<Vec<_>>().join(", ")),
            n => Some(format!("{n} {noun}")),
        }
    };
    let what = match (list(models, "models"), list(engines, "engines")) {
        (Some(m), Some(e)) => Some(format!("{m} on {e}")),
        (Some(one), None) | (None, Some(one)) => Some(one),
        (None, None) => None,
    };
    match (name, what) {
        (Some(name), Some(what)) => format!("{name}: {what}"),
        (Some(name), None) => name.to_string(),
        (None, Some(what)) => format!("Results: {what}"),
        (None, None) => "Results".to_string(),
    }
}

/// A URL for `folder` that neither a report nor the site itself uses: `vllm/sweep` →
/// `vllm-sweep`, then `vllm-sweep-results`, `vllm-sweep-results-2`… when taken.
fn free_slug(folder: &str, slugs: &mut BTreeSet<String>) -> String {
    let mut base = String::new();
    for c in folder.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_alphanumeric() || c == '_' {
            base.push(c);
        } else if !base.ends_with('-') && !base.is_empty() {
            base.push('-');
        }
    }
    let base = base.trim_end_matches('-').to_string();
    let base = if base.is_empty() {
        "results".to_string()
    } else {
        base
    };
    let taken =
        |s: &str, slugs: &BTreeSet<String>| slugs.contains(s) || RESERVED_SLUGS.contains(&s);
    let mut slug = base.clone();
    let mut n = 1;
    while taken(&slug, slugs) {
        n += 1;
        slug = if n == 2 {
            format!("{base}-results")
        } else {
            format!("{base}-results-{}", n - 1)
        };
    }
    slugs.insert(slug.clone());
    slug
}

/// The warning for a folder none of whose files could be read.
fn unread_folder(folder: &str, files: &[ImportedFile]) -> Problem {
    Problem::warning(
        &display(folder),
        Location::File,
        format!(
            "none of its {} file{} is a result file benchdeck reads, and no report names them, so \
             no page shows it; `benchdeck inspect {}` says why each was not read",
            files.len(),
            plural(files.len()),
            display(folder)
        ),
    )
}

#[cfg(test)]
mod tests;
