//! The load point a GuideLLM scheduling strategy names (`{"type_": "concurrent", "streams": 4}`),
//! and what is wrong with the strategy, for the report and the CSV alike.

use serde_json::{Map, Value};

use crate::model::{LoadPoint, LoadTarget, Rate};
use crate::number::{describe_json, json_number, Reading};
use crate::problem::Severity;

/// Something wrong with a strategy object, relative to it (`key` is the field, if one).
pub(super) struct StrategyIssue {
    pub severity: Severity,
    pub key: Option<&'static str>,
    pub message: String,
}

/// The load point a GuideLLM scheduling strategy (`{"type_": "concurrent", "streams": 4}`)
/// names, and what is wrong with it. When the load value cannot be read the target is
/// [`LoadTarget::MaxThroughput`] (no load value) and an issue says why.
pub(super) fn load_point(strategy: &Map<String, Value>) -> (LoadPoint, Vec<StrategyIssue>) {
    let mut issues = Vec::new();
    let mut issue = |severity, key, message: String| {
        issues.push(StrategyIssue {
            severity,
            key,
            message,
        });
    };
    let no_value = (LoadTarget::MaxThroughput, None);
    let kind = strategy.get("type_");
    let (target, max_concurrency) = match kind.and_then(Value::as_str) {
        Some("synchronous") => (LoadTarget::Sequential, None),
        Some("throughput") => (LoadTarget::MaxThroughput, cap(strategy, &mut issue)),
        Some("concurrent") => match positive(strategy.get("streams")) {
            Ok(n) => (LoadTarget::Concurrency(n), None),
            Err(found) => {
                issue(
                    Severity::Error,
                    Some("streams"),
                    format!(
                        "expected a positive number of concurrent streams, found {found}; the \
                         run has no load value"
                    ),
                );
                no_value
            }
        },
        Some("constant" | "poisson") => match positive(strategy.get("rate")) {
            Ok(r) => (
                LoadTarget::RequestRate(Rate::PerSecond(r)),
                cap(strategy, &mut issue),
            ),
            Err(found) => {
                issue(
                    Severity::Error,
                    Some("rate"),
                    format!(
                        "expected a positive request rate (requests per second), found {found}; \
                         the run has no load value"
                    ),
                );
                no_value
            }
        },
        Some("trace") => {
            issue(
                Severity::Warning,
                Some("type_"),
                "a `trace` strategy replays the arrival times of a trace; the run has no load \
                 value of its own (its measured rate and concurrency are kept)"
                    .to_string(),
            );
            no_value
        }
        Some(other) => {
            issue(
                Severity::Warning,
                Some("type_"),
                format!(
                    "strategy `{other}` is not one of synchronous, concurrent, throughput, \
                     constant, poisson or trace; the run has no load value"
                ),
            );
            no_value
        }
        None => {
            let found = kind.map_or_else(|| "nothing".to_string(), describe_json);
            issue(
                Severity::Error,
                Some("type_"),
                format!(
                    "expected the strategy type (synchronous, concurrent, throughput, constant, \
                     poisson), found {found}; the run has no load value"
                ),
            );
            no_value
        }
    };
    (
        LoadPoint {
            target,
            max_concurrency,
            achieved_rps: None,
            achieved_concurrency: None,
        },
        issues,
    )
}

/// The strategy's `max_concurrency` cap, if it has one.
fn cap(
    strategy: &Map<String, Value>,
    issue: &mut impl FnMut(Severity, Option<&'static str>, String),
) -> Option<u32> {
    let value = strategy.get("max_concurrency")?;
    match json_number(value) {
        Reading::Value(c) if c >= 1.0 && c.fract() == 0.0 && c <= f64::from(u32::MAX) => {
            Some(c as u32)
        }
        Reading::Missing => None,
        _ => {
            issue(
                Severity::Error,
                Some("max_concurrency"),
                format!(
                    "expected a whole number of at least 1, found {}",
                    describe_json(value)
                ),
            );
            None
        }
    }
}

/// A positive finite number, or a description of what was found instead.
fn positive(value: Option<&Value>) -> Result<f64, String> {
    let Some(value) = value else {
        return Err("nothing".to_string());
    };
    match json_number(value) {
        Reading::Value(v) if v.is_finite() && v > 0.0 => Ok(v),
        Reading::Value(v) => Err(v.to_string()),
        _ => Err(describe_json(value)),
    }
}
