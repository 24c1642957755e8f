//! What serving costs: the price a report states for a configuration, and the dollars per
//! million tokens and tokens per GPU derived from it and a run's throughput.
//!
//! A deployment is paid by the hour while it serves: `gpu_hour` × `gpus` for rented GPUs, or a
//! serverless `per_second` price (a platform that scales to zero charges nothing between
//! requests, but a benchmark keeps it busy, so the per-second price runs the whole time). At a
//! load point with output throughput T tokens/s, one million output tokens take 10⁶ / T seconds,
//! so they cost `usd_per_hour` × 10⁶ / (3600 × T). Without a price there is no cost: never zero.
//! A reader can put in their own rates on the page (`sheet.rs`).

mod front;
mod sheet;

pub use sheet::{
    is_cost, PriceSheet, PricedChart, PricedValues, RateUnit, Repricing, StatedPrice, COST_UNIT,
};

pub use crate::model::Price;
pub use front::PriceFront;

/// The GPUs a configuration's runs say they ran on (`4x A10G`, or the parallel sizes), which a
/// `gpu_hour` price without `gpus` is charged for: the first count its runs state, with every
/// other count they state when they disagree. The build's prices and the reader's price sheet
/// both take it, so they charge alike.
pub fn hardware_gpus<'r>(
    runs: impl IntoIterator<Item = &'r crate::model::Run>,
) -> (Option<u32>, Vec<u32>) {
    let mut counts: Vec<u32> = Vec::new();
    for gpus in runs.into_iter().filter_map(|r| r.config.gpus()) {
        if !counts.contains(&gpus) {
            counts.push(gpus);
        }
    }
    let first = counts.first().copied();
    (first, counts.into_iter().skip(1).collect())
}
