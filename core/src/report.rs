//! A report: Markdown with front matter and directives, built into a [`ReportPage`].
//!
//! Front matter (YAML between `---` lines) names the title, date, authors, summary, the result
//! files the report draws on (globs relative to `results/`) and how configurations are labelled.
//! Directive blocks (```` ```chart ````) are replaced by charts computed from those files. Any
//! directive naming data that does not exist is an error at its line.

use std::collections::BTreeMap;

use gray_matter::engine::{Engine, YAML};
use serde::Deserialize;

use crate::chart::{Axis, ChartKind, ChartSpec, Point, Series};
use crate::import::ImportedFile;
use crate::markdown::{self, Segment};
use crate::model::{LoadTarget, Location, Rate, Run};
use crate::problem::Problem;
use crate::quantity::Quantity;
use crate::site::{Block, ReportPage, ReportSummary};

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
    /// Palette slot 0 to 7, to override the site-wide colour.
    #[serde(default)]
    pub color: Option<usize>,
}

/// A ```` ```chart ```` block.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChartDirective {
    /// Identifier; defaults to `chart-<n>`.
    #[serde(default)]
    id: Option<String>,
    /// Title; defaults to the quantity's name by load.
    #[serde(default)]
    title: Option<String>,
    /// Sentence under the chart.
    #[serde(default)]
    caption: Option<String>,
    /// `bars` (grouped by load point).
    #[serde(default = "default_kind")]
    kind: String,
    /// Metric name, see [`Quantity::parse`].
    metric: String,
    /// Statistic for latency metrics (`mean`, `median`, `p99`...).
    #[serde(default)]
    stat: Option<String>,
    /// Configuration keys to include, in order; all of the report's when absent.
    #[serde(default)]
    configs: Option<Vec<String>>,
}

fn default_kind() -> String {
    "bars".to_string()
}

/// Colours assigned site-wide: configuration key to palette slot.
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
    let pod = YAML::parse(&yaml).map_err(|e| {
        Problem::error(
            file,
            Location::line(2),
            format!("front matter is not valid YAML: {e}"),
        )
    })?;
    let front: FrontMatter = pod.deserialize().map_err(|e| {
        Problem::error(
            file,
            Location::line(2),
            format!(
                "front matter: {e}; expected keys title, date, authors, summary, results, configs"
            ),
        )
    })?;
    Ok((front, body, close + 3))
}

/// Builds one report page. Problems that make the page wrong (a directive naming missing data,
/// a glob matching nothing) are errors; the page is still built so they can be shown on it.
pub fn build_report(
    file: &str,
    slug: &str,
    text: &str,
    results: &[ImportedFile],
    palette: &Palette,
) -> ReportPage {
    let (front, body, first_line) = match parse_front_matter(file, text) {
        Ok(parts) => parts,
        Err(problem) => {
            return ReportPage {
                summary: ReportSummary {
                    slug: slug.to_string(),
                    title: slug.to_string(),
                    date: None,
                    authors: Vec::new(),
                    summary: String::new(),
                    charts: 0,
                    runs: 0,
                },
                blocks: Vec::new(),
                sources: Vec::new(),
                problems: vec![problem],
            }
        }
    };
    let mut problems = Vec::new();
    let selected = select_results(file, &front, results, &mut problems);
    let runs: Vec<&Run> = selected.iter().flat_map(|f| f.runs.iter()).collect();
    for imported in &selected {
        problems.extend(imported.all_problems().cloned());
    }

    let context = Context {
        file,
        front: &front,
        runs: &runs,
        palette,
    };
    let rendered = markdown::render(&body, first_line);
    let mut blocks = Vec::new();
    let mut chart_count = 0;
    let mut chart_ids: Vec<String> = Vec::new();
    for segment in rendered.segments {
        match segment {
            Segment::Html(html) => blocks.push(Block::Html { html }),
            Segment::Directive { name, body, line } => {
                debug_assert_eq!(name, "chart");
                chart_count += 1;
                match context.chart(&body, line, chart_count) {
                    Ok(chart) if chart_ids.contains(&chart.id) => problems.push(Problem::error(
                        file,
                        Location::line(line as u64),
                        format!(
                            "chart block: another chart of this report already has the id `{}`; \
                             ids name the chart's files and links, so they must differ",
                            chart.id
                        ),
                    )),
                    Ok(chart) => {
                        chart_ids.push(chart.id.clone());
                        blocks.push(Block::Chart { chart });
                    }
                    Err(problem) => problems.push(problem),
                }
            }
        }
    }
    let charts = blocks
        .iter()
        .filter(|b| matches!(b, Block::Chart { .. }))
        .count();
    ReportPage {
        summary: ReportSummary {
            slug: slug.to_string(),
            title: front.title.clone(),
            date: front.date.clone(),
            authors: front.authors.clone(),
            summary: markdown::plain_text(&front.summary),
            charts,
            runs: runs.len(),
        },
        blocks,
        sources: selected.iter().map(|f| f.file.clone()).collect(),
        problems,
    }
}

fn select_results<'a>(
    file: &str,
    front: &FrontMatter,
    results: &'a [ImportedFile],
    problems: &mut Vec<Problem>,
) -> Vec<&'a ImportedFile> {
    let mut selected: Vec<&ImportedFile> = Vec::new();
    for pattern in &front.results {
        let glob = match globset::Glob::new(pattern) {
            Ok(g) => g.compile_matcher(),
            Err(e) => {
                problems.push(Problem::error(
                    file,
                    Location::line(2),
                    format!("front matter `results`: `{pattern}` is not a valid glob: {e}"),
                ));
                continue;
            }
        };
        let before = selected.len();
        for imported in results.iter().filter(|r| glob.is_match(&r.file)) {
            if !selected.iter().any(|s| s.file == imported.file) {
                selected.push(imported);
            }
        }
        if selected.len() == before {
            problems.push(Problem::error(
                file,
                Location::line(2),
                format!("front matter `results`: `{pattern}` matches no file in results/"),
            ));
        }
    }
    selected
}

struct Context<'a> {
    file: &'a str,
    front: &'a FrontMatter,
    runs: &'a [&'a Run],
    palette: &'a Palette,
}

impl Context<'_> {
    fn chart(&self, body: &str, line: usize, n: usize) -> Result<ChartSpec, Problem> {
        let at = Location::line(line as u64);
        let error = |message: String| Problem::error(self.file, at.clone(), message);
        let pod =
            YAML::parse(body).map_err(|e| error(format!("chart block is not valid YAML: {e}")))?;
        let directive: ChartDirective = pod.deserialize().map_err(|e| {
            error(format!(
                "chart block: {e}; expected keys id, title, caption, kind, metric, stat, configs"
            ))
        })?;
        let quantity = Quantity::parse(&directive.metric, directive.stat.as_deref())
            .map_err(|e| error(format!("chart block: {e}")))?;
        if directive.kind != "bars" {
            return Err(error(format!(
                "chart block: unknown kind `{}`; expected `bars`",
                directive.kind
            )));
        }
        let keys = self
            .config_keys(directive.configs.as_deref())
            .map_err(|e| error(format!("chart block: {e}")))?;
        let id = directive.id.unwrap_or_else(|| format!("chart-{n}"));
        if !crate::site::is_valid_chart_id(&id) {
            return Err(error(format!(
                "chart block: id `{id}` cannot be a file name; expected letters, digits, `-` and `_` (at most 64)"
            )));
        }
        let spec = self.bars_by_load(&id, quantity, &keys);
        if spec
            .series
            .iter()
            .all(|s| s.points.iter().all(|p| p.y.is_none()))
        {
            return Err(error(format!(
                "chart `{id}`: no run of {} reports {quantity}",
                keys.join(", ")
            )));
        }
        Ok(ChartSpec {
            title: directive.title.unwrap_or(spec.title),
            caption: directive.caption.unwrap_or(spec.caption),
            ..spec
        })
    }

    /// The configuration keys to plot: the directive's, checked, or every key in the report's
    /// runs, in front matter order first.
    fn config_keys(&self, wanted: Option<&[String]>) -> Result<Vec<String>, String> {
        let mut present: Vec<String> = Vec::new();
        for run in self.runs {
            let key = run.config.key();
            if !present.contains(&key) {
                present.push(key);
            }
        }
        match wanted {
            Some(wanted) => {
                for key in wanted {
                    if !present.contains(key) {
                        return Err(format!(
                            "configuration `{key}` is not in this report's results; found {}",
                            present.join(", ")
                        ));
                    }
                }
                Ok(wanted.to_vec())
            }
            None => {
                let mut ordered: Vec<String> = self
                    .front
                    .configs
                    .iter()
                    .map(|c| c.key.clone())
                    .filter(|k| present.contains(k))
                    .collect();
                for key in present {
                    if !ordered.contains(&key) {
                        ordered.push(key);
                    }
                }
                Ok(ordered)
            }
        }
    }

    fn display(&self, key: &str) -> (String, usize) {
        let shown = self.front.configs.iter().find(|c| c.key == key);
        let label = shown
            .and_then(|c| c.label.clone())
            .unwrap_or_else(|| key.to_string());
        let slot = shown
            .and_then(|c| c.color)
            .or_else(|| self.palette.get(key).copied())
            .unwrap_or(0);
        (label, slot)
    }

    /// Grouped bars: one group per load point, one bar per configuration.
    fn bars_by_load(&self, id: &str, quantity: Quantity, keys: &[String]) -> ChartSpec {
        let runs: Vec<&Run> = self
            .runs
            .iter()
            .copied()
            .filter(|r| keys.contains(&r.config.key()))
            .collect();
        let mut loads: Vec<LoadTarget> = Vec::new();
        for run in &runs {
            if !loads.contains(&run.load.target) {
                loads.push(run.load.target);
            }
        }
        loads.sort_by(|a, b| {
            a.value()
                .unwrap_or(f64::NAN)
                .total_cmp(&b.value().unwrap_or(f64::NAN))
        });
        let axis = loads.first().map(|l| l.axis());
        let categories: Vec<String> = loads.iter().map(load_label).collect();
        let series = keys
            .iter()
            .map(|key| {
                let (name, color) = self.display(key);
                let points = loads
                    .iter()
                    .enumerate()
                    .filter_map(|(i, load)| {
                        let run = runs
                            .iter()
                            .find(|r| &r.config.key() == key && r.load.target == *load)?;
                        let y = quantity.of(run);
                        let note = match (y, run.all_failed()) {
                            (None, true) => "every request failed".to_string(),
                            (None, false) => format!("{quantity} not reported"),
                            _ => String::new(),
                        };
                        Some(Point {
                            x: i as f64,
                            y,
                            source: run.provenance.to_string(),
                            note,
                            ..Point::default()
                        })
                    })
                    .collect();
                Series {
                    name,
                    color,
                    points,
                }
            })
            .collect();
        let x_title = axis.map_or("Load", |a| a.title());
        ChartSpec {
            id: id.to_string(),
            title: format!("{quantity} by load"),
            caption: format!(
                "{quantity} ({}) at each load point, by configuration.",
                quantity.unit()
            ),
            kind: ChartKind::GroupedBars { categories },
            x: Axis {
                title: x_title.to_string(),
                unit: String::new(),
                ..Axis::default()
            },
            y: Axis {
                title: quantity.to_string(),
                unit: quantity.unit().to_string(),
                ..Axis::default()
            },
            series,
            annotations: Vec::new(),
        }
    }
}

/// The label of a load point on a category axis: `10`, `∞`, `c=16`.
fn load_label(load: &LoadTarget) -> String {
    match load {
        LoadTarget::RequestRate(Rate::Infinite) => "∞".to_string(),
        other => other
            .value()
            .map_or_else(|| other.to_string(), crate::format::number),
    }
}

#[cfg(test)]
mod tests;
