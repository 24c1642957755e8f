//! The site swapped in for `--out`: written into a staging folder beside it and moved in only
//! when complete, `--out` followed when it is a symbolic link and never replaced when it holds
//! something other than a site benchdeck built, the old site moved back when the new one cannot
//! be moved in. A build told to stop removes its staging folder ([`super::stopped`]); what one
//! killed outright left beside `--out` is removed by a later build, once nothing has written to
//! it for ten minutes and its process is gone.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use anyhow::{bail, Context, Result};

use super::stopped;

/// Writes a whole site with `write` into a staging folder beside `out` and swaps it in when
/// `write` succeeds; else `out` is left as it was.
pub(super) fn replace_site(
    out: &Path,
    write: impl FnOnce(&Path) -> Result<ExitCode>,
) -> Result<ExitCode> {
    let out = &followed(out)?;
    check_replaceable(out)?;
    let staging = staging_folder(out)?;
    let written = write(&staging);
    stopped::written();
    match written {
        Ok(ExitCode::SUCCESS) => {
            if let Err(error) = swap_in(&staging, out, |from, to| std::fs::rename(from, to)) {
                let _ = std::fs::remove_dir_all(&staging);
                return Err(error);
            }
            eprintln!("benchdeck: the site is in {}", out.display());
            Ok(ExitCode::SUCCESS)
        }
        other => {
            let _ = std::fs::remove_dir_all(&staging);
            eprintln!(
                "benchdeck: the site was not written; {} is unchanged",
                out.display()
            );
            other
        }
    }
}

/// `out`, or the folder it leads to when it is a symbolic link (the site replaces that folder, and
/// the link stays); a link that leads nowhere is an error.
fn followed(out: &Path) -> Result<PathBuf> {
    let is_link = std::fs::symlink_metadata(out).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return Ok(out.to_path_buf());
    }
    std::fs::canonicalize(out).with_context(|| {
        format!(
            "`{}` is a symbolic link that leads nowhere; point it at a folder, or remove it",
            out.display()
        )
    })
}

/// An `--out` may be replaced when it does not exist, is empty, or holds a site benchdeck built.
fn check_replaceable(out: &Path) -> Result<()> {
    if !out.exists() {
        return Ok(());
    }
    let empty = std::fs::read_dir(out)
        .with_context(|| format!("cannot read `{}`", out.display()))?
        .next()
        .is_none();
    let a_site =
        out.join("index.html").is_file() && out.join(benchdeck_core::site::INDEX_PATH).is_file();
    if empty || a_site {
        Ok(())
    } else {
        bail!(
            "`{}` exists and is not a site benchdeck built; choose another --out or remove it",
            out.display()
        )
    }
}

/// A new, empty folder beside `out` (so the swap is a rename on one file system), which a
/// build told to stop removes (`stopped.rs`).
pub(super) fn staging_folder(out: &Path) -> Result<PathBuf> {
    let name = out
        .file_name()
        .map_or_else(|| "dist".into(), |n| n.to_string_lossy().into_owned());
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)
        .with_context(|| format!("cannot create `{}`", parent.display()))?;
    remove_abandoned(parent, &name);
    let staging = parent.join(format!(".{name}.building-{}", std::process::id()));
    if staging.exists() {
        std::fs::remove_dir_all(&staging)
            .with_context(|| format!("cannot remove `{}`", staging.display()))?;
    }
    // Named to the signal handler before it exists, so that no stop leaves it behind.
    stopped::writing(&staging);
    if let Err(error) = std::fs::create_dir(&staging) {
        stopped::written();
        return Err(error).with_context(|| format!("cannot create `{}`", staging.display()));
    }
    Ok(staging)
}

/// How long a staging folder must have gone unwritten before it counts as left behind: no build
/// pauses between two writes for that long.
const QUIET: Duration = Duration::from_secs(10 * 60);

/// Removes the staging folders beside `out` (named `name`) that builds stopped in the middle
/// left behind (Ctrl-C, a closed terminal), so that a project does not collect them. A folder
/// that cannot be removed is said and left.
fn remove_abandoned(parent: &Path, name: &str) {
    remove_abandoned_at(parent, name, Path::new("/proc"), SystemTime::now());
}

/// [`remove_abandoned`], with the process table read from `proc` and the time `now`.
pub(super) fn remove_abandoned_at(parent: &Path, name: &str, proc: &Path, now: SystemTime) {
    let prefix = format!(".{name}.building-");
    for entry in std::fs::read_dir(parent).into_iter().flatten().flatten() {
        let file_name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = file_name
            .strip_prefix(&prefix)
            .filter(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == std::process::id() || !abandoned(&entry.path(), pid, proc, now) {
            continue;
        }
        if let Err(error) = std::fs::remove_dir_all(entry.path()) {
            eprintln!(
                "benchdeck: cannot remove `{}`, left by a build that stopped: {error}",
                entry.path().display()
            );
        }
    }
}

/// Whether the build `pid` that wrote `folder` has stopped: nothing in the folder has changed
/// for [`QUIET`], and its process does not run as far as the process table `proc` shows (where
/// there is none, or it hides other processes, or the build ran in another container, the
/// quiet alone decides).
fn abandoned(folder: &Path, pid: u32, proc: &Path, now: SystemTime) -> bool {
    if proc.join("self").exists() && proc.join(pid.to_string()).exists() {
        return false;
    }
    last_change(folder).is_some_and(|at| now.duration_since(at).is_ok_and(|quiet| quiet >= QUIET))
}

/// When anything in `folder` last changed: the latest modification time of the folder and of
/// everything in it (links not followed). `None` when part of it cannot be read, or it holds
/// more than 100,000 entries: then it is not touched.
fn last_change(folder: &Path) -> Option<SystemTime> {
    let mut latest = std::fs::symlink_metadata(folder).ok()?.modified().ok()?;
    let mut folders = vec![folder.to_path_buf()];
    let mut entries = 0usize;
    while let Some(dir) = folders.pop() {
        for entry in std::fs::read_dir(&dir).ok()? {
            let entry = entry.ok()?;
            let meta = entry.metadata().ok()?;
            entries += 1;
            if entries > 100_000 {
                return None;
            }
            latest = latest.max(meta.modified().ok()?);
            if meta.is_dir() {
                folders.push(entry.path());
            }
        }
    }
    Some(latest)
}

/// Replaces `out` by `staging` with `rename`: the old site is moved aside first and removed
/// last; when the new site cannot be moved in, the old one is moved back. An old site left aside
/// by a build that stopped between the two moves is put back first, never deleted.
pub(super) fn swap_in(
    staging: &Path,
    out: &Path,
    rename: impl Fn(&Path, &Path) -> std::io::Result<()>,
) -> Result<()> {
    let old = staging.with_extension("old");
    if old.exists() {
        if out.exists() {
            std::fs::remove_dir_all(&old)
                .with_context(|| format!("cannot remove the old site in `{}`", old.display()))?;
        } else {
            rename(&old, out).with_context(|| {
                format!(
                    "the site of an interrupted build is in `{}`; cannot move it back to `{}`",
                    old.display(),
                    out.display()
                )
            })?;
        }
    }
    if out.exists() {
        rename(out, &old)
            .with_context(|| format!("cannot move the old `{}` aside", out.display()))?;
    }
    if let Err(error) = rename(staging, out) {
        let restored = !old.exists() || rename(&old, out).is_ok();
        let old_site = if restored {
            "the old site is back in place".to_string()
        } else {
            format!("the old site is in `{}`", old.display())
        };
        return Err(anyhow::Error::new(error).context(format!(
            "cannot move the new site to `{}`; {old_site}",
            out.display()
        )));
    }
    if old.exists() {
        std::fs::remove_dir_all(&old)
            .with_context(|| format!("cannot remove the old site in `{}`", old.display()))?;
    }
    Ok(())
}
