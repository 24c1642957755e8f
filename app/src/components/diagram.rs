//! The SVG pieces of a diagram laid out by `benchdeck_core::decision::tree::layout`, shared by
//! the wizard's question tree and a report's flowcharts: an arrow with its label, a box with its
//! text. Every text is a text node: diagrams come from report files.

use benchdeck_core::decision::tree::layout::{DiagramEdge, Rect, TextLine};
use leptos::prelude::*;

/// An arrow: its line, its head and, when it has one, its label in a box.
pub(super) fn arrow_parts(edge: &DiagramEdge, label_size: &str) -> impl IntoView {
    let labelled = edge.label.iter().any(|line| !line.text.is_empty());
    let frame = edge.label_frame;
    let label_size = label_size.to_string();
    view! {
        <path class="line" d=edge.svg_path()/>
        <path class="arrowhead" d=edge.arrowhead()/>
        {labelled.then(|| view! {
            <g class="answer">
                <rect x=frame.x.to_string() y=frame.y.to_string() width=frame.width.to_string()
                    height=frame.height.to_string() rx="4"/>
                <text font-size=label_size text-anchor="middle">{lines(&edge.label)}</text>
            </g>
        })}
    }
}

/// A box with rounded corners (`radius`) and its wrapped text.
pub(super) fn box_parts(
    frame: Rect,
    radius: &'static str,
    text: &[TextLine],
    text_size: &str,
) -> impl IntoView {
    view! {
        <rect x=frame.x.to_string() y=frame.y.to_string() width=frame.width.to_string()
            height=frame.height.to_string() rx=radius/>
        <text font-size=text_size.to_string() text-anchor="middle">{lines(text)}</text>
    }
}

/// Wrapped lines as `<tspan>`s, each at its own position.
fn lines(lines: &[TextLine]) -> impl IntoView {
    lines
        .iter()
        .map(|line| {
            view! { <tspan x=line.x.to_string() y=line.baseline.to_string()>{line.text.clone()}</tspan> }
        })
        .collect_view()
}
