//! `cargo xtask serve`: the repository's `reports/` and `results/` served by the checkout's own
//! `benchdeck serve`, so that writing a report here works as it does for a user: a save
//! rebuilds that report alone and the open page reloads where the reader was.
//!
//! The web app is built by trunk in the dev profile (quick to compile; large and slower in the
//! browser than the published one) into `target/serve/app/`, which the debug `benchdeck` writes
//! into the site instead of the app it carries (`BENCHDECK_APP_DIR`, see `cli/src/bundle.rs`)
//! when its server starts. When the app's code changes it is built again, and benchdeck is
//! built again if it changed; then the server is started again, and its open pages notice the
//! new server and reload. A build that fails leaves the last good server running; a server
//! that stops is started again after the next change. The server stops with xtask
//! (`serve/server.rs`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

use anyhow::{bail, Result};

use crate::bundle;
use crate::run::{self, step};
use crate::tools::Toolbox;
use crate::trunk::Profile;
use server::Server;

mod server;

/// How often the code is looked at for changes.
const POLL: Duration = Duration::from_millis(500);
/// The folders and files the web app is built from.
const APP_CODE: &[&str] = &[
    "app",
    "worker",
    "core",
    "style",
    "Cargo.toml",
    "Cargo.lock",
    "Trunk.toml",
];
/// What else benchdeck is built from.
const CLI_CODE: &[&str] = &["cli"];
/// What lies among the code but is not code: the bundle that `cargo xtask dist` writes, and
/// build output.
const NOT_CODE: &[&str] = &["cli/bundle", "target", "node_modules"];

/// Builds the app and benchdeck, serves the site, and builds and serves again when the code
/// changes. Returns only when the first build or the first server fails.
pub fn run(root: &Path, toolbox: &Toolbox) -> Result<()> {
    let work = crate::tools::target_dir(root).join("serve");
    // Taken before building: what is saved meanwhile is built next.
    let mut code = Code::now(root);
    build_app(root, toolbox, &work)?;
    let server = Server::new(root)?;
    server.start(&build_benchdeck(root)?, &work.join("app"))?;
    let mut app_outdated = false;
    loop {
        std::thread::sleep(POLL);
        server.say_if_stopped();
        let Some(change) = code.change(root) else {
            continue;
        };
        step(&format!(
            "{} changed: building again",
            change.file.display()
        ));
        app_outdated |= change.in_app;
        if app_outdated {
            if let Err(error) = build_app(root, toolbox, &work) {
                eprintln!("error: {error:#}\nxtask: still serving the last build");
                continue;
            }
            app_outdated = false;
        }
        match build_benchdeck(root) {
            Ok(benchdeck) => {
                if let Err(error) = server.start(&benchdeck, &work.join("app")) {
                    eprintln!("error: {error:#}\nxtask: no server until the next change");
                }
            }
            Err(error) => eprintln!("error: {error:#}\nxtask: still serving the last build"),
        }
    }
}

/// The web app in the dev profile, built in `work` into `work/app/`.
fn build_app(root: &Path, toolbox: &Toolbox, work: &Path) -> Result<()> {
    let files = bundle::build_app(root, toolbox, &work.join("build"), Profile::Dev)?;
    bundle::write_app(&work.join("app"), &files)
}

/// The debug `benchdeck`; its path.
fn build_benchdeck(root: &Path) -> Result<PathBuf> {
    step("building benchdeck");
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

/// What the code looked like when last seen: the app's and benchdeck's files.
struct Code {
    app: Vec<Stamp>,
    cli: Vec<Stamp>,
}

/// A file's path, size and modification time.
type Stamp = (PathBuf, u64, Option<SystemTime>);

/// A change to the code: one of the files that changed, and whether the app is built from it.
struct Change {
    file: PathBuf,
    in_app: bool,
}

impl Code {
    fn now(root: &Path) -> Code {
        Code {
            app: fingerprint(root, APP_CODE),
            cli: fingerprint(root, CLI_CODE),
        }
    }

    /// What changed since the code was last seen, now seen.
    fn change(&mut self, root: &Path) -> Option<Change> {
        let now = Code::now(root);
        let change = changed_file(&self.app, &now.app)
            .map(|file| Change { file, in_app: true })
            .or_else(|| {
                changed_file(&self.cli, &now.cli).map(|file| Change {
                    file,
                    in_app: false,
                })
            });
        *self = now;
        change
    }
}

/// A file added, changed or removed between `before` and `after`, if any.
fn changed_file(before: &[Stamp], after: &[Stamp]) -> Option<PathBuf> {
    if before == after {
        return None;
    }
    let (old, new): (HashSet<_>, HashSet<_>) = (before.iter().collect(), after.iter().collect());
    new.symmetric_difference(&old)
        .map(|(path, _, _)| path.clone())
        .min()
}

/// The stamp of every file under `names` (folders and files of `root`), in order: a change to
/// any shows.
fn fingerprint(root: &Path, names: &[&str]) -> Vec<Stamp> {
    let mut files = Vec::new();
    for name in names {
        walk(root, &root.join(name), &mut files);
    }
    files.sort();
    files
}

/// Adds the stamps of the files under `path` to `files`, leaving out what is not code and the
/// files editors keep beside the ones they edit (`.x.swp`, `#x#`, `x~`).
fn walk(root: &Path, path: &Path, files: &mut Vec<Stamp>) {
    let relative = path.strip_prefix(root).unwrap_or(path);
    if NOT_CODE
        .iter()
        .any(|skip| relative.ends_with(skip) || relative.starts_with(skip))
        || is_editors(path)
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

/// Whether `path` is an editor's file: hidden, an autosave or a backup.
fn is_editors(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    name.starts_with('.') || name.starts_with('#') || name.ends_with('~')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_code_file_shows_and_the_bundle_and_editors_files_do_not() {
        let root = std::env::temp_dir().join(format!("xtask-serve-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for dir in ["app/src", "cli/bundle", "core/target"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        std::fs::write(root.join("app/src/main.rs"), "fn main() {}").unwrap();
        let before = fingerprint(&root, &["app", "cli", "core"]);
        assert_eq!(before.len(), 1);

        std::fs::write(root.join("cli/bundle/app.wasm"), "new").unwrap();
        std::fs::write(root.join("core/target/x"), "built").unwrap();
        assert_eq!(fingerprint(&root, &["app", "cli", "core"]), before);

        for editors in [".main.rs.swp", "#main.rs#", "main.rs~"] {
            std::fs::write(root.join("app/src").join(editors), "draft").unwrap();
        }
        assert_eq!(fingerprint(&root, &["app", "cli", "core"]), before);

        std::fs::write(root.join("app/src/main.rs"), "fn main() { }").unwrap();
        let after = fingerprint(&root, &["app", "cli", "core"]);
        assert_eq!(
            changed_file(&before, &after),
            Some(root.join("app/src/main.rs"))
        );
        assert_eq!(changed_file(&after, &after), None);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
