//! The elements of a plotters SVG document, written smaller for an HTML page.
//!
//! A report page carries every chart drawn four times (`chart::PAGE_DRAWINGS`), and the browser
//! parses all of it before the page is complete (before this module, seed 002's charts were 220 KB
//! of its page's 275 KB). The plotters SVG backend writes what a stand-alone file needs, element
//! by element: `opacity="1"` on every shape, the whole font list on every text, one `<polyline>`
//! per grid line and tick, each element on its own line (a whitespace text node between every two
//! elements, three per text). [`compact`] writes the same drawing without that:
//!
//! - `opacity="1"` is the default, so it goes;
//! - the font list that the texts share moves to the `<svg>` element, which they inherit it from
//!   (a text with another font keeps its own);
//! - the line breaks between tags and around a text's content go (SVG drops line breaks in
//!   text, so nothing drawn changes);
//! - a `<line>` (plotters' grid lines on bar charts) is the polyline of its two ends;
//! - a run of `<polyline>`s without fill and with identical attributes (grid lines, tick marks),
//!   one after another or with only texts between them (a tick mark, its label, the next tick
//!   mark), becomes one `<path>` of one sub-path each, and the texts follow it: the same strokes,
//!   painted over the same elements, under the labels that sat between them. Shapes drawn with
//!   an opacity of their own are left alone (one path would blend their crossings once instead
//!   of twice).
//!
//! Every colour attribute stays as plotters wrote it, which the dark theme's stylesheet needs.

/// `body` (what follows the `<svg …>` tag of a plotters document) written smaller, and the font
/// list to put on the `<svg>` element (the one its texts share), if any.
pub fn compact(body: &str) -> (String, Option<String>) {
    let font = shared_font(body);
    let mut out = body.replace(" opacity=\"1\"", "");
    if let Some(font) = &font {
        out = out.replace(&format!(" font-family=\"{font}\""), "");
    }
    let out = out.replace(">\n", ">").replace("\n<", "<");
    (merge_polylines(&lines_as_polylines(&out)), font)
}

/// The value of the first `font-family` attribute: plotters writes the chart's font on every
/// text, so this is the one they share.
fn shared_font(body: &str) -> Option<String> {
    crate::html::attribute(body, "font-family").map(str::to_string)
}

/// `body` with each `<line ATTRIBUTES x1="A" y1="B" x2="C" y2="D"/>` written as the
/// `<polyline fill="none" ATTRIBUTES points="A,B C,D"/>` it draws (a line has no fill), so that
/// [`merge_polylines`] joins them like the others. A line of another shape is left as it is.
fn lines_as_polylines(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(start) = rest.find("<line ") {
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let Some(end) = rest.find("/>") else {
            break;
        };
        let element = &rest[..end + 2];
        match line_as_polyline(element) {
            Some(polyline) => out.push_str(&polyline),
            None => out.push_str(element),
        }
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

/// One `<line …/>` as plotters writes it (its ends last) as a polyline.
fn line_as_polyline(element: &str) -> Option<String> {
    let inner = element.strip_prefix("<line ")?.strip_suffix("\"/>")?;
    let (attributes, ends) = inner.split_once(" x1=\"")?;
    let (x1, ends) = ends.split_once("\" y1=\"")?;
    let (y1, ends) = ends.split_once("\" x2=\"")?;
    let (x2, y2) = ends.split_once("\" y2=\"")?;
    let plain = |v: &str| !v.is_empty() && !v.contains(['"', ' ', '<', '>']);
    [x1, y1, x2, y2]
        .iter()
        .all(|v| plain(v))
        .then(|| format!("<polyline fill=\"none\" {attributes} points=\"{x1},{y1} {x2},{y2}\"/>"))
}

/// `body` with each run of consecutive `<polyline …/>` elements that share their attributes
/// (and draw no fill and no opacity of their own) written as one `<path>`.
fn merge_polylines(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut run: Option<Run<'_>> = None;
    let mut rest = body;
    while let Some(start) = rest.find("<polyline ") {
        let Some(polyline) = Polyline::parse(&rest[start..]) else {
            break;
        };
        let between = &rest[..start];
        match run.as_mut() {
            Some(open) if open.attributes == polyline.attributes && open.continues(between) => {
                open.texts.push_str(between);
                open.points.push(polyline.points);
            }
            _ => {
                if let Some(done) = run.take() {
                    done.write(&mut out);
                }
                out.push_str(between);
                run = Some(Run {
                    attributes: polyline.attributes,
                    points: vec![polyline.points],
                    texts: String::new(),
                });
            }
        }
        rest = &rest[start + polyline.element.len()..];
    }
    if let Some(done) = run {
        done.write(&mut out);
    }
    out.push_str(rest);
    out
}

/// One `<polyline ATTRIBUTES points="POINTS"/>` element as plotters writes it.
struct Polyline<'a> {
    element: &'a str,
    attributes: &'a str,
    points: &'a str,
}

impl<'a> Polyline<'a> {
    /// The polyline element `text` starts with, when it has the shape plotters writes.
    fn parse(text: &'a str) -> Option<Self> {
        let element = &text[..text.find("/>")? + 2];
        let inner = element.strip_prefix("<polyline ")?.strip_suffix("\"/>")?;
        let (attributes, points) = inner.rsplit_once("points=\"")?;
        Some(Polyline {
            element,
            attributes: attributes.trim_end(),
            points: points.trim(),
        })
    }
}

/// Consecutive polylines with the same attributes (each written back with its points' trailing
/// space trimmed when they cannot be merged).
struct Run<'a> {
    attributes: &'a str,
    points: Vec<&'a str>,
    /// The texts between the polylines, written after their path: tick marks alternate with
    /// their labels, which they never cross, and a text over a line reads as well as under it.
    texts: String,
}

impl Run<'_> {
    /// Whether the polylines can be one path: no fill (a path would fill its sub-paths as one
    /// shape) and no opacity of their own (one path blends its crossings once).
    fn mergeable(&self) -> bool {
        self.attributes.contains("fill=\"none\"") && !self.attributes.contains("opacity=")
    }

    /// Whether the run goes on over `between` to the next polyline like its own: nothing but
    /// texts between them, and polylines that become a path.
    fn continues(&self, between: &str) -> bool {
        between.is_empty() || (self.mergeable() && only_texts(between))
    }

    fn write(&self, out: &mut String) {
        if self.points.len() < 2 || !self.mergeable() {
            for points in &self.points {
                out.push_str(&format!(
                    "<polyline {} points=\"{points}\"/>",
                    self.attributes
                ));
            }
            return;
        }
        out.push_str(&format!("<path {} d=\"", self.attributes));
        for points in &self.points {
            for (i, point) in points.split_whitespace().enumerate() {
                out.push(if i == 0 { 'M' } else { 'L' });
                out.push_str(point);
            }
        }
        out.push_str("\"/>");
        out.push_str(&self.texts);
    }
}

/// Whether `markup` is nothing but whole `<text …>…</text>` elements.
fn only_texts(markup: &str) -> bool {
    let mut rest = markup;
    while !rest.is_empty() {
        let Some(end) = rest.strip_prefix("<text ").and_then(|t| t.find("</text>")) else {
            return false;
        };
        rest = &rest["<text ".len() + end + "</text>".len()..];
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_line_breaks_go_and_the_shared_font_moves_up() {
        let body = "\n<rect x=\"0\" opacity=\"1\" fill=\"#FFFFFF\"/>\n<text x=\"1\" \
                    font-family=\"Arial, sans-serif\" font-size=\"12\" opacity=\"1\">\n\
                    100 &lt; 200\n</text>\n<text font-family=\"monospace\">\nx\n</text>\n</svg>";
        let (out, font) = compact(body);
        assert_eq!(font.as_deref(), Some("Arial, sans-serif"));
        assert_eq!(
            out,
            "<rect x=\"0\" fill=\"#FFFFFF\"/><text x=\"1\" font-size=\"12\">100 &lt; 200</text>\
             <text font-family=\"monospace\">x</text></svg>"
        );
    }

    #[test]
    fn runs_of_like_polylines_become_one_path_in_their_place() {
        let grid = |p: &str| {
            format!(
                "<polyline fill=\"none\" stroke=\"#E2E5E9\" stroke-width=\"1\" points=\"{p} \"/>"
            )
        };
        let body = format!(
            "<rect/>{}{}{}<text>1</text>{}<polyline fill=\"none\" stroke=\"#0072B2\" \
             stroke-width=\"2\" points=\"0,0 5,5 \"/>",
            grid("80,325 942,325"),
            grid("80,203 942,203"),
            grid("80,44 80,410"),
            grid("1,1 2,2"),
        );
        let (out, _) = compact(&body);
        assert_eq!(
            out,
            "<rect/><path fill=\"none\" stroke=\"#E2E5E9\" stroke-width=\"1\" \
             d=\"M80,325L942,325M80,203L942,203M80,44L80,410\"/><text>1</text>\
             <polyline fill=\"none\" stroke=\"#E2E5E9\" stroke-width=\"1\" points=\"1,1 2,2\"/>\
             <polyline fill=\"none\" stroke=\"#0072B2\" stroke-width=\"2\" points=\"0,0 5,5\"/>"
        );
    }

    #[test]
    fn tick_marks_become_one_path_under_their_labels() {
        let tick = |p: &str| format!("<polyline fill=\"none\" stroke=\"#787C82\" points=\"{p}\"/>");
        let label = |t: &str| format!("<text x=\"1\">{t}</text>");
        let body = format!(
            "{}{}{}{}<rect/>{}",
            tick("0,0 0,4"),
            label("100"),
            tick("9,0 9,4"),
            label("200"),
            tick("5,5 6,6")
        );
        assert_eq!(
            compact(&body).0,
            format!(
                "<path fill=\"none\" stroke=\"#787C82\" d=\"M0,0L0,4M9,0L9,4\"/>{}{}<rect/>{}",
                label("100"),
                label("200"),
                tick("5,5 6,6")
            )
        );
        // Translucent lines keep their place among the texts.
        let faint = |p: &str| format!("<polyline fill=\"none\" opacity=\"0.3\" points=\"{p}\"/>");
        let body = format!("{}{}{}", faint("0,0 1,1"), label("a"), faint("2,2 3,3"));
        assert_eq!(compact(&body).0, body);
    }

    #[test]
    fn lines_join_the_polylines_like_them() {
        let line = |y: u32| {
            format!("<line stroke=\"#FFFFFF\" stroke-width=\"1\" x1=\"60\" y1=\"{y}\" x2=\"943\" y2=\"{y}\"/>")
        };
        let body = format!("<rect/>{}{}<rect/>{}", line(407), line(392), line(5));
        assert_eq!(
            compact(&body).0,
            "<rect/><path fill=\"none\" stroke=\"#FFFFFF\" stroke-width=\"1\" \
             d=\"M60,407L943,407M60,392L943,392\"/><rect/>\
             <polyline fill=\"none\" stroke=\"#FFFFFF\" stroke-width=\"1\" points=\"60,5 943,5\"/>"
        );
        // A line of another shape stays as written.
        let odd = "<line x1=\"0\" y1=\"1\" x2=\"2\"/><line stroke=\"red\" x1=\"0\" y1=\"1\" x2=\"2\" y2=\"\"/>";
        assert_eq!(compact(odd).0, odd);
    }

    #[test]
    fn translucent_or_filled_polylines_stay_apart() {
        let line = |attributes: &str| format!("<polyline {attributes} points=\"0,0 1,1\"/>");
        for attributes in [
            "fill=\"none\" opacity=\"0.6\" stroke=\"#0072B2\"",
            "fill=\"#0072B2\" stroke=\"none\"",
        ] {
            let body = line(attributes).repeat(3);
            assert_eq!(compact(&body).0, body, "{attributes}");
        }
    }
}
