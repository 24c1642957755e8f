//! A build told to stop (Ctrl-C, `kill`, a closed terminal) removes the staging folder it was
//! writing before it exits, instead of leaving it beside `--out` for a later build to find.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, Once, PoisonError};

/// The staging folder being written, if one is.
static STAGING: Mutex<Option<PathBuf>> = Mutex::new(None);

/// From now until [`written`], a signal that stops the process removes `staging` first.
pub(super) fn writing(staging: &Path) {
    listen();
    *staging_lock() = Some(staging.to_path_buf());
}

/// `staging` is no longer for the signal handler to remove: it is about to be moved in or
/// removed by the build. Waits for a handler already removing it, which then ends the process.
pub(super) fn written() {
    staging_lock().take();
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
        // The build may still add files while they are removed: try again.
        let removed = (0..3).any(|_| std::fs::remove_dir_all(&folder).is_ok() || !folder.exists());
        if removed {
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

fn staging_lock() -> MutexGuard<'static, Option<PathBuf>> {
    STAGING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Writes a line to standard error, never panicking (its terminal may be gone).
fn say(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr(), "{message}");
}
