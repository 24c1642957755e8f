//! `compare --format markdown`: GitHub-flavoured Markdown for a job summary or a pull request
//! comment. A summary line, the warnings as a list, a table of the worse rows (worst first),
//! then every other row in a `<details>` block, and what only one side measured.
//!
//! Tables follow GitHub's rules: a header row and a delimiter row of as many cells, one row per
//! line, and `|` inside a cell escaped (`\|`), so a label can never break a table.

use std::fmt::Write as _;

use benchdeck_core::printable::printable;
use benchdeck_core::versus::{Outcome, PointComparison, Verdict, VerdictRow};

use super::words::{cells, summary};

/// The whole comment.
pub fn render(outcome: &Outcome) -> String {
    let mut out = format!("### benchdeck compare: {}\n\n", summary(outcome));
    if !outcome.warnings.is_empty() {
        out += "**Not like for like:**\n\n";
        for w in &outcome.warnings {
            let _ = writeln!(out, "- {}", escape_text(w));
        }
        out += "\n";
    }
    let mut rows: Vec<(&PointComparison, &VerdictRow)> = outcome
        .points
        .iter()
        .flat_map(|p| p.rows.iter().map(move |r| (p, r)))
        .collect();
    // The worst regressions first: worse rows by how much worse, then the rest as read.
    let worse_by = |r: &VerdictRow| match r.better {
        benchdeck_core::quantity::Better::Lower => r.change_pct.unwrap_or(0.0),
        benchdeck_core::quantity::Better::Higher => -r.change_pct.unwrap_or(0.0),
    };
    let (mut worse, rest): (Vec<_>, Vec<_>) = rows
        .drain(..)
        .partition(|(_, r)| r.verdict == Verdict::Worse);
    worse.sort_by(|a, b| worse_by(b.1).total_cmp(&worse_by(a.1)));
    if worse.is_empty() {
        out += "No metric got worse.\n\n";
    } else {
        out += &table(&worse);
    }
    if !rest.is_empty() {
        let _ = write!(
            out,
            "<details><summary>{} other row{} (better, no clear difference, noise unknown, missing)</summary>\n\n{}</details>\n\n",
            rest.len(),
            if rest.len() == 1 { "" } else { "s" },
            table(&rest)
        );
    }
    for (what, ids) in [
        ("Only in base", &outcome.only_base),
        ("Only in new", &outcome.only_new),
    ] {
        if !ids.is_empty() {
            let names: Vec<String> = ids
                .iter()
                .map(|p| {
                    let config = p.config.replace('`', "'").replace(['\n', '\r'], " ");
                    format!("`{}` at {}", printable(&config), escape_plain(&p.load))
                })
                .collect();
            let _ = writeln!(out, "{what}: {}.\n", names.join("; "));
        }
    }
    let _ = writeln!(
        out,
        "<sub>95% intervals of the change from per-request values (in blocks of neighbouring \
         requests where they are alike), repeated runs or each summary's mean and standard \
         deviation; \"no clear difference\" when the interval includes none, \"noise \
         unknown\" when a side has no interval. The gate fails on a metric clearly worse by \
         more than {}% and beyond the noise of the {} metrics judged (Holm's correction); a \
         metric whose noise is unknown never fails it.</sub>",
        benchdeck_core::format::number(outcome.threshold_pct),
        outcome.counts.judged
    );
    out
}

/// A GitHub table of `rows`.
fn table(rows: &[(&PointComparison, &VerdictRow)]) -> String {
    let mut out = String::from(
        "| Configuration | Load | Metric | Base | New | Change | 95% CI of the change | Verdict |\n\
         |---|---|---|---:|---:|---:|---|---|\n",
    );
    for (point, row) in rows {
        let [metric, base, new, change, interval, verdict] = cells(row);
        let mut line: Vec<String> = [
            &point.id.config,
            &point.id.load,
            &metric,
            &base,
            &new,
            &change,
            &interval,
            &verdict,
        ]
        .iter()
        .map(|c| escape_cell(c))
        .collect();
        if row.verdict == Verdict::Worse {
            line[7] = format!("**{}**", line[7]);
        }
        let _ = writeln!(out, "| {} |", line.join(" | "));
    }
    out.push('\n');
    out
}

/// A table cell: `|` escaped, line breaks folded, Markdown's emphasis characters escaped.
fn escape_cell(text: &str) -> String {
    let escaped = escape_text(text).replace('|', "\\|");
    escaped.replace(['\n', '\r'], " ")
}

/// Text that came from files (configuration names, warnings): characters GitHub would read
/// as markup or HTML escaped. Code spans (between two backticks) stay code spans, their
/// content as written (Markdown reads no escapes there); an odd backtick is escaped.
fn escape_text(text: &str) -> String {
    let parts: Vec<&str> = text.split('`').collect();
    if parts.len().is_multiple_of(2) {
        return escape_plain(text);
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("`{}`", printable(&part.replace(['\n', '\r'], " ")))
            } else {
                escape_plain(part)
            }
        })
        .collect()
}

/// [`escape_text`] outside code spans: a line break is a space, other control characters are
/// escapes ([`printable`]).
fn escape_plain(text: &str) -> String {
    let text = text.replace(['\n', '\r'], " ");
    let mut out = String::with_capacity(text.len());
    for c in printable(&text).chars() {
        match c {
            '<' => out += "&lt;",
            '>' => out += "&gt;",
            '&' => out += "&amp;",
            '\\' | '`' | '_' | '*' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}
