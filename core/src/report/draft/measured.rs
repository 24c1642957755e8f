//! What a draft knows of its runs ([`Measured`]: the latencies and rates they report, the runs
//! along a sweep) and how it writes what it names in a block (quantities, loads, quoted keys).

use std::collections::BTreeMap;

use crate::model::{LoadAxis, LoadTarget, Metric, Run, Stat};
use crate::quantity::Quantity;

/// What the runs measured: the latencies (each with the first statistic the files report) and
/// the rates.
pub(super) struct Measured<'a> {
    pub(super) runs: &'a [&'a Run],
    /// Runs along a concurrency or request-rate sweep: of configurations measured at two
    /// loads or more.
    pub(super) swept: Vec<&'a Run>,
    pub(super) latencies: Vec<(Metric, Stat)>,
    pub(super) rates: Vec<Quantity>,
}

impl<'a> Measured<'a> {
    pub(super) fn of(runs: &'a [&'a Run]) -> Measured<'a> {
        let on_axis: Vec<&Run> = runs
            .iter()
            .copied()
            .filter(|r| r.load.target.axis() != LoadAxis::None && r.load.target.value().is_some())
            .collect();
        let mut loads: BTreeMap<String, Vec<LoadTarget>> = BTreeMap::new();
        for run in &on_axis {
            let at = loads.entry(run.config.key()).or_default();
            if !at.contains(&run.load.target) {
                at.push(run.load.target);
            }
        }
        let swept = on_axis
            .into_iter()
            .filter(|r| loads.get(&r.config.key()).is_some_and(|l| l.len() >= 2))
            .collect();
        let latencies = [Metric::Ttft, Metric::Tpot, Metric::Itl, Metric::E2e]
            .into_iter()
            .filter_map(|metric| {
                [
                    Stat::Median,
                    Stat::P(50.0),
                    Stat::Mean,
                    Stat::P(90.0),
                    Stat::P(95.0),
                    Stat::P(99.0),
                    Stat::Max,
                ]
                .into_iter()
                .find(|&stat| has(Quantity::Latency { metric, stat }, runs))
                .map(|stat| (metric, stat))
            })
            .collect();
        let rates = [
            Quantity::OutputThroughput,
            Quantity::OutputPerUser,
            Quantity::RequestThroughput,
            Quantity::SuccessRate,
        ]
        .into_iter()
        .filter(|&q| has(q, runs))
        .collect();
        Measured {
            runs,
            swept,
            latencies,
            rates,
        }
    }
}

/// Whether any of `among` reports `q`.
pub(super) fn has(q: Quantity, among: &[&Run]) -> bool {
    among.iter().any(|r| q.of(r).is_some())
}

/// A load as a block writes it: `"4 req/s"`, `"concurrency 16"`.
pub(super) fn load_text(target: &LoadTarget) -> Option<String> {
    match target {
        LoadTarget::RequestRate(_) => Some(format!("\"{} req/s\"", target.value()?)),
        LoadTarget::Concurrency(c) => Some(format!("\"concurrency {c}\"")),
        _ => None,
    }
}

/// `text` as a YAML double-quoted scalar (JSON's string syntax is YAML's), so no key from a file
/// can end the list it sits in.
pub(super) fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The name a directive uses for a quantity: `ttft:p99`, `output_throughput`.
pub(super) fn quantity_name(q: Quantity) -> String {
    match q {
        Quantity::Latency { metric, stat } => format!("{}:{}", metric.id(), stat),
        Quantity::OutputThroughput => "output_throughput".into(),
        Quantity::OutputPerUser => "output_tok_s_per_user".into(),
        Quantity::TotalThroughput => "total_throughput".into(),
        Quantity::RequestThroughput => "request_throughput".into(),
        Quantity::Goodput => "goodput".into(),
        Quantity::SuccessRate => "success_rate".into(),
        Quantity::ErrorRate => "error_rate".into(),
        Quantity::CostPerMillionOutput => "cost_per_1m_output".into(),
        Quantity::CostPerMillionTotal => "cost_per_1m_total".into(),
        Quantity::OutputPerGpu => "output_throughput_per_gpu".into(),
        Quantity::Interactivity => "interactivity".into(),
        Quantity::LatencyPerOutputToken => "e2e_per_output_token".into(),
        Quantity::OutputPerRequest => "output_tok_s_per_request".into(),
        Quantity::Engine(q) => q.id().into(),
    }
}
