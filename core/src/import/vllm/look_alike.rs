//! Files shaped like `vllm bench serve`'s result whose latency keys carry no unit (`mean_ttft`,
//! not `mean_ttft_ms`), as scripts that copy vLLM's names write them, often in seconds. The
//! unit is decided by the values, and a warning names the guess and why.

use serde_json::{Map, Value};

use super::keys::{bare_latency_key, latency_key};
use crate::model::Metric;

/// vLLM's count and throughput keys, one of which a look-alike must have besides latencies.
const RESULT_KEYS: [&str; 6] = [
    "completed",
    "request_throughput",
    "output_throughput",
    "total_token_throughput",
    "backend",
    "date",
];

/// True for an object with at least two unit-less latency keys, no `_ms` one, and one of
/// vLLM's count or throughput keys.
pub(super) fn is_look_alike(obj: &Map<String, Value>) -> bool {
    let bare = obj.keys().filter(|k| bare_latency_key(k).is_some()).count();
    bare >= 2
        && !obj.keys().any(|k| latency_key(k).is_some())
        && RESULT_KEYS.iter().any(|k| obj.contains_key(*k))
}

/// A time per output token under this many of the file's units is not plausible in ms.
const LEAST_TPOT_MS: f64 = 1.0;
/// An end-to-end latency under this is not plausible in ms for a request that generated text.
const LEAST_E2E_MS: f64 = 50.0;
/// A TTFT under this is not plausible in ms over HTTP.
const LEAST_TTFT_MS: f64 = 5.0;

/// The factor from the look-alike's unit to ms, and the warning that says why.
pub(super) fn unit(obj: &Map<String, Value>) -> (f64, String) {
    let typical = |metric: Metric| {
        ["median", "mean", "p50"].iter().find_map(|stat| {
            obj.iter()
                .find(|(k, _)| bare_latency_key(k) == Some((stat, metric)))
                .and_then(|(k, v)| Some((k.as_str(), v.as_f64()?)))
                // A TPOT of 0 (one-token answers) tells no unit.
                .filter(|(_, v)| *v > 0.0)
        })
    };
    let clues = [
        (Metric::Tpot, LEAST_TPOT_MS),
        (Metric::Itl, LEAST_TPOT_MS),
        (Metric::E2e, LEAST_E2E_MS),
        (Metric::Ttft, LEAST_TTFT_MS),
    ];
    let clue = clues
        .iter()
        .find_map(|&(metric, least)| typical(metric).map(|(key, v)| (key, v, least)));
    let no_unit = "the latency keys carry no unit (`vllm bench serve` writes `mean_ttft_ms`)";
    match clue {
        Some((key, value, least)) if value < least => (
            1000.0,
            format!(
                "{no_unit}; read as seconds, since `{key}` is {value}, under the {least} ms \
                 that no served model goes below; name the unit in the keys to be sure"
            ),
        ),
        Some((key, value, least)) => (
            1.0,
            format!(
                "{no_unit}; read as milliseconds, since `{key}` is {value}, at least the \
                 {least} ms a value in ms would be; name the unit in the keys to be sure"
            ),
        ),
        None => (
            1.0,
            format!("{no_unit}; read as milliseconds, as no value tells; name the unit in the keys to be sure"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(text: &str) -> Map<String, Value> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn a_tpot_under_a_millisecond_says_seconds() {
        let obj = object(r#"{"completed": 5, "mean_ttft": 0.08, "median_tpot": 0.015}"#);
        assert!(is_look_alike(&obj));
        let (factor, why) = unit(&obj);
        assert_eq!(factor, 1000.0);
        assert!(
            why.contains("read as seconds, since `median_tpot` is 0.015"),
            "{why}"
        );
    }

    #[test]
    fn a_zero_tells_nothing() {
        let obj = object(r#"{"completed": 5, "mean_ttft": 80.0, "median_tpot": 0.0}"#);
        assert_eq!(unit(&obj).0, 1.0);
    }

    #[test]
    fn a_tpot_of_milliseconds_says_milliseconds() {
        let obj = object(r#"{"completed": 5, "mean_ttft": 80.0, "median_tpot": 15.0}"#);
        assert_eq!(unit(&obj).0, 1.0);
    }

    #[test]
    fn without_a_per_token_latency_the_end_to_end_tells() {
        let obj = object(r#"{"completed": 5, "mean_ttft": 40.0, "mean_e2el": 2.1}"#);
        assert_eq!(unit(&obj).0, 1000.0);
    }

    #[test]
    fn units_in_the_keys_or_no_result_keys_are_no_look_alike() {
        let named =
            object(r#"{"completed": 5, "mean_ttft_ms": 8.0, "mean_tpot": 0.01, "mean_itl": 1}"#);
        assert!(!is_look_alike(&named));
        let bare = object(r#"{"mean_ttft": 0.08, "median_tpot": 0.015}"#);
        assert!(!is_look_alike(&bare));
    }
}
