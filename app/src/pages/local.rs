//! `/local/`: the result files a reader dropped, as a report (the same page as a published
//! one, built in the worker), with the reading progress before and the downloads of the
//! normalised data after. The files are kept in this browser for the next visit until the
//! reader forgets them.

use crate::state::effect::effect;
use benchdeck_core::format;
use benchdeck_core::site::WorkerStage;
use leptos::either::{Either, EitherOf4};
use leptos::prelude::*;

use crate::components::fresh::Fresh;
use crate::components::{handler, Download, DropZone};
use crate::pages::report::ReportBody;
use crate::state::local::{self, Kept, LocalState};

/// The page of dropped files.
#[component]
pub fn LocalReport() -> impl IntoView {
    let local = local::context();
    let state = local.state;
    // In the browser only (effects do not run at build time): the files of an earlier visit.
    effect(move || local::restore(local));
    move || match state.get() {
        LocalState::Empty => {
            crate::browser::ready::expect_charts(0);
            set_title("Your result files");
            EitherOf4::A(view! {
                <section class="local-empty">
                    <h1>"Your result files"</h1>
                    <p>"Files you open here are read in this browser, never uploaded, and kept in its "
                       "storage for this site until you forget them."</p>
                    <KeptNote local/>
                    <DropZone/>
                </section>
            })
        }
        LocalState::Working {
            stage,
            file,
            done,
            total,
        } => {
            crate::browser::ready::pending();
            set_title("Reading your result files");
            EitherOf4::B(view! { <Progress stage file done total/> })
        }
        LocalState::Failed(reasons) => {
            crate::browser::ready::expect_charts(0);
            EitherOf4::C(view! {
                <section class="local-empty">
                    <h1>"Your result files"</h1>
                    <div class="error-panel" role="alert">
                        <p>"These files were not read:"</p>
                        <ul>{reasons.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}</ul>
                    </div>
                    <DropZone/>
                </section>
            })
        }
        LocalState::Ready(result) => {
            let downloads = vec![
                Download::text(
                    "Runs, normalised (JSON)",
                    "benchdeck-runs.json",
                    "application/json",
                    &result.runs_json,
                ),
                Download::text(
                    "Runs, normalised (CSV)",
                    "benchdeck-runs.csv",
                    "text/csv",
                    &result.runs_csv,
                ),
            ];
            EitherOf4::D(Fresh(view! {
                <KeptNote local/>
                <ReportBody page=result.page.clone() downloads/>
                <DropZone/>
            }))
        }
    }
}

/// Whether the files will be here after a reload, and the control that forgets them.
#[component]
fn KeptNote(
    /// The dropped files' state.
    local: local::Local,
) -> impl IntoView {
    move || match local.kept.get() {
        Kept::No => None,
        Kept::Yes => Some(Either::Left(view! {
            <p class="kept-note">
                "These files are kept in this browser only, so this page shows them again on "
                "your next visit. "
                <button type="button" class="forget" on:click=handler(move |_| local::forget(local))>
                    "Forget these files"
                </button>
            </p>
        })),
        Kept::Failed(why) => Some(Either::Right(view! {
            <p class="kept-note warning" role="alert">
                "These files could not be kept for your next visit: " {why} "."
            </p>
        })),
    }
}

/// How far the worker got, as a progress bar and in words.
#[component]
fn Progress(stage: WorkerStage, file: String, done: u64, total: u64) -> impl IntoView {
    let words = match stage {
        WorkerStage::Reading => format!("Reading {file}: {}", format::bytes_of(done, total)),
        WorkerStage::Importing => format!("Importing {file} ({} of {total} files done)", done),
        WorkerStage::Building => "Building the report".to_string(),
    };
    let (value, max) = match stage {
        WorkerStage::Building => (1, 1),
        _ => (done, total.max(1)),
    };
    view! {
        <section class="local-progress" aria-busy="true">
            <h1>"Reading your result files"</h1>
            <progress value=value.to_string() max=max.to_string()></progress>
            <p role="status" aria-live="polite">{words}</p>
        </section>
    }
}

fn set_title(title: &str) {
    crate::browser::set_title(&format!("{title} · benchdeck"));
}
