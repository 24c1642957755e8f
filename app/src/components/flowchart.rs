//! A report's ```` ```flowchart ```` block as SVG: laid out by
//! `benchdeck_core::decision::tree::layout`, the engine that draws the wizard's question tree,
//! and drawn with its look (`.tree-diagram` in the stylesheet). Nothing in it is interactive,
//! so the page rendered at build time already shows it whole. Every text is a text node: the
//! diagram comes from a report file.

use benchdeck_core::decision::tree::layout::{lay_out, Style};
use benchdeck_core::site::Flowchart;
use leptos::prelude::*;

use super::wizard::lines;

/// The diagram with its caption.
#[component]
pub fn FlowchartView(flowchart: Flowchart) -> impl IntoView {
    let Flowchart {
        tree,
        ends,
        caption,
        description,
    } = flowchart;
    let text_of = |id: &str| {
        ends.iter()
            .find(|(end, _)| end == id)
            .map_or_else(|| id.to_string(), |(_, text)| text.clone())
    };
    let style = Style {
        line_breaks: true,
        ..Style::default()
    };
    let diagram = lay_out(&tree, text_of, &style);
    let text_size = diagram.text_size.to_string();
    let label_size = diagram.label_size.to_string();
    let edges = diagram
        .edges
        .iter()
        .map(|edge| {
            let frame = edge.label_frame;
            let labelled = edge.label.iter().any(|l| !l.text.is_empty());
            view! {
                <g class="edge">
                    <path class="line" d=edge.svg_path()/>
                    <path class="arrowhead" d=edge.arrowhead()/>
                    {labelled.then(|| view! {
                        <g class="answer">
                            <rect x=frame.x.to_string() y=frame.y.to_string() width=frame.width.to_string()
                                height=frame.height.to_string() rx="4"/>
                            <text font-size=label_size.clone() text-anchor="middle">{lines(&edge.label)}</text>
                        </g>
                    })}
                </g>
            }
        })
        .collect_view();
    let nodes = diagram
        .nodes
        .iter()
        .map(|node| {
            let frame = node.frame;
            view! {
                <g class="node">
                    <rect x=frame.x.to_string() y=frame.y.to_string() width=frame.width.to_string()
                        height=frame.height.to_string() rx="6"/>
                    <text font-size=text_size.clone() text-anchor="middle">{lines(&node.lines)}</text>
                </g>
            }
        })
        .collect_view();
    let (width, height) = (diagram.width, diagram.height);
    view! {
        <figure class="tree-diagram flowchart">
            <div class="tree-scroll">
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
