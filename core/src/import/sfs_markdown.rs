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

mod cells;
mod columns;
mod document;
mod entry;
mod progress;
mod run;
mod tables;

use super::ImportedFile;
use crate::model::Location;
use crate::problem::Problem;
use columns::Level;
use document::Document;
use tables::is_table_line;

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
    ImportedFile::refused(
        file,
        Problem::error(
            file,
            Location::line(1),
            "format not recognised; expected a simple_full_stack_inference load_test.py or \
             benchmark.py report (tables such as `| Concurrency | Success% | TTFT p50 | … |`, or \
             its console output), a CSV with `# benchdeck:` mapping lines, or another supported \
             format (see the README's list of formats)",
        ),
    )
}

#[cfg(test)]
mod tests;
