//! A report: Markdown with front matter and directives, built into a [`ReportPage`].
//!
//! Front matter (YAML between `---` lines) names the title, date, authors, summary, the result
//! files the report draws on (globs relative to `results/`) and how configurations are labelled.
//! Directive blocks are replaced by what they compute from those files: ```` ```chart ```` by
//! charts (`charts.rs`), ```` ```table ```` by summary and head-to-head tables (`tables.rs`), and
//! inline code starting with `=` by values (`values.rs`: `` `=value(ttft:p50, vllm, 10)` ``).
//! Any directive naming data that does not exist is an error at its line; a `claim` the data
//! contradicts is a warning.

use std::collections::BTreeMap;

use crate::import::ImportedFile;
use crate::markdown::{self, Heading, Segment};
use crate::model::{Location, Run};
use crate::problem::{Problem, Severity};
use crate::site::{Block, DecisionData, ReportPage, ReportSummary, TocEntry};

mod charts;
mod colors;
mod context;
mod decision;
mod differs;
pub mod draft;
mod filters;
mod flowchart;
mod front;
mod load;
pub mod local;
mod prices;
mod tables;
mod tiles;
mod values;
mod verdicts;

pub use front::{parse_front_matter, ConfigDisplay, FrontMatter, Palette};

/// Every configuration key of `runs`, once each.
fn config_keys(runs: &[&Run]) -> Vec<String> {
    let mut keys: Vec<String> = runs.iter().map(|r| r.config.key()).collect();
    keys.sort();
    keys.dedup();
    keys
}

/// An error for each two configurations of `keys` that the front matter gives one label
/// (`ReportContext::display`): a legend, the wizard and the price editor tell configurations
/// apart by it.
fn shared_labels(context: &context::ReportContext, keys: &[String]) -> Vec<Problem> {
    let mut first_with: BTreeMap<String, &str> = BTreeMap::new();
    let mut problems = Vec::new();
    for key in keys {
        let (label, _) = context.display(key);
        match first_with.get(&label) {
            Some(first) => problems.push(Problem::error(
                context.file,
                Location::line(2),
                format!(
                    "front matter: configurations `{first}` and `{key}` are both labelled \
                     `{label}`; give each its own `label:` (a chart's legend, the wizard and \
                     the price editor tell configurations apart by it)"
                ),
            )),
            None => {
                first_with.insert(label, key);
            }
        }
    }
    problems
}

/// A warning naming what differs between the workloads of the report's configurations where
/// they were measured at one load point: their numbers are then not a like-for-like comparison
/// (each chart and table that sets them side by side says so too).
fn workload_warning(file: &str, runs: &[&Run]) -> Option<Problem> {
    let differences = crate::model::differences::between_configurations(runs);
    let note = crate::model::differences::note(&differences)?;
    Some(Problem::warning(
        file,
        Location::line(1),
        format!("configurations compared at one load point differ in workload. {note}"),
    ))
}

/// The runs with the price their configuration's front matter states; a price that cannot be
/// read is an error naming the configuration, and its runs stay without one.
fn priced_runs<'a>(
    file: &str,
    front: &FrontMatter,
    runs: &[&'a Run],
    problems: &mut Vec<Problem>,
) -> Vec<std::borrow::Cow<'a, Run>> {
    let mut prices = BTreeMap::new();
    for config in &front.configs {
        let Some(stated) = &config.price else {
            continue;
        };
        match stated.price() {
            Ok(_) => {
                prices.insert(config.key.as_str(), stated);
            }
            Err(e) => problems.push(Problem::error(
                file,
                Location::line(2),
                format!(
                    "front matter: `price` of configuration `{}`: {e}",
                    config.key
                ),
            )),
        }
    }
    let mut charged = BTreeMap::new();
    for (key, stated) in &prices {
        let (gpus, others) =
            crate::cost::hardware_gpus(runs.iter().copied().filter(|r| r.config.key() == *key));
        if stated.gpus.is_none() && stated.gpu_hour.is_some() && !others.is_empty() {
            problems.push(Problem::warning(
                file,
                Location::line(2),
                format!(
                    "front matter: `price` of configuration `{key}` is per GPU-hour without \
                     `gpus`, and its runs name {} GPUs and also {}: every run is charged for {}; \
                     state `gpus` to say",
                    gpus.unwrap_or(1),
                    others
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(", "),
                    gpus.unwrap_or(1)
                ),
            ));
        }
        charged.insert(*key, stated.price_on(gpus).ok());
    }
    runs.iter()
        .map(|run| {
            let price = charged.get(run.config.key().as_str()).copied().flatten();
            match price {
                Some(price) => std::borrow::Cow::Owned(Run {
                    price: Some(price),
                    ..(*run).clone()
                }),
                None => std::borrow::Cow::Borrowed(*run),
            }
        })
        .collect()
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
        Err(problem) => return unreadable_page(slug, problem),
    };
    let mut problems = Vec::new();
    let selected = select_results(file, &front, results, &mut problems);
    let runs: Vec<&Run> = selected.iter().flat_map(|f| f.runs.iter()).collect();
    let priced = priced_runs(file, &front, &runs, &mut problems);
    // Repeats of one load point count once: combined, never one of them picked.
    let combined = crate::noise::combine(priced);
    let runs: Vec<&Run> = combined.iter().map(AsRef::as_ref).collect();
    for imported in &selected {
        problems.extend(imported.all_problems().cloned());
    }

    let keys = config_keys(&runs);
    let palette = colors::report_palette(&keys, &front.configs, palette);
    let context = context::ReportContext {
        file,
        front: &front,
        runs: &runs,
        palette: &palette,
    };
    problems.extend(shared_labels(&context, &keys));
    problems.extend(workload_warning(file, &runs));
    let mut inline_problems = Vec::new();
    let options = markdown::RenderOptions {
        number_sections: front.number_sections,
    };
    let rendered = markdown::render_with(&body, first_line, options, &mut |text, line| {
        let inline = values::inline(&context, text);
        if let Some((severity, message)) = inline.problem {
            let at = Location::line(line as u64);
            inline_problems.push(problem_of(severity, file, at, message));
        }
        inline.html
    });
    problems.extend(inline_problems);
    for (line, message) in &rendered.problems {
        problems.push(Problem::warning(
            file,
            Location::line(*line as u64),
            message,
        ));
    }
    let decision = page_decision(&context, text, &mut problems);
    let toc = table_of_contents(&front, &rendered.headings);
    let mut changes = Vec::new();
    let mut blocks = page_blocks(&context, rendered.segments, &mut problems, &mut changes);
    if let Some(html) = differs::section(&context) {
        blocks.push(Block::Html { html });
    }
    let prices = prices::sheet(&context, &blocks);
    let filters = filters::sheet(&context);
    let charts = blocks
        .iter()
        .map(|b| match b {
            Block::Chart { .. } => 1,
            Block::Grid { grid } => grid.panels.len(),
            Block::Html { .. } | Block::Flowchart { .. } => 0,
        })
        .sum();
    ReportPage {
        summary: ReportSummary {
            slug: slug.to_string(),
            title: front.title.clone(),
            date: front.date.clone(),
            authors: front.authors.clone(),
            summary: markdown::plain_text(&front.summary),
            charts,
            runs: runs
                .iter()
                .map(|r| r.repeats.as_ref().map_or(1, |x| x.count))
                .sum(),
            first_chart: blocks.iter().find_map(|b| match b {
                Block::Chart { chart } => Some(crate::site::ChartRef::of(chart)),
                Block::Grid { grid } => grid.panels.first().map(crate::site::ChartRef::of),
                Block::Html { .. } | Block::Flowchart { .. } => None,
            }),
            automatic: None,
            changes,
        },
        decision,
        toc,
        blocks,
        prices,
        filters,
        sources: sources_of(&selected),
        problems,
    }
}

/// The page of a report whose front matter cannot be read: its slug as title, and the problem.
fn unreadable_page(slug: &str, problem: Problem) -> ReportPage {
    ReportPage {
        summary: ReportSummary {
            slug: slug.to_string(),
            title: slug.to_string(),
            date: None,
            authors: Vec::new(),
            summary: String::new(),
            charts: 0,
            runs: 0,
            first_chart: None,
            automatic: None,
            changes: Vec::new(),
        },
        decision: None,
        toc: Vec::new(),
        blocks: Vec::new(),
        prices: None,
        filters: None,
        sources: Vec::new(),
        problems: vec![problem],
    }
}

/// An inline value's problem, as an error or a warning in `file`.
fn problem_of(severity: Severity, file: &str, at: Location, message: String) -> Problem {
    match severity {
        Severity::Error => Problem::error(file, at, message),
        Severity::Warning => Problem::warning(file, at, message),
    }
}

/// The decision wizard's data: from the report's `decision:` block (its problems added to
/// `problems`), or, without one, the requirements form when the data fits one.
fn page_decision(
    context: &context::ReportContext,
    text: &str,
    problems: &mut Vec<Problem>,
) -> Option<DecisionData> {
    match context.front.decision.as_ref() {
        // Without a `decision:` block every report still gets the requirements form, when its
        // data fits one: a sweep of request rates or concurrencies (SLAs are checked along it;
        // offline batch runs have none) and a single kind of sweep per configuration.
        None => {
            let implicit = front::DecisionFront::implicit_for(context.runs);
            if !implicit.has_sweep() {
                return None;
            }
            decision::build(context, &implicit, &mut |_, _| String::new())
                .ok()
                .filter(|d| d.candidates.len() >= 2)
        }
        Some(d) => declared_decision(context, d, text, problems),
    }
}

/// The decision wizard of a `decision:` block; its problems are reported at the block's line.
fn declared_decision(
    context: &context::ReportContext,
    d: &front::DecisionFront,
    text: &str,
    problems: &mut Vec<Problem>,
) -> Option<DecisionData> {
    let file = context.file;
    let at = text
        .lines()
        .position(|l| l.starts_with("decision:"))
        .map_or(2, |i| i + 1) as u64;
    let mut reason_problems = Vec::new();
    let mut render = |node: &str, because: &str| -> String {
        let rendered = markdown::render_with(
            because,
            at as usize,
            markdown::RenderOptions::default(),
            &mut |text, _| {
                let inline = values::inline(context, text);
                if let Some((severity, message)) = inline.problem {
                    let message = format!("decision `tree`, `{node}`: {message}");
                    let place = Location::line(at);
                    reason_problems.push(problem_of(severity, file, place, message));
                }
                inline.html
            },
        );
        rendered
            .segments
            .into_iter()
            .filter_map(|s| match s {
                Segment::Html(html) => Some(html),
                Segment::Directive { .. } => None,
            })
            .collect()
    };
    let built = decision::build(context, d, &mut render);
    problems.extend(reason_problems);
    match built {
        Ok(data) => Some(data),
        Err(errors) => {
            problems.extend(
                errors
                    .into_iter()
                    .map(|m| Problem::error(file, Location::line(at), m)),
            );
            None
        }
    }
}

/// The table of contents the front matter asks for: sections and subsections only (`#` is a
/// title, deeper levels are too fine for a contents list), by default for three sections or more.
fn table_of_contents(front: &FrontMatter, headings: &[Heading]) -> Vec<TocEntry> {
    let sections: Vec<TocEntry> = headings
        .iter()
        .filter(|h| (2..=3).contains(&h.level))
        .map(|h| TocEntry {
            level: h.level,
            text: h.text.clone(),
            id: h.id.clone(),
        })
        .collect();
    match front.toc {
        Some(true) => sections,
        Some(false) => Vec::new(),
        None if sections.iter().filter(|h| h.level == 2).count() >= 3 => sections,
        None => Vec::new(),
    }
}

/// The page's blocks: its HTML, and its table, tiles and chart directives built; a directive that
/// cannot be built adds its problem to `problems` instead; the change points its trends found
/// go to `changes`.
fn page_blocks(
    context: &context::ReportContext,
    segments: Vec<Segment>,
    problems: &mut Vec<Problem>,
    changes: &mut Vec<crate::site::ChangeEntry>,
) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut chart_count = 0;
    let mut chart_ids: Vec<String> = Vec::new();
    for segment in segments {
        match segment {
            Segment::Html(html) => blocks.push(Block::Html { html }),
            Segment::Directive { name, body, line } if name == "tiles" => {
                let (html, mut tile_problems) = tiles::build(context, &body, line);
                if let Some(html) = html {
                    blocks.push(Block::Html {
                        html: markdown::sanitize(&html),
                    });
                }
                problems.append(&mut tile_problems);
            }
            Segment::Directive { name, body, line } if name == "flowchart" => {
                match flowchart::parse(&body, line) {
                    Ok(parsed) => blocks.push(Block::Flowchart {
                        flowchart: parsed.drawn(),
                    }),
                    Err((at, message)) => problems.push(Problem::error(
                        context.file,
                        Location::line(at as u64),
                        message,
                    )),
                }
            }
            Segment::Directive { name, body, line } if name == "table" => {
                match tables::build(context, &body, line) {
                    Ok(html) => blocks.push(Block::Html {
                        html: markdown::sanitize(&html),
                    }),
                    Err(problem) => problems.push(problem),
                }
            }
            Segment::Directive { name, body, line } => {
                debug_assert_eq!(name, "chart");
                chart_count += 1;
                match charts::build(context, &body, line, chart_count) {
                    Ok(built) => {
                        let ids = built.ids();
                        match taken_id(&ids, &chart_ids) {
                            Some(taken) => problems.push(Problem::error(
                                context.file,
                                Location::line(line as u64),
                                format!(
                                    "chart block: another chart of this report already has the id \
                                     `{taken}`; ids name the chart's files and links, so they must differ"
                                ),
                            )),
                            None => {
                                chart_ids.extend(ids);
                                changes.extend(built.changes());
                                blocks.extend(built.into_blocks());
                            }
                        }
                    }
                    Err(problem) => problems.push(problem),
                }
            }
        }
    }
    blocks
}

/// The first of a chart block's `ids` already taken, by an earlier chart (`chart_ids`) or an
/// earlier id of the same block.
fn taken_id(ids: &[String], chart_ids: &[String]) -> Option<String> {
    ids.iter()
        .enumerate()
        .find(|(i, id)| chart_ids.contains(*id) || ids[..*i].contains(*id))
        .map(|(_, id)| id.clone())
}

/// The result files the front matter's globs select, each once, in glob order; a glob that
/// matches nothing is an error in `problems`.
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

/// The result files a page draws on: the selected files and the siblings joined into them.
fn sources_of(selected: &[&ImportedFile]) -> Vec<String> {
    let mut sources: Vec<String> = Vec::new();
    for name in selected
        .iter()
        .flat_map(|f| std::iter::once(&f.file).chain(&f.joined))
    {
        if !sources.contains(name) {
            sources.push(name.clone());
        }
    }
    sources
}

/// True when the front matter glob `pattern` selects `file` (relative to `results/`), as a
/// report's `results` does; an invalid glob selects nothing.
pub fn glob_selects(pattern: &str, file: &str) -> bool {
    globset::Glob::new(pattern).is_ok_and(|g| g.compile_matcher().is_match(file))
}

/// A glob that selects exactly `path`: each glob character (`*?[]{}`) as a class of itself.
pub fn literal_glob(path: &str) -> String {
    path.chars()
        .map(|c| match c {
            '*' | '?' | '[' | ']' | '{' | '}' => format!("[{c}]"),
            c => c.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests;
