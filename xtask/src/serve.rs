//! `cargo xtask serve`: the repository's `reports/` and `results/` served by the checkout's own
//! `benchdeck serve`, so that writing a report here works as it does for a user: a save
//! rebuilds that report alone and the open page reloads where the reader was.
//!
//! The web app is built by trunk in the dev profile (quick to compile; large and slower in the
//! browser than the published one) into `target/serve/app/`, which the debug `benchdeck` writes
//! into the site instead of the app it carries (`BENCHDECK_APP_DIR`, see `cli/src/bundle.rs`).
//! When the app's code changes it is built again, and when anything benchdeck is made of
//! changes, benchdeck too; then the server is started again, and its open pages notice the new
//! server and reload. A failed build leaves the last good server running.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, SystemTime};

use anyhow::{bail, Context, Result};

use crate::bundle::{self, Profile};
use crate::run::{self, step};
use crate::tools::Toolbox;

/// The address pages are served at.
const PORT: &str = "8080";
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
/// changes. Returns only when a server stops by itself or the first build fails.
pub fn run(root: &Path, toolbox: &Toolbox) -> Result<()> {
    let app = crate::tools::target_dir(root).join("serve");
    build_app(root, toolbox, &app)?;
    let mut server = start(root, &build_benchdeck(root)?, &app.join("app"))?;
    let (mut app_seen, mut cli_seen) = (fingerprint(root, APP_CODE), fingerprint(root, CLI_CODE));
    loop {
        std::thread::sleep(POLL);
        if let Some(status) = server.try_wait()? {
            bail!("`benchdeck serve` stopped ({status})");
        }
        let (app_now, cli_now) = (fingerprint(root, APP_CODE), fingerprint(root, CLI_CODE));
        if app_now == app_seen && cli_now == cli_seen {
            continue;
        }
        let app_changed = app_now != app_seen;
        // What changes while building is built on the next look.
        (app_seen, cli_seen) = (app_now, cli_now);
        step("the code changed: building again");
        let built = if app_changed {
            build_app(root, toolbox, &app)
        } else {
            Ok(())
        }
        .and_then(|()| build_benchdeck(root));
        match built {
            Ok(benchdeck) => {
                stop(&mut server);
                server = start(root, &benchdeck, &app.join("app"))?;
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

/// `benchdeck serve` of the repository with the app in `app`, in the background.
fn start(root: &Path, benchdeck: &Path, app: &Path) -> Result<Child> {
    Command::new(benchdeck)
        .args(["serve", "--port", PORT, "--root"])
        .arg(root)
        .env("BENCHDECK_APP_DIR", app)
        .spawn()
        .with_context(|| format!("cannot start `{} serve`", benchdeck.display()))
}

/// Stops a server and waits until its port is free.
fn stop(server: &mut Child) {
    // Already stopped is no error: the next server says whether the port is free.
    let _ = server.kill();
    let _ = server.wait();
}

/// The path, size and modification time of every file under `names` (folders and files of
/// `root`), in order: a change to any shows.
fn fingerprint(root: &Path, names: &[&str]) -> Vec<(PathBuf, u64, Option<SystemTime>)> {
    let mut files = Vec::new();
    for name in names {
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
        let before = fingerprint(&root, &["app", "cli", "core"]);
        assert_eq!(before.len(), 1);

        std::fs::write(root.join("cli/bundle/app.wasm"), "new").unwrap();
        std::fs::write(root.join("core/target/x"), "built").unwrap();
        assert_eq!(fingerprint(&root, &["app", "cli", "core"]), before);

        std::fs::write(root.join("app/src/main.rs"), "fn main() { }").unwrap();
        assert_ne!(fingerprint(&root, &["app", "cli", "core"]), before);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
