//! ```` ```tiles ```` blocks: a report's key metrics as big numbers with their units (seed 004's
//! "key metrics" panel, GuideLLM's cards), each computed like an inline value, so it cannot
//! drift from the data. The tiles flow into as many columns as the page has room for.
//!
//! ````markdown
//! ```tiles
//! - label: Median end-to-end latency
//!   value: value(e2e:p50, vllm, 4)
//!   note: at 4 requests per second      # optional, plain text
//! - label: Peak output throughput
//!   value: max(output_throughput, vllm)
//! ```
//! ````
//!
//! A tile whose value cannot be computed is an error at the block's line; the others still
//! show.

use serde::Deserialize;

use super::context::ReportContext;
use super::values::{priced_text, Computed};
use crate::html::escape;
use crate::model::Location;
use crate::problem::Problem;

/// One tile as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TileDirective {
    label: String,
    value: String,
    #[serde(default)]
    note: Option<String>,
}

/// The HTML of the tiles block whose body starts at `line`, and the problems of tiles that
/// could not be computed (the block is still shown without them).
pub(super) fn build(
    ctx: &ReportContext<'_>,
    body: &str,
    line: usize,
) -> (Option<String>, Vec<Problem>) {
    let at = Location::line(line as u64);
    let parsed = crate::yaml::Document::parse(body, line)
        .map_err(|e| e.to_string())
        .and_then(|pod| {
            pod.deserialize::<Vec<TileDirective>>()
                .map_err(|e| e.to_string())
        });
    let tiles = match parsed {
        Ok(tiles) => tiles,
        Err(e) => {
            let problem = Problem::error(
                ctx.file,
                at,
                format!(
                    "tiles block: {e}; expected a list of tiles, each with `label` and \
                     `value` (an inline-value expression) and an optional `note`"
                ),
            );
            return (None, vec![problem]);
        }
    };
    let mut problems = Vec::new();
    let mut html = String::from("<div class=\"tiles\">");
    for tile in &tiles {
        match crate::report::values::compute(ctx, &tile.value) {
            Ok(computed) => html.push_str(&tile_html(&tile.label, &computed, tile.note.as_deref())),
            Err(e) => problems.push(Problem::error(
                ctx.file,
                at.clone(),
                format!("tile `{}`: `{}`: {e}", tile.label, tile.value),
            )),
        }
    }
    html.push_str("</div>");
    let shown = problems.len() < tiles.len();
    (shown.then_some(html), problems)
}

/// One tile: the number first and big (what the eye reads), its unit smaller beside it, then
/// what it is.
/// A cost's number carries its configuration and exact value (`values::priced_text`).
fn tile_html(label: &str, computed: &Computed, note: Option<&str>) -> String {
    let note = note
        .map(|n| format!("<span class=\"tile-note\">{}</span>", escape(n)))
        .unwrap_or_default();
    let value = match number_and_unit(&computed.text) {
        Some((number, unit)) => {
            let number = Computed {
                text: number.to_string(),
                ..computed.clone()
            };
            format!(
                "{} <span class=\"tile-unit\">{}</span>",
                priced_text(&number, false),
                escape(unit)
            )
        }
        _ => escape(&computed.text),
    };
    format!(
        "<p class=\"tile\" title=\"{source}\"><span class=\"tile-value\">{value}</span>\
         <span class=\"tile-label\">{label}</span>{note}</p>",
        source = escape(&computed.source),
        label = escape(label),
    )
}

/// A value's number and its unit, apart: `406` and `ms`; money keeps its dollar (`$1.23` and
/// `/1M tok`). `None` for text that does not start with a number (`none (not even 1 req/s)`).
fn number_and_unit(text: &str) -> Option<(&str, &str)> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if let Some(amount) = digits.strip_prefix('$') {
        let end = amount
            .find(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.'))
            .unwrap_or(amount.len());
        let at = text.len() - amount.len() + end;
        let (number, unit) = text.split_at(at);
        return (end > 0).then_some((number, unit.trim_start()));
    }
    let (number, unit) = text.split_once(' ')?;
    number
        .starts_with(|c: char| c.is_ascii_digit() || c == '-')
        .then_some((number, unit))
}

#[cfg(test)]
mod tests;
