//! ```` ```chart ```` `kind: trend`: when did it change, and did last night get worse? A metric
//! at one load point over dated runs (or over the folders they sit in: a version, a commit),
//! one line per configuration, read as a history (`crate::history`, in [`levels`]): each
//! stretch between change points a step at its level with the range of one more night at it as
//! the band; change points, outliers and a newest night unlike the current level ringed and
//! named in the caption; and a table of the changes, their dates and what changed, under the
//! chart. A report may set `min_change` (5, in percent).

mod levels;

use super::call::{point, quantity_axis, ChartCall};
use crate::chart::{Annotation, Axis, AxisName, ChartKind, ChartSpec, Point, Series};
use crate::format;
use crate::history::change_points::Settings;
use crate::model::{LoadTarget, Run};
use crate::quantity::Quantity;
use crate::report::context::ReportContext;
use crate::site::ChangeEntry;

/// What a trend is drawn over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Over {
    /// When each run was measured.
    Date,
    /// The folder each run's file is in (`results/nightly/v0.6.3/…`: `v0.6.3`).
    Folder,
}

impl Over {
    /// What a trend needs at least two of: "dates" or "folders".
    fn plural(self) -> &'static str {
        match self {
            Over::Date => "dates",
            Over::Folder => "folders",
        }
    }

    /// The trend's x axis.
    fn axis(self) -> Axis {
        match self {
            Over::Date => Axis::new("Run date", ""),
            Over::Folder => Axis::new("Folder", ""),
        }
    }

    fn parse(text: Option<&str>) -> Result<Over, String> {
        match text.map(str::trim) {
            None | Some("date") => Ok(Over::Date),
            Some("folder") => Ok(Over::Folder),
            Some(other) => Err(format!(
                "`x: {other}`: a trend runs over `date` (when each run was measured, the \
                 default) or `folder` (the folder each result file is in, such as a version)"
            )),
        }
    }
}

/// One run placed on the trend's axis.
struct Placed<'a> {
    run: &'a Run,
    /// Its label on the axis.
    label: String,
    /// What orders the labels: the date, or the folder's earliest date then its name.
    order: (String, String),
}

/// What a trend found beside its chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Findings {
    /// The table of its changes (HTML), shown under it.
    pub table: String,
    /// Its change points, for the site's feed.
    pub changes: Vec<ChangeEntry>,
}

/// A line per configuration of `quantity` at one load point, over the runs' dates or
/// folders, read as a history; and what it found, to show under it.
pub(super) fn trend(
    ctx: &ReportContext<'_>,
    c: ChartCall<'_>,
) -> Result<(ChartSpec, Findings), String> {
    let ChartCall { id, d, keys } = c;
    let quantity = super::call::quantity(d)?;
    let over = Over::parse(d.x.as_deref())?;
    let load = trend_load(ctx, keys, d)?;
    let settings = settings(d.min_change)?;
    let (placed, undated) = placed_runs(ctx, keys, over, load);
    if placed.is_empty() {
        return Err(no_dates(keys, &undated));
    }
    let labels = axis_labels(&placed);
    let mut series = Vec::new();
    let mut annotations = Vec::new();
    let mut findings = Vec::new();
    let mut rows = Vec::new();
    let mut changes = Vec::new();
    let mut lines = Vec::new();
    let mut repeated = Vec::new();
    for (k, key) in keys.iter().enumerate() {
        let (name, color) = ctx.display(key);
        let mut points: Vec<Point> = Vec::new();
        let mut point_runs: Vec<&Run> = Vec::new();
        for (index, label) in labels.iter().enumerate() {
            let mut here = placed
                .iter()
                .filter(|(pk, p)| *pk == k && p.label == *label);
            if let Some((_, p)) = here.next() {
                points.push(with_link(point(index as f64, quantity, p.run), p.run));
                point_runs.push(p.run);
            }
            repeated.extend(here.map(|(_, p)| p.run.provenance.file.as_str()));
        }
        lines.push(levels::read(
            &name,
            &points,
            &point_runs,
            (quantity, load),
            &settings,
        ));
        series.push(Series {
            name,
            color,
            points,
        });
    }
    let found = drawn(lines, &mut series);
    annotations.extend(found.annotations);
    findings.extend(found.findings);
    rows.extend(found.rows);
    changes.extend(
        found
            .changes
            .into_iter()
            .map(|(date, title, what_changed)| ChangeEntry {
                date,
                chart: id.to_string(),
                title,
                what_changed,
            }),
    );
    if series.iter().all(|s| s.points.len() < 2) {
        return Err(format!(
            "a trend needs runs on at least two {}; found {} at {} ({})",
            over.plural(),
            labels.join(", "),
            load,
            keys.join(", ")
        ));
    }
    let (lines, noted) = notes(ctx, keys, &labels, over);
    annotations.extend(lines);
    rows.extend(noted);
    let x = over.axis();
    let spec = ChartSpec {
        id: id.to_string(),
        title: format!("{quantity} over time"),
        caption: caption(quantity, &load, &settings, &findings, &undated, &repeated),
        kind: ChartKind::Trend { runs: labels },
        x,
        y: quantity_axis(quantity),
        series,
        annotations,
        alternatives: Vec::new(),
    };
    let table = changes_table(&spec.title, &rows);
    changes.sort_by(|a, b| a.date.cmp(&b.date));
    Ok((spec, Findings { table, changes }))
}

/// The report's `annotations` that concern a configuration of the chart, as dashed lines at
/// their dates (between two runs when none ran that day; left out of a trend over folders) and
/// as rows of the table of changes.
fn notes(
    ctx: &ReportContext<'_>,
    keys: &[String],
    labels: &[String],
    over: Over,
) -> (Vec<Annotation>, Vec<[String; 5]>) {
    let mut lines = Vec::new();
    let mut rows = Vec::new();
    for note in &ctx.front.annotations {
        let concerned: Vec<String> = keys
            .iter()
            .filter(|k| note.concerns(k))
            .map(|k| ctx.display(k).0)
            .collect();
        if concerned.is_empty() || over == Over::Folder {
            continue;
        }
        let day = |l: &String| l.get(..10).map(str::to_string);
        if labels
            .first()
            .and_then(day)
            .is_some_and(|first| first > note.date)
        {
            continue;
        }
        // A note after the last run has a row but no line: the axis ends at the last run.
        let first_after = labels
            .iter()
            .position(|l| day(l) >= Some(note.date.clone()));
        let x = match first_after {
            Some(i) if labels[i].starts_with(&note.date) => Some(i as f64),
            Some(i) => Some(i as f64 - 0.5),
            None => None,
        };
        if let Some(x) = x {
            lines.push(Annotation::Threshold {
                axis: AxisName::X,
                value: x,
                label: note.text.clone(),
            });
        }
        let who = if concerned.len() == keys.len() {
            "every configuration".to_string()
        } else {
            concerned.join(", ")
        };
        rows.push([
            note.date.clone(),
            who,
            "the author's note".into(),
            String::new(),
            note.text.clone(),
        ]);
    }
    (lines, rows)
}

/// The chart's lines drawn from their readings, their newest nights corrected as one family
/// (as in `benchdeck history`); what they found, merged.
fn drawn(mut lines: Vec<Option<levels::Line<'_>>>, series: &mut [Series]) -> levels::Overlay {
    crate::history::newest::correct(
        &mut lines
            .iter_mut()
            .flatten()
            .map(|l| &mut l.reading.newest)
            .collect::<Vec<_>>(),
    );
    let mut all = levels::Overlay::default();
    for (k, line) in lines.into_iter().enumerate() {
        let Some(line) = line else { continue };
        let name = series[k].name.clone();
        let found = levels::overlay(k, &name, &mut series[k].points, line);
        all.annotations.extend(found.annotations);
        all.findings.extend(found.findings);
        all.rows.extend(found.rows);
        all.changes.extend(found.changes);
    }
    all
}

/// The change-point settings with a report's `min_change` (percent, 0 to 100).
fn settings(min_change: Option<f64>) -> Result<Settings, String> {
    let mut settings = Settings::default();
    if let Some(c) = min_change {
        if !(0.0..100.0).contains(&c) {
            return Err(format!(
                "`min_change: {c}`: expected the smallest change that counts, in percent from 0 \
                 to 100, such as 5"
            ));
        }
        settings.min_change = c / 100.0;
    }
    Ok(settings)
}

/// The table under a trend: its change points, outliers and a newest night unlike its level,
/// by date (the "what changed" column only when a row has something in it); a sentence when
/// there are none.
fn changes_table(title: &str, rows: &[[String; 5]]) -> String {
    use crate::html::escape;
    if rows.is_empty() {
        return format!(
            "<p class=\"trend-changes\">{}: no change point, no outlier, and every newest \
             night as its level predicts.</p>",
            escape(title)
        );
    }
    let mut sorted: Vec<&[String; 5]> = rows.iter().collect();
    sorted.sort_by(|a, b| a[0].cmp(&b[0]).then_with(|| a[1].cmp(&b[1])));
    let columns = if rows.iter().any(|r| !r[4].is_empty()) {
        5
    } else {
        4
    };
    let body: String = sorted
        .iter()
        .map(|row| {
            let cells: String = row[1..columns]
                .iter()
                .map(|cell| format!("<td>{}</td>", escape(cell)))
                .collect();
            format!("<tr><th scope=\"row\">{}</th>{cells}</tr>", escape(&row[0]))
        })
        .collect();
    let head: String = [
        "Date",
        "Configuration",
        "What happened",
        "Level",
        "What changed",
    ][..columns]
        .iter()
        .map(|h| format!("<th scope=\"col\">{h}</th>"))
        .collect();
    format!(
        "<figure class=\"data-table trend-changes\"><figcaption>{}: what changed, and \
         when</figcaption><table tabindex=\"0\"><thead><tr>{head}</tr></thead><tbody>{body}\
         </tbody></table></figure>",
        escape(title)
    )
}

/// The runs of each configuration (by its index in `keys`) at `load`, placed on the axis
/// `over` names, and the files of those that have no date for a trend over dates. Days are
/// on the axis unless a configuration ran twice on one day: then times too.
fn placed_runs<'s>(
    ctx: &'s ReportContext<'_>,
    keys: &'s [String],
    over: Over,
    load: LoadTarget,
) -> (Vec<(usize, Placed<'s>)>, Vec<&'s str>) {
    let mut undated: Vec<&str> = Vec::new();
    let mut placed: Vec<(usize, Placed<'_>)> = Vec::new();
    let runs = |k: usize| all_runs_of(ctx, &keys[k]).filter(move |r| r.load.target == load);
    let with_time = over == Over::Date
        && (0..keys.len()).any(|k| {
            let mut days: Vec<&str> = runs(k)
                .filter_map(|r| Some(r.provenance.date.as_ref()?.day()))
                .collect();
            let all = days.len();
            days.sort_unstable();
            days.dedup();
            days.len() < all
        });
    for k in 0..keys.len() {
        for run in runs(k) {
            match place(run, over, with_time) {
                Some(p) => placed.push((k, p)),
                None => undated.push(&run.provenance.file),
            }
        }
    }
    (placed, undated)
}

/// The load point of the trend: the directive's `load`, or the one load every chosen
/// configuration's runs share.
fn trend_load(
    ctx: &ReportContext<'_>,
    keys: &[String],
    d: &super::call::ChartDirective,
) -> Result<LoadTarget, String> {
    let mut loads: Vec<LoadTarget> = Vec::new();
    for run in keys.iter().flat_map(|key| all_runs_of(ctx, key)) {
        if !loads.contains(&run.load.target) {
            loads.push(run.load.target);
        }
    }
    match &d.load {
        Some(load) => {
            load.parse()?;
            loads
                .into_iter()
                .find(|l| load.matches(l).unwrap_or(false))
                .ok_or_else(|| format!("no run of {} is at that `load`", keys.join(", ")))
        }
        None if loads.len() == 1 => Ok(loads[0]),
        None if loads.is_empty() => Err(format!("no run of {}", keys.join(", "))),
        None => Err(format!(
            "the runs are at {} load points; say which with `load:` (one of {})",
            loads.len(),
            loads
                .iter()
                .map(crate::report::load::load_label)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Every run of configuration `key`, in the report's order (dated repeats included).
fn all_runs_of<'s>(ctx: &'s ReportContext<'_>, key: &'s str) -> impl Iterator<Item = &'s Run> + 's {
    ctx.runs
        .iter()
        .copied()
        .filter(move |r| r.config.key() == key)
}

/// `run` on the axis (by its day, or its date and time `with_time`), or `None` for a trend
/// over dates when the run has none.
fn place(run: &Run, over: Over, with_time: bool) -> Option<Placed<'_>> {
    let date = run.provenance.date.as_ref();
    match over {
        Over::Date => {
            let date = date?;
            Some(Placed {
                run,
                label: if with_time {
                    date.label()
                } else {
                    date.day().to_string()
                },
                order: (date.as_str().to_string(), String::new()),
            })
        }
        Over::Folder => {
            let folder = run.provenance.file.rsplit('/').nth(1).unwrap_or("results");
            Some(Placed {
                run,
                label: folder.to_string(),
                order: (
                    date.map_or_else(String::new, |d| d.as_str().to_string()),
                    folder.to_string(),
                ),
            })
        }
    }
}

/// The axis labels, oldest first; a folder sits at the earliest date of its runs.
fn axis_labels(placed: &[(usize, Placed<'_>)]) -> Vec<String> {
    let mut labels: Vec<(&(String, String), &str)> = Vec::new();
    for (_, p) in placed {
        match labels.iter_mut().find(|(_, label)| *label == p.label) {
            Some((order, _)) if p.order < **order => *order = &p.order,
            Some(_) => {}
            None => labels.push((&p.order, &p.label)),
        }
    }
    labels.sort_by(|a, b| a.0.cmp(b.0).then_with(|| a.1.cmp(b.1)));
    labels.into_iter().map(|(_, l)| l.to_string()).collect()
}

/// `run`'s point, linked to its published result file.
fn with_link(point: Point, run: &Run) -> Point {
    Point {
        link: crate::site::result_file_href(&run.provenance.file),
        ..point
    }
}

/// Why a trend cannot be drawn when no run could be placed.
fn no_dates(keys: &[String], undated: &[&str]) -> String {
    if undated.is_empty() {
        return format!("no run of {} at that load point", keys.join(", "));
    }
    format!(
        "none of the {} runs says when it was measured ({}): vLLM's `date`, GuideLLM's and \
         AIPerf's `start_time`, llmperf's `timestamp` or a date in the file's path \
         (`results/nightly/2026-11-01/…`) give one; or draw the trend over folders with \
         `x: folder`",
        undated.len(),
        first_few(undated)
    )
}

/// The caption: what is drawn, how changes are told, and what was found.
fn caption(
    quantity: Quantity,
    load: &LoadTarget,
    settings: &Settings,
    findings: &[String],
    undated: &[&str],
    repeated: &[&str],
) -> String {
    let mut text = format!(
        "{quantity} ({unit}) at {load} in each run, by configuration. Each step is a stretch \
         of runs at one level, between change points found by E-Divisive means (a permutation \
         test at 1%, and a change of at least {min}%); its band is the range one more run at \
         that level falls in 95 times in 100, the runs being the units. Change points, single \
         runs unlike their neighbours (outliers) and a newest run worse or better than its \
         level (beyond the noise of the chart's lines, by Holm's correction) are ringed.",
        unit = quantity.unit(),
        min = format::number(settings.min_change * 100.0),
    );
    if findings.is_empty() {
        text.push_str(" No change point, no outlier, and the newest run is as its level predicts.");
    } else {
        text.push_str(&format!(" Found: {}.", findings.join("; ")));
    }
    if !undated.is_empty() {
        text.push_str(&format!(" Left out, with no date: {}.", first_few(undated)));
    }
    if !repeated.is_empty() {
        text.push_str(&format!(
            " A second run at the same place is left out: {}.",
            first_few(repeated)
        ));
    }
    text
}

/// The first three names and how many more.
fn first_few(names: &[&str]) -> String {
    let shown = names.iter().take(3).copied().collect::<Vec<_>>().join(", ");
    match names.len().saturating_sub(3) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

#[cfg(test)]
mod tests;
