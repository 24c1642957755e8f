//! A metrics table's rows into a run, its load and model from the command printed around it.

use std::collections::BTreeMap;

use super::grid::{Row, Table};
use crate::import::fields::set_stat;
use crate::import::json_objects::ms_per;
use crate::import::unread::Unread;
use crate::model::{
    Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer, Provenance,
    Rate, Run,
};
use crate::number::{parse_number, Reading};
use crate::problem::Problem;

/// What a row is, by its name without the unit, lower case.
enum Destination {
    Latency(Metric),
    InputLen,
    OutputLen,
    PerUser,
    OutputTokS,
    RequestsPerS,
    GoodputPerS,
    Count,
}

fn target(name: &str) -> Option<Destination> {
    Some(match name {
        "time to first token" => Destination::Latency(Metric::Ttft),
        "time to second token" => Destination::Latency(Metric::Ttst),
        "request latency" => Destination::Latency(Metric::E2e),
        // (latency − TTFT) / (tokens − 1) per request.
        "inter token latency" => Destination::Latency(Metric::Tpot),
        "output token throughput per user" | "output token throughput per request" => {
            Destination::PerUser
        }
        "output sequence length" => Destination::OutputLen,
        "input sequence length" => Destination::InputLen,
        "output token throughput" => Destination::OutputTokS,
        "request throughput" => Destination::RequestsPerS,
        "request goodput" | "goodput" => Destination::GoodputPerS,
        "request count" => Destination::Count,
        _ => return None,
    })
}

/// `Time to First Token (ms)` → (`time to first token`, `ms`).
fn split_unit(name: &str) -> (String, Option<String>) {
    let name = name.trim();
    if let Some(open) = name.rfind(" (") {
        if let Some(unit) = name[open + 2..].strip_suffix(')') {
            return (name[..open].to_lowercase(), Some(unit.trim().to_string()));
        }
    }
    (name.to_lowercase(), None)
}

/// The run of one metrics table, with the failures of the `Error Summary` under it.
pub(super) fn run(
    file: &str,
    table: &Table,
    errors: Option<&Table>,
    context: [&[String]; 2],
    producer: Producer,
) -> Run {
    let at = Location::line(table.line);
    let (before, after) = (command(context[0]), command(context[1]));
    let model = before.0.or(after.0);
    let load = before.1.or(after.1);
    let named = load.is_some();
    let mut run = Run::new(
        Provenance::new(file, at.clone(), producer),
        Default::default(),
        load.unwrap_or(LoadPoint::new(LoadTarget::MaxThroughput)),
    );
    run.config.model = model;
    let mut problems = Vec::new();
    let mut unread = Unread::default();
    for column in table.columns.iter().skip(1) {
        if stat_name(column).is_none() {
            unread.name(format!("{column} column"));
        }
    }
    for row in &table.rows {
        read_row(&mut run, table, row, file, &mut problems, &mut unread);
    }
    run.latency.sort_by_key(|m| m.metric);
    run.load.achieved_rps = run.throughput.requests_per_s;
    if let Some(errors) = errors {
        run.requests.failed = Some(failures(errors, file, &mut problems));
    }
    if let (Some(ok), Some(failed)) = (run.requests.succeeded, run.requests.failed) {
        run.requests.total = ok.checked_add(failed);
    }
    run.problems = problems;
    run.problems
        .extend(unread.warning(file, at.clone(), &format!("the `{}` table", table.title)));
    if !named {
        run.problems.push(Problem::warning(
            file,
            at,
            "the table names no load point, and no command around it does (`--concurrency N`, \
             `--request-rate R`): the run has no load point",
        ));
    }
    run
}

/// The statistic a column holds (`avg` is the mean), if benchdeck models it.
fn stat_name(column: &str) -> Option<&str> {
    let lower = column.trim();
    match lower {
        "avg" | "mean" => Some("mean"),
        "min" | "max" | "std" | "median" => Some(lower),
        p if p
            .strip_prefix('p')
            .is_some_and(|n| n.parse::<f64>().is_ok()) =>
        {
            Some(p)
        }
        _ => None,
    }
}

fn read_row(
    run: &mut Run,
    table: &Table,
    row: &Row,
    file: &str,
    problems: &mut Vec<Problem>,
    unread: &mut Unread,
) {
    let (name, unit) = split_unit(&row.name);
    let Some(target) = target(&name) else {
        unread.name(row.name.clone());
        return;
    };
    let scale = match &target {
        Destination::Latency(_) => match unit.as_deref().map_or(Some(1.0), ms_per) {
            Some(scale) => scale,
            None => {
                problems.push(Problem::error(
                    file,
                    Location::line(row.line),
                    format!(
                        "`{}`: expected a time unit (ms, s, us, ns); not read",
                        row.name
                    ),
                ));
                return;
            }
        },
        _ => 1.0,
    };
    let stats = values(table, row, file, problems);
    let mut d = Distribution::default();
    for (stat, value) in &stats {
        set_stat(&mut d, stat, value * scale);
    }
    let mean = d.mean;
    match target {
        Destination::Latency(metric) if !d.is_empty() => run.latency.push(LatencyMetric {
            metric,
            distribution: d,
        }),
        Destination::Latency(_) => {}
        Destination::InputLen => run.tokens.input_len = (!d.is_empty()).then_some(d),
        Destination::OutputLen => run.tokens.output_len = (!d.is_empty()).then_some(d),
        Destination::PerUser => run.throughput.output_tok_s_per_user = mean,
        Destination::OutputTokS => run.throughput.output_tok_s = mean,
        Destination::RequestsPerS => run.throughput.requests_per_s = mean,
        Destination::GoodputPerS => run.throughput.goodput_req_s = mean,
        Destination::Count => {
            run.requests.succeeded = mean
                .filter(|n| *n >= 0.0 && n.fract() == 0.0 && *n < 9.0e15)
                .map(|n| n as u64);
        }
    }
}

/// The row's statistics by name; `N/A`, blank and cut (`…`) cells are missing, anything else
/// that is not a number an error at its line.
fn values(
    table: &Table,
    row: &Row,
    file: &str,
    problems: &mut Vec<Problem>,
) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    for (column, cell) in table.columns.iter().skip(1).zip(&row.cells) {
        let Some(stat) = stat_name(column) else {
            continue;
        };
        if cell.ends_with('…') {
            continue;
        }
        match parse_number(cell, &[]) {
            Reading::Value(v) if v.is_finite() => {
                out.insert(stat.to_string(), v);
            }
            Reading::Missing => {}
            _ => problems.push(Problem::error(
                file,
                Location::line(row.line),
                format!(
                    "`{}` {column}: expected a number or N/A, found `{cell}`",
                    row.name
                ),
            )),
        }
    }
    out
}

/// The failed requests of an `Error Summary` table (Σ `Count`), named by kind in a warning.
fn failures(errors: &Table, file: &str, problems: &mut Vec<Problem>) -> u64 {
    let column = |name: &str| errors.columns.iter().position(|c| c == name);
    let (Some(count), kind) = (column("Count"), column("Type")) else {
        return 0;
    };
    let mut total = 0u64;
    let mut kinds = Vec::new();
    for row in &errors.rows {
        let all: Vec<&str> = std::iter::once(row.name.as_str())
            .chain(row.cells.iter().map(String::as_str))
            .collect();
        let n = all.get(count).and_then(|c| parse_number(c, &[]).value());
        let n = n
            .filter(|n| *n >= 0.0 && n.fract() == 0.0 && *n < 9.0e15)
            .map(|n| n as u64);
        total = total.saturating_add(n.unwrap_or(0));
        let kind = kind.and_then(|k| all.get(k)).copied().unwrap_or("");
        kinds.push(format!(
            "{} {kind} ({})",
            row.name,
            n.map_or("?".into(), |n| n.to_string())
        ));
    }
    if !kinds.is_empty() {
        problems.push(Problem::warning(
            file,
            Location::line(errors.line),
            format!("failed requests by kind: {}", kinds.join(", ")),
        ));
    }
    total
}

/// The model and load a command printed around the table names: `-m MODEL`/`--model MODEL`,
/// `--concurrency N`, `--request-rate R` (the last of each; a rate with a concurrency is a
/// capped rate).
fn command(context: &[String]) -> (Option<String>, Option<LoadPoint>) {
    let mut model = None;
    let mut concurrency = None;
    let mut rate = None;
    for line in context {
        let words: Vec<&str> = line.split_whitespace().collect();
        for (i, word) in words.iter().enumerate() {
            let (flag, inline) = word
                .split_once('=')
                .map_or((*word, None), |(f, v)| (f, Some(v)));
            let value = inline.or_else(|| words.get(i + 1).copied());
            let Some(value) = value else { continue };
            match flag {
                "-m" | "--model" | "--model-names" => model = Some(value.to_string()),
                "--concurrency" => concurrency = value.parse::<f64>().ok().filter(|c| *c >= 1.0),
                "--request-rate" => rate = value.parse::<f64>().ok().filter(|r| *r > 0.0),
                _ => {}
            }
        }
    }
    let load = match (rate, concurrency) {
        (Some(r), cap) => Some(LoadPoint {
            max_concurrency: cap
                .filter(|c| c.fract() == 0.0 && *c <= f64::from(u32::MAX))
                .map(|c| c as u32),
            ..LoadPoint::new(LoadTarget::RequestRate(Rate::PerSecond(r)))
        }),
        (None, Some(c)) => Some(LoadPoint::new(LoadTarget::Concurrency(c))),
        (None, None) => None,
    };
    (model, load)
}
