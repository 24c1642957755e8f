//! `new report`: the report it writes builds without a problem of its own and takes the files
//! off their automatic page; it never overwrites, and says why when the paths hold no run.

use super::*;
use benchdeck_core::assemble::build_site;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/vllm/concurrency2-qwen.json"
);

/// A project folder with `results/qwen/a.json`, `results/qwen/b[1].json` and
/// `results/notes/todo.txt`.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let qwen = dir.path().join("results/qwen");
    std::fs::create_dir_all(&qwen).unwrap();
    std::fs::copy(FIXTURE, qwen.join("a.json")).unwrap();
    std::fs::copy(FIXTURE, qwen.join("b[1].json")).unwrap();
    std::fs::create_dir_all(dir.path().join("results/notes")).unwrap();
    std::fs::write(dir.path().join("results/notes/todo.txt"), "rerun").unwrap();
    dir
}

fn new_report(dir: &Path, name: &str, paths: &[&str]) -> Result<ExitCode> {
    execute(&Args {
        what: What::Report(ReportArgs {
            name: name.into(),
            paths: paths.iter().map(|p| dir.join(p)).collect(),
            reports: dir.join("reports"),
            results: dir.join("results"),
        }),
    })
}

fn site(dir: &Path) -> benchdeck_core::assemble::BuiltSite {
    let reports = files::read_inputs(&dir.join("reports"), |_| true)
        .unwrap()
        .files;
    let results = files::read_inputs(&dir.join("results"), |_| true)
        .unwrap()
        .files;
    build_site(&reports, &results)
}

#[test]
fn a_folder_gives_a_report_that_builds_and_replaces_its_automatic_page() {
    let dir = project();
    let before = site(dir.path());
    assert_eq!(before.pages[0].summary.automatic.as_deref(), Some("qwen"));
    new_report(dir.path(), "qwen-study", &["results/qwen"]).unwrap();
    let text = std::fs::read_to_string(dir.path().join("reports/qwen-study.md")).unwrap();
    assert!(text.starts_with("---\ntitle: \"Qwen study\"\n"), "{text}");
    assert!(text.contains("results: [\"qwen/**\"]"), "{text}");
    let after = site(dir.path());
    assert_eq!(
        after.errors().count(),
        0,
        "{:?}",
        after.errors().collect::<Vec<_>>()
    );
    let slugs: Vec<&str> = after
        .index
        .reports
        .iter()
        .map(|r| r.slug.as_str())
        .collect();
    assert_eq!(slugs, ["qwen-study"], "the automatic page is gone");
    let page = &after.pages[0];
    assert_eq!(page.sources, ["qwen/a.json", "qwen/b[1].json"]);
    assert!(page.charts().count() > 0);
}

#[test]
fn a_file_whose_name_holds_glob_characters_is_selected_alone() {
    let dir = project();
    new_report(dir.path(), "one", &["results/qwen/b[1].json"]).unwrap();
    let text = std::fs::read_to_string(dir.path().join("reports/one.md")).unwrap();
    assert!(text.contains("results: [\"qwen/b[[]1[]].json\"]"), "{text}");
    let after = site(dir.path());
    let one = after
        .pages
        .iter()
        .find(|p| p.summary.slug == "one")
        .unwrap();
    assert_eq!(one.sources, ["qwen/b[1].json"]);
}

#[test]
fn it_never_overwrites_and_says_what_is_wrong_with_its_paths() {
    let dir = project();
    new_report(dir.path(), "r", &[]).unwrap();
    let error = new_report(dir.path(), "r", &[]).unwrap_err().to_string();
    assert!(error.contains("r.md` exists already"), "{error}");
    let error = new_report(dir.path(), "n", &["results/notes"])
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("no run in") && error.contains("benchdeck inspect"),
        "{error}"
    );
    let error = new_report(dir.path(), "o", &["reports"])
        .unwrap_err()
        .to_string();
    assert!(error.contains("is not inside"), "{error}");
    let error = new_report(dir.path(), "x y", &[]).unwrap_err().to_string();
    assert!(error.contains("letters, digits"), "{error}");
    let error = new_report(dir.path(), "m", &["results/missing"])
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("cannot read") && error.contains("missing"),
        "{error}"
    );
}
