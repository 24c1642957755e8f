//! The cells of one row of `benchmarks.csv`: what each column gives (counts, statistics, the
//! percentile list, JSON cells), before the row's load point is known.

use serde_json::{Map, Value};

use super::columns::{Col, Destination, Stat, Status};
use super::header::Header;
use crate::import::fields::latency_entry;
use crate::import::table::Row;
use crate::model::{Distribution, LatencyMetric, Location, RequestCounts, Throughput};
use crate::number::{parse_number, Reading};
use crate::problem::Problem;

/// What one row gave, before its load point is resolved.
pub(super) struct Parsed {
    pub(super) line: u64,
    pub(super) run_id: Option<String>,
    pub(super) run_index: Option<usize>,
    pub(super) strategy: Option<(usize, String)>,
    pub(super) profile: Option<Map<String, Value>>,
    pub(super) backend: Option<Map<String, Value>>,
    pub(super) arguments: Option<Map<String, Value>>,
    pub(super) worker: Option<Map<String, Value>>,
    pub(super) metadata: Option<Map<String, Value>>,
    pub(super) requests: RequestCounts,
    pub(super) succeeded_at: Option<Location>,
    pub(super) latency: Vec<LatencyMetric>,
    pub(super) input_len: Distribution,
    pub(super) output_len: Distribution,
    pub(super) throughput: Throughput,
    pub(super) concurrency: Option<f64>,
    pub(super) problems: Vec<Problem>,
}

impl Parsed {
    /// Nothing read yet of the row at `line`.
    fn new(line: u64) -> Self {
        Parsed {
            line,
            run_id: None,
            run_index: None,
            strategy: None,
            profile: None,
            backend: None,
            arguments: None,
            worker: None,
            metadata: None,
            requests: RequestCounts::default(),
            succeeded_at: None,
            latency: Vec::new(),
            input_len: Distribution::default(),
            output_len: Distribution::default(),
            throughput: Throughput::default(),
            concurrency: None,
            problems: Vec::new(),
        }
    }
}

/// Reads the cells of one row.
pub(super) fn parse_row(file: &str, header: &Header, row: &Row) -> Result<Parsed, Problem> {
    let width = header.cols.len();
    if row.cells.len() != width {
        return Err(Problem::error(
            file,
            Location::line(row.line),
            format!(
                "expected {width} cells as in the header, found {}; GuideLLM before 0.7 wrote \
                 the first benchmark's header only, so this row's cells cannot be matched to \
                 columns; it is skipped (the JSON or YAML report has every benchmark)",
                row.cells.len()
            ),
        ));
    }
    let mut p = Parsed::new(row.line);
    for (i, col) in header.cols.iter().enumerate() {
        let cell = RowCell {
            file,
            row,
            i,
            name: header.names.get(i).map_or("", String::as_str),
            text: row.cell(i),
        };
        if cell.text.is_empty() {
            continue;
        }
        let (name, text) = (cell.name, cell.text);
        match *col {
            Col::RunId => p.run_id = Some(text.to_string()),
            Col::RunIndex => {
                p.run_index = cell
                    .number(&mut p.problems)
                    .filter(|v| *v >= 0.0 && v.fract() == 0.0 && *v < 1e9)
                    .map(|v| v as usize);
            }
            Col::Kind => {
                if text != "generative_benchmark" {
                    return Err(Problem::error(
                        file,
                        row.at(i),
                        format!(
                            "`{name}`: expected `generative_benchmark`, found `{text}`; only \
                             generative benchmarks are imported, this row is skipped"
                        ),
                    ));
                }
            }
            Col::Strategy => p.strategy = Some((i, text.to_string())),
            Col::Profile => p.profile = json_cell(file, row, i, name, &mut p.problems),
            Col::Backend => p.backend = json_cell(file, row, i, name, &mut p.problems),
            Col::Arguments => p.arguments = json_cell(file, row, i, name, &mut p.problems),
            Col::Worker => p.worker = json_cell(file, row, i, name, &mut p.problems),
            Col::Metadata => p.metadata = json_cell(file, row, i, name, &mut p.problems),
            Col::Count(status) => read_count(&mut p, &cell, status),
            Col::Stat {
                target,
                stat,
                scale,
            } => read_stat(&mut p, &cell, target, stat, scale),
            Col::BadUnit | Col::Ignored | Col::Unknown => {}
        }
    }
    Ok(p)
}

/// A non-empty cell of a row, with its place and column name for messages.
struct RowCell<'a> {
    file: &'a str,
    row: &'a Row,
    i: usize,
    name: &'a str,
    text: &'a str,
}

impl RowCell<'_> {
    /// The cell's finite number; `None` when it is missing or not a number (reported).
    fn number(&self, problems: &mut Vec<Problem>) -> Option<f64> {
        match parse_number(self.text, &[]) {
            Reading::Value(v) if v.is_finite() => Some(v),
            Reading::Missing => None,
            _ => {
                problems.push(Problem::error(
                    self.file,
                    self.row.at(self.i),
                    format!(
                        "`{}`: expected a finite number, found `{}`",
                        self.name, self.text
                    ),
                ));
                None
            }
        }
    }
}

/// A request count of one status.
fn read_count(p: &mut Parsed, cell: &RowCell<'_>, status: Status) {
    let n = match cell.number(&mut p.problems) {
        Some(v) if v >= 0.0 && v.fract() == 0.0 && v <= 9.0e15 => Some(v as u64),
        Some(v) => {
            p.problems.push(Problem::error(
                cell.file,
                cell.row.at(cell.i),
                format!(
                    "`{}`: expected a whole number of at least 0, found {v}",
                    cell.name
                ),
            ));
            None
        }
        None => None,
    };
    match status {
        Status::Successful => {
            p.requests.succeeded = n;
            p.succeeded_at = Some(cell.row.at(cell.i));
        }
        Status::Errored => p.requests.failed = n,
        Status::Incomplete => p.requests.incomplete = n,
        Status::Total => p.requests.total = n,
    }
}

/// A statistic: the percentile list, a rate's mean, or a latency's or length's statistic.
fn read_stat(p: &mut Parsed, cell: &RowCell<'_>, target: Destination, stat: Stat, scale: f64) {
    if stat == Stat::Percentiles {
        match percentile_list(cell.text) {
            Ok(values) => {
                let d = distribution(p, target);
                set_percentiles(d, &values, scale);
            }
            Err(message) => p.problems.push(Problem::error(
                cell.file,
                cell.row.at(cell.i),
                format!("`{}`: {message}", cell.name),
            )),
        }
        return;
    }
    let Some(v) = cell.number(&mut p.problems) else {
        return;
    };
    let v = v * scale;
    match target {
        Destination::RequestsPerSec => p.throughput.requests_per_s = Some(v),
        Destination::Concurrency => p.concurrency = Some(v),
        Destination::InputTokPerSec => p.throughput.input_tok_s = Some(v),
        Destination::OutputTokPerSec => p.throughput.output_tok_s = Some(v),
        Destination::TotalTokPerSec => p.throughput.total_tok_s = Some(v),
        Destination::Latency(_) | Destination::InputLen | Destination::OutputLen => {
            let d = distribution(p, target);
            match stat {
                Stat::Mean => d.mean = Some(v),
                Stat::Median => d.median = Some(v),
                Stat::Std => d.std = Some(v),
                Stat::Percentiles => {}
            }
        }
    }
}

/// The distribution a latency or length statistic goes to.
fn distribution(p: &mut Parsed, target: Destination) -> &mut Distribution {
    let metric = match target {
        Destination::Latency(m) => m,
        Destination::OutputLen => return &mut p.output_len,
        _ => return &mut p.input_len,
    };
    latency_entry(&mut p.latency, metric)
}

/// Ranks of the percentile cell, between its min and max.
const RANKS: [f64; 9] = [0.1, 1.0, 5.0, 10.0, 25.0, 75.0, 90.0, 95.0, 99.0];

/// `[min, p0.1, p1, p5, p10, p25, p75, p90, p95, p99, max]` (Python's list text).
fn percentile_list(cell: &str) -> Result<Vec<Option<f64>>, String> {
    let inner = cell
        .trim()
        .strip_prefix('[')
        .and_then(|c| c.strip_suffix(']'))
        .ok_or_else(|| {
            format!("expected a list `[min, p0.1, p1, p5, p10, p25, p75, p90, p95, p99, max]`, found `{cell}`")
        })?;
    let values: Vec<Option<f64>> = inner
        .split(',')
        .map(|v| match parse_number(v, &[]) {
            Reading::Value(x) if x.is_finite() => Ok(Some(x)),
            Reading::Missing => Ok(None),
            _ => Err(format!(
                "expected a finite number in the list, found `{}`",
                v.trim()
            )),
        })
        .collect::<Result<_, _>>()?;
    if values.len() != RANKS.len() + 2 {
        return Err(format!(
            "expected 11 values (min, p0.1, p1, p5, p10, p25, p75, p90, p95, p99, max), found {}",
            values.len()
        ));
    }
    Ok(values)
}

fn set_percentiles(d: &mut Distribution, values: &[Option<f64>], scale: f64) {
    let mut values = values.iter().map(|v| v.map(|x| x * scale));
    if let Some(Some(min)) = values.next() {
        d.min = Some(min);
    }
    for rank in RANKS {
        if let Some(Some(v)) = values.next() {
            d.set_percentile(rank, v);
        }
    }
    if let Some(Some(max)) = values.next() {
        d.max = Some(max);
    }
}

/// A cell of JSON (an object); anything else is an error on the cell.
fn json_cell(
    file: &str,
    row: &Row,
    i: usize,
    name: &str,
    problems: &mut Vec<Problem>,
) -> Option<Map<String, Value>> {
    match crate::json::parse(row.cell(i), 0) {
        Ok(Value::Object(m)) => Some(m),
        Ok(Value::Null) => None,
        Ok(other) => {
            problems.push(Problem::error(
                file,
                row.at(i),
                format!(
                    "`{name}`: expected a JSON object, found {}; the cell is ignored",
                    crate::number::describe_json(&other)
                ),
            ));
            None
        }
        Err(e) => {
            problems.push(Problem::error(
                file,
                row.at(i),
                format!("`{name}`: {}; the cell is ignored", e.message),
            ));
            None
        }
    }
}
