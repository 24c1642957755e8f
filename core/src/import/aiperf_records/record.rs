//! One line of `profile_export.jsonl`: a request's metrics in ms and tokens, its start, and how
//! it ended.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::import::json_objects::ms_per;
use crate::model::Location;
use crate::number::{describe_json, json_number, Reading};
use crate::problem::Problem;

/// One request, `NaN` where it has no value.
pub(super) struct Record {
    pub ok: bool,
    pub profiling: bool,
    pub cancelled: bool,
    /// `500 Internal Server Error`, `499 RequestCancellationError`, `transport: TimeoutError`.
    pub error_kind: String,
    pub start_ns: Option<u64>,
    pub ttft: f64,
    pub ttst: f64,
    pub e2e: f64,
    pub tpot: f64,
    pub input: f64,
    pub output: f64,
    pub per_user: f64,
    pub chunk_gaps: Vec<f64>,
}

/// Metadata that identifies a request or its worker: no measurement, nothing to model.
const IDS: [&str; 12] = [
    "session_num",
    "x_request_id",
    "x_correlation_id",
    "conversation_id",
    "turn_index",
    "worker_id",
    "record_processor_id",
    "credit_phase",
    "benchmark_phase",
    "was_cancelled",
    "request_start_ns",
    "timestamp_ns",
];

/// Metrics the records repeat from elsewhere (the error, the start, the sum of lengths).
const REDUNDANT: [&str; 5] = [
    "request_count",
    "error_request_count",
    "min_request_timestamp",
    "max_response_timestamp",
    "output_token_count",
];

/// Reads one record; `None` (with a problem) when it is not one.
pub(super) fn read_record(
    file: &str,
    value: &Value,
    at: Location,
    problems: &mut Vec<Problem>,
    unread: &mut BTreeSet<String>,
) -> Option<Record> {
    let Some(metrics) = value.get("metrics").and_then(Value::as_object) else {
        problems.push(Problem::error(
            file,
            at,
            "expected an AIPerf record with a `metrics` object; this record is skipped",
        ));
        return None;
    };
    let metadata = value.get("metadata").and_then(Value::as_object);
    let empty = Map::new();
    let metadata = metadata.unwrap_or(&empty);
    for key in metadata.keys().filter(|k| !IDS.contains(&k.as_str())) {
        unread.insert(format!("metadata.{key}"));
    }
    let phase = metadata
        .get("benchmark_phase")
        .or_else(|| metadata.get("credit_phase"))
        .and_then(Value::as_str);
    let error = value.get("error").filter(|e| !e.is_null());
    let mut r = Record {
        ok: error.is_none(),
        profiling: phase.is_none_or(|p| p == "profiling"),
        cancelled: metadata.get("was_cancelled").and_then(Value::as_bool) == Some(true),
        error_kind: error.map(error_kind).unwrap_or_default(),
        start_ns: start(metadata, file, &at, problems),
        ttft: f64::NAN,
        ttst: f64::NAN,
        e2e: f64::NAN,
        tpot: f64::NAN,
        input: f64::NAN,
        output: f64::NAN,
        per_user: f64::NAN,
        chunk_gaps: Vec::new(),
    };
    let mut reader = Reader {
        file,
        at: &at,
        problems,
    };
    for (tag, metric) in metrics {
        reader.metric(&mut r, tag, metric, unread);
    }
    Some(r)
}

/// `500 Internal Server Error`, from an error object.
fn error_kind(error: &Value) -> String {
    let code = error.get("code").and_then(Value::as_i64);
    let kind = error.get("type").and_then(Value::as_str).unwrap_or("error");
    match code {
        Some(code) => format!("{code} {kind}"),
        None => kind.to_string(),
    }
}

/// The request's start in wall-clock ns, as a whole number (they exceed f64's exact integers);
/// one written otherwise is an error, and the record has no start.
fn start(
    metadata: &Map<String, Value>,
    file: &str,
    at: &Location,
    problems: &mut Vec<Problem>,
) -> Option<u64> {
    let (key, value) = ["request_start_ns", "timestamp_ns"]
        .iter()
        .find_map(|k| metadata.get(*k).map(|v| (*k, v)))?;
    let start = value.as_u64();
    if start.is_none() {
        problems.push(Problem::error(
            file,
            at.child("metadata").child(key),
            format!(
                "expected the request's start in nanoseconds, a whole number, found {}; the \
                 record has no start time",
                describe_json(value)
            ),
        ));
    }
    start
}

struct Reader<'a> {
    file: &'a str,
    at: &'a Location,
    problems: &'a mut Vec<Problem>,
}

impl Reader<'_> {
    /// One `{value, unit}` metric into its place in `r`.
    fn metric(&mut self, r: &mut Record, tag: &str, metric: &Value, unread: &mut BTreeSet<String>) {
        let unit = metric.get("unit").and_then(Value::as_str).unwrap_or("");
        let Some(value) = metric.get("value") else {
            self.error(
                tag,
                "expected `{value, unit}`; this metric is skipped".into(),
            );
            return;
        };
        match tag {
            "time_to_first_token" | "ttft" => r.ttft = self.time(tag, value, unit),
            "time_to_second_token" | "ttst" => r.ttst = self.time(tag, value, unit),
            "request_latency" => r.e2e = self.time(tag, value, unit),
            "inter_token_latency" => r.tpot = self.time(tag, value, unit),
            "inter_chunk_latency" => r.chunk_gaps = self.times(tag, value, unit),
            "input_sequence_length" | "error_isl" => r.input = self.number(tag, value),
            "output_sequence_length" => r.output = self.number(tag, value),
            "output_token_throughput_per_user" => r.per_user = self.number(tag, value),
            t if REDUNDANT.contains(&t) => {}
            other => {
                unread.insert(format!("metrics.{other}"));
            }
        }
    }

    /// A time in ms from its `unit`.
    fn time(&mut self, tag: &str, value: &Value, unit: &str) -> f64 {
        let Some(scale) = self.scale(tag, unit) else {
            return f64::NAN;
        };
        self.number(tag, value) * scale
    }

    /// A list of times in ms.
    fn times(&mut self, tag: &str, value: &Value, unit: &str) -> Vec<f64> {
        let (Some(scale), Some(items)) = (self.scale(tag, unit), value.as_array()) else {
            if !value.is_array() {
                self.error(
                    tag,
                    format!("expected a list of times, found {}", describe_json(value)),
                );
            }
            return Vec::new();
        };
        items
            .iter()
            .map(|v| self.number(tag, v) * scale)
            .filter(|v| v.is_finite())
            .collect()
    }

    fn scale(&mut self, tag: &str, unit: &str) -> Option<f64> {
        let scale = ms_per(unit);
        if scale.is_none() {
            self.error(
                tag,
                format!("expected a time unit (ms, ns, sec, us), found `{unit}`; not read"),
            );
        }
        scale
    }

    /// A non-negative number; anything else is an error and `NaN`.
    fn number(&mut self, tag: &str, value: &Value) -> f64 {
        match json_number(value) {
            Reading::Value(v) if v.is_finite() && v >= 0.0 => v,
            Reading::Missing => f64::NAN,
            _ => {
                self.error(
                    tag,
                    format!(
                        "expected a number of at least 0, found {}",
                        describe_json(value)
                    ),
                );
                f64::NAN
            }
        }
    }

    fn error(&mut self, tag: &str, message: String) {
        let place = match self.at {
            Location::Line { line, .. } => Location::Json {
                line: Some(*line),
                path: format!("metrics.{tag}"),
            },
            other => other.clone(),
        };
        self.problems
            .push(Problem::error(self.file, place, message));
    }
}
