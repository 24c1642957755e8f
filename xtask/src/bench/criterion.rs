//! The core's criterion benchmarks: run, their printed results read, and the sections they
//! fill: what the 95% intervals cost, and the table of every result.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use anyhow::{bail, Result};

use crate::run::{self, step};

/// One criterion result.
#[derive(Debug, Clone, PartialEq)]
pub struct Bench {
    /// `group/function/parameter`.
    pub name: String,
    /// As criterion prints it: `[low estimate high]` with units.
    pub time: String,
    /// The estimate, milliseconds.
    pub estimate_ms: Option<f64>,
    /// Throughput, when the benchmark sets one.
    pub thrpt: Option<String>,
}

/// Runs the core's criterion benchmarks (import and chart).
pub(super) fn criterion(root: &Path) -> Result<Vec<Bench>> {
    step("criterion benchmarks (core)");
    let out = run::output(Command::new("cargo").current_dir(root).args([
        "bench",
        "--package",
        "benchdeck-core",
    ]))?;
    let benches = parse_criterion(&out);
    if benches.is_empty() {
        bail!("`cargo bench --package benchdeck-core` printed no results");
    }
    Ok(benches)
}

/// The results in criterion's standard output.
fn parse_criterion(out: &str) -> Vec<Bench> {
    let mut benches: Vec<Bench> = Vec::new();
    let mut name = String::new();
    // After `change:` criterion repeats time and thrpt as changes against the last run.
    let mut in_change = false;
    for line in out.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("change:") {
            in_change = true;
        } else if let Some((head, rest)) = trimmed.split_once("time:") {
            if !head.trim().is_empty() {
                name = head.trim().to_string();
                in_change = false;
            } else if !line.starts_with(' ') {
                in_change = false;
            }
            if !in_change {
                let time = rest.trim().to_string();
                benches.push(Bench {
                    name: name.clone(),
                    estimate_ms: estimate_ms(&time),
                    time,
                    thrpt: None,
                });
            }
        } else if let Some(rest) = trimmed.strip_prefix("thrpt:") {
            if let Some(last) = benches.last_mut().filter(|_| !in_change) {
                last.thrpt = Some(rest.trim().to_string());
            }
        } else if !trimmed.is_empty() && !trimmed.contains(' ') && trimmed.contains('/') {
            // Criterion prints long names on a line of their own.
            name = trimmed.to_string();
            in_change = false;
        }
    }
    benches
}

/// The middle value of `[28.9 ms 29.1 ms 29.8 ms]`, in milliseconds.
fn estimate_ms(time: &str) -> Option<f64> {
    let parts: Vec<&str> = time
        .trim_matches(|c| c == '[' || c == ']')
        .split_whitespace()
        .collect();
    let (value, unit) = (parts.get(2)?, parts.get(3)?);
    let factor = match *unit {
        "ps" => 1e-9,
        "ns" => 1e-6,
        "µs" | "us" => 1e-3,
        "ms" => 1.0,
        "s" => 1e3,
        _ => return None,
    };
    Some(value.parse::<f64>().ok()? * factor)
}

/// What the 95% intervals cost, from `core/benches/noise.rs`: a million requests' intervals
/// against the 2 s budget, and a report's intervals as a share of reading its files and
/// building it (budget 20%).
pub(super) fn noise_section(doc: &mut String, benches: &[Bench]) {
    let find = |name: &str| {
        benches
            .iter()
            .find(|b| b.name == format!("noise/{name}"))
            .and_then(|b| b.estimate_ms)
    };
    let (Some(million), Some(report), Some(alone)) = (
        find("intervals of a 1,000,000-request run"),
        find("report of 20 runs x 10,000 requests from its files"),
        find("its intervals alone (20 runs x 10,000 requests)"),
    ) else {
        return;
    };
    let share = alone / report * 100.0;
    let _ = writeln!(doc, "## What the 95% intervals cost\n");
    let _ = writeln!(
        doc,
        "Criterion, native (`core/benches/noise.rs`): simulated `--save-detailed` results with \
         log-normal TTFTs.\n"
    );
    let _ = writeln!(doc, "| what | measured | goal | met |\n|---|---|---|---|");
    let _ = writeln!(
        doc,
        "| the intervals of a 1,000,000-request run (mean, p50, p90, p99, p99.9, one sort) | \
         {million:.1} ms | ≤ 2,000 ms | {} |",
        if million <= 2000.0 { "yes" } else { "**no**" }
    );
    let _ = writeln!(
        doc,
        "| a report of 20 runs × 10,000 requests: its intervals ({alone:.1} ms) against reading \
         its files and building it ({report:.0} ms) | {share:.1}% | ≤ 20% | {} |",
        if share <= 20.0 { "yes" } else { "**no**" }
    );
    if let Some(compare) = find("compare of two folders of 50 runs each") {
        let _ = writeln!(
            doc,
            "| `benchdeck compare` of two folders of 50 runs each (1,000 requests a run: read and \
             judged) | {compare:.0} ms | < 1,000 ms | {} |",
            if compare < 1000.0 { "yes" } else { "**no**" }
        );
    }
    let _ = writeln!(
        doc,
        "\n`benchdeck build` also draws every chart as SVG, so the intervals' share of a \
         whole build is smaller still.\n"
    );
}

/// The table of every criterion result.
pub(super) fn criterion_table(doc: &mut String, benches: &[Bench]) {
    let _ = writeln!(
        doc,
        "## Criterion benchmarks (native, `cargo bench -p benchdeck-core`)\n"
    );
    let _ = writeln!(
        doc,
        "| benchmark | time (low, estimate, high) | throughput |"
    );
    let _ = writeln!(doc, "|---|---|---|");
    for b in benches {
        let _ = writeln!(
            doc,
            "| {} | {} | {} |",
            b.name,
            b.time,
            b.thrpt.as_deref().unwrap_or("–")
        );
    }
    let _ = writeln!(doc);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criterion_output_with_and_without_throughput_and_changes() {
        let out = "\
chart/svg/scatter-100k  time:   [28.897 ms 29.073 ms 29.780 ms]
                        thrpt:  [3.3580 Melem/s 3.4396 Melem/s 3.4606 Melem/s]
                 change:
                        time:   [-3.8609% -2.2951% -0.6813%] (p = 0.10 > 0.05)
                        thrpt:  [+0.6860% +2.3490% +4.0160%]
                        No change in performance detected.
nearest/build/scatter-100k
                        time:   [798.26 µs 798.47 µs 798.53 µs]
                        change: [-1.0% +0.2% +1.1%] (p = 0.50 > 0.05)
nearest/query/scatter-100k
                        time:   [3.6366 µs 3.6712 µs 3.6799 µs]
";
        let benches = parse_criterion(out);
        let names: Vec<&str> = benches.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "chart/svg/scatter-100k",
                "nearest/build/scatter-100k",
                "nearest/query/scatter-100k"
            ]
        );
        assert_eq!(benches[0].estimate_ms, Some(29.073));
        assert_eq!(
            benches[0].thrpt.as_deref(),
            Some("[3.3580 Melem/s 3.4396 Melem/s 3.4606 Melem/s]")
        );
        assert_eq!(benches[1].thrpt, None);
        assert!((benches[1].estimate_ms.unwrap() - 0.79847).abs() < 1e-9);
        assert!((benches[2].estimate_ms.unwrap() - 0.0036712).abs() < 1e-12);
    }
}
