//! The page for a URL that is no page of this site (the build's `404.html`).

use leptos::prelude::*;

/// Shown for a URL that is no page of this site.
#[component]
pub fn NotFound() -> impl IntoView {
    crate::browser::ready::expect_charts(0);
    view! {
        <section class="not-found">
            <h1>"Page not found"</h1>
            <p>"Nothing is published at this address. "
                <a href=crate::browser::data::href("")>"See all reports"</a>"."
            </p>
        </section>
    }
}
