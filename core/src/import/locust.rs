//! Locust `--csv PREFIX` output (plain HTTP load tests; no tokens, no TTFT).
//!
//! - `PREFIX_stats.csv`: `Type,Name,Request Count,Failure Count,Median Response Time,Average
//!   Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s,
//!   Failures/s,50%,66%,…,100%`, one row per endpoint and a last `,Aggregated` row (Locust 0.x:
//!   quoted `"Method","Name","# requests","# failures",…`). The `Aggregated` row is the run.
//!   Per-endpoint rows are checked but not imported: the model holds one run per configuration
//!   and load point, with no per-endpoint breakdown; a file with several endpoints says so.
//! - `PREFIX_stats_history.csv` (a time series), `PREFIX_failures.csv` (errors and their counts)
//!   and `PREFIX_exceptions.csv` (tracebacks) are recognised and summarised in a warning, but are
//!   not runs: the run and its failure count are in `PREFIX_stats.csv`.
//! - `run_config.json` written beside the CSVs by simple_full_stack_inference's `sweep.sh`
//!   (`users`, `model_name`, `task_set`) is configuration, reported as such.
//!
//! Semantics: Locust's response time is the time of the whole HTTP request, so it is imported as
//! end-to-end latency ([`Metric::E2e`], ms). Locust logs failed requests' times too, so its
//! statistics cover every request; `Request Count` includes the failures. Percentile columns
//! depend on `PERCENTILES_TO_REPORT` and are read from their headers (`99.9%` → p99.9); Locust
//! rounds response times above 100 ms to two significant digits in its percentiles. `N/A` is a
//! missing value. `Requests/s` counts every request, failures included. `Average Content Size`
//! (bytes) and `Failures/s` have no place in the model and are not imported. When every request
//! failed the run is failed and has no latencies.
//!
//! Load point: a per-file importer cannot see the history beside the stats (which has the
//! `User Count`). The users are read from the folder `sweep.sh` writes,
//! `{model}_{task_set}_u{users}` (model, task set as dataset, `{model}_{task_set}` as label);
//! otherwise the load point is unknown and a warning says so. Locust users wait between
//! requests (`wait_time`), so requests in flight are fewer than users.

mod cells;
mod stats;
mod sweep;

use super::table::{self, Row};
use super::ImportedFile;
use crate::model::{Location, Producer};
use crate::number::{parse_number, Reading};
use crate::problem::Problem;
use cells::number;
use stats::{is_aggregate, read_stats};

pub(super) use sweep::{is_run_config, read_run_config};

/// The four CSV files Locust writes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Stats,
    History,
    Failures,
    Exceptions,
}

fn lower_cells(line: &str) -> Vec<String> {
    table::header_cells(line)
        .iter()
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn kind(first_line: &str) -> Option<Kind> {
    kind_of(&lower_cells(first_line))
}

/// The file kind from its lower-cased header cells.
fn kind_of(cells: &[String]) -> Option<Kind> {
    let has = |name: &str| cells.iter().any(|c| c == name);
    let first = cells.first().map(String::as_str);
    if first == Some("timestamp") && has("user count") {
        return Some(Kind::History);
    }
    if matches!(first, Some("type" | "method"))
        && has("name")
        && (has("request count") || has("# requests"))
    {
        return Some(Kind::Stats);
    }
    if matches!(first, Some("method")) && has("error") && has("occurrences") {
        return Some(Kind::Failures);
    }
    if first == Some("count") && has("message") && has("traceback") {
        return Some(Kind::Exceptions);
    }
    None
}

/// True when the first line is the header of one of Locust's CSV files.
pub(super) fn is_locust_csv(first_line: &str) -> bool {
    kind(first_line).is_some()
}

/// Reads one Locust CSV file.
pub(super) fn read(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile::new(file, Some(Producer::Locust));
    let (rows, broken) = table::read_rows(file, text);
    let Some((header, body)) = out.require(
        rows.split_first(),
        &Location::line(1),
        "expected a Locust CSV header",
    ) else {
        return out;
    };
    let names: Vec<String> = header
        .cells
        .iter()
        .map(|c| c.to_ascii_lowercase())
        .collect();
    match kind_of(&names) {
        Some(Kind::Stats) => read_stats(&mut out, header, &names, body),
        Some(Kind::History) => read_history(&mut out, header, &names, body),
        Some(Kind::Failures) => read_failures(&mut out, &names, body),
        Some(Kind::Exceptions) => read_exceptions(&mut out, &names, body),
        None => out.problems.push(Problem::error(
            file,
            Location::line(header.line),
            "expected a Locust `_stats.csv`, `_stats_history.csv`, `_failures.csv` or \
             `_exceptions.csv` header",
        )),
    }
    out.problems.extend(broken);
    out
}

fn read_history(out: &mut ImportedFile, header: &Row, names: &[String], body: &[Row]) {
    let file = out.file.clone();
    let file = file.as_str();
    let at = |name: &str| names.iter().position(|n| n == name);
    let users_at = at("user count").unwrap_or(1);
    let name_at = at("name").unwrap_or(3);
    let type_at = at("type");
    let total_at = at("total request count");
    let failed_at = at("total failure count");
    let mut max_users: Option<f64> = None;
    let mut last: Option<&Row> = None;
    let mut aggregated_rows = 0usize;
    for row in body.iter().filter(|r| is_aggregate(r, name_at, type_at)) {
        aggregated_rows += 1;
        last = Some(row);
        if let Some(u) = number(file, header, row, users_at, &mut out.problems) {
            max_users = Some(max_users.map_or(u, |m: f64| m.max(u)));
        }
    }
    let mut message = format!(
        "Locust stats history: a time series of {aggregated_rows} `Aggregated` rows, not a run; \
         the run is read from the `_stats.csv` beside it"
    );
    if let Some(u) = max_users {
        message.push_str(&format!("; users peaked at {}", crate::format::number(u)));
    }
    if let Some(row) = last {
        let total = total_at.and_then(|i| number(file, header, row, i, &mut out.problems));
        let failed = failed_at.and_then(|i| number(file, header, row, i, &mut out.problems));
        if let (Some(t), Some(f)) = (total, failed) {
            message.push_str(&format!(
                "; at the end {} requests, {} failed",
                crate::format::number(t),
                crate::format::number(f)
            ));
        }
    }
    out.problems
        .push(Problem::warning(file, Location::line(header.line), message));
}

fn read_failures(out: &mut ImportedFile, names: &[String], body: &[Row]) {
    let file = out.file.clone();
    let at = |name: &str| names.iter().position(|n| n == name);
    let error_at = at("error").unwrap_or(2);
    let count_at = at("occurrences").unwrap_or(3);
    let mut total = 0u64;
    let mut kinds = Vec::new();
    for row in body {
        match parse_number(row.cell(count_at), &[]) {
            Reading::Value(v) if v >= 0.0 && v.fract() == 0.0 && v <= 9.0e15 => {
                total = total.saturating_add(v as u64);
                kinds.push(format!("{} × {}", v as u64, short(row.cell(error_at))));
            }
            _ => out.problems.push(Problem::error(
                &file,
                row.at(count_at),
                format!(
                    "`Occurrences`: expected a whole number, found `{}`",
                    row.cell(count_at)
                ),
            )),
        }
    }
    let message = if body.is_empty() {
        "Locust failures: none recorded; not a run (the run is read from the `_stats.csv` \
         beside it)"
            .to_string()
    } else {
        format!(
            "Locust failures: {total} failed requests of {} kinds ({}{}); not a run, the failure \
             count is part of the run read from the `_stats.csv` beside it",
            body.len(),
            kinds.iter().take(3).cloned().collect::<Vec<_>>().join("; "),
            if kinds.len() > 3 { "; …" } else { "" }
        )
    };
    out.problems
        .push(Problem::warning(&file, Location::line(1), message));
}

fn read_exceptions(out: &mut ImportedFile, names: &[String], body: &[Row]) {
    let file = out.file.clone();
    let count_at = names.iter().position(|n| n == "count").unwrap_or(0);
    let mut total = 0u64;
    for row in body {
        match parse_number(row.cell(count_at), &[]) {
            Reading::Value(v) if v >= 0.0 && v.fract() == 0.0 && v <= 9.0e15 => {
                total = total.saturating_add(v as u64)
            }
            _ => out.problems.push(Problem::error(
                &file,
                row.at(count_at),
                format!(
                    "`Count`: expected a whole number, found `{}`",
                    row.cell(count_at)
                ),
            )),
        }
    }
    let message = if body.is_empty() {
        "Locust exceptions: none recorded; not a run".to_string()
    } else {
        format!(
            "Locust exceptions: {total} exceptions in the test code, {} kinds; not a run \
             (the tracebacks are in this file)",
            body.len()
        )
    };
    out.problems
        .push(Problem::warning(&file, Location::line(1), message));
}

/// The first 80 characters of an error message, on one line.
fn short(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 80 {
        format!("{}…", one_line.chars().take(80).collect::<String>())
    } else {
        one_line
    }
}

#[cfg(test)]
mod tests;
