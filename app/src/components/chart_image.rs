//! The build's drawing of a chart: shown in the chart's place until the app has drawn the canvas,
//! and all a reader without JavaScript sees.
//!
//! Pre-rendered pages carry each drawing inline: `benchdeck pages` hands the renderer the SVG
//! markup of every chart ([`Drawings`], made by `benchdeck_core::chart::inline`), so a page
//! costs no image request and no image document per chart, and the stylesheet draws it in the
//! page's colour scheme. When the app takes over such a page, each drawing moves into the app's
//! chart (`browser/takeover.rs`); a chart the app renders again (another report reached by back
//! or forward) gets a `<picture>` of the same drawing's files instead.

use std::collections::HashMap;

use benchdeck_core::chart::{self, ChartSpec};
use benchdeck_core::html::escape;
use benchdeck_core::site::{chart_dark_svg_path, chart_svg_path, LOCAL_SLUG};
use leptos::prelude::*;

use crate::browser::data;

/// Each chart's drawing as inline SVG markup, by chart id: what the renderer puts in
/// pre-rendered pages (provided as a context by [`crate::render`]; absent in the browser).
#[derive(Debug, Clone, Default)]
pub struct Drawings(pub HashMap<String, String>);

/// The drawing of `spec` from report `slug`, hidden once `drawn` (the canvas took over); none for
/// dropped files, which the build never saw.
pub fn chart_image(spec: &ChartSpec, slug: &str, drawn: Signal<bool>) -> Option<impl IntoView> {
    if slug == LOCAL_SLUG {
        return None;
    }
    let holder = NodeRef::<leptos::html::Div>::new();
    let markup = if moves_in_build_drawing(&spec.id, holder) {
        String::new()
    } else {
        let inline = use_context::<Drawings>().and_then(|d| d.0.get(&spec.id).cloned());
        inline.unwrap_or_else(|| picture(spec, slug))
    };
    Some(view! {
        <div class="chart-image" class:replaced=move || drawn.get() node_ref=holder inner_html=markup></div>
    })
}

/// Whether the build's drawing of chart `id`, taken from the page the app replaced, is there: it
/// then moves into `holder` once that is mounted (before the browser paints again).
#[cfg(feature = "csr")]
fn moves_in_build_drawing(id: &str, holder: NodeRef<leptos::html::Div>) -> bool {
    let Some(kept) = crate::browser::takeover::take_drawing(id) else {
        return false;
    };
    crate::state::effect::effect(move || {
        if let Some(holder) = holder.get() {
            crate::browser::takeover::move_children(&kept, &holder);
        }
    });
    true
}

/// At build time the drawing comes inline ([`Drawings`]).
#[cfg(not(feature = "csr"))]
fn moves_in_build_drawing(_: &str, _: NodeRef<leptos::html::Div>) -> bool {
    false
}

/// A `<picture>` of the chart's SVG files: the dark drawing for readers in dark mode.
fn picture(spec: &ChartSpec, slug: &str) -> String {
    let (width, height) = chart::export_size(spec);
    format!(
        "<picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"{dark}\">\
         <img src=\"{src}\" alt=\"{alt}\" width=\"{width}\" height=\"{height}\" \
         decoding=\"async\"></picture>",
        dark = escape(&data::href(&chart_dark_svg_path(slug, &spec.id))),
        src = escape(&data::href(&chart_svg_path(slug, &spec.id))),
        alt = escape(&benchdeck_core::export::alt_text(spec)),
    )
}
