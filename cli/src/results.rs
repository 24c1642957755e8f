//! Result files named on the command line (`compare BASE NEW`, `history PATH...`): each path a
//! file or a folder searched recursively, imported and joined as the site does, every file
//! named as the user wrote its path. A file no importer reads is an error, never skipped.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use benchdeck_core::import::{import_all, ImportedFile};
use benchdeck_core::input::InputFile;
use benchdeck_core::printable::printable;

use crate::files;

/// Reads one side's files (each path a file or a folder searched recursively), joined as in the
/// site. A side without paths, a file no importer reads, or a side without runs is an error
/// naming it.
///
/// `side` names the paths in messages (`base`, `new`, `history`).
pub fn read_side(side: &str, paths: &[&PathBuf]) -> Result<Vec<ImportedFile>> {
    if paths.is_empty() {
        bail!("no {side} given: `benchdeck compare BASE NEW`, or `--{side} PATH`");
    }
    let mut inputs: Vec<InputFile> = Vec::new();
    for path in paths {
        if !path.exists() {
            bail!("{side} `{}` does not exist", path.display());
        }
        let root = folder_of(path);
        let read = files::read_inputs(path, |_| true)
            .with_context(|| format!("cannot read {side} `{}`", path.display()))?;
        if let Some((file, why)) = read.skipped.first() {
            bail!(
                "{side}: cannot read `{}`: {why}",
                display(&root, path, file)
            );
        }
        for mut input in read.files {
            input.path = display(&root, path, &input.path);
            inputs.push(input);
        }
    }
    let imported = import_all(&inputs);
    let failed: Vec<String> = imported
        .iter()
        .filter(|f| f.failed())
        .map(|f| {
            let why: Vec<String> = f.problems.iter().map(ToString::to_string).collect();
            format!("{}: {}", printable(&f.file), why.join("; "))
        })
        .collect();
    if !failed.is_empty() {
        bail!("{side}: cannot read {}", failed.join("; "));
    }
    if imported.iter().all(|f| f.runs.is_empty()) {
        bail!("{side}: no run in {} file(s)", imported.len());
    }
    Ok(imported)
}

fn folder_of(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.to_path_buf()
    } else {
        path.parent().map(PathBuf::from).unwrap_or_default()
    }
}

/// A file's name as the user would write it: the path they gave, joined with its place in it.
fn display(root: &Path, given: &Path, relative: &str) -> String {
    if given.is_dir() {
        format!(
            "{}/{relative}",
            root.display().to_string().trim_end_matches('/')
        )
    } else {
        given.display().to_string()
    }
}
