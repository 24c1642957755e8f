//! A report's ```` ```flowchart ```` block as SVG: laid out by the build with
//! `benchdeck_core::decision::tree::layout`, the engine that draws the wizard's question tree,
//! and drawn here with its look (`.tree-diagram` in the stylesheet). Nothing in it is interactive,
//! so the page rendered at build time already shows it whole. Every text is a text node: the
//! diagram comes from a report file.

use benchdeck_core::site::Flowchart;
use leptos::prelude::*;

use super::diagram::{arrow_parts, box_parts};

/// The diagram with its caption.
#[component]
pub fn FlowchartView(flowchart: Flowchart) -> impl IntoView {
    let Flowchart {
        caption,
        description,
        diagram,
        ..
    } = flowchart;
    let text_size = diagram.text_size.to_string();
    let label_size = diagram.label_size.to_string();
    let edges = diagram
        .edges
        .iter()
        .map(|edge| view! { <g class="edge">{arrow_parts(edge, &label_size)}</g> })
        .collect_view();
    let nodes = diagram
        .nodes
        .iter()
        .map(|node| view! { <g class="node">{box_parts(node.frame, "6", &node.lines, &text_size)}</g> })
        .collect_view();
    let (width, height) = (diagram.width, diagram.height);
    view! {
        <figure class="tree-diagram flowchart">
            <div class="tree-scroll" tabindex="0">
                <svg viewBox=format!("0 0 {width} {height}") width=width.to_string() height=height.to_string()
                    style:max-width=format!("{width}px") role="img" aria-label=description>
                    <g class="edges">{edges}</g>
                    <g class="nodes">{nodes}</g>
                </svg>
            </div>
            {(!caption.is_empty()).then(|| view! { <figcaption>{caption}</figcaption> })}
        </figure>
    }
}
