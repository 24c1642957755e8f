//! ```` ```table ```` blocks: tables computed from the report's runs, as escaped HTML.
//!
//! | kind | rows × columns | keys |
//! |---|---|---|
//! | `summary` | quantities × configurations, the best value of each row in bold, and a "Best for" row | `metrics`, `load`, `configs`, `title`, `caption` |
//! | `sla` | use cases × configurations: pass ✓ or fail ✗ against each use case's limit at one load | `use_cases: [{name: Chat, metric: ttft:p95, max: 500}]`, `load`, `configs` |
//! | `head-to-head` | load points × (A, B, which is better, by how much) for two configurations | `metric`, `configs` (two), `loads`, `decimals`, `workload` (`[requests, completed]`: each row's prompts sent and completed, [`workload`]), `title`, `caption` |
//! | `runs` | every run × (configuration, load, requests, TTFT p50/p99, TPOT p50, end-to-end p50, output tok/s), collapsed above 12 rows ([`runs`]) | `configs`, `title`, `caption` |
//!
//! In a summary, each metric is taken at `load` when one is given, otherwise at its best over
//! the sweep (the highest throughput, the lowest latency); an entry may set its own:
//! `{metric: ttft:p50, load: 10}` or `{metric: output_tok_s_per_user, take: max}` (for a
//! per-run quantity also written `output_tok_s_per_user:max`). A
//! head-to-head's "by (%)" is the gap over the worse value (`compare::Verdict`): "Faster by" for a
//! latency, "Cheaper by" for a cost (whose verdicts the page judges again at a reader's prices:
//! `figure[data-versus]`), "Lower by" for another lower-is-better metric, "Higher by" for a
//! throughput.

mod directive;
mod figure;
mod runs;
mod workload;

use super::context::ReportContext;
use super::load::{same, LoadKind};
use super::values::{escape, parse_quantity, priced_span};
use crate::compare::Verdict;
use crate::format;
use crate::model::{LoadTarget, Location, Run};
use crate::problem::Problem;
use crate::quantity::{Better, Quantity};
use directive::{MetricEntry, TableDirective, KEYS};
use figure::{figure, figure_from};

/// Where a summary cell's value comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Take {
    At(f64, Option<LoadKind>),
    Max,
    Min,
}

/// The HTML of the table block whose body starts at `line`.
pub fn build(ctx: &ReportContext<'_>, body: &str, line: usize) -> Result<String, Problem> {
    let error = |message: String| Problem::error(ctx.file, Location::line(line as u64), message);
    let pod = crate::yaml::Document::parse(body, line)
        .map_err(|e| error(format!("table block is not valid YAML: {e}")))?;
    let d: TableDirective = pod
        .deserialize()
        .map_err(|e| error(format!("table block: {e}; expected keys {KEYS}")))?;
    match d.kind.as_str() {
        "summary" => summary(ctx, &d),
        "head-to-head" => head_to_head(ctx, &d),
        "sla" => sla(ctx, &d),
        "runs" => runs::runs_table(ctx, &d),
        other => Err(format!(
            "unknown kind `{other}`; expected summary, head-to-head, sla or runs"
        )),
    }
    .map_err(|e| error(format!("table block: {e}")))
}

/// A `summary` table: each configuration's value of each quantity, the best marked, ties in
/// noise said, and the "Best for" row.
fn summary(ctx: &ReportContext<'_>, d: &TableDirective) -> Result<String, String> {
    let entries = d
        .metrics
        .as_ref()
        .filter(|m| !m.is_empty())
        .ok_or("a summary needs `metrics`, a list such as [ttft:p50, output_throughput]")?;
    let keys = ctx.config_keys(d.configs.as_deref())?;
    let names: Vec<String> = keys.iter().map(|k| ctx.display(k).0).collect();
    let mut rows = Vec::new();
    let mut compared: Vec<Vec<(&str, &Run)>> = Vec::new();
    let mut quantities = Vec::new();
    // Per configuration: the rows it is best in.
    let mut best_for: Vec<Vec<String>> = vec![Vec::new(); keys.len()];
    for entry in entries {
        let (metric, load, take, label) = match entry {
            MetricEntry::Name(m) => (m, None, None, None),
            MetricEntry::Detailed {
                metric,
                load,
                take,
                label,
            } => (metric, load.clone(), take.as_deref(), label.clone()),
        };
        let (q, take) = summary_quantity(metric, take)?;
        let load = load.or(d.load.clone()).map(|l| l.parse()).transpose()?;
        if let Some((at, kind)) = load {
            one_kind_at(ctx, &keys, at, kind)?;
        }
        let take = summary_take(q, load, take)?;
        quantities.push(q);
        let values: Vec<Option<(f64, &Run)>> =
            keys.iter().map(|k| value_of(ctx, q, k, take)).collect();
        if values.iter().all(Option::is_none) {
            return Err(format!("no configuration reports {q} ({metric})"));
        }
        let best = best_index(&values, q.better());
        // A best within the noise of another value is no best: both are tied.
        let tied = tied_with(q, &values, best);
        let best = best.filter(|_| tied.is_empty());
        compared.push(
            values
                .iter()
                .zip(&names)
                .filter_map(|(v, name)| v.map(|(_, run)| (name.as_str(), run)))
                .collect(),
        );
        let at = values
            .iter()
            .flatten()
            .next()
            .map(|(_, run)| run.load.target);
        let label = label.unwrap_or_else(|| row_label(q, take, at));
        if let Some(b) = best {
            best_for[b].push(label.clone());
        }
        let cells: Vec<String> = values
            .iter()
            .enumerate()
            .map(|(i, v)| summary_cell(&keys[i], q, *v, Some(i) == best, tied.contains(&i)))
            .collect();
        rows.push(format!(
            "<tr><th scope=\"row\">{}</th>{}</tr>",
            escape(&label),
            cells.concat()
        ));
    }
    rows.push(best_for_row(&best_for));
    let head: Vec<String> = names
        .iter()
        .map(|n| format!("<th scope=\"col\">{}</th>", escape(n)))
        .collect();
    let caption = with_notes(
        d.caption.as_deref().unwrap_or(
            "Best value of each row in bold, unless it is within the noise of another \
             (tied: the 95% interval of their difference includes none). Without a load \
             point, each metric is its best over the sweep.",
        ),
        &quantities,
        &compared,
    );
    Ok(figure(
        d.title.as_deref().unwrap_or("Summary"),
        &caption,
        &format!("<th scope=\"col\">Metric</th>{}", head.concat()),
        &rows,
    ))
}

/// A load written without its kind (`load: 4`) must name one kind of sweep among `keys`'
/// runs: 4 req/s and concurrency 4 are different points, and one table row must not set
/// them side by side.
fn one_kind_at(
    ctx: &ReportContext<'_>,
    keys: &[String],
    load: f64,
    kind: Option<LoadKind>,
) -> Result<(), String> {
    if kind.is_some() {
        return Ok(());
    }
    let mut seen: Vec<(&str, &Run)> = Vec::new();
    for key in keys {
        for run in ctx.runs_of(key) {
            let at_load = run.load.target.value().is_some_and(|v| same(v, load));
            let kind = LoadKind::of(&run.load.target);
            if at_load
                && kind.is_some()
                && !seen
                    .iter()
                    .any(|(_, r)| LoadKind::of(&r.load.target) == kind)
            {
                seen.push((key, run));
            }
        }
    }
    let [(a, run_a), (b, run_b), ..] = seen[..] else {
        return Ok(());
    };
    let (ta, tb) = (run_a.load.target, run_b.load.target);
    let which = if a == b {
        format!("`{a}` has runs at {ta} and at {tb}")
    } else {
        format!("`{a}` has a run at {ta} and `{b}` one at {tb}")
    };
    let n = format::number(load);
    Err(format!(
        "`load: {n}` is ambiguous: {which}; write `load: {n} req/s` or `load: concurrency {n}`"
    ))
}

/// The value of `q` for configuration `key`, as `take` says.
fn value_of<'c>(
    ctx: &'c ReportContext<'_>,
    q: Quantity,
    key: &str,
    take: Take,
) -> Option<(f64, &'c Run)> {
    let runs = ctx.runs_of(key);
    let mut values = runs.into_iter().filter_map(|r| q.of(r).map(|v| (v, r)));
    match take {
        Take::At(load, kind) => values.find(|(_, r)| {
            r.load.target.value().is_some_and(|v| same(v, load))
                && (kind.is_none() || LoadKind::of(&r.load.target) == kind)
        }),
        Take::Max => values.reduce(|a, b| if b.0 > a.0 { b } else { a }),
        Take::Min => values.reduce(|a, b| if b.0 < a.0 { b } else { a }),
    }
}

/// An `sla` table: each use case's target checked for each configuration at one load.
fn sla(ctx: &ReportContext<'_>, d: &TableDirective) -> Result<String, String> {
    let cases = d.use_cases.as_ref().filter(|c| !c.is_empty()).ok_or(
        "an sla table needs `use_cases`, a list such as [{name: Chat, metric: ttft:p95, max: 500}]",
    )?;
    let load = d
        .load
        .as_ref()
        .ok_or("an sla table needs `load`: the load point the targets are checked at")?
        .parse()?;
    let keys = ctx.config_keys(d.configs.as_deref())?;
    one_kind_at(ctx, &keys, load.0, load.1)?;
    let mut rows = Vec::new();
    for case in cases {
        let q = parse_quantity(&case.metric)?;
        let (limit, at_most) = match (case.max, case.min) {
            (Some(max), None) => (max, true),
            (None, Some(min)) => (min, false),
            _ => {
                return Err(format!(
                    "use case `{}`: expected exactly one of `max` or `min`",
                    case.name
                ))
            }
        };
        let mut cells = String::new();
        for key in &keys {
            cells += &match value_of(ctx, q, key, Take::At(load.0, load.1)) {
                None => "<td title=\"no data at this load\">–</td>".to_string(),
                Some((value, run)) => {
                    let within = if at_most {
                        value <= limit
                    } else {
                        value >= limit
                    };
                    let failures = too_many_failures(q, run);
                    let pass = within && failures.is_none();
                    let title = match &failures {
                        Some(why) => format!("{why}; {}", run.source()),
                        None => run.source(),
                    };
                    format!(
                        "<td class=\"{}\" title=\"{}\">{} {}{}</td>",
                        if pass { "pass" } else { "fail" },
                        escape(&title),
                        if pass { "✓" } else { "✗" },
                        escape(&format::with_unit(value, q.unit())),
                        if failures.is_some() {
                            " <small>(failures)</small>"
                        } else {
                            ""
                        }
                    )
                }
            };
        }
        rows.push(format!(
            "<tr><th scope=\"row\">{} <small>({q} {} {})</small></th>{cells}</tr>",
            escape(&case.name),
            if at_most { "≤" } else { "≥" },
            escape(&format::with_unit(limit, q.unit())),
        ));
    }
    let head: String = keys
        .iter()
        .map(|k| format!("<th scope=\"col\">{}</th>", escape(&ctx.display(k).0)))
        .collect();
    Ok(figure(
        d.title.as_deref().unwrap_or("Service-level targets"),
        d.caption.as_deref().unwrap_or(""),
        &format!("<th scope=\"col\">Use case (target)</th>{head}"),
        &rows,
    ))
}

/// A `head_to_head` table: two configurations per quantity, the faster and by how much, or
/// "no clear difference".
fn head_to_head(ctx: &ReportContext<'_>, d: &TableDirective) -> Result<String, String> {
    let metric = d
        .metric
        .as_deref()
        .ok_or("a head-to-head needs `metric`, such as ttft:mean")?;
    let q = parse_quantity(metric)?;
    let keys = match d.configs.as_deref() {
        Some(k @ [_, _]) => ctx.config_keys(Some(k))?,
        _ => return Err("a head-to-head needs `configs`: exactly two configurations".into()),
    };
    let decimals = d.decimals.unwrap_or(2).min(6);
    let columns = workload::columns(d.workload.as_deref())?;
    // Costs follow a reader's prices on the page: the figures carry their configuration and
    // value, the figure says it compares costs (`app/src/components/prices.rs`).
    let priced = crate::cost::is_cost(q);
    let (a, b) = (ctx.runs_of(&keys[0]), ctx.runs_of(&keys[1]));
    let names = [ctx.display(&keys[0]).0, ctx.display(&keys[1]).0];
    let mut rows = Vec::new();
    let mut compared: Vec<Vec<(&str, &Run)>> = Vec::new();
    for run_a in &a {
        let Some(load) = run_a.load.target.value() else {
            continue;
        };
        if let Some(wanted) = &d.loads {
            if !wanted.iter().any(|w| same(*w, load)) {
                continue;
            }
        }
        // Same kind of sweep and same load: 1 req/s is not concurrency 1.
        let kind = LoadKind::of(&run_a.load.target);
        let Some(run_b) = b.iter().find(|r| {
            LoadKind::of(&r.load.target) == kind
                && r.load.target.value().is_some_and(|v| same(v, load))
        }) else {
            continue;
        };
        compared.push(vec![
            (names[0].as_str(), *run_a),
            (names[1].as_str(), *run_b),
        ]);
        let (va, vb) = (q.of(run_a), q.of(run_b));
        let cell =
            |v: Option<f64>, key: &str, run: &Run| head_to_head_value(q, v, key, run, decimals);
        let (winner, by) = verdict_cells(q, (run_a, run_b), (va, vb), &names, decimals);
        rows.push(format!(
            "<tr><th scope=\"row\">{}</th>{}<td>{}</td><td>{}</td><td>{winner}</td><td>{by}</td></tr>",
            escape(&run_a.load.target.to_string()),
            workload::cells(&columns, (run_a, run_b), &names),
            cell(va, &keys[0], run_a),
            cell(vb, &keys[1], run_b),
        ));
    }
    if rows.is_empty() {
        return Err(format!(
            "`{}` and `{}` share no load point{}",
            keys[0],
            keys[1],
            if d.loads.is_some() {
                " among `loads`"
            } else {
                ""
            }
        ));
    }
    let (verdict, by) = verdict_headings(q);
    let head = format!(
        "<th scope=\"col\">Load</th>{}<th scope=\"col\">{}</th><th scope=\"col\">{}</th>\
         <th scope=\"col\">{verdict}</th><th scope=\"col\">{by}</th>",
        workload::head(&columns),
        escape(&names[0]),
        escape(&names[1])
    );
    // Its load labels stay on one line; a head-to-head of costs has its rows' verdicts
    // judged again at a reader's prices.
    let start = if priced {
        "<figure class=\"data-table head-to-head\" data-versus=\"cost\">"
    } else {
        "<figure class=\"data-table head-to-head\">"
    };
    let caption = with_notes(d.caption.as_deref().unwrap_or(""), &[q], &compared);
    Ok(figure_from(
        start,
        d.title
            .as_deref()
            .unwrap_or(&format!("{q}: {} vs {}", names[0], names[1])),
        &caption,
        &head,
        &rows,
    ))
}

/// A head-to-head row's verdict cells: who is better and by how much, with the 95% interval
/// of the gap where both values have one; "no clear difference" where it includes none.
fn verdict_cells(
    q: Quantity,
    (run_a, run_b): (&Run, &Run),
    (va, vb): (Option<f64>, Option<f64>),
    names: &[String; 2],
    decimals: usize,
) -> (String, String) {
    use crate::noise::Finding;
    let by_text = |by: f64| format!("{}%", format::fixed(by, decimals));
    match super::verdicts::finding(q, run_a, run_b).map(|(f, ..)| f) {
        Some(Finding::Clear {
            winner,
            by,
            interval,
        }) => (
            escape(&names[winner]),
            format!(
                "{} <small class=\"ci\">({})</small>",
                by_text(by),
                interval.percent_text()
            ),
        ),
        Some(Finding::NoClearDifference {
            ahead,
            by,
            interval,
        }) => (
            format!(
                "<span class=\"unclear\">{}</span>",
                crate::noise::NO_CLEAR_DIFFERENCE
            ),
            format!(
                "<span title=\"{}\">{} <small class=\"ci\">({})</small></span>",
                escape(&format!(
                    "{}'s value is {} better, but the 95% interval of the difference \
                     includes none",
                    names[ahead],
                    by_text(by)
                )),
                by_text(by),
                interval.percent_text()
            ),
        ),
        Some(Finding::NoiseUnknown) | None => bare_verdict_cells(q, va, vb, names),
    }
}

/// The verdict cells from the values alone, when an interval is missing.
fn bare_verdict_cells(
    q: Quantity,
    va: Option<f64>,
    vb: Option<f64>,
    names: &[String; 2],
) -> (String, String) {
    match va.zip(vb).and_then(|(x, y)| Verdict::of(x, y, q.better())) {
        Some(verdict @ Verdict::Better(i, by)) => {
            let by = match by {
                Some(_) => verdict.by_text(),
                None => "<span title=\"the other value is zero\">–</span>".to_string(),
            };
            (escape(&names[i]), by)
        }
        Some(Verdict::Tie) => ("tie".to_string(), Verdict::Tie.by_text()),
        None => ("–".to_string(), "–".to_string()),
    }
}

/// `caption` followed by the comparison's notes (noise unknown, workloads differ).
/// A summary row's quantity and the aggregate its entry asks for: `output_throughput:max` is a
/// per-run quantity with the aggregate after it; otherwise the metric's quantity and `take`.
fn summary_quantity<'a>(
    metric: &str,
    take: Option<&'a str>,
) -> Result<(Quantity, Option<&'a str>), String> {
    Ok(match metric.rsplit_once(':') {
        Some((name, agg @ ("max" | "min" | "peak")))
            if parse_quantity(name).is_ok_and(|q| !matches!(q, Quantity::Latency { .. })) =>
        {
            let agg = if agg == "min" { "min" } else { "max" };
            (parse_quantity(name)?, Some(agg))
        }
        _ => (parse_quantity(metric)?, take),
    })
}

/// Which value of each configuration a summary row shows: the aggregate `take` names, else the
/// one at `load`, else the best over the sweep (the highest or lowest, as `q` is better).
fn summary_take(
    q: Quantity,
    load: Option<(f64, Option<LoadKind>)>,
    take: Option<&str>,
) -> Result<Take, String> {
    Ok(match (load, take) {
        (_, Some("max")) => Take::Max,
        (_, Some("min")) => Take::Min,
        (_, Some(other)) => {
            return Err(format!("`take: {other}`: expected max or min"));
        }
        (Some((at, kind)), None) => Take::At(at, kind),
        (None, None) => match q.better() {
            Better::Higher => Take::Max,
            Better::Lower => Take::Min,
        },
    })
}

/// One cell of a summary row: configuration `key`'s value of `q` (priced when it is a cost),
/// in bold when it is the row's best, marked when it is tied with the best.
fn summary_cell(
    key: &str,
    q: Quantity,
    value: Option<(f64, &Run)>,
    best: bool,
    tied: bool,
) -> String {
    let Some((value, run)) = value else {
        return "<td>–</td>".to_string();
    };
    let text = format::with_unit(value, q.unit());
    let text = if crate::cost::is_cost(q) {
        priced_span(key, value, &text, q.unit(), None)
    } else {
        escape(&text)
    };
    let title = escape(&cell_title(q, run));
    if best {
        format!("<td class=\"best\" title=\"{title}\"><strong>{text}</strong></td>")
    } else if tied {
        format!("<td class=\"tied\" title=\"{title}\">{text} <small>(tied)</small></td>")
    } else {
        format!("<td title=\"{title}\">{text}</td>")
    }
}

/// A summary's last row, "Best for": the rows each configuration is best in.
fn best_for_row(best_for: &[Vec<String>]) -> String {
    let cells: Vec<String> = best_for
        .iter()
        .map(|wins| {
            format!(
                "<td>{}</td>",
                if wins.is_empty() {
                    "–".to_string()
                } else {
                    escape(&wins.join(", "))
                }
            )
        })
        .collect();
    format!(
        "<tr class=\"best-for\"><th scope=\"row\">Best for</th>{}</tr>",
        cells.concat()
    )
}

/// A head-to-head's value of `q` for configuration `key` (`v`, of `run`), with `decimals`
/// decimals, priced when it is a cost, its 95% interval as its title when there is one.
fn head_to_head_value(
    q: Quantity,
    v: Option<f64>,
    key: &str,
    run: &Run,
    decimals: usize,
) -> String {
    v.map_or("–".to_string(), |v| {
        let text = format::with_unit_fixed(v, q.unit(), decimals);
        let shown = if crate::cost::is_cost(q) {
            priced_span(key, v, &text, q.unit(), Some(decimals))
        } else {
            escape(&text)
        };
        match crate::noise::estimate(q, run).and_then(|e| e.interval_text(q.unit())) {
            Some(ci) => format!("<span title=\"{}\">{shown}</span>", escape(&ci)),
            None => shown,
        }
    })
}

/// The headings of a head-to-head's last two columns for `q`: who wins and by how much
/// ("Fastest", "Faster by (%)"; "Cheapest" for a cost).
fn verdict_headings(q: Quantity) -> (&'static str, &'static str) {
    match q.better() {
        Better::Lower if crate::cost::is_cost(q) => ("Cheapest", "Cheaper by (%)"),
        Better::Lower if q.unit() == "ms" => ("Fastest", "Faster by (%)"),
        Better::Lower => ("Lowest", "Lower by (%)"),
        Better::Higher => ("Highest", "Higher by (%)"),
    }
}

/// `caption` followed by the notes on what the compared runs can say (noise, workloads).
fn with_notes(caption: &str, quantities: &[Quantity], compared: &[Vec<(&str, &Run)>]) -> String {
    let notes = super::verdicts::notes(quantities, compared);
    std::iter::once(caption.to_string())
        .chain(notes)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A row's name: `TTFT p50 at 10 req/s`, `Output throughput (peak)`.
fn row_label(q: Quantity, take: Take, at: Option<LoadTarget>) -> String {
    match (take, at) {
        (Take::At(..), Some(at)) => format!("{q} at {at}"),
        (Take::At(load, _), None) => format!("{q} at load {}", format::number(load)),
        (Take::Max, _) => format!("{q} (peak)"),
        (Take::Min, _) => format!("{q} (lowest)"),
    }
}

/// The index of the best value; `None` when there is no value or a tie for best.
fn best_index(values: &[Option<(f64, &Run)>], better: Better) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    let mut tied = false;
    for (i, v) in values.iter().enumerate() {
        let Some((v, _)) = v else { continue };
        match best {
            None => best = Some((i, *v)),
            Some((_, b)) if *v == b => tied = true,
            Some((_, b)) => {
                let wins = match better {
                    Better::Higher => *v > b,
                    Better::Lower => *v < b,
                };
                if wins {
                    best = Some((i, *v));
                    tied = false;
                }
            }
        }
    }
    best.filter(|_| !tied).map(|(i, _)| i)
}

/// The configurations (by index) whose value is within the noise of the `best` one, the best
/// among them; empty when the best is clearly better than every other, or has none to beat.
fn tied_with(q: Quantity, values: &[Option<(f64, &Run)>], best: Option<usize>) -> Vec<usize> {
    use crate::noise::Finding;
    let Some((_, best_run)) = best.and_then(|b| values[b]) else {
        return Vec::new();
    };
    let tied: Vec<usize> = values
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != best)
        .filter_map(|(i, v)| v.map(|(_, run)| (i, run)))
        .filter(|(_, run)| {
            matches!(
                super::verdicts::finding(q, best_run, run).map(|(f, ..)| f),
                Some(Finding::NoClearDifference { .. })
            )
        })
        .map(|(i, _)| i)
        .collect();
    match best {
        Some(b) if !tied.is_empty() => std::iter::once(b).chain(tied).collect(),
        _ => Vec::new(),
    }
}

/// A summary cell's title: the load, the source, and the value's 95% interval if known.
fn cell_title(q: Quantity, run: &Run) -> String {
    let interval = crate::noise::estimate(q, run)
        .and_then(|e| e.interval_text(q.unit()))
        .map_or(String::new(), |ci| format!("; {ci}"));
    format!("{} ({}){interval}", run.load.target, run.source())
}

/// Why `run` misses a latency percentile target whatever its value (see
/// [`crate::decision::too_many_failures`]).
fn too_many_failures(q: Quantity, run: &Run) -> Option<String> {
    crate::decision::too_many_failures(q, run.requests.success_rate()? * 100.0)
}
