//! Readable error panels: which file, where, what went wrong.

use benchdeck_core::format::plural;
use benchdeck_core::problem::{Problem, Severity};
use leptos::prelude::*;

use crate::browser::data::LoadError;

/// Data that could not be loaded.
#[component]
pub fn LoadErrorPanel(
    /// What failed.
    error: LoadError,
) -> impl IntoView {
    view! {
        <div class="error-panel" role="alert">
            <h2>"This page's data could not be loaded"</h2>
            <p><code>{error.url}</code>": "{error.message}</p>
        </div>
    }
}

/// The problems of a report's data, errors first, folded when there are only warnings.
#[component]
pub fn ProblemList(
    /// The problems to list.
    problems: Vec<Problem>,
) -> impl IntoView {
    if problems.is_empty() {
        return None;
    }
    let errors = problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .count();
    let warnings = problems.len() - errors;
    let summary = match (errors, warnings) {
        (0, w) => format!("{w} warning{} in this report's data", plural(w)),
        (e, 0) => format!("{e} problem{} in this report's data", plural(e)),
        (e, w) => format!(
            "{e} problem{} and {w} warning{} in this report's data",
            plural(e),
            plural(w)
        ),
    };
    let has_errors = errors > 0;
    let class = if has_errors {
        "problems has-errors"
    } else {
        "problems"
    };
    let mut sorted = problems;
    // Errors first, then warnings, each in their order.
    benchdeck_core::order::sort_by_f64(&mut sorted, &|p| match p.severity {
        Severity::Error => 0.0,
        Severity::Warning => 1.0,
    });
    Some(view! {
        <details class=class open=has_errors>
            <summary>{summary}</summary>
            <ul>
                {sorted.into_iter().map(|p| {
                    let level = match p.severity {
                        Severity::Error => "error",
                        Severity::Warning => "warning",
                    };
                    view! {
                        <li class=level>
                            <code>{p.place()}</code>
                            " "<span class="level">{level}</span>": "{p.message}
                        </li>
                    }
                }).collect_view()}
            </ul>
        </details>
    })
}
