//! A run being assembled from every table row and progress line of its level, and reading one
//! cell into it (the first value is kept, a different later one is reported).

use super::cells::{fraction, invalid, number_of, read_cell, redacted, Cell};
use super::columns::{Col, Level};
use crate::model::{Location, RequestSamples};
use crate::problem::Problem;

/// A run being assembled from every table row and progress line of its level.
#[derive(Debug)]
pub(super) struct Entry {
    pub(super) level: Level,
    pub(super) line: u64,
    pub(super) success_pct: Option<(f64, Location)>,
    pub(super) succeeded: Option<(u64, Location)>,
    pub(super) total: Option<(u64, Location)>,
    pub(super) errors: Option<(u64, Location)>,
    pub(super) error_pct: Option<(f64, Location)>,
    pub(super) values: Vec<(Col, f64, Location)>,
    pub(super) samples: Option<RequestSamples>,
    pub(super) problems: Vec<Problem>,
}

impl Entry {
    pub(super) fn new(level: Level, line: u64) -> Self {
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

/// Sets a count, reporting a disagreement with an earlier value.
pub(super) fn set_count(
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
pub(super) fn apply(
    file: &str,
    entry: &mut Entry,
    c: Col,
    name: &str,
    text: &str,
    at: Location,
    problems: &mut Vec<Problem>,
) {
    let suffixes = suffixes(c);
    if matches!(c, Col::Success | Col::Result) && read_fraction(file, entry, text, &at, problems) {
        return;
    }
    match c {
        Col::Load | Col::Unknown | Col::Duration => {
            // Checked, so a broken cell is still reported.
            if let (_, Cell::Invalid) = number_of(text, suffixes) {
                problems.push(invalid(file, name, text, at));
            }
            return;
        }
        Col::Errors => {
            read_errors(file, entry, name, text, at, problems);
            return;
        }
        _ => {}
    }
    let Some(v) = read_number(file, name, text, suffixes, at.clone(), problems) else {
        return;
    };
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
        _ => keep_measurement(file, entry, c, name, v, at, problems),
    }
}

/// The units a cell of column `c` may carry.
fn suffixes(c: Col) -> &'static [&'static str] {
    match c {
        Col::SuccessPct | Col::ErrorPct => &["%"],
        Col::Latency(..) => &["ms"],
        Col::OutputTokS | Col::PerRequestTokS => &["tok/s", "tokens/s", "tokens/sec"],
        Col::Duration => &["s"],
        Col::ActualRps | Col::RequestsPerS => &["req/s", "rps"],
        _ => &[],
    }
}

/// `20/20` or `✓ 20/20 ok` in a `Success` or `Result` cell: the successes and requests. False
/// when the cell is not a fraction.
fn read_fraction(
    file: &str,
    entry: &mut Entry,
    text: &str,
    at: &Location,
    problems: &mut Vec<Problem>,
) -> bool {
    let Some((ok, total)) = fraction(text) else {
        return false;
    };
    set_count(
        file,
        &mut entry.succeeded,
        ok,
        "successes",
        at.clone(),
        problems,
    );
    set_count(
        file,
        &mut entry.total,
        total,
        "requests",
        at.clone(),
        problems,
    );
    true
}

/// An `Errors` cell: `0`, `12`, `60%` or `12 (60%)`.
fn read_errors(
    file: &str,
    entry: &mut Entry,
    name: &str,
    text: &str,
    at: Location,
    problems: &mut Vec<Problem>,
) {
    let (count, pct) = match text.split_once('(') {
        Some((a, b)) => (a.trim(), Some(b.trim_end_matches(')').trim())),
        None if text.trim_end().ends_with('%') => ("", Some(text.trim())),
        None => (text.trim(), None),
    };
    if let Some(p) = pct {
        match read_cell(p, &["%"]) {
            Cell::Value(v) => entry.error_pct = entry.error_pct.take().or(Some((v, at.clone()))),
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
}

/// A cell's non-negative number, with a warning when a marker was dropped; `None` when the cell
/// is missing, redacted or not a number (the last two reported).
fn read_number(
    file: &str,
    name: &str,
    text: &str,
    suffixes: &[&str],
    at: Location,
    problems: &mut Vec<Problem>,
) -> Option<f64> {
    let (marker, cell) = number_of(text, suffixes);
    let v = match cell {
        Cell::Value(v) if v.is_finite() && v >= 0.0 => v,
        Cell::Missing => return None,
        Cell::Redacted => {
            problems.push(redacted(file, name, text, at));
            return None;
        }
        _ => {
            problems.push(invalid(file, name, text, at));
            return None;
        }
    };
    if !marker.is_empty() {
        problems.push(Problem::warning(
            file,
            at,
            format!(
                "`{text}` in `{name}`: the marker `{marker}` is dropped and {} is read",
                crate::format::number(v)
            ),
        ));
    }
    Some(v)
}

/// Measurements: the first value is kept, a different later one is reported.
fn keep_measurement(
    file: &str,
    entry: &mut Entry,
    c: Col,
    name: &str,
    v: f64,
    at: Location,
    problems: &mut Vec<Problem>,
) {
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
