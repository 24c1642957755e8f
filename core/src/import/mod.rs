//! Importers: benchmark result files in, canonical [`Run`]s and located [`Problem`]s out.
//!
//! Files are recognised by content, never by name ([`import`] sniffs each format in turn).
//! One importer per format, each a pure function of the file's name and text, so the same code
//! runs in the CLI, in the site build and in the browser for dropped files.

mod fields;
mod genai_perf;
mod inference_benchmarker;
mod llmperf;
mod sfs_csv;
mod sglang;
mod stats;
mod table;
mod vllm;
mod vllm_offline;

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
    let first_line = table::first_line(text);
    if let Some(format) = TEXT_FORMATS.iter().find(|f| (f.detect)(first_line)) {
        return (format.read)(file, text);
    }
    ImportedFile::refused(
        file,
        Problem::error(
            file,
            Location::line(1),
            "format not recognised; expected JSON from a supported tool or a \
             simple_full_stack_inference `benchmark.py` CSV (see the README's list of formats)",
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

/// A text format (CSV, Markdown) recognised by its first non-blank line.
struct TextFormat {
    detect: fn(&str) -> bool,
    read: fn(&str, &str) -> ImportedFile,
}

/// Every text format, most specific first.
const TEXT_FORMATS: &[TextFormat] = &[TextFormat {
    detect: sfs_csv::is_sfs_csv,
    read: sfs_csv::read,
}];

fn unrecognised_json(file: &str, at: Location) -> Problem {
    Problem::error(
        file,
        at,
        "JSON not recognised as benchmark results; expected the output of `vllm bench serve`, \
         `vllm bench throughput|latency`, SGLang `bench_serving`, GenAI-Perf or AIPerf \
         `profile_export`, llmperf (summary or individual responses) or inference-benchmarker",
    )
}

/// A JSON format: how to recognise one document of it and how to read it.
struct JsonFormat {
    producer: Producer,
    detect: fn(&serde_json::Value) -> bool,
    read: fn(&mut ImportedFile, &serde_json::Value, Location),
}

/// Every JSON format, most specific first.
const JSON_FORMATS: &[JsonFormat] = &[
    // AIPerf's summary is GenAI-Perf's plus markers (`error_summary`, `loadgen`, ...).
    JsonFormat {
        producer: Producer::Aiperf,
        detect: genai_perf::is_aiperf,
        read: genai_perf::read_aiperf_document,
    },
    JsonFormat {
        producer: Producer::GenaiPerf,
        detect: genai_perf::is_genai_perf,
        read: genai_perf::read_genai_perf_document,
    },
    JsonFormat {
        producer: Producer::Llmperf,
        detect: llmperf::is_summary,
        read: llmperf::read_summary_document,
    },
    JsonFormat {
        producer: Producer::Llmperf,
        detect: llmperf::is_individual_responses,
        read: llmperf::read_individual_document,
    },
    JsonFormat {
        producer: Producer::InferenceBenchmarker,
        detect: inference_benchmarker::is_report,
        read: inference_benchmarker::read_document,
    },
    JsonFormat {
        producer: Producer::VllmServe,
        detect: vllm::is_serve_result,
        read: vllm::read_serve_document,
    },
    JsonFormat {
        producer: Producer::SglangServing,
        detect: sglang::is_bench_serving_result,
        read: sglang::read_document,
    },
    JsonFormat {
        producer: Producer::VllmLatency,
        detect: vllm_offline::is_latency_result,
        read: vllm_offline::read_latency_document,
    },
    JsonFormat {
        producer: Producer::VllmThroughput,
        detect: vllm_offline::is_throughput_result,
        read: vllm_offline::read_throughput_document,
    },
];

fn sniff_json(value: &serde_json::Value) -> Option<&'static JsonFormat> {
    JSON_FORMATS.iter().find(|f| (f.detect)(value))
}

#[cfg(test)]
mod robustness;
#[cfg(test)]
mod shared_samples;
#[cfg(test)]
mod tests;
