//! The decision wizard of a report (its `decision:` front matter): guided questions leading to a
//! recommendation, or the reader's own SLAs and weights ranked by `benchdeck_core::decision`.
//!
//! The state lives in the URL query (`?answers=1.0`, `?load=5&limits=99,2000&weights=1,2`), so a
//! recommendation can be shared as a link; it is written with `history.replaceState`, which
//! keeps the page and its charts where they are.

use crate::browser::number::parse_f64;
use crate::state::effect::effect;
use benchdeck_core::decision::tree::layout::{describe_path, Diagram, PathTaken, Shape};
use benchdeck_core::decision::tree::{Node, Tree, Walk};
use benchdeck_core::decision::{decide, Bound, Decision, Question};
use benchdeck_core::format;
use benchdeck_core::site::DecisionData;
use leptos::either::EitherOf3;
use leptos::prelude::*;

use crate::components::handler;

use super::diagram::{arrow_parts, box_parts};

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

/// One question at a time, with back and restart, the answers so far, the recommendation, and
/// the whole tree drawn as a flowchart with the path taken highlighted (its outline as text
/// below).
#[component]
fn Guided(
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

/// The question tree as a flowchart laid out by `benchdeck_core::decision::tree::layout`: the
/// answers given and the nodes they led through are highlighted, the node reached carries
/// `aria-current`, and clicking an earlier question on the path goes back to it (the Back
/// button does the same from the keyboard). Every text is a text node: trees come from
/// report files.
#[component]
fn TreeDiagram(
    diagram: Diagram,
    path: Memo<Option<PathTaken>>,
    description: Signal<String>,
    answers: RwSignal<Vec<usize>>,
) -> impl IntoView {
    let text_size = diagram.text_size.to_string();
    let label_size = diagram.label_size.to_string();
    let edges = diagram
        .edges
        .iter()
        .map(|edge| {
            let (from, answer) = (edge.from.clone(), edge.answer);
            let taken = move || path.with(|p| p.as_ref().is_some_and(|p| p.has_edge(&from, answer)));
            view! {
                <g class="edge" class:on-path=taken data-edge=format!("{}#{}", edge.from, edge.answer)>
                    {arrow_parts(edge, &label_size)}
                </g>
            }
        })
        .collect_view();
    let nodes = diagram
        .nodes
        .iter()
        .map(|node| {
            // Stored, so the closures below are `Copy` and each attribute can have its own.
            let id = StoredValue::new(node.id.clone());
            let on_path = move || {
                path.with(|p| p.as_ref().is_some_and(|p| id.with_value(|id| p.has_node(id))))
            };
            let is_current = move || {
                path.with(|p| p.as_ref().is_some_and(|p| id.with_value(|id| p.current() == id)))
            };
            // How many answers to keep to come back here: only for a question already passed.
            let back_to = move || {
                path.with(|p| p.as_ref().and_then(|p| id.with_value(|id| p.answers_before(id))))
                    .filter(|&kept| kept < answers.with(Vec::len))
            };
            let (shape, radius) = match node.shape {
                Shape::Question => ("node kind-question", "4"),
                Shape::Recommendation => ("node kind-recommendation", "14"),
            };
            let frame = node.frame;
            view! {
                <g class=shape class:on-path=on_path class:current=is_current class:back=move || back_to().is_some()
                    data-node=node.id.clone() aria-current=move || is_current().then_some("step")
                    on:click=handler(move |_| {
                        if let Some(kept) = back_to() {
                            answers.update(|a| a.truncate(kept));
                        }
                    })>
                    {box_parts(frame, radius, &node.lines, &text_size)}
                </g>
            }
        })
        .collect_view();
    let (width, height) = (diagram.width, diagram.height);
    // When the drawing scrolls inside its box (a narrow screen), keep the node reached in view.
    let scroller = NodeRef::<leptos::html::Div>::new();
    let across: Vec<(String, f64)> = diagram
        .nodes
        .iter()
        .map(|n| (n.id.clone(), n.frame.centre_x() / width))
        .collect();
    effect(move || {
        let fraction = path.with(|p| {
            let current = p.as_ref()?.current();
            across.iter().find(|(id, _)| id == current).map(|(_, f)| *f)
        });
        let (Some(fraction), Some(scroller)) = (fraction, scroller.get()) else {
            return;
        };
        let hidden = scroller.scroll_width() - scroller.client_width();
        if hidden > 0 {
            let left = fraction * f64::from(scroller.scroll_width())
                - f64::from(scroller.client_width()) / 2.0;
            scroller.set_scroll_left(left.round().clamp(0.0, f64::from(hidden)) as i32);
        }
    });
    // As wide as the column allows, never wider than drawn; below 80 % the box scrolls
    // sideways instead of shrinking the text further (14 px text stays above 11 px).
    let (max_width, min_width) = (format!("{width}px"), format!("{}px", (width * 0.8).round()));
    view! {
        <figure class="tree-diagram">
            <div class="tree-scroll" node_ref=scroller>
                <svg viewBox=format!("0 0 {width} {height}") width=width.to_string() height=height.to_string()
                    style:max-width=max_width style:min-width=min_width role="img" aria-label=move || description.get()>
                    <g class="edges">{edges}</g>
                    <g class="nodes">{nodes}</g>
                </svg>
            </div>
            <figcaption>
                "The path taken is highlighted, ending at the node reached. "
                "Click a question on it to go back there."
            </figcaption>
        </figure>
    }
}

/// The reader's SLAs, load and weights, and the ranking they give.
#[component]
fn Requirements(
    data: DecisionData,
    load: RwSignal<f64>,
    limits: RwSignal<Vec<f64>>,
    weights: RwSignal<Vec<f64>>,
) -> impl IntoView {
    let data = StoredValue::new(data);
    // Costs at the reader's prices (`prices.rs`).
    let prices = super::Prices::of_page();
    let decision = Memo::new(move |_| {
        let (load, limits, weights) = (load.get(), limits.get(), weights.get());
        let repricing = prices.map(|p| p.repricing());
        data.with_value(|d| {
            let mut question = Question {
                load,
                constraints: d.constraints.clone(),
                required: Vec::new(),
                criteria: d.criteria.clone(),
            };
            for (c, l) in question.constraints.iter_mut().zip(&limits) {
                c.bound = match c.bound {
                    Bound::AtMost(_) => Bound::AtMost(*l),
                    Bound::AtLeast(_) => Bound::AtLeast(*l),
                };
            }
            for (c, w) in question.criteria.iter_mut().zip(&weights) {
                c.weight = *w;
            }
            match repricing.filter(|r| !r.is_identity()) {
                Some(r) => decide(&r.candidates(&d.candidates), &question),
                None => decide(&d.candidates, &question),
            }
        })
    });
    let live = crate::state::live::running();
    let sla_inputs = data.with_value(|d| {
        d.constraints
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let (word, unit) = match c.bound {
                    Bound::AtMost(_) => ("at most", c.quantity.unit()),
                    Bound::AtLeast(_) => ("at least", c.quantity.unit()),
                };
                let name = format!("{} {word} ({unit})", c.quantity);
                view! {
                    <label>{name}" "
                        <input type="number" min="0" step="any" class="sla-limit"
                            value=limits.get_untracked().get(i).copied().unwrap_or_default()
                            prop:value=move || limits.get().get(i).copied().unwrap_or_default()
                            on:change=handler(move |ev| set_at(limits, i, &event_target_value(&ev)))/>
                    </label>
                }
            })
            .collect_view()
    });
    let weight_inputs = data.with_value(|d| {
        d.criteria
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let name = c.kind.name();
                view! {
                    <label>{name.clone()}" "
                        <input type="range" min="0" max="5" step="0.5" class="weight" aria-label=format!("Weight of {name}")
                            value=weights.get_untracked().get(i).copied().unwrap_or_default()
                            prop:value=move || weights.get().get(i).copied().unwrap_or_default()
                            on:input=handler(move |ev| set_at(weights, i, &event_target_value(&ev)))/>
                        <output>{move || format::number(weights.get().get(i).copied().unwrap_or_default())}</output>
                    </label>
                }
            })
            .collect_view()
    });
    view! {
        <div class="requirements">
            <h3>"By requirements"</h3>
            <form class="wizard-form" on:submit=handler(|ev: leptos::ev::SubmitEvent| ev.prevent_default())>
                // The build's page shows the published requirements; they can be changed once
                // the app runs.
                <fieldset disabled=move || !live.get()><legend>"Hard limits (SLAs)"</legend>
                    <label>"At load "
                        <input type="number" min="0" step="any" class="load"
                            value=load.get_untracked()
                            prop:value=move || load.get()
                            on:change=handler(move |ev| {
                                if let Some(v) = parse_input(&event_target_value(&ev)) {
                                    load.set(v);
                                }
                            })/>
                    </label>
                    {sla_inputs}
                </fieldset>
                <fieldset disabled=move || !live.get()><legend>"What matters (weights)"</legend>{weight_inputs}</fieldset>
            </form>
            {move || view! { <Outcome decision=decision.get()/> }}
        </div>
    }
}

/// The verdict, the ranking with per-criterion values, the rejected setups and the weight ranges.
#[component]
fn Outcome(decision: Decision) -> impl IntoView {
    let criteria: Vec<String> = decision
        .ranked
        .first()
        .map(|r| r.scores.iter().map(|s| s.criterion.clone()).collect())
        .unwrap_or_default();
    view! {
        <p class="verdict" role="status">{decision.verdict.clone()}</p>
        {(!decision.ranked.is_empty()).then(|| view! {
            <div class="table-scroll"><table class="ranking">
                <thead><tr><th scope="col">"#"</th><th scope="col">"Setup"</th><th scope="col">"Score"</th>
                    {criteria.iter().map(|c| view! { <th scope="col">{c.clone()}</th> }).collect_view()}
                </tr></thead>
                <tbody>{decision.ranked.iter().enumerate().map(|(i, r)| view! {
                    <tr><td>{i + 1}</td><th scope="row">{r.label.clone()}</th><td>{format!("{:.2}", r.score)}</td>
                        {r.scores.iter().map(|s| view! { <td>{s.shown.clone()}</td> }).collect_view()}
                    </tr>
                }).collect_view()}</tbody>
            </table></div>
        })}
        {(!decision.rejected.is_empty()).then(|| view! {
            <h4>"Ruled out"</h4>
            <ul class="rejected">{decision.rejected.iter().map(|r| view! {
                <li><strong>{r.label.clone()}</strong>": " {r.reasons.join("; ")}</li>
            }).collect_view()}</ul>
        })}
        {(!decision.sensitivity.is_empty()).then(|| view! {
            <h4>"How firm is this?"</h4>
            <ul class="sensitivity">{decision.sensitivity.iter().map(|s| view! {
                <li>{format!(
                    "{} (weight {}): the winner holds from {} to {}",
                    s.criterion,
                    format::number(s.weight),
                    format::number(s.min),
                    s.max.map_or_else(|| "any weight".to_string(), format::number)
                )}</li>
            }).collect_view()}</ul>
        })}
    }
}

/// A number typed into an input; `None` for anything else (the field keeps its old value).
fn parse_input(text: &str) -> Option<f64> {
    parse_f64(text.trim()).filter(|v| v.is_finite() && *v >= 0.0)
}

/// Sets entry `i` of `values` from an input's text.
fn set_at(values: RwSignal<Vec<f64>>, i: usize, text: &str) {
    if let Some(v) = parse_input(text) {
        values.update(|list| {
            if let Some(x) = list.get_mut(i) {
                *x = v;
            }
        });
    }
}

/// The limit of a bound.
fn limit(bound: Bound) -> f64 {
    match bound {
        Bound::AtMost(v) | Bound::AtLeast(v) => v,
    }
}

fn join(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The page's query string (none when the browser gives none).
struct Query(Option<web_sys::UrlSearchParams>);

impl Query {
    /// The page's query; none at build time.
    fn read() -> Query {
        let search = crate::browser::window().and_then(|w| w.location().search().ok());
        Query(search.and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok()))
    }

    fn get(&self, key: &str) -> Option<String> {
        self.0.as_ref()?.get(key)
    }

    fn number(&self, key: &str) -> Option<f64> {
        parse_f64(&self.get(key)?).filter(|v| v.is_finite())
    }

    /// A comma-separated list of numbers; `None` when absent or unreadable.
    fn list(&self, key: &str) -> Option<Vec<f64>> {
        let text = self.get(key)?;
        if text.is_empty() {
            return Some(Vec::new());
        }
        text.split(',')
            .map(|x| parse_f64(x).filter(|v| v.is_finite()))
            .collect()
    }

    /// Sets the wizard's keys (an empty value removes one); the charts' keys, the path and the
    /// hash stay.
    fn write(pairs: &[(&str, String)]) {
        crate::state::query::set(pairs);
    }
}
