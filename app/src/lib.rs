//! benchdeck's app: the home page listing the reports and one page per report, with charts drawn
//! by `benchdeck_core::chart` on canvases.
//!
//! The same components run twice. At build time, natively (feature `ssr`), [`render`] turns
//! each page into complete HTML: text, tables, the wizard's default recommendation and every
//! chart as the SVG the build drew (inline), so a page reads without JavaScript. In the browser
//! (feature `csr`), [`start`] fetches the page's data, renders the same components and puts
//! them in place of that HTML in one step; the canvases take over from the drawings.
//!
//! The app reads only the data the build wrote (`data/index.bin`, `data/reports/<slug>.bin`),
//! resolved against the page's `<base href>`, so the same build works at `/` and under a
//! sub-path such as GitHub Pages' `/<repo>/`.

// The report page's view type is deep: rendering it to HTML (feature `ssr`) needs more.
#![recursion_limit = "256"]

mod browser;
mod components;
#[cfg(feature = "csr")]
pub mod islands;
mod pages;
mod state;

use benchdeck_core::site::{ReportPage, Route, SiteIndex};
use browser::data;
#[cfg(feature = "csr")]
use browser::panic;
use components::fresh;
use leptos::either::EitherOf6;
use leptos::prelude::*;
#[cfg(feature = "csr")]
use state::live;
use state::{local, route, theme};

pub use components::Drawings;
pub use data::APP_ROOT_ID;

/// What a page shows before any reader acts: the route and the data the build wrote for it.
#[derive(Debug, Clone, Default)]
pub struct Initial {
    /// The site index (the home page).
    pub index: Option<SiteIndex>,
    /// The report (report and embed pages).
    pub report: Option<ReportPage>,
}

/// Renders the page of `route` to HTML at build time, exactly as [`App`] renders it in the browser: the
/// inside of `<div id="app">` ([`APP_ROOT_ID`]), with the charts' `drawings` inline. `base` is
/// the site's path (`/`, `/repo/`).
#[cfg(feature = "ssr")]
pub fn render(route: Route, initial: Initial, drawings: Drawings, base: &str) -> String {
    use leptos::tachys::view::RenderHtml;
    data::set_base_path(base);
    let owner = Owner::new();
    let html = owner.with(|| {
        provide_context(drawings);
        view! { <App route initial/> }.to_html()
    });
    owner.unset();
    html
}

/// Starts the app in the browser: installs the panic hook, fetches the page's data and takes
/// over the page the build rendered (`browser/takeover.rs`): the same components render it anew
/// and replace the build's HTML in one step, with the reader's view in the address applied.
#[cfg(feature = "csr")]
pub fn start() {
    panic::install();
    theme::apply_from_query();
    let route = route::of_location();
    wasm_bindgen_futures::spawn_local(async move {
        let Some(root) = browser::document().and_then(|d| d.get_element_by_id(APP_ROOT_ID)) else {
            return;
        };
        let initial = data::initial(&route).await;
        browser::idle().await;
        browser::takeover::replace(&root, move |twin| {
            leptos::mount::mount_to(twin, move || view! { <App route initial/> }).forget();
        });
        live::mark();
    });
}

/// Files dropped on a page of the islands' app, which downloaded this whole app for them: opened
/// on `/local/` once [`start`] has taken the page over.
#[cfg(feature = "csr")]
pub fn open_dropped(files: Vec<web_sys::File>) {
    components::hand_over(files);
}

/// The app: a header and the page of the route. Embed pages (`/embed/…`, made for iframes) have
/// no header.
#[component]
pub fn App(
    /// The page to show first.
    route: Route,
    /// Its data, when the build (or the browser, before taking over) has it.
    initial: Initial,
) -> impl IntoView {
    local::provide();
    theme::provide();
    let embed = matches!(route, Route::Embed { .. }) || route::is_embed_address();
    let route = route::provide(route);
    let initial = StoredValue::new(Some(initial));
    // Files dropped anywhere open as a report (`components/drop.rs`).
    components::accept_drops_anywhere();
    view! {
        {(!embed).then(|| view! {
            <header class="site-header">
                <a class="brand" href=data::href("")>"benchdeck"</a>
            </header>
        })}
        <main id="main" class:embedded=embed>
            {move || {
                // The first page shows the data it came with; a page reached by back or forward
                // loads its own.
                let first = initial.try_update_value(Option::take).flatten().unwrap_or_default();
                page(route.get(), first)
            }}
        </main>
    }
}

/// The hidden drawing benchmark `cargo xtask bench` runs (pages/bench.rs), in the build it makes
/// with the feature `bench`.
#[cfg(feature = "bench")]
fn bench_page() -> impl IntoView {
    view! { <pages::ScatterBench/> }
}

/// The published site has no benchmark page.
#[cfg(not(feature = "bench"))]
fn bench_page() -> impl IntoView {
    view! { <pages::NotFound/> }
}

/// The page of `route`. (An `Either` rather than an `AnyView`: a type-erased view carries code
/// for every way of rendering it, asynchronous hydration included, which the app never uses:
/// about a fifth of the wasm.) A page shown again (back or forward) is built anew
/// ([`fresh::Fresh`]).
fn page(route: Route, initial: Initial) -> impl IntoView {
    fresh::Fresh(match route {
        Route::Home => EitherOf6::A(view! { <pages::Home initial=initial.index/> }),
        Route::Local => EitherOf6::B(view! { <pages::LocalReport/> }),
        Route::Embed { slug, id } => {
            EitherOf6::C(view! { <pages::Embed slug id initial=initial.report/> })
        }
        Route::Report { slug } => {
            EitherOf6::D(view! { <pages::Report slug initial=initial.report/> })
        }
        Route::ScatterBench => EitherOf6::E(bench_page()),
        Route::NotFound => EitherOf6::F(view! { <pages::NotFound/> }),
    })
}
