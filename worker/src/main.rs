//! benchdeck's Web Worker: the page hands it the files a reader dropped (or picked), it reads
//! them in slices (reporting progress in bytes), imports each (progress in files), builds their
//! report with the site's own report code (`benchdeck_core::report::local`) and posts back one
//! [`WorkerReport`] per message, in the binary form of `benchdeck_core::site::wire`. Nothing
//! leaves the browser.
//!
//! Running here, off the main thread, a 100 MB file never freezes the page. A panic is caught by
//! the hook and posted as [`WorkerReport::Failed`], so the page can say so instead of waiting.
//!
//! The page's message is a [`WorkerCommand`] and, to read, the files; the worker also keeps the
//! files it read for the reader's next visit, reads them back and forgets them ([`kept`]).

mod kept;

use benchdeck_core::input::InputFile;
use benchdeck_core::report::local::{local_report_with_progress, LocalReport};
use benchdeck_core::site::{local_size_refusals, wire, WorkerCommand, WorkerReport, WorkerStage};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, File, FileReaderSync, MessageEvent};

/// Bytes read per slice: small enough for steady progress, large enough to be quick.
const SLICE_BYTES: f64 = 4.0 * 1024.0 * 1024.0;

fn main() {
    std::panic::set_hook(Box::new(|info| {
        post(&WorkerReport::Failed {
            message: format!("reading the files failed inside benchdeck: {info}"),
        });
    }));
    let scope = scope();
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(|event: MessageEvent| {
        let items = js_sys::Array::from(&event.data());
        let word = items.get(0).as_string().unwrap_or_default();
        let files: Vec<File> = items
            .iter()
            .skip(1)
            .filter_map(|value| value.dyn_into::<File>().ok())
            .collect();
        wasm_bindgen_futures::spawn_local(answer(word, files));
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    // Messages sent before the wasm had started are lost; the page waits for this one.
    post(&WorkerReport::Ready);
}

/// Does what the page asked: `word` names a [`WorkerCommand`].
async fn answer(word: String, files: Vec<File>) {
    match WorkerCommand::from_word(&word) {
        Some(WorkerCommand::Read) => read_and_keep(&files, true).await,
        Some(WorkerCommand::Restore) => match kept::kept().await {
            Ok(files) if files.is_empty() => post(&WorkerReport::NothingKept),
            Ok(files) => read_and_keep(&files, false).await,
            Err(why) => post(&WorkerReport::Kept { error: Some(why) }),
        },
        Some(WorkerCommand::Forget) => post(&WorkerReport::Forgotten {
            error: kept::forget().await.err(),
        }),
        None => post(&WorkerReport::Failed {
            message: format!("the file reader was asked to `{word}`, which it does not do"),
        }),
    }
}

/// Reports `files`, then, once they made a report, says whether they are kept for the next
/// visit (storing them first when `store`; kept files are there already).
async fn read_and_keep(files: &[File], store: bool) {
    let report = process(files);
    let made = matches!(report, WorkerReport::Done { .. });
    post(&report);
    drop(report);
    if made {
        let error = if store {
            kept::keep(files).await.err()
        } else {
            None
        };
        post(&WorkerReport::Kept { error });
    }
}

/// Reads, imports and reports `files`; every failure becomes a message for the reader.
fn process(files: &[File]) -> WorkerReport {
    if files.is_empty() {
        return WorkerReport::Failed {
            message: "no files were given; drop result files (JSON, JSON Lines, CSV, YAML, Markdown) or choose them".into(),
        };
    }
    let sizes: Vec<(String, u64)> = files
        .iter()
        .map(|f| (name_of(f), f.size() as u64))
        .collect();
    let refusals = local_size_refusals(&sizes);
    if !refusals.is_empty() {
        return WorkerReport::Failed {
            message: refusals.join("\n"),
        };
    }
    let total: u64 = sizes.iter().map(|(_, s)| s).sum();
    let reader = match FileReaderSync::new() {
        Ok(reader) => reader,
        Err(_) => {
            return WorkerReport::Failed {
                message: "this browser cannot read files in a worker (FileReaderSync)".into(),
            }
        }
    };
    let mut inputs = Vec::with_capacity(files.len());
    let mut done = 0u64;
    for (file, (name, _)) in files.iter().zip(&sizes) {
        match read(&reader, file, name, &mut done, total) {
            Ok(bytes) => inputs.push(InputFile {
                path: name.clone(),
                bytes,
            }),
            Err(message) => return WorkerReport::Failed { message },
        }
    }
    let count = inputs.len();
    let report = local_report_with_progress(&inputs, &mut |done, file| {
        post(&if done < count {
            WorkerReport::Progress {
                stage: WorkerStage::Importing,
                file: file.to_string(),
                done: done as u64,
                total: count as u64,
            }
        } else {
            WorkerReport::Progress {
                stage: WorkerStage::Building,
                file: String::new(),
                done: 0,
                total: 1,
            }
        });
    });
    drop(inputs);
    let LocalReport { page, imports } = report;
    let runs: Vec<&benchdeck_core::model::Run> = imports.iter().flat_map(|f| &f.runs).collect();
    let combined = benchdeck_core::export::combined(&runs);
    let runs: Vec<&benchdeck_core::model::Run> = combined.iter().map(AsRef::as_ref).collect();
    WorkerReport::Done {
        page: Box::new(page),
        runs_json: benchdeck_core::export::runs_json(&runs),
        runs_csv: benchdeck_core::export::runs_csv(runs.iter().copied()),
    }
}

/// The file's bytes, read slice by slice with a progress message after each.
fn read(
    reader: &FileReaderSync,
    file: &File,
    name: &str,
    done: &mut u64,
    total: u64,
) -> Result<Vec<u8>, String> {
    let size = file.size();
    let mut bytes = Vec::with_capacity(size as usize);
    let mut start = 0.0;
    while start < size {
        let end = (start + SLICE_BYTES).min(size);
        let slice = file
            .slice_with_f64_and_f64(start, end)
            .map_err(|_| format!("{name}: the browser could not slice the file"))?;
        let buffer = reader.read_as_array_buffer(&slice).map_err(|_| {
            format!("{name}: the browser could not read the file (was it moved or deleted?)")
        })?;
        let array = js_sys::Uint8Array::new(&buffer);
        let from = bytes.len();
        bytes.resize(from + array.length() as usize, 0);
        array.copy_to(&mut bytes[from..]);
        *done += (end - start) as u64;
        start = end;
        post(&WorkerReport::Progress {
            stage: WorkerStage::Reading,
            file: name.to_string(),
            done: *done,
            total,
        });
    }
    Ok(bytes)
}

/// The path the reader gave: the folder-relative path when a folder was picked, else the name.
fn name_of(file: &File) -> String {
    let relative = js_sys::Reflect::get(file, &JsValue::from_str("webkitRelativePath"))
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default();
    if relative.is_empty() {
        file.name()
    } else {
        relative
    }
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// Posts one report to the page, in the binary form of `site::wire`, handing its buffer over
/// instead of copying it.
fn post(report: &WorkerReport) {
    let bytes = wire::encode(report).or_else(|e| {
        wire::encode(&WorkerReport::Failed {
            message: format!("the report could not be encoded: {e}"),
        })
    });
    let Ok(bytes) = bytes else {
        return;
    };
    let array = js_sys::Uint8Array::from(bytes.as_slice());
    let transfer = js_sys::Array::of1(&array.buffer());
    // A page that went away takes no more messages; there is no one left to tell.
    scope().post_message_with_transfer(&array, &transfer).ok();
}
