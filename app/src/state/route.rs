//! The page the app shows ([`Route`], matched by `benchdeck_core::site::Route`): read from the
//! URL when the app starts, changed only by opening dropped files (a new history entry for
//! `/local/`) and by the browser's back and forward buttons. Every other link is an ordinary
//! page load: the build writes an entry page for each page of the site.

use benchdeck_core::site::{Route, LOCAL_PAGE_PATH, NOT_FOUND_META};
use leptos::prelude::*;

use crate::browser::data;

/// The route, shared through context.
#[derive(Clone, Copy)]
struct Current(RwSignal<Route>);

/// The route of the page's URL now; every address on the host's "not found" page (`404.html`,
/// marked by the build) is [`Route::NotFound`].
pub fn of_location() -> Route {
    let marker = format!("meta[name=\"{NOT_FOUND_META}\"]");
    let document = crate::browser::document();
    if let Some(Ok(Some(_))) = document.map(|d| d.query_selector(&marker)) {
        return Route::NotFound;
    }
    of_address()
}

/// The route the URL's path names.
fn of_address() -> Route {
    let pathname = crate::browser::window()
        .and_then(|w| w.location().pathname().ok())
        .unwrap_or_default();
    Route::under(&data::base_path(), &pathname)
}

/// Whether the URL is an embed page's (`/embed/…`), made for iframes: shown without the site's
/// header, even when there is no such chart.
pub fn is_embed_address() -> bool {
    matches!(of_address(), Route::Embed { .. })
}

/// Creates the route, `first` at first, and follows the back and forward buttons; called once
/// by the app. Returns the signal the app's `<main>` shows.
pub fn provide(first: Route) -> RwSignal<Route> {
    let route = RwSignal::new(first);
    provide_context(Current(route));
    if crate::browser::window().is_none() {
        return route;
    }
    let popstate = window_event_listener(leptos::ev::popstate, move |_| {
        let now = of_location();
        if route.get_untracked() != now {
            route.set(now);
        }
    });
    // A listener for the app's whole life.
    std::mem::forget(popstate);
    route
}

/// A function that shows the page of dropped files as a new history entry (back returns to the
/// page the files were dropped on); made inside a component or the app, where the route is.
pub fn local_page_opener() -> impl Fn() + Copy + 'static {
    let route = use_context::<Current>().map(|c| c.0);
    move || {
        let Some(route) = route else {
            return;
        };
        if route.get_untracked() == Route::Local {
            return;
        }
        if let Some(history) = crate::browser::window().and_then(|w| w.history().ok()) {
            history
                .push_state_with_url(
                    &wasm_bindgen::JsValue::NULL,
                    "",
                    Some(&data::href(LOCAL_PAGE_PATH)),
                )
                .ok();
        }
        route.set(Route::Local);
    }
}
