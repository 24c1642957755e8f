//! Reading the sections' rows into the run's metrics: statistics per metric, one value per
//! metric, and the run they make with its load point and counts.

use super::artifact::artifact_directory;
use super::rows::{
    request_row, split_label, statistic_column, value_row, RequestRow, Section, ValueRow,
};
use crate::import::json_objects::ms_per;
use crate::import::table::{self, Row, Wanted};
use crate::model::{
    ConfigIdentity, Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Producer,
    Provenance, RequestCounts, Run, Stat, Throughput, TokenStats,
};
use crate::problem::Problem;

/// What the tables gave so far, and the problems found reading them.
pub(super) struct Metrics<'a> {
    file: &'a str,
    pub(super) latency: Vec<LatencyMetric>,
    tokens: TokenStats,
    pub(super) throughput: Throughput,
    pub(super) succeeded: Option<u64>,
    failed: Option<u64>,
    /// Metrics read, with their line, so a repeated one is ignored.
    seen: Vec<(String, u64)>,
    /// Rows of metrics benchdeck does not read.
    pub(super) unknown: Vec<&'a Row>,
    pub(super) problems: Vec<Problem>,
}

impl<'a> Metrics<'a> {
    pub(super) fn new(file: &'a str) -> Self {
        Metrics {
            file,
            latency: Vec::new(),
            tokens: TokenStats::default(),
            throughput: Throughput::default(),
            succeeded: None,
            failed: None,
            seen: Vec::new(),
            unknown: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// Reads a section: statistics per metric (`Metric,avg,…`) or one value per metric
    /// (`Metric,Value`); GPU telemetry and other tables are skipped with a warning.
    pub(super) fn section(&mut self, section: &Section<'a>) {
        let file = self.file;
        let header = section.header;
        let names: Vec<String> = header
            .cells
            .iter()
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let is_gpu = names
            .iter()
            .any(|n| n == "gpu" || n == "gpu_index" || n == "gpu_uuid");
        if is_gpu {
            self.problems.push(Problem::warning(
                file,
                Location::line(header.line),
                format!(
                    "GPU telemetry table ({} rows) skipped: the model has no place for GPU metrics",
                    section.rows.len()
                ),
            ));
            return;
        }
        let stats: Option<Vec<Option<Stat>>> = (names.len() >= 2)
            .then(|| names[1..].iter().map(|n| statistic_column(n)).collect())
            .flatten();
        let is_values = names.len() == 2 && names[1] == "value";
        if stats.is_none() && !is_values {
            self.problems.push(Problem::warning(
                file,
                Location::line(header.line),
                format!(
                    "table `{}` is not one GenAI-Perf or AIPerf writes; expected `Metric,avg,…` \
                     or `Metric,Value`; its {} rows are ignored",
                    header.cells.join(","),
                    section.rows.len()
                ),
            ));
            return;
        }
        for row in &section.rows {
            self.row(header, row, stats.as_deref());
        }
    }

    /// Reads one row of a section, unless its metric was read before.
    fn row(&mut self, header: &Row, row: &'a Row, stats: Option<&[Option<Stat>]>) {
        let file = self.file;
        let (name, unit) = split_label(row.cell(0));
        if let Some((_, first)) = self.seen.iter().find(|(n, _)| *n == name) {
            self.problems.push(Problem::warning(
                file,
                row.at(0),
                format!(
                    "`{}` appears again (first at line {first}); this row is ignored",
                    row.cell(0)
                ),
            ));
            return;
        }
        self.seen.push((name.clone(), row.line));
        if row.cells.len() > header.cells.len() {
            self.problems.push(Problem::warning(
                file,
                Location::line(row.line),
                format!(
                    "expected {} cells as in the header at line {}, found {}; the extra \
                     cells are ignored",
                    header.cells.len(),
                    header.line,
                    row.cells.len()
                ),
            ));
        }
        match stats {
            Some(stats) => {
                let per_user = read_request_row(
                    file,
                    row,
                    &name,
                    unit.as_deref(),
                    stats,
                    &mut self.latency,
                    &mut self.tokens,
                    &mut self.problems,
                    &mut self.unknown,
                );
                if per_user.is_some() {
                    self.throughput.output_tok_s_per_user = per_user;
                }
            }
            None => self.value_row(row, &name, unit.as_deref()),
        }
    }

    /// A row of a `Metric,Value` table: a rate per second or a count.
    fn value_row(&mut self, row: &'a Row, name: &str, unit: Option<&str>) {
        let (file, problems) = (self.file, &mut self.problems);
        let Some(value) = number(file, row, 1, problems) else {
            return;
        };
        let Some(kind) = value_row(name) else {
            self.unknown.push(row);
            return;
        };
        match kind {
            ValueRow::OutputTokS
            | ValueRow::TotalTokS
            | ValueRow::RequestsPerS
            | ValueRow::GoodputPerS => {
                if !is_per_second(unit) {
                    problems.push(Problem::error(
                        file,
                        row.at(0),
                        format!(
                            "`{}`: expected a rate per second (`per sec`, `tokens/sec`), \
                             found the unit `{}`; the value is ignored",
                            row.cell(0),
                            unit.unwrap_or("")
                        ),
                    ));
                    return;
                }
                let slot = match kind {
                    ValueRow::OutputTokS => &mut self.throughput.output_tok_s,
                    ValueRow::TotalTokS => &mut self.throughput.total_tok_s,
                    ValueRow::RequestsPerS => &mut self.throughput.requests_per_s,
                    _ => &mut self.throughput.goodput_req_s,
                };
                *slot = Some(value);
            }
            ValueRow::RequestCount => self.succeeded = count(file, row, value, problems),
            ValueRow::ErrorCount => self.failed = count(file, row, value, problems),
            ValueRow::TotalInput => self.tokens.total_input = count(file, row, value, problems),
            ValueRow::TotalOutput => self.tokens.total_output = count(file, row, value, problems),
            ValueRow::Duration => {}
        }
    }

    /// The run, at the line of the file's first row: its load point from the artifact
    /// directory, and failed when no request succeeded.
    pub(super) fn into_run(mut self, first_line: u64, producer: Producer) -> Run {
        let file = self.file;
        let (config, load) = match artifact_directory(file) {
            Some(found) => found,
            None => {
                self.problems.push(Problem::warning(
                    file,
                    Location::File,
                    "the load point is unknown: the CSV does not record it, and the file is not in a \
                     GenAI-Perf artifact directory named `{model}-{endpoint}-{concurrencyN|\
                     request_rateR}`; the JSON summary beside it (`profile_export_*.json`) has it",
                ));
                (
                    ConfigIdentity::default(),
                    LoadTarget::MaxThroughput, // the model's "no load knob"
                )
            }
        };
        let failed = self.failed;
        let mut succeeded = self.succeeded;
        if succeeded.is_none() && failed.is_some_and(|n| n > 0) && self.latency.is_empty() {
            // AIPerf writes no valid-request metrics when every request failed.
            succeeded = Some(0);
        }
        let (mut latency, mut throughput, mut tokens) =
            (self.latency, self.throughput, self.tokens);
        if succeeded == Some(0) {
            self.problems.push(Problem::warning(
                file,
                Location::line(first_line),
                "no request succeeded; the run is shown as failed, its statistics are ignored",
            ));
            latency.clear();
            throughput.output_tok_s = None;
            throughput.output_tok_s_per_user = None;
            throughput.total_tok_s = None;
            tokens.input_len = None;
            tokens.output_len = None;
        }
        latency.sort_by_key(|m| m.metric);
        let load = LoadPoint {
            achieved_rps: throughput.requests_per_s,
            ..LoadPoint::new(load)
        };
        let provenance = Provenance::new(file, Location::line(first_line), producer);
        let requests = RequestCounts::outcomes(succeeded, failed);
        Run {
            problems: self.problems,
            ..Run::new(provenance, config, load).measured(requests, latency, throughput, tokens)
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn read_request_row<'a>(
    file: &str,
    row: &'a Row,
    name: &str,
    unit: Option<&str>,
    stats: &[Option<Stat>],
    latency: &mut Vec<LatencyMetric>,
    tokens: &mut TokenStats,
    problems: &mut Vec<Problem>,
    unknown: &mut Vec<&'a Row>,
) -> Option<f64> {
    let Some(kind) = request_row(name) else {
        unknown.push(row);
        return None;
    };
    let scale = match kind {
        RequestRow::Latency(_) => match unit.and_then(ms_per) {
            Some(s) => s,
            None => {
                problems.push(Problem::error(
                    file,
                    row.at(0),
                    format!(
                        "`{}`: expected a time unit in the label, `(ms)`, `(s)`, `(us)` or \
                         `(ns)`; this metric is skipped",
                        row.cell(0)
                    ),
                ));
                return None;
            }
        },
        RequestRow::PerUserRate | RequestRow::InputLength | RequestRow::OutputLength => 1.0,
    };
    let mut d = Distribution::default();
    for (i, stat) in stats.iter().enumerate() {
        let Some(stat) = *stat else { continue };
        let Some(v) = number(file, row, i + 1, problems) else {
            continue;
        };
        let v = v * scale;
        match stat {
            Stat::Mean => d.mean = Some(v),
            Stat::Median => d.median = Some(v),
            Stat::Std => d.std = Some(v),
            Stat::Min => d.min = Some(v),
            Stat::Max => d.max = Some(v),
            Stat::P(p) => d.set_percentile(p, v),
        }
    }
    if d.is_empty() {
        return None;
    }
    match kind {
        RequestRow::Latency(metric) => latency.push(LatencyMetric {
            metric,
            distribution: d,
        }),
        RequestRow::InputLength => tokens.input_len = Some(d),
        RequestRow::OutputLength => tokens.output_len = Some(d),
        // Its mean is the rate one user sees; the caller keeps it with the run's rates.
        RequestRow::PerUserRate => return d.mean,
    }
    None
}

/// One warning for every row whose metric benchdeck does not read (AIPerf writes a dozen HTTP
/// timings and token counts besides the latencies), at the first of them.
pub(super) fn unknown_rows(file: &str, rows: &[&Row]) -> Option<Problem> {
    let (first, rest) = rows.split_first()?;
    let message = if rest.is_empty() {
        format!(
            "`{}` is not a metric benchdeck reads from GenAI-Perf or AIPerf; its values are ignored",
            first.cell(0)
        )
    } else {
        let names: Vec<String> = rows
            .iter()
            .map(|r| format!("`{}` (line {})", r.cell(0), r.line))
            .collect();
        format!(
            "{} rows hold metrics benchdeck does not read from GenAI-Perf or AIPerf; their \
             values are ignored: {}",
            rows.len(),
            names.join(", ")
        )
    };
    Some(Problem::warning(file, first.at(0), message))
}

/// Cell `i` as a finite number; `N/A` and empty cells are missing.
fn number(file: &str, row: &Row, i: usize, problems: &mut Vec<Problem>) -> Option<f64> {
    table::number(file, row, i, row.cell(0), Wanted::Finite, problems)
}

fn count(file: &str, row: &Row, value: f64, problems: &mut Vec<Problem>) -> Option<u64> {
    if value >= 0.0 && value.fract() == 0.0 && value <= 9.0e15 {
        Some(value as u64)
    } else {
        problems.push(Problem::error(
            file,
            row.at(1),
            format!(
                "`{}`: expected a whole number of at least 0, found {value}",
                row.cell(0)
            ),
        ));
        None
    }
}

fn is_per_second(unit: Option<&str>) -> bool {
    let Some(unit) = unit else { return true };
    let u = unit.trim().to_ascii_lowercase();
    u == "per sec"
        || u == "per second"
        || u.ends_with("/sec")
        || u.ends_with("/s")
        || u.ends_with("/second")
}
