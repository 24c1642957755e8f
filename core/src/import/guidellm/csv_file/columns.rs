//! What a column of `benchmarks.csv` holds, from the three header cells of 0.4+ (group,
//! `[Status ]unit`, statistic) or the one header of 0.3.

use crate::import::json_objects::ms_per;
use crate::model::Metric;

/// A request status, as the headers name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Status {
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
pub(super) enum Destination {
    Latency(Metric),
    InputLen,
    OutputLen,
    RequestsPerSec,
    Concurrency,
    InputTokPerSec,
    OutputTokPerSec,
    TotalTokPerSec,
}

impl Destination {
    /// Rates are read by their mean only.
    pub(super) fn is_rate(self) -> bool {
        !matches!(
            self,
            Destination::Latency(_) | Destination::InputLen | Destination::OutputLen
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Stat {
    Mean,
    Median,
    Std,
    Percentiles,
}

/// What a column holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Col {
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
        target: Destination,
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
pub(super) fn column(group: &str, name: &str, stat: &str) -> Col {
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
    let latency = |metric| ms_per(unit).map(|scale| (Destination::Latency(metric), scale));
    let target = match group {
        "Request Latency" => latency(Metric::E2e),
        "Time to First Token" => latency(Metric::Ttft),
        "Time per Output Token" => latency(Metric::TpotInclFirst),
        "Inter Token Latency" => latency(Metric::Tpot),
        _ => {
            let t = match (group, unit) {
                ("Server Throughput", "Requests/Sec") => Destination::RequestsPerSec,
                ("Server Throughput", "Concurrency") => Destination::Concurrency,
                ("Token Metrics", "Input Tokens") => Destination::InputLen,
                ("Token Metrics", "Output Tokens") => Destination::OutputLen,
                ("Token Metrics", "Total Tokens") => return Col::Ignored,
                ("Token Throughput", "Input Tokens/Sec") => Destination::InputTokPerSec,
                ("Token Throughput", "Output Tokens/Sec") => Destination::OutputTokPerSec,
                ("Token Throughput", "Total Tokens/Sec") => Destination::TotalTokPerSec,
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
    stat_column(status, target, stat, scale)
}

/// A statistic column, read for successful requests only; of a rate, only the mean is read.
fn stat_column(status: Status, target: Destination, stat: Stat, scale: f64) -> Col {
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
pub(super) fn column_v03(header: &str) -> Col {
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
        "Requests per second" => (Destination::RequestsPerSec, 1.0),
        "Request concurrency" => (Destination::Concurrency, 1.0),
        // Seconds.
        "Request latency" => (Destination::Latency(Metric::E2e), 1000.0),
        "Prompt token count" => (Destination::InputLen, 1.0),
        "Output token count" => (Destination::OutputLen, 1.0),
        "Time to first token ms" => (Destination::Latency(Metric::Ttft), 1.0),
        // (last − first token) / n: neither TPOT nor TPOT with the first token (see
        // `TPOT_0_3`); left out, with one warning.
        "Time per output token ms" => return Col::Ignored,
        "Inter token latency ms" => (Destination::Latency(Metric::Tpot), 1.0),
        "Output tokens per second" => (Destination::OutputTokPerSec, 1.0),
        "Tokens per second" => (Destination::TotalTokPerSec, 1.0),
        _ => return Col::Unknown,
    };
    stat_column(status, target, stat, scale)
}
