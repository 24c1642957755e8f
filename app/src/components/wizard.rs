//! The decision wizard of a report (its `decision:` front matter): guided questions leading to a
//! recommendation, or the reader's own SLAs and weights ranked by `benchdeck_core::decision`.
//!
//! The state lives in the URL query (`?answers=1.0`, `?load=5&limits=99,2000&weights=1,2`), so a
//! recommendation can be shared as a link; it is written with `history.replaceState`, which
//! keeps the page and its charts where they are.

mod guided;
mod query;
mod requirements;
mod tree_diagram;

use benchdeck_core::site::DecisionData;
use leptos::prelude::*;

use crate::state::effect::effect;
use guided::Guided;
use query::{join, Query};
use requirements::{limit, Requirements};

/// The wizard: guided questions (when the report has a tree) and the requirements form.
#[component]
pub fn Wizard(
    /// What the report offers.
    data: DecisionData,
) -> impl IntoView {
    let query = Query::read();
    let answers = RwSignal::new(query.list("answers").map_or_else(Vec::new, |v| {
        v.iter().map(|&x| x.max(0.0) as usize).collect()
    }));
    let load = RwSignal::new(query.number("load").unwrap_or(data.load));
    let limits = RwSignal::new(
        query
            .list("limits")
            .filter(|l| l.len() == data.constraints.len())
            .unwrap_or_else(|| data.constraints.iter().map(|c| limit(c.bound)).collect()),
    );
    let weights = RwSignal::new(
        query
            .list("weights")
            .filter(|w| w.len() == data.criteria.len())
            .unwrap_or_else(|| data.criteria.iter().map(|c| c.weight).collect()),
    );
    // The URL changes only once the reader changes something.
    let first_run = StoredValue::new(true);
    effect(move || {
        let pairs = [
            (
                "answers",
                join(&answers.get().iter().map(|&a| a as f64).collect::<Vec<_>>()),
            ),
            ("load", format!("{}", load.get())),
            ("limits", join(&limits.get())),
            ("weights", join(&weights.get())),
        ];
        if first_run.get_value() {
            first_run.set_value(false);
            return;
        }
        Query::write(&pairs);
    });
    let guided = data
        .tree
        .clone()
        .zip(data.diagram.clone())
        .map(|(tree, diagram)| {
            let reasons = data.reasons.clone();
            let candidates = data.candidates.clone();
            view! { <Guided tree diagram reasons candidates answers/> }
        });
    view! {
        <section class="wizard" aria-labelledby="wizard-title">
            <h2 id="wizard-title">"Which setup should I pick?"</h2>
            {guided}
            <Requirements data load limits weights/>
        </section>
    }
}
