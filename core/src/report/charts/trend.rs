//! ```` ```chart ```` `kind: trend`: did last night's run get worse? A metric at one load point
//! over dated runs (or over the folders they sit in: a version, a commit), one line per
//! configuration, each point judged against the runs before it by `analysis::trend`'s rule
//! (outside the median ± 3 MAD of the last ten, and by at least 5%; a report may set `history`,
//! `mads` and `min_change`): the range it was expected in is drawn as a band, a regression is
//! ringed and named in the caption.

use super::call::{point, quantity_axis, ChartCall};
use crate::analysis::trend::{self, Rule, Verdict};
use crate::chart::{Annotation, Axis, ChartKind, ChartSpec, Point, Series};
use crate::format;
use crate::model::{LoadTarget, Run};
use crate::quantity::{Better, Quantity};
use crate::report::context::ReportContext;

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

/// A line per configuration of `quantity` at one load point, over the runs' dates or
/// folders, with each run's expected range and its regressions marked.
pub(super) fn trend(ctx: &ReportContext<'_>, c: ChartCall<'_>) -> Result<ChartSpec, String> {
    let ChartCall { id, d, keys } = c;
    let quantity = super::call::quantity(d)?;
    let over = Over::parse(d.x.as_deref())?;
    let load = trend_load(ctx, keys, d)?;
    let rule = Rule::with(d.history, d.mads, d.min_change)?;
    let (placed, undated) = placed_runs(ctx, keys, over, load);
    if placed.is_empty() {
        return Err(no_dates(keys, &undated));
    }
    let labels = axis_labels(&placed);
    let better = quantity.better();
    let mut series = Vec::new();
    let mut annotations = Vec::new();
    let mut findings = Vec::new();
    let mut repeated = Vec::new();
    let mut tests = Vec::new();
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
        for (x, y, e) in judge_points(&mut points, better, &rule) {
            let change = change_text(y.unwrap_or(f64::NAN), e.median);
            annotations.push(Annotation::Marker {
                series: Some(k),
                x,
                y: y.unwrap_or(e.median),
                label: change.clone(),
            });
            findings.push(format!(
                "{name} on {}: {} against a median of {} over the {} runs before it \
                 ({change})",
                labels[x as usize],
                format::with_unit(y.unwrap_or(f64::NAN), quantity.unit()),
                format::with_unit(e.median, quantity.unit()),
                e.count,
            ));
        }
        if let Some(test) = night_test(quantity, &point_runs, rule.history) {
            tests.push(format!("{name}: {test}"));
        }
        series.push(Series {
            name,
            color,
            points,
        });
    }
    if series.iter().all(|s| s.points.len() < 2) {
        return Err(format!(
            "a trend needs runs on at least two {}; found {} at {} ({})",
            over.plural(),
            labels.join(", "),
            load,
            keys.join(", ")
        ));
    }
    let x = over.axis();
    Ok(ChartSpec {
        id: id.to_string(),
        title: format!("{quantity} over time"),
        caption: caption(
            quantity, &load, &rule, &findings, &undated, &repeated, &tests,
        ),
        kind: ChartKind::Trend { runs: labels },
        x,
        y: quantity_axis(quantity),
        series,
        annotations,
        alternatives: Vec::new(),
    })
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

/// Each of a line's points judged against the points before it by `rule`, its expected range
/// set as its band; the regressions, as their x, their y and the range they left.
fn judge_points(
    points: &mut [Point],
    better: Better,
    rule: &Rule,
) -> Vec<(f64, Option<f64>, trend::Expected)> {
    let values: Vec<f64> = points.iter().map(|p| p.y.unwrap_or(f64::NAN)).collect();
    let mut regressions = Vec::new();
    for (p, verdict) in points
        .iter_mut()
        .zip(trend::judge_series(&values, better, rule))
    {
        let expected = match verdict {
            Verdict::Unjudged => continue,
            Verdict::AsBefore(e) | Verdict::Improvement(e) => e,
            Verdict::Regression(e) => {
                regressions.push((p.x, p.y, e));
                e
            }
        };
        p.lo = Some(expected.lo);
        p.hi = Some(expected.hi);
    }
    regressions
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

/// The newest run against the runs before it, nights as the units: the 95% prediction
/// interval of one more run from the values of up to `history` runs before it (their mean ±
/// t(k − 1) · s · √(1 + 1/k)), and whether the newest lies in it: `245 ms, outside the 95%
/// range that the 10 runs before it predict (180–220 ms)`. The requests of different nights
/// are never pooled: what varies from night to night (the machine, the driver, the neighbours)
/// is shared by every request of a night, so a night's requests are not independent draws of
/// the history. `None` with fewer than three runs before it.
fn night_test(quantity: Quantity, runs: &[&Run], history: usize) -> Option<String> {
    let (newest, before) = runs.split_last()?;
    let before = &before[before.len().saturating_sub(history)..];
    let values: Vec<f64> = before
        .iter()
        .filter_map(|r| quantity.of(r))
        .filter(|v| v.is_finite())
        .collect();
    let value = quantity.of(newest)?;
    let k = values.len();
    if k < 3 || !value.is_finite() {
        return None;
    }
    let mean = values.iter().sum::<f64>() / k as f64;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
    let half = crate::noise::student::t_975((k - 1) as f64) * (var * (1.0 + 1.0 / k as f64)).sqrt();
    let range = crate::noise::Interval {
        lo: (mean - half).max(0.0),
        hi: mean + half,
    };
    let place = if range.contains(value) {
        "inside"
    } else {
        "outside"
    };
    Some(format!(
        "{}, {place} the 95% range that the {k} runs before it predict ({})",
        format::with_unit(value, quantity.unit()),
        range.text(quantity.unit()).trim_start_matches("95% CI ")
    ))
}

/// `+30%` (or `−12%`) from `median` to `value`.
fn change_text(value: f64, median: f64) -> String {
    if median == 0.0 || !value.is_finite() {
        return "regression".into();
    }
    let pct = (value - median) / median.abs() * 100.0;
    let sign = if pct >= 0.0 { "+" } else { "−" };
    format!("{sign}{}%", format::number(pct.abs().round()))
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

/// The caption: what is drawn, the rule, and what it found.
fn caption(
    quantity: Quantity,
    load: &LoadTarget,
    rule: &Rule,
    findings: &[String],
    undated: &[&str],
    repeated: &[&str],
    tests: &[String],
) -> String {
    let worse = match quantity.better() {
        Better::Lower => "higher",
        Better::Higher => "lower",
    };
    let mut text = format!(
        "{quantity} ({unit}) at {load} in each run, by configuration. The band is the range \
         each run was expected in: the median of the last {history} runs before it ± {mads} \
         median absolute deviations (at least ± {min}%); a run {worse} than that, once {least} \
         runs came before it, is a regression and is ringed.",
        unit = quantity.unit(),
        history = rule.history,
        mads = format::number(rule.mads),
        least = rule.min_history,
        min = format::number(rule.min_change * 100.0),
    );
    if findings.is_empty() {
        text.push_str(" No run is a regression.");
    } else {
        text.push_str(&format!(" Regressions: {}.", findings.join("; ")));
    }
    if !tests.is_empty() {
        text.push_str(&format!(
            " The newest run against the runs before it, each run one value: {}.",
            tests.join("; ")
        ));
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
