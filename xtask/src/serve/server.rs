//! The `benchdeck serve` that `cargo xtask serve` keeps running in the background: started,
//! stopped and started again as the code changes, and stopped with xtask itself, whether by
//! Ctrl-C, `kill` or a closed terminal, so that no server is left holding the port.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use anyhow::{Context, Result};

use crate::bundle;
use crate::install::served::wait_until_served;

/// The port pages are served at, on 127.0.0.1.
const PORT: u16 = 8080;

/// The repository's server: none at first, then the one started last. The process is shared
/// with the handler that stops it when xtask is told to stop.
pub struct Server {
    child: Arc<Mutex<Option<Child>>>,
    /// The repository, whose `dist/` the server builds.
    root: PathBuf,
}

impl Server {
    /// No server yet for `root`; from now on, a signal that stops xtask stops the server first.
    pub fn new(root: &Path) -> Result<Server> {
        let server = Server {
            child: Arc::new(Mutex::new(None)),
            root: root.to_path_buf(),
        };
        let (child, root) = (Arc::clone(&server.child), server.root.clone());
        ctrlc::set_handler(move || {
            // Held until the exit, so that no restart can start a server meanwhile.
            let mut running = lock(&child);
            stop(&mut running, &root);
            say(format_args!("xtask: stopped"));
            std::process::exit(130);
        })
        .context("cannot listen for Ctrl-C and termination signals")?;
        Ok(server)
    }

    /// Stops the server that runs, if one does, then starts `benchdeck serve` of the
    /// repository with the app in `app`, and waits until it serves.
    pub fn start(&self, benchdeck: &Path, app: &Path) -> Result<()> {
        {
            let mut running = lock(&self.child);
            stop(&mut running, &self.root);
            let child = Command::new(benchdeck)
                .args(["serve", "--port", &PORT.to_string(), "--root"])
                .arg(&self.root)
                .env(bundle::APP_DIR_VAR, app)
                .spawn()
                .with_context(|| format!("cannot start `{} serve`", benchdeck.display()))?;
            *running = Some(child);
        }
        // The process is locked only while asked about, so that a signal meanwhile stops it.
        let exited = || match lock(&self.child).as_mut() {
            Some(child) => child.try_wait(),
            None => Err(std::io::Error::other("the server was stopped")),
        };
        let served = wait_until_served(exited, PORT, "/");
        if served.is_err() {
            stop(&mut lock(&self.child), &self.root);
        }
        served.map(drop)
    }

    /// Says so once if the server stopped by itself.
    pub fn say_if_stopped(&self) {
        let mut running = lock(&self.child);
        let Some(child) = running.as_mut() else {
            return;
        };
        match child.try_wait() {
            Ok(None) => return,
            Ok(Some(status)) => say(format_args!(
                "error: `benchdeck serve` stopped ({status})\nxtask: no server until the next change"
            )),
            Err(error) => say(format_args!(
                "error: cannot ask whether `benchdeck serve` runs: {error}"
            )),
        }
        // Gone: what a build it was in the middle of left goes too.
        if let Some(child) = running.take() {
            if let Err(error) = tidy_after(&self.root, child.id()) {
                say(format_args!("error: {error:#}"));
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        stop(&mut lock(&self.child), &self.root);
    }
}

/// The server's process, even if a thread panicked while holding it: stopping it matters more.
fn lock(child: &Mutex<Option<Child>>) -> MutexGuard<'_, Option<Child>> {
    child.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Stops the server in `running`, if any, waits until it has exited, and removes what a build
/// it stopped in the middle of left in `root`.
fn stop(running: &mut Option<Child>, root: &Path) {
    let Some(mut child) = running.take() else {
        return;
    };
    if let Err(error) = child.kill() {
        say(format_args!(
            "error: cannot stop `benchdeck serve`: {error}"
        ));
    }
    if let Err(error) = child.wait() {
        say(format_args!(
            "error: cannot wait for `benchdeck serve` to stop: {error}"
        ));
    }
    if let Err(error) = tidy_after(root, child.id()) {
        say(format_args!("error: {error:#}"));
    }
}

/// Writes a line to standard error, if it can: after the terminal has closed, writing fails,
/// and `eprintln!` would panic where the server must still be stopped.
fn say(line: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Removes the folder a whole build of the server `pid` was writing beside `dist/`
/// (`.dist.building-PID`, see `cli/src/cmd/build/replace.rs`). A site that build had moved
/// aside is put back by the next server's first build.
fn tidy_after(root: &Path, pid: u32) -> Result<()> {
    let staging = root.join(format!(".dist.building-{pid}"));
    if staging.exists() {
        std::fs::remove_dir_all(&staging)
            .with_context(|| format!("cannot remove `{}`", staging.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_build_leaves_no_folder_behind() {
        let root = std::env::temp_dir().join(format!("xtask-tidy-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join(".dist.building-7/data")).unwrap();
        std::fs::create_dir_all(root.join("dist")).unwrap();
        tidy_after(&root, 7).unwrap();
        tidy_after(&root, 8).unwrap();
        assert!(!root.join(".dist.building-7").exists());
        assert!(root.join("dist").exists());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn stopping_ends_the_process_and_tidies_after_it() {
        let root = std::env::temp_dir().join(format!("xtask-stop-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let child = Command::new("sleep").arg("60").spawn().unwrap();
        let pid = child.id();
        std::fs::create_dir_all(root.join(format!(".dist.building-{pid}"))).unwrap();
        let mut running = Some(child);
        stop(&mut running, &root);
        assert!(running.is_none());
        let alive = Command::new("kill")
            .args(["-0", &pid.to_string()])
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(!alive.success(), "process {pid} still runs");
        assert!(!root.join(format!(".dist.building-{pid}")).exists());
        stop(&mut running, &root);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
