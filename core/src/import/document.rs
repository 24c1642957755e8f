//! A JSON document as the importers read it: parsed with the long per-request lists of the
//! formats that write them read aside as they stream by (vLLM's top-level `ttfts`, `itls`,
//! `errors`…, [`Lists`]; GuideLLM's `benchmarks[i].requests`, [`RequestLists`]),
//! so a file of hundreds of MB never becomes a `Value` tree several times its size.
//!
//! What stays is the document as serde_json parses it, each list read aside replaced by an
//! empty list. Formats are sniffed on it (no sniffer looks inside those lists); the readers of
//! vLLM and GuideLLM take the lists from [`Aside`], and any other format is given the document
//! parsed whole (`import_json` in the parent module), so every format reads what it always read.

pub(crate) mod lists;
pub(crate) mod plain;

use serde::de::{Deserialize, DeserializeSeed, Deserializer, MapAccess};
use serde_json::{Map, Value};

use super::guidellm::report::listed::{read_benchmarks, RequestLists, BENCHMARKS};
use super::vllm::lists::Lists;
use crate::json::{self, SyntaxError};
use plain::{OrPlain, Read, Special};

/// A parsed document and the lists read aside from it.
#[derive(Debug)]
pub(crate) struct Document {
    /// The document, an empty list in place of each list read aside.
    pub value: Value,
    /// The lists read aside.
    pub aside: Aside,
}

/// The lists read aside from a document.
#[derive(Debug, Default)]
pub(crate) struct Aside {
    /// vLLM's per-request lists at the top level.
    pub serve: Lists,
    /// GuideLLM's request lists, by benchmark and status.
    pub requests: RequestLists,
}

impl Aside {
    /// True when nothing was read aside: the document is whole.
    pub fn is_empty(&self) -> bool {
        self.serve.is_empty() && self.requests.is_empty()
    }
}

/// How the importers parse a JSON document: [`parse`], or (for the tests that hold it to the
/// old way) [`parse_whole`].
pub(crate) type Parse = fn(&str, u64) -> Result<Document, SyntaxError>;

/// Parses a document leniently ([`json::parse_as`]), the per-request lists read aside.
pub(crate) fn parse(text: &str, line_offset: u64) -> Result<Document, SyntaxError> {
    json::parse_as(text, line_offset)
}

/// Parses a document whole into a `Value` ([`json::parse`]), nothing read aside.
#[cfg(test)]
pub(crate) fn parse_whole(text: &str, line_offset: u64) -> Result<Document, SyntaxError> {
    json::parse(text, line_offset).map(|value| Document {
        value,
        aside: Aside::default(),
    })
}

impl<'de> Deserialize<'de> for Document {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match OrPlain(TopLevel).deserialize(deserializer)? {
            Read::Special(document) => document,
            Read::Plain(value) => Document {
                value,
                aside: Aside::default(),
            },
        })
    }
}

/// The [`Special`] reader of a document's top-level object.
struct TopLevel;

impl<'de> Special<'de> for TopLevel {
    type Out = Document;

    fn map<A: MapAccess<'de>>(self, mut map: A) -> Result<Read<Document>, A::Error> {
        let mut obj = Map::new();
        let mut aside = Aside::default();
        while let Some(key) = map.next_key::<String>()? {
            let value = match aside.serve.read(&key, &mut map)? {
                Some(value) => value,
                None if key == BENCHMARKS => read_benchmarks(&mut map, &mut aside.requests)?,
                None => map.next_value()?,
            };
            // A repeated key keeps its last value, as serde_json's `Map` does.
            obj.insert(key, value);
        }
        Ok(Read::Special(Document {
            value: Value::Object(obj),
            aside,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Document {
        crate::json::parse_as(text, 0).unwrap()
    }

    #[test]
    fn lists_are_read_aside_and_an_empty_list_stands_in_their_place() {
        let doc = parse(
            r#"{"date": "x", "ttfts": [0.1, 0.2], "itls": [[0.01], []], "errors": ["", "t"],
                "other": [1, 2], "benchmarks": [{"requests": {"successful": [{"a": 1}]}}]}"#,
        );
        let expected: Value = serde_json::from_str(
            r#"{"date": "x", "ttfts": [], "itls": [], "errors": [], "other": [1, 2],
                "benchmarks": [{"requests": {"successful": []}}]}"#,
        )
        .unwrap();
        assert_eq!(doc.value, expected);
        assert!(!doc.aside.serve.is_empty());
        assert!(!doc.aside.requests.is_empty());
    }

    #[test]
    fn a_document_without_such_lists_is_what_serde_json_parses() {
        for text in [
            r#"{"ttfts": "no", "errors": null, "benchmarks": 3, "a": {"ttfts": [1]}}"#,
            r#"[{"ttfts": [1]}]"#,
            r#"{"ttfts": [1], "ttfts": "later wins", "benchmarks": [1], "benchmarks": {}}"#,
            "NaN",
        ] {
            let doc = parse(text);
            assert!(doc.aside.is_empty(), "{text}");
            assert_eq!(doc.value, crate::json::parse(text, 0).unwrap(), "{text}");
        }
    }
}
