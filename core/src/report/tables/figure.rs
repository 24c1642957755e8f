//! A table as the page shows it: a titled `<figure>` with its caption, the HTML every table
//! kind writes.

use crate::html::escape;

/// A titled table with a caption.
pub(super) fn figure(title: &str, caption: &str, head: &str, rows: &[String]) -> String {
    figure_from("<figure class=\"data-table\">", title, caption, head, rows)
}

/// [`figure`] opening with the tag `start` (another class, a data attribute).
pub(super) fn figure_from(
    start: &str,
    title: &str,
    caption: &str,
    head: &str,
    rows: &[String],
) -> String {
    let caption = if caption.is_empty() {
        String::new()
    } else {
        format!("<p class=\"table-caption\">{}</p>", escape(caption))
    };
    format!(
        "{start}<figcaption>{}</figcaption><table><thead><tr>{head}</tr></thead><tbody>{}</tbody></table>{caption}</figure>",
        escape(title),
        rows.concat()
    )
}
