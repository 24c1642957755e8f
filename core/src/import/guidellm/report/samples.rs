//! A benchmark's per-request samples from `requests.{successful, errored, incomplete}`, read in
//! one pass and kept to the measured period when the benchmark had a warm-up or cool-down.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::super::object::object_at;
use super::listed::{Cell, Entry, Field, Request, RequestLists, STATUSES};
use crate::import::fields::Fields;
use crate::model::{Location, RequestSamples};
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
    let mut tally = Tally::default();
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
                    tally.bad += 1;
                    if tally.bad <= 5 {
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
                    tally.excluded += 1;
                    continue;
                }
            }
            let mut value = |field: Field, scale: f64| -> f64 {
                number(f, r, field, scale, &mut tally.bad, &|| {
                    place().child(field.key())
                })
            };
            let ttft = value(Field::Ttft, 1.0);
            let e2e = value(Field::Latency, 1000.0);
            let tpot = value(Field::Itl, 1.0);
            let input = value(Field::PromptTokens, 1.0);
            let output = value(Field::OutputTokens, 1.0);
            samples.push(ok, ttft, e2e, tpot, input, output);
            let (start, end) = (value(Field::Start, 1.0), value(Field::End, 1.0));
            starts.push(start_time(f, start, end, &mut tally.reversed, &place));
        }
    }
    samples.set_starts(&starts);
    tally.report(f, at);
    (!samples.is_empty()).then_some(samples)
}

/// What a pass over the request lists counts, for the problems it ends with.
#[derive(Debug, Default)]
struct Tally {
    /// Requests that end before they start.
    reversed: usize,
    /// Requests outside the measured period.
    excluded: usize,
    /// Values that are not numbers and entries that are not requests.
    bad: usize,
}

impl Tally {
    /// The problems that sum the pass up at `at`: requests out of order, the bad values past the
    /// first five and the requests left out of the measured period.
    fn report(&self, f: &mut Fields<'_>, at: Location) {
        let Tally {
            reversed,
            excluded,
            bad,
        } = *self;
        if reversed > 1 {
            f.problems.push(Problem::warning(
                f.file,
                at.clone(),
                format!("{reversed} requests end before they start; none has a start time"),
            ));
        }
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
                     `scheduler_metrics.measure_start_time`…`measure_end_time`); they are left \
                     out of the samples, as GuideLLM leaves them out of its metrics"
                ),
            ));
        }
    }
}

/// Request `r`'s value of `field` times `scale` (seconds to ms), NaN when it has none; a value
/// that is not a number is NaN too, counted in `bad` and, among the first five, an error at
/// `place`.
fn number(
    f: &mut Fields<'_>,
    r: &Request,
    field: Field,
    scale: f64,
    bad: &mut usize,
    place: &dyn Fn() -> Location,
) -> f64 {
    let v = match r.get(field) {
        Cell::Absent => return f64::NAN,
        Cell::Number(x) => return x * scale,
        Cell::Other(v) => v,
    };
    match json_number(v) {
        Reading::Value(x) => x * scale,
        Reading::Missing => f64::NAN,
        Reading::Invalid => {
            *bad += 1;
            if *bad <= 5 {
                f.problems.push(Problem::error(
                    f.file,
                    place(),
                    format!("expected a number, found {}", describe_json(v)),
                ));
            }
            f64::NAN
        }
    }
}

/// A request's start time, or NaN when it ends before it starts: the start cannot be trusted to
/// place the request (counted in `reversed`; the first such request is warned about at `place`).
fn start_time(
    f: &mut Fields<'_>,
    start: f64,
    end: f64,
    reversed: &mut usize,
    place: &dyn Fn() -> Location,
) -> f64 {
    if end < start {
        *reversed += 1;
        if *reversed == 1 {
            f.problems.push(Problem::warning(
                f.file,
                place().child(Field::End.key()),
                format!(
                    "ends ({end}) before it starts (`request_start_time` {start}); such requests \
                     keep their latencies but no start time, so time-window charts leave them \
                     out"
                ),
            ));
        }
        f64::NAN
    } else {
        start
    }
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
        .any(|k| f.non_negative(k).is_some_and(|d| d > 0.0));
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
