//! Result files a reader drops on the site: handed to the Web Worker (`worker/`, built by trunk
//! next to the app) that reads, imports and reports them off the main thread; its progress and
//! its report land in one [`LocalState`] signal the `/local/` page shows. Nothing is uploaded;
//! the worker keeps the files in the browser for the next visit (`worker/src/kept.rs`) until
//! the reader forgets them.

use std::sync::Arc;

use benchdeck_core::site::{
    local_size_refusals, wire, ReportPage, WorkerCommand, WorkerReport, WorkerStage,
    KEPT_FILES_DATABASE,
};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{File, MessageEvent, Worker};

use crate::browser::data;

/// The worker's loader script, written by trunk (`data-loader-shim` in `app/index.html`).
const WORKER_SCRIPT: &str = "benchdeck-worker_loader.js";

/// What the `/local/` page shows.
#[derive(Debug, Clone, PartialEq)]
pub enum LocalState {
    /// No files yet (or the reader forgot them).
    Empty,
    /// The worker is at work.
    Working {
        /// What it is doing.
        stage: WorkerStage,
        /// The file it is on.
        file: String,
        /// Units done (bytes while reading, files while importing).
        done: u64,
        /// Units in all.
        total: u64,
    },
    /// The files were refused, or reading them failed.
    Failed(Vec<String>),
    /// The report.
    Ready(Arc<LocalResult>),
}

/// The report of dropped files and their runs, normalised, for download.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalResult {
    /// The page.
    pub page: ReportPage,
    /// Every run as JSON.
    pub runs_json: String,
    /// Every run as CSV.
    pub runs_csv: String,
}

/// Whether the files are kept for the next visit.
#[derive(Debug, Clone, PartialEq)]
pub enum Kept {
    /// Not (yet): no files, or they are being stored.
    No,
    /// In this browser's storage for the site.
    Yes,
    /// The browser refused (its storage is full, or it has none): why.
    Failed(String),
}

/// The state, shared by the app through context ([`provide`], [`context`]).
#[derive(Clone, Copy)]
pub struct Local {
    /// What the page shows.
    pub state: RwSignal<LocalState>,
    /// Whether the files survive a reload.
    pub kept: RwSignal<Kept>,
}

/// Creates the state; called once by the app.
pub fn provide() {
    provide_context(fresh());
}

fn fresh() -> Local {
    Local {
        state: RwSignal::new(LocalState::Empty),
        kept: RwSignal::new(Kept::No),
    }
}

/// The state.
pub fn context() -> Local {
    use_context::<Local>().unwrap_or_else(fresh)
}

/// Opens the files an earlier visit kept, if the page has none yet.
pub fn restore(local: Local) {
    if local.state.get_untracked() != LocalState::Empty {
        return;
    }
    leptos::task::spawn_local(async move {
        if may_have_kept_files().await {
            ask_worker(WorkerCommand::Restore, Vec::new(), local);
        }
    });
}

/// Whether the browser may hold files an earlier visit kept: not when it lists its databases
/// (`indexedDB.databases()`) and the worker's is not among them. Then the worker, a download
/// of its own, is not started for nothing. (Called through `Reflect`: the IndexedDB bindings
/// live in the worker alone.)
async fn may_have_kept_files() -> bool {
    use js_sys::{Array, Function, Promise, Reflect};
    let listing = || -> Option<Promise> {
        let window: wasm_bindgen::JsValue = crate::browser::window()?.into();
        let factory = Reflect::get(&window, &"indexedDB".into()).ok()?;
        let databases: Function = Reflect::get(&factory, &"databases".into())
            .ok()?
            .dyn_into()
            .ok()?;
        databases.call0(&factory).ok()?.dyn_into().ok()
    };
    let Some(listing) = listing() else {
        return true;
    };
    let Ok(list) = wasm_bindgen_futures::JsFuture::from(listing).await else {
        return true;
    };
    Array::from(&list).iter().any(|database| {
        Reflect::get(&database, &"name".into())
            .ok()
            .and_then(|name| name.as_string())
            .is_some_and(|name| name == KEPT_FILES_DATABASE)
    })
}

/// Deletes the kept files and empties the page.
pub fn forget(local: Local) {
    ask_worker(WorkerCommand::Forget, Vec::new(), local);
}

/// Reads `files` in the worker, updating the page's state as it goes; the worker keeps them once
/// read. Files over the size limits are refused at once, before anything is read.
pub fn open(files: Vec<File>, local: Local) {
    let state = local.state;
    local.kept.set(Kept::No);
    if files.is_empty() {
        return;
    }
    let sizes: Vec<(String, u64)> = files.iter().map(|f| (f.name(), f.size() as u64)).collect();
    let refusals = local_size_refusals(&sizes);
    if !refusals.is_empty() {
        state.set(LocalState::Failed(refusals));
        return;
    }
    state.set(LocalState::Working {
        stage: WorkerStage::Reading,
        file: sizes[0].0.clone(),
        done: 0,
        total: sizes.iter().map(|(_, s)| s).sum(),
    });
    ask_worker(WorkerCommand::Read, files, local);
}

/// Starts a worker, hands it `command` and `files` once it is ready, and follows its reports
/// until its last one.
fn ask_worker(command: WorkerCommand, files: Vec<File>, local: Local) {
    let worker = match Worker::new(&data::href(WORKER_SCRIPT)) {
        Ok(worker) => worker,
        Err(e) => {
            local.state.set(LocalState::Failed(vec![format!(
                "the file reader could not start: {}",
                data::js_message(&e)
            )]));
            return;
        }
    };
    let message = js_sys::Array::of1(&command.word().into());
    for file in &files {
        message.push(file);
    }
    let on_message = {
        let worker = worker.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let bytes = js_sys::Uint8Array::new(&event.data()).to_vec();
            let report =
                wire::decode::<WorkerReport>(&bytes).unwrap_or_else(|e| WorkerReport::Failed {
                    message: format!("the file reader sent something unexpected ({e})"),
                });
            if report == WorkerReport::Ready {
                if let Err(e) = worker.post_message(&message) {
                    local.state.set(LocalState::Failed(vec![format!(
                        "the files could not be handed to the reader: {}",
                        data::js_message(&e)
                    )]));
                    worker.terminate();
                }
            } else if follow(report, local) {
                worker.terminate();
            }
        })
    };
    let state = local.state;
    let on_error = {
        let worker = worker.clone();
        Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            state.set(LocalState::Failed(vec![worker_failure(&event)]));
            worker.terminate();
        })
    };
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    // The closures live as long as the worker, which ends with its last report.
    on_message.forget();
    on_error.forget();
}

/// What went wrong with the worker: the error it threw, or, for a plain `error` event (its
/// script could not be loaded), that it could not start.
fn worker_failure(event: &web_sys::Event) -> String {
    match event.dyn_ref::<web_sys::ErrorEvent>() {
        Some(error) => format!("the file reader stopped: {}", error.message()),
        None => "the file reader could not be started: its script did not load; check the \
                 connection and open the files again"
            .to_string(),
    }
}

/// Shows one of the worker's reports; `true` when it was the last.
fn follow(report: WorkerReport, local: Local) -> bool {
    let Local { state, kept } = local;
    match report {
        WorkerReport::Ready => false,
        WorkerReport::Progress {
            stage,
            file,
            done,
            total,
        } => {
            state.set(LocalState::Working {
                stage,
                file,
                done,
                total,
            });
            false
        }
        // Whether the files are kept comes next.
        WorkerReport::Done {
            page,
            runs_json,
            runs_csv,
        } => {
            state.set(LocalState::Ready(Arc::new(LocalResult {
                page: *page,
                runs_json,
                runs_csv,
            })));
            false
        }
        WorkerReport::Kept { error } => {
            kept.set(error.map_or(Kept::Yes, Kept::Failed));
            true
        }
        WorkerReport::NothingKept => true,
        WorkerReport::Forgotten { error: None } => {
            state.set(LocalState::Empty);
            kept.set(Kept::No);
            true
        }
        WorkerReport::Forgotten { error: Some(why) } => {
            kept.set(Kept::Failed(why));
            true
        }
        WorkerReport::Failed { message } => {
            state.set(LocalState::Failed(
                message.lines().map(str::to_string).collect(),
            ));
            true
        }
    }
}

/// The files of a drop event or a file input's `FileList`.
pub fn files_of(list: Option<web_sys::FileList>) -> Vec<File> {
    let Some(list) = list else {
        return Vec::new();
    };
    (0..list.length()).filter_map(|i| list.item(i)).collect()
}
