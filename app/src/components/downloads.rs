//! A report's data to take away: its raw result files and its runs normalised (JSON, CSV), as
//! links to files the build published, or to text held in the page (dropped files).

use leptos::prelude::*;

/// One file to download.
#[derive(Debug, Clone, PartialEq)]
pub struct Download {
    /// What it is, for the reader.
    pub label: String,
    /// Where it is: a site path or a `blob:` URL.
    pub href: String,
    /// The file name to save it under.
    pub name: String,
}

impl Download {
    /// A file the build published at `href`.
    pub fn link(label: impl Into<String>, href: String, name: impl Into<String>) -> Download {
        Download {
            label: label.into(),
            href,
            name: name.into(),
        }
    }

    /// Text held in the page, offered as a file of type `mime`.
    pub fn text(label: &str, name: &str, mime: &str, text: &str) -> Download {
        Download {
            label: label.to_string(),
            href: blob_url(text, mime).unwrap_or_default(),
            name: name.to_string(),
        }
    }
}

/// Above this many files, all but the first [`SHOWN`] are collapsed (a nightly folder's page
/// offers one file a night).
const COLLAPSE_ABOVE: usize = 12;

/// The files shown above a collapsed list: the runs normalised.
const SHOWN: usize = 2;

/// The downloads, as a list of links under a "Data" heading; a long list collapsed under its
/// count.
#[component]
pub fn Downloads(
    /// The files.
    items: Vec<Download>,
) -> impl IntoView {
    let mut items: Vec<Download> = items.into_iter().filter(|d| !d.href.is_empty()).collect();
    let rest = if items.len() > COLLAPSE_ABOVE {
        items.split_off(SHOWN)
    } else {
        Vec::new()
    };
    (!items.is_empty()).then(|| {
        view! {
            <section class="downloads" aria-labelledby="downloads-title">
                <h2 id="downloads-title">"Data"</h2>
                <DownloadList items/>
                {(!rest.is_empty()).then(|| view! {
                    <details>
                        <summary>{format!("{} more files", rest.len())}</summary>
                        <DownloadList items=rest/>
                    </details>
                })}
            </section>
        }
    })
}

/// Links to `items`.
#[component]
fn DownloadList(items: Vec<Download>) -> impl IntoView {
    view! {
        <ul>
            {items.into_iter().map(|d| view! {
                <li><a href=d.href download=d.name.clone()>{d.label}</a>" "<span class="note">{d.name}</span></li>
            }).collect_view()}
        </ul>
    }
}

/// A `blob:` URL for `text`, alive as long as the page.
fn blob_url(text: &str, mime: &str) -> Option<String> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    web_sys::Url::create_object_url_with_blob(&blob).ok()
}
