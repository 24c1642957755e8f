//! The Markdown of a synthetic report: front matter, a note that it is synthetic, charts of
//! several kinds, a summary table and inline values, in the patterns of the seed reports.

use std::fmt::Write as _;

use super::model::Format;
use super::numbers::{date_text, number};
use super::plan::Plan;
use crate::rng::Rng;

/// The report: front matter, a note that it is synthetic, charts of several kinds, a summary
/// table and inline values, in the patterns of the seed reports.
pub(super) fn report_markdown(plan: &Plan) -> String {
    let mut rng = Rng::for_report(plan.index ^ 0x00ff_0000);
    let loads = plan.common_loads();
    let axis = if plan.sweep.is_rate() {
        "request rate"
    } else {
        "concurrency"
    };
    let mut md = String::new();
    front_matter(&mut md, plan, &loads, axis);
    note_and_setup(&mut md, plan, &loads, axis);
    glance_and_ttft(&mut md, plan, &loads, axis, &mut rng);
    throughput_and_summary(&mut md, plan, &loads);
    md
}

/// The front matter: title, date, a summary that says the data is synthetic, the result files
/// and the configurations.
fn front_matter(md: &mut String, plan: &Plan, loads: &[f64], axis: &str) {
    let sweep = plan.sweep;
    let _ = writeln!(md, "---");
    let _ = writeln!(md, "title: \"{}\"", plan.title);
    if let Some(days) = plan.date {
        let _ = writeln!(md, "date: {}", date_text(days));
    }
    let _ = writeln!(md, "authors: [benchdeck scale generator]");
    let _ = writeln!(md, "summary: >-");
    let _ = writeln!(
        md,
        "  Synthetic data for benchdeck's scale test: {} made-up configurations of {} on {}, \
         swept over {} from {} to {}; it measures nothing real.",
        plan.configs.len(),
        plan.model,
        plan.dataset.3,
        axis,
        sweep.say(loads[0]),
        sweep.say(
            sweep.load(
                plan.configs
                    .iter()
                    .map(|c| c.points.len())
                    .max()
                    .unwrap_or(1)
                    - 1
            )
        ),
    );
    let glob = if plan.format == Format::GuidellmJson {
        "**/*.json"
    } else {
        "*"
    };
    let _ = writeln!(md, "results: [\"{}/{glob}\"]", plan.slug);
    let _ = writeln!(md, "configs:");
    for (i, c) in plan.configs.iter().enumerate() {
        let _ = writeln!(md, "  - key: {}\n    label: \"{}\"", c.key, c.label);
        if plan.index.is_multiple_of(3) {
            let _ = writeln!(md, "    color: {i}");
        }
    }
    let _ = writeln!(md, "---\n");
}

/// The note that the report is synthetic, and its setup: what was served, how the load was
/// swept, and a table of the configurations.
fn note_and_setup(md: &mut String, plan: &Plan, loads: &[f64], axis: &str) {
    let sweep = plan.sweep;
    let runs: usize = plan.configs.iter().map(|c| c.points.len()).sum();
    let _ = writeln!(
        md,
        "> [!NOTE]\n> This report is **synthetic**: `cargo xtask scale` generated it and its {runs} \
         runs to test benchdeck with hundreds of reports. The configurations, their names and \
         every number are made up; it measures nothing real.\n"
    );
    let _ = writeln!(md, "## Setup\n");
    let _ = writeln!(
        md,
        "Each configuration served `{}` on {}. The load was swept by {} ({}), from {} upwards; \
         the results were written by {}.\n",
        plan.model,
        plan.dataset.3,
        axis,
        if sweep.is_rate() {
            "Poisson arrivals at a fixed rate"
        } else {
            "a fixed number of requests in flight"
        },
        sweep.say(loads[0]),
        plan.format.tool()
    );
    let _ = writeln!(md, "| key | configuration | runs |\n|---|---|---|");
    for c in &plan.configs {
        let _ = writeln!(md, "| `{}` | {} | {} |", c.key, c.label, c.points.len());
    }
    let _ = writeln!(md);
}

/// The small multiples across the sweep, then time to first token: its tail, inline values and
/// percentiles at the middle load, and sometimes p99 end-to-end bars.
fn glance_and_ttft(md: &mut String, plan: &Plan, loads: &[f64], axis: &str, rng: &mut Rng) {
    let sweep = plan.sweep;
    let (low, mid) = (loads[0], loads[loads.len() / 2]);
    let (a, b) = (&plan.configs[0], &plan.configs[1]);
    let _ = writeln!(md, "## At a glance\n");
    let _ = writeln!(
        md,
        "```chart\nid: at-a-glance\nkind: grid\ncolumns: 2\ntitle: Every configuration across the {axis}\n\
         caption: Median TTFT and TPOT, output throughput and the share of requests that completed.\n\
         panels:\n  - {{kind: lines, metric: ttft, stat: median, y_scale: log, title: Median TTFT}}\n  \
         - {{kind: lines, metric: tpot, stat: median, title: Median TPOT}}\n  \
         - {{kind: lines, metric: output_throughput, title: Output throughput}}\n  \
         - {{kind: lines, metric: success_rate, title: Requests completed}}\n```\n"
    );
    let _ = writeln!(md, "## Time to first token\n");
    let _ = writeln!(
        md,
        "```chart\nid: ttft-tail\nkind: lines\nmetric: ttft\nstat: median\nband: [p50, p99]\ny_scale: log\n\
         title: TTFT from median to p99 as the {axis} grows\n\
         caption: Median TTFT (line) and the p50 to p99 band, on a log scale.\n```\n"
    );
    let _ = writeln!(
        md,
        "At {} the median TTFT of {} is `=value(ttft:p50, {}, {})` against `=value(ttft:p50, {}, {})` \
         for {}. At {} the p99 is `=value(ttft:p99, {}, {})`, `=ratio(value(ttft:p99, {}, {}), value(ttft:p50, {}, {}))` \
         its median: the queue has started to form. Without failed requests, {} holds up to `=stable({})`.\n",
        sweep.say(low),
        a.label,
        a.key,
        number(low),
        b.key,
        number(low),
        b.label,
        sweep.say(mid),
        a.key,
        number(mid),
        a.key,
        number(mid),
        a.key,
        number(mid),
        a.label,
        a.key,
    );
    let _ = writeln!(
        md,
        "```chart\nid: ttft-percentiles\nkind: percentiles\nmetric: ttft\nload: {}\n\
         title: TTFT percentiles at {}\n```\n",
        number(mid),
        sweep.say(mid)
    );
    if rng.uniform() < 0.5 && loads.len() <= 30 {
        let _ = writeln!(
            md,
            "```chart\nid: e2e-p99\nkind: bars\nmetric: e2e\nstat: p99\ntitle: p99 end-to-end latency at each {axis}\n```\n"
        );
    }
}

/// Throughput against latency, the head to head at the middle load, and the summary table.
fn throughput_and_summary(md: &mut String, plan: &Plan, loads: &[f64]) {
    let sweep = plan.sweep;
    let mid = loads[loads.len() / 2];
    let (a, b) = (&plan.configs[0], &plan.configs[1]);
    let keys: Vec<&str> = plan.configs.iter().map(|c| c.key.as_str()).collect();
    let _ = writeln!(md, "## Throughput against latency\n");
    let _ = writeln!(
        md,
        "```chart\nid: throughput-vs-ttft\nkind: scatter\nx: output_throughput\ny: ttft:p99\ny_scale: log\n\
         title: Output throughput against p99 TTFT\n\
         caption: Each point is one run; the frontier joins the runs no other run beats on both.\n```\n"
    );
    let _ = writeln!(
        md,
        "{} peaks at `=max(output_throughput, {})` and {} at `=max(output_throughput, {})`.\n",
        a.label, a.key, b.label, b.key
    );
    let _ = writeln!(md, "## Head to head\n");
    let _ = writeln!(
        md,
        "```chart\nid: head-to-head\nkind: hbars\nmetrics: [ttft:p50, tpot:p50, e2e:p99, output_throughput]\n\
         load: {}\ntitle: Every configuration at {}\n\
         caption: ✓ marks the best configuration on each metric.\n```\n",
        number(mid),
        sweep.say(mid)
    );
    if plan.configs.len() == 2 {
        let _ = writeln!(
            md,
            "```table\nkind: head-to-head\nmetric: ttft:p50\nconfigs: [{}, {}]\ntitle: \"Median TTFT, head to head\"\n```\n",
            a.key, b.key
        );
    }
    let _ = writeln!(md, "## Summary\n");
    let _ = writeln!(
        md,
        "```table\nkind: summary\nconfigs: [{}]\nmetrics: [output_throughput:max, ttft:p50, tpot:p50, success_rate]\n\
         title: Each configuration at its best\n```\n",
        keys.join(", ")
    );
    let _ = writeln!(
        md,
        "> [!TIP]\n> Synthetic or not, read the knee: where the p99 leaves the median behind, the \
         engine is queueing, and the load just before it is the one to plan for."
    );
}
