//! ```` ```table ```` blocks: tables computed from the report's runs, as escaped HTML.
//!
//! | kind | rows × columns | keys |
//! |---|---|---|
//! | `summary` | quantities × configurations, the best value of each row in bold, and a "Best for" row | `metrics`, `load`, `configs`, `title`, `caption` |
//! | `sla` | use cases × configurations: ✓ or ✗ against each use case's limit at one load when the value's 95% interval is on one side of it, ≈ when it holds it | `use_cases: [{name: Chat, metric: ttft:p95, max: 500}]`, `load`, `configs` |
//! | `head-to-head` | load points × (A, B, which is better, by how much) for two configurations | `metric`, `configs` (two), `loads`, `decimals`, `workload` (`[requests, completed]`: each row's prompts sent and completed, [`workload`]), `title`, `caption` |
//! | `history` | (configuration, load, metric) × (newest run, verdict against the current level, current level, since when), from the dated runs as `benchdeck history` reads them ([`history`]) | `metrics`, `load`, `configs`, `title`, `caption` |
//! | `scorecard` | configurations × (load at the target, throughput per GPU, cost, …): each at the highest load where `target` holds, interpolated between load points with its interval, or "not reached" ([`scorecard`]) | `target: {metric: interactivity, min: 50}` or `{metric: ttft:p99, max: 500}`, `metrics`, `configs`, `title`, `caption` |
//! | `runs` | every run × (configuration, load, requests, TTFT p50/p99, TPOT p50, end-to-end p50, output tok/s), collapsed above 12 rows ([`runs`]) | `configs`, `title`, `caption` |
//!
//! In a summary, each metric is taken at `load` when one is given, otherwise at its best over
//! the sweep (the highest throughput, the lowest latency); an entry may set its own:
//! `{metric: ttft:p50, load: 10}` or `{metric: output_tok_s_per_user, take: max}` (for a
//! per-run quantity also written `output_tok_s_per_user:max`). A
//! head-to-head's "by (%)" is the gap over the worse value (`compare::Verdict`): "Faster by" for a
//! latency, "Cheaper by" for a cost (whose verdicts the page judges again at a reader's prices:
//! `figure[data-versus]`), "Lower by" for another lower-is-better metric, "Higher by" for a
//! throughput.

mod directive;
mod figure;
mod gist;
mod head_to_head;
mod history;
mod runs;
mod scorecard;
mod sla;
mod summary;
mod take;
mod workload;

use super::context::ReportContext;
use crate::model::Location;
use crate::problem::Problem;
use directive::{TableDirective, KEYS};

/// The HTML of the table block whose body starts at `line`.
pub fn build(ctx: &ReportContext<'_>, body: &str, line: usize) -> Result<String, Problem> {
    let error = |message: String| Problem::error(ctx.file, Location::line(line as u64), message);
    let pod = crate::yaml::Document::parse(body, line)
        .map_err(|e| error(format!("table block is not valid YAML: {e}")))?;
    let d: TableDirective = pod
        .deserialize()
        .map_err(|e| error(format!("table block: {e}; expected keys {KEYS}")))?;
    match d.kind.as_str() {
        "summary" => summary::summary(ctx, &d),
        "head-to-head" => head_to_head::head_to_head(ctx, &d),
        "sla" => sla::sla(ctx, &d),
        "runs" => runs::runs_table(ctx, &d),
        "history" => history::history_table(ctx, &d),
        "scorecard" => scorecard::scorecard(ctx, &d, line),
        other => Err(format!(
            "unknown kind `{other}`; expected summary, head-to-head, sla, runs, history or scorecard"
        )),
    }
    .map_err(|e| error(format!("table block: {e}")))
}
