//! What every join does: the folder a file is in, a file's runs given up to its sibling with the
//! join recorded on both, and the warning a file read alone carries dropped.

use crate::import::ImportedFile;
use crate::model::Run;

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
