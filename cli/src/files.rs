//! Reading the user's folders: every file below a path, in a stable order, with paths relative
//! to that folder and `/` separators (the form used in reports and problems).
//!
//! Symbolic links are followed, to files and folders alike; a link that leads nowhere, or to a
//! folder already being read (a loop), is skipped with the reason, never silently. A file's size
//! is taken from its metadata before it is read: one over the importers' limit
//! ([`MAX_FILE_BYTES`]) is skipped unread, so a 3 GB log costs nothing.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{Context, Result};
use benchdeck_core::import::MAX_FILE_BYTES;
use benchdeck_core::input::InputFile;

/// A file or folder that was not read, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// Its path.
    pub path: PathBuf,
    /// Why, in a sentence.
    pub reason: String,
}

/// What is below a folder: its files, sorted by path, and what was skipped.
#[derive(Debug, Default)]
pub struct Listing {
    /// Every regular file (through links too).
    pub files: Vec<PathBuf>,
    /// Links that lead nowhere or loop.
    pub skipped: Vec<Skipped>,
}

/// Every regular file below `root` (or `root` itself if it is a file), sorted by path. Hidden
/// files and folders (starting with `.`: `.git`, `.DS_Store`) are left out; README files are
/// listed, and the importers leave out those without results
/// ([`benchdeck_core::import::import_all`]).
pub fn list(root: &Path) -> Result<Listing> {
    let meta =
        std::fs::metadata(root).with_context(|| format!("cannot read `{}`", root.display()))?;
    let mut listing = Listing::default();
    if meta.is_file() {
        listing.files.push(root.to_path_buf());
        return Ok(listing);
    }
    let mut open = BTreeSet::new();
    walk(root, &mut open, &mut listing)?;
    listing.files.sort();
    Ok(listing)
}

/// [`list`]'s files only.
pub fn collect(root: &Path) -> Result<Vec<PathBuf>> {
    Ok(list(root)?.files)
}

/// Lists `dir` into `listing`; `open` holds the real paths of the folders being read, so a link
/// back to one of them is a loop.
fn walk(dir: &Path, open: &mut BTreeSet<PathBuf>, listing: &mut Listing) -> Result<()> {
    let real =
        std::fs::canonicalize(dir).with_context(|| format!("cannot read `{}`", dir.display()))?;
    if !open.insert(real.clone()) {
        listing.skipped.push(Skipped {
            path: dir.to_path_buf(),
            reason: "a link to a folder that holds it (a loop); not read".to_string(),
        });
        return Ok(());
    }
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot list `{}`", dir.display()))?;
    let mut paths = Vec::new();
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list `{}`", dir.display()))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        paths.push(entry.path());
    }
    paths.sort();
    for path in paths {
        // Follows links: a link's kind is what it leads to.
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => walk(&path, open, listing)?,
            Ok(meta) if meta.is_file() => listing.files.push(path),
            Ok(_) => listing.skipped.push(Skipped {
                path,
                reason: "not a regular file or folder; not read".to_string(),
            }),
            Err(e) => listing.skipped.push(Skipped {
                path,
                reason: format!("a link that leads nowhere ({e}); not read"),
            }),
        }
    }
    open.remove(&real);
    Ok(())
}

/// `path` relative to `root`, with `/` separators; a file given directly keeps its name.
pub fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let rel = if rel.as_os_str().is_empty() {
        Path::new(path.file_name().unwrap_or(path.as_os_str()))
    } else {
        rel
    };
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// The files of a folder as build input, and those not read (relative path, why).
#[derive(Debug, Default, Clone)]
pub struct Inputs {
    /// The files read.
    pub files: Vec<InputFile>,
    /// The files and links not read, relative to the folder, with why.
    pub skipped: Vec<(String, String)>,
}

/// Reads every file below `root` as build input; `filter` keeps paths by name. A file over
/// [`MAX_FILE_BYTES`] by its metadata is skipped unread.
pub fn read_inputs(root: &Path, filter: impl Fn(&Path) -> bool) -> Result<Inputs> {
    let mut inputs = Inputs::default();
    if !root.exists() {
        return Ok(inputs);
    }
    let listing = list(root)?;
    for skipped in listing.skipped {
        inputs
            .skipped
            .push((relative(root, &skipped.path), skipped.reason));
    }
    for path in listing.files.into_iter().filter(|p| filter(p)) {
        match read_within_limit(&path)? {
            Ok(bytes) => inputs.files.push(InputFile {
                path: relative(root, &path),
                bytes,
            }),
            Err(reason) => inputs.skipped.push((relative(root, &path), reason)),
        }
    }
    Ok(inputs)
}

/// The bytes of `path`, or why it is too large to read: its size from its metadata first, and no
/// more than the limit read even if it grows meanwhile.
pub fn read_within_limit(path: &Path) -> Result<std::result::Result<Vec<u8>, String>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read `{}`", path.display()))?;
    let size = file
        .metadata()
        .with_context(|| format!("cannot read `{}`", path.display()))?
        .len();
    let limit = MAX_FILE_BYTES as u64;
    if size > limit {
        return Ok(Err(too_large(size)));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read `{}`", path.display()))?;
    if bytes.len() as u64 > limit {
        return Ok(Err(too_large(bytes.len() as u64)));
    }
    Ok(Ok(bytes))
}

/// Why a file of `size` bytes is not read.
fn too_large(size: u64) -> String {
    const MB: u64 = 1024 * 1024;
    format!(
        "{} MB, over the limit of {} MB for a result file; not read",
        size / MB,
        MAX_FILE_BYTES as u64 / MB
    )
}

/// Every file below each of `folders` with its size and modification time: equal fingerprints
/// mean (as far as the file system tells) that no file was added, removed or changed. A folder
/// that cannot be read counts as empty.
pub type Fingerprint = Vec<(PathBuf, u64, Option<SystemTime>)>;

/// The [`Fingerprint`] of `folders`.
pub fn fingerprint(folders: &[PathBuf]) -> Fingerprint {
    folders
        .iter()
        .filter_map(|dir| collect(dir).ok())
        .flatten()
        .map(|path| {
            let meta = std::fs::metadata(&path).ok();
            let size = meta.as_ref().map_or(0, std::fs::Metadata::len);
            let modified = meta.and_then(|m| m.modified().ok());
            (path, size, modified)
        })
        .collect()
}

#[cfg(test)]
mod tests;
