//! Locust's `_stats.csv`: what each column holds, and the `Aggregated` row (Locust's totals over
//! every endpoint) that is the run.

use super::cells::{number, whole};
use super::sweep::sweep_folder;
use crate::import::table::Row;
use crate::import::ImportedFile;
use crate::model::{
    ConfigIdentity, Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer,
    Provenance, RequestCounts, Run,
};
use crate::problem::Problem;

/// What a stats column holds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Column {
    Type,
    Name,
    Requests,
    Failures,
    Median,
    Mean,
    Min,
    Max,
    RequestsPerS,
    /// Known, with no place in the model: `Average Content Size`, `Failures/s`.
    Ignored,
    Percentile(f64),
    Unknown,
}

fn column(name: &str) -> Column {
    match name {
        "type" | "method" => Column::Type,
        "name" => Column::Name,
        "request count" | "# requests" => Column::Requests,
        "failure count" | "# failures" => Column::Failures,
        "median response time" => Column::Median,
        "average response time" => Column::Mean,
        "min response time" => Column::Min,
        "max response time" => Column::Max,
        "requests/s" => Column::RequestsPerS,
        "average content size" | "failures/s" => Column::Ignored,
        _ => match name
            .strip_suffix('%')
            .and_then(|p| p.trim().parse::<f64>().ok())
        {
            Some(p) if (0.0..=100.0).contains(&p) => Column::Percentile(p),
            _ => Column::Unknown,
        },
    }
}

pub(super) fn is_aggregate(row: &Row, name_at: usize, type_at: Option<usize>) -> bool {
    let name = row.cell(name_at);
    let kind = type_at.map_or("", |i| row.cell(i));
    (name == "Aggregated" || name == "Total") && (kind.is_empty() || kind == "None")
}

pub(super) fn read_stats(out: &mut ImportedFile, header: &Row, names: &[String], body: &[Row]) {
    let file = out.file.clone();
    let file = file.as_str();
    let columns: Vec<Column> = names.iter().map(|n| column(n)).collect();
    warn_unknown_columns(file, header, &columns, &mut out.problems);
    let name_at = columns.iter().position(|c| *c == Column::Name).unwrap_or(1);
    let type_at = columns.iter().position(|c| *c == Column::Type);
    let (aggregate, endpoints): (Vec<&Row>, Vec<&Row>) =
        body.iter().partition(|r| is_aggregate(r, name_at, type_at));
    // Per-endpoint rows: checked (even without an aggregate), and named when there are several (their sum is the run).
    for r in &endpoints {
        for (i, c) in columns.iter().enumerate() {
            if !matches!(c, Column::Type | Column::Name | Column::Unknown) {
                let _ = number(file, header, r, i, &mut out.problems);
            }
        }
    }
    let Some(row) = aggregate.last() else {
        out.problems.push(Problem::error(
            file,
            Location::line(body.last().map_or(header.line, |r| r.line) + 1),
            "expected a last row named `Aggregated` (Locust's totals over every endpoint); \
             without it there is no run",
        ));
        return;
    };
    let mut problems = several_rows(file, &aggregate, &endpoints, name_at);
    let (d, requests, rps) = aggregate_values(file, header, row, &columns, &mut problems);
    let latency = latency_of(file, row, &requests, d, &mut problems);
    let (config, target) = match sweep_folder(file) {
        Some((config, users)) => (config, LoadTarget::Concurrency(users)),
        None => {
            problems.push(Problem::warning(
                file,
                Location::File,
                "the load point is unknown: Locust's stats do not record the number of users \
                 (its `_stats_history.csv` has them as `User Count`, but benchdeck reads one file \
                 at a time); put the files in a folder named `{model}_{task}_u{users}`, as \
                 sweep.sh does, to give the users",
            ));
            (ConfigIdentity::default(), LoadTarget::MaxThroughput)
        }
    };
    let mut run = Run::new(
        Provenance::new(file, Location::line(row.line), Producer::Locust),
        config,
        LoadPoint {
            achieved_rps: rps,
            ..LoadPoint::new(target)
        },
    );
    run.requests = requests;
    run.latency = latency;
    run.throughput.requests_per_s = rps;
    run.problems = problems;
    out.runs.push(run);
}

/// A warning for each column Locust does not write.
fn warn_unknown_columns(file: &str, header: &Row, columns: &[Column], problems: &mut Vec<Problem>) {
    for (i, c) in columns.iter().enumerate() {
        if *c == Column::Unknown {
            problems.push(Problem::warning(
                file,
                header.at(i),
                format!(
                    "column `{}` is not one Locust writes; its values are ignored",
                    header.cell(i)
                ),
            ));
        }
    }
}

/// Warnings for several `Aggregated` rows (the last is read) and several endpoints (summed in it).
fn several_rows(
    file: &str,
    aggregate: &[&Row],
    endpoints: &[&Row],
    name_at: usize,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    if aggregate.len() > 1 {
        problems.push(Problem::warning(
            file,
            Location::line(aggregate[0].line),
            format!(
                "{} `Aggregated` rows; the last one, at line {}, is read",
                aggregate.len(),
                aggregate[aggregate.len() - 1].line
            ),
        ));
    }
    if endpoints.len() > 1 {
        let shown: Vec<String> = endpoints
            .iter()
            .take(5)
            .map(|r| format!("`{}`", r.cell(name_at)))
            .collect();
        problems.push(Problem::warning(
            file,
            Location::line(endpoints[0].line),
            format!(
                "{} endpoints ({}{}) are summed in the `Aggregated` row, which is the run; the \
                 model has no per-endpoint breakdown, so their own rows are not imported",
                endpoints.len(),
                shown.join(", "),
                if endpoints.len() > 5 { ", …" } else { "" }
            ),
        ));
    }
    problems
}

/// The `Aggregated` row's response times, request counts (checked) and requests per second.
fn aggregate_values(
    file: &str,
    header: &Row,
    row: &Row,
    columns: &[Column],
    problems: &mut Vec<Problem>,
) -> (Distribution, RequestCounts, Option<f64>) {
    let mut d = Distribution::default();
    let mut requests = RequestCounts::default();
    let mut rps = None;
    for (i, c) in columns.iter().enumerate() {
        if matches!(
            c,
            Column::Type | Column::Name | Column::Ignored | Column::Unknown
        ) {
            continue;
        }
        let Some(v) = number(file, header, row, i, problems) else {
            continue;
        };
        match *c {
            Column::Requests => requests.total = whole(file, header, row, i, v, problems),
            Column::Failures => requests.failed = whole(file, header, row, i, v, problems),
            Column::Median => d.median = Some(v),
            Column::Mean => d.mean = Some(v),
            Column::Min => d.min = Some(v),
            Column::Max => d.max = Some(v),
            Column::Percentile(p) => d.set_percentile(p, v),
            Column::RequestsPerS => rps = Some(v),
            Column::Type | Column::Name | Column::Ignored | Column::Unknown => {}
        }
    }
    if let (Some(total), Some(failed)) = (requests.total, requests.failed) {
        if failed > total {
            problems.push(Problem::error(
                file,
                Location::line(row.line),
                format!(
                    "the failure count {failed} is larger than the request count {total}; the \
                     request counts are unknown"
                ),
            ));
            requests = RequestCounts::default();
        } else {
            requests.succeeded = Some(total - failed);
        }
    }
    (d, requests, rps)
}

/// The response times as end-to-end latency, unless no request was made or every one failed.
fn latency_of(
    file: &str,
    row: &Row,
    requests: &RequestCounts,
    d: Distribution,
    problems: &mut Vec<Problem>,
) -> Vec<LatencyMetric> {
    let mut latency = Vec::new();
    if requests.total == Some(0) {
        problems.push(Problem::warning(
            file,
            Location::line(row.line),
            "no request was made; the run is shown as failed",
        ));
    } else if requests.succeeded == Some(0) {
        problems.push(Problem::warning(
            file,
            Location::line(row.line),
            "every request failed; the run is shown as failed and the failures' response times \
             are not latencies",
        ));
    } else if !d.is_empty() {
        latency.push(LatencyMetric {
            metric: Metric::E2e,
            distribution: d,
        });
    }
    latency
}
