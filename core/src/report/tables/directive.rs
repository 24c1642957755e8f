//! A ```` ```table ```` block as read: its directive, the rows of an SLA table and of a
//! summary, and the keys it may have.

use serde::Deserialize;

use crate::report::load::LoadText;

/// The keys a table block may have, for error messages.
pub(super) const KEYS: &str =
    "kind, title, caption, metrics, metric, load, loads, configs, decimals, use_cases, workload, target";

/// A ```` ```table ```` block.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TableDirective {
    pub(super) kind: String,
    #[serde(default)]
    pub(super) title: Option<String>,
    #[serde(default)]
    pub(super) caption: Option<String>,
    #[serde(default)]
    pub(super) metrics: Option<Vec<MetricEntry>>,
    #[serde(default)]
    pub(super) metric: Option<String>,
    #[serde(default)]
    pub(super) load: Option<LoadText>,
    #[serde(default)]
    pub(super) loads: Option<Vec<f64>>,
    #[serde(default)]
    pub(super) configs: Option<Vec<String>>,
    #[serde(default)]
    pub(super) decimals: Option<usize>,
    #[serde(default)]
    pub(super) use_cases: Option<Vec<UseCase>>,
    /// Head-to-head: columns of each row's run figures after its load (`requests`,
    /// `completed`).
    #[serde(default)]
    pub(super) workload: Option<Vec<String>>,
    /// Scorecard: the target every configuration is read at.
    #[serde(default)]
    pub(super) target: Option<TargetSpec>,
}

/// A scorecard's target as written: `{metric: interactivity, min: 50}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TargetSpec {
    pub(super) metric: String,
    /// A floor (throughputs, interactivity).
    #[serde(default)]
    pub(super) min: Option<f64>,
    /// A ceiling (latencies, costs).
    #[serde(default)]
    pub(super) max: Option<f64>,
}

/// A row of an SLA table: a named target on one quantity.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct UseCase {
    pub(super) name: String,
    pub(super) metric: String,
    /// The largest acceptable value (latencies).
    #[serde(default)]
    pub(super) max: Option<f64>,
    /// The smallest acceptable value (throughputs, success rates).
    #[serde(default)]
    pub(super) min: Option<f64>,
}

/// A summary row: a quantity, or a quantity with its own load or aggregate.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub(super) enum MetricEntry {
    Name(String),
    Detailed {
        metric: String,
        #[serde(default)]
        load: Option<LoadText>,
        #[serde(default)]
        take: Option<String>,
        #[serde(default)]
        label: Option<String>,
    },
}
