//! The requests a benchmark lists (`requests.{successful, errored, incomplete}`), each as the
//! few fields its samples read: read as the parser streams `benchmarks` (the rest of each
//! request, its output text and timings, is parsed and not kept), or from a parsed document.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::import::document::plain::{JsonNumber, OrPlain, Read, Skipped, Special};

/// The key of the benchmarks list at a report's top level.
pub(crate) const BENCHMARKS: &str = "benchmarks";

/// The statuses whose request lists are read.
pub(crate) const STATUSES: [&str; 3] = ["successful", "errored", "incomplete"];

/// The fields of a request the samples read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Field {
    Ttft,
    Latency,
    Itl,
    PromptTokens,
    OutputTokens,
    Start,
    End,
}

/// The keys of the [`Field`]s, in their order.
const FIELDS: [&str; 7] = [
    "time_to_first_token_ms",
    "request_latency",
    "inter_token_latency_ms",
    "prompt_tokens",
    "output_tokens",
    "request_start_time",
    "request_end_time",
];

impl Field {
    /// Its key in a request object.
    pub fn key(self) -> &'static str {
        FIELDS[self as usize]
    }
}

/// The [`Field`]s of one request object.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Request([Cell; 7]);

impl Request {
    /// The cell of `field`.
    pub fn get(&self, field: Field) -> &Cell {
        &self.0[field as usize]
    }
}

/// The request lists read aside, by benchmark index and status.
pub(crate) type RequestLists = BTreeMap<(usize, &'static str), Vec<Entry>>;

/// One field of a listed request.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cell {
    /// Not in the request.
    Absent,
    /// A JSON number.
    Number(f64),
    /// Anything else, read leniently when it is used.
    Other(Box<Value>),
}

impl Cell {
    /// The field `key` of a parsed request.
    fn of(request: &Map<String, Value>, key: &str) -> Cell {
        match request.get(key) {
            None => Cell::Absent,
            Some(value) => match value.as_f64() {
                Some(v) => Cell::Number(v),
                None => Cell::Other(Box::new(value.clone())),
            },
        }
    }
}

/// One element of a request list.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Entry {
    /// A request object's fields.
    Request(Request),
    /// What stood in the list instead of a request object.
    Other(Box<Value>),
}

impl Entry {
    /// The element `item` of a parsed request list.
    pub fn of(item: &Value) -> Entry {
        match item.as_object() {
            Some(request) => Entry::Request(Request(FIELDS.map(|key| Cell::of(request, key)))),
            None => Entry::Other(Box::new(item.clone())),
        }
    }
}

/// Reads the value of a report's `benchmarks`, putting each benchmark's request lists into
/// `lists` (an empty list stands in their place) and returning the rest.
pub(crate) fn read_benchmarks<'de, A: MapAccess<'de>>(
    map: &mut A,
    lists: &mut RequestLists,
) -> Result<Value, A::Error> {
    // A repeated `benchmarks` replaces the one before, lists and all.
    lists.clear();
    Ok(match map.next_value_seed(OrPlain(Benchmarks { lists }))? {
        Read::Special(benchmarks) => Value::Array(benchmarks),
        Read::Plain(value) => value,
    })
}

/// The [`Special`] reader of the benchmarks list.
struct Benchmarks<'a> {
    lists: &'a mut RequestLists,
}

impl<'de> Special<'de> for Benchmarks<'_> {
    type Out = Vec<Value>;

    fn seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Read<Vec<Value>>, A::Error> {
        let mut benchmarks = Vec::new();
        loop {
            let index = benchmarks.len();
            let lists = &mut *self.lists;
            let Some(read) = seq.next_element_seed(OrPlain(Benchmark { index, lists }))? else {
                break;
            };
            benchmarks.push(match read {
                Read::Special(benchmark) => Value::Object(benchmark),
                Read::Plain(value) => value,
            });
        }
        Ok(Read::Special(benchmarks))
    }
}

/// The [`Special`] reader of benchmark `index`: its `requests` read by [`Requests`].
struct Benchmark<'a> {
    index: usize,
    lists: &'a mut RequestLists,
}

impl<'de> Special<'de> for Benchmark<'_> {
    type Out = Map<String, Value>;

    fn map<A: MapAccess<'de>>(self, mut map: A) -> Result<Read<Self::Out>, A::Error> {
        let Benchmark { index, lists } = self;
        let mut benchmark = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = if key == "requests" {
                // A repeated `requests` replaces the one before.
                lists.retain(|(i, _), _| *i != index);
                let lists = &mut *lists;
                match map.next_value_seed(OrPlain(Requests { index, lists }))? {
                    Read::Special(requests) => Value::Object(requests),
                    Read::Plain(value) => value,
                }
            } else {
                map.next_value()?
            };
            benchmark.insert(key, value);
        }
        Ok(Read::Special(benchmark))
    }
}

/// The [`Special`] reader of benchmark `index`'s `requests` object.
struct Requests<'a> {
    index: usize,
    lists: &'a mut RequestLists,
}

impl<'de> Special<'de> for Requests<'_> {
    type Out = Map<String, Value>;

    fn map<A: MapAccess<'de>>(self, mut map: A) -> Result<Read<Self::Out>, A::Error> {
        let Requests { index, lists } = self;
        let mut requests = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = match STATUSES.iter().find(|s| **s == key).copied() {
                Some(status) => match map.next_value_seed(OrPlain(RequestList))? {
                    Read::Special(entries) => {
                        lists.insert((index, status), entries);
                        Value::Array(Vec::new())
                    }
                    Read::Plain(value) => {
                        lists.remove(&(index, status));
                        value
                    }
                },
                None => map.next_value()?,
            };
            requests.insert(key, value);
        }
        Ok(Read::Special(requests))
    }
}

/// The [`Special`] reader of one status's request list.
struct RequestList;

impl<'de> Special<'de> for RequestList {
    type Out = Vec<Entry>;

    fn seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Read<Vec<Entry>>, A::Error> {
        let mut entries = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(read) = seq.next_element_seed(OrPlain(RequestFields))? {
            entries.push(match read {
                Read::Special(request) => Entry::Request(request),
                Read::Plain(value) => Entry::Other(Box::new(value)),
            });
        }
        Ok(Read::Special(entries))
    }
}

/// The [`Special`] reader of one request object: its [`Field`]s, nothing else kept.
struct RequestFields;

impl<'de> Special<'de> for RequestFields {
    type Out = Request;

    fn map<A: MapAccess<'de>>(self, mut map: A) -> Result<Read<Request>, A::Error> {
        let mut cells: [Cell; 7] = std::array::from_fn(|_| Cell::Absent);
        while let Some(FieldKey(field)) = map.next_key()? {
            match field {
                Some(i) => {
                    cells[i] = match map.next_value_seed(OrPlain(JsonNumber))? {
                        Read::Special(v) => Cell::Number(v),
                        Read::Plain(value) => Cell::Other(Box::new(value)),
                    }
                }
                None => {
                    map.next_value::<Skipped>()?;
                }
            }
        }
        Ok(Read::Special(Request(cells)))
    }
}

/// A request's key: the index of its [`Field`], or `None` for a key not read (the key itself is
/// not kept).
struct FieldKey(Option<usize>);

impl<'de> Deserialize<'de> for FieldKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_identifier(FieldKeyVisitor)
    }
}

struct FieldKeyVisitor;

impl Visitor<'_> for FieldKeyVisitor {
    type Value = FieldKey;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E>(self, key: &str) -> Result<FieldKey, E> {
        Ok(FieldKey(FIELDS.iter().position(|f| *f == key)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streamed_requests_are_read_as_parsed_ones() {
        let text = r#"{"benchmarks": [{"type_": "generative_benchmark", "requests": {
            "successful": [{"time_to_first_token_ms": 12.5, "output": "text", "prompt_tokens":
            "256", "request_latency": null, "output_tokens": 3, "output_tokens": 4}, 7],
            "errored": [], "total": null}}, 5]}"#;
        let doc: crate::import::document::Document = crate::json::parse_as(text, 0).unwrap();
        let parsed: Value = serde_json::from_str(text).unwrap();
        let listed = &parsed["benchmarks"][0]["requests"]["successful"];
        let expected: Vec<Entry> = listed.as_array().unwrap().iter().map(Entry::of).collect();
        assert_eq!(doc.aside.requests[&(0, "successful")], expected);
        assert_eq!(doc.aside.requests[&(0, "errored")], Vec::new());
        let Entry::Request(request) = &expected[0] else {
            panic!("{expected:?}")
        };
        assert_eq!(
            request.get(Field::OutputTokens),
            &Cell::Number(4.0),
            "the last of a repeated key"
        );
        assert_eq!(doc.value["benchmarks"][1], 5);
    }
}
