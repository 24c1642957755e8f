//! The words both formats share: the summary line of the verdicts' counts, and a row's cells
//! (metric, values, change, interval and verdict).

use benchdeck_core::format;
use benchdeck_core::versus::{Outcome, Verdict, VerdictRow};

/// `1 worse (1 fails the 5% gate), 5 better, 12 no clear difference`.
pub fn summary(outcome: &Outcome) -> String {
    let c = outcome.counts;
    let mut parts = vec![format!(
        "{} worse{}",
        c.worse,
        if c.failing > 0 {
            format!(
                " ({} fail{} the {}% gate)",
                c.failing,
                if c.failing == 1 { "s" } else { "" },
                benchdeck_core::format::number(outcome.threshold_pct)
            )
        } else {
            String::new()
        }
    )];
    parts.push(format!("{} better", c.better));
    parts.push(format!("{} no clear difference", c.no_clear_difference));
    if c.noise_unknown > 0 {
        parts.push(format!(
            "{} not judged (noise unknown: no interval on some side)",
            c.noise_unknown
        ));
    }
    if c.missing > 0 {
        parts.push(format!("{} missing on one side", c.missing));
    }
    parts.join(", ")
}

/// A row's cells: metric, base, new, change, interval, verdict.
pub fn cells(row: &VerdictRow) -> [String; 6] {
    let value = |v: Option<f64>| v.map_or("–".to_string(), |v| format::with_unit(v, &row.unit));
    [
        row.label.clone(),
        value(row.base),
        value(row.new),
        row.change_pct.map_or("–".into(), signed_pct),
        row.interval_pct.map_or("–".into(), |[lo, hi]| {
            format!("{} to {}", signed_pct(lo), signed_pct(hi))
        }),
        verdict_words(row),
    ]
}

/// `+12.3%`, `−4.0%`; `+∞`, `−∞` for an end the data cannot bound.
pub fn signed_pct(v: f64) -> String {
    if v.is_infinite() {
        return if v > 0.0 { "+∞" } else { "−∞" }.to_string();
    }
    let sign = if v > 0.0 {
        "+"
    } else if v < 0.0 {
        "−"
    } else {
        ""
    };
    format!("{sign}{}%", format::fixed(v.abs(), 1))
}

/// `worse (fails the gate)`, `noise unknown`, `no clear difference`; a worse row beyond the
/// threshold that Holm's correction over the family keeps from failing says so.
pub fn verdict_words(row: &VerdictRow) -> String {
    let mut words = row.verdict.words().to_string();
    if row.fails {
        words += " (fails the gate)";
    } else if row.worse_beyond_threshold && row.verdict == Verdict::Worse {
        words += " (within the noise of all metrics judged, by Holm's correction)";
    }
    words
}
