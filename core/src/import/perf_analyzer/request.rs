//! One request of perf_analyzer's export: when it was sent, which of its responses carried
//! content, and what that makes of its latencies (see the parent module).

use std::collections::BTreeSet;

use serde_json::Value;

use crate::model::Location;
use crate::number::describe_json;
use crate::problem::Problem;

/// One request's measurements, in ms (`NaN` where it has none).
pub(super) struct Request {
    pub ok: bool,
    pub start_ns: u64,
    /// The last response's time, content or not: the end of the request on the wire.
    pub end_ns: Option<u64>,
    pub ttft: f64,
    pub ttst: f64,
    pub e2e: f64,
    /// Gaps between consecutive content chunks.
    pub gaps: Vec<f64>,
    /// The `model` the request's payload names.
    pub model: Option<String>,
}

/// Keys of a request this importer reads (or, `sequence_id`, needs not).
const READ: [&str; 5] = [
    "timestamp",
    "response_timestamps",
    "response_outputs",
    "request_inputs",
    "sequence_id",
];

/// Reads one request; `triton` when the service is not OpenAI's, whose every response counts.
pub(super) fn read_request(
    file: &str,
    value: &Value,
    at: Location,
    triton: bool,
    unread: &mut BTreeSet<String>,
) -> Result<Request, Problem> {
    let Some(obj) = value.as_object() else {
        return Err(Problem::error(
            file,
            at,
            format!("expected a request object, found {}", describe_json(value)),
        ));
    };
    for key in obj.keys().filter(|k| !READ.contains(&k.as_str())) {
        unread.insert(format!("requests[].{key}"));
    }
    let start_ns = obj
        .get("timestamp")
        .and_then(Value::as_u64)
        .ok_or_else(|| {
            Problem::error(
            file,
            at.child("timestamp"),
            "expected the request's start in nanoseconds, a whole number; the request is skipped",
        )
        })?;
    let times = response_times(file, obj.get("response_timestamps"), &at)?;
    let outputs = obj.get("response_outputs").and_then(Value::as_array);
    let mut failed = false;
    let content: Vec<u64> = times
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            let chunk = outputs.and_then(|o| o.get(*i));
            let (has_content, error) = if triton {
                (true, false)
            } else {
                chunk.map_or((false, false), openai_chunk)
            };
            failed |= error;
            has_content
        })
        .map(|(_, t)| *t)
        .collect();
    let ms = |t: u64| t.saturating_sub(start_ns) as f64 / 1e6;
    let gaps: Vec<f64> = content
        .windows(2)
        .map(|w| w[1].saturating_sub(w[0]) as f64 / 1e6)
        .collect();
    Ok(Request {
        ok: !failed && !content.is_empty(),
        start_ns,
        end_ns: times.iter().copied().max(),
        ttft: content.first().map_or(f64::NAN, |t| ms(*t)),
        ttst: gaps.first().copied().unwrap_or(f64::NAN),
        e2e: content.last().map_or(f64::NAN, |t| ms(*t)),
        gaps,
        model: model(obj.get("request_inputs")),
    })
}

/// The times of a request's responses, in nanoseconds. One not written as a whole number is an
/// error and the request is skipped: the rest would no longer line up with their outputs.
fn response_times(file: &str, times: Option<&Value>, at: &Location) -> Result<Vec<u64>, Problem> {
    let Some(Value::Array(items)) = times else {
        return Ok(Vec::new());
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            item.as_u64().ok_or_else(|| {
                Problem::error(
                    file,
                    at.child("response_timestamps").child(&format!("[{i}]")),
                    format!(
                        "expected a response's time in nanoseconds, a whole number, found {}; \
                         the request is skipped",
                        describe_json(item)
                    ),
                )
            })
        })
        .collect()
}

/// The `model` named in an OpenAI request's `payload` (a JSON text).
fn model(inputs: Option<&Value>) -> Option<String> {
    let payload = inputs?.get("payload")?.as_str()?;
    let value: Value = serde_json::from_str(payload).ok()?;
    value
        .get("model")?
        .as_str()
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(String::from)
}

/// Whether one OpenAI response (`{"response": "data: {…}\n\n"}`: server-sent events, or a
/// whole JSON body) carries content, and whether it carries an error.
fn openai_chunk(output: &Value) -> (bool, bool) {
    let Some(text) = output.get("response").and_then(Value::as_str) else {
        return (false, false);
    };
    let mut content = false;
    let mut error = false;
    let events: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(str::trim)
        .collect();
    let bodies = if events.is_empty() {
        vec![text.trim()]
    } else {
        events
    };
    for body in bodies {
        if body == "[DONE]" || body.is_empty() {
            continue;
        }
        let Ok(event) = serde_json::from_str::<Value>(body) else {
            continue;
        };
        error |= event.get("error").is_some_and(|e| !e.is_null());
        content |= has_text(&event);
    }
    error |= text.lines().any(|l| l.trim() == "event: error");
    (content, error)
}

/// True when the first choice carries text: a chat delta's or message's `content`, or a
/// completion's `text`.
fn has_text(event: &Value) -> bool {
    let Some(choice) = event.get("choices").and_then(|c| c.get(0)) else {
        return false;
    };
    [
        choice.get("delta").and_then(|d| d.get("content")),
        choice.get("message").and_then(|m| m.get("content")),
        choice.get("text"),
    ]
    .into_iter()
    .flatten()
    .any(|v| v.as_str().is_some_and(|s| !s.is_empty()))
}
