//! Importers: benchmark result files in, canonical [`Run`]s and located [`Problem`]s out.
//!
//! Files are recognised by content, never by name ([`import`] sniffs each format in turn).
//! One importer per format, each a pure function of the file's name and text, so the same code
//! runs in the CLI, in the site build and in the browser for dropped files.

mod aiperf_records;
mod aiperf_timeslices;
mod console;
mod console_table;
mod document;
mod fields;
mod genai_perf;
mod guidellm;
mod inference_benchmarker;
mod inference_perf;
mod inferencex;
mod json_objects;
mod k6;
mod llm_load_test;
mod llmd_report;
mod llmperf;
mod llmperf_bench;
mod lmbench;
mod mapping_file;
mod mlperf;
mod named_columns_csv;
mod perf_analyzer;
mod prism;
mod sfs_csv;
mod sglang;
mod table;
mod telemetry_files;
mod unread;
mod vllm;
mod vllm_csv;
mod vllm_offline;
// GenAI-Perf CSV, Locust, simple_full_stack load_test.py (JSON, Markdown) and tidy CSV.
mod genai_perf_csv;
mod locust;
mod sfs_load_test;
mod sfs_markdown;
mod tidy_csv;
// Files that belong together, joined after each was read.
mod siblings;

use serde::{Deserialize, Serialize};

#[cfg(test)]
pub(crate) use json_objects::ms_per;
pub use mapping_file::{is_mapping_file, suggest_mapping, MAPPING_FILE_NAMES};
pub use siblings::join_siblings;

use crate::input::InputFile;
use crate::json;
use crate::model::{Location, Metric, Producer, Run, RunDate};
use crate::problem::{Problem, Severity};
use document::{Aside, Document, Parse};

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
    /// Files in the same folder whose data this file's runs also carry ([`join_siblings`]): a
    /// run's sources are its own file and these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joined: Vec<String>,
    /// The sibling whose run now carries this file's data, when it was joined into one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joined_into: Option<String>,
    /// What an engine or GPU telemetry file held, until it is matched to its run
    /// (`siblings::engine`), whose [`Run::engine`] then carries the figures.
    #[serde(skip)]
    pub telemetry: Option<Box<crate::telemetry::Readings>>,
}

impl ImportedFile {
    /// True when the file gave no run (nor joined its data into a sibling's) and has an error
    /// or nothing at all: the import failed.
    pub fn failed(&self) -> bool {
        self.joined_into.is_none()
            && self.runs.is_empty()
            && (self.problems.is_empty()
                || self.problems.iter().any(|p| p.severity == Severity::Error))
    }

    /// Every problem: the file's own and those of its runs.
    pub fn all_problems(&self) -> impl Iterator<Item = &Problem> {
        self.problems
            .iter()
            .chain(self.runs.iter().flat_map(|r| r.problems.iter()))
    }

    /// `file` with nothing read from it yet, recognised as `producer`'s (`None`: not yet).
    fn new(file: &str, producer: Option<Producer>) -> Self {
        ImportedFile {
            file: file.to_string(),
            producer,
            runs: Vec::new(),
            problems: Vec::new(),
            joined: Vec::new(),
            joined_into: None,
            telemetry: None,
        }
    }

    fn refused(file: &str, problem: Problem) -> Self {
        ImportedFile {
            problems: vec![problem],
            ..ImportedFile::new(file, None)
        }
    }

    /// `found`, or `None` with an error at `at` saying what was `expected` instead: how a reader
    /// refuses a document (or a table) whose shape it cannot read at all.
    fn require<T>(&mut self, found: Option<T>, at: &Location, expected: &str) -> Option<T> {
        if found.is_none() {
            self.problems
                .push(Problem::error(&self.file, at.clone(), expected));
        }
        found
    }
}

/// What the readers of one run per JSON object say of a document that is not an object.
const NOT_A_RUN_OBJECT: &str = "expected a JSON object for one benchmark run";

/// What the readers of a report of `config` and `results` (inference-benchmarker's,
/// load_test.py's) say of a document that is not an object.
const NOT_A_REPORT_OBJECT: &str = "expected a JSON object with `config` and `results`";

/// Largest file the importers accept, in bytes (2 GiB). Larger files get a clear refusal instead
/// of exhausting memory. A file is held once as read and imported in one streaming pass (the
/// per-request lists of vLLM and GuideLLM become typed columns as they are parsed: [`document`]),
/// so the peak stays near the file's size. The browser's worker keeps its own, lower limit for
/// dropped files ([`crate::site::LOCAL_MAX_FILE_BYTES`]).
pub const MAX_FILE_BYTES: usize = 2 * 1024 * 1024 * 1024;

/// Imports every file, each as [`import`] does, then joins the ones that belong together
/// ([`join_siblings`]) and dates the runs whose file does not say when they ran by a date in
/// their path ([`RunDate::in_path`]).
///
/// A README is read like any file, since people paste a benchmark's console output into one;
/// a README in no format benchmarks write is documentation, not a result file, and is left out
/// without a problem.
pub fn import_all(files: &[InputFile]) -> Vec<ImportedFile> {
    let imports = files.iter().map(|f| import(&f.path, &f.bytes)).collect();
    joined(files, imports)
}

/// What [`import_all`] makes of `imports`, each file of `files` [`import`]ed alone (in their
/// order): siblings joined, dates from paths, READMEs that are no results left out. The command
/// line imports the files on every core and finishes here.
pub fn joined(files: &[InputFile], mut imports: Vec<ImportedFile>) -> Vec<ImportedFile> {
    mapping_file::apply(files, &mut imports);
    join_siblings(files, &mut imports);
    date_by_path(&mut imports);
    imports.retain(|f| !(is_readme(&f.file) && f.producer.is_none()));
    imports
}

/// True for `README`, `README.md`, `readme.txt`, `README-zh.md`, `README_old.md` and the like,
/// in any folder: a name that is `readme` in any case, alone or followed by a character that is
/// no letter or digit.
pub fn is_readme(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some(head) = name.get(..6) else {
        return false;
    };
    head.eq_ignore_ascii_case("readme") && !name[6..].starts_with(|c: char| c.is_alphanumeric())
}

/// Gives each run whose file did not say when it ran the date in its path, if there is one
/// (`results/nightly/2026-11-01/…`): the last resort before a run has no date.
pub fn date_by_path(imports: &mut [ImportedFile]) {
    for run in imports.iter_mut().flat_map(|i| i.runs.iter_mut()) {
        if run.provenance.date.is_none() {
            run.provenance.date = RunDate::in_path(&run.provenance.file);
        }
    }
}

/// Imports one file, recognising its format by content. Never panics; every problem is reported
/// with its place.
pub fn import(file: &str, bytes: &[u8]) -> ImportedFile {
    // Read with the files beside it ([`joined`]): alone it says nothing.
    if is_mapping_file(file) {
        return ImportedFile::new(file, Some(Producer::Mapped));
    }
    match decode(file, bytes) {
        Ok(text) => import_text(file, text),
        Err(problem) => ImportedFile::refused(file, problem),
    }
}

/// Imports one file as `format`, whatever its content looks like: for the fuzz targets, which
/// keep mutated input in front of one importer. A syntax the format does not have (CSV given to
/// a JSON-only format) is refused as not recognised.
pub fn import_as(format: Format, file: &str, bytes: &[u8]) -> ImportedFile {
    match decode(file, bytes) {
        Ok(text) => read_text(file, text, Some(format), document::parse),
        Err(problem) => ImportedFile::refused(file, problem),
    }
}

/// The importers, for [`import_as`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Recognised by content, as [`import`] does.
    Sniffed,
    /// `vllm bench serve` JSON or JSON Lines.
    VllmServe,
    /// `vllm bench throughput` and `vllm bench latency` JSON.
    VllmOffline,
    /// SGLang `bench_serving` JSON Lines.
    Sglang,
    /// GenAI-Perf and AIPerf `profile_export` JSON.
    GenaiPerf,
    /// GenAI-Perf and AIPerf `profile_export` CSV.
    GenaiPerfCsv,
    /// llmperf summary and individual responses.
    Llmperf,
    /// huggingface inference-benchmarker JSON.
    InferenceBenchmarker,
    /// GuideLLM JSON, YAML and CSV.
    Guidellm,
    /// Locust `--csv` files (and the sweep's `run_config.json`).
    Locust,
    /// k6 summaries.
    K6,
    /// simple_full_stack_inference `benchmark.py` CSV.
    SfsCsv,
    /// simple_full_stack_inference `load_test.py` JSON, Markdown reports and console output.
    SfsLoadTest,
    /// A CSV mapped by `# benchdeck:` lines.
    TidyCsv,
    /// The result blocks `vllm bench serve` and SGLang `bench_serving` print, in any text.
    Console,
    /// inference-perf lifecycle and Prometheus reports, and its `config.yaml`.
    InferencePerf,
    /// llm-d-benchmark's benchmark report (0.2), YAML or JSON.
    LlmdReport,
    /// AIPerf's per-request records, `profile_export.jsonl`.
    AiperfRecords,
    /// AIPerf's timeslices, `profile_export_aiperf_timeslices.json`.
    AiperfTimeslices,
    /// Triton perf_analyzer's `profile_export.json`.
    PerfAnalyzer,
    /// llmperf-bench's summaries keyed by concurrency.
    LlmperfBench,
    /// InferenceX (InferenceMAX) aggregates.
    InferenceX,
    /// MLPerf Inference LoadGen's `mlperf_log_summary.txt`.
    Mlperf,
    /// llm-load-test's `output.json`.
    LlmLoadTest,
    /// LMBench's per-request CSV.
    LmBench,
    /// llm-d Prism's archive of runs.
    Prism,
    /// AIPerf's and GenAI-Perf's console tables, in any text.
    ConsoleTable,
}

/// UTF-8 text of a file within the size limit, or the problem saying why not.
fn decode<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, Problem> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(Problem::error(
            file,
            Location::File,
            format!(
                "file is {} MB; the limit is {} MB",
                bytes.len() / (1024 * 1024),
                MAX_FILE_BYTES / (1024 * 1024)
            ),
        ));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let offset = e.valid_up_to();
        let line = bytes[..offset].iter().filter(|&&b| b == b'\n').count() as u64 + 1;
        Problem::error(
            file,
            Location::line(line),
            format!("expected UTF-8 text, found an invalid byte at offset {offset}"),
        )
    })
}

/// Imports one file as [`import`] did before documents were streamed: each JSON document parsed
/// whole into a `Value` and read from it. The streaming tests hold [`import`] to it.
#[cfg(test)]
pub(crate) fn import_whole(file: &str, bytes: &[u8]) -> ImportedFile {
    match decode(file, bytes) {
        Ok(text) => read_text(file, text, None, document::parse_whole),
        Err(problem) => ImportedFile::refused(file, problem),
    }
}

/// Imports one file already decoded as text.
pub fn import_text(file: &str, text: &str) -> ImportedFile {
    read_text(file, text, None, document::parse)
}

/// `imported` with a warning on each run whose successful requests have an infinite latency
/// (Python's `Infinity`: a first token that never came). They are kept as the slowest values,
/// so percentiles and their intervals hold them, never dropped; the mean has no interval.
fn with_infinities_noted(mut imported: ImportedFile) -> ImportedFile {
    for run in &mut imported.runs {
        let Some(samples) = run.samples.clone() else {
            continue;
        };
        for metric in [Metric::Ttft, Metric::Tpot, Metric::E2e] {
            let Some(values) = samples.latencies(metric) else {
                continue;
            };
            // Read here without the sorted caches, which the run fills when it is first asked.
            let succeeded = || {
                values
                    .iter()
                    .zip(&samples.ok)
                    .filter(|(v, ok)| **ok && !v.is_nan())
            };
            let infinite = succeeded().filter(|(v, _)| v.is_infinite()).count();
            if infinite > 0 {
                run.problems.push(Problem::warning(
                    &imported.file,
                    run.provenance.location.clone(),
                    format!(
                        "{infinite} of {} successful requests have an infinite {}; they are kept \
                         as the slowest requests, so the percentiles' intervals hold them, and \
                         the mean has no interval",
                        succeeded().count(),
                        metric.label()
                    ),
                ));
            }
        }
    }
    imported
}

/// Reads `text` with the importer its content calls for, or with `forced`'s.
fn read_text(file: &str, text: &str, forced: Option<Format>, parse: Parse) -> ImportedFile {
    with_infinities_noted(read_any(file, text, forced, parse))
}

/// [`read_text`] before the checks every importer's runs get.
fn read_any(file: &str, text: &str, forced: Option<Format>, parse: Parse) -> ImportedFile {
    let forced = forced.filter(|f| *f != Format::Sniffed);
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
    // A log whose first line is `[timestamp] …` is text, not JSON: result blocks win.
    if forced.is_none_or(|f| f == Format::Console) && console::is_console(trimmed) {
        return console::read(file, text);
    }
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        return import_json(file, text, forced, parse);
    }
    // Before the text formats: a scrape's `# HELP` line would pass for a Markdown heading.
    if forced.is_none() && telemetry_files::is_telemetry(text) {
        return telemetry_files::read(file, text);
    }
    let candidates = || {
        TEXT_FORMATS
            .iter()
            .filter(move |f| forced.is_none_or(|x| f.format == x))
    };
    let chosen = candidates()
        .find(|f| (f.detect)(text))
        .or_else(|| forced.and_then(|_| candidates().next()));
    if let Some(format) = chosen {
        return (format.read)(file, text);
    }
    ImportedFile::refused(
        file,
        Problem::error(
            file,
            Location::line(1),
            "format not recognised; expected a result file of a supported tool: JSON from vllm, \
             SGLang, GenAI-Perf, AIPerf, perf_analyzer, llmperf, llmperf-bench, \
             inference-benchmarker, inference-perf, llm-d, GuideLLM, k6, InferenceX or \
             llm-load-test; CSV from \
             benchmark.py, GenAI-Perf, GuideLLM or Locust; YAML from GuideLLM, llm-d or \
             inference-perf; console output of vLLM, SGLang, AIPerf, GenAI-Perf or k6; a \
             load_test.py report; an MLPerf LoadGen summary; a CSV with `# benchdeck:` \
             mapping lines, or whose columns name the load and each latency's unit \
             (`concurrency`, `ttft_p50_ms`); or a `benchdeck-mapping.yaml` beside it (see the \
             README)",
        ),
    )
}

fn import_json(file: &str, text: &str, forced: Option<Format>, parse: Parse) -> ImportedFile {
    // AIPerf's records: one request a line, one run for the whole file.
    let records = match forced {
        Some(f) => f == Format::AiperfRecords,
        None => aiperf_records::is_records(text),
    };
    if records {
        return aiperf_records::read(file, text);
    }
    if json::looks_like_json_lines(text) {
        return import_json_lines(file, text, forced, parse);
    }
    match parse(text, 0) {
        Ok(document) => match sniff_json(&document.value, forced) {
            Some(format) => {
                let mut out = ImportedFile::new(file, Some(format.producer));
                read_json(
                    &mut out,
                    format,
                    document,
                    text,
                    0,
                    Location::json(""),
                    forced,
                );
                out
            }
            None => ImportedFile::refused(file, unrecognised_json(file, Location::json(""))),
        },
        Err(e) => ImportedFile::refused(file, Problem::error(file, e.location, e.message)),
    }
}

/// JSON Lines: every line is its own document, possibly of mixed layouts of one tool, each
/// parsed and read before the next.
fn import_json_lines(file: &str, text: &str, forced: Option<Format>, parse: Parse) -> ImportedFile {
    let mut out = ImportedFile::new(file, None);
    for (line, line_text) in json::lines(text) {
        let at = Location::Json {
            line: Some(line),
            path: String::new(),
        };
        match parse(line_text, line - 1) {
            Ok(document) => match sniff_json(&document.value, forced) {
                Some(format) => {
                    out.producer.get_or_insert(format.producer);
                    read_json(&mut out, format, document, line_text, line - 1, at, forced);
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

/// Reads a parsed document of `format`. Lists the parser read aside go to the format's reader of
/// them; a format without one (the lists' keys meant something else in it) is given `text`
/// parsed whole again, so it reads what it always read.
fn read_json(
    out: &mut ImportedFile,
    format: &'static JsonFormat,
    document: Document,
    text: &str,
    line_offset: u64,
    at: Location,
    forced: Option<Format>,
) {
    if document.aside.is_empty() {
        return (format.read)(out, &document.value, at);
    }
    if let Some(aside) = format.aside.filter(|a| (a.reads)(&document.aside)) {
        return (aside.read)(out, &document.value, &document.aside, at);
    }
    drop(document);
    match json::parse(text, line_offset) {
        Ok(value) => {
            let format = sniff_json(&value, forced).unwrap_or(format);
            (format.read)(out, &value, at);
        }
        Err(e) => out
            .problems
            .push(Problem::error(&out.file, e.location, e.message)),
    }
}

/// A text format (CSV, YAML, Markdown): how to recognise a file of it and how to read it.
struct TextFormat {
    format: Format,
    /// Given the whole text; most formats look at the first non-blank line only.
    detect: fn(&str) -> bool,
    read: fn(&str, &str) -> ImportedFile,
}

/// Every text format, most specific first.
const TEXT_FORMATS: &[TextFormat] = &[
    TextFormat {
        format: Format::Mlperf,
        detect: mlperf::is_summary,
        read: mlperf::read,
    },
    TextFormat {
        format: Format::InferencePerf,
        detect: inference_perf::is_config,
        read: inference_perf::read_config,
    },
    TextFormat {
        format: Format::InferencePerf,
        detect: inference_perf::is_lifecycle_yaml,
        read: inference_perf::read_lifecycle_yaml,
    },
    TextFormat {
        format: Format::LlmdReport,
        detect: llmd_report::is_yaml_report,
        read: llmd_report::read_yaml,
    },
    TextFormat {
        format: Format::Guidellm,
        detect: guidellm::is_yaml,
        read: guidellm::read_yaml,
    },
    TextFormat {
        format: Format::Guidellm,
        detect: |text| guidellm::is_csv(table::first_line(text)),
        read: guidellm::read_csv,
    },
    TextFormat {
        format: Format::Guidellm,
        detect: |text| guidellm::is_csv_v03(table::first_line(text)),
        read: guidellm::read_csv_v03,
    },
    TextFormat {
        format: Format::SfsCsv,
        detect: |text| sfs_csv::is_sfs_csv(table::first_line(text)),
        read: sfs_csv::read,
    },
    TextFormat {
        format: Format::LmBench,
        detect: |text| lmbench::is_lmbench_csv(table::first_line(text)),
        read: lmbench::read,
    },
    TextFormat {
        format: Format::GenaiPerfCsv,
        detect: |text| genai_perf_csv::is_genai_perf_csv(table::first_line(text)),
        read: genai_perf_csv::read,
    },
    TextFormat {
        format: Format::Locust,
        detect: |text| locust::is_locust_csv(table::first_line(text)),
        read: locust::read,
    },
    TextFormat {
        format: Format::VllmServe,
        detect: |text| vllm_csv::is_vllm_csv(table::first_line(text)),
        read: vllm_csv::read,
    },
    TextFormat {
        format: Format::TidyCsv,
        detect: tidy_csv::is_tidy_csv,
        read: tidy_csv::read,
    },
    // A CSV of one's own whose column names say what they hold, units included.
    TextFormat {
        format: Format::TidyCsv,
        detect: named_columns_csv::is_named_columns_csv,
        read: named_columns_csv::read,
    },
    // AIPerf's and GenAI-Perf's console tables, in any text file.
    TextFormat {
        format: Format::ConsoleTable,
        detect: console_table::is_table,
        read: console_table::read,
    },
    // k6's end-of-test summary, in any text file.
    TextFormat {
        format: Format::K6,
        detect: k6::is_text,
        read: k6::read_text,
    },
    // Result blocks printed by `vllm bench serve` and SGLang, in any text file.
    TextFormat {
        format: Format::Console,
        detect: console::is_console,
        read: console::read,
    },
    // Markdown and console reports: checked last, since a first line such as `# …` says little;
    // text that is not a report is handed to any text format listed after this one.
    TextFormat {
        format: Format::SfsLoadTest,
        detect: |text| sfs_markdown::is_report(table::first_line(text)),
        read: sfs_markdown::read,
    },
];

fn unrecognised_json(file: &str, at: Location) -> Problem {
    Problem::error(
        file,
        at,
        "JSON not recognised as benchmark results; expected the output of `vllm bench serve`, \
         `vllm bench throughput|latency`, SGLang `bench_serving`, GenAI-Perf or AIPerf \
         `profile_export` (or AIPerf's records, perf_analyzer's export), llmperf (summary or \
         individual responses, or llmperf-bench's keyed summaries), inference-benchmarker, \
         inference-perf's reports, an llm-d benchmark report or llm-d Prism's archive, GuideLLM, \
         k6, InferenceX aggregates or llm-load-test's output",
    )
}

/// A JSON format: how to recognise one document of it and how to read it.
struct JsonFormat {
    format: Format,
    producer: Producer,
    detect: fn(&serde_json::Value) -> bool,
    read: fn(&mut ImportedFile, &serde_json::Value, Location),
    /// How to read a document whose per-request lists the parser read aside, for the formats
    /// that write such lists ([`document`]).
    aside: Option<AsideReader>,
}

/// A format's reader of documents with lists read aside.
#[derive(Clone, Copy)]
struct AsideReader {
    /// True when the lists read aside are all ones this reader reads.
    reads: fn(&Aside) -> bool,
    read: fn(&mut ImportedFile, &serde_json::Value, &Aside, Location),
}

/// Every JSON format, most specific first.
const JSON_FORMATS: &[JsonFormat] = &[
    JsonFormat {
        format: Format::LlmLoadTest,
        producer: Producer::LlmLoadTest,
        detect: llm_load_test::is_output,
        read: llm_load_test::read_document,
        aside: None,
    },
    JsonFormat {
        format: Format::InferenceX,
        producer: Producer::InferenceX,
        detect: inferencex::is_aggregate,
        read: inferencex::read_document,
        aside: None,
    },
    JsonFormat {
        format: Format::Prism,
        producer: Producer::Prism,
        detect: prism::is_archive,
        read: prism::read_document,
        aside: None,
    },
    JsonFormat {
        format: Format::InferencePerf,
        producer: Producer::InferencePerf,
        detect: inference_perf::is_lifecycle,
        read: inference_perf::read_lifecycle_document,
        aside: None,
    },
    // The server's view, beside the lifecycle reports: not a run.
    JsonFormat {
        format: Format::InferencePerf,
        producer: Producer::InferencePerf,
        detect: inference_perf::is_prometheus,
        read: inference_perf::read_prometheus_document,
        aside: None,
    },
    JsonFormat {
        format: Format::PerfAnalyzer,
        producer: Producer::PerfAnalyzer,
        detect: perf_analyzer::is_export,
        read: perf_analyzer::read_document,
        aside: None,
    },
    JsonFormat {
        format: Format::LlmdReport,
        producer: Producer::LlmdBenchmarkReport,
        detect: llmd_report::is_report,
        read: llmd_report::read_document,
        aside: None,
    },
    JsonFormat {
        format: Format::K6,
        producer: Producer::K6,
        detect: k6::is_summary,
        read: k6::read_document,
        aside: None,
    },
    JsonFormat {
        format: Format::Guidellm,
        producer: Producer::Guidellm,
        detect: guidellm::is_report,
        read: guidellm::read_document,
        aside: Some(AsideReader {
            reads: guidellm::reads_aside,
            read: guidellm::read_document_aside,
        }),
    },
    JsonFormat {
        format: Format::AiperfTimeslices,
        producer: Producer::Aiperf,
        detect: aiperf_timeslices::is_timeslices,
        read: aiperf_timeslices::read_document,
        aside: None,
    },
    // AIPerf's summary is GenAI-Perf's plus markers (`error_summary`, `loadgen`, ...).
    JsonFormat {
        format: Format::GenaiPerf,
        producer: Producer::Aiperf,
        detect: genai_perf::is_aiperf,
        read: genai_perf::read_aiperf_document,
        aside: None,
    },
    JsonFormat {
        format: Format::GenaiPerf,
        producer: Producer::GenaiPerf,
        detect: genai_perf::is_genai_perf,
        read: genai_perf::read_genai_perf_document,
        aside: None,
    },
    JsonFormat {
        format: Format::LlmperfBench,
        producer: Producer::LlmperfBench,
        detect: llmperf_bench::is_results,
        read: llmperf_bench::read_document,
        aside: None,
    },
    JsonFormat {
        format: Format::Llmperf,
        producer: Producer::Llmperf,
        detect: llmperf::is_summary,
        read: llmperf::read_summary_document,
        aside: None,
    },
    JsonFormat {
        format: Format::Llmperf,
        producer: Producer::Llmperf,
        detect: llmperf::is_individual_responses,
        read: llmperf::read_individual_document,
        aside: None,
    },
    JsonFormat {
        format: Format::InferenceBenchmarker,
        producer: Producer::InferenceBenchmarker,
        detect: inference_benchmarker::is_report,
        read: inference_benchmarker::read_document,
        aside: None,
    },
    JsonFormat {
        format: Format::VllmServe,
        producer: Producer::VllmServe,
        detect: vllm::is_serve_result,
        read: vllm::read_serve_document,
        aside: Some(AsideReader {
            reads: vllm::reads_aside,
            read: vllm::read_serve_aside,
        }),
    },
    JsonFormat {
        format: Format::VllmServe,
        producer: Producer::VllmServe,
        detect: vllm::sweep::is_summary,
        read: vllm::sweep::read_summary,
        aside: None,
    },
    JsonFormat {
        format: Format::Sglang,
        producer: Producer::SglangServing,
        detect: sglang::is_bench_serving_result,
        read: sglang::read_document,
        aside: None,
    },
    JsonFormat {
        format: Format::VllmOffline,
        producer: Producer::VllmLatency,
        detect: vllm_offline::is_latency_result,
        read: vllm_offline::read_latency_document,
        aside: None,
    },
    JsonFormat {
        format: Format::VllmOffline,
        producer: Producer::VllmThroughput,
        detect: vllm_offline::is_throughput_result,
        read: vllm_offline::read_throughput_document,
        aside: None,
    },
    JsonFormat {
        format: Format::SfsLoadTest,
        producer: Producer::SimpleFullStackLoadTest,
        detect: sfs_load_test::is_load_test_output,
        read: sfs_load_test::read_document,
        aside: None,
    },
    // sweep.sh's `run_config.json` beside Locust CSVs: configuration, reported as such.
    JsonFormat {
        format: Format::Locust,
        producer: Producer::Locust,
        detect: locust::is_run_config,
        read: locust::read_run_config,
        aside: None,
    },
];

/// The JSON format of `value`: the first that recognises it, among `forced`'s entries when
/// given (falling back to its first entry, so forced input always reaches the importer).
fn sniff_json(value: &serde_json::Value, forced: Option<Format>) -> Option<&'static JsonFormat> {
    let candidates = || {
        JSON_FORMATS
            .iter()
            .filter(move |f| forced.is_none_or(|x| f.format == x))
    };
    candidates()
        .find(|f| (f.detect)(value))
        .or_else(|| forced.and_then(|_| candidates().next()))
}

#[cfg(test)]
mod tests;
