//! Importers: benchmark result files in, canonical [`Run`]s and located [`Problem`]s out.
//!
//! Files are recognised by content, never by name ([`import`] sniffs each format in turn).
//! One importer per format, each a pure function of the file's name and text, so the same code
//! runs in the CLI, in the site build and in the browser for dropped files.

mod fields;
mod vllm;

use serde::{Deserialize, Serialize};

use crate::json;
use crate::model::{Location, Producer, Run};
use crate::problem::{Problem, Severity};

/// What one file gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportedFile {
    /// The file's path as the user named it.
    pub file: String,
    /// The format it was recognised as; `None` when no importer recognised it.
    pub producer: Option<Producer>,
    /// The runs read from it, in file order.
    pub runs: Vec<Run>,
    /// Problems with the file as a whole, or with parts that could not become runs.
    /// Problems of imported runs are on the runs.
    pub problems: Vec<Problem>,
}

impl ImportedFile {
    /// True when the file gave no run and has at least one error: the import failed.
    pub fn failed(&self) -> bool {
        self.runs.is_empty()
            && (self.problems.is_empty()
                || self.problems.iter().any(|p| p.severity == Severity::Error))
    }

    /// Every problem: the file's own and those of its runs.
    pub fn all_problems(&self) -> impl Iterator<Item = &Problem> {
        self.problems
            .iter()
            .chain(self.runs.iter().flat_map(|r| r.problems.iter()))
    }

    fn refused(file: &str, problem: Problem) -> Self {
        ImportedFile {
            file: file.to_string(),
            producer: None,
            runs: Vec::new(),
            problems: vec![problem],
        }
    }
}

/// Largest file the importers accept, in bytes. Larger files get a clear refusal instead of
/// exhausting memory (a browser tab has far less than a build machine).
pub const MAX_FILE_BYTES: usize = 512 * 1024 * 1024;

/// Imports one file. Never panics; every problem is reported with its place.
pub fn import(file: &str, bytes: &[u8]) -> ImportedFile {
    if bytes.len() > MAX_FILE_BYTES {
        return ImportedFile::refused(
            file,
            Problem::error(
                file,
                Location::File,
                format!(
                    "file is {} MB; the limit is {} MB",
                    bytes.len() / (1024 * 1024),
                    MAX_FILE_BYTES / (1024 * 1024)
                ),
            ),
        );
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let offset = e.valid_up_to();
            let line = bytes[..offset].iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            return ImportedFile::refused(
                file,
                Problem::error(
                    file,
                    Location::line(line),
                    format!("expected UTF-8 text, found an invalid byte at offset {offset}"),
                ),
            );
        }
    };
    import_text(file, text)
}

/// Imports one file already decoded as text.
pub fn import_text(file: &str, text: &str) -> ImportedFile {
    let trimmed = json::strip_bom(text).trim_start();
    if trimmed.is_empty() {
        return ImportedFile::refused(
            file,
            Problem::error(
                file,
                Location::File,
                "file is empty; expected benchmark results",
            ),
        );
    }
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        return import_json(file, text);
    }
    ImportedFile::refused(
        file,
        Problem::error(
            file,
            Location::line(1),
            "format not recognised; expected a result file of one of the supported tools \
             (see `benchdeck inspect --help`)",
        ),
    )
}

fn import_json(file: &str, text: &str) -> ImportedFile {
    if json::looks_like_json_lines(text) {
        return import_json_lines(file, text);
    }
    match json::parse(text, 0) {
        Ok(value) => match sniff_json(&value) {
            Some(format) => {
                let mut out = ImportedFile {
                    file: file.to_string(),
                    producer: Some(format.producer),
                    runs: Vec::new(),
                    problems: Vec::new(),
                };
                (format.read)(&mut out, &value, Location::json(""));
                out
            }
            None => ImportedFile::refused(file, unrecognised_json(file, Location::json(""))),
        },
        Err(e) => ImportedFile::refused(file, Problem::error(file, e.location, e.message)),
    }
}

/// JSON Lines: every line is its own document, possibly of mixed layouts of one tool.
fn import_json_lines(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile {
        file: file.to_string(),
        producer: None,
        runs: Vec::new(),
        problems: Vec::new(),
    };
    for line in json::parse_lines(text) {
        let at = Location::Json {
            line: Some(line.line),
            path: String::new(),
        };
        match line.value {
            Ok(value) => match sniff_json(&value) {
                Some(format) => {
                    out.producer.get_or_insert(format.producer);
                    (format.read)(&mut out, &value, at);
                }
                None => out.problems.push(unrecognised_json(file, at)),
            },
            Err(e) => out.problems.push(Problem::error(
                file,
                e.location,
                format!("{}; this line is skipped", e.message),
            )),
        }
    }
    out
}

fn unrecognised_json(file: &str, at: Location) -> Problem {
    Problem::error(
        file,
        at,
        "JSON not recognised as benchmark results; expected, for example, a `vllm bench serve` \
         object with `date`, `backend`, `completed` and `*_ttft_ms` keys",
    )
}

/// A JSON format: how to recognise one document of it and how to read it.
struct JsonFormat {
    producer: Producer,
    detect: fn(&serde_json::Value) -> bool,
    read: fn(&mut ImportedFile, &serde_json::Value, Location),
}

/// Every JSON format, most specific first.
const JSON_FORMATS: &[JsonFormat] = &[JsonFormat {
    producer: Producer::VllmServe,
    detect: vllm::is_serve_result,
    read: vllm::read_serve_document,
}];

fn sniff_json(value: &serde_json::Value) -> Option<&'static JsonFormat> {
    JSON_FORMATS.iter().find(|f| (f.detect)(value))
}

#[cfg(test)]
mod tests;
