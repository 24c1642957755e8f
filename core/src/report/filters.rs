//! What a report's configurations can be filtered by (`site::FilterSheet`): their engine,
//! model and hardware as the result files state them, offered when the page shows at least
//! [`MIN_CONFIGS`] configurations and some facet tells them apart.

use super::context::ReportContext;
use crate::model::ConfigIdentity;
use crate::site::filter::{Facet, FilterSheet, FilteredConfig, NOT_STATED};

/// Fewer configurations than this are read at a glance: no filter.
pub const MIN_CONFIGS: usize = 4;

/// How a facet is read from a configuration.
type Read = fn(&ConfigIdentity) -> Option<&String>;

/// Each facet: its name, its address key and how to read it from a configuration.
const FACETS: [(&str, &str, Read); 3] = [
    ("Engine", "engine", |c| c.engine.as_ref()),
    ("Model", "model", |c| c.model.as_ref()),
    ("Hardware", "hardware", |c| c.hardware.as_ref()),
];

/// The page's filter, or `None` when it has too few configurations or nothing to tell
/// them apart by.
pub(super) fn sheet(ctx: &ReportContext<'_>) -> Option<FilterSheet> {
    let keys = ctx.config_keys(None).ok()?;
    if keys.len() < MIN_CONFIGS {
        return None;
    }
    let identities: Vec<(String, &ConfigIdentity)> = keys
        .iter()
        .filter_map(|k| Some((ctx.display(k).0, &ctx.runs_of(k).first()?.config)))
        .collect();
    let mut facets = Vec::new();
    let mut columns: Vec<Vec<String>> = Vec::new();
    for (name, key, read) in FACETS {
        let column: Vec<String> = identities
            .iter()
            .map(|(_, id)| read(id).cloned().unwrap_or_else(|| NOT_STATED.to_string()))
            .collect();
        let mut values: Vec<String> = Vec::new();
        for v in &column {
            if !values.contains(v) {
                values.push(v.clone());
            }
        }
        if values.len() >= 2 {
            facets.push(Facet {
                name: name.to_string(),
                key: key.to_string(),
                values,
            });
            columns.push(column);
        }
    }
    if facets.is_empty() {
        return None;
    }
    let configs = identities
        .iter()
        .enumerate()
        .map(|(i, (label, _))| FilteredConfig {
            label: label.clone(),
            values: columns.iter().map(|c| c[i].clone()).collect(),
        })
        .collect();
    Some(FilterSheet { facets, configs })
}
