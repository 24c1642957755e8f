//! A tidy CSV of your own (one row per run), mapped to benchdeck's model by `# benchdeck:` lines
//! at the top of the file.
//!
//! A per-file importer sees no sidecar file, so the mapping lives in the CSV itself: every line
//! before the header that starts with `# benchdeck:` holds mappings separated by commas, each
//! `target=source`. Other lines starting with `#` are comments, anywhere in the file. A file
//! that starts with `#` but has no `# benchdeck:` line before its first other line is not a
//! tidy CSV and goes to the next text format (Markdown reports start with `#` too).
//!
//! ```text
//! # benchdeck: load=concurrency:users, config=engine, config.hardware="1x A10G"
//! # benchdeck: ttft.p50=ttft_p50 (s), ttft.p99=ttft_p99 (s), e2e.mean=latency_ms (ms)
//! # benchdeck: output_tok_s=tok_per_s, succeeded=ok, failed=errors
//! users,engine,ttft_p50,ttft_p99,latency_ms,tok_per_s,ok,errors
//! 1,vllm,0.081,0.120,2500,48.5,20,0
//! 8,vllm,0.240,0.410,3900,310.2,20,0
//! ```
//!
//! | mapping | meaning |
//! |---|---|
//! | `load=<kind>:<column>` | the load point, required once; kind `concurrency`, `rate` (req/s, `inf` allowed) or `batch` |
//! | `<metric>.<stat>=<column> (<unit>)` | a latency statistic; metric `ttft`, `ttst`, `tpot` (excluding the first token), `tpot_incl_first`, `itl`, `e2e`; stat `mean`, `median`, `std`, `min`, `max` or `p<N>` (`p99`, `p99.9`); unit `ms`, `s`, `us` or `ns`, required, converted to ms |
//! | `input_len.<stat>=<column>`, `output_len.<stat>=<column>` | tokens per request |
//! | `output_tok_s`, `total_tok_s`, `input_tok_s`, `requests_per_s`, `goodput_req_s` `=<column>` | rates per second; add ` (/min)` for a column per minute |
//! | `output_tok_s_per_user=<column>` | output tokens per second one user sees: the mean over requests of each request's rate (load_test.py's `Tok/s`), not the server's throughput |
//! | `total`, `succeeded`, `failed` `=<column>` | request counts (a missing one is derived from the other two) |
//! | `total_input`, `total_output` `=<column>` | tokens over the whole run |
//! | `achieved_rps`, `max_concurrency` `=<column>` | what the load achieved, the concurrency cap of a rate |
//! | `config=<column>` | a configuration column: named `model`, `engine`, `label`, `hardware` or `dataset` it fills that field; any other name joins the label as `name=value` |
//! | `config.<field>=<column>` or `config.<field>="text"` | a configuration field from a column, or the same text for every row |
//! | `<metric>=<column> (<unit>)`, `start=<column> (<unit>)`, `input_tokens`, `output_tokens`, `error` `=<column>` | one request's values: the rows are requests, grouped into runs by load and configuration ([`requests`]) |
//!
//! Column names are the header's cells, exactly (trimmed); a source's unit is its last
//! parenthesised part, so a column named `ttft (s)` is written `ttft (s) (s)`. Cells may carry the
//! declared unit (`0.12 s`); `N/A`, `-` and empty cells are missing. Every mistake in the mapping
//! is an error at its line and column saying what was expected, and the mapping is used without
//! it; columns that no mapping names are listed in a warning. A row whose load cannot be read is
//! skipped with an error; a row with `succeeded` 0 is a failed run without latencies.

mod mapping;
mod requests;
mod row;

pub(in crate::import) use mapping::{items, Item};

use super::table::{self, Row};
use super::ImportedFile;
use crate::model::{Location, Producer};
use crate::problem::Problem;
use mapping::{resolve, target_key, Destination, Mapping, Source};
pub(in crate::import) use row::Table;
use row::{read_row, row_location};

/// The text after `# benchdeck:` when `line` is a mapping line, with its byte offset in `line`.
fn directive(line: &str) -> Option<(usize, &str)> {
    let start = line.len() - line.trim_start().len();
    let rest = line[start..].strip_prefix('#')?;
    let after_hash = rest.trim_start();
    let tag = after_hash.get(..10)?;
    if !tag.eq_ignore_ascii_case("benchdeck:") {
        return None;
    }
    let body = &after_hash[10..];
    Some((line.len() - body.len(), body))
}

/// True when the lines before the header (blank or `#` lines) hold a `# benchdeck:` mapping.
/// Markdown starts with `#` too, but has no such line.
pub(super) fn is_tidy_csv(text: &str) -> bool {
    crate::json::strip_bom(text)
        .lines()
        .take_while(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
        .any(|l| directive(l).is_some())
}

/// Reads the whole file.
pub(super) fn read(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile::new(file, Some(Producer::TidyCsv));
    let text = crate::json::strip_bom(text);
    let (masked, raw_items, header_line) = mapping_lines(file, text, &mut out.problems);
    if raw_items.is_empty() {
        out.problems.push(Problem::error(
            file,
            Location::line(1),
            "expected `# benchdeck:` mapping lines before the CSV header (see the README's \
             \"Your own CSV\")",
        ));
        return out;
    }
    let (rows, broken) = table::read_rows(file, &masked);
    let Some((header, body)) = out.require(
        rows.split_first(),
        &Location::line(header_line.unwrap_or(1)),
        "expected a CSV header line after the `# benchdeck:` mapping",
    ) else {
        out.problems.extend(broken);
        return out;
    };
    let table = Table {
        file,
        header,
        body,
        producer: Producer::TidyCsv,
    };
    read_table(&table, MappedBy::Inline, &raw_items, &mut out);
    finish(&table, broken, &mut out);
    out
}

/// After a table is read: an error when its header has no rows under it (and the CSV did not
/// break off), then the CSV's own problem.
pub(in crate::import) fn finish(
    table: &Table<'_>,
    broken: Option<Problem>,
    out: &mut ImportedFile,
) {
    if table.body.is_empty() && broken.is_none() {
        out.problems.push(Problem::error(
            table.file,
            Location::line(table.header.line + 1),
            "the header has no rows under it; expected one row per run",
        ));
    }
    out.problems.extend(broken);
}

/// Where a table's mapping was written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::import) enum MappedBy<'a> {
    /// `# benchdeck:` lines in the table's own file.
    Inline,
    /// A mapping file beside the table's.
    File(&'a str),
    /// Nowhere: guessed from the names of the table's columns, their units among them.
    ColumnNames,
}

impl MappedBy<'_> {
    /// The file a mistake in the mapping is located in.
    fn file<'f>(&'f self, table_file: &'f str) -> &'f str {
        match self {
            MappedBy::File(path) => path,
            MappedBy::Inline | MappedBy::ColumnNames => table_file,
        }
    }

    /// What names (or does not name) a column, in a warning.
    fn describe(&self) -> String {
        match self {
            MappedBy::Inline => "`# benchdeck:` mapping".to_string(),
            MappedBy::File(path) => format!("mapping of `{path}`"),
            MappedBy::ColumnNames => "name benchdeck could read".to_string(),
        }
    }
}

/// Reads `table`'s rows into runs of `out` by the mapping `raw_items`, written where `by`
/// says: a mistake in the mapping is an error at its place there, a row that cannot be a run an
/// error at its own.
pub(super) fn read_table(
    table: &Table<'_>,
    by: MappedBy<'_>,
    raw_items: &[Item<'_>],
    out: &mut ImportedFile,
) {
    let (file, header) = (table.file, table.header);
    let mapping_file = by.file(file);
    let before = out.problems.len();
    let mappings = resolve_all(mapping_file, raw_items, header, &mut out.problems);
    if mapping_file != file {
        // The mistake is the mapping file's; say which file it was reading.
        for problem in &mut out.problems[before..] {
            problem.message = format!("reading `{file}`: {}", problem.message);
        }
    }
    let Some(load) = mappings.iter().find_map(|m| match (&m.target, &m.source) {
        (Destination::Load(kind), Source::Column(i)) => Some((*kind, *i)),
        _ => None,
    }) else {
        out.problems.push(Problem::error(
            mapping_file,
            Location::line(raw_items.first().map_or(1, |i| i.line)),
            "expected a `load=<kind>:<column>` mapping (kind `concurrency`, `rate` or `batch`); \
             without a load point no row can become a run",
        ));
        return;
    };
    warn_unmapped(file, header, &mappings, &by.describe(), &mut out.problems);
    if requests::per_request(&mappings) {
        let mappings = requests::request_mappings(mapping_file, mappings, &mut out.problems);
        return requests::read_requests(table, load, &mappings, out);
    }
    for row in table.body {
        match read_row(table, load, &mappings, row) {
            Ok(run) => out.runs.push(run),
            Err(p) => out.problems.push(p),
        }
    }
}

/// The text with its comment lines blanked (so the CSV reader keeps every line number), the
/// mapping items of the `# benchdeck:` lines before the header, and the header's line. A mapping
/// line after the header is a warning.
fn mapping_lines<'a>(
    file: &str,
    text: &'a str,
    problems: &mut Vec<Problem>,
) -> (String, Vec<Item<'a>>, Option<u64>) {
    let mut masked = String::with_capacity(text.len());
    let mut raw_items: Vec<Item<'_>> = Vec::new();
    let mut header_line: Option<u64> = None;
    for (i, line) in text.split('\n').enumerate() {
        let line_no = i as u64 + 1;
        let content = line.strip_suffix('\r').unwrap_or(line);
        if i > 0 {
            masked.push('\n');
        }
        if content.trim_start().starts_with('#') {
            if let Some((offset, _)) = directive(content) {
                if header_line.is_none() {
                    raw_items.extend(items(content, offset, line_no));
                } else {
                    problems.push(Problem::warning(
                        file,
                        Location::line(line_no),
                        "a `# benchdeck:` line after the header is ignored; expected the mapping \
                         before the header",
                    ));
                }
            }
            continue;
        }
        if header_line.is_none() && !content.trim().is_empty() {
            header_line = Some(line_no);
        }
        masked.push_str(line);
    }
    (masked, raw_items, header_line)
}

/// Every item resolved against the header; an item that cannot be, or names a target mapped
/// before, is an error and left out.
fn resolve_all(
    file: &str,
    raw_items: &[Item<'_>],
    header: &Row,
    problems: &mut Vec<Problem>,
) -> Vec<Mapping> {
    let mut mappings: Vec<Mapping> = Vec::new();
    for item in raw_items {
        match resolve(item, header) {
            Ok(m) => {
                let key = target_key(&m.target);
                if let Some(first) = mappings.iter().find(|x| target_key(&x.target) == key) {
                    problems.push(Problem::error(
                        file,
                        m.at.clone(),
                        format!(
                            "`{}` is mapped twice (first at {}{}); expected each target once, \
                             this one is ignored",
                            item.text.split('=').next().unwrap_or("").trim(),
                            file,
                            first.at
                        ),
                    ));
                } else {
                    mappings.push(m);
                }
            }
            Err(message) => problems.push(Problem::error(
                file,
                Location::Line {
                    line: item.line,
                    column: Some(item.column),
                },
                message,
            )),
        }
    }
    mappings
}

/// A warning naming the header's columns that no mapping reads (`by`: whose mapping).
fn warn_unmapped(
    file: &str,
    header: &Row,
    mappings: &[Mapping],
    by: &str,
    problems: &mut Vec<Problem>,
) {
    let used: Vec<usize> = mappings
        .iter()
        .filter_map(|m| match m.source {
            Source::Column(i) => Some(i),
            Source::Text(_) => None,
        })
        .collect();
    let unmapped: Vec<String> = header
        .cells
        .iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(_, c)| format!("`{c}`"))
        .collect();
    if !unmapped.is_empty() {
        problems.push(Problem::warning(
            file,
            row_location(header),
            format!(
                "no {by} names the columns {}; their values are ignored",
                unmapped.join(", ")
            ),
        ));
    }
}

#[cfg(test)]
mod tests;
