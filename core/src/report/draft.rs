//! The standard sections of a report for whatever runs it has: a summary table, the latencies,
//! throughput and success against load, throughput against latency with its Pareto frontier, a
//! head-to-head where two configurations share loads, the latency distribution where the
//! files carry per-request data, and trends where they hold one configuration on several dates
//! (`draft/over_time.rs`): a nightly folder leads with its history. No chart of one point: runs
//! at one load per configuration are bars, or a history's trends. Dropped files, automatic pages and `benchdeck new report`
//! ([`starter_report`]) all start from it.
//!
//! Every word of prose is ours: names from the files (configuration keys) appear only as quoted
//! directive values, which the blocks check and escape like any other.

use std::collections::BTreeMap;

use crate::model::{LoadTarget, Metric, Run, Stat};
use crate::quantity::{EngineQuantity, Quantity};

mod measured;
mod over_time;

use measured::{has, load_text, quantity_name, quoted, Measured};

/// A whole report to start writing from (`benchdeck new report`): front matter with `title`, the
/// `results` globs and every configuration with its key as the label to edit, a paragraph for
/// the author to replace, then [`sections`].
pub fn starter_report(title: &str, results: &[String], runs: &[&Run]) -> String {
    let mut keys: Vec<String> = runs.iter().map(|r| r.config.key()).collect();
    keys.sort();
    keys.dedup();
    let globs: Vec<String> = results.iter().map(|g| quoted(g)).collect();
    let mut md = format!(
        "---\ntitle: {}\nsummary: >-\n  {} run{} of {} configuration{}.\nresults: [{}]\nconfigs:\n",
        quoted(title),
        runs.len(),
        crate::format::plural(runs.len()),
        keys.len(),
        crate::format::plural(keys.len()),
        globs.join(", ")
    );
    for key in &keys {
        md.push_str(&format!("  - key: {k}\n    label: {k}\n", k = quoted(key)));
    }
    md.push_str(
        "---\n\nWhat was measured, on which hardware and software, and what the reader should take \
         away: replace this paragraph with the story. Quote numbers with inline values such as \
         `` `=max(output_throughput, <configuration>)` `` so they stay true to the data.\n\n",
    );
    md.push_str(&sections(runs));
    md
}

/// The Markdown body (no front matter) of the standard sections for `runs`. Says so in words
/// when nothing can be charted.
pub fn sections(runs: &[&Run]) -> String {
    if runs.is_empty() {
        return "No run could be read from these files, so there is nothing to chart.\n".into();
    }
    let m = Measured::of(runs);
    if m.latencies.is_empty() && m.rates.is_empty() {
        return "The runs read hold no latency, throughput or success count that could be \
                charted: see the problems listed above.\n"
            .into();
    }
    let dated = over_time::Dated::of(&m);
    if let Some(dated) = dated.as_ref().filter(|d| d.is_history(runs.len())) {
        return history_sections(&m, dated);
    }
    let mut md = summary_table(&m);
    if m.swept.is_empty() {
        md.push_str(&measurements(&m));
        md.push_str(&distribution(runs));
        md.push_str(&engine(runs, "bars"));
        md.push_str(EVERY_RUN);
        return md;
    }
    md.push_str(&sweep_sections(&m));
    md.push_str(&distribution(runs));
    if let Some(dated) = &dated {
        md.push_str(&over_time::section(&m, dated));
    }
    md.push_str(&engine(&m.swept, "lines"));
    md.push_str(EVERY_RUN);
    md
}

/// The page of a history (a nightly folder): where each configuration stands and its trends
/// first; then, where some configuration was swept over loads, the newest runs against load;
/// never a chart of one point.
fn history_sections(m: &Measured, dated: &over_time::Dated) -> String {
    let mut md = over_time::lead(m, dated);
    if !m.swept.is_empty() {
        md.push_str(
            "## The newest runs across their loads

Each configuration's newest run at each load point.

",
        );
        md.push_str(&sweep_sections(m));
    }
    md.push_str(&distribution(m.runs));
    md.push_str(&engine(
        m.runs,
        if m.swept.is_empty() { "bars" } else { "lines" },
    ));
    md.push_str(EVERY_RUN);
    md
}

/// The charts of configurations swept over loads: at a glance, each latency, the rates, the
/// trade-off, a scorecard at a target interactivity and a head-to-head.
fn sweep_sections(m: &Measured) -> String {
    let mut md = at_a_glance(m);
    md.push_str(&latency_sections(m));
    md.push_str(&rate_sections(m));
    md.push_str(&tradeoff(m));
    md.push_str(&scorecard(m));
    md.push_str(&head_to_head(m));
    md
}

/// A scorecard at the round interactivity most configurations' sweeps cross (the higher on a
/// tie), where two configurations or more were swept: what each serves while its users see
/// that many tokens a second. Nothing when no sweep crosses one.
fn scorecard(m: &Measured) -> String {
    let mut sweeps: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for run in &m.swept {
        if let Some(v) = Quantity::Interactivity.of(run) {
            sweeps.entry(run.config.key()).or_default().push(v);
        }
    }
    if sweeps.len() < 2 {
        return String::new();
    }
    let crossing = |target: f64| {
        sweeps
            .values()
            .filter(|values| {
                let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                lo < target && target <= hi
            })
            .count()
    };
    let Some(target) = crate::quantity::ROUND_INTERACTIVITY
        .into_iter()
        .filter(|&t| crossing(t) > 0)
        .max_by(|&a, &b| crossing(a).cmp(&crossing(b)).then(a.total_cmp(&b)))
    else {
        return String::new();
    };
    let mut columns: Vec<Quantity> = vec![Quantity::OutputThroughput];
    if has(Quantity::OutputPerGpu, &m.swept) {
        columns.insert(0, Quantity::OutputPerGpu);
    }
    if has(Quantity::CostPerMillionOutput, &m.swept) {
        columns.push(Quantity::CostPerMillionOutput);
    }
    if let Some(&(metric, stat)) = m.latencies.first() {
        columns.push(Quantity::Latency { metric, stat });
    }
    let columns: Vec<String> = columns.into_iter().map(quantity_name).collect();
    format!(
        "## At {target} tokens a second per user\n\nWhat each configuration serves at the highest \
         load where its users still see {target} tokens a second (1000 ÷ mean TPOT), \
         interpolated between the loads measured.\n\n```table\nkind: scorecard\n\
         target: {{metric: interactivity, min: {target}}}\nmetrics: [{}]\n```\n\n",
        columns.join(", ")
    )
}

/// What the engine and its GPUs recorded: a chart of `kind` per figure (against load on a
/// sweep) where some configuration has the figures at two loads or more, else one table of
/// every figure, each configuration's run in a column (a chart of one point a configuration
/// says less than a row of numbers).
fn engine(runs: &[&Run], kind: &str) -> String {
    let figures: Vec<EngineQuantity> = crate::quantity::engine::ALL
        .into_iter()
        .filter(|&q| has(Quantity::Engine(q), runs))
        .collect();
    if figures.is_empty() {
        return String::new();
    }
    let mut md = String::from(
        "## The engine and its GPUs\n\nWhat the serving engine and its GPUs recorded while \
         the runs were sent, read from the files beside them (the table of every run names \
         them): the queue the requests met, how full the KV cache was, what the caches and \
         speculative decoding saved, and what the tokens cost in energy.\n\n",
    );
    if swept_engine(runs) {
        for q in figures {
            md.push_str(&chart_block(q.id(), kind, q.id()));
        }
        return md;
    }
    let rows: Vec<String> = figures
        .iter()
        .map(|q| {
            format!(
                "  - {{metric: {}, label: {}}}\n",
                q.id(),
                quoted(&q.to_string())
            )
        })
        .collect();
    let caption = quoted(
        "Each configuration's run as its engine and GPUs recorded it. The queue, the KV cache, \
         utilisation and power are causes to read, not scores: no best is marked on them.",
    );
    md.push_str(&format!(
        "```table\nkind: summary\ntitle: The engine and its GPUs\ncaption: {caption}\n\
         metrics:\n{}```\n\n",
        rows.concat()
    ));
    md
}

/// True when some configuration has engine figures at two loads or more.
fn swept_engine(runs: &[&Run]) -> bool {
    let mut loads: BTreeMap<String, Vec<LoadTarget>> = BTreeMap::new();
    for run in runs.iter().filter(|r| r.engine.is_some()) {
        let at = loads.entry(run.config.key()).or_default();
        if !at.contains(&run.load.target) {
            at.push(run.load.target);
        }
    }
    loads.values().any(|at| at.len() > 1)
}

/// The table of every run, which ends every page of standard sections.
const EVERY_RUN: &str = "## Every run\n\n```table\nkind: runs\n```\n\n";

/// Every quantity the files have, each configuration at its best over the sweep.
fn summary_table(m: &Measured) -> String {
    let mut summary: Vec<String> = m
        .latencies
        .iter()
        .map(|&(metric, stat)| quantity_name(Quantity::Latency { metric, stat }))
        .collect();
    for (metric, _) in &m.latencies {
        let p99 = Quantity::Latency {
            metric: *metric,
            stat: Stat::P(99.0),
        };
        if has(p99, m.runs) {
            summary.push(quantity_name(p99));
        }
    }
    summary.extend(m.rates.iter().map(|&q| match q {
        Quantity::SuccessRate => quantity_name(q),
        _ => format!("{}:max", quantity_name(q)),
    }));
    format!(
        "## Summary\n\n```table\nkind: summary\ntitle: Each configuration at its best\n\
         caption: Each row at its best over the load points measured.\nmetrics: [{}]\n```\n\n",
        summary.join(", ")
    )
}

/// One load point per configuration (offline throughput or latency runs): bars.
fn measurements(m: &Measured) -> String {
    let mut md = String::from("## Measurements\n\n");
    for (n, &(metric, stat)) in m.latencies.iter().enumerate() {
        let q = quantity_name(Quantity::Latency { metric, stat });
        md.push_str(&chart_block(&format!("latency-{n}"), "bars", &q));
    }
    for (n, &q) in m.rates.iter().enumerate() {
        md.push_str(&chart_block(
            &format!("rate-{n}"),
            "bars",
            &quantity_name(q),
        ));
    }
    md
}

/// The first latencies, the throughput and the success rate against load, side by side.
fn at_a_glance(m: &Measured) -> String {
    let mut panels: Vec<String> = Vec::new();
    for &(metric, stat) in m.latencies.iter().take(2) {
        if has(Quantity::Latency { metric, stat }, &m.swept) {
            panels.push(format!(
                "{{kind: lines, metric: {}, stat: {}}}",
                metric.id(),
                stat
            ));
        }
    }
    for &q in &m.rates {
        if matches!(q, Quantity::OutputThroughput | Quantity::SuccessRate) && has(q, &m.swept) {
            panels.push(format!("{{kind: lines, metric: {}}}", quantity_name(q)));
        }
    }
    if panels.len() < 2 {
        return String::new();
    }
    format!(
        "## At a glance\n\n```chart\nid: at-a-glance\nkind: grid\ncolumns: 2\n\
         title: Every configuration across its load points\npanels: [{}]\n```\n\n",
        panels.join(", ")
    )
}

/// One section per latency metric, with its p50–p99 band where the files have both.
fn latency_sections(m: &Measured) -> String {
    let mut md = String::new();
    for &(metric, stat) in &m.latencies {
        if !has(Quantity::Latency { metric, stat }, &m.swept) {
            continue;
        }
        let band = [Stat::P(50.0), Stat::P(99.0)]
            .iter()
            .all(|&s| has(Quantity::Latency { metric, stat: s }, &m.swept));
        md.push_str(&format!(
            "## {label}\n\n```chart\nid: {id}\nkind: lines\nmetric: {id}\nstat: {stat}\n{band}```\n\n",
            label = metric.label(),
            id = metric.id(),
            band = if band { "band: [p50, p99]\n" } else { "" },
        ));
    }
    md
}

/// Throughput and reliability against load.
fn rate_sections(m: &Measured) -> String {
    let rates: Vec<Quantity> = m
        .rates
        .iter()
        .copied()
        .filter(|&q| has(q, &m.swept))
        .collect();
    if rates.is_empty() {
        return String::new();
    }
    let mut md = String::from("## Throughput and success\n\n");
    for q in rates {
        let name = quantity_name(q);
        md.push_str(&chart_block(&name, "lines", &name));
    }
    md
}

/// The first latency's tail against output throughput over each sweep (a scatter draws each
/// configuration's Pareto frontier).
fn tradeoff(m: &Measured) -> String {
    let Some(&(metric, _)) = m.latencies.first() else {
        return String::new();
    };
    let tail = [Stat::P(99.0), Stat::P(90.0), Stat::Mean]
        .into_iter()
        .find(|&stat| has(Quantity::Latency { metric, stat }, &m.swept));
    match (tail, has(Quantity::OutputThroughput, &m.swept)) {
        (Some(stat), true) => format!(
            "## Throughput against latency\n\n```chart\nid: tradeoff\nkind: scatter\n\
             x: output_throughput\ny: {}\n```\n\n",
            quantity_name(Quantity::Latency { metric, stat })
        ),
        _ => String::new(),
    }
}

/// A head-to-head table of the first two configurations that share at least two load points
/// of one kind, on the first latency.
fn head_to_head(m: &Measured) -> String {
    let Some(&(metric, stat)) = m.latencies.first() else {
        return String::new();
    };
    let mut loads: BTreeMap<String, Vec<LoadTarget>> = BTreeMap::new();
    for run in &m.swept {
        loads
            .entry(run.config.key())
            .or_default()
            .push(run.load.target);
    }
    let keys: Vec<&String> = loads.keys().collect();
    for (i, a) in keys.iter().enumerate() {
        for b in &keys[i + 1..] {
            let shared = loads[*a].iter().filter(|t| loads[*b].contains(t)).count();
            if shared >= 2 {
                return format!(
                    "## Head to head\n\n```table\nkind: head-to-head\nmetric: {}\nconfigs: [{}, {}]\n```\n\n",
                    quantity_name(Quantity::Latency { metric, stat }),
                    quoted(a),
                    quoted(b)
                );
            }
        }
    }
    String::new()
}

/// The CDF of per-request latency at the load that most configurations with per-request data
/// share (the highest such load on a tie), for those configurations.
fn distribution(runs: &[&Run]) -> String {
    let with_samples = |metric: Metric, r: &&Run| {
        r.samples
            .as_ref()
            .and_then(|s| s.latencies(metric))
            .is_some_and(|values| !values.is_empty())
            && r.load.target.value().is_some()
    };
    let Some(metric) = [Metric::Ttft, Metric::E2e]
        .into_iter()
        .find(|&m| runs.iter().any(|r| with_samples(m, r)))
    else {
        return String::new();
    };
    let mut by_load: Vec<(LoadTarget, Vec<String>)> = Vec::new();
    for run in runs.iter().filter(|r| with_samples(metric, r)) {
        let key = run.config.key();
        match by_load.iter_mut().find(|(t, _)| *t == run.load.target) {
            Some((_, keys)) if !keys.contains(&key) => keys.push(key),
            Some(_) => {}
            None => by_load.push((run.load.target, vec![key])),
        }
    }
    let Some((target, keys)) = by_load.into_iter().max_by(|(ta, a), (tb, b)| {
        a.len().cmp(&b.len()).then_with(|| {
            let (va, vb) = (ta.value().unwrap_or(0.0), tb.value().unwrap_or(0.0));
            va.total_cmp(&vb)
        })
    }) else {
        return String::new();
    };
    let Some(load) = load_text(&target) else {
        return String::new();
    };
    let configs: Vec<String> = keys.iter().map(|k| quoted(k)).collect();
    format!(
        "## Latency distribution\n\n```chart\nid: {id}-cdf\nkind: cdf\nmetric: {id}\nload: {load}\nconfigs: [{configs}]\n```\n\n",
        id = metric.id(),
        configs = configs.join(", ")
    )
}

/// A chart block of one quantity (`ttft:p99`, `output_throughput`).
fn chart_block(id: &str, kind: &str, metric: &str) -> String {
    let (metric, stat) = match metric.split_once(':') {
        Some((m, s)) => (m, format!("stat: {s}\n")),
        None => (metric, String::new()),
    };
    format!("```chart\nid: {id}\nkind: {kind}\nmetric: {metric}\n{stat}```\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{EngineMetrics, Gauge};

    fn run_at(rate: f64) -> Run {
        let text = format!(
            r#"{{"date": "20250301-101010", "backend": "vllm", "model_id": "m",
            "request_rate": {rate}, "completed": 10, "mean_ttft_ms": 90.0,
            "output_throughput": 100.0}}"#
        );
        let mut run = crate::import::import("r.json", text.as_bytes())
            .runs
            .remove(0);
        run.engine = Some(Box::new(EngineMetrics {
            waiting: Some(Gauge::mean_only(rate * 2.0)),
            energy_j: Some(50.0),
            ..EngineMetrics::default()
        }));
        run
    }

    /// A run of `backend` at `rate` req/s with mean TPOT `tpot` ms.
    fn tpot_run(backend: &str, rate: f64, tpot: f64) -> Run {
        let text = format!(
            r#"{{"date": "20250301-101010", "backend": "{backend}", "model_id": "m",
            "request_rate": {rate}, "completed": 10, "mean_ttft_ms": 90.0,
            "mean_tpot_ms": {tpot}, "output_throughput": {}}}"#,
            rate * 100.0
        );
        crate::import::import("r.json", text.as_bytes())
            .runs
            .remove(0)
    }

    /// Two sweeps whose users see 100 down to 20 and 50 down to 10 tokens a second: both cross
    /// 25, 30, 40 and 50, so the scorecard is set at the highest of those. One sweep gets none.
    #[test]
    fn a_scorecard_is_set_at_the_round_interactivity_most_sweeps_cross() {
        let runs = [
            tpot_run("vllm", 1.0, 10.0),
            tpot_run("vllm", 8.0, 50.0),
            tpot_run("sglang", 1.0, 20.0),
            tpot_run("sglang", 8.0, 100.0),
        ];
        let refs: Vec<&Run> = runs.iter().collect();
        let md = scorecard(&Measured::of(&refs));
        assert!(md.starts_with("## At 50 tokens a second per user"), "{md}");
        assert!(
            md.contains(
                "target: {metric: interactivity, min: 50}\nmetrics: [output_throughput, ttft:mean]"
            ),
            "{md}"
        );
        assert_eq!(scorecard(&Measured::of(&refs[..2])), "");
    }

    #[test]
    fn engine_figures_of_one_run_are_a_table_and_of_a_sweep_charts() {
        let one = [run_at(4.0)];
        let md = engine(&one.iter().collect::<Vec<_>>(), "bars");
        assert!(md.contains("kind: summary"), "{md}");
        assert!(
            md.contains("{metric: queue_depth, label: \"Requests waiting (mean)\"}"),
            "{md}"
        );
        assert!(!md.contains("```chart"), "{md}");
        let sweep = [run_at(4.0), run_at(8.0)];
        let md = engine(&sweep.iter().collect::<Vec<_>>(), "lines");
        assert!(
            md.contains("```chart\nid: queue_depth\nkind: lines"),
            "{md}"
        );
        assert!(!md.contains("kind: summary"), "{md}");
        assert_eq!(engine(&[], "lines"), "");
    }
}
