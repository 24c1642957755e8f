//! Delimited tables (CSV) with the line of every row, for the CSV importers.
//!
//! Quoted cells (`"2,973.53"`), CRLF line ends and a byte order mark are handled by the `csv`
//! crate; rows may have different lengths (several tools write sections of different widths in
//! one file). Blank lines are dropped, but each row keeps its own line number, so a section break
//! shows as a gap and every problem can name its line. [`number`] reads a numeric cell the same
//! way for every CSV importer.

use crate::model::Location;
use crate::number::{parse_number, Reading};
use crate::problem::Problem;

/// One row: its 1-based line and its cells, trimmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Row {
    /// Line of the row's first character.
    pub line: u64,
    /// The cells, with surrounding spaces removed.
    pub cells: Vec<String>,
}

impl Row {
    /// The cell at `index`, or `""` when the row is shorter.
    pub fn cell(&self, index: usize) -> &str {
        self.cells.get(index).map_or("", String::as_str)
    }

    /// True when every cell is empty.
    pub fn is_blank(&self) -> bool {
        self.cells.iter().all(|c| c.is_empty())
    }

    /// The location of cell `index` (1-based column in the CSV sense: the field number); the
    /// whole file for a row without a line (a JSON object's, read by a mapping file).
    pub fn at(&self, index: usize) -> Location {
        if self.line == 0 {
            return Location::File;
        }
        Location::Line {
            line: self.line,
            column: Some(index as u64 + 1),
        }
    }
}

/// Reads every non-blank row of `text`. A malformed row (an unclosed quote, say) ends the table
/// with an error at its line; the rows before it are kept.
pub(crate) fn read_rows(file: &str, text: &str) -> (Vec<Row>, Option<Problem>) {
    let text = crate::json::strip_bom(text);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    // Lines are counted from byte offsets: after a CRLF line end (and after blank CRLF lines) the
    // `csv` crate starts the next record at a `\r` or `\n` before its first character, so its
    // own line count is short. Line ends at a record's start are skipped before counting.
    let newlines: Vec<usize> = text.match_indices('\n').map(|(i, _)| i).collect();
    let bytes = text.as_bytes();
    let line_at = |byte: u64| {
        let mut at = usize::try_from(byte).unwrap_or(usize::MAX).min(bytes.len());
        while at < bytes.len() && matches!(bytes[at], b'\r' | b'\n') {
            at += 1;
        }
        newlines.partition_point(|&n| n < at) as u64 + 1
    };
    let mut rows = Vec::new();
    for record in reader.records() {
        match record {
            Ok(record) => {
                let line = record.position().map_or(0, |p| line_at(p.byte()));
                let row = Row {
                    line,
                    cells: record.iter().map(|c| c.trim().to_string()).collect(),
                };
                if !row.is_blank() {
                    rows.push(row);
                }
            }
            Err(e) => {
                let line = e.position().map_or(0, |p| line_at(p.byte()));
                let problem = Problem::error(
                    file,
                    Location::line(line.max(1)),
                    format!("not a readable CSV row ({e}); the table ends here"),
                );
                return (rows, Some(problem));
            }
        }
    }
    (rows, None)
}

/// Which numbers a cell read by [`number`] may hold.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Wanted {
    /// Any number, infinities included; an error says it expected "a number".
    Any,
    /// A finite number; an error says it expected "a number".
    Finite,
    /// A finite number of at least 0; an error says it expected "a number of at least 0".
    AtLeastZero,
}

/// Cell `i` of `row` as the number `wanted`; `N/A` and empty cells are missing. Anything else is
/// an error at the cell that names it `name` (its column's header, or the row's first cell where
/// each row is one metric) and quotes what it holds.
pub(crate) fn number(
    file: &str,
    row: &Row,
    i: usize,
    name: &str,
    wanted: Wanted,
    problems: &mut Vec<Problem>,
) -> Option<f64> {
    let accepts = |v: f64| match wanted {
        Wanted::Any => true,
        Wanted::Finite => v.is_finite(),
        Wanted::AtLeastZero => v.is_finite() && v >= 0.0,
    };
    match parse_number(row.cell(i), &[]) {
        Reading::Value(v) if accepts(v) => Some(v),
        Reading::Missing => None,
        _ => {
            let expected = match wanted {
                Wanted::Any | Wanted::Finite => "a number",
                Wanted::AtLeastZero => "a number of at least 0",
            };
            problems.push(Problem::error(
                file,
                row.at(i),
                format!("`{name}`: expected {expected}, found `{}`", row.cell(i)),
            ));
            None
        }
    }
}

/// The first line of `text` that is not blank, without a byte order mark.
pub(crate) fn first_line(text: &str) -> &str {
    crate::json::strip_bom(text)
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

/// The cells of a simple header line (no quoted commas), trimmed.
pub(crate) fn header_cells(line: &str) -> Vec<&str> {
    line.split(',')
        .map(|c| c.trim().trim_matches('"'))
        .collect()
}
