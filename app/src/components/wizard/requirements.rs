//! The wizard's requirements form: the reader's load, SLAs and weights, and the ranking that
//! `benchdeck_core::decision` gives for them.

use benchdeck_core::decision::{decide, Bound, Decision, Question};
use benchdeck_core::format;
use benchdeck_core::site::DecisionData;
use leptos::prelude::*;

use crate::browser::number::parse_f64;
use crate::components::handler;

/// The reader's SLAs, load and weights, and the ranking they give.
#[component]
pub fn Requirements(
    data: DecisionData,
    load: RwSignal<f64>,
    limits: RwSignal<Vec<f64>>,
    weights: RwSignal<Vec<f64>>,
) -> impl IntoView {
    let data = StoredValue::new(data);
    // Costs at the reader's prices (`prices.rs`).
    let prices = crate::components::Prices::of_page();
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
            <div class="table-scroll" tabindex="0"><table class="ranking">
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
pub fn limit(bound: Bound) -> f64 {
    match bound {
        Bound::AtMost(v) | Bound::AtLeast(v) => v,
    }
}
