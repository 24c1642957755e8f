//! What every join does: the files found by name, the folder a file is in, a file's runs given
//! up to its sibling with the join recorded on both, and the warning a file read alone carries
//! dropped.

use std::collections::BTreeMap;

use crate::import::ImportedFile;
use crate::model::Run;

/// Each file's index in `imports`, by its name.
pub(super) fn by_name(imports: &[ImportedFile]) -> BTreeMap<String, usize> {
    imports
        .iter()
        .enumerate()
        .map(|(i, f)| (f.file.clone(), i))
        .collect()
}

/// The folder of `path` with its `/` (`""` at the top), and the file's name in it.
pub(super) fn folder_and_name(path: &str) -> (String, &str) {
    match path.rsplit_once('/') {
        Some((folder, name)) => (format!("{folder}/"), name),
        None => (String::new(), path),
    }
}

/// The folder part of a file's path (`""` at the top).
pub(super) fn folder_of(path: &str) -> &str {
    path.rsplit_once(['/', '\\'])
        .map_or("", |(folder, _)| folder)
}

/// Moves `from`'s runs' data into `into` and records the join on both files.
pub(super) fn record(imports: &mut [ImportedFile], into: usize, from: usize) {
    let from_name = imports[from].file.clone();
    let into_name = imports[into].file.clone();
    imports[from].runs.clear();
    imports[from].joined_into = Some(into_name);
    imports[into].joined.push(from_name);
}

/// The warning a file read alone carries about what its sibling would add, gone now.
pub(super) fn drop_alone_warning(run: &mut Run, says: &str) {
    run.problems.retain(|p| !p.message.contains(says));
}
