//! A benchmark's per-request samples from `requests.{successful, errored, incomplete}`, read in
//! one pass and kept to the measured period when the benchmark had a warm-up or cool-down.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::super::object_at;
use super::listed::{Cell, Entry, Field, Request, RequestLists, STATUSES};
use crate::import::fields::Fields;
use crate::model::RequestSamples;
use crate::number::{describe_json, json_number, Reading};
use crate::problem::Problem;

/// Where a benchmark's request lists are: read aside by the parser, or in its object.
#[derive(Debug, Clone, Copy)]
pub(super) struct Listed<'a> {
    pub aside: Option<&'a RequestLists>,
    /// The benchmark's index in the report.
    pub index: usize,
}

impl<'a> Listed<'a> {
    /// The list of `status` read aside, if it was.
    fn get(&self, status: &'static str) -> Option<&'a [Entry]> {
        self.aside
            .and_then(|lists| lists.get(&(self.index, status)))
            .map(Vec::as_slice)
    }
}

/// Per-request statistics from `requests.{successful, errored, incomplete}`, in one pass.
pub(super) fn read_samples(
    f: &mut Fields<'_>,
    obj: &Map<String, Value>,
    listed: Listed<'_>,
) -> Option<RequestSamples> {
    let requests = match obj.get("requests") {
        None | Some(Value::Null) => return None,
        Some(Value::Object(r)) => r,
        Some(other) => {
            f.error_at(
                "requests",
                format!(
                    "expected an object of request lists (successful, errored, incomplete), \
                     found {}; the run has no per-request samples",
                    describe_json(other)
                ),
            );
            return None;
        }
    };
    let window = measured_window(f, obj);
    let mut samples = RequestSamples::default();
    let mut starts = Vec::new();
    let mut reversed = 0usize;
    let mut excluded = 0usize;
    let mut bad = 0usize;
    let at = f.at.child("requests");
    for (status, ok) in STATUSES.into_iter().zip([true, false, false]) {
        let Some(entries) = entries(f, requests, listed, status) else {
            continue;
        };
        for (j, entry) in entries.iter().enumerate() {
            let place = || at.child(status).child(&format!("[{j}]"));
            let r = match entry {
                Entry::Request(r) => r,
                Entry::Other(item) => {
                    bad += 1;
                    if bad <= 5 {
                        f.problems.push(Problem::error(
                            f.file,
                            place(),
                            format!(
                                "expected a request object, found {}; it is skipped",
                                describe_json(item)
                            ),
                        ));
                    }
                    continue;
                }
            };
            if let Some((start, end)) = window {
                if !within(r, start, end) {
                    excluded += 1;
                    continue;
                }
            }
            let mut value = |field: Field, scale: f64| -> f64 {
                let v = match r.get(field) {
                    Cell::Absent => return f64::NAN,
                    Cell::Number(x) => return x * scale,
                    Cell::Other(v) => v,
                };
                match json_number(v) {
                    Reading::Value(x) => x * scale,
                    Reading::Missing => f64::NAN,
                    Reading::Invalid => {
                        bad += 1;
                        if bad <= 5 {
                            f.problems.push(Problem::error(
                                f.file,
                                place().child(field.key()),
                                format!("expected a number, found {}", describe_json(v)),
                            ));
                        }
                        f64::NAN
                    }
                }
            };
            let ttft = value(Field::Ttft, 1.0);
            let e2e = value(Field::Latency, 1000.0);
            let tpot = value(Field::Itl, 1.0);
            let input = value(Field::PromptTokens, 1.0);
            let output = value(Field::OutputTokens, 1.0);
            samples.push(ok, ttft, e2e, tpot, input, output);
            let (start, end) = (value(Field::Start, 1.0), value(Field::End, 1.0));
            if end < start {
                // Times out of order: the start cannot be trusted to place the request.
                reversed += 1;
                if reversed == 1 {
                    f.problems.push(Problem::warning(
                        f.file,
                        place().child(Field::End.key()),
                        format!(
                            "ends ({end}) before it starts (`request_start_time` {start}); such \
                             requests keep their latencies but no start time, so time-window \
                             charts leave them out"
                        ),
                    ));
                }
                starts.push(f64::NAN);
            } else {
                starts.push(start);
            }
        }
    }
    if reversed > 1 {
        f.problems.push(Problem::warning(
            f.file,
            at.clone(),
            format!("{reversed} requests end before they start; none has a start time"),
        ));
    }
    samples.set_starts(&starts);
    if bad > 5 {
        f.problems.push(Problem::error(
            f.file,
            at.clone(),
            format!(
                "{} more values of the per-request lists are not numbers or not requests",
                bad - 5
            ),
        ));
    }
    if excluded > 0 {
        f.problems.push(Problem::warning(
            f.file,
            at,
            format!(
                "{excluded} listed requests ran during the warm-up or cool-down (outside \
                 `scheduler_metrics.measure_start_time`…`measure_end_time`); they are left out \
                 of the samples, as GuideLLM leaves them out of its metrics"
            ),
        ));
    }
    (!samples.is_empty()).then_some(samples)
}

/// The requests listed under `status`: read aside, or from the `requests` object (where anything
/// but a list is an error, and `null` or nothing is no list).
fn entries<'a>(
    f: &mut Fields<'_>,
    requests: &Map<String, Value>,
    listed: Listed<'a>,
    status: &'static str,
) -> Option<Cow<'a, [Entry]>> {
    if let Some(entries) = listed.get(status) {
        return Some(Cow::Borrowed(entries));
    }
    match requests.get(status)? {
        Value::Null => None,
        Value::Array(items) => Some(Cow::Owned(items.iter().map(Entry::of).collect())),
        other => {
            f.problems.push(Problem::error(
                f.file,
                f.at.child("requests").child(status),
                format!(
                    "expected a list of requests, found {}",
                    describe_json(other)
                ),
            ));
            None
        }
    }
}

/// The measured period, when the benchmark had a warm-up or cool-down (0.4+).
fn measured_window(f: &mut Fields<'_>, obj: &Map<String, Value>) -> Option<(f64, f64)> {
    let marked = ["warmup_duration", "cooldown_duration"]
        .into_iter()
        .any(|k| f.finite(k).is_some_and(|d| d > 0.0));
    if !marked {
        return None;
    }
    let sm = object_at(obj, &["scheduler_metrics"]);
    let time = |key: &str| {
        sm.and_then(|m| m.get(key))
            .and_then(|v| json_number(v).value())
            .filter(|v| v.is_finite())
    };
    match (time("measure_start_time"), time("measure_end_time")) {
        (Some(start), Some(end)) => Some((start, end)),
        _ => {
            f.warn_at(
                "scheduler_metrics",
                "the benchmark has a warm-up or cool-down but no `measure_start_time` and \
                 `measure_end_time`; every listed request is kept in the samples",
            );
            None
        }
    }
}

/// GuideLLM's own test for a request of the measured period: it ended after the start and
/// started before the end (or, without a start time, ended before the end).
fn within(r: &Request, start: f64, end: f64) -> bool {
    let time = |field: Field| match r.get(field) {
        Cell::Absent => None,
        Cell::Number(x) => Some(*x),
        Cell::Other(v) => json_number(v).value(),
    };
    match (time(Field::Start), time(Field::End)) {
        (_, Some(e)) if e < start => false,
        (Some(s), _) => s <= end,
        (None, Some(e)) => e <= end,
        (None, None) => true,
    }
}
