//! ```` ```table ```` `kind: summary`: each configuration's value of each quantity, the best
//! of each row in bold unless another is within its noise (tied), and a "Best for" row; one
//! sentence above it says who is best on what (`gist.rs`).

use super::super::context::ReportContext;
use super::super::load::LoadKind;
use super::super::values::{escape, parse_quantity, priced_span};
use super::directive::{MetricEntry, TableDirective};
use super::figure::{figure, with_notes};
use super::gist;
use super::take::{one_kind_at, value_of, Take};
use crate::format;
use crate::model::{LoadTarget, Run};
use crate::quantity::{Better, Quantity};

/// A `summary` table: each configuration's value of each quantity, the best marked, ties in
/// noise said, and the "Best for" row.
pub(super) fn summary(ctx: &ReportContext<'_>, d: &TableDirective) -> Result<String, String> {
    let entries = d
        .metrics
        .as_ref()
        .filter(|m| !m.is_empty())
        .ok_or("a summary needs `metrics`, a list such as [ttft:p50, output_throughput]")?;
    let all_keys = ctx.config_keys(d.configs.as_deref())?;
    let mut specs = Vec::new();
    for entry in entries {
        specs.push(row_spec(ctx, d, &all_keys, entry)?);
    }
    // Each row's value of every configuration, read once.
    let read: Vec<Vec<Option<(f64, &Run)>>> = specs
        .iter()
        .map(|r| {
            all_keys
                .iter()
                .map(|k| value_of(ctx, r.q, k, r.take))
                .collect()
        })
        .collect();
    // A configuration with no value in any row has no column.
    let kept: Vec<usize> = (0..all_keys.len())
        .filter(|&i| read.iter().any(|row| row[i].is_some()))
        .collect();
    let keys: Vec<&String> = kept.iter().map(|&i| &all_keys[i]).collect();
    // One configuration competes with nothing: no best, no "Best for".
    let competes = keys.len() > 1;
    let names: Vec<String> = keys.iter().map(|k| ctx.display(k).0).collect();
    let mut rows = Vec::new();
    let mut compared: Vec<Vec<(&str, &Run)>> = Vec::new();
    let mut quantities = Vec::new();
    let mut verdicts = Verdicts::new(keys.len());
    for (spec, row) in specs.into_iter().zip(&read) {
        let q = spec.q;
        quantities.push(q);
        let values: Vec<Option<(f64, &Run)>> = kept.iter().map(|&i| row[i]).collect();
        if values.iter().all(Option::is_none) {
            return Err(format!("no configuration reports {q} ({})", spec.metric));
        }
        let best = best_index(&values, q.better()).filter(|_| competes && awards(q));
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
        let label = spec.label.unwrap_or_else(|| row_label(q, spec.take, at));
        verdicts.record(&label, q, best, &tied);
        let cells: Vec<String> = values
            .iter()
            .enumerate()
            .map(|(i, v)| summary_cell(keys[i], q, *v, Some(i) == best, tied.contains(&i)))
            .collect();
        rows.push(format!(
            "<tr><th scope=\"row\">{}</th>{}</tr>",
            escape(&label),
            cells.concat()
        ));
    }
    let sentence = gist::summary(&names, &verdicts.said_best, &verdicts.ties).filter(|_| competes);
    if competes {
        rows.push(best_for_row(&verdicts.best_for));
    }
    let head: Vec<String> = names
        .iter()
        .map(|n| format!("<th scope=\"col\">{}</th>", escape(n)))
        .collect();
    let caption = with_notes(
        d.caption.as_deref().unwrap_or(default_caption(competes)),
        &quantities,
        &compared,
    );
    let table = figure(
        d.title.as_deref().unwrap_or("Summary"),
        &caption,
        &format!("<th scope=\"col\">Metric</th>{}", head.concat()),
        &rows,
    );
    Ok(match sentence {
        Some(sentence) => format!("{}{table}", gist::lead(&sentence)),
        None => table,
    })
}

/// A summary's caption when the block gives none.
fn default_caption(competes: bool) -> &'static str {
    if competes {
        "Best value of each row in bold, unless it is within the noise of another (tied: the \
         95% interval of their difference includes none). Without a load point, each metric is \
         its best over the sweep."
    } else {
        "Without a load point, each metric is its best over the sweep."
    }
}

/// What a summary's rows found, by configuration index: the rows each is best in (the "Best
/// for" row), and what the sentence says: the same without costs (which a reader's prices may
/// judge again) and the rows tied within the noise, with who is tied.
struct Verdicts {
    best_for: Vec<Vec<String>>,
    said_best: Vec<Vec<String>>,
    ties: Vec<(String, Vec<usize>)>,
}

impl Verdicts {
    fn new(configurations: usize) -> Verdicts {
        Verdicts {
            best_for: vec![Vec::new(); configurations],
            said_best: vec![Vec::new(); configurations],
            ties: Vec::new(),
        }
    }

    /// Row `label` of `q`: its `best`, or the configurations `tied` within the noise.
    fn record(&mut self, label: &str, q: Quantity, best: Option<usize>, tied: &[usize]) {
        let said = !crate::cost::is_cost(q);
        if let Some(b) = best {
            self.best_for[b].push(label.to_string());
            if said {
                self.said_best[b].push(label.to_string());
            }
        }
        if !tied.is_empty() && said {
            let mut who = tied.to_vec();
            who.sort_unstable();
            self.ties.push((label.to_string(), who));
        }
    }
}

/// One row of a summary, as its entry asks: the metric as written, its quantity, which value
/// of each configuration it takes, and the label it is given.
struct RowSpec<'d> {
    metric: &'d str,
    q: Quantity,
    take: Take,
    label: Option<String>,
}

/// `entry` read, or what is wrong with it (a load none of `keys` was measured at included).
fn row_spec<'d>(
    ctx: &ReportContext<'_>,
    d: &TableDirective,
    keys: &[String],
    entry: &'d MetricEntry,
) -> Result<RowSpec<'d>, String> {
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
        one_kind_at(ctx, keys, at, kind)?;
    }
    let take = summary_take(q, load, take)?;
    Ok(RowSpec {
        metric,
        q,
        take,
        label,
    })
}

/// Whether a row of `q` marks a best: not where neither direction wins (a queue's depth, a
/// KV cache's use are causes to read, not scores).
fn awards(q: Quantity) -> bool {
    match q {
        Quantity::Engine(e) => e.higher_is_better().is_some(),
        _ => true,
    }
}

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
                super::super::verdicts::finding(q, best_run, run).map(|(f, ..)| f),
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
