//! `/embed/:slug/:id/`: one chart (or grid) of a report alone, for an `<iframe>` in a blog post:
//! no site header, the tooltip and legend still live, `?theme=light|dark` to match the host page,
//! and a link to the whole report.

use benchdeck_core::site::{Block, ReportPage};
use leptos::either::{Either, EitherOf3};
use leptos::prelude::*;

use crate::browser::data::{self, ReportError};
use crate::components::fresh::Fresh;
use crate::components::ChartView;
use crate::components::GridView;

/// The embed page of chart (or grid) `id` of report `slug`.
#[component]
pub fn Embed(
    /// The report's slug.
    slug: String,
    /// The chart's or grid's id.
    id: String,
    /// The report's data, when the page came with it.
    initial: Option<ReportPage>,
) -> impl IntoView {
    let page = data::loaded(initial.map(Ok), || data::report_page(slug));
    move || match data::take(page) {
        None => EitherOf3::A(view! { <p class="loading">"Loading chart…"</p> }),
        Some(Ok(page)) => EitherOf3::B(Fresh(embedded(page, &id))),
        Some(Err(ReportError::NotFound)) => {
            EitherOf3::C(missing("There is no report at this address."))
        }
        Some(Err(ReportError::Load(error))) => EitherOf3::C(missing(&format!(
            "The chart could not be loaded: {} ({})",
            error.message, error.url
        ))),
    }
}

/// The chart or grid `id` of `page`, with a link to the report.
fn embedded(mut page: ReportPage, id: &str) -> impl IntoView {
    let found = page.take_embedded(id);
    let slug = page.summary.slug.clone();
    let title = page.summary.title.clone();
    let report = data::href(&format!("{slug}/"));
    crate::components::Prices::provide(page.prices);
    crate::components::Filters::provide(page.filters);
    let body = match found {
        Some(Block::Chart { chart }) => {
            crate::browser::ready::expect_charts(1);
            crate::browser::set_title(&format!("{} · {title}", chart.title));
            Either::Left(view! { <ChartView spec=chart slug embed=true/> })
        }
        Some(Block::Grid { grid }) => {
            crate::browser::ready::expect_charts(grid.panels.len());
            crate::browser::set_title(&format!("{} · {title}", grid.title));
            Either::Right(view! { <GridView grid slug embed=true/> })
        }
        _ => {
            let message = format!("The report “{title}” has no chart `{id}`.");
            return Either::Right(missing(&message));
        }
    };
    Either::Left(view! {
        <div class="embed">
            {body}
            <p class="embed-source">
                <a href=report target="_blank" rel="noopener">{format!("{title} ↗")}</a>
                " · benchdeck"
            </p>
        </div>
    })
}

fn missing(message: &str) -> impl IntoView {
    crate::browser::ready::expect_charts(0);
    view! { <p class="error-panel" role="alert">{message.to_string()}</p> }
}
