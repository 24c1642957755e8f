//! `benchdeck build` told to stop in the middle, as a terminal's Ctrl-C or `kill` tells it:
//! it removes the staging folder it was writing and leaves no site.
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Copies the folder `from` into `to`, recursively.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Writes the smallest app a site can be built with into `dir`: the page template with the
/// comment marker and trunk's loader that `benchdeck pages` reads, and no wasm. The test hands
/// it to the build through `BENCHDECK_APP_DIR`, so it does not depend on whether `cli/bundle/`
/// was built before benchdeck was compiled (a clean checkout's `cargo xtask test` compiles it
/// without).
fn write_app(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <!-- benchdeck:head -->\n</head>\n<body>\n<div id=\"app\"></div>\n\
         <script type=\"module\">\nimport init, * as bindings from '/app.js';\n\
         const wasm = await init({ module_or_path: '/app_bg.wasm' });\n</script></body>\n</html>\n",
    )
    .unwrap();
}

/// The staging folders beside `dist` in `project`.
fn staging_folders(project: &Path) -> Vec<String> {
    std::fs::read_dir(project)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".dist.building-"))
        .collect()
}

#[test]
fn a_build_told_to_stop_removes_its_staging_folder() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for signal in ["-INT", "-TERM"] {
        let project = tempfile::tempdir().unwrap();
        // The repository's own results and reports: a build of a few seconds.
        copy_folder(&repo.join("results"), &project.path().join("results"));
        copy_folder(&repo.join("reports"), &project.path().join("reports"));
        let app = tempfile::tempdir().unwrap();
        write_app(app.path());
        let mut build = Command::new(env!("CARGO_BIN_EXE_benchdeck"))
            .current_dir(project.path())
            .env("BENCHDECK_APP_DIR", app.path())
            .args(["build", "--out", "dist"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while staging_folders(project.path()).is_empty() {
            assert!(
                build.try_wait().unwrap().is_none(),
                "the build ended before its staging folder was seen"
            );
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "no staging folder"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        let killed = Command::new("kill")
            .args([signal, &build.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let output = build.wait_with_output().unwrap();
        let said = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(130), "{signal}: {said}");
        assert!(
            said.contains("benchdeck: stopped; the site was not written"),
            "{said}"
        );
        assert_eq!(
            staging_folders(project.path()),
            Vec::<String>::new(),
            "{signal}"
        );
        assert!(!project.path().join("dist").exists(), "{signal}");
    }
}
