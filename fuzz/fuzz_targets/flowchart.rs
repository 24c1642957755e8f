#![no_main]
//! Fuzzes ```` ```flowchart ```` blocks (mermaid's arrow syntax) and their layout (the build's,
//! which the page carries), alone: no result files, so each input costs only the parse and the
//! layout.

use benchdeck_core::report::{build_report, Palette};
use benchdeck_core::site::Block;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(body) = std::str::from_utf8(data) else {
        return;
    };
    let text = format!("---\ntitle: F\n---\n\n```flowchart\n{body}\n```\n");
    let page = build_report("reports/f.md", "f", &text, &[], &Palette::new());
    for block in &page.blocks {
        if let Block::Flowchart { flowchart } = block {
            let diagram = &flowchart.diagram;
            assert!(diagram.width.is_finite() && diagram.height.is_finite());
            for node in &diagram.nodes {
                assert!(node.frame.x.is_finite() && node.frame.y.is_finite());
            }
            benchdeck_fuzz::site::round_trip(flowchart);
        }
    }
});
