//! A table whose rows are requests: a mapping with per-request targets (`ttft=<column> (ms)`,
//! `start=<column> (s)`, `output_tokens=<column>`, `error=<column>`). Rows are grouped into runs
//! by their load point and configuration (read as a run's row is); each run keeps its requests
//! as samples, in start order where `start` is mapped, and its statistics are computed from
//! them (linear percentiles), its rates over the span from the first start to the last end.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::mapping::{Destination, LoadKind, Mapping, RequestField, Source};
use super::row::{read_row, Table};
use crate::import::aiperf_records::{span_s, summary_of};
use crate::import::table::Row;
use crate::import::ImportedFile;
use crate::model::{LatencyMetric, Metric, RequestCounts, RequestSamples, Run, Throughput};
use crate::number::{parse_number, Reading};
use crate::problem::Problem;

/// One request's values; NaN where its row has none.
struct Request {
    ok: bool,
    latency: Vec<(Metric, f64)>,
    start_s: f64,
    input: f64,
    output: f64,
}

impl Request {
    fn latency(&self, metric: Metric) -> f64 {
        self.latency
            .iter()
            .find(|(m, _)| *m == metric)
            .map_or(f64::NAN, |(_, v)| *v)
    }
}

/// True when the mapping reads one request per row.
pub(super) fn per_request(mappings: &[Mapping]) -> bool {
    mappings
        .iter()
        .any(|m| matches!(m.target, Destination::Request(..)))
}

/// True for a target that states a whole run (a statistic, a rate, a count), which a row of
/// one request cannot hold.
fn states_a_run(target: &Destination) -> bool {
    !matches!(
        target,
        Destination::Load(_)
            | Destination::Config(_)
            | Destination::LabelPart(_)
            | Destination::MaxConcurrency
            | Destination::Request(..)
    )
}

/// The mappings a table of requests can use; each one that states a whole run is an error at
/// its place in `mapping_file`, and left out.
pub(super) fn request_mappings(
    mapping_file: &str,
    mappings: Vec<Mapping>,
    problems: &mut Vec<Problem>,
) -> Vec<Mapping> {
    let (refused, kept): (Vec<Mapping>, Vec<Mapping>) =
        mappings.into_iter().partition(|m| states_a_run(&m.target));
    for m in refused {
        problems.push(Problem::error(
            mapping_file,
            m.at.clone(),
            format!(
                "`{}` states a whole run, but the mapping reads one request per row (it maps \
                 a request's own values, such as `ttft=<column> (ms)`); a table holds runs or \
                 requests, not both: this mapping is ignored",
                super::mapping::target_key(&m.target)
            ),
        ));
    }
    kept
}

/// Reads every row as a request, and each group of them as a run of `out`.
pub(super) fn read_requests(
    table: &Table<'_>,
    load: (LoadKind, usize),
    mappings: &[Mapping],
    out: &mut ImportedFile,
) {
    let mut groups: Vec<(Run, Vec<Request>)> = Vec::new();
    // The groups by configuration name and load, so a file of many rows and many groups is not
    // searched group by group for every row.
    let mut index: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
    for row in table.body {
        let mut shell = match read_row(table, load, mappings, row) {
            Ok(run) => run,
            Err(problem) => {
                out.problems.push(problem);
                continue;
            }
        };
        let request = request_of(table, mappings, row, &mut shell.problems);
        let bucket = index
            .entry((shell.config.key(), shell.load.target.to_string()))
            .or_default();
        let same = |g: &&usize| {
            let run = &groups[**g].0;
            run.config == shell.config && run.load.target == shell.load.target
        };
        match bucket.iter().find(same).copied() {
            Some(g) => {
                let (run, requests) = &mut groups[g];
                run.problems.append(&mut shell.problems);
                requests.extend(request);
            }
            None => {
                bucket.push(groups.len());
                groups.push((shell, request.into_iter().collect()));
            }
        }
    }
    for (shell, requests) in groups {
        if requests.is_empty() {
            out.problems.append(&mut { shell }.problems);
            continue;
        }
        out.runs.push(run_of(shell, &requests));
    }
}

/// The request in `row`; `None` (with an error at the cell) when a latency or a start it maps
/// is not a number of at least 0.
fn request_of(
    table: &Table<'_>,
    mappings: &[Mapping],
    row: &Row,
    problems: &mut Vec<Problem>,
) -> Option<Request> {
    let mut request = Request {
        ok: true,
        latency: Vec::new(),
        start_s: f64::NAN,
        input: f64::NAN,
        output: f64::NAN,
    };
    let cells = || {
        mappings
            .iter()
            .filter_map(|m| match (&m.target, &m.source) {
                (Destination::Request(field, unit), Source::Column(i)) => Some((*field, unit, *i)),
                _ => None,
            })
    };
    // The error first: a failed request is counted whatever its latencies say.
    for (_, _, i) in cells().filter(|(field, _, _)| *field == RequestField::Error) {
        let lower = row.cell(i).trim().to_ascii_lowercase();
        request.ok &= matches!(lower.as_str(), "" | "0" | "false" | "none" | "null" | "nan");
    }
    for (field, unit, i) in cells() {
        if field == RequestField::Error {
            continue;
        }
        let text = row.cell(i);
        let value = match parse_number(text, &[unit.as_str()]) {
            Reading::Value(v) if v.is_finite() && v >= 0.0 => v,
            Reading::Missing => continue,
            // A failed request's latency (`-1`, `timeout`) means nothing; it stays a failure.
            _ if !request.ok => continue,
            _ => {
                problems.push(Problem::error(
                    table.file,
                    row.at(i),
                    format!(
                        "`{}`: expected a number of at least 0, found `{text}`; this request \
                         is skipped",
                        table.header.cell(i)
                    ),
                ));
                return None;
            }
        };
        match field {
            RequestField::Latency(metric, ms_per) => request.latency.push((metric, value * ms_per)),
            RequestField::Start(s_per) => request.start_s = value * s_per,
            RequestField::InputTokens => request.input = value,
            RequestField::OutputTokens => request.output = value,
            RequestField::Error => {}
        }
    }
    Some(request)
}

/// The latency metrics any request has, in the model's order.
fn metrics_of(requests: &[Request]) -> Vec<Metric> {
    let mut metrics: Vec<Metric> = requests
        .iter()
        .flat_map(|q| q.latency.iter().map(|(m, _)| *m))
        .collect();
    metrics.sort();
    metrics.dedup();
    metrics
}

/// `shell` (the group's configuration and load) with its requests' samples and statistics.
fn run_of(shell: Run, requests: &[Request]) -> Run {
    let mut samples = RequestSamples::default();
    for q in requests {
        let get = |m| q.latency(m);
        samples.push(
            q.ok,
            get(Metric::Ttft),
            get(Metric::E2e),
            get(Metric::Tpot),
            q.input,
            q.output,
        );
    }
    let starts: Vec<f64> = requests.iter().map(|q| q.start_s).collect();
    // Without start times the send order is unknown, and comparisons say so.
    if starts.iter().any(|t| t.is_finite()) {
        samples.set_starts(&starts);
    }
    let ok: Vec<&Request> = requests.iter().filter(|q| q.ok).collect();
    let finite = |values: Vec<f64>| {
        values
            .into_iter()
            .filter(|v| v.is_finite())
            .collect::<Vec<_>>()
    };
    let latency = metrics_of(requests)
        .into_iter()
        .filter_map(|metric| {
            let values = finite(ok.iter().map(|q| q.latency(metric)).collect());
            Some(LatencyMetric {
                metric,
                distribution: summary_of(&values)?,
            })
        })
        .collect();
    let span = start_to_end_s(requests);
    let per_second = |total: f64| (span > 0.0).then(|| total / span);
    let output: f64 = finite(ok.iter().map(|q| q.output).collect()).iter().sum();
    let input: f64 = finite(ok.iter().map(|q| q.input).collect()).iter().sum();
    let throughput = Throughput {
        output_tok_s: per_second(output).filter(|_| ok.iter().any(|q| q.output.is_finite())),
        input_tok_s: per_second(input).filter(|_| ok.iter().any(|q| q.input.is_finite())),
        requests_per_s: per_second(ok.len() as f64),
        ..Throughput::default()
    };
    let tokens = crate::model::TokenStats {
        input_len: summary_of(&finite(ok.iter().map(|q| q.input).collect())),
        output_len: summary_of(&finite(ok.iter().map(|q| q.output).collect())),
        ..Default::default()
    };
    let mut run = shell.measured(
        RequestCounts::counted(requests.len() as u64, ok.len() as u64),
        latency,
        throughput,
        tokens,
    );
    run.load.achieved_rps = run.throughput.requests_per_s;
    run.samples = Some(Arc::new(samples));
    run
}

/// From the first start to the last end (start + end-to-end latency), in seconds; 0 without
/// start times.
fn start_to_end_s(requests: &[Request]) -> f64 {
    let end = |q: &Request| {
        let e2e = q.latency(Metric::E2e);
        q.start_s + if e2e.is_finite() { e2e / 1000.0 } else { 0.0 }
    };
    span_s(requests.iter().map(|q| q.start_s), requests.iter().map(end))
}
