//! The wizard's question tree drawn as a flowchart, the path taken highlighted.

use benchdeck_core::decision::tree::layout::{Diagram, PathTaken, Shape};
use leptos::prelude::*;

use crate::components::diagram::{arrow_parts, box_parts};
use crate::components::handler;
use crate::state::effect::effect;

/// The question tree as a flowchart laid out by `benchdeck_core::decision::tree::layout`: the
/// answers given and the nodes they led through are highlighted, the node reached carries
/// `aria-current`, and clicking an earlier question on the path goes back to it (the Back
/// button does the same from the keyboard). Every text is a text node: trees come from
/// report files.
#[component]
pub fn TreeDiagram(
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
            <div class="tree-scroll" tabindex="0" node_ref=scroller>
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
