//! Tiles: computed like inline values, escaped, each failing alone.

use crate::import::import;
use crate::report::{build_report, Palette};
use crate::site::ReportPage;

const DATA: &str = "\
# benchdeck: load=rate:qps, config=engine, ttft.p50=ttft (ms), output_tok_s=tok_s
qps,engine,ttft,tok_s
1,vllm,45.04,100
4,vllm,80,300
";

fn page(body: &str) -> ReportPage {
    let results = vec![import("sweep.csv", DATA.as_bytes())];
    let text = format!("---\ntitle: T\nresults: [sweep.csv]\n---\n\n```tiles\n{body}\n```\n");
    build_report("reports/r.md", "r", &text, &results, &Palette::new())
}

fn messages(page: &ReportPage) -> Vec<String> {
    page.problems.iter().map(|p| p.to_string()).collect()
}

#[test]
fn tiles_show_computed_values_with_their_units_and_sources() {
    let p = page(
        "- label: Median TTFT <at 1 req/s>\n  value: value(ttft:p50, vllm, 1)\n  note: the typical request\n\
         - label: Peak output\n  value: max(output_throughput, vllm)",
    );
    assert_eq!(messages(&p), Vec::<String>::new());
    let html = p.prose_html();
    assert!(html.starts_with("<div class=\"tiles\">"), "{html}");
    assert!(
        html.contains("<span class=\"tile-value\">45.04 <span class=\"tile-unit\">ms</span></span><span class=\"tile-label\">Median TTFT &lt;at 1 req/s&gt;</span><span class=\"tile-note\">the typical request</span>"),
        "{html}"
    );
    assert!(
        html.contains(
            "<span class=\"tile-value\">300 <span class=\"tile-unit\">tok/s</span></span>"
        ),
        "{html}"
    );
    assert!(
        html.contains("title=\"") && html.contains("sweep.csv"),
        "{html}"
    );
}

#[test]
fn a_tile_that_cannot_be_computed_is_an_error_and_the_others_still_show() {
    let p = page(
        "- label: Missing\n  value: value(ttft:p50, sglang, 1)\n- label: Fine\n  value: min(ttft:p50, vllm)",
    );
    let m = messages(&p);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(
        m[0].contains("reports/r.md:7") && m[0].contains("tile `Missing`"),
        "{}",
        m[0]
    );
    assert!(p
        .prose_html()
        .contains("45.04 <span class=\"tile-unit\">ms</span>"));

    let p = page("- label: Checked\n  value: claim(45 ms, value(ttft:p50, vllm, 1))");
    assert!(
        messages(&p)[0].contains("give the expression alone"),
        "{:?}",
        messages(&p)
    );
    assert!(
        !p.prose_html().contains("class=\"tiles\""),
        "no block when no tile could be shown"
    );

    let p = page("label: not a list");
    assert!(
        messages(&p)[0].contains("expected a list of tiles"),
        "{:?}",
        messages(&p)
    );
}
