//! The prices a report's reader may change (`cost::PriceSheet`): each configuration with a valid
//! `price:` in the front matter, and each chart on the page that shows one of their costs.

use super::context::ReportContext;
use crate::cost::{PriceSheet, PricedChart, StatedPrice};
use crate::site::Block;

/// The page's price sheet, or `None` when no configuration with runs here states a valid
/// price (a price that cannot be read is already a problem of the page).
pub(super) fn sheet(ctx: &ReportContext<'_>, blocks: &[Block]) -> Option<PriceSheet> {
    let present = ctx.config_keys(None).unwrap_or_default();
    let configs: Vec<StatedPrice> = ctx
        .front
        .configs
        .iter()
        .filter(|c| present.contains(&c.key))
        .filter_map(|c| {
            let front = c.price.as_ref().filter(|p| p.price().is_ok())?;
            let (label, color) = ctx.display(&c.key);
            // As the build prices the runs: per GPU-hour on the GPUs their hardware names.
            let (gpus, _) = crate::cost::hardware_gpus(ctx.runs_of(&c.key));
            StatedPrice::from_front(&c.key, &label, color, front, gpus)
        })
        .collect();
    if configs.is_empty() {
        return None;
    }
    let key_of = |name: &str| {
        configs
            .iter()
            .find(|c| c.label == name)
            .map(|c| c.key.clone())
    };
    let charts = blocks
        .iter()
        .flat_map(|b| match b {
            Block::Chart { chart } => std::slice::from_ref(chart),
            Block::Grid { grid } => grid.panels.as_slice(),
            Block::Html { .. } | Block::Flowchart { .. } => &[],
        })
        .filter_map(|spec| PricedChart::of(spec, key_of))
        .collect();
    Some(PriceSheet { configs, charts })
}
