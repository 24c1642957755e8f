//! benchdeck's browser app: the home page listing the reports and one page per report, with
//! charts drawn by `benchdeck_core::chart` on canvases.
//!
//! The app reads only the data the build wrote (`data/index.json`, `data/reports/<slug>.json`),
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
mod theme;

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

/// Installs the panic hook and mounts the app on `<body>`.
pub fn start() {
    panic::install();
    theme::apply_from_query();
    if let Some(boot) = leptos::prelude::document().get_element_by_id("boot") {
        boot.remove();
    }
    leptos::mount::mount_to_body(App);
}

/// The app: a header and the routed page. Embed pages (`/embed/…`, made for iframes) have no
/// header.
#[component]
pub fn App() -> impl IntoView {
    let base = data::base_path();
    let home = data::href("");
    let embed = web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .is_some_and(|path| path.starts_with(&data::href("embed/")));
    local::provide();
    view! {
        {(!embed).then(|| view! {
            <header class="site-header">
                <a class="brand" href=home>"benchdeck"</a>
            </header>
        })}
        <Router base=base>
            <DropTarget/>
            <main id="main" class:embedded=embed>
                <Routes fallback=pages::NotFound>
                    <Route path=path!("/") view=pages::Home/>
                    <Route path=path!("/local/") view=pages::LocalReport/>
                    <Route path=path!("/embed/:slug/:id/") view=pages::Embed/>
                    <Route path=path!("/:slug/") view=pages::Report/>
                    // Hidden: the drawing benchmark `cargo xtask bench` runs (pages/bench.rs).
                    <Route path=path!("/_bench/scatter/") view=pages::ScatterBench/>
                </Routes>
            </main>
        </Router>
    }
}

/// Files dropped anywhere open as a report (`components/drop.rs`); needs the router.
#[component]
fn DropTarget() -> impl IntoView {
    components::accept_drops_anywhere();
}
