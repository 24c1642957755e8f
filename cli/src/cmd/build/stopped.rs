//! A build told to stop (Ctrl-C, `kill`, a closed terminal) removes the staging folder it was
//! writing before it exits, instead of leaving it beside `--out` for a later build to find.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, Once, PoisonError};
use std::time::{Duration, Instant};

/// The staging folder being written, if one is.
static STAGING: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Whether the build has stopped writing the staging folder and waits in [`written`].
static DONE_WRITING: AtomicBool = AtomicBool::new(false);

/// How long the handler waits for the build to stop writing before it removes the folder anyway.
const WAIT_FOR_WRITER: Duration = Duration::from_secs(5);

/// From now until [`written`], a signal that stops the process removes `staging` first.
pub(super) fn writing(staging: &Path) {
    listen();
    *staging_lock() = Some(staging.to_path_buf());
}

/// `staging` is no longer for the signal handler to remove: it is about to be moved in or
/// removed by the build. Waits for a handler already removing it, which then ends the process.
pub(super) fn written() {
    DONE_WRITING.store(true, Ordering::SeqCst);
    staging_lock().take();
    DONE_WRITING.store(false, Ordering::SeqCst);
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

/// The handler: removes the staging folder, holding it until the exit so that the build cannot
/// move it in meanwhile, and ends the process as a signal would.
fn stop() {
    let mut staging = staging_lock();
    if let Some(folder) = staging.take() {
        if remove_while_written(&folder) {
            say(format_args!("benchdeck: stopped; the site was not written"));
        } else {
            say(format_args!(
                "benchdeck: stopped; cannot remove `{}`, which a later build will",
                folder.display()
            ));
        }
    }
    std::process::exit(130);
}

/// Removes `folder`, which the build may still be writing. It is moved aside and a file put in
/// its place, so that the build's next write fails (instead of making the folder again) and the
/// build comes to wait in [`written`]; once it does, or after [`WAIT_FOR_WRITER`], the folder
/// and the file go. Whether the folder is gone.
fn remove_while_written(folder: &Path) -> bool {
    let name = folder.file_name().unwrap_or_default().to_string_lossy();
    let aside = folder.with_file_name(format!("{name}.stopped"));
    let moved = std::fs::rename(folder, &aside).is_ok();
    if moved {
        let _ = std::fs::write(folder, b"");
    }
    let started = Instant::now();
    while !DONE_WRITING.load(Ordering::SeqCst) && started.elapsed() < WAIT_FOR_WRITER {
        std::thread::sleep(Duration::from_millis(5));
    }
    let target = if moved { &aside } else { folder };
    let removed = (0..3).any(|_| std::fs::remove_dir_all(target).is_ok() || !target.exists());
    if moved {
        let _ = std::fs::remove_file(folder);
    }
    removed
}

fn staging_lock() -> MutexGuard<'static, Option<PathBuf>> {
    STAGING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Writes a line to standard error, never panicking (its terminal may be gone).
fn say(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr(), "{message}");
}
