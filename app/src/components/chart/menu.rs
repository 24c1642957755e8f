//! A chart's "Download / embed" menu: the SVG and CSV the build wrote (plain links, so they
//! work without JavaScript), a PNG and CSV of what the reader sees, the embed code for a blog
//! post and the data table, the chart's text alternative.

use benchdeck_core::chart::{self, ChartSpec, DrawOptions, Theme, Zoom};
use benchdeck_core::export;
use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::MouseEvent;

use crate::browser::data;
use crate::components::handler;

/// The "Download / embed" menu: SVG, CSV, PNG, the embed code and the data table. A `<details>`,
/// so it opens without JavaScript too (the SVG and CSV are files the build wrote).
#[component]
pub(super) fn ChartMenu(
    spec: Memo<ChartSpec>,
    canvas: NodeRef<Canvas>,
    slug: String,
    id: String,
    /// Series the reader hid: the PNG leaves them out, as the canvas does.
    hidden: Signal<u64>,
    /// The reader's zoom: the PNG shows the same box.
    zoom: RwSignal<Option<Zoom>>,
) -> impl IntoView {
    let svg_href = data::href(&benchdeck_core::site::chart_svg_path(&slug, &id));
    let file_stem = format!("{slug}-{id}");
    let png_name = format!("{file_stem}.png");
    let csv_name = StoredValue::new(format!("{file_stem}.csv"));
    // The PNG is the canvas' drawing with its legend (a file has no page around it).
    let download_png = move |_| {
        let Some(canvas) = canvas.get_untracked() else {
            return;
        };
        let size = (
            f64::from(canvas.client_width()).max(280.0),
            f64::from(canvas.client_height()).max(160.0),
        );
        let options = DrawOptions {
            theme: Theme::named(crate::state::theme::current()),
            hidden: hidden.get_untracked(),
            legend: true,
            zoom: zoom.get_untracked(),
            direct_labels: true,
        };
        let url = spec.with_untracked(|s| crate::browser::canvas::png_url(s, size, &options));
        if let Some(url) = url {
            save(&url, &png_name);
        }
    };
    let download_csv = move |()| {
        let text = spec.with_untracked(export::csv);
        let url = format!(
            "data:text/csv;charset=utf-8,{}",
            String::from(js_sys::encode_uri_component(&text))
        );
        csv_name.with_value(|name| save(&url, name));
    };
    // Dropped files have no published SVG, embed page or stable address.
    let published = slug != benchdeck_core::site::LOCAL_SLUG;
    let show_embed = RwSignal::new(false);
    // A published chart's CSV is a file the build wrote (a plain link, without JavaScript too);
    // a dropped file's is made in the page.
    let csv_href = data::href(&benchdeck_core::site::chart_csv_path(&slug, &id));
    view! {
        <details class="chart-menu">
        <summary class="tool menu-toggle">"Download / embed"</summary>
        <div class="chart-menu-body">
        <div class="chart-tools">
            {published.then(|| view! { <a class="tool" href=svg_href download=format!("{file_stem}.svg")>"SVG"</a> })}
            // With the app running, the CSV follows the reader's view (another statistic).
            {published.then(|| view! {
                <a class="tool" href=csv_href download=format!("{file_stem}.csv")
                    on:click=handler(move |ev: MouseEvent| { ev.prevent_default(); download_csv(()); })>"CSV"</a>
            })}
            <button type="button" class="tool js-only" on:click=handler(download_png)>"PNG"</button>
            {(!published).then(|| view! { <button type="button" class="tool js-only" on:click=handler(move |_| download_csv(()))>"CSV"</button> })}
            {published.then(|| view! {
                <button type="button" class="tool embed-toggle js-only" aria-expanded=move || show_embed.get().to_string()
                    on:click=handler(move |_| show_embed.update(|s| *s = !*s))>"Embed"</button>
            })}
        </div>
        {move || show_embed.get().then(|| view! { <EmbedCode spec slug=slug.clone() id=id.clone()/> })}
        <DataTable spec/>
        </div>
        </details>
    }
}

/// The chart's values as a table, the chart's text alternative. The build writes it, for
/// readers without JavaScript; the app makes it when the reader first opens it (16 tables were
/// 600 of the 1,400 elements the app made for seed 002's report when taking it over).
#[component]
fn DataTable(spec: Memo<ChartSpec>) -> impl IntoView {
    let table_shown = RwSignal::new(cfg!(feature = "ssr"));
    view! {
        <details class="chart-data" on:toggle=handler(move |_| table_shown.set(true))>
            <summary>"Data table"</summary>
            {move || table_shown.get().then(|| {
                let table = spec.with(export::data_table);
                view! {
                    <div class="table-scroll" tabindex="0">
                        <table>
                            <thead><tr>{table.header.into_iter().map(|h| view! { <th scope="col">{h}</th> }).collect_view()}</tr></thead>
                            <tbody>
                                {table.rows.into_iter().map(|row| {
                                    let mut cells = row.into_iter();
                                    let head = cells.next().unwrap_or_default();
                                    view! {
                                        <tr>
                                            <th scope="row">{head}</th>
                                            {cells.map(|c| view! { <td>{c}</td> }).collect_view()}
                                        </tr>
                                    }
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                    {(table.omitted > 0).then(|| view! {
                        <p class="note">{format!("{} more rows are in the CSV download.", table.omitted)}</p>
                    })}
                }
            })}
        </details>
    }
}

/// The code to put a chart in a blog post: an `<iframe>` of its embed page (interactive), or an
/// `<img>` of its SVG (static), each with a copy button.
#[component]
fn EmbedCode(spec: Memo<ChartSpec>, slug: String, id: String) -> impl IntoView {
    use benchdeck_core::html::escape;
    use benchdeck_core::site::{chart_svg_path, embed_page_path};
    let origin = crate::browser::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    let (title, height) = spec.with_untracked(|s| {
        (
            s.title.clone(),
            chart::preferred_height(s, 640.0).round() as i64 + 150,
        )
    });
    let page = format!("{origin}{}", data::href(&embed_page_path(&slug, &id)));
    let svg = format!("{origin}{}", data::href(&chart_svg_path(&slug, &id)));
    let iframe = format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"{height}\" style=\"border:0\" loading=\"lazy\"></iframe>",
        escape(&page),
        escape(&title)
    );
    let img = format!(
        "<img src=\"{}\" alt=\"{}\" width=\"960\" style=\"max-width:100%;height:auto\">",
        escape(&svg),
        escape(&title)
    );
    view! {
        <div class="embed-code">
            <CopyField label="Interactive (iframe)" text=iframe/>
            <CopyField label="Image (SVG)" text=img/>
            <p class="note">"Add "<code>"?theme=dark"</code>" or "<code>"?theme=light"</code>
                " to the iframe address to fix its colours."</p>
        </div>
    }
}

/// A read-only code field with a button that copies it. Where the browser offers no clipboard
/// (a site served over plain HTTP) or refuses to write to it, the button selects the code and
/// says to press Ctrl+C (⌘C on a Mac).
#[component]
fn CopyField(label: &'static str, text: String) -> impl IntoView {
    let copied = RwSignal::new(Copied::Not);
    let field = NodeRef::<leptos::html::Textarea>::new();
    let value = text.clone();
    let select = move || {
        if let Some(field) = field.get_untracked() {
            field.select();
            let _ = field.focus();
        }
        copied.set(Copied::Selected);
    };
    let copy = move |_| match clipboard() {
        Some(clipboard) => {
            let promise = clipboard.write_text(&value);
            wasm_bindgen_futures::spawn_local(async move {
                match wasm_bindgen_futures::JsFuture::from(promise).await {
                    Ok(_) => copied.set(Copied::Yes),
                    Err(_) => select(),
                }
            });
        }
        None => select(),
    };
    view! {
        <label class="copy-field">
            <span>{label}</span>
            <textarea readonly rows="3" spellcheck="false" node_ref=field>{text}</textarea>
        </label>
        <button type="button" class="tool" on:click=handler(copy)>
            {move || match copied.get() {
                Copied::Not => "Copy",
                Copied::Yes => "Copied",
                Copied::Selected => "Selected: press Ctrl+C (⌘C)",
            }}
        </button>
    }
}

/// What the copy button did last.
#[derive(Clone, Copy, PartialEq)]
enum Copied {
    Not,
    Yes,
    /// The code is selected for the reader to copy.
    Selected,
}

/// The browser's clipboard, if it offers one (only to pages of a secure origin).
fn clipboard() -> Option<web_sys::Clipboard> {
    let navigator = crate::browser::window()?.navigator();
    let clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into()).ok()?;
    clipboard.dyn_into().ok()
}

/// Saves `url` under `name` through a temporary link.
fn save(url: &str, name: &str) {
    let Some(document) = crate::browser::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(link) = document.create_element("a") else {
        return;
    };
    let Ok(link) = link.dyn_into::<web_sys::HtmlAnchorElement>() else {
        return;
    };
    link.set_href(url);
    link.set_download(name);
    link.click();
}
