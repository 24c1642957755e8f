//! What a table's columns hold: the load level a row's first column names (by phase) and the
//! meaning of every other column of load_test.py's and benchmark.py's tables.

use crate::model::{LoadTarget, Metric, Producer, Rate};

/// One load level of one phase.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Level {
    Baseline(f64),
    Wave(f64),
    Sustained(f64),
    BenchConcurrency(f64),
    BenchRate(f64),
}

impl Level {
    pub(super) fn producer(self) -> Producer {
        match self {
            Level::BenchConcurrency(_) | Level::BenchRate(_) => Producer::SimpleFullStackCsv,
            _ => Producer::SimpleFullStackLoadTest,
        }
    }

    pub(super) fn target(self) -> LoadTarget {
        match self {
            Level::Baseline(_) => LoadTarget::Sequential,
            Level::Wave(c) | Level::BenchConcurrency(c) => LoadTarget::Concurrency(c),
            Level::Sustained(r) | Level::BenchRate(r) => {
                LoadTarget::RequestRate(Rate::PerSecond(r))
            }
        }
    }
}

/// Which tool's table a header belongs to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Family {
    LoadTest,
    Bench,
}

/// What a column holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Col {
    Load,
    SuccessPct,
    /// `20/20` or a count of successes.
    Success,
    /// benchmark.py's `✓ 20/20 ok`.
    Result,
    Errors,
    ErrorPct,
    Total,
    ActualRps,
    RequestsPerS,
    Duration,
    Latency(Metric, f64),
    InputLen(f64),
    OutputLen(f64),
    OutputTokS,
    PerRequestTokS,
    Unknown,
}

/// Lower case, without emphasis, backticks and repeated spaces.
pub(super) fn normalise(header: &str) -> String {
    header
        .replace(['*', '`'], "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
}

pub(super) fn column(name: &str, family: Family) -> Col {
    match name {
        "success%" | "success %" | "success rate" => return Col::SuccessPct,
        "success" => return Col::Success,
        "result" | "ok" | "ok/total" => return Col::Result,
        "errors" | "error count" => return Col::Errors,
        "err%" | "error%" | "error rate" | "errors%" => return Col::ErrorPct,
        "requests" | "sent" | "count" | "total requests" => return Col::Total,
        "actual rps" => return Col::ActualRps,
        "rate (req/s)" | "rate (r/s)" | "req/s" | "requests/s" => return Col::RequestsPerS,
        "duration" => return Col::Duration,
        "tok/s" | "total tok/s" | "throughput" | "tokens/s" | "output tok/s" => {
            return match family {
                Family::Bench => Col::OutputTokS,
                Family::LoadTest => Col::PerRequestTokS,
            }
        }
        _ => {}
    }
    let Some((metric, p)) = name.rsplit_once(' ') else {
        return Col::Unknown;
    };
    let Some(p) = p
        .strip_prefix('p')
        .and_then(|p| p.parse::<f64>().ok())
        .filter(|p| (0.0..=100.0).contains(p))
    else {
        return Col::Unknown;
    };
    match metric {
        "ttft" => Col::Latency(Metric::Ttft, p),
        "total" | "lat" | "latency" | "e2e" | "total latency" => Col::Latency(Metric::E2e, p),
        "tpot" => Col::Latency(Metric::Tpot, p),
        "itl" => Col::Latency(Metric::Itl, p),
        "in" | "input" | "input tokens" => Col::InputLen(p),
        "out" | "output" | "output tokens" => Col::OutputLen(p),
        _ => Col::Unknown,
    }
}
