//! GuideLLM `benchmarks.csv`, one row per benchmark, in its two layouts.
//!
//! **0.4+**: three header rows: the group (`Run Info`, `Benchmark`, `Request Counts`,
//! `Request Latency`, `Time to First Token`, `Server Throughput`, `Token Metrics`, …), the field
//! or `[Status ]unit` (`Successful Sec`, `Successful ms`, `Successful Requests/Sec`), and the
//! statistic (`Mean`, `Median`, `Std Dev`, `Percentiles`). `Percentiles` is one cell holding
//! `[min, p0.1, p1, p5, p10, p25, p75, p90, p95, p99, max]` (no p50: the median has its own
//! column). `Run Info`/`Runtime Info` cells hold JSON (`Backend` with the model, `Profile`,
//! `Metadata` with the GuideLLM version, `Arguments` with the report's settings). A status whose
//! distribution is empty has no columns: 0.7 writes the union of every benchmark's columns
//! (blank where a benchmark has none), while earlier builds wrote the first benchmark's header
//! only, so a row of another length cannot be matched to the header and is skipped with an
//! error. Units come from the header: `Request Latency` is in `Sec` and converted to ms.
//!
//! The `Benchmark / Strategy` cell has only the strategy type. Its streams or rate are found in
//! the `Profile` of the run: a later benchmark's `completed_strategies` lists the strategies run
//! before it, and a `concurrent` or fixed-rate profile lists its `streams`/`rate` per benchmark.
//! The last benchmark of a sweep has neither: it is imported without a load value, with a
//! warning (the JSON or YAML report has it).
//!
//! **0.3**: one header row: `Type, Run Id, Id, Name, Start Time, End Time, Duration`, then per
//! status `<Status> Requests` and `<Status> <Metric> mean|median|std dev|[min, 0.1, 1, 5, 10, 25,
//! 75, 90, 95, 99, max]` for every metric (`Request latency` in seconds), then the JSON cells
//! `Args` (with the strategy), `Worker` (with `backend_model`), `Request Loader`, `Extras`.
//!
//! Only the `Successful` statistics are imported, as in the report; the other statuses give
//! their counts. Columns no GuideLLM version writes are reported once per group and ignored.

mod columns;
mod header;
mod row;
mod strategy;

use super::benchmark::TPOT_0_3;
use crate::import::table::{self, Row};
use crate::import::ImportedFile;
use crate::model::{Location, Producer};
use crate::problem::Problem;
use columns::{column, column_v03, Col};
use header::{Header, Layout};
use row::parse_row;
use strategy::{completed_strategies, finish_row};

/// True when the first line is the group row of a 0.4+ `benchmarks.csv`.
pub(crate) fn is_csv(first_line: &str) -> bool {
    let cells = table::header_cells(first_line);
    cells.contains(&"Request Latency")
        && cells.contains(&"Time to First Token")
        && (cells.first() == Some(&"Run Info") || cells.contains(&"Benchmark"))
}

/// True when the first line is the header of a 0.3 `benchmarks.csv`.
pub(crate) fn is_csv_v03(first_line: &str) -> bool {
    let cells = table::header_cells(first_line);
    cells.first() == Some(&"Type")
        && cells.contains(&"Run Id")
        && cells
            .iter()
            .any(|c| c.ends_with("Time to first token ms mean"))
}

/// Reads a 0.4+ `benchmarks.csv`.
pub(crate) fn read_csv(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile::new(file, Some(Producer::Guidellm));
    let (rows, broken) = table::read_rows(file, text);
    let Some(first) = out.require(
        rows.first(),
        &Location::line(1),
        "expected three header rows and one row per benchmark",
    ) else {
        out.problems.extend(broken);
        return out;
    };
    // Three header rows on consecutive lines; a blank one was dropped by the reader.
    let header_rows: Vec<&Row> = rows
        .iter()
        .take(3)
        .take_while(|r| r.line <= first.line + 2)
        .collect();
    let body = rows.get(header_rows.len()..).unwrap_or_default();
    let width = header_rows.iter().map(|r| r.cells.len()).max().unwrap_or(0);
    let cell = |k: usize, i: usize| header_rows.get(k).map_or("", |r| r.cell(i));
    let mut header = Header {
        cols: Vec::with_capacity(width),
        names: Vec::with_capacity(width),
    };
    for i in 0..width {
        let (group, name, stat) = (cell(0, i), cell(1, i), cell(2, i));
        header.cols.push(column(group, name, stat));
        header.names.push(
            [group, name, stat]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" / "),
        );
    }
    report_header(&mut out, first, &header, |i| cell(0, i).to_string());
    read_body(&mut out, &header, body, broken, Layout::V04);
    out
}

/// Reads a 0.3 `benchmarks.csv`.
pub(crate) fn read_csv_v03(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile::new(file, Some(Producer::Guidellm));
    let (rows, broken) = table::read_rows(file, text);
    let Some((first, body)) = out.require(
        rows.split_first(),
        &Location::line(1),
        "expected a header row and one row per benchmark",
    ) else {
        out.problems.extend(broken);
        return out;
    };
    let header = Header {
        cols: first.cells.iter().map(|h| column_v03(h)).collect(),
        names: first.cells.clone(),
    };
    report_header(&mut out, first, &header, |i| first.cell(i).to_string());
    if let Some(i) = first
        .cells
        .iter()
        .position(|h| h.contains("Time per output token ms"))
    {
        out.problems.push(Problem::warning(
            &out.file,
            first.at(i),
            format!("the `Time per output token ms` columns are left out: {TPOT_0_3}"),
        ));
    }
    read_body(&mut out, &header, body, broken, Layout::V03);
    out
}

/// Reports unknown columns (once per group) and latency columns in a unit that is not a time.
fn report_header(
    out: &mut ImportedFile,
    first: &Row,
    header: &Header,
    group_of: impl Fn(usize) -> String,
) {
    let mut unknown: Vec<(String, usize, usize)> = Vec::new();
    for (i, col) in header.cols.iter().enumerate() {
        match col {
            Col::Unknown => {
                let group = group_of(i);
                match unknown.iter_mut().find(|(g, _, _)| *g == group) {
                    Some((_, _, n)) => *n += 1,
                    None => unknown.push((group, i, 1)),
                }
            }
            Col::BadUnit => out.problems.push(Problem::error(
                &out.file,
                first.at(i),
                format!(
                    "column `{}`: expected a time unit (ms, Sec), the column is ignored",
                    header.names.get(i).map_or("", String::as_str)
                ),
            )),
            _ => {}
        }
    }
    for (_, i, n) in unknown {
        let name = header.names.get(i).map_or("", String::as_str);
        let message = if n == 1 {
            format!("column `{name}` is not one GuideLLM writes; its values are ignored")
        } else {
            format!(
                "column `{name}` and {} more of its group are not ones GuideLLM writes; their \
                 values are ignored",
                n - 1
            )
        };
        out.problems
            .push(Problem::warning(&out.file, first.at(i), message));
    }
}

fn read_body(
    out: &mut ImportedFile,
    header: &Header,
    body: &[Row],
    broken: Option<Problem>,
    layout: Layout,
) {
    let file = out.file.clone();
    let mut parsed = Vec::with_capacity(body.len());
    for row in body {
        match parse_row(&file, header, row) {
            Ok(p) => parsed.push(p),
            Err(problem) => out.problems.push(problem),
        }
    }
    if body.is_empty() && broken.is_none() {
        out.problems.push(Problem::error(
            &file,
            Location::File,
            "the header has no rows under it; expected one row per benchmark",
        ));
    }
    out.problems.extend(broken);
    let known = completed_strategies(&parsed);
    for p in parsed {
        let run = finish_row(&file, p, layout, &known);
        out.runs.push(run);
    }
}
