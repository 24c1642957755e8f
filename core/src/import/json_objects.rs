//! Helpers shared by the JSON importers whose files nest things: statistics objects such as
//! `{"unit": "ms", "avg": 105.7, "p99": 148.9}` or `{"p50": 78.1, "avg": 76.8}`, nested objects,
//! the time units those objects name, and the configuration names users put in `--metadata`.

use serde_json::{Map, Value};

use super::fields::{percentile_rank, set_stat, Fields};
use crate::model::{ConfigIdentity, Distribution};
use crate::number::describe_json;

/// The nested object at `key`. Missing keys and `null` give `None` silently; anything else that is
/// not an object gives `None` and an error naming the key.
pub(crate) fn object<'a>(f: &mut Fields<'a>, key: &str) -> Option<&'a Map<String, Value>> {
    let obj: &'a Map<String, Value> = f.obj;
    match obj.get(key)? {
        Value::Object(m) => Some(m),
        Value::Null => None,
        other => {
            f.error_at(
                key,
                format!("expected an object, found {}", describe_json(other)),
            );
            None
        }
    }
}

/// Reads the nested object at `key` with `read`, keeping the problems found inside it (their
/// locations name the nested path). Returns `None` when the key is missing or not an object.
pub(crate) fn nested<'a, T>(
    f: &mut Fields<'a>,
    key: &str,
    read: impl FnOnce(&mut Fields<'a>) -> T,
) -> Option<T> {
    let obj = object(f, key)?;
    let mut inner = Fields::new(obj, f.file, f.at.child(key));
    let out = read(&mut inner);
    f.problems.append(&mut inner.problems);
    Some(out)
}

/// Milliseconds per one of `unit` for the time units the tools write (`ms`, `s`/`sec`, `us`,
/// `ns`); `None` for anything else.
pub(crate) fn ms_per(unit: &str) -> Option<f64> {
    match unit.trim().to_ascii_lowercase().as_str() {
        "ms" | "msec" | "millisecond" | "milliseconds" => Some(1.0),
        "s" | "sec" | "secs" | "second" | "seconds" => Some(1000.0),
        "us" | "µs" | "usec" | "microsecond" | "microseconds" => Some(1e-3),
        "ns" | "nsec" | "nanosecond" | "nanoseconds" => Some(1e-6),
        _ => None,
    }
}

/// Reads a statistics object (`avg`/`mean`, `median`, `std`/`stddev`, `min`, `max`, `p<N>`) at
/// `key`, every value multiplied by `scale`. Other keys (`unit`, `count`, `tag`, `header`) are
/// skipped; `null` and `NaN` statistics are missing; non-numbers and infinities are errors on
/// their own path. Returns `None` when the key is missing or nothing could be read.
pub(crate) fn distribution(f: &mut Fields<'_>, key: &str, scale: f64) -> Option<Distribution> {
    nested(f, key, |inner| distribution_of(inner, scale)).flatten()
}

/// Like [`distribution`], for the object `f` itself.
pub(crate) fn distribution_of(f: &mut Fields<'_>, scale: f64) -> Option<Distribution> {
    let mut d = Distribution::default();
    let obj = f.obj;
    for stat in obj.keys() {
        if matches!(stat.as_str(), "unit" | "count" | "tag" | "header") {
            continue;
        }
        if !is_stat_name(stat) {
            continue;
        }
        // Latencies, lengths and rates: none is below 0.
        if let Some(v) = f.non_negative(stat) {
            set_stat(&mut d, stat, v * scale);
        }
    }
    (!d.is_empty()).then_some(d)
}

/// True for the statistic names [`set_stat`] understands.
fn is_stat_name(stat: &str) -> bool {
    matches!(
        stat,
        "mean" | "avg" | "median" | "std" | "stddev" | "min" | "max"
    ) || percentile_rank(stat).is_some()
}

/// The configuration names users add as `--metadata` pairs (or a `meta` map), the same keys the
/// vLLM importer reads: `framework`/`engine`, `label`, `hardware`/`gpu` and `dataset`.
pub(crate) fn metadata_identity(f: &mut Fields<'_>) -> ConfigIdentity {
    ConfigIdentity {
        model: None,
        engine: f.string("framework").or_else(|| f.string("engine")),
        label: f.string("label"),
        hardware: f.string("hardware").or_else(|| f.string("gpu")),
        dataset: f.string("dataset"),
        settings: Default::default(),
    }
}

/// A non-negative whole number read with [`Fields::number`] semantics but from a value that
/// another tool wrote as a float (`480.0`), as GenAI-Perf's `request_count.avg` is.
pub(crate) fn whole(f: &mut Fields<'_>, key: &str, value: f64) -> Option<u64> {
    if value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= 9.0e15 {
        Some(value as u64)
    } else {
        f.error_at(
            key,
            format!("expected a whole number of at least 0, found {value}"),
        );
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Location, Stat};

    #[test]
    fn statistics_objects_are_scaled_and_bad_values_located() {
        let v: Value = serde_json::json!({
            "unit": "s", "avg": 0.5, "p99": "0.9", "std": "NaN", "min": null,
            "max": "slow", "p60": 0.6, "count": 3
        });
        let obj = v.as_object().unwrap();
        let mut f = Fields::new(obj, "x.json", Location::json("ttft"));
        let d = distribution_of(&mut f, 1000.0).unwrap();
        assert_eq!(d.mean, Some(500.0));
        assert_eq!(d.get(Stat::P(99.0)), Some(900.0));
        assert_eq!(d.get(Stat::P(60.0)), Some(600.0));
        assert_eq!(d.std, None);
        assert_eq!(d.min, None);
        assert_eq!(d.max, None);
        let [p] = f.problems.as_slice() else {
            panic!("{:?}", f.problems)
        };
        assert_eq!(
            p.to_string(),
            "x.json#ttft.max: error: expected a number, found the string \"slow\""
        );
    }

    #[test]
    fn time_units() {
        assert_eq!(ms_per("ms"), Some(1.0));
        assert_eq!(ms_per("sec"), Some(1000.0));
        assert_eq!(ms_per("ns"), Some(1e-6));
        assert_eq!(ms_per("tokens/sec"), None);
    }
}
