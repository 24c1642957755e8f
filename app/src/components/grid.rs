//! Small multiples: a grid's panels side by side, each an interactive chart of its own. When
//! every panel draws the same series (the same names in the same colours, as a report's "at a
//! glance" grid does), the panels share one legend over the grid instead of repeating it under
//! each: hiding a series hides it in every panel, and each panel keeps it in its view in the
//! address (a reload starts from the first panel's).

use benchdeck_core::chart::ChartSpec;
use benchdeck_core::site::{chart_svg_path, ChartGrid};
use leptos::prelude::*;

use super::chart::hidden_in_address;
use super::legend::{left_out_by_filter, Legend};
use super::ChartView;
use crate::browser::data;

/// A grid of charts, with its title, caption and (outside embeds) its SVG download.
#[component]
pub fn GridView(
    /// The grid.
    grid: ChartGrid,
    /// The report it belongs to.
    slug: String,
    /// Shown alone in an embed page: the panels without their tools, no grid download.
    #[prop(optional)]
    embed: bool,
) -> impl IntoView {
    let style = format!("--columns: {}", grid.columns);
    let svg = data::href(&chart_svg_path(&slug, &grid.id));
    let names = shared_series(&grid.panels);
    let hidden = names
        .as_ref()
        .map(|_| RwSignal::new(grid.panels.first().map_or(0, |p| hidden_in_address(&p.id))));
    let legend = names.zip(hidden).map(|(names, hidden)| {
        let filtered = left_out_by_filter(names.iter().map(|(n, _)| n.clone()).collect());
        view! { <div class="chart-bar grid-legend"><Legend names hidden filtered/></div> }
    });
    view! {
        <section class="chart-grid" id=format!("grid-{}", grid.id) data-grid=grid.id.clone()>
            {(!grid.title.is_empty()).then(|| view! { <h3 class="grid-title">{grid.title.clone()}</h3> })}
            {legend}
            <div class="grid-panels" style=style>
                {grid.panels.into_iter().enumerate().map(|(i, spec)| view! {
                    <ChartView spec slug=slug.clone() embed shared_hidden=hidden span=grid.spans.get(i).copied().unwrap_or(1)/>
                }).collect_view()}
            </div>
            {(!grid.caption.is_empty()).then(|| view! { <p class="grid-caption">{grid.caption.clone()}</p> })}
            {(!embed).then(|| view! { <a class="tool" href=svg download=format!("{slug}-{}.svg", grid.id)>"Whole grid as SVG"</a> })}
        </section>
    }
}

/// The series every panel draws, names and palette slots, when they are the same in all of
/// them (and there are two panels or more): then one legend serves the grid.
fn shared_series(panels: &[ChartSpec]) -> Option<Vec<(String, usize)>> {
    let series = |p: &ChartSpec| -> Vec<(String, usize)> {
        p.series.iter().map(|s| (s.name.clone(), s.color)).collect()
    };
    let (first, rest) = panels.split_first()?;
    let names = series(first);
    let same = !rest.is_empty() && !names.is_empty() && rest.iter().all(|p| series(p) == names);
    same.then_some(names)
}
