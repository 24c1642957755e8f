//! LMCache's LMBench (and production-stack's multi-round QA benchmark) per-request CSV: one row
//! per request, `prompt_tokens,generation_tokens,ttft,generation_time,launch_time,finish_time`
//! (other columns, such as `user_id` and `question_id`, may sit beside them), read as **one run**
//! with per-request samples.
//!
//! Every time is in **seconds**: `ttft` from launch to the first token, `generation_time` from
//! the first token to the last, `launch_time` and `finish_time` wall-clock (epoch) seconds. So
//! the end-to-end latency is `ttft + generation_time` (`finish_time − launch_time` by the same
//! clock, whose epoch values an f64 holds only to about 0.1 µs), and TPOT is
//! `generation_time ÷ (generation_tokens − 1)` (none for a one-token answer). Only finished requests are written:
//! every row is a success.
//!
//! The file holds no load: LMBench puts the QPS in the file's name only
//! (`…_qps_1.5.csv`, `summary_2.csv`): the number after `qps`, else the last number of the
//! name, is read as the request rate in req/s, with a warning saying so; a number above 10,000
//! (a date, an id) is not taken for one. Without a number the run is placed at maximum
//! throughput, with its achieved rate. The run's statistics come from its requests (linear
//! percentiles), its throughputs from their tokens over the span from the first launch to the
//! last finish.

use super::aiperf_records::{span_s, summary_of};
use super::table::{self, Row};
use super::ImportedFile;
use crate::model::{
    ConfigIdentity, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer, Provenance,
    Rate, RequestCounts, RequestSamples, Run, Throughput, TokenStats,
};
use crate::problem::Problem;

/// The columns every LMBench CSV has.
const COLUMNS: [&str; 6] = [
    "prompt_tokens",
    "generation_tokens",
    "ttft",
    "generation_time",
    "launch_time",
    "finish_time",
];

/// True when the header names every LMBench column.
pub(super) fn is_lmbench_csv(first_line: &str) -> bool {
    let cells = table::header_cells(first_line);
    COLUMNS.iter().all(|c| cells.contains(c))
}

/// One request, times in ms and epoch seconds.
struct Request {
    input: f64,
    output: f64,
    ttft_ms: f64,
    tpot_ms: f64,
    e2e_ms: f64,
    launch_s: f64,
    finish_s: f64,
}

/// Reads the whole file into one run.
pub(super) fn read(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile::new(file, Some(Producer::LmBench));
    let (rows, broken) = table::read_rows(file, text);
    let Some((header, body)) = rows.split_first() else {
        out.problems.extend(broken);
        return out;
    };
    let index: Vec<usize> = COLUMNS
        .iter()
        .map(|c| header.cells.iter().position(|h| h == c).unwrap_or(0))
        .collect();
    let requests: Vec<Request> = body
        .iter()
        .filter_map(|row| match request(file, row, &index) {
            Ok(r) => Some(r),
            Err(p) => {
                out.problems.push(p);
                None
            }
        })
        .collect();
    out.problems.extend(broken);
    if requests.is_empty() {
        out.problems.push(Problem::error(
            file,
            Location::line(header.line + 1),
            "no request could be read; expected one row per finished request under the header",
        ));
        return out;
    }
    let (load, note) = load_of(file, &requests);
    out.problems
        .push(Problem::warning(file, Location::File, note));
    out.runs.push(run_of(file, load, &requests));
    out
}

/// One row as a request; an error names the row, the column and what was expected.
fn request(file: &str, row: &Row, index: &[usize]) -> Result<Request, Problem> {
    let cell = |k: usize| -> Result<f64, Problem> {
        let text = row.cell(index[k]);
        text.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| {
                Problem::error(
                    file,
                    Location::line(row.line),
                    format!(
                        "`{}`: expected a number of at least 0, found {text:?}; this request \
                         is skipped",
                        COLUMNS[k]
                    ),
                )
            })
    };
    let (input, output, ttft_s, generation_s) = (cell(0)?, cell(1)?, cell(2)?, cell(3)?);
    let (launch_s, finish_s) = (cell(4)?, cell(5)?);
    if finish_s < launch_s {
        return Err(Problem::error(
            file,
            Location::line(row.line),
            format!(
                "`finish_time` {finish_s} is before `launch_time` {launch_s}; this request is \
                 skipped"
            ),
        ));
    }
    Ok(Request {
        input,
        output,
        ttft_ms: ttft_s * 1000.0,
        tpot_ms: if output > 1.0 {
            generation_s * 1000.0 / (output - 1.0)
        } else {
            f64::NAN
        },
        e2e_ms: (ttft_s + generation_s) * 1000.0,
        launch_s,
        finish_s,
    })
}

/// The span from the first launch to the last finish, in seconds.
fn launch_to_finish_s(requests: &[Request]) -> f64 {
    span_s(
        requests.iter().map(|q| q.launch_s),
        requests.iter().map(|q| q.finish_s),
    )
}

/// The load point from the file's name, and the warning that says where it came from.
fn load_of(file: &str, requests: &[Request]) -> (LoadPoint, String) {
    let span = launch_to_finish_s(requests);
    let achieved = (span > 0.0).then(|| requests.len() as f64 / span);
    let name = file.rsplit('/').next().unwrap_or(file);
    let stem = name.strip_suffix(".csv").unwrap_or(name);
    let mut load = match qps_of(stem) {
        Some(qps) => {
            let note = format!(
                "LMBench writes its QPS only in the file's name: the load point {qps} req/s is \
                 read from `{name}`"
            );
            (
                LoadPoint::new(LoadTarget::RequestRate(Rate::PerSecond(qps))),
                note,
            )
        }
        _ => (
            LoadPoint::new(LoadTarget::MaxThroughput),
            format!(
                "LMBench writes its QPS only in the file's name, and `{name}` has no number: \
                 the run is placed at maximum throughput; name the file after its QPS \
                 (`…_qps_1.5.csv`)"
            ),
        ),
    };
    load.0.achieved_rps = achieved;
    load
}

/// The most requests per second a file name is believed to state: a larger number is a date
/// or an id (`lmbench_20250101.csv`), not a QPS.
const MOST_QPS: f64 = 10_000.0;

/// The QPS a file's name states: the number after `qps` (`qps_1.5`, `qps1.5`), else the last
/// number of the name (`sharegpt_1.5`); none when it is not a plausible rate.
fn qps_of(stem: &str) -> Option<f64> {
    let numbers = |text: &str| -> Vec<f64> {
        text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .map(|w| w.trim_matches('.'))
            .filter(|w| !w.is_empty())
            .filter_map(|w| w.parse().ok())
            .collect()
    };
    let lower = stem.to_ascii_lowercase();
    let after_qps = lower
        .rfind("qps")
        .and_then(|at| numbers(&lower[at + 3..]).first().copied());
    after_qps
        .or_else(|| numbers(&lower).last().copied())
        .filter(|q| q.is_finite() && *q > 0.0 && *q <= MOST_QPS)
}

/// The run of `requests`: samples in launch order, statistics over them, throughputs over the
/// span of the test.
fn run_of(file: &str, load: LoadPoint, requests: &[Request]) -> Run {
    let mut samples = RequestSamples::default();
    for q in requests {
        samples.push(true, q.ttft_ms, q.e2e_ms, q.tpot_ms, q.input, q.output);
    }
    samples.set_starts(&requests.iter().map(|q| q.launch_s).collect::<Vec<_>>());
    let values = |get: fn(&Request) -> f64| requests.iter().map(get).collect::<Vec<f64>>();
    let mut latency = Vec::new();
    type Value = fn(&Request) -> f64;
    let metrics: [(Metric, Value); 3] = [
        (Metric::Ttft, |q| q.ttft_ms),
        (Metric::Tpot, |q| q.tpot_ms),
        (Metric::E2e, |q| q.e2e_ms),
    ];
    for (metric, get) in metrics {
        let finite: Vec<f64> = values(get).into_iter().filter(|v| v.is_finite()).collect();
        if let Some(distribution) = summary_of(&finite) {
            latency.push(LatencyMetric {
                metric,
                distribution,
            });
        }
    }
    let span = launch_to_finish_s(requests);
    let per_second = |total: f64| (span > 0.0).then(|| total / span);
    let (input, output): (f64, f64) = (
        values(|q| q.input).iter().sum(),
        values(|q| q.output).iter().sum(),
    );
    let throughput = Throughput {
        output_tok_s: per_second(output),
        input_tok_s: per_second(input),
        total_tok_s: per_second(input + output),
        requests_per_s: per_second(requests.len() as f64),
        ..Throughput::default()
    };
    let provenance = Provenance::new(file, Location::File, Producer::LmBench);
    let n = requests.len() as u64;
    let mut run = Run::new(provenance, ConfigIdentity::default(), load).measured(
        RequestCounts::counted(n, n),
        latency,
        throughput,
        TokenStats {
            input_len: summary_of(&values(|q| q.input)),
            output_len: summary_of(&values(|q| q.output)),
            total_input: Some(input as u64),
            total_output: Some(output as u64),
        },
    );
    run.samples = Some(std::sync::Arc::new(samples));
    run
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod name_tests {
    use super::qps_of;

    #[test]
    fn the_qps_is_the_number_after_qps_or_the_last_and_a_plausible_rate() {
        assert_eq!(qps_of("sharegpt_qps_1.5"), Some(1.5));
        assert_eq!(qps_of("run3_qps2_20250101"), Some(2.0));
        assert_eq!(qps_of("summary_0.7"), Some(0.7));
        assert_eq!(qps_of("lmbench_20250101"), None);
        assert_eq!(qps_of("summary"), None);
        assert_eq!(qps_of(&"9".repeat(400)), None);
    }
}
