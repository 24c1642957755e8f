//! A load point as a report writes it (`10`, `inf`, `10 req/s`, `concurrency 16`) and how it
//! matches a run's load: shared by chart, table, inline-value and decision blocks.

use crate::model::LoadTarget;

/// Which kind of sweep a load belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LoadKind {
    Concurrency,
    Rate,
}

impl LoadKind {
    /// `rate` or `concurrency` as written in an expression.
    pub(super) fn parse(word: &str) -> Option<LoadKind> {
        match word.trim().to_ascii_lowercase().as_str() {
            "rate" | "rps" | "req/s" => Some(LoadKind::Rate),
            "concurrency" => Some(LoadKind::Concurrency),
            _ => None,
        }
    }

    pub(super) fn of(target: &LoadTarget) -> Option<LoadKind> {
        match target {
            LoadTarget::Concurrency(_) => Some(LoadKind::Concurrency),
            LoadTarget::RequestRate(_) => Some(LoadKind::Rate),
            _ => None,
        }
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            LoadKind::Concurrency => "concurrency",
            LoadKind::Rate => "request-rate",
        }
    }
}

/// A load as written in a chart or table block: `10`, or text such as `inf`, `10 req/s` or
/// `concurrency 16`.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[serde(untagged)]
pub(super) enum LoadText {
    Number(f64),
    Text(String),
}

impl LoadText {
    /// The load and, when written, its kind.
    pub(super) fn parse(&self) -> Result<(f64, Option<LoadKind>), String> {
        match self {
            LoadText::Number(v) => Ok((*v, None)),
            LoadText::Text(t) => parse_load(t),
        }
    }

    /// True when `target` is this load (and of its kind, when one was written).
    pub(super) fn matches(&self, target: &LoadTarget) -> Result<bool, String> {
        let (value, kind) = self.parse()?;
        Ok(target.value().is_some_and(|v| same(v, value))
            && (kind.is_none() || LoadKind::of(target) == kind))
    }
}

/// A load as written: `10`, `0.5`, `inf`, or with its kind: `10 req/s`, `concurrency 16`.
pub(super) fn parse_load(text: &str) -> Result<(f64, Option<LoadKind>), String> {
    let lower = text.trim().to_ascii_lowercase();
    let (number, kind) = if let Some(n) = lower.strip_prefix("concurrency") {
        (n.trim(), Some(LoadKind::Concurrency))
    } else if let Some(n) = lower
        .strip_suffix("req/s")
        .or_else(|| lower.strip_suffix("rps"))
    {
        (n.trim(), Some(LoadKind::Rate))
    } else {
        (lower.as_str(), None)
    };
    let value = match number {
        "inf" | "infinity" | "∞" => f64::INFINITY,
        other => other.parse().map_err(|_| {
            format!(
                "`{text}` is not a load point; expected a number, `inf`, `10 req/s` or \
                 `concurrency 16`"
            )
        })?,
    };
    Ok((value, kind))
}

/// Two loads are the same point (`inf` only equals `inf`).
pub(super) fn same(a: f64, b: f64) -> bool {
    (a.is_infinite() && b.is_infinite() && a.signum() == b.signum())
        || (a - b).abs() <= 1e-9 * a.abs().max(1.0)
}

/// Sort key of a load point; loads without a value last.
pub(super) fn load_order(load: &LoadTarget) -> f64 {
    load.value().unwrap_or(f64::MAX)
}

/// The label of a load point on a category axis: `10`, `∞`.
pub(super) fn load_label(load: &LoadTarget) -> String {
    match load {
        LoadTarget::RequestRate(crate::model::Rate::Infinite) => "∞".to_string(),
        other => other
            .value()
            .map_or_else(|| other.to_string(), crate::format::number),
    }
}
