//! Markdown to safe HTML, split around directive blocks.
//!
//! A report is CommonMark with GitHub extensions (tables, footnotes, strikethrough, task lists,
//! `> [!NOTE]`-style alerts). Fenced code blocks whose info string names a directive (`chart`)
//! are not rendered as code: they become [`Segment::Directive`]s that the report builder turns
//! into charts. Everything else becomes [`Segment::Html`].
//!
//! Reports are untrusted. Raw HTML in the Markdown is shown as text, never passed through (HTML
//! comments, the author's notes, are left out; one never closed is shown), and
//! the rendered HTML is cleaned by `ammonia` (no scripts, event handlers or `javascript:` URLs).

use std::collections::HashMap;

use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// Fenced-block info strings that are directives rather than code.
pub const DIRECTIVES: &[&str] = &["chart", "table", "tiles", "flowchart"];

/// Inline code starting with this is an inline value (`` `=value(ttft:p50, vllm, 10)` ``).
pub const INLINE_VALUE: char = '=';

/// A piece of a rendered document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// Sanitised HTML.
    Html(String),
    /// A directive block: its name, its body and the 1-based line of its first body line.
    Directive {
        /// The info string, e.g. `chart`.
        name: String,
        /// The block's text.
        body: String,
        /// Line of the body's first line in the source.
        line: usize,
    },
}

/// A heading, for the table of contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    /// 1 to 6.
    pub level: u8,
    /// Its text.
    pub text: String,
    /// Its anchor id.
    pub id: String,
}

/// A rendered document.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Rendered {
    /// The document in order.
    pub segments: Vec<Segment>,
    /// Its headings.
    pub headings: Vec<Heading>,
    /// What was changed to render it, by line: nesting deeper than [`MAX_NESTING`].
    pub problems: Vec<(usize, String)>,
}

/// Deepest nesting of elements rendered (quotes in quotes, lists in lists…): the sanitiser's work
/// grows with the square of the depth, and `>` a hundred thousand times is 100 KB of text.
/// Deeper elements are left out, their text kept.
pub const MAX_NESTING: usize = 50;

fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_GFM
        | Options::ENABLE_HEADING_ATTRIBUTES
}

/// The text of inline Markdown without its markup (`` `vllm bench serve` `` → `vllm bench
/// serve`), for places that show plain text: the home page, `<title>` and link previews.
pub fn plain_text(source: &str) -> String {
    let mut out = String::new();
    for event in Parser::new_ext(source, options()) {
        match event {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            Event::End(TagEnd::Paragraph) if !out.is_empty() => out.push(' '),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// How a document is rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RenderOptions {
    /// Number `##` headings `1`, `2`… and deeper ones `1.1`, `1.1.1` (a `#` heading is a title
    /// and is not numbered).
    pub number_sections: bool,
}

/// Renders `source`, with inline values shown as code. `first_line` is the line number of the
/// source's first line in its file (so directive lines are reported in file terms when front
/// matter was cut off).
pub fn render(source: &str, first_line: usize) -> Rendered {
    render_with(
        source,
        first_line,
        RenderOptions::default(),
        &mut |text, _| format!("<code>{}</code>", crate::html::escape(text)),
    )
}

/// Renders `source`; each inline value (`` `=…` ``) becomes the HTML `inline` returns for its
/// text (without the `=`) and line. That HTML is sanitised with the rest.
pub fn render_with(
    source: &str,
    first_line: usize,
    render: RenderOptions,
    inline: &mut dyn FnMut(&str, usize) -> String,
) -> Rendered {
    // Section counters for levels 2 to 6.
    let mut sections = [0usize; 5];
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(source.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_of = |offset: usize| match line_starts.binary_search(&offset) {
        Ok(i) => i + first_line,
        Err(i) => i - 1 + first_line,
    };

    let (events, too_deep) = within_nesting(Parser::new_ext(source, options()).into_offset_iter());
    let mut out = Rendered::default();
    if let Some((offset, depth)) = too_deep {
        out.problems.push((
            line_of(offset),
            format!(
                "elements nest {depth} deep here (quotes in quotes, lists in lists); the limit is \
                 {MAX_NESTING}, so the deeper ones are left out and their text shown at that depth"
            ),
        ));
    }
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut pending: Vec<Event<'_>> = Vec::new();
    let mut i = 0;
    let mut comment = OpenComment::default();
    while i < events.len() {
        let (event, range) = &events[i];
        match event {
            Event::Start(Tag::CodeBlock(pulldown_cmark::CodeBlockKind::Fenced(info)))
                if DIRECTIVES.contains(&info.split_whitespace().next().unwrap_or("")) =>
            {
                let name = info.split_whitespace().next().unwrap_or("").to_string();
                let body = directive_body(&events, &mut i);
                flush(&mut pending, &mut out.segments);
                out.segments.push(Segment::Directive {
                    name,
                    body,
                    line: line_of(range.start) + 1,
                });
            }
            Event::Start(Tag::Heading {
                level,
                id,
                classes,
                attrs,
            }) => {
                let text = heading_text(&events[i + 1..]);
                let numbered = render.number_sections.then_some(&mut sections);
                let (heading, number) =
                    heading_entry(*level, id.as_deref(), text, &mut ids, numbered);
                pending.push(Event::Start(Tag::Heading {
                    level: *level,
                    id: Some(CowStr::from(heading.id.clone())),
                    classes: classes.clone(),
                    attrs: attrs.clone(),
                }));
                if let Some(n) = number {
                    pending.push(Event::Text(CowStr::from(format!("{n} "))));
                }
                out.headings.push(heading);
            }
            Event::Code(code) if code.starts_with(INLINE_VALUE) => {
                let html = inline(&code[INLINE_VALUE.len_utf8()..], line_of(range.start));
                pending.push(Event::InlineHtml(CowStr::from(html)));
            }
            // Raw HTML from an untrusted report is shown, not executed; HTML comments are the
            // author's notes and are left out.
            Event::Html(html) | Event::InlineHtml(html) => {
                let shown = without_comments(html, &mut comment);
                if !shown.trim().is_empty() {
                    pending.push(Event::Text(CowStr::from(shown)));
                }
            }
            other => pending.push(other.clone()),
        }
        i += 1;
    }
    if comment.open {
        pending.push(Event::Text(CowStr::from(std::mem::take(&mut comment.text))));
    }
    flush(&mut pending, &mut out.segments);
    out
}

/// The text of the directive block whose opening fence is `events[*i]`, up to its closing
/// fence, where `*i` is left.
fn directive_body(events: &[Located<'_>], i: &mut usize) -> String {
    let mut body = String::new();
    *i += 1;
    while *i < events.len() {
        match &events[*i].0 {
            Event::End(TagEnd::CodeBlock) => break,
            Event::Text(t) => body.push_str(t),
            _ => {}
        }
        *i += 1;
    }
    body
}

/// A heading's entry in the table of contents, and its section number: its id (its own or its
/// text's slug) made unique among `ids`, and a number before its text when `sections` counts
/// them (from level 2 down).
fn heading_entry(
    level: HeadingLevel,
    id: Option<&str>,
    text: String,
    ids: &mut HashMap<String, usize>,
    sections: Option<&mut [usize; 5]>,
) -> (Heading, Option<String>) {
    let base = match id {
        Some(id) => slug(id),
        None => slug(&text),
    };
    let unique = unique_id(ids, base);
    let depth = heading_level(level);
    let number = sections
        .filter(|_| depth >= 2)
        .map(|sections| section_number(sections, usize::from(depth)));
    let heading = Heading {
        level: depth,
        text: match &number {
            Some(n) => format!("{n} {text}"),
            None => text,
        },
        id: unique,
    };
    (heading, number)
}

/// An event and the bytes of the source it came from.
type Located<'a> = (Event<'a>, std::ops::Range<usize>);

/// The events of a document with elements nested deeper than [`MAX_NESTING`] left out (their
/// start and end; what they hold stays), and where the deepest nesting started and how deep it
/// went, when it was over the limit.
fn within_nesting<'a>(
    events: impl Iterator<Item = Located<'a>>,
) -> (Vec<Located<'a>>, Option<(usize, usize)>) {
    let mut kept = Vec::new();
    // Whether each open element was kept.
    let mut open: Vec<bool> = Vec::new();
    let mut deepest: Option<(usize, usize)> = None;
    for (event, range) in events {
        match &event {
            Event::Start(_) => {
                let keep = open.len() < MAX_NESTING;
                open.push(keep);
                if !keep && deepest.is_none_or(|(_, depth)| open.len() > depth) {
                    deepest = Some((deepest.map_or(range.start, |(at, _)| at), open.len()));
                }
                if keep {
                    kept.push((event, range));
                }
            }
            Event::End(_) => {
                if open.pop().unwrap_or(true) {
                    kept.push((event, range));
                }
            }
            _ => kept.push((event, range)),
        }
    }
    (kept, deepest)
}

/// An HTML comment being read: raw HTML arrives line by line, so a comment over several lines
/// spans several pieces. What it held is kept until it closes, so that a comment never closed
/// (which would hide the rest of the report) is shown instead of silently dropped.
#[derive(Default)]
struct OpenComment {
    open: bool,
    text: String,
}

/// `html` without the parts inside `<!-- … -->`.
fn without_comments(html: &str, comment: &mut OpenComment) -> String {
    let mut shown = String::new();
    let mut rest = html;
    loop {
        if comment.open {
            match rest.find("-->") {
                Some(end) => {
                    rest = &rest[end + 3..];
                    *comment = OpenComment::default();
                }
                None => {
                    comment.text.push_str(rest);
                    return shown;
                }
            }
        } else {
            match rest.find("<!--") {
                Some(start) => {
                    shown.push_str(&rest[..start]);
                    comment.text.push_str("<!--");
                    rest = &rest[start + 4..];
                    comment.open = true;
                }
                None => {
                    shown.push_str(rest);
                    return shown;
                }
            }
        }
    }
}

fn flush(pending: &mut Vec<Event<'_>>, segments: &mut Vec<Segment>) {
    if pending.is_empty() {
        return;
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, pending.drain(..));
    // A table scrolls sideways on a narrow screen: it takes the keyboard's focus, so a reader
    // without a pointer can scroll it (WCAG 2.1.1). The text's own tags were escaped above.
    let focusable = html
        .replace("<table>", "<table tabindex=\"0\">")
        .replace("<pre>", "<pre tabindex=\"0\">");
    let clean = sanitize(&focusable);
    if !clean.trim().is_empty() {
        segments.push(Segment::Html(clean));
    }
}

/// Cleans rendered HTML: keeps document markup, heading ids, alert and language classes; drops
/// everything that could run.
pub fn sanitize(html: &str) -> String {
    let mut builder = ammonia::Builder::default();
    builder
        .add_tag_attributes("h1", &["id"])
        .add_tag_attributes("h2", &["id"])
        .add_tag_attributes("h3", &["id"])
        .add_tag_attributes("h4", &["id"])
        .add_tag_attributes("h5", &["id"])
        .add_tag_attributes("h6", &["id"])
        .add_tag_attributes("sup", &["id"])
        .add_tag_attributes("div", &["id"])
        // A table that scrolls sideways takes the keyboard's focus.
        .add_tag_attributes("table", &["tabindex"])
        .add_tag_attributes("pre", &["tabindex"])
        // Task lists' checkboxes; a scorecard's choice of target (`report/tables/scorecard.rs`):
        // radio buttons, their labels and the variants they show, switched by CSS alone.
        .add_tag_attributes("input", &["type", "checked", "disabled", "name", "id"])
        .add_tags(&["input", "label"])
        .add_tag_attributes("label", &["for"])
        .add_allowed_classes("div", &["scorecard", "scorecard-variant"])
        .add_allowed_classes("span", &["scorecard-legend"])
        .add_tag_attributes("code", &["class"])
        .attribute_filter(|element, attribute, value| {
            let language_class = value.strip_prefix("language-").is_some_and(|l| {
                !l.is_empty()
                    && l.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '_'))
            });
            match (element, attribute) {
                ("code", "class") if !language_class => None,
                ("input", "type") if !matches!(value, "checkbox" | "radio") => None,
                ("table" | "pre", "tabindex") if value != "0" => None,
                _ => Some(value.into()),
            }
        });
    allow_classes(&mut builder);
    builder
        .link_rel(Some("noopener noreferrer"))
        .url_schemes(["http", "https", "mailto"].into_iter().collect())
        .clean(html)
        .to_string()
}

/// The classes the sanitiser keeps: alerts, inline values, tables, tiles and the other blocks
/// the build writes, each on its element.
fn allow_classes(builder: &mut ammonia::Builder<'static>) {
    builder
        .add_allowed_classes(
            "blockquote",
            &[
                "markdown-alert-note",
                "markdown-alert-tip",
                "markdown-alert-important",
                "markdown-alert-warning",
                "markdown-alert-caution",
            ],
        )
        .add_allowed_classes("div", &["footnote-definition"])
        .add_allowed_classes(
            "span",
            &["value", "value-contradicted", "value-error", "unclear"],
        )
        // The 95% interval beside a verdict, a workload note beside an inline value.
        .add_allowed_classes("small", &["ci", "workload-differs"])
        .add_allowed_classes(
            "figure",
            &[
                "data-table",
                "head-to-head",
                "history-table",
                "trend-changes",
            ],
        )
        // A head-to-head table of costs, whose verdicts the price editor computes again.
        .add_tag_attributes("figure", &["data-versus"])
        // A head-to-head's `workload` columns (the prompts beside each load).
        .add_allowed_classes(
            "td",
            &["best", "tied", "pass", "fail", "unclear", "workload"],
        )
        .add_allowed_classes("th", &["workload"])
        .add_allowed_classes("tr", &["best-for"])
        .add_allowed_classes("details", &["every-run"])
        .add_allowed_classes(
            "p",
            &["table-caption", "table-lead", "tile", "trend-changes"],
        )
        .add_allowed_classes("div", &["tiles"])
        .add_allowed_classes(
            "span",
            &["tile-value", "tile-unit", "tile-label", "tile-note"],
        )
        .add_tag_attributes("th", &["scope"])
        // A cost's configuration and exact value (`report::values::priced_span`), and both
        // sides of a comparison of costs (`compared_span`), for the page's price editor; inert
        // data, as raw HTML in the Markdown is escaped anyway.
        .add_tag_attributes(
            "span",
            &[
                "data-price",
                "data-usd",
                "data-unit",
                "data-decimals",
                "data-compare",
                "data-price-a",
                "data-value-a",
                "data-price-b",
                "data-value-b",
            ],
        )
        .add_allowed_classes("sup", &["footnote-reference"]);
}

/// Advances the counters for a heading at `depth` (2 to 6) and returns its number: `2.1`.
fn section_number(sections: &mut [usize; 5], depth: usize) -> String {
    let at = depth.clamp(2, 6) - 2;
    sections[at] += 1;
    for deeper in &mut sections[at + 1..] {
        *deeper = 0;
    }
    sections[..=at]
        .iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(".")
}

fn heading_level(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

fn heading_text(events: &[(Event<'_>, std::ops::Range<usize>)]) -> String {
    let mut text = String::new();
    for (event, _) in events {
        match event {
            Event::End(TagEnd::Heading(_)) => break,
            Event::Text(t) | Event::Code(t) => text.push_str(t),
            _ => {}
        }
    }
    text
}

/// A URL-safe anchor: lower case, letters and digits kept, runs of anything else become `-`.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() {
        "section".to_string()
    } else {
        out
    }
}

fn unique_id(seen: &mut HashMap<String, usize>, base: String) -> String {
    let n = seen.entry(base.clone()).or_insert(0);
    *n += 1;
    if *n == 1 {
        base
    } else {
        format!("{base}-{}", *n - 1)
    }
}

#[cfg(test)]
mod tests;
