//! A table as the page shows it: a titled `<figure>` with its caption, the HTML every table
//! kind writes.

use crate::html::escape;
use crate::model::Run;
use crate::quantity::Quantity;

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
        "{start}<figcaption>{}</figcaption><table tabindex=\"0\"><thead><tr>{head}</tr></thead><tbody>{}</tbody></table>{caption}</figure>",
        escape(title),
        rows.concat()
    )
}

/// `caption` followed by the notes on what the compared runs can say (noise, workloads).
pub(super) fn with_notes(
    caption: &str,
    quantities: &[Quantity],
    compared: &[Vec<(&str, &Run)>],
) -> String {
    let notes = super::super::verdicts::notes(quantities, compared);
    std::iter::once(caption.to_string())
        .chain(notes)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
