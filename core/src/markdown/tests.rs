use super::*;

fn html_of(r: &Rendered) -> String {
    r.segments
        .iter()
        .map(|s| match s {
            Segment::Html(h) => h.clone(),
            Segment::Directive { name, line, .. } => format!("[{name}@{line}]\n"),
        })
        .collect()
}

#[test]
fn document_features_render() {
    let src = "# Title\n\nSome *text* with a footnote[^1].\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n\
               > [!WARNING]\n> Careful.\n\n## Title\n\n- [x] done\n\n```rust\nlet x = 1;\n```\n\n[^1]: The note.\n";
    let r = render(src, 1);
    assert_eq!(
        r.headings.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(),
        vec!["title", "title-1"]
    );
    insta::assert_snapshot!("document_features", html_of(&r));
}

#[test]
fn directives_split_the_document_and_keep_their_line() {
    let src = "Intro.\n\n```chart\nmetric: ttft\n```\n\nOutro.\n";
    let r = render(src, 10);
    assert_eq!(r.segments.len(), 3);
    assert_eq!(
        r.segments[1],
        Segment::Directive {
            name: "chart".into(),
            body: "metric: ttft\n".into(),
            line: 13
        }
    );
}

#[test]
fn nothing_from_a_report_can_run() {
    let payloads = [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "[click](javascript:alert(1))",
        "<a href=\"javascript:alert(1)\">x</a>",
        "![x](javascript:alert(1))",
        "<iframe src=\"https://evil.example\"></iframe>",
        "<svg><script>alert(1)</script></svg>",
        "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
        "<div style=\"background:url(javascript:alert(1))\">x</div>",
        "# Heading {#x onclick=alert(1)}",
    ];
    for payload in payloads {
        let html = html_of(&render(payload, 1));
        let lower = markup_only(&html).to_ascii_lowercase();
        for forbidden in [
            "<script",
            "onerror=",
            "onclick=",
            "javascript:",
            "<iframe",
            "data:text",
            "style=",
        ] {
            assert!(!lower.contains(forbidden), "{payload:?} gave {html:?}");
        }
    }
    // Raw HTML is shown as text, so the reader sees what was written.
    let html = html_of(&render("<b>bold?</b>", 1));
    assert!(html.contains("&lt;b&gt;bold?&lt;/b&gt;"), "{html}");
}

#[test]
fn html_comments_are_the_authors_notes_and_left_out() {
    let text = "Before <!-- inline note --> after.\n\n<!-- a block note\nover two lines -->\n\n\
                <!-- x --><b>shown</b>\n\nEnd.";
    let html = html_of(&render(text, 1));
    assert!(!html.contains("note"), "{html}");
    assert!(!html.contains("lines"), "{html}");
    assert!(html.contains("Before"), "{html}");
    assert!(html.contains(" after."), "{html}");
    assert!(
        html.contains("&lt;b&gt;shown&lt;/b&gt;"),
        "other raw HTML is still shown: {html}"
    );
    assert!(html.contains("End."), "{html}");
    // A comment never closed would hide the rest of the report: it is shown instead.
    let html = html_of(&render("<!-- open\n\nStill here.", 1));
    assert!(html.contains("&lt;!-- open"), "{html}");
    assert!(html.contains("Still here."), "{html}");
}

/// The tags of `html`, without the text between them (escaped text cannot run).
fn markup_only(html: &str) -> String {
    html.split('<')
        .skip(1)
        .filter_map(|part| part.split_once('>').map(|(tag, _)| format!("<{tag}>")))
        .collect()
}

#[test]
fn slugs() {
    assert_eq!(slug("Head-to-Head Comparison!"), "head-to-head-comparison");
    assert_eq!(slug("TTFT p50 (ms)"), "ttft-p50-ms");
    assert_eq!(slug("???"), "section");
}

#[test]
fn plain_text_drops_markup_and_keeps_words() {
    assert_eq!(
        plain_text("Driven by `vllm bench serve` at **1** to _35_ req/s.\nTwo  lines."),
        "Driven by vllm bench serve at 1 to 35 req/s. Two lines."
    );
    assert_eq!(
        plain_text("ok <b>bold</b> <script>x()</script>done"),
        "ok bold x()done"
    );
}

#[test]
fn nesting_deeper_than_the_limit_is_flattened_with_a_warning_at_its_line() {
    // 100,000 `>` once took the sanitiser about a minute (its work grows with the square of the
    // depth; timed now in `core/benches/inputs.rs`); the quotes stop at the limit and the text
    // is kept.
    let text = format!("Intro.\n\n{} deep\n", ">".repeat(100_000));
    let rendered = render(&text, 3);
    let Segment::Html(html) = &rendered.segments[0] else {
        panic!("{:?}", rendered.segments);
    };
    assert_eq!(html.matches("<blockquote>").count(), MAX_NESTING);
    assert!(html.contains("deep"), "the text is kept");
    assert_eq!(rendered.problems.len(), 1);
    let (line, message) = &rendered.problems[0];
    assert_eq!(*line, 5);
    assert!(
        message.contains(&format!("the limit is {MAX_NESTING}")),
        "{message}"
    );
    // Lists nested on one line (`- - - x`) too.
    let rendered = render(&format!("{}x", "- + ".repeat(2_500)), 1);
    assert_eq!(rendered.problems.len(), 1);
    // Within the limit, nothing changes.
    let rendered = render(&format!("{} fine\n", ">".repeat(10)), 1);
    assert!(rendered.problems.is_empty());
}
