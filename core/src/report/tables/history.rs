//! ```` ```table ```` `kind: history`: where each configuration stands now, read from its dated
//! runs as `benchdeck history` reads them: per configuration, load point and metric, the
//! newest run, the verdict on it against the current level (worse, better, as before, or not
//! judged), the current level with its interval and since when it holds, and the changes
//! before it. One sentence above the table says what the verdicts add up to.
//!
//! The newest runs are corrected as one family per metric and load point (Holm), as each trend
//! chart of that metric and load corrects its lines, so the table and the charts agree.

use super::super::context::ReportContext;
use super::super::values::{escape, parse_quantity};
use super::directive::{MetricEntry, TableDirective};
use super::figure::figure_from;
use super::gist;
use crate::format;
use crate::history::{self, Options, SeriesSummary, Verdict};
use crate::model::{LoadTarget, Run};
use crate::quantity::Quantity;

/// A `history` table of `d.metrics` at `d.load` (every dated load point by default).
pub(super) fn history_table(ctx: &ReportContext<'_>, d: &TableDirective) -> Result<String, String> {
    let metrics = metrics(d)?;
    let keys = ctx.config_keys(d.configs.as_deref())?;
    let mut runs: Vec<&Run> = Vec::new();
    for run in ctx.runs.iter().copied() {
        let wanted = keys.contains(&run.config.key());
        let at_load = match &d.load {
            Some(load) => load.matches(&run.load.target)?,
            None => true,
        };
        if wanted && at_load {
            runs.push(run);
        }
    }
    let mut read = read(&runs, &metrics);
    read.series
        .sort_by_key(|s| keys.iter().position(|k| *k == s.config));
    if read.series.is_empty() {
        let names: Vec<String> = metrics.iter().map(ToString::to_string).collect();
        return Err(format!(
            "none of {} has {} at one load on two dates or more, so there is no history to read",
            keys.join(", "),
            names.join(" or ")
        ));
    }
    let loads = distinct(read.series.iter().map(|s| s.load.as_str()));
    let configs = distinct(read.series.iter().map(|s| s.config.as_str()));
    let columns = Columns {
        config: configs.len() > 1,
        load: loads.len() > 1,
    };
    let rows: Vec<String> = read
        .series
        .iter()
        .map(|s| row(ctx, s, &read.change_points, columns))
        .collect();
    let title = d.title.clone().unwrap_or_else(|| match loads.as_slice() {
        [load] => format!("The newest run against its current level, at {load}"),
        _ => "The newest run against its current level".to_string(),
    });
    let caption = d.caption.as_deref().unwrap_or(CAPTION);
    Ok(format!(
        "{}{}",
        gist::lead(&sentence(&read.series, |s| series_name(ctx, s, columns))),
        figure_from(
            "<figure class=\"data-table history-table\">",
            &title,
            caption,
            &columns.head(),
            &rows
        )
    ))
}

/// What every table of this kind says of its columns.
const CAPTION: &str = "The current level is the mean of the nights since the last change \
     point (outliers left out) with its 95% interval; a verdict holds the newest run against \
     the range one more night at that level falls in 95 times in 100, corrected for the number \
     of configurations judged (Holm).";

/// Which leading columns the table needs.
#[derive(Clone, Copy)]
struct Columns {
    config: bool,
    load: bool,
}

impl Columns {
    fn head(self) -> String {
        let lead = [("Configuration", self.config), ("Load", self.load)];
        lead.iter()
            .filter(|(_, shown)| *shown)
            .map(|(t, _)| *t)
            .chain([
                "Metric",
                "Newest run",
                "Against its level",
                "Current level",
                "Since",
            ])
            .map(|t| format!("<th scope=\"col\">{t}</th>"))
            .collect()
    }
}

/// The quantities of `d.metrics`, required.
fn metrics(d: &TableDirective) -> Result<Vec<Quantity>, String> {
    let entries = d
        .metrics
        .as_deref()
        .filter(|m| !m.is_empty())
        .ok_or("a history table needs `metrics`, such as [ttft:p50, output_throughput]")?;
    entries
        .iter()
        .map(|entry| match entry {
            MetricEntry::Name(name) => parse_quantity(name),
            MetricEntry::Detailed { metric, .. } => parse_quantity(metric),
        })
        .collect()
}

/// The history of `runs`, its newest nights corrected one family per metric and load point
/// (the family a trend chart corrects), in the order of `metrics`.
fn read(runs: &[&Run], metrics: &[Quantity]) -> history::History {
    let mut loads: Vec<LoadTarget> = Vec::new();
    for run in runs {
        if !loads.contains(&run.load.target) {
            loads.push(run.load.target);
        }
    }
    let options = |metrics: Vec<Quantity>| Options {
        metrics,
        since: None,
        settings: Default::default(),
    };
    let mut all = history::read(&[], &options(Vec::new()));
    for &metric in metrics {
        for load in &loads {
            let at: Vec<&Run> = runs
                .iter()
                .copied()
                .filter(|r| r.load.target == *load)
                .collect();
            let one = history::read(&at, &options(vec![metric]));
            all.change_points.extend(one.change_points);
            all.outliers.extend(one.outliers);
            all.series.extend(one.series);
        }
    }
    all
}

/// One series' row.
fn row(
    ctx: &ReportContext<'_>,
    s: &SeriesSummary,
    changes: &[history::ChangePoint],
    columns: Columns,
) -> String {
    let mut cells = String::new();
    if columns.config {
        cells.push_str(&format!(
            "<th scope=\"row\">{}</th>",
            escape(&ctx.display(&s.config).0)
        ));
    }
    if columns.load {
        cells.push_str(&format!("<td>{}</td>", escape(&s.load)));
    }
    let newest = &s.newest;
    let mine: Vec<&history::ChangePoint> = changes
        .iter()
        .filter(|c| c.config == s.config && c.load == s.load && c.metric == s.metric)
        .collect();
    let since = match mine.last() {
        Some(change) => format!(
            "{}<small>after {}</small>",
            escape(&change.date),
            history::signed_pct(change.change_pct)
        ),
        None => format!("{}<small>no change</small>", escape(&s.current.from)),
    };
    let metric = escape(&s.metric);
    cells.push_str(&if columns.config {
        format!("<td>{metric}</td>")
    } else {
        format!("<th scope=\"row\">{metric}</th>")
    });
    cells.push_str(&format!(
        "<td>{}<small>{}</small></td><td title=\"{}\">{}</td><td>{}</td><td>{since}</td>",
        escape(&format::with_unit(newest.value, s.unit)),
        escape(&newest.date),
        escape(&newest.text(s.unit)),
        verdict_cell(newest),
        level_cell(&s.current, s.unit),
    ));
    format!("<tr>{cells}</tr>")
}

/// `worse` over `+25%`, strong when it is news.
fn verdict_cell(newest: &history::Newest) -> String {
    let change = newest.change_pct.map_or(String::new(), |c| {
        format!("<small>{}</small>", history::signed_pct(c))
    });
    match newest.verdict {
        Verdict::Worse => format!("<strong>worse</strong>{change}"),
        Verdict::Better => format!("<strong>better</strong>{change}"),
        Verdict::AsBefore => format!("as before{change}"),
        Verdict::Unjudged => "not judged<small>too few nights</small>".to_string(),
    }
}

/// `22.15 ms` over `21.98–22.31 · 25 nights`.
fn level_cell(level: &history::LevelView, unit: &str) -> String {
    let nights = format!("{} night{}", level.nights, format::plural(level.nights));
    let under = match (level.lo, level.hi) {
        (Some(lo), Some(hi)) => format!("{}–{} · {nights}", format::number(lo), format::number(hi)),
        _ => nights,
    };
    format!(
        "{}<small>{}</small>",
        escape(&format::with_unit(level.mean, unit)),
        escape(&under)
    )
}

/// A series as the sentence names it: its metric, after its configuration and load where the
/// table has columns for them.
fn series_name(ctx: &ReportContext<'_>, s: &SeriesSummary, columns: Columns) -> String {
    let mut name = String::new();
    if columns.config {
        name.push_str(&ctx.display(&s.config).0);
        name.push_str("'s ");
    }
    name.push_str(&s.metric);
    if columns.load {
        name.push_str(&format!(" at {}", s.load));
    }
    name
}

/// One sentence of what the verdicts add up to: which series (as `name` names them) the newest
/// runs moved, or that they are as their levels predict.
pub(super) fn sentence(
    series: &[SeriesSummary],
    name: impl Fn(&SeriesSummary) -> String,
) -> String {
    let named = |verdict: Verdict| -> Vec<String> {
        series
            .iter()
            .filter(|s| s.newest.verdict == verdict)
            .map(|s| {
                let change = s
                    .newest
                    .change_pct
                    .map_or(String::new(), |c| format!(" ({})", history::signed_pct(c)));
                format!("{}{change}", name(s))
            })
            .collect()
    };
    let (worse, better) = (named(Verdict::Worse), named(Verdict::Better));
    let judged = series
        .iter()
        .filter(|s| s.newest.verdict != Verdict::Unjudged)
        .count();
    if judged == 0 {
        return "Too few nights at the current levels to judge the newest run.".into();
    }
    let mut parts = Vec::new();
    if !worse.is_empty() {
        parts.push(format!("worse on {}", gist::list(&worse)));
    }
    if !better.is_empty() {
        parts.push(format!("better on {}", gist::list(&better)));
    }
    let steady = judged - worse.len() - better.len();
    match (parts.is_empty(), steady) {
        (true, _) => {
            "The newest run is as its current level predicts on every metric judged.".into()
        }
        (false, 0) => format!(
            "Against its current level, the newest run is {}.",
            parts.join("; ")
        ),
        (false, n) => format!(
            "Against its current level, the newest run is {}; as before on the other {n}.",
            parts.join("; ")
        ),
    }
}

/// The distinct values of `items`, in order.
fn distinct<'a>(items: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}
