//! The files of one report in a built site (its data, runs, charts, page and embed pages), and
//! those of reports that did not change copied from the last site into the next one instead of
//! being drawn and rendered again (`benchdeck build` with its cache, [`super::cache`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use benchdeck_core::site::{
    chart_svg_path, embed_page_path, report_data_path, runs_csv_path, runs_json_path,
};

/// Every file and folder the build writes for the report `slug`, relative to the site.
pub(super) fn report_files(slug: &str) -> [PathBuf; 6] {
    let charts = chart_svg_path(slug, "x");
    let charts = Path::new(&charts).parent().unwrap_or(Path::new("charts"));
    let embeds = embed_page_path(slug, "x");
    let embeds = Path::new(&embeds).parent().unwrap_or(Path::new("embed"));
    [
        PathBuf::from(report_data_path(slug)),
        PathBuf::from(runs_json_path(slug)),
        PathBuf::from(runs_csv_path(slug)),
        charts.to_path_buf(),
        embeds.to_path_buf(),
        PathBuf::from(slug),
    ]
}

/// Copies the files of each report of `slugs` from the site `from` into `to`; returns the
/// reports copied whole (one whose files cannot all be copied is left to be written anew).
pub(super) fn copy_reports(from: &Path, to: &Path, slugs: &BTreeSet<String>) -> BTreeSet<String> {
    let mut copied = BTreeSet::new();
    for slug in slugs {
        let files = report_files(slug);
        let whole = files.iter().all(|rel| {
            let source = from.join(rel);
            !source.exists() || copy_tree(&source, &to.join(rel)).is_ok()
        });
        if whole {
            copied.insert(slug.clone());
        } else {
            for rel in &files {
                let _ = remove(&to.join(rel));
            }
        }
    }
    copied
}

/// Copies the file or folder `from` to `to`, folders whole.
fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create `{}`", parent.display()))?;
    }
    if !from.is_dir() {
        std::fs::copy(from, to).with_context(|| format!("cannot copy `{}`", from.display()))?;
        return Ok(());
    }
    std::fs::create_dir_all(to).with_context(|| format!("cannot create `{}`", to.display()))?;
    for entry in
        std::fs::read_dir(from).with_context(|| format!("cannot read `{}`", from.display()))?
    {
        let entry = entry?;
        copy_tree(&entry.path(), &to.join(entry.file_name()))?;
    }
    Ok(())
}

/// Removes a file or a folder; one that is not there is no error.
pub(super) fn remove(path: &Path) -> Result<()> {
    let removed = if path.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    };
    match removed {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
            Err(error).with_context(|| format!("cannot remove `{}`", path.display()))
        }
        _ => Ok(()),
    }
}
