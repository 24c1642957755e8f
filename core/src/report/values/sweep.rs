//! Inline values about a configuration's whole load sweep: `stable(…)`, the highest load that
//! holds, and `breaking(…)`, where the sweep breaks.

use super::computed::{Computed, ValueNoise};
use super::lookup::parse_quantity;
use super::parse::Expr;
use crate::analysis::{breaking_point, BreakingRule, LoadObservation};
use crate::format;
use crate::model::{Metric, Run, Stat};
use crate::quantity::{Better, Quantity};
use crate::report::context::ReportContext;
use crate::report::load::LoadKind;

/// `stable(configuration, [sweep], [condition])`, the highest load that holds, or
/// `breaking(configuration, [sweep])`, where the configuration breaks.
pub(super) fn stable_or_breaking(
    ctx: &ReportContext<'_>,
    name: &str,
    args: &[Expr],
) -> Result<Computed, String> {
    let usage = format!(
        "expected `{name}(<configuration>)`, optionally with the sweep (`rate` or \
         `concurrency`){}",
        if name == "stable" {
            " and a condition such as `ttft:p99 <= 2000`"
        } else {
            ""
        }
    );
    let words = super::parse::words(args, &usage)?;
    let (config, rest) = words.split_first().ok_or_else(|| usage.clone())?;
    let config = *config;
    let (mut kind, mut condition) = (None, None);
    for &word in rest {
        match LoadKind::parse(word) {
            Some(k) if kind.is_none() => kind = Some(k),
            None if condition.is_none() && name == "stable" => condition = Some(word),
            _ => return Err(usage),
        }
    }
    let runs = sweep(ctx, config, kind, name)?;
    if name == "stable" {
        stable(ctx, config, &runs, condition)
    } else {
        breaking(ctx, config, &runs)
    }
}

/// The runs of one sweep of `config`: those of `kind`, or all when they are of one kind.
pub(in crate::report) fn sweep<'c>(
    ctx: &'c ReportContext<'_>,
    config: &str,
    kind: Option<LoadKind>,
    function: &str,
) -> Result<Vec<&'c Run>, String> {
    let runs = super::lookup::config_runs(ctx, config)?;
    match kind {
        Some(kind) => {
            let runs: Vec<&Run> = runs
                .into_iter()
                .filter(|r| LoadKind::of(&r.load.target) == Some(kind))
                .collect();
            if runs.is_empty() {
                return Err(format!("`{config}` has no {} sweep", kind.name()));
            }
            Ok(runs)
        }
        None => {
            let mixed = runs
                .iter()
                .any(|r| LoadKind::of(&r.load.target) != LoadKind::of(&runs[0].load.target));
            if mixed {
                return Err(format!(
                    "`{config}` has both a concurrency sweep and a request-rate sweep; say \
                     which: `{function}({config}, rate)` or `{function}({config}, concurrency)`"
                ));
            }
            Ok(runs)
        }
    }
}

/// The highest load up to which every load point of `config` had no failed request and
/// met `condition` (`<quantity> <= <limit>` or `>=`).
fn stable(
    ctx: &ReportContext<'_>,
    config: &str,
    runs: &[&Run],
    condition: Option<&str>,
) -> Result<Computed, String> {
    let parsed = condition.map(parse_condition).transpose()?;
    let Some(run) = stable_run(config, runs, parsed)? else {
        // Nothing stable is a finding, not an error: "none", below the lowest load.
        let lowest = &runs[0].load.target;
        return Ok(Computed {
            is_number: false,
            priced: None,
            value: 0.0,
            text: format!("none (not even {lowest})"),
            unit: String::new(),
            source: format!(
                "{} failed requests{} already at its lowest load, {lowest} ({})",
                ctx.display(config).0,
                if condition.is_some() {
                    " or missed the condition"
                } else {
                    ""
                },
                runs[0].source()
            ),
            noise: ValueNoise::default(),
        });
    };
    let value = run
        .load
        .target
        .value()
        .ok_or_else(|| format!("`{config}`'s load {} is not a number", run.load.target))?;
    Ok(Computed {
        is_number: true,
        priced: None,
        value,
        text: run.load.target.to_string(),
        unit: String::new(),
        source: format!(
            "highest load of {} with every request successful{} ({})",
            ctx.display(config).0,
            parsed.map_or(String::new(), |(q, at_most, limit)| format!(
                " and {q} {} {}",
                if at_most { "≤" } else { "≥" },
                format::with_unit(limit, q.unit())
            )),
            run.source()
        ),
        noise: ValueNoise::default(),
    })
}

/// `breaking(config)`: the first load of a configuration's sweep that breaks it (errors at 5%
/// or more, or its p99 TTFT jumping 3x from the load before).
fn breaking(ctx: &ReportContext<'_>, config: &str, runs: &[&Run]) -> Result<Computed, String> {
    let q = Quantity::Latency {
        metric: Metric::Ttft,
        stat: Stat::P(99.0),
    };
    let observations: Vec<LoadObservation> = runs
        .iter()
        .map(|r| LoadObservation {
            load: r.load.target.value().unwrap_or(f64::NAN),
            value: q.of(r),
            error_rate: r.requests.success_rate().map(|s| (1.0 - s) * 100.0),
        })
        .collect();
    let rule = BreakingRule {
        better: Better::Lower,
        ..BreakingRule::default()
    };
    let found = breaking_point(&observations, &rule)
        .ok_or_else(|| format!("`{config}` does not break within its sweep"))?;
    let run = runs[found.index];
    Ok(Computed {
        is_number: true,
        priced: None,
        value: found.load,
        text: run.load.target.to_string(),
        unit: String::new(),
        source: format!(
            "first load of {} where the sweep breaks: {} ({})",
            ctx.display(config).0,
            found.summary(),
            run.source()
        ),
        noise: ValueNoise::default(),
    })
}

/// The run of the highest load of `runs` (one sweep of `config`, by load) up to which every
/// load point had no failed request and met `condition` (quantity, upper bound?, limit);
/// `None` when already the lowest fails. A run without request counts is an error: whether
/// its requests all succeeded is unknown.
pub(in crate::report) fn stable_run<'r>(
    config: &str,
    runs: &[&'r Run],
    condition: Option<(Quantity, bool, f64)>,
) -> Result<Option<&'r Run>, String> {
    let mut last = None;
    for run in runs {
        let Some(success) = run.requests.success_rate() else {
            return Err(format!(
                "`{config}` at {} has no request counts, so whether every request succeeded \
                 is unknown ({})",
                run.load.target,
                run.source()
            ));
        };
        let meets = condition.is_none_or(|(q, at_most, limit)| {
            q.of(run)
                .is_some_and(|v| if at_most { v <= limit } else { v >= limit })
        });
        if !(success >= 1.0 && meets) {
            break;
        }
        last = Some(*run);
    }
    Ok(last)
}

/// `ttft:p99 <= 2000`: the quantity, whether it is an upper bound, and the limit.
fn parse_condition(text: &str) -> Result<(Quantity, bool, f64), String> {
    let (left, right, at_most) = if let Some((l, r)) = text.split_once("<=") {
        (l, r, true)
    } else if let Some((l, r)) = text.split_once(">=") {
        (l, r, false)
    } else {
        return Err(format!(
            "`{text}`: expected a condition such as `ttft:p99 <= 2000`"
        ));
    };
    let limit: f64 = right
        .trim()
        .parse()
        .map_err(|_| format!("`{text}`: `{}` is not a number", right.trim()))?;
    Ok((parse_quantity(left.trim())?, at_most, limit))
}
