//! Per-request lists read as the parser streams them: numbers into one `f64` each, texts into
//! whether each is empty, and lists no importer reads skipped without being kept.

use serde::de::SeqAccess;
use serde_json::Value;

use super::plain::{JsonNumber, OrPlain, Read, Skipped, Special};

/// A list of numbers as read: each element's number (`NaN` where it is not a JSON number), and
/// the elements that are not, kept as they are so their reading and their problems are
/// [`crate::import::fields::Fields::numbers_in`]'s, as for a list in a parsed document.
#[derive(Debug, Default)]
pub(crate) struct Numbers {
    /// One per element.
    pub values: Vec<f64>,
    /// The elements that are not JSON numbers, by index, in order.
    pub others: Vec<(usize, Value)>,
}

impl Numbers {
    /// The list `items` of a parsed document.
    pub fn from_values(items: &[Value]) -> Numbers {
        let mut numbers = Numbers {
            values: Vec::with_capacity(items.len()),
            others: Vec::new(),
        };
        for item in items {
            match item.as_f64() {
                Some(v) => numbers.values.push(v),
                None => numbers.push_other(item.clone()),
            }
        }
        numbers
    }

    fn push_other(&mut self, value: Value) {
        self.others.push((self.values.len(), value));
        self.values.push(f64::NAN);
    }
}

/// The [`Special`] reader of a list of numbers.
pub(crate) struct NumberList;

impl<'de> Special<'de> for NumberList {
    type Out = Numbers;

    fn seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Read<Numbers>, A::Error> {
        let mut numbers = Numbers {
            values: Vec::with_capacity(seq.size_hint().unwrap_or(0)),
            others: Vec::new(),
        };
        while let Some(item) = seq.next_element_seed(OrPlain(JsonNumber))? {
            match item {
                Read::Special(v) => numbers.values.push(v),
                Read::Plain(value) => numbers.push_other(value),
            }
        }
        Ok(Read::Special(numbers))
    }
}

/// The [`Special`] reader of a list of texts (vLLM's `errors`): for each element, whether it is
/// a text that is not empty.
pub(crate) struct TextList;

impl<'de> Special<'de> for TextList {
    type Out = Vec<bool>;

    fn seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Read<Vec<bool>>, A::Error> {
        let mut texts = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element::<Value>()? {
            texts.push(item.as_str().is_some_and(|s| !s.is_empty()));
        }
        Ok(Read::Special(texts))
    }
}

/// The [`Special`] reader of a list no importer reads: parsed (so a syntax error is still
/// one) and not kept.
pub(crate) struct UnreadList;

impl<'de> Special<'de> for UnreadList {
    type Out = ();

    fn seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Read<()>, A::Error> {
        while seq.next_element::<Skipped>()?.is_some() {}
        Ok(Read::Special(()))
    }
}

#[cfg(test)]
mod tests {
    use serde::de::DeserializeSeed;

    use super::*;

    fn numbers(text: &str) -> Numbers {
        let mut de = serde_json::Deserializer::from_str(text);
        match OrPlain(NumberList).deserialize(&mut de).unwrap() {
            Read::Special(n) => n,
            Read::Plain(v) => panic!("{v}"),
        }
    }

    #[test]
    fn a_streamed_list_is_read_as_the_parsed_one() {
        let text = r#"[1, 2.5, "3", null, [4], -7, "NaN"]"#;
        let streamed = numbers(text);
        let parsed: Value = serde_json::from_str(text).unwrap();
        let from_values = Numbers::from_values(parsed.as_array().unwrap());
        assert_eq!(streamed.values.len(), 7);
        for n in [&streamed, &from_values] {
            assert_eq!(n.values[..2], [1.0, 2.5]);
            assert_eq!(n.values[5], -7.0);
            let others: Vec<usize> = n.others.iter().map(|(i, _)| *i).collect();
            assert_eq!(others, [2, 3, 4, 6]);
        }
        assert_eq!(streamed.others, from_values.others);
    }
}
