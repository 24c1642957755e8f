//! The wizard's guided questions: one question at a time, the answers so far, back and
//! restart, the recommendation with why, and the whole tree as a flowchart and as text.

use benchdeck_core::decision::tree::layout::{describe_path, Diagram, PathTaken};
use benchdeck_core::decision::tree::{Node, Tree, Walk};
use leptos::either::EitherOf3;
use leptos::prelude::*;

use super::tree_diagram::TreeDiagram;
use crate::components::handler;

/// One question at a time, with back and restart, the answers so far, the recommendation, and
/// the whole tree drawn as a flowchart with the path taken highlighted (its outline as text
/// below).
#[component]
pub fn Guided(
    tree: Tree,
    /// The tree laid out by the build.
    diagram: Diagram,
    reasons: std::collections::BTreeMap<String, benchdeck_core::site::RenderedReason>,
    candidates: Vec<benchdeck_core::decision::Candidate>,
    answers: RwSignal<Vec<usize>>,
) -> impl IntoView {
    let tree = StoredValue::new(tree);
    let walk = Memo::new(move |_| {
        let given = answers.get();
        tree.with_value(|t| {
            // A link with answers that no longer fit the tree starts over.
            t.walk(&given).or_else(|_| t.walk(&[]))
        })
    });
    let path = Memo::new(move |_| {
        let given = answers.get();
        tree.with_value(|t| {
            PathTaken::follow(t, &given)
                .or_else(|_| PathTaken::follow(t, &[]))
                .ok()
        })
    });
    // Inserted one by one: collecting into a `BTreeMap` brings a stable sort of its own.
    let mut labels = std::collections::BTreeMap::new();
    for c in &candidates {
        labels.insert(c.key.clone(), c.label.clone());
    }
    let labels = StoredValue::new(labels);
    let label_of = move |key: &str| {
        labels.with_value(|l| l.get(key).cloned().unwrap_or_else(|| key.to_string()))
    };
    let live = crate::state::live::running();
    let current = current_step(tree, walk, reasons, answers, label_of);
    let summary = move || {
        walk.get()
            .map(|w| {
                w.steps
                    .into_iter()
                    .map(|s| view! { <li>{s.question}" " <strong>{s.answer}</strong></li> })
                    .collect_view()
            })
            .ok()
    };
    let on_path = move |id: &str| {
        walk.get()
            .is_ok_and(|w| w.at == id || w.steps.iter().any(|s| s.node == id))
    };
    let outline = tree.with_value(|t| outline_items(t, on_path));
    let description = Signal::derive(move || {
        path.with(|p| {
            p.as_ref()
                .map(|p| tree.with_value(|t| describe_path(t, p, label_of)))
                .unwrap_or_default()
        })
    });
    view! {
        <div class="guided">
            <h3>"Guided"</h3>
            {current}
            <ol class="answers-so-far">{summary}</ol>
            <div class="wizard-controls">
                <button type="button" on:click=handler(move |_| answers.update(|v| { v.pop(); }))
                    disabled=move || !live.get() || answers.get().is_empty()>"Back"</button>
                <button type="button" on:click=handler(move |_| answers.set(Vec::new()))
                    disabled=move || !live.get() || answers.get().is_empty()>"Restart"</button>
            </div>
            <TreeDiagram diagram path description answers/>
            <details class="tree">
                <summary>"All questions as text (the path taken is marked)"</summary>
                <ul>{outline}</ul>
            </details>
        </div>
    }
}

/// The step the reader is at: the question with a button per answer (they work once the app
/// runs), or the recommendation with why; a tree the walk cannot follow says so.
fn current_step(
    tree: StoredValue<Tree>,
    walk: Memo<Result<Walk, String>>,
    reasons: std::collections::BTreeMap<String, benchdeck_core::site::RenderedReason>,
    answers: RwSignal<Vec<usize>>,
    label_of: impl Fn(&str) -> String + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let live = crate::state::live::running();
    move || {
        let broken = || view! { <p class="error">"The question tree is broken."</p> };
        let Ok(walk) = walk.get() else {
            return EitherOf3::A(broken());
        };
        match tree.with_value(|t| t.nodes.get(&walk.at).cloned()) {
            Some(Node::Question {
                question,
                answers: choices,
            }) => EitherOf3::B(view! {
                <fieldset class="question" disabled=move || !live.get()>
                    <legend>{question}</legend>
                    {choices.into_iter().enumerate().map(|(i, a)| view! {
                        <button type="button" class="answer" on:click=handler(move |_| answers.update(|v| v.push(i)))>
                            {a.label}
                        </button>
                    }).collect_view()}
                </fieldset>
            }),
            Some(Node::Recommendation { recommend, .. }) => {
                let reason = reasons
                    .get(&walk.at)
                    .map(|r| r.html.clone())
                    .unwrap_or_default();
                EitherOf3::C(view! {
                    <div class="recommendation" role="status">
                        <p class="pick">"Recommended: " <strong>{label_of(&recommend)}</strong></p>
                        <div class="prose" inner_html=reason></div>
                    </div>
                })
            }
            None => EitherOf3::A(broken()),
        }
    }
}

/// Every question (with where each answer leads) and recommendation of `tree` as a list item,
/// those `on_path` marked.
fn outline_items(
    tree: &Tree,
    on_path: impl Fn(&str) -> bool + Copy + Send + Sync + 'static,
) -> impl IntoView {
    tree.nodes
        .iter()
        .map(|(id, node)| {
            let id = id.clone();
            let text = match node {
                Node::Question { question, answers } => format!(
                    "{question} → {}",
                    answers
                        .iter()
                        .map(|a| format!("{}: {}", a.label, a.next))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Node::Recommendation { recommend, .. } => format!("recommend {recommend}"),
            };
            let marked = id.clone();
            view! {
                <li class:on-path=move || on_path(&marked)><code>{id}</code>" " {text}</li>
            }
        })
        .collect_view()
}
