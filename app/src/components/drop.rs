//! Opening result files from the reader's disk: a drop area with a file button, and dropping files
//! anywhere on any page. Either way the files go to the worker (`crate::state::local`) and the reader to
//! the `/local/` page, which shows the progress and then the report.

use benchdeck_core::site::{LOCAL_MAX_FILE_BYTES, LOCAL_MAX_TOTAL_BYTES};
use leptos::html::Input;
use leptos::prelude::*;
use web_sys::{DragEvent, File};

use crate::components::handler;
use crate::state::{local, route};

/// A function that hands files to the worker and shows the page of dropped files; made inside
/// a component or the app, where their context is.
fn opener() -> impl Fn(Vec<File>) + Copy + 'static {
    let local = local::context();
    let show_local = route::local_page_opener();
    move |files: Vec<File>| {
        if files.is_empty() {
            return;
        }
        local::open(files, local);
        show_local();
    }
}

/// The drop area with its file button.
#[component]
pub fn DropZone() -> impl IntoView {
    let open = opener();
    let input = NodeRef::<Input>::new();
    let over = RwSignal::new(false);
    let on_change = move |_| {
        let files = input
            .get()
            .map(|i| local::files_of(i.files()))
            .unwrap_or_default();
        open(files);
        // The same files may be chosen again.
        if let Some(input) = input.get() {
            input.set_value("");
        }
    };
    let on_drop = move |ev: DragEvent| {
        ev.prevent_default();
        ev.stop_propagation();
        over.set(false);
        open(local::files_of(ev.data_transfer().and_then(|d| d.files())));
    };
    let limits = format!(
        "Up to {} MiB per file, {} MiB at once.",
        LOCAL_MAX_FILE_BYTES / (1024 * 1024),
        LOCAL_MAX_TOTAL_BYTES / (1024 * 1024)
    );
    view! {
        <section
            class="drop-zone"
            class:over=move || over.get()
            on:dragover=handler(move |ev: DragEvent| { ev.prevent_default(); over.set(true); })
            on:dragleave=handler(move |_| over.set(false))
            on:drop=handler(on_drop)
        >
            <h2>"Your own results"</h2>
            <p>
                "Drop result files here (vllm bench serve, SGLang, GuideLLM, GenAI-Perf, AIPerf, llmperf, "
                "inference-benchmarker, Locust, k6, benchdeck CSV), or "
                <label class="file-button">
                    "choose files"
                    <input node_ref=input type="file" multiple on:change=handler(on_change) class="visually-hidden"/>
                </label>
                ". They are read in this browser; nothing is uploaded."
            </p>
            <p class="note">{limits}</p>
        </section>
    }
}

/// Dropping files anywhere on a page opens them too; call once, in the app.
pub fn accept_drops_anywhere() {
    let open = opener();
    if crate::browser::window().is_none() {
        return;
    }
    let over = window_event_listener(leptos::ev::dragover, |ev: DragEvent| {
        if crate::browser::carries_files(&ev) {
            ev.prevent_default();
        }
    });
    let drop = window_event_listener(leptos::ev::drop, move |ev: DragEvent| {
        if !crate::browser::carries_files(&ev) {
            return;
        }
        ev.prevent_default();
        open(local::files_of(ev.data_transfer().and_then(|d| d.files())));
    });
    // Listeners for the app's whole life.
    std::mem::forget((over, drop));
    let handed = HANDED.take();
    if !handed.is_empty() {
        open(handed);
    }
}

/// Files handed to the app as it starts: the islands' app downloaded the whole app for them
/// (`islands/full.rs`, `open_dropped` in `src/bin/full.rs`).
#[cfg(feature = "csr")]
pub fn hand_over(files: Vec<File>) {
    HANDED.set(files);
}

thread_local! {
    /// Files handed over ([`hand_over`]), opened when the app is built.
    static HANDED: std::cell::RefCell<Vec<File>> = const { std::cell::RefCell::new(Vec::new()) };
}
