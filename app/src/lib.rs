//! benchdeck's browser app: the home page listing the reports and one page per report, with
//! charts drawn by `benchdeck_core::chart` on canvases.
//!
//! The app reads only the data the build wrote (`data/index.json`, `data/reports/<slug>.json`),
//! resolved against the page's `<base href>`, so the same build works at `/` and under a
//! sub-path such as GitHub Pages' `/<repo>/`.

mod canvas;
mod components;
mod data;
mod pages;
mod panic;
mod ready;

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

/// Installs the panic hook and mounts the app on `<body>`.
pub fn start() {
    panic::install();
    if let Some(boot) = leptos::prelude::document().get_element_by_id("boot") {
        boot.remove();
    }
    leptos::mount::mount_to_body(App);
}

/// The app: a header and the routed page.
#[component]
pub fn App() -> impl IntoView {
    let base = data::base_path();
    let home = data::href("");
    view! {
        <header class="site-header">
            <a class="brand" href=home>"benchdeck"</a>
        </header>
        <Router base=base>
            <main id="main">
                <Routes fallback=pages::NotFound>
                    <Route path=path!("/") view=pages::Home/>
                    <Route path=path!("/:slug/") view=pages::Report/>
                    // Hidden: the drawing benchmark `cargo xtask bench` runs (pages/bench.rs).
                    <Route path=path!("/_bench/scatter/") view=pages::ScatterBench/>
                </Routes>
            </main>
        </Router>
    }
}
