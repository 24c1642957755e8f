//! Finding what an expression names: a configuration's runs, its run at a load point, and a
//! quantity as chart blocks write it.

use crate::format;
use crate::model::Run;
use crate::quantity::Quantity;
use crate::report::context::ReportContext;
use crate::report::load::{parse_load, same, LoadKind};

/// The runs of a configuration named in an expression, or an error listing the known ones.
pub(super) fn config_runs<'c>(
    ctx: &'c ReportContext<'_>,
    config: &str,
) -> Result<Vec<&'c Run>, String> {
    ctx.config_keys(Some(&[config.to_string()]))?;
    Ok(ctx.runs_of(config))
}

/// The run of `config` at `load` (written as in a chart block: `4`, `4 req/s`,
/// `concurrency 16`).
pub(super) fn run_at_load<'c>(
    ctx: &'c ReportContext<'_>,
    config: &str,
    load: &str,
) -> Result<&'c Run, String> {
    let (target, kind) = parse_load(load)?;
    let runs = config_runs(ctx, config)?;
    let matching: Vec<&Run> = runs
        .iter()
        .copied()
        .filter(|r| r.load.target.value().is_some_and(|v| same(v, target)))
        .filter(|r| kind.is_none() || LoadKind::of(&r.load.target) == kind)
        .collect();
    if let [first, second, ..] = matching.as_slice() {
        if LoadKind::of(&first.load.target) != LoadKind::of(&second.load.target) {
            return Err(format!(
                "`{config}` has runs at {} and at {}; write `{} req/s` or `concurrency {}`",
                first.load.target,
                second.load.target,
                format::number(target),
                format::number(target)
            ));
        }
    }
    matching.first().copied().ok_or_else(|| {
        let loads: Vec<String> = runs.iter().map(|r| r.load.target.to_string()).collect();
        format!(
            "`{config}` has no run at load {load}; its loads are {}",
            loads.join(", ")
        )
    })
}

/// A quantity as written in expressions and tables: `ttft:p50`, `output_throughput`.
pub(in crate::report) fn parse_quantity(text: &str) -> Result<Quantity, String> {
    let (metric, stat) = match text.split_once(':') {
        Some((m, s)) => (m, Some(s)),
        None => (text, None),
    };
    Quantity::parse(metric, stat)
}
