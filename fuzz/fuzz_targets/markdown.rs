#![no_main]
//! Fuzzes a report's Markdown (`markdown::render_with`): directive blocks split out, headings
//! numbered, inline values handed to the callback, the rest sanitised. No script survives.

use benchdeck_core::markdown::{self, RenderOptions, Segment};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for number_sections in [false, true] {
        let options = RenderOptions { number_sections };
        let rendered = markdown::render_with(text, 5, options, &mut |value, line| {
            assert!(line >= 5, "an inline value before the first line");
            format!("<code>{}</code>", value.len())
        });
        for segment in &rendered.segments {
            match segment {
                Segment::Html(html) => benchdeck_fuzz::site::check_html(html),
                Segment::Directive { line, .. } => assert!(*line >= 5),
            }
        }
    }
    let _ = markdown::plain_text(text);
});
