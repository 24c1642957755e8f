//! Reading the user's folders: every file below a path, in a stable order, with paths relative
//! to that folder and `/` separators (the form used in reports and problems).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use benchdeck_core::input::InputFile;

/// Every regular file below `root` (or `root` itself if it is a file), sorted by path. Hidden
/// files and folders (starting with `.`) and README files are skipped.
pub fn collect(root: &Path) -> Result<Vec<PathBuf>> {
    let meta =
        std::fs::metadata(root).with_context(|| format!("cannot read `{}`", root.display()))?;
    if meta.is_file() {
        return Ok(vec![root.to_path_buf()]);
    }
    let mut out = Vec::new();
    walk(root, &mut out)?;
    out.sort();
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot list `{}`", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list `{}`", dir.display()))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name.to_ascii_lowercase().starts_with("readme") {
            continue;
        }
        let path = entry.path();
        let kind = entry
            .file_type()
            .with_context(|| format!("cannot read `{}`", path.display()))?;
        if kind.is_dir() {
            walk(&path, out)?;
        } else if kind.is_file() {
            out.push(path);
        }
    }
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

/// Reads every file below `root` as build input; `filter` keeps paths by name.
pub fn read_inputs(root: &Path, filter: impl Fn(&Path) -> bool) -> Result<Vec<InputFile>> {
    if !root.exists() {
        return Ok(Vec::new());
    }
    collect(root)?
        .into_iter()
        .filter(|p| filter(p))
        .map(|path| {
            let bytes = std::fs::read(&path)
                .with_context(|| format!("cannot read `{}`", path.display()))?;
            Ok(InputFile {
                path: relative(root, &path),
                bytes,
            })
        })
        .collect()
}
