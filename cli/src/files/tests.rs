//! Reading folders: a file over the limit is skipped by its metadata (a sparse 2,100 MB file, never
//! written out), links to files and folders are followed, and a loop or a dangling link is
//! skipped with its reason.

use super::*;

#[test]
fn a_file_over_the_limit_is_skipped_unread_by_its_size() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.json"), "{}").unwrap();
    let big = std::fs::File::create(dir.path().join("big.log")).unwrap();
    big.set_len(2100 * 1024 * 1024).unwrap();
    let inputs = read_inputs(dir.path(), |_| true).unwrap();
    let read: Vec<&str> = inputs.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(read, ["a.json"]);
    assert_eq!(
        inputs.skipped,
        [(
            "big.log".to_string(),
            "2100 MB, over the limit of 2048 MB for a result file; not read".to_string()
        )]
    );
}

#[cfg(unix)]
#[test]
fn links_are_followed_and_loops_and_dangling_links_are_skipped_with_a_reason() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir(outside.path().join("runs")).unwrap();
    std::fs::write(outside.path().join("runs/r.json"), "{}").unwrap();
    std::fs::write(outside.path().join("one.json"), "{}").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join("sub")).unwrap();
    symlink(outside.path().join("runs"), root.join("linked")).unwrap();
    symlink(outside.path().join("one.json"), root.join("sub/one.json")).unwrap();
    symlink(root, root.join("sub/loop")).unwrap();
    symlink(root.join("nowhere.json"), root.join("dangling.json")).unwrap();

    let inputs = read_inputs(root, |_| true).unwrap();
    let read: Vec<&str> = inputs.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(read, ["linked/r.json", "sub/one.json"]);
    let skipped: Vec<&str> = inputs.skipped.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(skipped, ["dangling.json", "sub/loop"]);
    assert!(
        inputs.skipped[0].1.contains("leads nowhere"),
        "{:?}",
        inputs.skipped
    );
    assert!(
        inputs.skipped[1].1.contains("a loop"),
        "{:?}",
        inputs.skipped
    );
}
