//! A chart's legend: one toggle button per series, which hides and shows it. A chart has one
//! under its canvas; the panels of a grid whose series are the same share one over the grid
//! (`grid.rs`), so hiding a series hides it in every panel.

use benchdeck_core::chart;
use leptos::prelude::*;

use crate::components::handler;

use super::Filters;

/// One toggle button per series; a hidden series keeps its button.
#[component]
pub fn Legend(
    /// Series names and palette slots.
    names: Vec<(String, usize)>,
    /// Bit `i` set when series `i` is hidden.
    hidden: RwSignal<u64>,
    /// Bit `i` set when the page's filter leaves series `i` out: its button says so.
    filtered: Memo<u64>,
) -> impl IntoView {
    view! {
        <div class="chart-legend" role="group" aria-label="Show or hide series">
            {names.into_iter().enumerate().map(|(i, (name, slot))| {
                let bit = if i < 64 { 1u64 << i } else { 0 };
                let shown = move || (hidden.get() | filtered.get()) & bit == 0;
                let left_out = move || filtered.get() & bit != 0;
                let swatch = chart::theme::css_swatch(slot);
                view! {
                    <button
                        type="button"
                        class="legend-item"
                        aria-pressed=move || shown().to_string()
                        disabled=left_out
                        title=move || if left_out() { "Left out by the filter above" } else if shown() { "Hide this series" } else { "Show this series" }
                        on:click=handler(move |_| hidden.update(|h| *h ^= bit))
                    >
                        <span class="swatch" style=swatch></span>
                        {name}
                    </button>
                }
            }).collect_view()}
        </div>
    }
}

/// Bit `i` set when the page's filter (`filters.rs`) leaves out the configuration of series
/// `names[i]` (tracked; none on a page without a filter).
pub fn left_out_by_filter(names: Vec<String>) -> Memo<u64> {
    let filters = Filters::of_page();
    Memo::new(move |_| filters.map_or(0, |f| f.mask(&names)))
}
