//! The configuration a report names for every benchmark it holds, from its report-level
//! settings (also in the CSV's `Arguments` cell).

use serde_json::{Map, Value};

use super::object::{object_at, text};
use crate::model::ConfigIdentity;

/// Configuration names from the report-level settings shared by every benchmark: the model
/// (`config.spec.backend.model` in 0.7+, `args.model` before), `config.metadata.labels`, and a
/// single `args.data` string as the dataset. Used by the JSON/YAML report and by the CSV's
/// `Arguments` cell, which holds the same object.
pub(super) fn report_identity(
    config: Option<&Map<String, Value>>,
    args: Option<&Map<String, Value>>,
) -> ConfigIdentity {
    let mut id = ConfigIdentity::default();
    if let Some(config) = config {
        id.model = object_at(config, &["spec", "backend"]).and_then(|b| text(b, "model"));
        if let Some(labels) = object_at(config, &["metadata", "labels"]) {
            id.engine = text(labels, "framework").or_else(|| text(labels, "engine"));
            id.label = text(labels, "label");
            id.hardware = text(labels, "hardware").or_else(|| text(labels, "gpu"));
            id.dataset = text(labels, "dataset");
        }
    }
    if let Some(args) = args {
        id.model = id.model.or_else(|| text(args, "model"));
        if id.dataset.is_none() {
            id.dataset = match args.get("data") {
                Some(Value::String(s)) => Some(s.as_str()),
                Some(Value::Array(items)) if items.len() == 1 => {
                    items.first().and_then(Value::as_str)
                }
                _ => None,
            }
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from);
        }
    }
    id
}
