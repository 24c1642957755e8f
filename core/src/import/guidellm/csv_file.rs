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

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{load_point, report_identity, text, Benchmark};
use crate::import::stats::ms_per;
use crate::import::table::{self, Row};
use crate::import::ImportedFile;
use crate::model::{
    Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer, RequestCounts,
    Throughput, TokenStats,
};
use crate::number::{parse_number, Reading};
use crate::problem::{Problem, Severity};

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

/// A request status, as the headers name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Successful,
    Errored,
    Incomplete,
    Total,
}

/// Splits `Successful ms` into the status and the rest.
fn split_status(name: &str) -> (Option<Status>, &str) {
    let (first, rest) = name.split_once(' ').unwrap_or((name, ""));
    let status = match first {
        "Successful" => Status::Successful,
        "Errored" => Status::Errored,
        "Incomplete" => Status::Incomplete,
        "Total" => Status::Total,
        _ => return (None, name),
    };
    (Some(status), rest.trim())
}

/// Where a statistic goes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Target {
    Latency(Metric),
    InputLen,
    OutputLen,
    RequestsPerSec,
    Concurrency,
    InputTokPerSec,
    OutputTokPerSec,
    TotalTokPerSec,
}

impl Target {
    /// Rates are read by their mean only.
    fn is_rate(self) -> bool {
        !matches!(
            self,
            Target::Latency(_) | Target::InputLen | Target::OutputLen
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Stat {
    Mean,
    Median,
    Std,
    Percentiles,
}

/// What a column holds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Col {
    RunId,
    RunIndex,
    Profile,
    Backend,
    Kind,
    /// 0.4+ `Benchmark / Strategy` (the type), 0.3 `Name` (`concurrent@4`).
    Strategy,
    /// 0.3 `Args`, 0.4+ `Runtime Info / Arguments`.
    Arguments,
    Worker,
    Metadata,
    Count(Status),
    Stat {
        target: Target,
        stat: Stat,
        scale: f64,
    },
    /// A latency column in a unit that is not a time unit.
    BadUnit,
    /// Known, deliberately not imported.
    Ignored,
    Unknown,
}

/// Groups GuideLLM writes whose values have no place in the model.
const IGNORED_GROUPS: [&str; 6] = [
    "Timings",
    "Streaming Iterations",
    "Time to First Output Token",
    "Token Streaming",
    "Scheduler State",
    "Scheduler Metrics",
];

/// The column of a 0.4+ file from its three header cells.
fn column(group: &str, name: &str, stat: &str) -> Col {
    match (group, name) {
        ("Run Info", "Run ID") => return Col::RunId,
        ("Run Info", "Run Index") => return Col::RunIndex,
        ("Run Info", "Profile") => return Col::Profile,
        ("Run Info", "Backend") => return Col::Backend,
        ("Run Info", _) => return Col::Ignored,
        ("Benchmark", "Type") => return Col::Kind,
        ("Benchmark", "Strategy") => return Col::Strategy,
        ("Benchmark", _) => return Col::Ignored,
        ("Runtime Info", "Metadata") => return Col::Metadata,
        ("Runtime Info", "Arguments") => return Col::Arguments,
        ("Runtime Info", _) => return Col::Ignored,
        ("Request Counts", n) => {
            return match split_status(n) {
                (Some(s), "") => Col::Count(s),
                _ => Col::Unknown,
            }
        }
        _ => {}
    }
    if IGNORED_GROUPS.contains(&group)
        || ["Text ", "Image ", "Video ", "Audio "]
            .iter()
            .any(|m| group.starts_with(m))
    {
        return Col::Ignored;
    }
    let stat = match stat {
        "Mean" => Stat::Mean,
        "Median" => Stat::Median,
        "Std Dev" => Stat::Std,
        "Percentiles" => Stat::Percentiles,
        _ => return Col::Unknown,
    };
    let (status, unit) = split_status(name);
    let latency = |metric| ms_per(unit).map(|scale| (Target::Latency(metric), scale));
    let target = match group {
        "Request Latency" => latency(Metric::E2e),
        "Time to First Token" => latency(Metric::Ttft),
        "Time per Output Token" => latency(Metric::TpotInclFirst),
        "Inter Token Latency" => latency(Metric::Tpot),
        _ => {
            let t = match (group, unit) {
                ("Server Throughput", "Requests/Sec") => Target::RequestsPerSec,
                ("Server Throughput", "Concurrency") => Target::Concurrency,
                ("Token Metrics", "Input Tokens") => Target::InputLen,
                ("Token Metrics", "Output Tokens") => Target::OutputLen,
                ("Token Metrics", "Total Tokens") => return Col::Ignored,
                ("Token Throughput", "Input Tokens/Sec") => Target::InputTokPerSec,
                ("Token Throughput", "Output Tokens/Sec") => Target::OutputTokPerSec,
                ("Token Throughput", "Total Tokens/Sec") => Target::TotalTokPerSec,
                _ => return Col::Unknown,
            };
            Some((t, 1.0))
        }
    };
    let Some(status) = status else {
        return Col::Unknown;
    };
    let Some((target, scale)) = target else {
        return Col::BadUnit;
    };
    if status != Status::Successful || (target.is_rate() && stat != Stat::Mean) {
        return Col::Ignored;
    }
    Col::Stat {
        target,
        stat,
        scale,
    }
}

/// The 0.3 percentile header suffix.
const V03_PERCENTILES: &str = " [min, 0.1, 1, 5, 10, 25, 75, 90, 95, 99, max]";

/// The column of a 0.3 file from its header.
fn column_v03(header: &str) -> Col {
    match header {
        "Type" => return Col::Kind,
        "Run Id" => return Col::RunId,
        "Name" => return Col::Strategy,
        "Args" => return Col::Arguments,
        "Worker" => return Col::Worker,
        "Id" | "Start Time" | "End Time" | "Duration" | "Request Loader" | "Extras" => {
            return Col::Ignored
        }
        _ => {}
    }
    let (Some(status), rest) = split_status(header) else {
        return Col::Unknown;
    };
    if rest == "Requests" {
        return Col::Count(status);
    }
    let (metric, stat) = if let Some(m) = rest.strip_suffix(" mean") {
        (m, Stat::Mean)
    } else if let Some(m) = rest.strip_suffix(" median") {
        (m, Stat::Median)
    } else if let Some(m) = rest.strip_suffix(" std dev") {
        (m, Stat::Std)
    } else if let Some(m) = rest.strip_suffix(V03_PERCENTILES) {
        (m, Stat::Percentiles)
    } else {
        return Col::Unknown;
    };
    let (target, scale) = match metric {
        "Requests per second" => (Target::RequestsPerSec, 1.0),
        "Request concurrency" => (Target::Concurrency, 1.0),
        // Seconds.
        "Request latency" => (Target::Latency(Metric::E2e), 1000.0),
        "Prompt token count" => (Target::InputLen, 1.0),
        "Output token count" => (Target::OutputLen, 1.0),
        "Time to first token ms" => (Target::Latency(Metric::Ttft), 1.0),
        "Time per output token ms" => (Target::Latency(Metric::TpotInclFirst), 1.0),
        "Inter token latency ms" => (Target::Latency(Metric::Tpot), 1.0),
        "Output tokens per second" => (Target::OutputTokPerSec, 1.0),
        "Tokens per second" => (Target::TotalTokPerSec, 1.0),
        _ => return Col::Unknown,
    };
    if status != Status::Successful || (target.is_rate() && stat != Stat::Mean) {
        return Col::Ignored;
    }
    Col::Stat {
        target,
        stat,
        scale,
    }
}

/// The header of a file: what each column holds and how to name it in messages.
struct Header {
    cols: Vec<Col>,
    names: Vec<String>,
}

/// Reads a 0.4+ `benchmarks.csv`.
pub(crate) fn read_csv(file: &str, text: &str) -> ImportedFile {
    let mut out = new_file(file);
    let (rows, broken) = table::read_rows(file, text);
    let Some(first) = rows.first() else {
        out.problems.push(Problem::error(
            file,
            Location::line(1),
            "expected three header rows and one row per benchmark",
        ));
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
    let mut out = new_file(file);
    let (rows, broken) = table::read_rows(file, text);
    let Some((first, body)) = rows.split_first() else {
        out.problems.push(Problem::error(
            file,
            Location::line(1),
            "expected a header row and one row per benchmark",
        ));
        out.problems.extend(broken);
        return out;
    };
    let header = Header {
        cols: first.cells.iter().map(|h| column_v03(h)).collect(),
        names: first.cells.clone(),
    };
    report_header(&mut out, first, &header, |i| first.cell(i).to_string());
    read_body(&mut out, &header, body, broken, Layout::V03);
    out
}

fn new_file(file: &str) -> ImportedFile {
    ImportedFile {
        file: file.to_string(),
        producer: Some(Producer::Guidellm),
        runs: Vec::new(),
        problems: Vec::new(),
        joined: Vec::new(),
        joined_into: None,
    }
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    V03,
    V04,
}

/// What one row gave, before its load point is resolved.
struct Parsed {
    line: u64,
    run_id: Option<String>,
    run_index: Option<usize>,
    strategy: Option<(usize, String)>,
    profile: Option<Map<String, Value>>,
    backend: Option<Map<String, Value>>,
    arguments: Option<Map<String, Value>>,
    worker: Option<Map<String, Value>>,
    metadata: Option<Map<String, Value>>,
    requests: RequestCounts,
    succeeded_at: Option<Location>,
    latency: Vec<LatencyMetric>,
    input_len: Distribution,
    output_len: Distribution,
    throughput: Throughput,
    concurrency: Option<f64>,
    problems: Vec<Problem>,
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

/// Reads the cells of one row.
fn parse_row(file: &str, header: &Header, row: &Row) -> Result<Parsed, Problem> {
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
    let mut p = Parsed {
        line: row.line,
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
    };
    for (i, col) in header.cols.iter().enumerate() {
        let cell = row.cell(i);
        let name = header.names.get(i).map_or("", String::as_str);
        if cell.is_empty() {
            continue;
        }
        let number = |p: &mut Parsed| -> Option<f64> {
            match parse_number(cell, &[]) {
                Reading::Value(v) if v.is_finite() => Some(v),
                Reading::Missing => None,
                _ => {
                    p.problems.push(Problem::error(
                        file,
                        row.at(i),
                        format!("`{name}`: expected a finite number, found `{cell}`"),
                    ));
                    None
                }
            }
        };
        match *col {
            Col::RunId => p.run_id = Some(cell.to_string()),
            Col::RunIndex => {
                p.run_index = number(&mut p)
                    .filter(|v| *v >= 0.0 && v.fract() == 0.0 && *v < 1e9)
                    .map(|v| v as usize);
            }
            Col::Kind => {
                if cell != "generative_benchmark" {
                    return Err(Problem::error(
                        file,
                        row.at(i),
                        format!(
                            "`{name}`: expected `generative_benchmark`, found `{cell}`; only \
                             generative benchmarks are imported, this row is skipped"
                        ),
                    ));
                }
            }
            Col::Strategy => p.strategy = Some((i, cell.to_string())),
            Col::Profile => p.profile = json_cell(file, row, i, name, &mut p.problems),
            Col::Backend => p.backend = json_cell(file, row, i, name, &mut p.problems),
            Col::Arguments => p.arguments = json_cell(file, row, i, name, &mut p.problems),
            Col::Worker => p.worker = json_cell(file, row, i, name, &mut p.problems),
            Col::Metadata => p.metadata = json_cell(file, row, i, name, &mut p.problems),
            Col::Count(status) => {
                let n = match number(&mut p) {
                    Some(v) if v >= 0.0 && v.fract() == 0.0 && v <= 9.0e15 => Some(v as u64),
                    Some(v) => {
                        p.problems.push(Problem::error(
                            file,
                            row.at(i),
                            format!("`{name}`: expected a whole number of at least 0, found {v}"),
                        ));
                        None
                    }
                    None => None,
                };
                match status {
                    Status::Successful => {
                        p.requests.succeeded = n;
                        p.succeeded_at = Some(row.at(i));
                    }
                    Status::Errored => p.requests.failed = n,
                    Status::Incomplete => p.requests.incomplete = n,
                    Status::Total => p.requests.total = n,
                }
            }
            Col::Stat {
                target,
                stat,
                scale,
            } => {
                if stat == Stat::Percentiles {
                    match percentile_list(cell) {
                        Ok(values) => {
                            let d = distribution(&mut p, target);
                            set_percentiles(d, &values, scale);
                        }
                        Err(message) => p.problems.push(Problem::error(
                            file,
                            row.at(i),
                            format!("`{name}`: {message}"),
                        )),
                    }
                    continue;
                }
                let Some(v) = number(&mut p) else { continue };
                let v = v * scale;
                match target {
                    Target::RequestsPerSec => p.throughput.requests_per_s = Some(v),
                    Target::Concurrency => p.concurrency = Some(v),
                    Target::InputTokPerSec => p.throughput.input_tok_s = Some(v),
                    Target::OutputTokPerSec => p.throughput.output_tok_s = Some(v),
                    Target::TotalTokPerSec => p.throughput.total_tok_s = Some(v),
                    Target::Latency(_) | Target::InputLen | Target::OutputLen => {
                        let d = distribution(&mut p, target);
                        match stat {
                            Stat::Mean => d.mean = Some(v),
                            Stat::Median => d.median = Some(v),
                            Stat::Std => d.std = Some(v),
                            Stat::Percentiles => {}
                        }
                    }
                }
            }
            Col::BadUnit | Col::Ignored | Col::Unknown => {}
        }
    }
    Ok(p)
}

/// The distribution a latency or length statistic goes to.
fn distribution(p: &mut Parsed, target: Target) -> &mut Distribution {
    let metric = match target {
        Target::Latency(m) => m,
        Target::OutputLen => return &mut p.output_len,
        _ => return &mut p.input_len,
    };
    let index = match p.latency.iter().position(|l| l.metric == metric) {
        Some(i) => i,
        None => {
            p.latency.push(LatencyMetric {
                metric,
                distribution: Distribution::default(),
            });
            p.latency.len() - 1
        }
    };
    &mut p.latency[index].distribution
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

/// Strategies by (run id, position), from every row's `Profile.completed_strategies`.
fn completed_strategies(parsed: &[Parsed]) -> HashMap<(String, usize), Map<String, Value>> {
    let mut known = HashMap::new();
    for p in parsed {
        let Some(Value::Array(done)) = p
            .profile
            .as_ref()
            .and_then(|p| p.get("completed_strategies"))
        else {
            continue;
        };
        let run = p.run_id.clone().unwrap_or_default();
        for (i, s) in done.iter().enumerate() {
            if let Value::Object(s) = s {
                known.entry((run.clone(), i)).or_insert_with(|| s.clone());
            }
        }
    }
    known
}

/// Turns a parsed row into a run: load point, identity, counts.
fn finish_row(
    file: &str,
    mut p: Parsed,
    layout: Layout,
    known: &HashMap<(String, usize), Map<String, Value>>,
) -> crate::model::Run {
    let row_at = Location::line(p.line);
    let strategy = match layout {
        Layout::V04 => strategy_v04(&p, known),
        Layout::V03 => strategy_v03(&p),
    };
    let strategy_at = p.strategy.as_ref().map_or_else(
        || row_at.clone(),
        |(i, _)| Location::Line {
            line: p.line,
            column: Some(*i as u64 + 1),
        },
    );
    let load = match strategy {
        Ok(s) => {
            let (load, issues) = load_point(&s);
            for issue in issues {
                let message = format!("strategy {}: {}", Value::Object(s.clone()), issue.message);
                p.problems.push(match issue.severity {
                    Severity::Error => Problem::error(file, strategy_at.clone(), message),
                    Severity::Warning => Problem::warning(file, strategy_at.clone(), message),
                });
            }
            load
        }
        Err(message) => {
            p.problems
                .push(Problem::warning(file, strategy_at.clone(), message));
            LoadPoint {
                target: LoadTarget::MaxThroughput,
                max_concurrency: None,
                achieved_rps: None,
                achieved_concurrency: None,
            }
        }
    };

    // Identity: the benchmark's backend model first, then the report's settings.
    let (config, args) = match &p.arguments {
        Some(a) if a.contains_key("spec") => (Some(a), None),
        Some(a) => (None, Some(a)),
        None => (None, None),
    };
    let mut identity = report_identity(config, args);
    let own_model = p
        .backend
        .as_ref()
        .and_then(|b| text(b, "model"))
        .or_else(|| p.worker.as_ref().and_then(|w| text(w, "backend_model")));
    identity.model = own_model.or(identity.model);
    let version = p
        .metadata
        .as_ref()
        .and_then(|m| text(m, "guidellm_version"));

    let tokens = TokenStats {
        total_input: None,
        total_output: None,
        input_len: (!p.input_len.is_empty()).then_some(p.input_len),
        output_len: (!p.output_len.is_empty()).then_some(p.output_len),
    };
    let failed_at = p.succeeded_at.clone().unwrap_or_else(|| row_at.clone());
    let latency = p
        .latency
        .into_iter()
        .filter(|l| !l.distribution.is_empty())
        .collect();
    Benchmark {
        location: row_at,
        version,
        config: identity,
        load,
        requests: p.requests,
        latency,
        throughput: p.throughput,
        achieved_concurrency: p.concurrency,
        tokens,
        samples: None,
        problems: p.problems,
    }
    .into_run(file, failed_at)
}

/// The strategy of a 0.4+ row: its type from `Benchmark / Strategy`, its streams or rate from
/// the run's profile.
fn strategy_v04(
    p: &Parsed,
    known: &HashMap<(String, usize), Map<String, Value>>,
) -> Result<Map<String, Value>, String> {
    let kind = p.strategy.as_ref().map(|(_, k)| k.as_str());
    let profile = p.profile.as_ref();
    let position = profile
        .and_then(|pr| pr.get("completed_strategies"))
        .and_then(Value::as_array)
        .map(Vec::len)
        .or(p.run_index);
    let run = p.run_id.clone().unwrap_or_default();
    if let Some(s) = position.and_then(|i| known.get(&(run, i))) {
        let same = s.get("type_").and_then(Value::as_str);
        if kind.is_none() || same == kind {
            return Ok(s.clone());
        }
    }
    let Some(kind) = kind else {
        return Err(
            "the `Benchmark / Strategy` cell is empty; expected the strategy type, the run has \
             no load value"
                .to_string(),
        );
    };
    let mut strategy = Map::new();
    strategy.insert("type_".to_string(), Value::String(kind.to_string()));
    let key = match kind {
        "concurrent" => "streams",
        "constant" | "poisson" => "rate",
        _ => return Ok(strategy),
    };
    let listed = profile
        .and_then(|pr| {
            pr.get(key)
                .or_else(|| (key == "rate").then(|| pr.get("rates")).flatten())
        })
        .and_then(|v| match v {
            Value::Array(items) => position.and_then(|i| items.get(i)).cloned(),
            Value::Number(_) => Some(v.clone()),
            _ => None,
        });
    match listed {
        Some(value) => {
            strategy.insert(key.to_string(), value);
            Ok(strategy)
        }
        None => Err(format!(
            "the CSV names the strategy `{kind}` but not its {key} for this benchmark (neither \
             the profile nor a later benchmark's `completed_strategies` lists it: the last \
             benchmark of a sweep); the run has no load value, the JSON or YAML report has it"
        )),
    }
}

/// The strategy of a 0.3 row: `Args.strategy`, else the `Name` (`concurrent@4`,
/// `constant@2.50`, whose rate is rounded to two decimals).
fn strategy_v03(p: &Parsed) -> Result<Map<String, Value>, String> {
    if let Some(Value::Object(s)) = p.arguments.as_ref().and_then(|a| a.get("strategy")) {
        return Ok(s.clone());
    }
    let Some((_, name)) = &p.strategy else {
        return Err(
            "no `Args` strategy and no `Name`; expected the strategy, the run has no load value"
                .to_string(),
        );
    };
    let (kind, value) = name.split_once('@').unwrap_or((name.as_str(), ""));
    let mut strategy = Map::new();
    strategy.insert("type_".to_string(), Value::String(kind.to_string()));
    let key = match kind {
        "concurrent" => "streams",
        _ => "rate",
    };
    if !value.is_empty() {
        strategy.insert(key.to_string(), Value::String(value.to_string()));
    }
    Ok(strategy)
}
