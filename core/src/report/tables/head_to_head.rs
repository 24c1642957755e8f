//! ```` ```table ```` `kind: head-to-head`: two configurations at each load point they share,
//! which is better and by how much with the 95% interval of the gap, or "no clear difference";
//! one sentence above it says the same (`gist.rs`).

use super::super::context::ReportContext;
use super::super::load::{same, LoadKind};
use super::super::values::{escape, parse_quantity, priced_span};
use super::directive::TableDirective;
use super::figure::{figure_from, with_notes};
use super::gist::{self, Outcome};
use super::workload;
use crate::compare::Verdict;
use crate::format;
use crate::model::Run;
use crate::quantity::{Better, Quantity};

/// A `head_to_head` table: two configurations per quantity, the faster and by how much, or
/// "no clear difference".
pub(super) fn head_to_head(ctx: &ReportContext<'_>, d: &TableDirective) -> Result<String, String> {
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
    let mut outcomes: Vec<(String, Outcome)> = Vec::new();
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
        let (winner, by, outcome) = verdict_cells(q, (run_a, run_b), (va, vb), &names, decimals);
        outcomes.push((run_a.load.target.to_string(), outcome));
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
    // A cost's verdicts follow the reader's prices, which a sentence written now would not.
    let sentence = (!priced)
        .then(|| gist::head_to_head(&names, comparative(q), &outcomes))
        .flatten();
    let table = figure_from(
        start,
        d.title
            .as_deref()
            .unwrap_or(&format!("{q}: {} vs {}", names[0], names[1])),
        &caption,
        &head,
        &rows,
    );
    Ok(match sentence {
        Some(sentence) => format!("{}{table}", gist::lead(&sentence)),
        None => table,
    })
}

/// The comparative a head-to-head's sentence uses for `q`.
fn comparative(q: Quantity) -> &'static str {
    match q.better() {
        Better::Lower if crate::cost::is_cost(q) => "cheaper",
        Better::Lower if q.unit() == "ms" => "faster",
        Better::Lower => "lower",
        Better::Higher => "higher",
    }
}

/// A head-to-head row's verdict cells: who is better and by how much, with the 95% interval
/// of the gap where both values have one; "no clear difference" where it includes none; and
/// the row's outcome for the table's sentence.
fn verdict_cells(
    q: Quantity,
    (run_a, run_b): (&Run, &Run),
    (va, vb): (Option<f64>, Option<f64>),
    names: &[String; 2],
    decimals: usize,
) -> (String, String, Outcome) {
    use crate::noise::Finding;
    let by_text = |by: f64| format!("{}%", format::fixed(by, decimals));
    match super::super::verdicts::finding(q, run_a, run_b).map(|(f, ..)| f) {
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
            Outcome::Wins {
                winner,
                by: Some(by),
                judged: true,
            },
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
            Outcome::Unclear,
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
) -> (String, String, Outcome) {
    match va.zip(vb).and_then(|(x, y)| Verdict::of(x, y, q.better())) {
        Some(verdict @ Verdict::Better(winner, by)) => {
            let text = match by {
                Some(_) => verdict.by_text(),
                None => "<span title=\"the other value is zero\">–</span>".to_string(),
            };
            let outcome = Outcome::Wins {
                winner,
                by,
                judged: false,
            };
            (escape(&names[winner]), text, outcome)
        }
        Some(Verdict::Tie) => ("tie".to_string(), Verdict::Tie.by_text(), Outcome::Tie),
        None => ("–".to_string(), "–".to_string(), Outcome::Unknown),
    }
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
