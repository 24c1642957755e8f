//! simple_full_stack_inference reports: `load_test.py` Markdown (generated or hand-edited), its
//! console output with box-drawing tables, and `benchmark.py` console tables pasted into Markdown.
//!
//! Everything is found by the text of table headers and progress lines, never by headings or
//! position, so hand-edited reports (`# Load Test Suite`, `|:---:|` alignment rows, emoji, `>`
//! notes, extra `### Raw Results` tables) read like generated ones. Tables may be Markdown
//! (`| a | b |`) or box-drawn (`│ a │ b │`, `┃`, with `├─┼─┤` rules).
//!
//! Run tables, by their first column (one run per row):
//! - `Prompt Tokens` (`Count`, `TTFT p50`, …, `Total p99`): load_test.py's phase 1, sequential
//!   requests ([`LoadTarget::Sequential`]); labelled `{file stem} baseline` with the dataset
//!   `~N-token prompts`, so they form their own series;
//! - `Concurrency` (`Success%`, `TTFT p50`, …, `Tok/s`, or the raw `Requests`, `Success` `20/20`,
//!   `Throughput` `36.5 tok/s`): phase 2 waves ([`LoadTarget::Concurrency`]);
//! - `Target RPS` (`Actual RPS`, `Success%`, …; raw `Duration`, `Sent`, `Success`): phase 3
//!   ([`LoadTarget::RequestRate`]; `Actual RPS` is requests sent over the level's duration);
//! - benchmark.py's `Concurrency`/`Conc.` or `Rate (req/s)` tables (with `Result` `✓ 20/20 ok`,
//!   `OK`, `Errors`/`Err%`, `Lat pN`, `TPOT pN`, `ITL pN`, `Rate (req/s)`, `Tok/s`, `In pN`,
//!   `Out pN`): runs of [`Producer::SimpleFullStackCsv`], with the CSV's semantics
//!   ([`super::sfs_csv`]).
//!
//! Rows of several tables (or progress lines) for the same phase and level are one run: the raw
//! table gives the counts, the summary table the percentiles; values given twice that disagree
//! are reported. Console progress lines are read the same way: `Testing concurrency=8 (20
//! requests)...` then `Success: 20/20 | TTFT p90: 5699ms | …`, `Testing 5.0 RPS for 30.0s...`
//! then `Sent: 150 | Actual RPS: 5.0 | Success: 117 | …`, and `Testing prompt length ~32
//! tokens...` then `Request 1: ✓ TTFT=4964ms Total=5518ms` (per-request samples).
//!
//! Semantics: `Total` is end-to-end latency, `TPOT` excludes the first token, benchmark.py's `ITL`
//! is pooled chunk gaps; times are ms (`117ms` or `117`). `Success%` is rounded and has no counts:
//! a run with a `Success%` below 100 and no counts anywhere else says so in a warning, and 0%
//! with every latency 0 ms (what load_test.py writes when nothing succeeded) is a failed run.
//! load_test.py's `Tok/s`/`Throughput` is the mean of per-request rates (tokens / request time),
//! not the run's throughput: it is imported as the rate one user sees (`output_tok_s_per_user`);
//! benchmark.py's `Tok/s` is its output throughput. `Duration`, warm-up tables
//! (`Request`, `TTFT`), the pooled `Summary`/`Combined Stats` tables and bold totals are
//! aggregates or excluded by design and are not imported.
//!
//! Cells: `ms`, `%` and `tok/s` suffixes, thousands separators and `**bold**` are read; `N/A` and
//! `-` are missing; redacted cells (`0.x`, `117xxxms`, `22xxx ms`) are missing with a warning
//! naming the cell; a marker before a number (`⚠ 1.0`, the breaking-point flag) is dropped with a
//! warning and the number read. Every row that cannot become a run is an error at its line, and
//! every table that is not understood is a warning at its header.
//!
//! Configuration: the model comes from a `| **Model** | … |` row, a console `Model: …` line or a
//! `--model` argument in a code block; the dataset from a `Dataset` row or `--dataset-name`. The
//! model is the gateway's backend name, so each file is its own configuration, labelled by its
//! file stem.

use super::sfs_load_test::{file_stem, report_identity};
use super::table::Row;
use super::ImportedFile;
use crate::model::{
    Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer, Provenance,
    Rate, RequestCounts, RequestSamples, Run, Throughput, TokenStats,
};
use crate::number::{parse_number, Reading};
use crate::problem::Problem;

/// True when the first line may start a report: a Markdown heading or table, a box-drawn table,
/// a console banner, or a line naming a load test. The content decides ([`read`] hands other
/// text to the next text format).
pub(super) fn is_report(first_line: &str) -> bool {
    let t = first_line.trim();
    (t.starts_with('#') && !t.starts_with("#!"))
        || t.starts_with(['|', '│', '┃', '┏', '┌', '╭'])
        || (t.chars().count() >= 3 && t.chars().all(|c| matches!(c, '█' | '═' | '=' | '━')))
        || t.to_ascii_lowercase().contains("load test")
}

/// One load level of one phase.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Level {
    Baseline(f64),
    Wave(f64),
    Sustained(f64),
    BenchConcurrency(f64),
    BenchRate(f64),
}

impl Level {
    fn producer(self) -> Producer {
        match self {
            Level::BenchConcurrency(_) | Level::BenchRate(_) => Producer::SimpleFullStackCsv,
            _ => Producer::SimpleFullStackLoadTest,
        }
    }

    fn target(self) -> LoadTarget {
        match self {
            Level::Baseline(_) => LoadTarget::Sequential,
            Level::Wave(c) | Level::BenchConcurrency(c) => LoadTarget::Concurrency(c),
            Level::Sustained(r) | Level::BenchRate(r) => {
                LoadTarget::RequestRate(Rate::PerSecond(r))
            }
        }
    }
}

/// Which tool's table a header belongs to.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Family {
    LoadTest,
    Bench,
}

/// What a column holds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Col {
    Load,
    SuccessPct,
    /// `20/20` or a count of successes.
    Success,
    /// benchmark.py's `✓ 20/20 ok`.
    Result,
    Errors,
    ErrorPct,
    Total,
    ActualRps,
    RequestsPerS,
    Duration,
    Latency(Metric, f64),
    InputLen(f64),
    OutputLen(f64),
    OutputTokS,
    PerRequestTokS,
    Unknown,
}

/// Lower case, without emphasis, backticks and repeated spaces.
fn normalise(header: &str) -> String {
    header
        .replace(['*', '`'], "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
}

fn column(name: &str, family: Family) -> Col {
    match name {
        "success%" | "success %" | "success rate" => return Col::SuccessPct,
        "success" => return Col::Success,
        "result" | "ok" | "ok/total" => return Col::Result,
        "errors" | "error count" => return Col::Errors,
        "err%" | "error%" | "error rate" | "errors%" => return Col::ErrorPct,
        "requests" | "sent" | "count" | "total requests" => return Col::Total,
        "actual rps" => return Col::ActualRps,
        "rate (req/s)" | "rate (r/s)" | "req/s" | "requests/s" => return Col::RequestsPerS,
        "duration" => return Col::Duration,
        "tok/s" | "total tok/s" | "throughput" | "tokens/s" | "output tok/s" => {
            return match family {
                Family::Bench => Col::OutputTokS,
                Family::LoadTest => Col::PerRequestTokS,
            }
        }
        _ => {}
    }
    let Some((metric, p)) = name.rsplit_once(' ') else {
        return Col::Unknown;
    };
    let Some(p) = p
        .strip_prefix('p')
        .and_then(|p| p.parse::<f64>().ok())
        .filter(|p| (0.0..=100.0).contains(p))
    else {
        return Col::Unknown;
    };
    match metric {
        "ttft" => Col::Latency(Metric::Ttft, p),
        "total" | "lat" | "latency" | "e2e" | "total latency" => Col::Latency(Metric::E2e, p),
        "tpot" => Col::Latency(Metric::Tpot, p),
        "itl" => Col::Latency(Metric::Itl, p),
        "in" | "input" | "input tokens" => Col::InputLen(p),
        "out" | "output" | "output tokens" => Col::OutputLen(p),
        _ => Col::Unknown,
    }
}

/// A run being assembled from every table row and progress line of its level.
#[derive(Debug)]
struct Entry {
    level: Level,
    line: u64,
    success_pct: Option<(f64, Location)>,
    succeeded: Option<(u64, Location)>,
    total: Option<(u64, Location)>,
    errors: Option<(u64, Location)>,
    error_pct: Option<(f64, Location)>,
    values: Vec<(Col, f64, Location)>,
    samples: Option<RequestSamples>,
    problems: Vec<Problem>,
}

impl Entry {
    fn new(level: Level, line: u64) -> Self {
        Entry {
            level,
            line,
            success_pct: None,
            succeeded: None,
            total: None,
            errors: None,
            error_pct: None,
            values: Vec::new(),
            samples: None,
            problems: Vec::new(),
        }
    }
}

/// What a cell held.
#[derive(Debug, Clone, PartialEq)]
enum Cell {
    Value(f64),
    Missing,
    Redacted,
    Invalid,
}

/// Markers around a number (`⚠ 1.0`, `✓`): symbols that are neither ASCII nor alphanumeric.
/// Returns the text without them and the markers found.
fn strip_markers(text: &str) -> (&str, String) {
    let is_marker = |c: char| !c.is_ascii() && !c.is_alphanumeric() && c != '∞' && c != '—';
    let t = text.trim();
    let start = t.trim_start_matches(|c: char| is_marker(c) || c.is_whitespace());
    let core = start.trim_end_matches(|c: char| is_marker(c) || c.is_whitespace());
    let lead = t[..t.len() - start.len()].trim();
    let trail = start[core.len()..].trim();
    let marker = match (lead.is_empty(), trail.is_empty()) {
        (false, false) => format!("{lead} {trail}"),
        (false, true) => lead.to_string(),
        _ => trail.to_string(),
    };
    (core, marker)
}

fn read_cell(text: &str, suffixes: &[&str]) -> Cell {
    match parse_number(text, suffixes) {
        Reading::Value(v) => Cell::Value(v),
        Reading::Invalid => Cell::Invalid,
        Reading::Missing => {
            if text
                .chars()
                .any(|c| c.is_ascii_digit() || c == 'x' || c == 'X')
            {
                Cell::Redacted
            } else {
                Cell::Missing
            }
        }
    }
}

/// `20/20`, `✓ 20/20 ok`, `8/20`: successes and total.
fn fraction(text: &str) -> Option<(u64, u64)> {
    let (core, _) = strip_markers(text);
    let core = core
        .trim_end_matches(|c: char| c.is_ascii_alphabetic() || c.is_whitespace())
        .trim();
    let (a, b) = core.split_once('/')?;
    let a = a.trim().replace(',', "");
    let b = b.trim().replace(',', "");
    let (a, b) = (a.parse::<u64>().ok()?, b.parse::<u64>().ok()?);
    (a <= b).then_some((a, b))
}

/// Reads the whole file.
pub(super) fn read(file: &str, text: &str) -> ImportedFile {
    let mut doc = Document {
        file: file.to_string(),
        entries: Vec::new(),
        problems: Vec::new(),
        model: None,
        dataset: None,
        recognised: false,
    };
    let text = crate::json::strip_bom(text);
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut i = 0usize;
    let mut fenced = false;
    let mut pending: Option<Level> = None;
    while i < lines.len() {
        let line = lines[i];
        let line_no = i as u64 + 1;
        let t = line.trim();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
            i += 1;
            continue;
        }
        if fenced {
            doc.command_line(t);
            i += 1;
            continue;
        }
        if t.starts_with('#')
            || (t.chars().count() >= 3
                && t.chars()
                    .all(|c| matches!(c, '█' | '═' | '=' | '━' | '─' | '-')))
        {
            // Headings and console banners end the level a progress line belongs to.
            pending = None;
        }
        if is_table_line(t) {
            let start = i;
            while i < lines.len() && is_table_line(lines[i].trim()) {
                i += 1;
            }
            pending = None;
            doc.table(&lines[start..i], start as u64 + 1);
            continue;
        }
        doc.progress_line(t, line_no, &mut pending);
        i += 1;
    }
    if !doc.recognised {
        return not_mine(file, text);
    }
    doc.finish()
}

/// Refuses text that starts like a report but holds no table or output load_test.py writes.
fn not_mine(file: &str, _text: &str) -> ImportedFile {
    ImportedFile {
        file: file.to_string(),
        producer: None,
        runs: Vec::new(),
        problems: vec![Problem::error(
            file,
            Location::line(1),
            "format not recognised; expected a simple_full_stack_inference load_test.py or \
             benchmark.py report (tables such as `| Concurrency | Success% | TTFT p50 | … |`, or \
             its console output), a CSV with `# benchdeck:` mapping lines, or another supported \
             format (see the README's list of formats)",
        )],
        joined: Vec::new(),
        joined_into: None,
    }
}

/// A table line: a row (`|`, `│`, `┃` first) or a rule of a box-drawn table.
fn is_table_line(t: &str) -> bool {
    t.starts_with(['|', '│', '┃'])
        || (t.starts_with(['├', '┌', '└', '┏', '┡', '┗', '╭', '╰', '┢', '┣', '╞', '+'])
            && is_rule(t))
}

/// Characters of table rules: Markdown alignment rows and box drawing.
const RULE_CHARS: &str = "-:|+─━═│┃├┤┼┌┐└┘┏┓┗┛┡┩┢┪┣┫┳┻┬┴╇╈╋╞╡╪╭╮╯╰";

/// A separator row: only rule characters, with at least one dash.
fn is_rule(t: &str) -> bool {
    t.chars().any(|c| matches!(c, '-' | '─' | '━' | '═'))
        && t.chars()
            .all(|c| c.is_whitespace() || RULE_CHARS.contains(c))
}

/// The cells of a table row.
fn cells(t: &str) -> Vec<String> {
    let t = t.trim();
    let t = t.strip_prefix(['|', '│', '┃']).unwrap_or(t);
    let t = t.strip_suffix(['|', '│', '┃']).unwrap_or(t);
    t.split(['|', '│', '┃'])
        .map(|c| c.trim().to_string())
        .collect()
}

struct Document {
    file: String,
    entries: Vec<Entry>,
    problems: Vec<Problem>,
    model: Option<String>,
    dataset: Option<String>,
    /// True once something of a report was found.
    recognised: bool,
}

/// Key and value of a two-column table row, without emphasis or backticks.
fn clean_value(text: &str) -> String {
    text.replace(['*', '`'], "").trim().to_string()
}

impl Document {
    /// `--model X` and `--dataset-name X` in a code block.
    fn command_line(&mut self, t: &str) {
        let words: Vec<&str> = t.split_whitespace().collect();
        for pair in words.windows(2) {
            match pair[0] {
                "--model" | "-m" if self.model.is_none() => self.model = Some(pair[1].to_string()),
                "--dataset-name" if self.dataset.is_none() => {
                    self.dataset = Some(pair[1].to_string())
                }
                _ => {}
            }
        }
    }

    fn entry(&mut self, level: Level, line: u64) -> &mut Entry {
        match self.entries.iter().position(|e| e.level == level) {
            Some(i) => &mut self.entries[i],
            None => {
                self.entries.push(Entry::new(level, line));
                let last = self.entries.len() - 1;
                &mut self.entries[last]
            }
        }
    }

    fn table(&mut self, lines: &[&str], first_line: u64) {
        let mut rows: Vec<Row> = Vec::new();
        for (k, l) in lines.iter().enumerate() {
            let t = l.trim();
            if is_rule(t) {
                continue;
            }
            rows.push(Row {
                line: first_line + k as u64,
                cells: cells(t),
            });
        }
        let Some((header, body)) = rows.split_first() else {
            return;
        };
        let names: Vec<String> = header.cells.iter().map(|c| normalise(c)).collect();
        let first = names.first().map_or("", String::as_str);
        let bench_marks = names.iter().any(|n| {
            matches!(n.as_str(), "result" | "ok" | "ok/total" | "errors" | "err%")
                || ["lat p", "itl p", "in p", "out p"]
                    .iter()
                    .any(|p| n.starts_with(p))
        });
        let (family, level): (Family, fn(f64) -> Level) = match first {
            "prompt tokens" => (Family::LoadTest, Level::Baseline),
            "concurrency" if bench_marks => (Family::Bench, Level::BenchConcurrency),
            "conc." | "conc" => (Family::Bench, Level::BenchConcurrency),
            "concurrency" => (Family::LoadTest, Level::Wave),
            "target rps" => (Family::LoadTest, Level::Sustained),
            "rate (req/s)" | "rate (r/s)" | "rate" | "request rate" => {
                (Family::Bench, Level::BenchRate)
            }
            _ => {
                self.other_table(header, body, &names);
                return;
            }
        };
        self.recognised = true;
        let columns: Vec<Col> = names
            .iter()
            .enumerate()
            .map(|(i, n)| if i == 0 { Col::Load } else { column(n, family) })
            .collect();
        for (i, c) in columns.iter().enumerate() {
            if *c == Col::Unknown {
                self.problems.push(Problem::warning(
                    &self.file,
                    header.at(i),
                    format!(
                        "column `{}` is not one load_test.py or benchmark.py writes; its values \
                         are ignored",
                        header.cell(i)
                    ),
                ));
            }
        }
        for row in body {
            self.run_row(header, &columns, row, level);
        }
    }

    /// Tables that are not run tables: configuration, warm-up, pooled summaries, raw requests.
    fn other_table(&mut self, header: &Row, body: &[Row], names: &[String]) {
        let first = names.first().map_or("", String::as_str);
        if names.len() == 2
            && matches!(
                first,
                "" | "field" | "parameter" | "metric" | "setting" | "key" | "name"
            )
            && matches!(names[1].as_str(), "" | "value")
        {
            for row in body {
                match normalise(row.cell(0)).as_str() {
                    "model" if self.model.is_none() => {
                        let v = clean_value(row.cell(1));
                        if !v.is_empty() {
                            self.model = Some(v);
                            self.recognised = true;
                        }
                    }
                    "dataset" if self.dataset.is_none() => {
                        let v = clean_value(row.cell(1));
                        if !v.is_empty() {
                            self.dataset = Some(v);
                        }
                    }
                    _ => {}
                }
            }
            return;
        }
        // Warm-up requests (excluded by design) and pooled summaries over every phase.
        if first == "request" || (first == "metric" && names.iter().any(|n| n == "p50")) {
            return;
        }
        let lines = match (body.first(), body.last()) {
            (Some(a), Some(b)) if a.line == b.line => format!(" (line {})", a.line),
            (Some(a), Some(b)) => format!(" (lines {}–{})", a.line, b.line),
            _ => String::new(),
        };
        let message = if first == "prompt length" {
            format!(
                "per-request baseline table, {} rows{lines}: it does not say which requests \
                 succeeded, so its rows are not imported; the per-length summary table holds \
                 their statistics",
                body.len()
            )
        } else {
            format!(
                "table not recognised (header `{}`); expected a load_test.py or benchmark.py \
                 table whose first column is `Prompt Tokens`, `Concurrency`, `Target RPS` or \
                 `Rate (req/s)`; not imported: {} rows{lines}",
                header.cells.join(" | "),
                body.len()
            )
        };
        self.problems.push(Problem::warning(
            &self.file,
            Location::line(header.line),
            message,
        ));
    }

    fn run_row(&mut self, header: &Row, columns: &[Col], row: &Row, level: fn(f64) -> Level) {
        let file = self.file.clone();
        if row.cells.len() != columns.len() {
            self.problems.push(Problem::error(
                &file,
                Location::line(row.line),
                format!(
                    "expected {} cells as in the header at line {}, found {}; this row is skipped",
                    columns.len(),
                    header.line,
                    row.cells.len()
                ),
            ));
            return;
        }
        let (load_text, marker) = strip_markers(row.cell(0));
        let load_text = load_text.trim_start_matches('~');
        let value = match read_cell(load_text, &["tokens", "req/s", "rps"]) {
            Cell::Value(v) => Some(v),
            _ => None,
        };
        let probe = level(1.0);
        let valid = value.filter(|v| match probe {
            Level::Wave(_) | Level::BenchConcurrency(_) => v.is_finite() && *v >= 1.0,
            _ => v.is_finite() && *v > 0.0,
        });
        let Some(v) = valid else {
            let expected = match probe {
                Level::Baseline(_) => "a positive prompt length",
                Level::Wave(_) | Level::BenchConcurrency(_) => "a concurrency of at least 1",
                _ => "a positive request rate",
            };
            self.problems.push(Problem::error(
                &file,
                row.at(0),
                format!(
                    "`{}`: expected {expected}, found `{}`; this row cannot become a run",
                    header.cell(0),
                    row.cell(0)
                ),
            ));
            return;
        };
        let mut problems = Vec::new();
        if !marker.is_empty() {
            problems.push(Problem::warning(
                &file,
                row.at(0),
                format!(
                    "`{}`: the marker `{marker}` is dropped and {} is read",
                    row.cell(0),
                    crate::format::number(v)
                ),
            ));
        }
        let entry = self.entry(level(v), row.line);
        for (i, c) in columns.iter().enumerate().skip(1) {
            apply(
                &file,
                entry,
                *c,
                header.cell(i),
                row.cell(i),
                row.at(i),
                &mut problems,
            );
        }
        entry.problems.append(&mut problems);
    }

    /// Console progress lines of load_test.py.
    fn progress_line(&mut self, t: &str, line_no: u64, pending: &mut Option<Level>) {
        let lower = t.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("model:") {
            if self.model.is_none() && !rest.trim().is_empty() {
                self.model = Some(t[6..].trim().to_string());
            }
            return;
        }
        if let Some(rest) = lower.strip_prefix("testing ") {
            *pending = progress_level(rest);
            if let (Some(level), Some(total)) = (*pending, requests_in(rest)) {
                self.recognised = true;
                let file = self.file.clone();
                let entry = self.entry(level, line_no);
                set_count(
                    &file,
                    &mut entry.total,
                    total,
                    "requests",
                    Location::line(line_no),
                    &mut entry.problems,
                );
            }
            return;
        }
        let Some(level) = *pending else { return };
        if let Level::Baseline(_) = level {
            if let Some(rest) = lower.strip_prefix("request ") {
                if let Some(sample) = request_line(t, rest) {
                    self.recognised = true;
                    let entry = self.entry(level, line_no);
                    let s = entry.samples.get_or_insert_with(RequestSamples::default);
                    s.ok.push(sample.0);
                    s.ttft_ms.push(if sample.0 { sample.1 } else { f64::NAN });
                    s.e2e_ms.push(sample.2);
                }
            }
            return;
        }
        if !t.contains(':') {
            return;
        }
        let pairs: Vec<(&str, &str)> = t
            .split('|')
            .filter_map(|p| p.split_once(':'))
            .map(|(k, v)| (k.trim(), v.trim()))
            .collect();
        let known: Vec<(Col, &str, &str)> = pairs
            .iter()
            .map(|(k, v)| (column(&normalise(k), Family::LoadTest), *k, *v))
            .filter(|(c, _, _)| *c != Col::Unknown)
            .collect();
        if known.is_empty() {
            return;
        }
        // One summary line per level.
        *pending = None;
        self.recognised = true;
        let file = self.file.clone();
        let mut problems = Vec::new();
        let entry = self.entry(level, line_no);
        for (c, k, v) in known {
            apply(
                &file,
                entry,
                c,
                k,
                v,
                Location::line(line_no),
                &mut problems,
            );
        }
        entry.problems.append(&mut problems);
    }

    fn finish(self) -> ImportedFile {
        let file = self.file;
        let mut runs = Vec::new();
        for entry in self.entries {
            runs.push(finish_entry(
                &file,
                entry,
                self.model.as_deref(),
                self.dataset.as_deref(),
            ));
        }
        let producer = if !runs.is_empty()
            && runs
                .iter()
                .all(|r: &Run| r.provenance.producer == Producer::SimpleFullStackCsv)
        {
            Producer::SimpleFullStackCsv
        } else {
            Producer::SimpleFullStackLoadTest
        };
        let mut problems = self.problems;
        if runs.is_empty()
            && !problems
                .iter()
                .any(|p| p.severity == crate::problem::Severity::Error)
        {
            problems.push(Problem::error(
                &file,
                Location::File,
                "no row could become a run; expected load_test.py or benchmark.py tables with \
                 one row per load level",
            ));
        }
        ImportedFile {
            file,
            producer: Some(producer),
            runs,
            problems,
            joined: Vec::new(),
            joined_into: None,
        }
    }
}

/// `concurrency=8 (20 requests)...`, `5.0 rps for 30.0s...`, `prompt length ~32 tokens...`.
fn progress_level(rest: &str) -> Option<Level> {
    let number = |s: &str| -> Option<f64> {
        let end = s
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(s.len());
        s[..end].parse::<f64>().ok().filter(|v| v.is_finite())
    };
    if let Some(c) = rest.strip_prefix("concurrency=") {
        return number(c.trim_start())
            .filter(|v| *v >= 1.0)
            .map(Level::Wave);
    }
    if let Some(p) = rest.strip_prefix("prompt length ~") {
        return number(p).filter(|v| *v > 0.0).map(Level::Baseline);
    }
    let (r, after) = rest.split_once(' ')?;
    if after.starts_with("rps") {
        return number(r).filter(|v| *v > 0.0).map(Level::Sustained);
    }
    None
}

/// `(20 requests)` in a `Testing concurrency=…` line.
fn requests_in(rest: &str) -> Option<u64> {
    let open = rest.find('(')?;
    let inner = &rest[open + 1..];
    let n = inner
        .strip_suffix(")...")
        .or_else(|| inner.split(')').next())?;
    n.trim().strip_suffix("requests")?.trim().parse().ok()
}

/// `Request 1: ✓ TTFT=4964ms Total=5518ms` → (ok, ttft, total).
fn request_line(t: &str, lower_rest: &str) -> Option<(bool, f64, f64)> {
    let (_, after) = lower_rest.split_once(':')?;
    let ok = if t.contains('✓') {
        true
    } else if t.contains('✗') {
        false
    } else {
        return None;
    };
    let value = |key: &str| -> Option<f64> {
        let start = after.find(key)? + key.len();
        let word = after[start..].split_whitespace().next()?;
        parse_number(word, &["ms"]).value()
    };
    Some((ok, value("ttft=")?, value("total=")?))
}

/// Sets a count, reporting a disagreement with an earlier value.
fn set_count(
    file: &str,
    slot: &mut Option<(u64, Location)>,
    value: u64,
    what: &str,
    at: Location,
    problems: &mut Vec<Problem>,
) {
    match slot {
        None => *slot = Some((value, at)),
        Some((old, first)) if *old != value => problems.push(Problem::warning(
            file,
            at,
            format!("{value} {what} here, but {old} at {file}{first}; the first is kept"),
        )),
        _ => {}
    }
}

/// Reads one cell of column `c` into `entry`.
fn apply(
    file: &str,
    entry: &mut Entry,
    c: Col,
    name: &str,
    text: &str,
    at: Location,
    problems: &mut Vec<Problem>,
) {
    let suffixes: &[&str] = match c {
        Col::SuccessPct | Col::ErrorPct => &["%"],
        Col::Latency(..) => &["ms"],
        Col::OutputTokS | Col::PerRequestTokS => &["tok/s", "tokens/s", "tokens/sec"],
        Col::Duration => &["s"],
        Col::ActualRps | Col::RequestsPerS => &["req/s", "rps"],
        _ => &[],
    };
    match c {
        Col::Load | Col::Unknown | Col::Duration => {
            // Checked, so a broken cell is still reported.
            if let (_, Cell::Invalid) = number_of(text, suffixes) {
                problems.push(invalid(file, name, text, at));
            }
            return;
        }
        Col::Success | Col::Result => {
            if let Some((ok, total)) = fraction(text) {
                set_count(
                    file,
                    &mut entry.succeeded,
                    ok,
                    "successes",
                    at.clone(),
                    problems,
                );
                set_count(file, &mut entry.total, total, "requests", at, problems);
                return;
            }
        }
        Col::Errors => {
            // `0`, `12`, `60%` or `12 (60%)`.
            let (count, pct) = match text.split_once('(') {
                Some((a, b)) => (a.trim(), Some(b.trim_end_matches(')').trim())),
                None if text.trim_end().ends_with('%') => ("", Some(text.trim())),
                None => (text.trim(), None),
            };
            if let Some(p) = pct {
                match read_cell(p, &["%"]) {
                    Cell::Value(v) => {
                        entry.error_pct = entry.error_pct.take().or(Some((v, at.clone())))
                    }
                    Cell::Invalid => problems.push(invalid(file, name, text, at.clone())),
                    Cell::Missing | Cell::Redacted => {}
                }
            }
            if count.is_empty() {
                return;
            }
            match read_cell(count, &[]) {
                Cell::Value(v) if v >= 0.0 && v.fract() == 0.0 && v <= 9.0e15 => {
                    set_count(file, &mut entry.errors, v as u64, "errors", at, problems)
                }
                Cell::Missing => {}
                Cell::Redacted => problems.push(redacted(file, name, text, at)),
                _ => problems.push(invalid(file, name, text, at)),
            }
            return;
        }
        _ => {}
    }
    let (marker, cell) = number_of(text, suffixes);
    let v = match cell {
        Cell::Value(v) if v.is_finite() && v >= 0.0 => v,
        Cell::Missing => return,
        Cell::Redacted => {
            problems.push(redacted(file, name, text, at));
            return;
        }
        _ => {
            problems.push(invalid(file, name, text, at));
            return;
        }
    };
    if !marker.is_empty() {
        problems.push(Problem::warning(
            file,
            at.clone(),
            format!(
                "`{text}` in `{name}`: the marker `{marker}` is dropped and {} is read",
                crate::format::number(v)
            ),
        ));
    }
    let whole = v.fract() == 0.0 && v <= 9.0e15;
    match c {
        Col::SuccessPct => {
            if entry.success_pct.is_none() {
                entry.success_pct = Some((v, at));
            }
        }
        Col::ErrorPct => {
            if entry.error_pct.is_none() {
                entry.error_pct = Some((v, at));
            }
        }
        Col::Success if whole => set_count(
            file,
            &mut entry.succeeded,
            v as u64,
            "successes",
            at,
            problems,
        ),
        Col::Total if whole => {
            set_count(file, &mut entry.total, v as u64, "requests", at, problems)
        }
        Col::Success | Col::Total | Col::Result => problems.push(Problem::error(
            file,
            at,
            format!("`{name}`: expected a whole number or `ok/total`, found `{text}`"),
        )),
        _ => {
            // Measurements: the first value is kept, a different later one is reported.
            match entry.values.iter().find(|(k, _, _)| *k == c) {
                None => entry.values.push((c, v, at)),
                Some((_, old, first)) => {
                    let tolerance = 0.5 + 1e-9 * old.abs();
                    if (old - v).abs() > tolerance {
                        problems.push(Problem::warning(
                            file,
                            at,
                            format!(
                                "`{name}` is {} here but {} at {file}{first}; the first is kept",
                                crate::format::number(v),
                                crate::format::number(*old)
                            ),
                        ));
                    }
                }
            }
        }
    }
}

/// A cell read as a number after dropping markers: (marker, reading).
fn number_of(text: &str, suffixes: &[&str]) -> (String, Cell) {
    let (core, marker) = strip_markers(text);
    (marker, read_cell(core, suffixes))
}

fn invalid(file: &str, name: &str, text: &str, at: Location) -> Problem {
    Problem::error(
        file,
        at,
        format!("`{name}`: expected a number, found `{text}`; the value is missing"),
    )
}

fn redacted(file: &str, name: &str, text: &str, at: Location) -> Problem {
    Problem::warning(
        file,
        at,
        format!("`{name}`: `{text}` looks redacted; it is read as missing"),
    )
}

fn finish_entry(file: &str, e: Entry, model: Option<&str>, dataset: Option<&str>) -> Run {
    let mut problems = e.problems;
    let at = Location::line(e.line);
    // Counts: from `ok/total`, counts of successes, requests and errors, or per-request samples.
    let mut total = e.total.as_ref().map(|(v, _)| *v);
    let mut succeeded = e.succeeded.as_ref().map(|(v, _)| *v);
    let mut failed = e.errors.as_ref().map(|(v, _)| *v);
    if let Some(s) = &e.samples {
        let ok = s.ok.iter().filter(|o| **o).count() as u64;
        let n = s.ok.len() as u64;
        if total.is_none_or(|t| t == n) {
            total = Some(n);
            succeeded = succeeded.or(Some(ok));
        }
    }
    match (total, succeeded, failed) {
        (Some(t), Some(s), None) if s <= t => failed = Some(t - s),
        (Some(t), None, Some(f)) if f <= t => succeeded = Some(t - f),
        (None, Some(s), Some(f)) => total = s.checked_add(f),
        (Some(t), Some(s), Some(f)) if s.checked_add(f) != Some(t) => {
            problems.push(Problem::warning(
                file,
                at.clone(),
                format!("{s} successes and {f} errors do not add up to {t} requests"),
            ))
        }
        _ => {}
    }
    if let (Some(t), Some(s)) = (total, succeeded) {
        if s > t {
            problems.push(Problem::error(
                file,
                at.clone(),
                format!("{s} successes of {t} requests; the counts are unknown"),
            ));
            total = None;
            succeeded = None;
            failed = None;
        }
    }
    let rate = |ok: u64, t: u64| (t > 0).then(|| 100.0 * ok as f64 / t as f64);
    if let Some((pct, pct_at)) = &e.success_pct {
        match (succeeded, total) {
            (Some(s), Some(t)) => {
                if let Some(r) = rate(s, t) {
                    if (r - pct).abs() > 0.5 + 1e-9 {
                        problems.push(Problem::warning(
                            file,
                            pct_at.clone(),
                            format!(
                                "`Success%` {}% does not match {s} of {t} requests",
                                crate::format::number(*pct)
                            ),
                        ));
                    }
                }
            }
            _ if *pct == 0.0 => succeeded = Some(0),
            _ if *pct < 100.0 => problems.push(Problem::warning(
                file,
                pct_at.clone(),
                format!(
                    "`Success%` is {}%, but no table gives this level's request counts, so the \
                     run's counts are unknown",
                    crate::format::number(*pct)
                ),
            )),
            _ => {}
        }
    }
    if let (Some((pct, pct_at)), Some(f), Some(t)) = (&e.error_pct, failed, total) {
        if let Some(r) = rate(f, t) {
            if (r - pct).abs() > 0.5 + 1e-9 {
                problems.push(Problem::warning(
                    file,
                    pct_at.clone(),
                    format!(
                        "the error rate {}% does not match {f} errors of {t} requests",
                        crate::format::number(*pct)
                    ),
                ));
            }
        }
    }
    if succeeded == Some(0) && failed.is_none() {
        failed = total;
    }

    let mut latency: Vec<LatencyMetric> = Vec::new();
    let mut input = Distribution::default();
    let mut output = Distribution::default();
    let mut throughput = Throughput::default();
    let mut achieved_rps = None;
    for (c, v, _) in &e.values {
        match *c {
            Col::Latency(metric, p) => {
                let d = match latency.iter_mut().position(|l| l.metric == metric) {
                    Some(i) => &mut latency[i].distribution,
                    None => {
                        latency.push(LatencyMetric {
                            metric,
                            distribution: Distribution::default(),
                        });
                        let last = latency.len() - 1;
                        &mut latency[last].distribution
                    }
                };
                d.set_percentile(p, *v);
            }
            Col::InputLen(p) => input.set_percentile(p, *v),
            Col::OutputLen(p) => output.set_percentile(p, *v),
            Col::OutputTokS => throughput.output_tok_s = Some(*v),
            Col::PerRequestTokS => throughput.output_tok_s_per_user = Some(*v),
            Col::RequestsPerS => {
                throughput.requests_per_s = Some(*v);
                achieved_rps = Some(*v);
            }
            Col::ActualRps => achieved_rps = achieved_rps.or(Some(*v)),
            _ => {}
        }
    }
    let all_zero = !latency.is_empty()
        && latency
            .iter()
            .all(|l| l.distribution.percentiles.iter().all(|q| q.value == 0.0));
    if all_zero {
        if succeeded.is_none_or(|s| s == 0) {
            succeeded = Some(0);
            if failed.is_none() {
                failed = total;
            }
            problems.push(Problem::warning(
                file,
                at.clone(),
                "every latency is 0 ms, which the tool writes when no request succeeded; the run \
                 is shown as failed",
            ));
        } else {
            problems.push(Problem::warning(
                file,
                at.clone(),
                "every latency is 0 ms although requests succeeded; the latencies are ignored",
            ));
        }
        latency.clear();
    } else if succeeded == Some(0) {
        problems.push(Problem::warning(
            file,
            at.clone(),
            "no request succeeded; the run is shown as failed and its statistics are ignored",
        ));
    }
    if succeeded == Some(0) {
        latency.clear();
        input = Distribution::default();
        output = Distribution::default();
        throughput.output_tok_s = None;
        throughput.output_tok_s_per_user = None;
    }
    latency.sort_by_key(|l| l.metric);
    let mut config = report_identity(
        file,
        model,
        match e.level {
            Level::Baseline(n) => Some(n),
            _ => None,
        },
    );
    if config.dataset.is_none() {
        config.dataset = dataset.map(str::to_string);
    }
    if config.label.is_none() {
        config.label = Some(file_stem(file));
    }
    Run {
        provenance: Provenance {
            file: file.to_string(),
            location: at,
            producer: e.level.producer(),
            producer_version: None,
        },
        config,
        load: LoadPoint {
            target: e.level.target(),
            max_concurrency: None,
            achieved_rps,
            achieved_concurrency: None,
        },
        requests: RequestCounts {
            total,
            succeeded,
            failed,
            incomplete: None,
        },
        latency,
        throughput,
        tokens: TokenStats {
            total_input: None,
            total_output: None,
            input_len: (!input.is_empty()).then_some(input),
            output_len: (!output.is_empty()).then_some(output),
        },
        samples: e.samples,
        problems,
    }
}

#[cfg(test)]
mod tests;
