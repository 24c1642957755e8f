//! The text of one cell: a number with its unit, a missing or redacted value, markers such as
//! `⚠` around a number, and `ok/total` fractions; with the problems a cell can raise.

use crate::model::Location;
use crate::number::{parse_number, Reading};
use crate::problem::Problem;

/// What a cell held.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Cell {
    Value(f64),
    Missing,
    Redacted,
    Invalid,
}

/// Markers around a number (`⚠ 1.0`, `✓`): symbols that are neither ASCII nor alphanumeric.
/// Returns the text without them and the markers found.
pub(super) fn strip_markers(text: &str) -> (&str, String) {
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

pub(super) fn read_cell(text: &str, suffixes: &[&str]) -> Cell {
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
pub(super) fn fraction(text: &str) -> Option<(u64, u64)> {
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

/// A cell read as a number after dropping markers: (marker, reading).
pub(super) fn number_of(text: &str, suffixes: &[&str]) -> (String, Cell) {
    let (core, marker) = strip_markers(text);
    (marker, read_cell(core, suffixes))
}

pub(super) fn invalid(file: &str, name: &str, text: &str, at: Location) -> Problem {
    Problem::error(
        file,
        at,
        format!("`{name}`: expected a number, found `{text}`; the value is missing"),
    )
}

pub(super) fn redacted(file: &str, name: &str, text: &str, at: Location) -> Problem {
    Problem::warning(
        file,
        at,
        format!("`{name}`: `{text}` looks redacted; it is read as missing"),
    )
}
