//! `cargo xtask serve`: the repository's `reports/` and `results/` served by the checkout's own
//! `benchdeck serve`, so that writing a report here works as it does for a user: a save
//! rebuilds that report alone and the open page reloads where the reader was.
//!
//! The web app is built once by trunk into `cli/bundle/` ([`crate::bundle`]) and carried by the
//! debug `benchdeck`. When the code of the app or of benchdeck changes, both are built again and
//! the server is started again; its open pages notice the new server and reload. A failed build
//! leaves the last good server running.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, SystemTime};

use anyhow::{bail, Context, Result};

use crate::run::{self, step};
use crate::tools::Toolbox;

/// The address pages are served at.
const PORT: &str = "8080";
/// How often the code is looked at for changes.
const POLL: Duration = Duration::from_millis(500);
/// The folders and files whose change means the app or benchdeck must be built again.
const CODE: &[&str] = &[
    "app",
    "worker",
    "core",
    "cli",
    "style",
    "Cargo.toml",
    "Cargo.lock",
    "Trunk.toml",
];
/// What lies among [`CODE`] but is not code: the bundle that a build writes, and build output.
const NOT_CODE: &[&str] = &["cli/bundle", "target", "node_modules"];

/// Builds the app and benchdeck, serves the site, and builds and serves again when the code
/// changes. Returns only when a server stops by itself or the first build fails.
pub fn run(root: &Path, toolbox: &Toolbox) -> Result<()> {
    let mut server = start(root, &build(root, toolbox)?)?;
    let mut seen = fingerprint(root);
    loop {
        std::thread::sleep(POLL);
        if let Some(status) = server.try_wait()? {
            bail!("`benchdeck serve` stopped ({status})");
        }
        let now = fingerprint(root);
        if now == seen {
            continue;
        }
        seen = now;
        step("the code changed: building the app and benchdeck again");
        match build(root, toolbox) {
            Ok(benchdeck) => {
                stop(&mut server);
                server = start(root, &benchdeck)?;
            }
            Err(error) => eprintln!("error: {error:#}\nxtask: still serving the last build"),
        }
        // What changed while building is built on the next look.
    }
}

/// The web app into `cli/bundle/`, then the debug `benchdeck` carrying it; its path.
fn build(root: &Path, toolbox: &Toolbox) -> Result<PathBuf> {
    crate::bundle::build(root, toolbox)?;
    step("building benchdeck with the app");
    run::status(Command::new("cargo").current_dir(root).args([
        "build",
        "--quiet",
        "--package",
        "benchdeck",
    ]))?;
    let binary = crate::tools::target_dir(root)
        .join("debug")
        .join(format!("benchdeck{}", std::env::consts::EXE_SUFFIX));
    if !binary.is_file() {
        bail!("the build left no `{}`", binary.display());
    }
    Ok(binary)
}

/// `benchdeck serve` of the repository, in the background.
fn start(root: &Path, benchdeck: &Path) -> Result<Child> {
    Command::new(benchdeck)
        .args(["serve", "--port", PORT, "--root"])
        .arg(root)
        .spawn()
        .with_context(|| format!("cannot start `{} serve`", benchdeck.display()))
}

/// Stops a server and waits until its port is free.
fn stop(server: &mut Child) {
    // Already stopped is no error: the next server says whether the port is free.
    let _ = server.kill();
    let _ = server.wait();
}

/// Every code file's path, size and modification time, in order: a change to any shows.
fn fingerprint(root: &Path) -> Vec<(PathBuf, u64, Option<SystemTime>)> {
    let mut files = Vec::new();
    for name in CODE {
        walk(root, &root.join(name), &mut files);
    }
    files.sort();
    files
}

fn walk(root: &Path, path: &Path, files: &mut Vec<(PathBuf, u64, Option<SystemTime>)>) {
    let relative = path.strip_prefix(root).unwrap_or(path);
    if NOT_CODE
        .iter()
        .any(|skip| relative.ends_with(skip) || relative.starts_with(skip))
    {
        return;
    }
    let Ok(meta) = std::fs::metadata(path) else {
        return;
    };
    if meta.is_dir() {
        for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
            walk(root, &entry.path(), files);
        }
    } else {
        files.push((path.to_path_buf(), meta.len(), meta.modified().ok()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_code_file_changes_the_fingerprint_and_the_bundle_does_not() {
        let root = std::env::temp_dir().join(format!("xtask-serve-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for dir in ["app/src", "cli/bundle", "core/target"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        std::fs::write(root.join("app/src/main.rs"), "fn main() {}").unwrap();
        let before = fingerprint(&root);
        assert_eq!(before.len(), 1);

        std::fs::write(root.join("cli/bundle/app.wasm"), "new").unwrap();
        std::fs::write(root.join("core/target/x"), "built").unwrap();
        assert_eq!(fingerprint(&root), before);

        std::fs::write(root.join("app/src/main.rs"), "fn main() { }").unwrap();
        assert_ne!(fingerprint(&root), before);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
