//! The app's data on the wire: the site index, each report page and the worker's messages in
//! postcard's compact binary form, behind a short header.
//!
//! The browser decodes these without a JSON parser: serde_json and the key-matching half of
//! every derived `Deserialize` cost the app about 40 KB of its gzipped wasm (issue 8). The
//! published data meant for people and other tools (the runs, the result files) stays JSON and
//! CSV.
//!
//! postcard is not self-describing, so the types written here keep to what it can read back:
//! every field is always written (no `skip_serializing_if`), and the few types whose JSON is
//! untagged or infinite-aware (`decision::Attribute`, `decision::tree::Node`, chart positions)
//! branch on [`serde::Serializer::is_human_readable`]. `tests/wire.rs` round-trips every page
//! the fixtures build.

use serde::de::DeserializeOwned;
use serde::Serialize;

/// The two bytes every gzip stream starts with. The build gzips the data files it writes in this
/// form (`cli/src/data_file.rs`), so that every host sends them small; readers inflate what
/// starts with these and read anything else as it is.
pub const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The first bytes of every encoded value: a name and the version of the code that wrote it,
/// so data from another build is refused by name instead of misread.
fn header() -> String {
    format!("benchdeck {}\n", env!("CARGO_PKG_VERSION"))
}

/// `value` encoded, header first.
pub fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, String> {
    let bytes = header().into_bytes();
    postcard::to_extend(value, bytes).map_err(|e| format!("cannot encode: {e}"))
}

/// The value `bytes` encode, or why they cannot be read: another format or version, a short
/// or corrupt file, or bytes left over.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    let header = header();
    let Some(body) = bytes.strip_prefix(header.as_bytes()) else {
        let start = &bytes[..bytes.len().min(40)];
        let found = match start.iter().position(|&b| b == b'\n') {
            Some(end) if start.starts_with(b"benchdeck ") => {
                format!("`{}`", String::from_utf8_lossy(&start[..end]))
            }
            _ => "something else".to_string(),
        };
        return Err(format!(
            "expected data written by `{}`, found {found}",
            header.trim_end()
        ));
    };
    let (value, rest) = postcard::take_from_bytes(body)
        .map_err(|e| format!("the data does not match this version of benchdeck ({e})"))?;
    if !rest.is_empty() {
        return Err(format!(
            "the data does not match this version of benchdeck ({} byte(s) left over)",
            rest.len()
        ));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::{decode, encode};
    use crate::assemble::build_site;
    use crate::input::InputFile;
    use crate::report::local::local_report;
    use crate::site::{ReportSummary, SiteIndex, WorkerCommand, WorkerReport};

    fn index() -> SiteIndex {
        SiteIndex {
            reports: vec![ReportSummary {
                slug: "a".into(),
                title: "A".into(),
                date: None,
                authors: vec![],
                summary: String::new(),
                charts: 2,
                runs: 10,
                first_chart: None,
                automatic: None,
                changes: Vec::new(),
            }],
        }
    }

    #[test]
    fn round_trip() {
        let bytes = encode(&index()).unwrap();
        assert!(bytes.starts_with(b"benchdeck "));
        assert_eq!(decode::<SiteIndex>(&bytes).unwrap(), index());
    }

    /// The files under `dir` (recursively), paths relative to it.
    fn files_under(dir: &str) -> Vec<InputFile> {
        let root = std::path::PathBuf::from(format!("{}/../{dir}", env!("CARGO_MANIFEST_DIR")));
        let mut files = Vec::new();
        let mut stack = vec![root.clone()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    files.push(InputFile {
                        path: path
                            .strip_prefix(&root)
                            .unwrap()
                            .to_string_lossy()
                            .into_owned(),
                        bytes: std::fs::read(&path).unwrap(),
                    });
                }
            }
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files
    }

    /// `value` survives encoding: decoded, it prints and encodes exactly as before (printing
    /// compares NaN with NaN, which `PartialEq` would not).
    fn assert_round_trip<T>(value: &T, what: &str)
    where
        T: serde::Serialize + serde::de::DeserializeOwned + std::fmt::Debug,
    {
        let bytes = encode(value).unwrap();
        let back: T = decode(&bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(format!("{back:?}"), format!("{value:?}"), "{what}");
        assert_eq!(encode(&back).unwrap(), bytes, "{what}");
    }

    #[test]
    fn the_repositorys_site_round_trips() {
        let site = build_site(&files_under("reports"), &files_under("results"));
        assert!(site.pages.len() >= 3);
        assert!(site
            .pages
            .iter()
            .any(|p| p.decision.as_ref().is_some_and(|d| d.tree.is_some())));
        assert_round_trip(&site.index, "the index");
        for page in &site.pages {
            assert_round_trip(page, &page.summary.slug);
        }
    }

    #[test]
    fn every_fixtures_dropped_page_round_trips() {
        let files: Vec<InputFile> = files_under("tests/fixtures")
            .into_iter()
            .filter(|f| !f.path.starts_with("fuzz-regressions"))
            .collect();
        assert!(files.len() > 40);
        for file in &files {
            let report = WorkerReport::Done {
                page: Box::new(local_report(std::slice::from_ref(file)).page),
                runs_json: String::new(),
                runs_csv: String::new(),
            };
            assert_round_trip(&report, &file.path);
        }
        let all = local_report(&files).page;
        assert!(all.decision.is_some());
        assert_round_trip(&all, "every fixture at once");
    }

    #[test]
    fn the_workers_answers_about_kept_files_round_trip() {
        for report in [
            WorkerReport::Kept { error: None },
            WorkerReport::Kept {
                error: Some("the browser's storage for this site is full".into()),
            },
            WorkerReport::NothingKept,
            WorkerReport::Forgotten { error: None },
        ] {
            assert_round_trip(&report, &format!("{report:?}"));
        }
        for command in [
            WorkerCommand::Read,
            WorkerCommand::Restore,
            WorkerCommand::Forget,
        ] {
            assert_eq!(WorkerCommand::from_word(command.word()), Some(command));
        }
        assert_eq!(WorkerCommand::from_word("upload"), None);
    }

    #[test]
    fn other_data_is_refused_by_name() {
        let err = decode::<SiteIndex>(b"{\"reports\": []}").unwrap_err();
        assert!(err.contains("found something else"), "{err}");
        let err = decode::<SiteIndex>(b"benchdeck 0.0.0-old\n\x01").unwrap_err();
        assert!(err.contains("found `benchdeck 0.0.0-old`"), "{err}");
    }

    #[test]
    fn short_and_long_data_is_refused() {
        let bytes = encode(&index()).unwrap();
        let err = decode::<SiteIndex>(&bytes[..bytes.len() - 3]).unwrap_err();
        assert!(err.contains("does not match"), "{err}");
        let mut long = bytes.clone();
        long.push(0);
        let err = decode::<SiteIndex>(&long).unwrap_err();
        assert!(err.contains("1 byte(s) left over"), "{err}");
    }
}
