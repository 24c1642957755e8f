//! `build`: the public URL rule, the folders it refuses to replace, and a whole site from a
//! folder of results (or, in a binary without the web app, the message that says how to get
//! one), never written over a good site when it fails.

use super::*;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/vllm/concurrency2-qwen.json"
);

#[test]
fn the_public_url_comes_from_the_flag_or_the_site_url() {
    assert_eq!(public_url(None, None).unwrap(), "/");
    assert_eq!(public_url(Some("repo"), None).unwrap(), "/repo/");
    assert_eq!(
        public_url(None, Some("https://u.github.io/repo")).unwrap(),
        "/repo/"
    );
    assert_eq!(
        public_url(None, Some("https://bench.example.com")).unwrap(),
        "/"
    );
    let error = public_url(Some("/a/"), Some("https://u.github.io/b/")).unwrap_err();
    assert!(error.to_string().contains("differ"), "{error}");
}

#[test]
fn it_never_replaces_a_folder_that_is_not_a_site() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("results")).unwrap();
    std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
    let error = build(dir.path(), dir.path(), "/", None, false).unwrap_err();
    assert!(
        error.to_string().contains("is not a site benchdeck built"),
        "{error}"
    );
    assert!(dir.path().join("notes.txt").is_file());
    let error = build(
        &dir.path().join("nope"),
        &dir.path().join("d"),
        "/",
        None,
        false,
    )
    .unwrap_err();
    assert!(error.to_string().contains("is not a folder"), "{error}");
}

/// A project with one folder of results and no report.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("results/qwen")).unwrap();
    std::fs::copy(FIXTURE, dir.path().join("results/qwen/a.json")).unwrap();
    dir
}

#[test]
fn a_folder_of_results_becomes_a_site_or_the_binary_says_how_to_get_the_app() {
    let dir = project();
    let out = dir.path().join("site");
    let built = build(dir.path(), &out, "/repo/", None, false);
    if !crate::bundle::present() {
        let error = built.unwrap_err().to_string();
        assert!(error.contains("cargo xtask dist"), "{error}");
        return;
    }
    assert_eq!(built.unwrap(), ExitCode::SUCCESS);
    let home = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(home.contains("<base href=\"/repo/\">"), "{home}");
    assert!(!home.contains(crate::bundle::PUBLIC_URL_PLACEHOLDER));
    assert!(home.contains("made automatically"), "{home}");
    assert!(out.join("qwen/index.html").is_file());

    // A report with an error: the build fails and the good site stays.
    std::fs::create_dir_all(dir.path().join("reports")).unwrap();
    std::fs::write(
        dir.path().join("reports/bad.md"),
        "---\ntitle: Bad\nresults: [\"missing/*\"]\n---\n",
    )
    .unwrap();
    assert_eq!(
        build(dir.path(), &out, "/repo/", None, false).unwrap(),
        ExitCode::from(1)
    );
    assert_eq!(
        std::fs::read_to_string(out.join("index.html")).unwrap(),
        home
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert_eq!(leftovers, Vec::<String>::new(), "no staging folder is left");
}
