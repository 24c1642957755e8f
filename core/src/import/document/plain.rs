//! Reading one kind of JSON value its own way as the parser streams it (a list into a column,
//! an object into a few fields), and any other value as the plain [`Value`] serde_json would
//! have built: serde's [`DeserializeSeed`] and [`Visitor`], with the plain case written once.

use std::fmt;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Number, Value};

/// What [`OrPlain`] read: the special reading, or the plain value that stood there instead.
#[derive(Debug)]
pub(crate) enum Read<T> {
    /// Read by the [`Special`] reader.
    Special(T),
    /// Anything else, as serde_json's own `Value`.
    Plain(Value),
}

/// A reader of numbers, lists or objects its own way; each kind it does not take is read as a
/// plain [`Value`] (the default of every method).
pub(crate) trait Special<'de>: Sized {
    /// What it makes of what it takes.
    type Out;

    /// A JSON number, as `f64` (as [`Value::as_f64`] gives it) and as the plain value.
    fn number(self, _as_f64: f64, plain: Value) -> Read<Self::Out> {
        Read::Plain(plain)
    }

    /// A JSON list.
    fn seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Read<Self::Out>, A::Error> {
        Value::deserialize(SeqAccessDeserializer::new(seq)).map(Read::Plain)
    }

    /// A JSON object.
    fn map<A: MapAccess<'de>>(self, map: A) -> Result<Read<Self::Out>, A::Error> {
        Value::deserialize(MapAccessDeserializer::new(map)).map(Read::Plain)
    }
}

/// The seed (and visitor) that hands a value to a [`Special`] reader or reads it plainly.
pub(crate) struct OrPlain<S>(pub S);

impl<'de, S: Special<'de>> DeserializeSeed<'de> for OrPlain<S> {
    type Value = Read<S::Out>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, S: Special<'de>> Visitor<'de> for OrPlain<S> {
    type Value = Read<S::Out>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Read::Plain(Value::Bool(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(self.0.number(v as f64, Value::Number(v.into())))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(self.0.number(v as f64, Value::Number(v.into())))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        // As serde_json's own `Value` does: a float that is no JSON number is null.
        Ok(match Number::from_f64(v) {
            Some(n) => self.0.number(v, Value::Number(n)),
            None => Read::Plain(Value::Null),
        })
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Read::Plain(Value::String(v.to_owned())))
    }

    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(Read::Plain(Value::String(v)))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Read::Plain(Value::Null))
    }

    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Read::Plain(Value::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        Value::deserialize(deserializer).map(Read::Plain)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        self.0.seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.0.map(map)
    }
}

/// The [`Special`] reader of numbers alone: a list's element, a request's field.
pub(crate) struct JsonNumber;

impl Special<'_> for JsonNumber {
    type Out = f64;

    fn number(self, as_f64: f64, _plain: Value) -> Read<f64> {
        Read::Special(as_f64)
    }
}

/// A value parsed and not kept. It is read as a `Value` would be (`deserialize_any`), so a
/// broken value is the same error at the same place as when the whole document is parsed
/// (serde's `IgnoredAny` takes serde_json's quicker path, whose errors differ: a number cut
/// short is "invalid number" there, "EOF while parsing a value" here); nothing is built.
pub(crate) struct Skipped;

impl<'de> Deserialize<'de> for Skipped {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SkippedVisitor)
    }
}

struct SkippedVisitor;

impl<'de> Visitor<'de> for SkippedVisitor {
    type Value = Skipped;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Skipped, E> {
        Ok(Skipped)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Skipped, E> {
        Ok(Skipped)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Skipped, E> {
        Ok(Skipped)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Skipped, E> {
        Ok(Skipped)
    }

    fn visit_str<E>(self, _: &str) -> Result<Skipped, E> {
        Ok(Skipped)
    }

    fn visit_unit<E>(self) -> Result<Skipped, E> {
        Ok(Skipped)
    }

    fn visit_none<E>(self) -> Result<Skipped, E> {
        Ok(Skipped)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Skipped, D::Error> {
        Skipped::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skipped, A::Error> {
        while seq.next_element::<Skipped>()?.is_some() {}
        Ok(Skipped)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skipped, A::Error> {
        while map.next_key::<Skipped>()?.is_some() {
            map.next_value::<Skipped>()?;
        }
        Ok(Skipped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `text` with `OrPlain(JsonNumber)`.
    fn read(text: &str) -> Read<f64> {
        let mut de = serde_json::Deserializer::from_str(text);
        OrPlain(JsonNumber).deserialize(&mut de).unwrap()
    }

    #[test]
    fn numbers_are_taken_and_everything_else_is_the_value_serde_json_builds() {
        for (text, number) in [("3", 3.0), ("-2", -2.0), ("2.5e3", 2500.0), ("-0", 0.0)] {
            assert!(
                matches!(read(text), Read::Special(v) if v == number),
                "{text}"
            );
        }
        for text in [
            r#""1.5""#,
            "null",
            "true",
            "[1, [2, {}]]",
            r#"{"a": [1], "a": 2}"#,
        ] {
            let expected: Value = serde_json::from_str(text).unwrap();
            assert!(
                matches!(read(text), Read::Plain(v) if v == expected),
                "{text}"
            );
        }
    }
}
