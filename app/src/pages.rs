//! One module per page; `bench` is the hidden `/_bench/scatter/` benchmark page, compiled only
//! with the feature `bench` (the build `cargo xtask bench` makes).

#[cfg(feature = "bench")]
mod bench;
mod embed;
mod home;
mod local;
pub(crate) mod report;

#[cfg(feature = "bench")]
pub use bench::ScatterBench;
pub use embed::Embed;
pub use home::Home;
pub use local::LocalReport;
pub use report::Report;

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
