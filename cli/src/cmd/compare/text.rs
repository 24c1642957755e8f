//! `compare --format text`: a summary line, the warnings, then per load point an aligned table
//! of its metrics; verdicts coloured (worse red, better green) when printing to a terminal.
//! What the input put in a name or a warning is escaped ([`printable`]).

use std::fmt::Write as _;

use benchdeck_core::printable::printable;
use benchdeck_core::versus::{Outcome, Verdict, VerdictRow};

use super::words::{cells, summary};

/// The whole text; `colour` adds ANSI colours.
pub fn render(outcome: &Outcome, colour: bool) -> String {
    let mut out = format!("benchdeck compare: {}\n", summary(outcome));
    for warning in &outcome.warnings {
        let _ = writeln!(out, "warning: {}", printable(warning));
    }
    for point in &outcome.points {
        let runs = |n: usize| {
            if n == 1 {
                "1 run".to_string()
            } else {
                format!("{n} runs")
            }
        };
        let _ = writeln!(
            out,
            "\n{} at {} (base {}, new {})",
            printable(&point.id.config),
            printable(&point.id.load),
            runs(point.runs[0]),
            runs(point.runs[1])
        );
        let mut table = vec![[
            "metric".to_string(),
            "base".into(),
            "new".into(),
            "change".into(),
            "95% CI".into(),
            "verdict".into(),
        ]];
        table.extend(point.rows.iter().map(cells));
        let widths: Vec<usize> = (0..6)
            .map(|c| {
                table
                    .iter()
                    .map(|r| r[c].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for (i, row) in table.iter().enumerate() {
            let mut line = String::from("  ");
            for (c, cell) in row.iter().enumerate() {
                let pad = widths[c] - cell.chars().count();
                // Numbers right-aligned, words left.
                if (1..=3).contains(&c) {
                    line += &" ".repeat(pad);
                    line += cell;
                } else {
                    line += cell;
                    line += &" ".repeat(pad);
                }
                line += "  ";
            }
            let line = line.trim_end().to_string();
            let line = match (colour, i.checked_sub(1).map(|r| &point.rows[r])) {
                (true, Some(row)) => paint(&line, row),
                _ => line,
            };
            let _ = writeln!(out, "{line}");
        }
    }
    for (what, ids) in [
        ("only in base", &outcome.only_base),
        ("only in new", &outcome.only_new),
    ] {
        if !ids.is_empty() {
            let names: Vec<String> = ids
                .iter()
                .map(|p| format!("{} at {}", printable(&p.config), printable(&p.load)))
                .collect();
            let _ = writeln!(out, "\n{what}: {}", names.join("; "));
        }
    }
    out
}

fn paint(line: &str, row: &VerdictRow) -> String {
    let code = match row.verdict {
        Verdict::Worse => "31",
        Verdict::Better => "32",
        Verdict::NoClearDifference | Verdict::NoiseUnknown | Verdict::Missing => "2",
    };
    format!("\x1b[{code}m{line}\x1b[0m")
}
