//! JSON for positions that may be infinite: a request rate of `∞` is a real load point, but
//! JSON numbers cannot say so (serde_json writes `null`). Finite values stay numbers; the
//! others are the strings `"inf"`, `"-inf"` and `"nan"`, and `null` reads as NaN. Binary
//! formats (`site::wire`) carry every `f64` as it is.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserializer, Serializer};

/// Writes `v` as a number, or as `"inf"`, `"-inf"` or `"nan"`.
pub(super) fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    if v.is_finite() || !s.is_human_readable() {
        s.serialize_f64(*v)
    } else if v.is_nan() {
        s.serialize_str("nan")
    } else if *v > 0.0 {
        s.serialize_str("inf")
    } else {
        s.serialize_str("-inf")
    }
}

/// Reads what [`serialize`] writes, plus `null` (NaN) and `"∞"`.
pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    if d.is_human_readable() {
        d.deserialize_any(ExtendedF64)
    } else {
        d.deserialize_f64(ExtendedF64)
    }
}

struct ExtendedF64;

impl Visitor<'_> for ExtendedF64 {
    type Value = f64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number, \"inf\", \"-inf\" or \"nan\"")
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        Ok(v as f64)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        Ok(v as f64)
    }

    fn visit_unit<E: de::Error>(self) -> Result<f64, E> {
        Ok(f64::NAN)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
        match v.trim().to_ascii_lowercase().as_str() {
            "inf" | "+inf" | "infinity" | "∞" => Ok(f64::INFINITY),
            "-inf" | "-infinity" | "-∞" => Ok(f64::NEG_INFINITY),
            "nan" => Ok(f64::NAN),
            _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
        }
    }
}
