//! The "Over time" section of a drafted report: when the files hold the same configuration
//! measured on several dates (a nightly folder), a trend of its first latency and of its output
//! throughput at the load point measured on the most dates, regressions marked.

use super::measured::{has, load_text, quantity_name, quoted, Measured};
use crate::model::{LoadTarget, RunDate};
use crate::quantity::Quantity;

/// The section, or nothing when no configuration was measured at one load on two dates.
pub(super) fn section(m: &Measured) -> String {
    let Some((target, keys)) = most_dated_load(m) else {
        return String::new();
    };
    let Some(load) = load_text(&target) else {
        return String::new();
    };
    let configs: Vec<String> = keys.iter().map(|k| quoted(k)).collect();
    let mut quantities: Vec<Quantity> = m
        .latencies
        .first()
        .map(|&(metric, stat)| Quantity::Latency { metric, stat })
        .into_iter()
        .collect();
    if has(Quantity::OutputThroughput, m.runs) {
        quantities.push(Quantity::OutputThroughput);
    }
    let mut md = String::from(
        "## Over time\n\nThe same configurations measured on several dates: each run against the \
         runs before it.\n\n",
    );
    for (n, q) in quantities.into_iter().enumerate() {
        let name = quantity_name(q);
        let (metric, stat) = match name.split_once(':') {
            Some((metric, stat)) => (metric.to_string(), format!("stat: {stat}\n")),
            None => (name.clone(), String::new()),
        };
        md.push_str(&format!(
            "```chart\nid: trend-{n}\nkind: trend\nmetric: {metric}\n{stat}load: {load}\nconfigs: [{}]\n```\n\n",
            configs.join(", ")
        ));
    }
    md
}

/// The load point with the most (configuration, day) pairs among configurations measured
/// there on at least two days, with those configurations; the higher load on a tie. Days, not
/// times: a report combines the runs of one configuration at one load on one day (repeats).
fn most_dated_load(m: &Measured) -> Option<(LoadTarget, Vec<String>)> {
    let mut seen: Vec<(LoadTarget, String, Vec<&str>)> = Vec::new();
    for run in &m.swept {
        let Some(date) = run.provenance.date.as_ref().map(RunDate::day) else {
            continue;
        };
        let key = run.config.key();
        match seen
            .iter_mut()
            .find(|(t, k, _)| *t == run.load.target && *k == key)
        {
            Some((_, _, dates)) if !dates.contains(&date) => dates.push(date),
            Some(_) => {}
            None => seen.push((run.load.target, key, vec![date])),
        }
    }
    seen.retain(|(_, _, dates)| dates.len() >= 2);
    let mut best: Option<(LoadTarget, usize)> = None;
    for (target, _, _) in &seen {
        let count: usize = seen
            .iter()
            .filter(|(t, _, _)| t == target)
            .map(|(_, _, d)| d.len())
            .sum();
        let better = best.is_none_or(|(t, c)| {
            count > c || (count == c && target.value().unwrap_or(0.0) > t.value().unwrap_or(0.0))
        });
        if better {
            best = Some((*target, count));
        }
    }
    let (target, _) = best?;
    let keys = seen
        .into_iter()
        .filter(|(t, _, _)| *t == target)
        .map(|(_, k, _)| k)
        .collect();
    Some((target, keys))
}
