//! `compare --history DIR NEW`: the nightly gate. The new runs against the current level of
//! the history in `DIR` (`benchdeck_core::history::gate`), printed as text, Markdown (for the
//! job summary) or JSON (`benchdeck-history-gate/1`); status 1 with `--fail-on worse` when a
//! metric is worse beyond the history's noise and the threshold.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use benchdeck_core::history::gate::{gate, Gate, GateRow};
use benchdeck_core::history::{signed_pct, Verdict};
use benchdeck_core::model::Run;
use benchdeck_core::printable::printable;

use super::options::Format;
use crate::cmd::history;
use crate::results::read_side;

/// What the gate is asked.
pub struct GateArgs<'a> {
    /// The folder of dated runs.
    pub history: &'a PathBuf,
    /// The new results.
    pub new: &'a [&'a PathBuf],
    /// `--metric`.
    pub metric: Option<&'a str>,
    /// `--threshold`: the smallest change, in percent, that fails.
    pub threshold: f64,
    /// `--format`.
    pub format: Format,
    /// `--fail-on worse`.
    pub fail: bool,
}

/// Runs the gate of `args`.
pub fn execute(args: &GateArgs<'_>) -> Result<ExitCode> {
    let dir = args.history;
    if !(args.threshold.is_finite() && args.threshold >= 0.0) {
        anyhow::bail!(
            "--threshold {}: expected a percentage of 0 or more, such as 5",
            args.threshold
        );
    }
    // The history's change points are found with the default smallest change; the threshold
    // only decides what fails.
    let options = benchdeck_core::history::Options {
        metrics: history::metrics(args.metric)?,
        since: None,
        settings: Default::default(),
    };
    let past = read_side("history", &[dir])?;
    let new = read_side("new", args.new)?;
    let past: Vec<&Run> = past.iter().flat_map(|f| &f.runs).collect();
    let new: Vec<&Run> = new.iter().flat_map(|f| &f.runs).collect();
    let outcome = gate(&past, &new, &options, args.threshold / 100.0);
    let shown = Shown {
        dir: dir.display().to_string(),
        gated: args.fail,
    };
    match args.format {
        Format::Text => print!("{}", text(&outcome, &shown)),
        Format::Markdown => print!("{}", markdown(&outcome, &shown)),
        Format::Json => println!("{}", serde_json::to_string_pretty(&outcome)?),
    }
    Ok(if args.fail && outcome.fails {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// How the outcome is shown: the history's folder, and whether `--fail-on worse` gates it.
struct Shown {
    dir: String,
    gated: bool,
}

/// `1 worse (1 fails the gate), 27 as before, 2 not judged`; without `--fail-on worse`, no
/// word of a gate.
fn summary(gate: &Gate, gated: bool) -> String {
    let count = |v: Verdict| gate.rows.iter().filter(|r| r.new.verdict == v).count();
    let failing = gate.rows.iter().filter(|r| r.fails).count();
    let mut parts = Vec::new();
    if count(Verdict::Worse) > 0 {
        parts.push(if gated {
            format!("{} worse ({failing} fail the gate)", count(Verdict::Worse))
        } else {
            format!("{} worse", count(Verdict::Worse))
        });
    }
    if count(Verdict::Better) > 0 {
        parts.push(format!("{} better", count(Verdict::Better)));
    }
    parts.push(format!("{} as before", count(Verdict::AsBefore)));
    if count(Verdict::Unjudged) > 0 {
        parts.push(format!(
            "{} not judged (too few nights at the current level)",
            count(Verdict::Unjudged)
        ));
    }
    parts.join(", ")
}

fn verdict_word(row: &GateRow, gated: bool) -> &'static str {
    match (row.new.verdict, row.fails && gated) {
        (Verdict::Worse, true) => "worse, fails",
        (Verdict::Worse, false) => "worse",
        (Verdict::Better, _) => "better",
        (Verdict::AsBefore, _) => "as before",
        (Verdict::Unjudged, _) => "not judged",
    }
}

fn text(gate: &Gate, shown: &Shown) -> String {
    let mut out = format!(
        "benchdeck compare --history {}: {}\n",
        printable(&shown.dir),
        summary(gate, shown.gated)
    );
    for unmatched in &gate.unmatched {
        let _ = writeln!(
            out,
            "warning: no history of {} in the history",
            printable(unmatched)
        );
    }
    let notable: Vec<&GateRow> = gate
        .rows
        .iter()
        .filter(|r| r.new.verdict != Verdict::AsBefore)
        .collect();
    if notable.is_empty() && !gate.rows.is_empty() {
        out.push_str("Every metric of the new run is as the current level predicts.\n");
    }
    for row in notable {
        let _ = writeln!(
            out,
            "  {} at {}, {}: {} [{}]",
            printable(&row.config),
            row.load,
            row.metric,
            printable(&row.new.text(row.unit)),
            verdict_word(row, shown.gated)
        );
    }
    out
}

fn markdown(gate: &Gate, shown: &Shown) -> String {
    let mut out = format!(
        "### benchdeck: the new run against the history in `{}`\n\n{}.\n\n",
        printable(&shown.dir).replace('`', "'"),
        summary(gate, shown.gated)
    );
    if !gate.unmatched.is_empty() {
        let _ = writeln!(
            out,
            "> [!WARNING]\n> No history of: {}\n",
            printable(&gate.unmatched.join("; ")).replace('|', "\\|")
        );
    }
    let (notable, rest): (Vec<&GateRow>, Vec<&GateRow>) = gate
        .rows
        .iter()
        .partition(|r| r.new.verdict != Verdict::AsBefore);
    table(&mut out, &notable, shown.gated);
    if !rest.is_empty() {
        let _ = writeln!(
            out,
            "\n<details><summary>{} as before</summary>\n",
            rest.len()
        );
        table(&mut out, &rest, shown.gated);
        out.push_str("\n</details>\n");
    }
    out
}

/// A Markdown table of `rows` (nothing for none).
fn table(out: &mut String, rows: &[&GateRow], gated: bool) {
    if rows.is_empty() {
        return;
    }
    out.push_str(
        "| configuration | load | metric | new | current level | 95% range | change | verdict |\n\
         |---|---|---|--:|--:|--:|--:|---|\n",
    );
    let cell = |text: &str| printable(text).replace('|', "\\|");
    for row in rows {
        let number = |v: Option<f64>| {
            v.map_or_else(String::new, |v| {
                benchdeck_core::format::with_unit(v, row.unit)
            })
        };
        let range = row
            .new
            .expected
            .map_or_else(String::new, |r| r.text(row.unit).replacen("95% CI ", "", 1));
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} ({} nights) | {} | {} | {} |",
            cell(&row.config),
            row.load,
            row.metric,
            number(Some(row.new.value)),
            number(row.new.level),
            row.new.level_nights,
            range,
            row.new.change_pct.map_or_else(String::new, signed_pct),
            verdict_word(row, gated)
        );
    }
}
