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
