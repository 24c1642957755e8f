//! The per-request lists at the top level of a `--save-detailed` result: read aside by the
//! parser ([`crate::import::document`]) or found in a parsed object, and read from either by
//! [`PerRequest`], so the samples and counts are the same whichever way the file came.
//!
//! `itls` (a list per request) and `generated_texts` are the bulk of a large file and have no
//! place in the model (its TPOT is per request, from the latencies and lengths): they are parsed
//! and not kept.

use std::collections::{BTreeMap, BTreeSet};

use serde::de::MapAccess;
use serde_json::{Map, Value};

use crate::import::document::lists::{NumberList, Numbers, TextList, UnreadList};
use crate::import::document::plain::{OrPlain, Read};
use crate::import::fields::Fields;

/// The lists of numbers, one per request.
const NUMBER_LISTS: [&str; 5] = [
    "ttfts",
    "latencies",
    "input_lens",
    "output_lens",
    "start_times",
];
/// The list of error texts, one per request (empty for a success).
const ERRORS: &str = "errors";
/// The lists no importer reads.
const UNREAD_LISTS: [&str; 2] = ["itls", "generated_texts"];

/// The lists read aside from a result's top level.
#[derive(Debug, Default)]
pub(crate) struct Lists {
    numbers: BTreeMap<&'static str, Numbers>,
    /// For each request, whether its error text is not empty.
    errors: Option<Vec<bool>>,
    unread: BTreeSet<&'static str>,
}

impl Lists {
    /// True when no list was read aside.
    pub fn is_empty(&self) -> bool {
        self.numbers.is_empty() && self.errors.is_none() && self.unread.is_empty()
    }

    /// Reads the value of the top-level `key` when it is one of the lists: a list is kept aside
    /// and an empty list returned to stand in the document; any other value is returned as it
    /// is (and replaces what an earlier `key` put aside). `None` when `key` is not one of them.
    pub fn read<'de, A: MapAccess<'de>>(
        &mut self,
        key: &str,
        map: &mut A,
    ) -> Result<Option<Value>, A::Error> {
        let value = if let Some(name) = NUMBER_LISTS.iter().find(|k| **k == key).copied() {
            let read = map.next_value_seed(OrPlain(NumberList))?;
            set_aside(read, |numbers| match numbers {
                Some(n) => self.numbers.insert(name, n),
                None => self.numbers.remove(name),
            })
        } else if key == ERRORS {
            let read = map.next_value_seed(OrPlain(TextList))?;
            set_aside(read, |errors| self.errors = errors)
        } else if let Some(name) = UNREAD_LISTS.iter().find(|k| **k == key).copied() {
            let read = map.next_value_seed(OrPlain(UnreadList))?;
            set_aside(read, |unread| match unread {
                Some(()) => self.unread.insert(name),
                None => self.unread.remove(name),
            })
        } else {
            return Ok(None);
        };
        Ok(Some(value))
    }
}

/// What stands in the document for `read`: an empty list for a list (given to `keep`), the
/// value itself otherwise (and `keep` is given `None`).
fn set_aside<T, R>(read: Read<T>, keep: impl FnOnce(Option<T>) -> R) -> Value {
    match read {
        Read::Special(list) => {
            keep(Some(list));
            Value::Array(Vec::new())
        }
        Read::Plain(value) => {
            keep(None);
            value
        }
    }
}

/// Where a result's per-request lists are read from: the lists read aside, or its object.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct PerRequest<'a> {
    aside: Option<&'a Lists>,
}

impl<'a> PerRequest<'a> {
    /// The lists read aside from the result's document.
    pub fn aside(lists: &'a Lists) -> Self {
        PerRequest { aside: Some(lists) }
    }

    /// The list of numbers at `key`, multiplied by `scale`, read as [`Fields::numbers`] reads
    /// it; `None` when there is none. A duration or a length below 0 is an error at its index.
    pub fn numbers(&self, f: &mut Fields<'_>, key: &str, scale: f64) -> Option<Vec<f64>> {
        let mut numbers = match self.aside.and_then(|l| l.numbers.get(key)) {
            Some(list) => f.numbers_in(key, list, scale),
            None => f.numbers(key, scale)?,
        };
        // Start times are clock readings: only their differences count.
        if key != "start_times" {
            f.negatives_refused(key, &mut numbers, scale);
        }
        Some(numbers)
    }

    /// For each request, whether its `errors` entry is a text that is not empty; `None` when
    /// `errors` is not a list.
    pub fn failed(&self, obj: &Map<String, Value>) -> Option<Vec<bool>> {
        if let Some(errors) = self.aside.and_then(|l| l.errors.as_ref()) {
            return Some(errors.clone());
        }
        match obj.get(ERRORS) {
            Some(Value::Array(errors)) => Some(
                errors
                    .iter()
                    .map(|e| e.as_str().is_some_and(|s| !s.is_empty()))
                    .collect(),
            ),
            _ => None,
        }
    }
}
