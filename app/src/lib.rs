//! benchdeck's browser app: the home page listing the reports and one page per report, with
//! charts drawn by `benchdeck_core::chart` on canvases.
//!
//! The app reads only the data the build wrote (`data/index.bin`, `data/reports/<slug>.bin`),
//! resolved against the page's `<base href>`, so the same build works at `/` and under a
//! sub-path such as GitHub Pages' `/<repo>/`.

mod canvas;
mod components;
mod data;
mod local;
mod pages;
mod panic;
mod query;
mod ready;
mod route;
mod theme;

use benchdeck_core::site::Route;
use leptos::prelude::*;

/// Installs the panic hook and mounts the app on `<body>`.
pub fn start() {
    panic::install();
    theme::apply_from_query();
    if let Some(boot) = leptos::prelude::document().get_element_by_id("boot") {
        boot.remove();
    }
    leptos::mount::mount_to_body(App);
}

/// The app: a header and the page of the URL ([`route`]). Embed pages (`/embed/…`, made for
/// iframes) have no header.
#[component]
pub fn App() -> impl IntoView {
    local::provide();
    theme::provide();
    let route = route::provide();
    let embed = route::is_embed_address();
    // Files dropped anywhere open as a report (`components/drop.rs`).
    components::accept_drops_anywhere();
    view! {
        {(!embed).then(|| view! {
            <header class="site-header">
                <a class="brand" href=data::href("")>"benchdeck"</a>
            </header>
        })}
        <main id="main" class:embedded=embed>
            {move || page(route.get())}
        </main>
    }
}

/// The page of `route`.
fn page(route: Route) -> AnyView {
    match route {
        Route::Home => view! { <pages::Home/> }.into_any(),
        Route::Local => view! { <pages::LocalReport/> }.into_any(),
        Route::Embed { slug, id } => view! { <pages::Embed slug id/> }.into_any(),
        Route::Report { slug } => view! { <pages::Report slug/> }.into_any(),
        // Hidden: the drawing benchmark `cargo xtask bench` runs (pages/bench.rs).
        Route::ScatterBench => view! { <pages::ScatterBench/> }.into_any(),
        Route::NotFound => view! { <pages::NotFound/> }.into_any(),
    }
}
