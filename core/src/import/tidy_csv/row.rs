//! One row of a tidy CSV becomes a run: its load point, then each mapping's cell read into the
//! run's configuration, latencies, token counts, rates and request counts.

use super::mapping::{ConfigField, Destination, LoadKind, Mapping, RateField, Source};
use crate::import::fields::latency_entry;
use crate::import::table::Row;
use crate::model::{
    ConfigIdentity, Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer,
    Provenance, Rate, RequestCounts, Run, Stat,
};
use crate::number::{parse_number, Reading};
use crate::problem::Problem;

/// A table of runs, one per row, and the file it was read from: a CSV's rows, or the objects of
/// a JSON or JSON Lines file flattened to `a.b.c` columns (a row's line 0 when it has none).
pub(in crate::import) struct Table<'a> {
    pub(in crate::import) file: &'a str,
    pub(in crate::import) header: &'a Row,
    pub(in crate::import) body: &'a [Row],
    /// What its runs say wrote them.
    pub(in crate::import) producer: Producer,
}

/// Where `row` is: its line, or the whole file for a row without one (a JSON object's).
pub(super) fn row_location(row: &Row) -> Location {
    match row.line {
        0 => Location::File,
        line => Location::line(line),
    }
}

/// Reads one row of `table` into a run, or says why it cannot be one.
pub(super) fn read_row(
    table: &Table<'_>,
    load: (LoadKind, usize),
    mappings: &[Mapping],
    row: &Row,
) -> Result<Run, Problem> {
    let (file, header) = (table.file, table.header);
    if row.cells.len() != header.cells.len() {
        return Err(Problem::error(
            file,
            row_location(row),
            format!(
                "expected {} cells as in the header, found {}; this row is skipped",
                header.cells.len(),
                row.cells.len()
            ),
        ));
    }
    let reader = RowReader { file, header, row };
    let target = reader.load_target(load)?;
    let mut run = Run::new(
        Provenance::new(file, row_location(row), table.producer),
        ConfigIdentity::default(),
        LoadPoint::new(target),
    );
    let mut label_parts: Vec<String> = Vec::new();
    for m in mappings {
        // The load is read above; a request's values are [`super::requests`]'.
        if matches!(m.target, Destination::Load(_) | Destination::Request(..)) {
            continue;
        }
        let (text, at) = match &m.source {
            Source::Text(t) => (t.as_str(), None),
            Source::Column(i) => (row.cell(*i), Some(*i)),
        };
        if set_config(&mut run.config, &mut label_parts, &m.target, text) {
            continue;
        }
        let Some(i) = at else { continue };
        let Some(value) = reader.number(i, text, &m.target, &mut run.problems) else {
            continue;
        };
        reader.set_value(&mut run, &m.target, i, text, value);
    }
    if !label_parts.is_empty() {
        let mut label = run.config.label.take().map_or_else(Vec::new, |l| vec![l]);
        label.extend(label_parts);
        run.config.label = Some(label.join(", "));
    }
    reconcile_counts(
        file,
        row_location(row),
        &mut run.requests,
        &mut run.problems,
    );
    if run.requests.succeeded == Some(0) {
        run.problems.push(Problem::warning(
            file,
            row_location(row),
            "no request succeeded; the run is shown as failed and its latencies are ignored",
        ));
        run.latency.clear();
        run.throughput.output_tok_s = None;
        run.throughput.output_tok_s_per_user = None;
        run.throughput.total_tok_s = None;
        run.throughput.input_tok_s = None;
    }
    run.latency.sort_by_key(|l| l.metric);
    Ok(run)
}

/// A configuration field or a part of the label, from a cell or a text; false for any other
/// target.
fn set_config(
    config: &mut ConfigIdentity,
    label_parts: &mut Vec<String>,
    target: &Destination,
    text: &str,
) -> bool {
    match target {
        Destination::Config(field) => {
            let value = (!text.is_empty()).then(|| text.to_string());
            let slot = match field {
                ConfigField::Model => &mut config.model,
                ConfigField::Engine => &mut config.engine,
                ConfigField::Label => &mut config.label,
                ConfigField::Hardware => &mut config.hardware,
                ConfigField::Dataset => &mut config.dataset,
            };
            *slot = value;
            true
        }
        Destination::LabelPart(name) => {
            if !text.is_empty() {
                label_parts.push(format!("{name}={text}"));
            }
            true
        }
        _ => false,
    }
}

/// Fills the count the other two give, and warns when they disagree.
fn reconcile_counts(
    file: &str,
    at: Location,
    requests: &mut RequestCounts,
    problems: &mut Vec<Problem>,
) {
    match (requests.total, requests.succeeded, requests.failed) {
        (Some(t), Some(s), Some(f)) if s.checked_add(f) != Some(t) => {
            problems.push(Problem::warning(
                file,
                at,
                format!("succeeded {s} + failed {f} is not the total {t}"),
            ))
        }
        (Some(t), Some(s), None) if s <= t => requests.failed = Some(t - s),
        (Some(t), None, Some(f)) if f <= t => requests.succeeded = Some(t - f),
        (None, Some(s), Some(f)) => requests.total = s.checked_add(f),
        (Some(t), Some(s), None) | (Some(t), None, Some(s)) => problems.push(Problem::warning(
            file,
            at,
            format!("a count of {s} is larger than the total {t}"),
        )),
        _ => {}
    }
}

/// The row being read, with its file and header for messages.
struct RowReader<'a> {
    file: &'a str,
    header: &'a Row,
    row: &'a Row,
}

impl RowReader<'_> {
    /// The row's load point, by the kind `load=` names.
    fn load_target(&self, load: (LoadKind, usize)) -> Result<LoadTarget, Problem> {
        let (header, row) = (self.header, self.row);
        let (load_kind, load_at) = load;
        let load_value = parse_number(row.cell(load_at), &[]).value();
        let target = match (load_kind, load_value) {
            (LoadKind::Concurrency, Some(v)) if v.is_finite() && v >= 1.0 => {
                Some(LoadTarget::Concurrency(v))
            }
            (LoadKind::Rate, Some(v)) if v.is_infinite() && v > 0.0 => {
                Some(LoadTarget::RequestRate(Rate::Infinite))
            }
            (LoadKind::Rate, Some(v)) if v.is_finite() && v > 0.0 => {
                Some(LoadTarget::RequestRate(Rate::PerSecond(v)))
            }
            (LoadKind::Batch, Some(v))
                if v >= 1.0 && v.fract() == 0.0 && v <= f64::from(u32::MAX) =>
            {
                Some(LoadTarget::BatchSize(v as u32))
            }
            _ => None,
        };
        target.ok_or_else(|| {
            let expected = match load_kind {
                LoadKind::Concurrency => "a concurrency of at least 1",
                LoadKind::Rate => "a positive request rate (or `inf`)",
                LoadKind::Batch => "a whole batch size of at least 1",
            };
            Problem::error(
                self.file,
                row.at(load_at),
                format!(
                    "`{}`: expected {expected}, found `{}`; this row is skipped",
                    header.cell(load_at),
                    row.cell(load_at)
                ),
            )
        })
    }

    /// The number in cell `i` (which may carry a latency's unit); `None` when it is missing or
    /// not a number of at least 0 (reported).
    fn number(
        &self,
        i: usize,
        text: &str,
        target: &Destination,
        problems: &mut Vec<Problem>,
    ) -> Option<f64> {
        let unit_suffix: Vec<&str> = match target {
            Destination::Latency(_, _, _, unit) => vec![unit.as_str()],
            _ => Vec::new(),
        };
        match parse_number(text, &unit_suffix) {
            Reading::Value(v) if v.is_finite() && v >= 0.0 => Some(v),
            Reading::Missing => None,
            _ => {
                problems.push(Problem::error(
                    self.file,
                    self.row.at(i),
                    format!(
                        "`{}`: expected a number of at least 0, found `{text}`",
                        self.header.cell(i)
                    ),
                ));
                None
            }
        }
    }

    /// `value` as a count; `None` when it is not whole (reported).
    fn whole(&self, i: usize, text: &str, value: f64, problems: &mut Vec<Problem>) -> Option<u64> {
        if value.fract() == 0.0 && value <= 9.0e15 {
            Some(value as u64)
        } else {
            problems.push(Problem::error(
                self.file,
                self.row.at(i),
                format!(
                    "`{}`: expected a whole number, found `{text}`",
                    self.header.cell(i)
                ),
            ));
            None
        }
    }

    /// Puts the value of cell `i` where `target` says.
    fn set_value(&self, run: &mut Run, target: &Destination, i: usize, text: &str, value: f64) {
        let problems = &mut run.problems;
        match target {
            Destination::Latency(metric, stat, scale, _) => {
                set_latency(&mut run.latency, *metric, *stat, value * scale)
            }
            Destination::InputLen(stat) => set(
                run.tokens.input_len.get_or_insert_with(Default::default),
                *stat,
                value,
            ),
            Destination::OutputLen(stat) => set(
                run.tokens.output_len.get_or_insert_with(Default::default),
                *stat,
                value,
            ),
            Destination::Rate(field, seconds) => {
                let v = Some(value / seconds);
                let throughput = &mut run.throughput;
                match field {
                    RateField::OutputTokS => throughput.output_tok_s = v,
                    RateField::OutputTokSPerUser => throughput.output_tok_s_per_user = v,
                    RateField::TotalTokS => throughput.total_tok_s = v,
                    RateField::InputTokS => throughput.input_tok_s = v,
                    RateField::RequestsPerS => throughput.requests_per_s = v,
                    RateField::GoodputReqS => throughput.goodput_req_s = v,
                    RateField::AchievedRps => run.load.achieved_rps = v,
                }
            }
            Destination::Total => run.requests.total = self.whole(i, text, value, problems),
            Destination::Succeeded => run.requests.succeeded = self.whole(i, text, value, problems),
            Destination::Failed => run.requests.failed = self.whole(i, text, value, problems),
            Destination::TotalInput => {
                run.tokens.total_input = self.whole(i, text, value, problems)
            }
            Destination::TotalOutput => {
                run.tokens.total_output = self.whole(i, text, value, problems)
            }
            Destination::MaxConcurrency => {
                run.load.max_concurrency = self
                    .whole(i, text, value, problems)
                    .and_then(|n| u32::try_from(n).ok())
                    .filter(|n| *n >= 1);
            }
            Destination::Load(_)
            | Destination::Config(_)
            | Destination::LabelPart(_)
            | Destination::Request(..) => {}
        }
    }
}

/// Sets one statistic of a latency metric, adding the metric when it is new.
fn set_latency(latency: &mut Vec<LatencyMetric>, metric: Metric, stat: Stat, value: f64) {
    set(latency_entry(latency, metric), stat, value);
}

fn set(d: &mut Distribution, stat: Stat, value: f64) {
    match stat {
        Stat::Mean => d.mean = Some(value),
        Stat::Median => d.median = Some(value),
        Stat::Std => d.std = Some(value),
        Stat::Min => d.min = Some(value),
        Stat::Max => d.max = Some(value),
        Stat::P(p) => d.set_percentile(p, value),
    }
}
