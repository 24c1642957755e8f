//! The published pages' app: only their live parts, the islands. The build's HTML of a report
//! is complete (text, tables, values, every chart's drawing); what needs the app is each chart
//! and grid (canvas, tooltip, zoom, legend), the filter and price panels and the wizard. Each is
//! rendered into a holder off the document and put in place of the build's element
//! (`browser/takeover.rs`); the rest of the page stays as the build wrote it, so its views are
//! not in this wasm at all.
//!
//! Dropped files need the whole app (`/local/` renders a report from them): a drop downloads it
//! ([`full`]), and it takes the page over. `/local/` itself loads the whole app from the start
//! (`cli/src/cmd/pages/template.rs` picks it for that page).

mod full;

use benchdeck_core::site::{report_data_path, Block, ReportPage, Route};
use leptos::prelude::*;
use web_sys::Element;

use crate::browser::data::{self, LoadError, ReportError};
use crate::browser::{self, panic, ready, takeover};
use crate::components::{
    ChartView, FilterPanel, Filters, GridView, LoadErrorPanel, PricePanel, Prices, Wizard,
};
use crate::state::{live, route, theme};

/// Starts the islands of the page the build rendered: installs the panic hook, takes dropped
/// files to the whole app, fetches the page's data and makes its live parts live.
pub fn start() {
    panic::install();
    theme::apply_from_query();
    let route = route::of_location();
    full::open_drops_in_full_app();
    wasm_bindgen_futures::spawn_local(async move {
        let page = match &route {
            Route::Report { slug } | Route::Embed { slug, .. } => {
                Some(data::report_page(slug.clone()).await)
            }
            _ => None,
        };
        browser::idle().await;
        // One root for the page's whole life, which starts leptos's executor and owns the
        // page's prices and filters, which every island shares; it renders nothing itself.
        if let Some(root) = takeover::holder() {
            leptos::mount::mount_to(root, move || mount(route, page)).forget();
        }
        live::mark();
    });
}

/// Mounts the islands of the page of `route`, with its data `page` when it has some.
fn mount(route: Route, page: Option<Result<ReportPage, ReportError>>) {
    theme::provide();
    match (route, page) {
        (Route::Report { .. }, Some(Ok(page))) => report(page),
        (Route::Embed { id, .. }, Some(Ok(page))) => embed(page, &id),
        (Route::Report { slug } | Route::Embed { slug, .. }, Some(Err(error))) => {
            unavailable(error, &slug);
        }
        #[cfg(feature = "bench")]
        (Route::ScatterBench, _) => bench(),
        (Route::NotFound, _) => {
            // The host's "not found" page answers embed addresses too: without the header there.
            if route::is_embed_address() {
                if let Some(header) = first("header.site-header") {
                    header.remove();
                }
            }
            ready::expect_charts(0);
        }
        // Nothing live on the home page.
        _ => ready::expect_charts(0),
    }
}

/// The page's data (report `slug`'s) did not load: the page still reads as the build wrote it,
/// and says above it why its charts and controls do not respond. Data the host does not have
/// (404) is a site published in part: the build writes a report's data beside its pages, and
/// an unknown address gets `404.html`, which fetches nothing.
fn unavailable(error: ReportError, slug: &str) {
    ready::expect_charts(0);
    let error = match error {
        ReportError::Load(error) => error,
        ReportError::NotFound => LoadError {
            url: data::href(&report_data_path(slug)),
            status: Some(404),
            message: "not found (404): the site was published without this page's data; \
                      publish the whole site again"
                .into(),
        },
    };
    let (Some(main), Some(holder)) = (first("#main"), takeover::holder()) else {
        return;
    };
    leptos::mount::mount_to(holder.clone(), move || view! { <LoadErrorPanel error/> }).forget();
    while let Some(child) = holder.last_child() {
        main.prepend_with_node_1(&child).ok();
    }
}

/// A report's islands: its charts and grids, its panels and its wizard (the build wrote its
/// title).
fn report(page: ReportPage) {
    ready::expect_charts(page.charts().count());
    let slug = page.summary.slug.clone();
    Prices::provide(page.prices);
    Filters::provide(page.filters);
    for block in page.blocks {
        match block {
            Block::Chart { chart } => {
                let slug = slug.clone();
                island(by_id(&format!("chart-{}", chart.id)), move || {
                    view! { <ChartView spec=chart slug/> }
                });
            }
            Block::Grid { grid } => {
                let slug = slug.clone();
                island(by_id(&format!("grid-{}", grid.id)), move || {
                    view! { <GridView grid slug/> }
                });
            }
            Block::Html { .. } | Block::Flowchart { .. } => {}
        }
    }
    island(first("#app section.filters"), || view! { <FilterPanel/> });
    island(first("#app section.prices"), || view! { <PricePanel/> });
    if let Some(data) = page.decision {
        island(
            first("#app section.wizard"),
            move || view! { <Wizard data/> },
        );
    }
}

/// An embed page's island: its one chart, or its grid (the build wrote its title).
fn embed(mut page: ReportPage, id: &str) {
    let found = page.take_embedded(id);
    let slug = page.summary.slug.clone();
    Prices::provide(page.prices);
    Filters::provide(page.filters);
    match found {
        Some(Block::Grid { grid }) => {
            ready::expect_charts(grid.panels.len());
            island(by_id(&format!("grid-{id}")), move || {
                view! { <GridView grid slug embed=true/> }
            });
        }
        Some(Block::Chart { chart }) => {
            ready::expect_charts(1);
            island(by_id(&format!("chart-{id}")), move || {
                view! { <ChartView spec=chart slug embed=true/> }
            });
        }
        _ => ready::expect_charts(0),
    }
}

/// The hidden drawing benchmark's page (the benchmark build only), whose `#app` the build left
/// empty: rendered whole into it.
#[cfg(feature = "bench")]
fn bench() {
    if let Some(app) = by_id(crate::APP_ROOT_ID) {
        takeover::replace(&app, |twin| {
            leptos::mount::mount_to(twin, || {
                view! { <main id="main"><crate::pages::ScatterBench/></main> }
            })
            .forget();
        });
    }
}

/// Renders the island `view` in place of the build's element `old`, if the page has it.
fn island<V: IntoView + 'static>(old: Option<Element>, view: impl FnOnce() -> V + 'static) {
    if let Some(old) = old {
        takeover::replace_island(&old, move |holder| {
            leptos::mount::mount_to(holder, view).forget();
        });
    }
}

/// The page's element with this id (any id: a chart's may start with a digit, which a CSS
/// selector could not name).
fn by_id(id: &str) -> Option<Element> {
    browser::document()?.get_element_by_id(id)
}

/// The page's first element that `selector` finds.
fn first(selector: &str) -> Option<Element> {
    browser::document()?.query_selector(selector).ok().flatten()
}
