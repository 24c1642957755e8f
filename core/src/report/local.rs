//! The report of result files a reader drops on the site (or picks with a file dialog): the
//! standard charts, a summary table and the decision wizard for whatever the files hold, built in
//! the browser (a Web Worker) by the very code that builds the site's reports.
//!
//! The page is written as a Markdown report whose every word is ours: only numbers and the names
//! of quantities go into the generated text. What comes from the files (names, labels, models)
//! reaches the page only through charts, tables and problem lists, which escape it.

use crate::format::plural;
use crate::import::{import, ImportedFile};
use crate::input::InputFile;
use crate::model::{LoadAxis, Metric, Run, Stat};
use crate::quantity::Quantity;
use crate::report::{build_report, Palette};
use crate::site::ReportPage;

pub use crate::site::LOCAL_SLUG;

/// What dropped files gave: the page, and every file as imported (for the downloads of
/// normalised data).
#[derive(Debug, Clone)]
pub struct LocalReport {
    /// The page to show.
    pub page: ReportPage,
    /// Every file, imported, in the order given.
    pub imports: Vec<ImportedFile>,
}

/// Imports `files` and builds their report. Never fails: files no importer recognises, and every
/// other problem, are listed on the page with their locations.
pub fn local_report(files: &[InputFile]) -> LocalReport {
    local_report_with_progress(files, &mut |_, _| {})
}

/// [`local_report`], calling `progress(done, file)` before importing each file and
/// `progress(files.len(), "")` before building the page (the worker posts these to the page).
pub fn local_report_with_progress(
    files: &[InputFile],
    progress: &mut dyn FnMut(usize, &str),
) -> LocalReport {
    let imports: Vec<ImportedFile> = files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            progress(i, &f.path);
            import(&f.path, &f.bytes)
        })
        .collect();
    progress(files.len(), "");
    let page = local_page(&imports);
    LocalReport { page, imports }
}

/// The page of already imported files.
fn local_page(imports: &[ImportedFile]) -> ReportPage {
    let runs: Vec<&Run> = imports.iter().flat_map(|f| f.runs.iter()).collect();
    let palette: Palette = {
        let mut keys: Vec<String> = runs.iter().map(|r| r.config.key()).collect();
        keys.sort();
        keys.dedup();
        keys.into_iter().enumerate().map(|(i, k)| (k, i)).collect()
    };
    let text = markdown_for(imports, &runs);
    let mut page = build_report("dropped files", LOCAL_SLUG, &text, imports, &palette);
    page.summary.title = "Your result files".to_string();
    page
}

/// The generated report: front matter selecting every file, then sections for what the runs
/// measured.
fn markdown_for(imports: &[ImportedFile], runs: &[&Run]) -> String {
    let configs = {
        let mut keys: Vec<String> = runs.iter().map(|r| r.config.key()).collect();
        keys.sort();
        keys.dedup();
        keys.len()
    };
    let failed = imports.iter().filter(|f| f.failed()).count();
    let mut md = String::from(
        "---\ntitle: Your result files\nsummary: Result files read in this browser.\nresults: [\"**\"]\ntoc: false\n---\n\n",
    );
    md.push_str(&format!(
        "Read in this browser from {} file{} ({} run{} of {} configuration{}); nothing was \
         uploaded, and the data is gone when you leave or reload the page.{}\n\n",
        imports.len(),
        plural(imports.len()),
        runs.len(),
        plural(runs.len()),
        configs,
        plural(configs),
        if failed > 0 {
            format!(
                " {failed} file{} could not be read: see the problems listed above.",
                plural(failed)
            )
        } else {
            String::new()
        }
    ));
    if runs.is_empty() {
        md.push_str("No run could be read from these files, so there is nothing to chart.\n");
        return md;
    }
    let swept: Vec<&Run> = runs
        .iter()
        .copied()
        .filter(|r| r.load.target.axis() != LoadAxis::None && r.load.target.value().is_some())
        .collect();
    let has = |q: Quantity, among: &[&Run]| among.iter().any(|r| q.of(r).is_some());
    let latencies: Vec<(Metric, Stat)> = [Metric::Ttft, Metric::Tpot, Metric::Itl, Metric::E2e]
        .into_iter()
        .filter_map(|metric| {
            [
                Stat::Median,
                Stat::P(50.0),
                Stat::Mean,
                Stat::P(90.0),
                Stat::P(95.0),
                Stat::P(99.0),
                Stat::Max,
            ]
            .into_iter()
            .find(|&stat| has(Quantity::Latency { metric, stat }, runs))
            .map(|stat| (metric, stat))
        })
        .collect();
    let rates: Vec<Quantity> = [
        Quantity::OutputThroughput,
        Quantity::OutputPerUser,
        Quantity::RequestThroughput,
        Quantity::SuccessRate,
    ]
    .into_iter()
    .filter(|&q| has(q, runs))
    .collect();

    if latencies.is_empty() && rates.is_empty() {
        md.push_str(
            "The runs read hold no latency, throughput or success count that could be charted: \
             see the problems listed above.\n",
        );
        return md;
    }

    // Summary table: every quantity the files have, at its best over the sweep.
    let mut summary: Vec<String> = latencies
        .iter()
        .map(|&(m, s)| quantity_name(Quantity::Latency { metric: m, stat: s }))
        .collect();
    for (metric, _) in &latencies {
        let p99 = Quantity::Latency {
            metric: *metric,
            stat: Stat::P(99.0),
        };
        if has(p99, runs) {
            summary.push(quantity_name(p99));
        }
    }
    summary.extend(rates.iter().map(|&q| match q {
        Quantity::SuccessRate => quantity_name(q),
        _ => format!("{}:max", quantity_name(q)),
    }));
    if !summary.is_empty() {
        md.push_str("## Summary\n\n");
        md.push_str(&format!(
            "```table\nkind: summary\ntitle: Each configuration at its best\ncaption: Each row at its best over the load points measured.\nmetrics: [{}]\n```\n\n",
            summary.join(", ")
        ));
    }

    if swept.is_empty() {
        // One load point per configuration (offline throughput or latency runs): bars.
        md.push_str("## Measurements\n\n");
        for (n, &(metric, stat)) in latencies.iter().enumerate() {
            md.push_str(&chart_block(
                &format!("latency-{n}"),
                "bars",
                &quantity_name(Quantity::Latency { metric, stat }),
                "",
            ));
        }
        for (n, &q) in rates.iter().enumerate() {
            md.push_str(&chart_block(
                &format!("rate-{n}"),
                "bars",
                &quantity_name(q),
                "",
            ));
        }
        return md;
    }

    // At a glance: the first latency, the throughput and the success rate against load.
    let mut panels: Vec<String> = Vec::new();
    for &(metric, stat) in latencies.iter().take(2) {
        if has(Quantity::Latency { metric, stat }, &swept) {
            panels.push(format!(
                "{{kind: lines, metric: {}, stat: {}}}",
                metric.id(),
                stat
            ));
        }
    }
    for &q in &rates {
        if matches!(q, Quantity::OutputThroughput | Quantity::SuccessRate) && has(q, &swept) {
            panels.push(format!("{{kind: lines, metric: {}}}", quantity_name(q)));
        }
    }
    if panels.len() >= 2 {
        md.push_str("## At a glance\n\n");
        md.push_str(&format!(
            "```chart\nid: at-a-glance\nkind: grid\ncolumns: 2\ntitle: Every configuration across its load points\npanels: [{}]\n```\n\n",
            panels.join(", ")
        ));
    }

    // One section per latency metric, with its p50–p99 band where the files have both.
    for &(metric, stat) in &latencies {
        if !has(Quantity::Latency { metric, stat }, &swept) {
            continue;
        }
        let band = [Stat::P(50.0), Stat::P(99.0)]
            .iter()
            .all(|&s| has(Quantity::Latency { metric, stat: s }, &swept));
        md.push_str(&format!("## {}\n\n", metric.label()));
        md.push_str(&format!(
            "```chart\nid: {id}\nkind: lines\nmetric: {m}\nstat: {s}\n{band}```\n\n",
            id = metric.id(),
            m = metric.id(),
            s = stat,
            band = if band { "band: [p50, p99]\n" } else { "" },
        ));
    }

    // Throughput and reliability against load.
    let sweep_rates: Vec<Quantity> = rates.iter().copied().filter(|&q| has(q, &swept)).collect();
    if !sweep_rates.is_empty() {
        md.push_str("## Throughput and success\n\n");
        for &q in &sweep_rates {
            md.push_str(&chart_block(
                &quantity_name(q),
                "lines",
                &quantity_name(q),
                "",
            ));
        }
    }

    // The trade-off: throughput against tail latency, over each sweep.
    if let Some(&(metric, _)) = latencies.first() {
        let tail = [Stat::P(99.0), Stat::P(90.0), Stat::Mean]
            .into_iter()
            .find(|&stat| has(Quantity::Latency { metric, stat }, &swept));
        if let (Some(stat), true) = (tail, has(Quantity::OutputThroughput, &swept)) {
            md.push_str("## Throughput against latency\n\n");
            md.push_str(&format!(
                "```chart\nid: tradeoff\nkind: scatter\nx: output_throughput\ny: {}\n```\n\n",
                quantity_name(Quantity::Latency { metric, stat })
            ));
        }
    }
    md
}

/// A chart block of one quantity.
fn chart_block(id: &str, kind: &str, metric: &str, extra: &str) -> String {
    let (metric, stat) = match metric.split_once(':') {
        Some((m, s)) => (m, format!("stat: {s}\n")),
        None => (metric, String::new()),
    };
    format!("```chart\nid: {id}\nkind: {kind}\nmetric: {metric}\n{stat}{extra}```\n\n")
}

/// The name a directive uses for a quantity: `ttft:p99`, `output_throughput`.
fn quantity_name(q: Quantity) -> String {
    match q {
        Quantity::Latency { metric, stat } => format!("{}:{}", metric.id(), stat),
        Quantity::OutputThroughput => "output_throughput".into(),
        Quantity::OutputPerUser => "output_tok_s_per_user".into(),
        Quantity::TotalThroughput => "total_throughput".into(),
        Quantity::RequestThroughput => "request_throughput".into(),
        Quantity::Goodput => "goodput".into(),
        Quantity::SuccessRate => "success_rate".into(),
        Quantity::ErrorRate => "error_rate".into(),
    }
}

#[cfg(test)]
mod tests;
