//! `build`: the public URL rule, the folders it refuses to replace, and a whole site from a
//! folder of results (with the bundled app, or in a binary built without one the smallest app,
//! `bundle::TEST_APP`, so these run in `cargo xtask test` too), never written over a good site
//! when it fails, put back when the new one cannot be moved in, and through a linked `--out`.

use super::replace::{remove_abandoned_at, staging_folder, swap_in};
use super::*;
use std::time::{Duration, SystemTime};

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
    let error = build(dir.path(), dir.path(), &options("/")).unwrap_err();
    assert!(
        error.to_string().contains("is not a site benchdeck built"),
        "{error}"
    );
    assert!(dir.path().join("notes.txt").is_file());
    let error = build(
        &dir.path().join("nope"),
        &dir.path().join("d"),
        &options("/"),
    )
    .unwrap_err();
    assert!(error.to_string().contains("is not a folder"), "{error}");
}

/// A project with one folder of results and no report.
pub(super) fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("results/qwen")).unwrap();
    std::fs::copy(FIXTURE, dir.path().join("results/qwen/a.json")).unwrap();
    dir
}

/// How the tests build: under `public_url`, failing on errors.
pub(super) fn options(public_url: &str) -> Options {
    Options {
        public_url: public_url.to_string(),
        ..Options::default()
    }
}

/// The names of `dir`'s hidden entries but the build cache: staging folders or old sites left
/// behind.
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.') && n != ".benchdeck")
        .collect()
}

#[test]
fn a_folder_of_results_becomes_a_site_and_a_failed_build_keeps_the_good_one() {
    let dir = project();
    let out = dir.path().join("site");
    assert_eq!(
        build(dir.path(), &out, &options("/repo/")).unwrap(),
        ExitCode::SUCCESS
    );
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
        build(dir.path(), &out, &options("/repo/")).unwrap(),
        ExitCode::from(1)
    );
    assert_eq!(
        std::fs::read_to_string(out.join("index.html")).unwrap(),
        home
    );
    assert_eq!(
        leftovers(dir.path()),
        Vec::<String>::new(),
        "no staging folder is left"
    );
}

#[test]
fn only_result_files_are_published_beside_pages_scripts_tokens_and_a_600_mb_file() {
    let dir = project();
    let qwen = dir.path().join("results/qwen");
    std::fs::write(
        qwen.join("index.html"),
        "<script>indexedDB.open('kept')</script>",
    )
    .unwrap();
    std::fs::write(
        qwen.join("chart.svg"),
        "<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
    )
    .unwrap();
    std::fs::write(
        qwen.join("server.log"),
        "INFO starting\nHF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh\n",
    )
    .unwrap();
    let huge = std::fs::File::create(qwen.join("huge.json")).unwrap();
    huge.set_len(600 * 1024 * 1024).unwrap();
    let out = dir.path().join("site");
    assert_eq!(
        build(dir.path(), &out, &options("/")).unwrap(),
        ExitCode::SUCCESS
    );
    let mut published: Vec<String> = std::fs::read_dir(out.join("results/qwen"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    published.sort();
    assert_eq!(published, ["a.json"]);
    assert!(out.join("qwen/index.html").is_file());
}

/// A site built once into `out`, and its home page.
fn built_once(dir: &Path, out: &Path) -> String {
    assert_eq!(build(dir, out, &options("/")).unwrap(), ExitCode::SUCCESS);
    std::fs::read_to_string(out.join("index.html")).unwrap()
}

#[test]
fn when_the_new_site_cannot_be_moved_in_the_old_one_is_moved_back() {
    let dir = project();
    let out = dir.path().join("dist");
    let home = built_once(dir.path(), &out);
    let staging = staging_folder(&out).unwrap();
    std::fs::write(staging.join("index.html"), "new").unwrap();
    // The second move fails, as on a full disk or a folder held open on Windows.
    let error = swap_in(&staging, &out, |from, to| {
        if from == staging {
            Err(std::io::Error::other("refused"))
        } else {
            std::fs::rename(from, to)
        }
    })
    .unwrap_err();
    assert!(
        format!("{error:#}").contains("the old site is back in place"),
        "{error:#}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("index.html")).unwrap(),
        home
    );
    assert!(!staging.with_extension("old").exists());

    // An old site left aside by a build that stopped between the moves is put back, not lost.
    std::fs::remove_dir_all(&staging).unwrap();
    let old = staging.with_extension("old");
    std::fs::rename(&out, &old).unwrap();
    assert_eq!(built_once(dir.path(), &out), home);
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

#[cfg(unix)]
#[test]
fn a_linked_out_is_followed_and_stays_a_link() {
    let dir = project();
    let target = dir.path().join("served");
    let link = dir.path().join("dist");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let error = build(dir.path(), &link, &options("/")).unwrap_err();
    assert!(format!("{error:#}").contains("leads nowhere"), "{error:#}");
    std::fs::create_dir(&target).unwrap();
    let home = built_once(dir.path(), &link);
    assert!(home.contains("made automatically"));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(target.join("index.html").is_file());
    // Built again through the link: the folder it leads to is replaced, the link stays.
    built_once(dir.path(), &link);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(target.join("qwen/index.html").is_file());
}

/// Every file below `dir` with its bytes, by path relative to it.
pub(super) fn tree(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    for path in crate::files::collect(dir).unwrap() {
        let relative = crate::files::relative(dir, &path);
        files.insert(relative, std::fs::read(&path).unwrap());
    }
    files
}

#[test]
fn a_session_rewrites_only_what_changed_and_ends_where_a_whole_build_does() {
    let dir = project();
    let reports = dir.path().join("reports");
    std::fs::create_dir_all(&reports).unwrap();
    let report = |name: &str, text: &str| {
        std::fs::write(
            reports.join(format!("{name}.md")),
            format!(
                "---\ntitle: {name}\nresults: [\"qwen/*\"]\n---\n\n{text}\n\n```chart\nid: ttft\n\
                 metric: ttft\nstat: mean\n```\n"
            ),
        )
        .unwrap();
    };
    report("a", "First words.");
    report("b", "Other words.");
    let options = Options {
        keep_going: true,
        pngs_on_request: true,
        ..options("/")
    };
    let out = dir.path().join("dist");
    let mut session = Session::keeping();
    assert_eq!(
        session.build(dir.path(), &out, &options).unwrap(),
        ExitCode::SUCCESS
    );
    assert!(out.join("charts/a/ttft.svg").is_file());
    assert!(
        !out.join("charts/a/ttft.png").exists(),
        "PNGs are made when asked for"
    );

    // One report changes: its page is written again, and no other.
    std::fs::write(out.join("b/index.html"), "untouched").unwrap();
    report("a", "Second words.");
    session.build(dir.path(), &out, &options).unwrap();
    let a = std::fs::read_to_string(out.join("a/index.html")).unwrap();
    assert!(a.contains("Second words.") && !a.contains("First words."));
    assert_eq!(
        std::fs::read_to_string(out.join("b/index.html")).unwrap(),
        "untouched"
    );

    // A report removed, another changed, a folder of results added: the next build leaves the
    // site a whole build of the same files makes.
    std::fs::remove_file(reports.join("a.md")).unwrap();
    report("b", "Other words, again.");
    std::fs::create_dir_all(dir.path().join("results/llama")).unwrap();
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/vllm/llama-appended.jsonl"
        ),
        dir.path().join("results/llama/l.jsonl"),
    )
    .unwrap();
    session.build(dir.path(), &out, &options).unwrap();
    assert!(!out.join("a").exists() && !out.join("charts/a").exists());
    assert!(out.join("results/llama/l.jsonl").is_file());
    let whole = dir.path().join("whole");
    Session::default()
        .build(dir.path(), &whole, &options)
        .unwrap();
    let (updated, whole) = (tree(&out), tree(&whole));
    assert_eq!(
        updated.keys().collect::<Vec<_>>(),
        whole.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &whole {
        assert!(updated[path] == *bytes, "{path} differs");
    }
}

#[test]
fn a_staging_folder_left_by_a_stopped_build_is_removed_once_quiet_and_a_running_ones_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (parent, proc) = (dir.path().join("project"), dir.path().join("proc"));
    // A process table in which pid 7 runs; 8 and 9 do not.
    for running in ["self", "7"] {
        std::fs::create_dir_all(proc.join(running)).unwrap();
    }
    for left in [
        ".dist.building-7",
        ".dist.building-8",
        ".dist.building-9",
        ".dist.building-+9",
        ".dist.building-x",
        ".site.building-8",
    ] {
        std::fs::create_dir_all(parent.join(left).join("data")).unwrap();
    }
    std::fs::write(parent.join(".dist.building-9/data/index.bin"), "x").unwrap();
    let now = SystemTime::now();
    // Just written: a build may still be writing them, wherever it runs.
    remove_abandoned_at(&parent, "dist", &proc, now);
    assert!(parent.join(".dist.building-8").exists());
    // Quiet for an hour: gone unless its process runs; other names are never touched.
    remove_abandoned_at(&parent, "dist", &proc, now + Duration::from_secs(3600));
    for gone in [".dist.building-8", ".dist.building-9"] {
        assert!(!parent.join(gone).exists(), "{gone} was kept");
    }
    for kept in [
        ".dist.building-7",
        ".dist.building-+9",
        ".dist.building-x",
        ".site.building-8",
    ] {
        assert!(parent.join(kept).exists(), "{kept} was removed");
    }
    // With no process table, the quiet alone decides.
    remove_abandoned_at(
        &parent,
        "dist",
        &dir.path().join("none"),
        now + Duration::from_secs(3600),
    );
    assert!(!parent.join(".dist.building-7").exists());
}
