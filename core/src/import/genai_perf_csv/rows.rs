//! What the tables' columns and rows hold: the statistic of a column, the metric of a row by
//! its label (`Time To First Token (ms)`), and a section's header with the rows under it.

use crate::import::table::Row;
use crate::model::{Metric, Stat};

/// What a column of the request-metrics table holds: `Some(Some(stat))` for a statistic,
/// `Some(None)` for AIPerf's `sum` (the total over requests; the `Metric,Value` table has the
/// totals the model keeps), `None` for a column neither tool writes.
pub(super) fn statistic_column(name: &str) -> Option<Option<Stat>> {
    if name.trim().eq_ignore_ascii_case("sum") {
        return Some(None);
    }
    Stat::parse(name).map(Some)
}

/// What a request-metrics row is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum RequestRow {
    Latency(Metric),
    InputLength,
    OutputLength,
    /// A per-request rate the model has no place for (documented above).
    PerUserRate,
}

pub(super) fn request_row(name: &str) -> Option<RequestRow> {
    Some(match name {
        "time to first token" => RequestRow::Latency(Metric::Ttft),
        "time to second token" => RequestRow::Latency(Metric::Ttst),
        "inter token latency" => RequestRow::Latency(Metric::Tpot),
        "request latency" => RequestRow::Latency(Metric::E2e),
        "input sequence length" => RequestRow::InputLength,
        "output sequence length" => RequestRow::OutputLength,
        "output token throughput per user" | "output token throughput per request" => {
            RequestRow::PerUserRate
        }
        _ => return None,
    })
}

/// What a `Metric,Value` row is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum ValueRow {
    OutputTokS,
    TotalTokS,
    RequestsPerS,
    GoodputPerS,
    RequestCount,
    ErrorCount,
    TotalInput,
    TotalOutput,
    /// Known, with no place in the model (the benchmark's duration).
    Duration,
}

pub(super) fn value_row(name: &str) -> Option<ValueRow> {
    Some(match name {
        "output token throughput" => ValueRow::OutputTokS,
        "total token throughput" => ValueRow::TotalTokS,
        "request throughput" => ValueRow::RequestsPerS,
        "request goodput" | "goodput" => ValueRow::GoodputPerS,
        "request count" => ValueRow::RequestCount,
        "error request count" => ValueRow::ErrorCount,
        "total input tokens" | "total input sequence length" | "total isl" => ValueRow::TotalInput,
        "total output tokens" | "total output sequence length" | "total osl" => {
            ValueRow::TotalOutput
        }
        "benchmark duration" => ValueRow::Duration,
        _ => return None,
    })
}

/// `Time To First Token (ms)` → (`time to first token`, `Some("ms")`).
pub(super) fn split_label(label: &str) -> (String, Option<String>) {
    let label = label.trim();
    if let Some(open) = label.rfind('(') {
        if let Some(unit) = label[open + 1..].strip_suffix(')') {
            let name = label[..open].trim().to_ascii_lowercase();
            return (name, Some(unit.trim().to_string()));
        }
    }
    (label.to_ascii_lowercase(), None)
}

/// A section of the file: a header row and the rows under it.
pub(super) struct Section<'a> {
    pub(super) header: &'a Row,
    pub(super) rows: Vec<&'a Row>,
}
