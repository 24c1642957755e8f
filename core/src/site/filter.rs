//! Filtering a report's configurations by engine, model and hardware: what the page offers
//! ([`FilterSheet`], built by `report/filters.rs`), and which configurations a reader's choice
//! leaves out ([`FilterSheet::hidden`]). The app hides their series on every chart and their
//! columns in every table at once.

use serde::{Deserialize, Serialize};

/// What a value is called when a configuration's files do not state it.
pub const NOT_STATED: &str = "not stated";

/// The facets a report's configurations can be filtered by, and each configuration's values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FilterSheet {
    /// The facets with two or more values among the configurations (`Engine`, `Model`,
    /// `Hardware`), in that order.
    pub facets: Vec<Facet>,
    /// Each configuration of the page, in the report's order.
    pub configs: Vec<FilteredConfig>,
}

/// One facet and its values, in order of first appearance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Facet {
    /// Its name as the page shows it: `Engine`.
    pub name: String,
    /// Its address key: `engine`.
    pub key: String,
    /// The values the configurations have ([`NOT_STATED`] for none).
    pub values: Vec<String>,
}

/// A configuration and its value of each facet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FilteredConfig {
    /// Its name on charts and tables (series names, column headers).
    pub label: String,
    /// Its value of each facet, in [`FilterSheet::facets`] order.
    pub values: Vec<String>,
}

/// A facet's turned-off values are joined with this in the address (`?hide.engine=a|b`).
pub const ADDRESS_SEPARATOR: char = '|';

impl Facet {
    /// The address key of its turned-off values: `hide.engine`.
    pub fn address_key(&self) -> String {
        format!("hide.{}", self.key)
    }

    /// The values a reader's address (`text`, the value of [`Facet::address_key`]) turns off:
    /// only values the facet has, each once, in the facet's order; anything else is ignored.
    pub fn excluded_from_address(&self, text: &str) -> Vec<String> {
        let named: Vec<&str> = text.split(ADDRESS_SEPARATOR).collect();
        self.values
            .iter()
            .filter(|value| named.contains(&value.as_str()))
            .cloned()
            .collect()
    }
}

impl FilterSheet {
    /// The labels of the configurations that `excluded` (per facet, in order: the values the
    /// reader turned off) leaves out: those with an excluded value of any facet.
    pub fn hidden(&self, excluded: &[Vec<String>]) -> Vec<String> {
        self.configs
            .iter()
            .filter(|c| {
                c.values
                    .iter()
                    .zip(excluded)
                    .any(|(value, off)| off.contains(value))
            })
            .map(|c| c.label.clone())
            .collect()
    }

    /// How many configurations of `value` of facet `facet` there are.
    pub fn count(&self, facet: usize, value: &str) -> usize {
        self.configs
            .iter()
            .filter(|c| c.values.get(facet).is_some_and(|v| v == value))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet() -> FilterSheet {
        let config = |label: &str, engine: &str, model: &str| FilteredConfig {
            label: label.into(),
            values: vec![engine.into(), model.into()],
        };
        FilterSheet {
            facets: vec![
                Facet {
                    name: "Engine".into(),
                    key: "engine".into(),
                    values: vec!["vllm".into(), "sglang".into()],
                },
                Facet {
                    name: "Model".into(),
                    key: "model".into(),
                    values: vec!["llama".into(), "qwen".into(), NOT_STATED.into()],
                },
            ],
            configs: vec![
                config("A", "vllm", "llama"),
                config("B", "sglang", "llama"),
                config("C", "vllm", "qwen"),
                config("D", "sglang", NOT_STATED),
            ],
        }
    }

    #[test]
    fn a_configuration_with_any_value_turned_off_is_left_out() {
        let s = sheet();
        assert_eq!(s.hidden(&[vec![], vec![]]), Vec::<String>::new());
        assert_eq!(s.hidden(&[vec!["sglang".into()], vec![]]), ["B", "D"]);
        assert_eq!(
            s.hidden(&[vec!["sglang".into()], vec!["qwen".into()]]),
            ["B", "C", "D"]
        );
        assert_eq!(s.hidden(&[vec![], vec![NOT_STATED.into()]]), ["D"]);
        assert_eq!((s.count(0, "vllm"), s.count(1, "llama")), (2, 2));
    }

    #[test]
    fn an_address_turns_off_only_values_the_facet_has() {
        let model = &sheet().facets[1];
        assert_eq!(model.address_key(), "hide.model");
        assert_eq!(
            model.excluded_from_address("qwen|nope|llama|qwen|"),
            ["llama", "qwen"]
        );
        assert_eq!(model.excluded_from_address(""), Vec::<String>::new());
    }
}
