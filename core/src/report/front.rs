//! A report's front matter: the YAML between the `---` lines at its top, read into
//! [`FrontMatter`] (title, date, authors, summary, the result files it draws on, how each
//! configuration is shown and priced, the contents, the decision wizard's `decision:` block as
//! [`DecisionFront`]), and the palette that gives each configuration its colour.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::load::LoadKind;
use crate::decision::tree::Tree;
use crate::decision::Attribute;
use crate::model::{Location, Run};
use crate::problem::Problem;

/// The front matter of a report.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrontMatter {
    /// Title.
    pub title: String,
    /// Publication date, `YYYY-MM-DD`.
    #[serde(default)]
    pub date: Option<String>,
    /// Authors.
    #[serde(default)]
    pub authors: Vec<String>,
    /// One or two sentences for the home page and link previews.
    #[serde(default)]
    pub summary: String,
    /// Globs, relative to `results/`, of the result files the report uses.
    #[serde(default)]
    pub results: Vec<String>,
    /// How configurations are shown, in legend order.
    #[serde(default)]
    pub configs: Vec<ConfigDisplay>,
    /// Show a table of contents: `true`, `false`, or (when absent) only for reports with at
    /// least three sections.
    #[serde(default)]
    pub toc: Option<bool>,
    /// Number the sections (`1`, `1.1`…).
    #[serde(default)]
    pub number_sections: bool,
    /// The decision wizard's definition (read by `report/decision.rs`).
    #[serde(default)]
    pub decision: Option<DecisionFront>,
    /// Dates the author explains ("driver 550 → 560"): drawn on the report's trend charts and
    /// listed beside their changes.
    #[serde(default)]
    pub annotations: Vec<DateNote>,
}

/// A date a report's author explains.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DateNote {
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// What happened that day.
    pub text: String,
    /// The configurations it concerns; every one when absent.
    #[serde(default)]
    pub configs: Option<Vec<String>>,
}

impl DateNote {
    /// True when it concerns the configuration `key`.
    pub fn concerns(&self, key: &str) -> bool {
        self.configs
            .as_ref()
            .is_none_or(|keys| keys.iter().any(|k| k == key))
    }
}

/// How one configuration is shown.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigDisplay {
    /// The configuration's key (its label, engine or model in the result files).
    pub key: String,
    /// The name shown in legends and tables.
    #[serde(default)]
    pub label: Option<String>,
    /// Palette slot 0 to 11 (12 to 23: the same colours patterned), to override the colour the
    /// report would give it.
    #[serde(default)]
    pub color: Option<usize>,
    /// What it costs to run (`{gpu_hour: 1.10, gpus: 1}` or `{per_second: 0.000306}`): cost
    /// quantities (`cost_per_1m_output`...) and per-GPU throughput need it.
    #[serde(default)]
    pub price: Option<crate::cost::PriceFront>,
}

/// Colours: configuration key to palette slot (site-wide from `build`, then per report in
/// `report::colors`).
pub type Palette = BTreeMap<String, usize>;

/// Splits front matter from the body. Returns the front matter, the body and the 1-based line
/// on which the body starts.
pub fn parse_front_matter(file: &str, text: &str) -> Result<(FrontMatter, String, usize), Problem> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    if lines.first().map(|l| l.trim_end()) != Some("---") {
        return Err(Problem::error(
            file,
            Location::line(1),
            "expected front matter: a `---` line, YAML with at least `title:`, and a closing `---` line",
        ));
    }
    let Some(close) = lines.iter().skip(1).position(|l| l.trim_end() == "---") else {
        return Err(Problem::error(
            file,
            Location::line(1),
            "front matter is not closed; expected a `---` line after it",
        ));
    };
    let yaml = lines[1..=close].join("\n");
    let body = lines[close + 2..].join("\n");
    let pod = crate::yaml::Document::parse(&yaml, 2).map_err(|e| {
        Problem::error(
            file,
            e.location,
            format!("front matter is not valid YAML: {}", e.message),
        )
    })?;
    let front: FrontMatter = pod.deserialize().map_err(|e| {
        Problem::error(
            file,
            Location::line(2),
            format!(
                "front matter: {e}; expected keys title, date, authors, summary, results, configs, toc, number_sections, decision, annotations"
            ),
        )
    })?;
    if let Some(note) = front
        .annotations
        .iter()
        .find(|n| !crate::date::is_day(&n.date))
    {
        return Err(Problem::error(
            file,
            Location::line(2),
            format!(
                "front matter: `annotations`: date `{}` is not a day; expected YYYY-MM-DD, such \
                 as 2026-11-08",
                note.date
            ),
        ));
    }
    Ok((front, body, close + 3))
}

/// The `decision:` block.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecisionFront {
    #[serde(default)]
    pub(super) sweep: Option<String>,
    #[serde(default)]
    pub(super) load: Option<f64>,
    #[serde(default)]
    pub(super) slas: Vec<SlaFront>,
    #[serde(default)]
    pub(super) criteria: Vec<String>,
    #[serde(default)]
    pub(super) attributes: BTreeMap<String, BTreeMap<String, Attribute>>,
    #[serde(default)]
    pub(super) tree: Option<Tree>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SlaFront {
    pub(super) metric: String,
    #[serde(default)]
    pub(super) max: Option<f64>,
    #[serde(default)]
    pub(super) min: Option<f64>,
}

impl DecisionFront {
    /// The wizard of a report that defines none: every request successful as the one SLA, and
    /// the usual criteria, so any report's data can be compared.
    pub fn implicit() -> DecisionFront {
        DecisionFront {
            slas: vec![SlaFront {
                metric: "success_rate".into(),
                max: None,
                min: Some(99.0),
            }],
            criteria: [
                "ttft:p50",
                "ttft:p99",
                "output_throughput",
                "max_stable_load",
            ]
            .map(String::from)
            .to_vec(),
            ..DecisionFront::default()
        }
    }

    /// Whether it names the sweep its SLAs are checked along (an implicit one has none when
    /// the runs are offline batches only).
    pub fn has_sweep(&self) -> bool {
        self.sweep.is_some()
    }

    /// [`DecisionFront::implicit`] on the kind of sweep most of `runs` have (request rate on a
    /// tie), so that configurations measured both ways, or once without a load, still get the
    /// form; configurations without a run of that kind are left out of it.
    pub fn implicit_for(runs: &[&Run]) -> DecisionFront {
        let count = |kind: LoadKind| {
            runs.iter()
                .filter(|r| LoadKind::of(&r.load.target) == Some(kind))
                .count()
        };
        let sweep = match (count(LoadKind::Rate), count(LoadKind::Concurrency)) {
            (0, 0) => None,
            (rate, concurrency) if rate >= concurrency => Some("rate".to_string()),
            _ => Some("concurrency".to_string()),
        };
        DecisionFront {
            sweep,
            ..DecisionFront::implicit()
        }
    }
}
