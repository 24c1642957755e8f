//! The sections of a drafted report about time: when the files hold the same configuration
//! measured on several dates. A nightly folder ([`Dated::is_history`]) reads as a history and
//! leads with it ([`lead`]): where each configuration stands against its current level, then a
//! trend of every metric at every load measured on several days, change points and what
//! changed marked. Runs that were merely measured twice end with an "Over time" section
//! ([`section`]): a trend of the first latency and the throughput at the most-dated load.

use super::measured::{has, load_text, quantity_name, quoted, Measured};
use crate::model::{LoadTarget, RunDate};
use crate::quantity::Quantity;

/// Days below which dated runs are runs measured again, not a history.
const HISTORY_DAYS: usize = 3;

/// The load points measured on several days.
pub(super) struct Dated {
    /// Each load with the configurations measured there on two days or more, the load with
    /// the most (configuration, day) pairs first (the higher load on a tie).
    loads: Vec<(LoadTarget, Vec<String>)>,
    /// The most days one configuration was measured on at one load.
    most_days: usize,
    /// How many of the runs belong to a (configuration, load) measured on two days or more.
    runs_in_series: usize,
}

impl Dated {
    /// The load points of `m` measured on two days or more, or `None`.
    pub(super) fn of(m: &Measured) -> Option<Dated> {
        let mut seen: Vec<(LoadTarget, String, Vec<&str>, usize)> = Vec::new();
        for run in m.runs {
            let Some(date) = run.provenance.date.as_ref().map(RunDate::day) else {
                continue;
            };
            if load_text(&run.load.target).is_none() {
                continue;
            }
            let key = run.config.key();
            match seen
                .iter_mut()
                .find(|(t, k, _, _)| *t == run.load.target && *k == key)
            {
                Some((_, _, dates, runs)) => {
                    *runs += 1;
                    if !dates.contains(&date) {
                        dates.push(date);
                    }
                }
                None => seen.push((run.load.target, key, vec![date], 1)),
            }
        }
        seen.retain(|(_, _, dates, _)| dates.len() >= 2);
        let mut loads: Vec<(LoadTarget, Vec<String>, usize)> = Vec::new();
        for (target, key, dates, _) in &seen {
            match loads.iter_mut().find(|(t, _, _)| t == target) {
                Some((_, keys, count)) => {
                    keys.push(key.clone());
                    *count += dates.len();
                }
                None => loads.push((*target, vec![key.clone()], dates.len())),
            }
        }
        loads.sort_by(|(ta, _, a), (tb, _, b)| {
            b.cmp(a).then_with(|| {
                let value = |t: &LoadTarget| t.value().unwrap_or(0.0);
                value(tb).total_cmp(&value(ta))
            })
        });
        Some(Dated {
            most_days: seen.iter().map(|(_, _, d, _)| d.len()).max()?,
            runs_in_series: seen.iter().map(|(_, _, _, n)| n).sum(),
            loads: loads.into_iter().map(|(t, keys, _)| (t, keys)).collect(),
        })
    }

    /// True when the runs are a history: one configuration at one load on three days or more,
    /// and at least half the runs in such series.
    pub(super) fn is_history(&self, runs: usize) -> bool {
        self.most_days >= HISTORY_DAYS && self.runs_in_series * 2 >= runs
    }
}

/// The head of a history's page: "Where it stands" (the newest runs against their current
/// levels) and "Over time" (a trend per metric, a grid of loads where there are several).
pub(super) fn lead(m: &Measured, dated: &Dated) -> String {
    let quantities = quantities(m);
    let names: Vec<String> = quantities.iter().map(|&q| quantity_name(q)).collect();
    let mut md = format!(
        "## Where it stands\n\n```table\nkind: history\nmetrics: [{}]\n```\n\n\
         ## Over time\n\nEach metric over the nights, read as a history: a step per stretch \
         at one level, the change points between them with what changed in the runs' files, \
         and single bad nights ringed as outliers.\n\n",
        names.join(", ")
    );
    for (n, q) in quantities.into_iter().enumerate() {
        md.push_str(&trend_block(&format!("history-{n}"), q, &dated.loads));
    }
    md
}

/// The "Over time" section of runs measured again: the first latency and the throughput at
/// the most-dated load.
pub(super) fn section(m: &Measured, dated: &Dated) -> String {
    let Some(first) = dated.loads.first() else {
        return String::new();
    };
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
        md.push_str(&trend_block(
            &format!("trend-{n}"),
            q,
            std::slice::from_ref(first),
        ));
    }
    md
}

/// Every latency the files have (its first statistic) and the output throughput.
fn quantities(m: &Measured) -> Vec<Quantity> {
    let mut out: Vec<Quantity> = m
        .latencies
        .iter()
        .map(|&(metric, stat)| Quantity::Latency { metric, stat })
        .collect();
    if has(Quantity::OutputThroughput, m.runs) {
        out.push(Quantity::OutputThroughput);
    }
    out
}

/// A trend of `q` at one load, or a grid of trends with a panel per load.
fn trend_block(id: &str, q: Quantity, loads: &[(LoadTarget, Vec<String>)]) -> String {
    let name = quantity_name(q);
    let (metric, stat) = match name.split_once(':') {
        Some((metric, stat)) => (metric.to_string(), Some(stat.to_string())),
        None => (name.clone(), None),
    };
    let configs = |keys: &[String]| {
        let quoted: Vec<String> = keys.iter().map(|k| quoted(k)).collect();
        quoted.join(", ")
    };
    if let [(target, keys)] = loads {
        let load = load_text(target).unwrap_or_default();
        let stat = stat.map_or(String::new(), |s| format!("stat: {s}\n"));
        return format!(
            "```chart\nid: {id}\nkind: trend\nmetric: {metric}\n{stat}load: {load}\nconfigs: [{}]\n```\n\n",
            configs(keys)
        );
    }
    let stat = stat.map_or(String::new(), |s| format!(", stat: {s}"));
    let panels: Vec<String> = loads
        .iter()
        .filter_map(|(target, keys)| {
            Some(format!(
                "{{kind: trend, metric: {metric}{stat}, load: {}, configs: [{}]}}",
                load_text(target)?,
                configs(keys)
            ))
        })
        .collect();
    format!(
        "```chart\nid: {id}\nkind: grid\ncolumns: 2\ntitle: {}\npanels: [{}]\n```\n\n",
        quoted(&format!("{q} over time, at each load")),
        panels.join(", ")
    )
}
