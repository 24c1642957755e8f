//! "What differs": a section at the end of every report that compares configurations, collapsed
//! by default, setting them side by side as CI performance dashboards show an environment diff:
//! engine and its version, model, hardware, every server setting, the workload (dataset,
//! lengths, load kind, burstiness, prompts, tokenizer) and the benchmark tool. A cell that differs
//! from another configuration's is marked, so a reader sees at once whether two numbers were
//! measured alike.

use super::context::ReportContext;
use super::values::escape;
use crate::model::differences::Aspect;
use crate::model::Run;

/// One row of the section: a name, and how each configuration's runs read it.
struct Row {
    name: String,
    cells: Vec<Option<String>>,
}

impl Row {
    /// True when every configuration states it, alike.
    fn shared(&self) -> bool {
        let first = self.cells.first().and_then(Option::as_ref);
        first.is_some() && self.cells.iter().all(|c| c.as_ref() == first)
    }
}

/// Past this many configurations the table turns on its side: a row per configuration, a
/// column per thing that differs, so it grows down the page instead of off its side.
const MOST_COLUMNS: usize = 4;

/// The section's HTML, when the report has two configurations or more. What every
/// configuration shares is one line; what differs is the table.
pub fn section(ctx: &ReportContext<'_>) -> Option<String> {
    let keys = ctx.config_keys(None).ok()?;
    if keys.len() < 2 {
        return None;
    }
    let runs: Vec<Vec<&Run>> = keys.iter().map(|k| ctx.runs_of(k)).collect();
    let (shared, differing): (Vec<Row>, Vec<Row>) = rows(&runs)
        .into_iter()
        .filter(|r| r.cells.iter().any(Option::is_some))
        .partition(Row::shared);
    let names: Vec<String> = keys.iter().map(|k| ctx.display(k).0).collect();
    let shared_line = if shared.is_empty() {
        String::new()
    } else {
        let items: Vec<String> = shared
            .iter()
            .map(|r| {
                let value = r.cells.iter().flatten().next().map_or("", String::as_str);
                format!("{} <strong>{}</strong>", escape(&r.name), escape(value))
            })
            .collect();
        format!(
            "<p class=\"shared\">Shared by all: {}.</p>",
            items.join(" · ")
        )
    };
    let table = match (differing.is_empty(), names.len() > MOST_COLUMNS) {
        (true, _) => "<p>Nothing else differs between them as their files state it.</p>".into(),
        (false, false) => by_aspect(&names, &differing),
        (false, true) => by_configuration(&names, &differing),
    };
    Some(format!(
        "<details class=\"what-differs\"><summary>What differs between the configurations\
         </summary>{shared_line}{table}<p class=\"table-caption\">Each configuration's setup \
         and workload as its result files state them; a marked cell differs from another \
         configuration's. A range is the values of its runs; – is not stated.</p></details>"
    ))
}

/// A column per configuration, a row per thing that differs.
fn by_aspect(names: &[String], rows: &[Row]) -> String {
    let head: String = names
        .iter()
        .map(|n| format!("<th scope=\"col\">{}</th>", escape(n)))
        .collect();
    let body: String = rows.iter().map(row_html).collect();
    format!(
        "<div class=\"data-table\"><table tabindex=\"0\"><thead><tr><th scope=\"col\">Setting</th>{head}\
         </tr></thead><tbody>{body}</tbody></table></div>"
    )
}

/// A row per configuration, a column per thing that differs.
fn by_configuration(names: &[String], rows: &[Row]) -> String {
    let head: String = rows
        .iter()
        .map(|r| format!("<th scope=\"col\">{}</th>", escape(&r.name)))
        .collect();
    let body: String = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let cells: String = rows.iter().map(|r| cell_html(r, i)).collect();
            format!("<tr><th scope=\"row\">{}</th>{cells}</tr>", escape(name))
        })
        .collect();
    format!(
        "<div class=\"data-table\"><table tabindex=\"0\"><thead><tr><th scope=\"col\">Configuration</th>\
         {head}</tr></thead><tbody>{body}</tbody></table></div>"
    )
}

/// The rows, in the order a reader checks them: the setup, then the workload, then the tool.
fn rows(runs: &[Vec<&Run>]) -> Vec<Row> {
    let per_config = |read: &dyn Fn(&Run) -> Option<String>| -> Vec<Option<String>> {
        runs.iter().map(|rs| summarised(rs, read)).collect()
    };
    let mut rows = vec![
        row("Engine", per_config(&|r| r.config.engine.clone())),
        row(
            "Engine version",
            per_config(&|r| r.workload.engine_version.clone()),
        ),
        row("Model", per_config(&|r| r.config.model.clone())),
        row("Hardware", per_config(&|r| r.config.hardware.clone())),
    ];
    let mut settings: Vec<&String> = runs
        .iter()
        .flatten()
        .flat_map(|r| r.config.settings.keys())
        .collect();
    settings.sort();
    settings.dedup();
    for name in settings {
        rows.push(row(
            name,
            per_config(&|r| r.config.settings.get(name).cloned()),
        ));
    }
    for aspect in Aspect::ALL {
        let name = aspect.name();
        let mut title = name[..1].to_uppercase();
        title.push_str(&name[1..]);
        rows.push(row(&title, per_config(&|r| aspect.of(r))));
    }
    rows.push(row(
        "Benchmark tool",
        per_config(&|r| {
            let tool = r.provenance.producer.display_name();
            Some(match &r.provenance.producer_version {
                Some(v) => format!("{tool} {v}"),
                None => tool.to_string(),
            })
        }),
    ));
    rows
}

/// A row of the table of what differs.
fn row(name: &str, cells: Vec<Option<String>>) -> Row {
    Row {
        name: name.to_string(),
        cells,
    }
}

/// What a configuration's runs say of one thing: their one value, the range of their numbers
/// (`120–4,200`), or their values listed when they differ (`a, b`).
fn summarised(runs: &[&Run], read: &dyn Fn(&Run) -> Option<String>) -> Option<String> {
    let mut values: Vec<String> = runs.iter().filter_map(|r| read(r)).collect();
    values.dedup();
    let mut distinct: Vec<String> = Vec::new();
    for v in values {
        if !distinct.contains(&v) {
            distinct.push(v);
        }
    }
    match distinct.as_slice() {
        [] => None,
        [one] => Some(one.clone()),
        many => {
            let numbers: Option<Vec<f64>> = many
                .iter()
                .map(|v| {
                    v.trim_start_matches('~')
                        .replace(',', "")
                        .parse::<f64>()
                        .ok()
                })
                .collect();
            Some(match numbers {
                Some(n) => {
                    let lo = n.iter().copied().fold(f64::INFINITY, f64::min);
                    let hi = n.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    format!(
                        "{}–{}",
                        crate::format::number(lo),
                        crate::format::number(hi)
                    )
                }
                None => many.join(", "),
            })
        }
    }
}

/// A row's HTML: each stated cell that differs from another configuration's is marked.
fn row_html(r: &Row) -> String {
    let cells: String = (0..r.cells.len()).map(|i| cell_html(r, i)).collect();
    format!("<tr><th scope=\"row\">{}</th>{cells}</tr>", escape(&r.name))
}

/// Configuration `i`'s cell of row `r`, marked when it differs from another's.
fn cell_html(r: &Row, i: usize) -> String {
    match &r.cells[i] {
        None => "<td>–</td>".to_string(),
        Some(v) if r.cells.iter().flatten().any(|o| o != v) => {
            format!("<td class=\"differs\"><mark>{}</mark></td>", escape(v))
        }
        Some(v) => format!("<td>{}</td>", escape(v)),
    }
}
