//! A build told to stop (Ctrl-C, `kill`, a closed terminal) removes the staging folder it was
//! writing before it exits, instead of leaving it beside `--out` for a later build to find.
//!
//! The signal's handler runs on a thread of its own while the build goes on writing, so the
//! build itself removes the folder, once it has stopped writing: the handler marks the build as
//! stopping and makes its writes fail (the folder is moved aside and a file put in its place),
//! and the build, back in [`written`], removes both and exits. Handler and build take turns
//! under one lock, so the build either sees the mark or has already let go of the folder.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, Once, PoisonError};
use std::time::{Duration, Instant};

/// The staging folder being written, and whether the process was told to stop.
static STAGING: Mutex<Staging> = Mutex::new(Staging {
    folder: None,
    stopping: false,
});

struct Staging {
    folder: Option<PathBuf>,
    stopping: bool,
}

/// How long the handler waits for the build to come back to [`written`] before it removes the
/// folder itself. Once the folder is a file every write fails at once, but work under way in
/// other threads (rasterising PNGs) ends first: seconds on a loaded machine.
const WAIT_FOR_BUILD: Duration = Duration::from_secs(60);

/// From now until [`written`], a signal that stops the process removes `staging` first.
pub(super) fn writing(staging: &Path) {
    listen();
    staging_lock().folder = Some(staging.to_path_buf());
}

/// The build has stopped writing `staging` and is about to move it in or remove it. If the
/// process was told to stop meanwhile, removes the folder and ends the process instead.
pub(super) fn written() {
    let mut staging = staging_lock();
    match staging.folder.take() {
        Some(folder) if staging.stopping => {
            let removed = remove(&folder);
            stopped(&folder, removed);
        }
        _ => {}
    }
}

/// Installs the handler, once per process. Without it (the platform refuses), a stopped build
/// leaves its folder to the next build's tidying (`replace::remove_abandoned`).
fn listen() {
    static LISTENING: Once = Once::new();
    LISTENING.call_once(|| {
        if let Err(error) = ctrlc::set_handler(stop) {
            say(format_args!(
                "benchdeck: cannot listen for Ctrl-C ({error}); a build stopped in the middle \
                 leaves its staging folder to a later build"
            ));
        }
    });
}

/// The handler: with no folder being written, ends the process as the signal would; else marks
/// the build as stopping, makes its writes fail and waits for it to remove the folder (or, after
/// [`WAIT_FOR_BUILD`], removes it itself).
fn stop() {
    let folder = {
        let mut staging = staging_lock();
        let Some(folder) = staging.folder.clone() else {
            std::process::exit(130);
        };
        staging.stopping = true;
        say(format_args!("benchdeck: stopping…"));
        make_unwritable(&folder);
        folder
    };
    let started = Instant::now();
    while started.elapsed() < WAIT_FOR_BUILD {
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut staging = staging_lock();
    staging.folder = None;
    let removed = remove(&folder);
    stopped(&folder, removed);
}

/// Moves `folder` aside and puts an empty file in its place, so that the build's next write
/// under it fails instead of making it again. Best effort: a folder made again in between is
/// moved aside too, a few times.
fn make_unwritable(folder: &Path) {
    if !folder.exists() {
        return;
    }
    for attempt in 0..3 {
        if std::fs::rename(folder, aside(folder, attempt)).is_err() && folder.exists() {
            return;
        }
        if std::fs::write(folder, b"").is_ok() {
            return;
        }
    }
}

/// Where [`make_unwritable`] moves `folder` at its `attempt`.
fn aside(folder: &Path, attempt: usize) -> PathBuf {
    let name = folder.file_name().unwrap_or_default().to_string_lossy();
    folder.with_file_name(format!("{name}.stopped-{attempt}"))
}

/// Removes `folder` (a folder, or the file put in its place) and what was moved aside from it.
/// Whether nothing is left.
fn remove(folder: &Path) -> bool {
    let mut left = false;
    for path in std::iter::once(folder.to_path_buf()).chain((0..3).map(|i| aside(folder, i))) {
        let removed = match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(&path),
            Ok(_) => std::fs::remove_file(&path),
            Err(_) => continue,
        };
        left |= removed.is_err();
    }
    !left
}

/// Says that the build stopped and ends the process as the signal would.
fn stopped(folder: &Path, removed: bool) -> ! {
    if removed {
        say(format_args!("benchdeck: stopped; the site was not written"));
    } else {
        say(format_args!(
            "benchdeck: stopped; cannot remove `{}`, which a later build will",
            folder.display()
        ));
    }
    std::process::exit(130);
}

fn staging_lock() -> MutexGuard<'static, Staging> {
    STAGING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Writes a line to standard error, never panicking (its terminal may be gone).
fn say(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr(), "{message}");
}
