//! The build cache: a second build with nothing changed writes nothing; a changed report, a
//! changed result file, another `--out` or other options build again and give the site a build
//! without the cache gives; a cache that cannot be read, and a cached PNG that is no PNG, are
//! never trusted; and a build on one core writes what one on many does.

use std::path::Path;
use std::process::ExitCode;

use super::super::tests::{options, project, tree};
use super::super::{build, Session};
use super::{Cache, Keyed, CACHE_DIR};

/// A project with a report beside its results.
fn project_with_report() -> tempfile::TempDir {
    let dir = project();
    std::fs::create_dir_all(dir.path().join("reports")).unwrap();
    write_report(dir.path(), "Mean TTFT");
    dir
}

fn write_report(root: &Path, title: &str) {
    let report = format!(
        "---\ntitle: Qwen\nresults: [\"qwen/*\"]\n---\n\nWords.\n\n```chart\nid: ttft\n\
         title: {title}\nmetric: ttft\nstat: mean\n```\n"
    );
    std::fs::write(root.join("reports/qwen.md"), report).unwrap();
}

/// The site `root` builds without any cache, in a folder of its own.
fn built_without_cache(root: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    let code = Session::default()
        .build(root, &site, &options("/"))
        .unwrap();
    assert_eq!(code, ExitCode::SUCCESS);
    tree(&site)
}

fn is_current(root: &Path, out: &Path) -> bool {
    let cache = Cache::open(root);
    let keyed = Keyed::read(root, &options("/"), &cache).unwrap();
    cache.is_current(&keyed, out)
}

#[test]
fn a_build_with_nothing_changed_writes_nothing() {
    let dir = project_with_report();
    let out = dir.path().join("site");
    assert!(!is_current(dir.path(), &out));
    assert_eq!(
        build(dir.path(), &out, &options("/")).unwrap(),
        ExitCode::SUCCESS
    );
    assert!(dir.path().join(CACHE_DIR).join("build.bin").is_file());
    assert!(is_current(dir.path(), &out));
    let before = crate::files::fingerprint(std::slice::from_ref(&out));
    assert_eq!(
        build(dir.path(), &out, &options("/")).unwrap(),
        ExitCode::SUCCESS
    );
    assert_eq!(
        crate::files::fingerprint(std::slice::from_ref(&out)),
        before,
        "nothing written"
    );
    // Other options, another --out, or a site changed by hand: not current.
    let cache = Cache::open(dir.path());
    let keyed = Keyed::read(dir.path(), &options("/repo/"), &cache).unwrap();
    assert!(!cache.is_current(&keyed, &out));
    assert!(!is_current(dir.path(), &dir.path().join("elsewhere")));
    std::fs::write(out.join("extra.html"), "mine").unwrap();
    assert!(!is_current(dir.path(), &out));
}

#[test]
fn a_changed_report_or_result_builds_the_site_a_build_without_cache_gives() {
    let dir = project_with_report();
    let out = dir.path().join("site");
    build(dir.path(), &out, &options("/")).unwrap();
    write_report(dir.path(), "Mean time to first token");
    assert!(!is_current(dir.path(), &out));
    assert_eq!(
        build(dir.path(), &out, &options("/")).unwrap(),
        ExitCode::SUCCESS
    );
    let site = tree(&out);
    assert!(String::from_utf8_lossy(&site["qwen/index.html"]).contains("Mean time to first token"));
    assert_eq!(site, built_without_cache(dir.path()));
    // A result file changed: every report reads it again.
    let json = std::fs::read_to_string(dir.path().join("results/qwen/a.json")).unwrap();
    std::fs::write(
        dir.path().join("results/qwen/b.json"),
        json.replace("qwen", "qwen-b"),
    )
    .unwrap();
    build(dir.path(), &out, &options("/")).unwrap();
    assert_eq!(tree(&out), built_without_cache(dir.path()));
}

#[test]
fn a_cache_that_cannot_be_read_and_a_png_that_is_no_png_are_never_trusted() {
    let dir = project_with_report();
    let out = dir.path().join("site");
    build(dir.path(), &out, &options("/")).unwrap();
    let cache = dir.path().join(CACHE_DIR);
    std::fs::write(cache.join("build.bin"), b"benchdeck 0.0.1\\nnot ours").unwrap();
    for png in std::fs::read_dir(cache.join("png")).unwrap() {
        std::fs::write(png.unwrap().path(), b"not a png").unwrap();
    }
    assert!(!is_current(dir.path(), &out));
    assert_eq!(
        build(dir.path(), &out, &options("/")).unwrap(),
        ExitCode::SUCCESS
    );
    let site = tree(&out);
    assert_eq!(site, built_without_cache(dir.path()));
    let png = &site["charts/qwen/ttft.png"];
    assert!(png.starts_with(b"\x89PNG"), "the PNG was drawn again");
    assert!(is_current(dir.path(), &out), "the cache was written anew");
}

#[test]
fn a_build_on_one_core_is_the_same_byte_for_byte() {
    let dir = project_with_report();
    let serial = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| built_without_cache(dir.path()));
    let parallel = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap()
        .install(|| built_without_cache(dir.path()));
    assert!(serial.len() > 10, "{} files", serial.len());
    assert_eq!(serial, parallel);
}

#[test]
fn unchanged_reports_are_copied_from_the_last_site_and_the_site_is_the_same() {
    let dir = project_with_report();
    std::fs::write(
        dir.path().join("reports/other.md"),
        "---\ntitle: Other\nresults: [\"qwen/*\"]\n---\n\nOther words.\n",
    )
    .unwrap();
    let out = dir.path().join("site");
    build(dir.path(), &out, &options("/")).unwrap();
    let other = out.join("other/index.html");
    let written = std::fs::metadata(&other).unwrap().modified().unwrap();
    write_report(dir.path(), "Mean time to first token");
    assert_eq!(
        build(dir.path(), &out, &options("/")).unwrap(),
        ExitCode::SUCCESS
    );
    assert_eq!(tree(&out), built_without_cache(dir.path()));
    let copied = std::fs::metadata(&other).unwrap().modified().unwrap();
    assert!(copied >= written, "a copy, not the old file");
    // The site in --out changed by hand: nothing is copied from it, and the site is right.
    std::fs::write(out.join("other/index.html"), "changed by hand").unwrap();
    write_report(dir.path(), "Mean TTFT again");
    build(dir.path(), &out, &options("/")).unwrap();
    assert_eq!(tree(&out), built_without_cache(dir.path()));
}
