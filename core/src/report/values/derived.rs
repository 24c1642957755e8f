//! Inline values that rewrite or combine other values the way prose says numbers:
//! `seconds(A)` (a latency in seconds, as seed 004 writes "10.47 s"), `diff(A, B)` (A − B, the
//! "1.78 s of generation" left after the queue), `share(A, B)` (A as a percentage of B, "85%
//! waiting"), and two counts over a configuration's runs: `requests(config, load)` (the
//! requests a run sent, "20 requests") and `overall(success_rate, config)` (the share of all
//! its requests that succeeded, over every load point).

use super::computed::{Computed, Evaluate, ValueNoise};
use super::parse::Expr;
use crate::compare::Comparison;
use crate::format;
use crate::noise::Interval;
use crate::report::context::ReportContext;

/// `seconds(A)`: a value in milliseconds (`ms`, or `ms/tok`) in seconds, so a claim
/// compares `10.47 s` with 10.47, not with 10,470.
pub(super) fn seconds(
    ctx: &ReportContext<'_>,
    args: &[Expr],
    eval: Evaluate,
) -> Result<Computed, String> {
    let [a] = args else {
        return Err("expected `seconds(<expression>)`".into());
    };
    let a = number(ctx, a, "seconds", eval)?;
    let Some(rest) = a.unit.strip_prefix("ms") else {
        return Err(format!(
            "`seconds` turns milliseconds into seconds, but the value is {}",
            a.text
        ));
    };
    let unit = format!("s{rest}");
    let value = a.value / 1000.0;
    Ok(Computed {
        value,
        text: format::with_unit(value, &unit),
        unit,
        noise: ValueNoise {
            interval: a.noise.interval.map(|i| Interval {
                lo: i.lo / 1000.0,
                hi: i.hi / 1000.0,
            }),
            ..a.noise
        },
        ..a
    })
}

/// `diff(A, B)`: A − B, in their unit (which must be the same).
pub(super) fn diff(
    ctx: &ReportContext<'_>,
    args: &[Expr],
    eval: Evaluate,
) -> Result<Computed, String> {
    let [a, b] = args else {
        return Err("expected `diff(<expression>, <expression>)`".into());
    };
    let (a, b) = (number(ctx, a, "diff", eval)?, number(ctx, b, "diff", eval)?);
    if a.unit != b.unit {
        return Err(format!(
            "`diff` subtracts values of one unit, but {} and {} differ",
            a.text, b.text
        ));
    }
    let value = a.value - b.value;
    Ok(Computed {
        is_number: true,
        priced: None,
        value,
        text: format::with_unit(value, &a.unit),
        source: format!("{} minus {}", a.source, b.source),
        noise: ValueNoise {
            interval: None,
            runs: 0,
            from: a.noise.from.iter().chain(&b.noise.from).cloned().collect(),
        },
        unit: a.unit,
    })
}

/// `share(A, B)`: A ÷ B in percent (`85%`): the part A is of the whole B; `pct(A, B)` is
/// its complement.
pub(super) fn share(
    ctx: &ReportContext<'_>,
    args: &[Expr],
    eval: Evaluate,
) -> Result<Computed, String> {
    let [a, b] = args else {
        return Err("expected `share(<expression>, <expression>)`".into());
    };
    let (a, b) = (
        number(ctx, a, "share", eval)?,
        number(ctx, b, "share", eval)?,
    );
    if b.value == 0.0 {
        return Err(format!("`share`: the whole ({}) is zero", b.text));
    }
    let value = a.value / b.value * 100.0;
    let interval =
        super::computed::compared_interval(Comparison::Ratio, &a, &b).map(|i| Interval {
            lo: i.lo * 100.0,
            hi: i.hi * 100.0,
        });
    let source = format!("{} of {}", a.source, b.source);
    Ok(Computed {
        is_number: true,
        priced: None,
        value,
        text: format!("{}%", format::number(value)),
        unit: "%".to_string(),
        source: match interval {
            Some(i) => format!("{source}; {}", i.text("%")),
            None => source,
        },
        noise: ValueNoise {
            interval,
            runs: 0,
            from: a.noise.from.iter().chain(&b.noise.from).cloned().collect(),
        },
    })
}

/// `requests(configuration, load)`: how many requests the run sent (`num_prompts`).
pub(super) fn requests(
    ctx: &ReportContext<'_>,
    config: &str,
    load: &str,
) -> Result<Computed, String> {
    let run = super::lookup::run_at_load(ctx, config, load)?;
    let total = run.requests.total.ok_or_else(|| {
        format!(
            "`{config}` at {} does not say how many requests it sent ({})",
            run.load.target,
            run.source()
        )
    })?;
    Ok(Computed {
        is_number: true,
        priced: None,
        value: total as f64,
        text: format!(
            "{} request{}",
            format::number(total as f64),
            format::plural(total as usize)
        ),
        unit: String::new(),
        source: format!(
            "requests sent by {} at {} ({})",
            ctx.display(config).0,
            run.load.target,
            run.source()
        ),
        noise: ValueNoise::default(),
    })
}

/// `overall(success_rate, configuration)` (or `error_rate`): the share of every request of
/// the configuration's runs, all load points together, that succeeded (or failed).
pub(super) fn overall(
    ctx: &ReportContext<'_>,
    quantity: &str,
    config: &str,
) -> Result<Computed, String> {
    let failed_share = match quantity.trim() {
        "success_rate" => false,
        "error_rate" => true,
        other => {
            return Err(format!(
                "`overall({other}, …)`: expected success_rate or error_rate, counted over \
                 every request of the configuration's runs"
            ))
        }
    };
    let runs = super::lookup::config_runs(ctx, config)?;
    let (mut ok, mut sent, mut counted) = (0u64, 0u64, 0usize);
    for run in &runs {
        let counts = &run.requests;
        let Some(succeeded) = counts.succeeded else {
            continue;
        };
        let total = counts
            .total
            .or_else(|| succeeded.checked_add(counts.failed?));
        if let Some(total) = total {
            ok += succeeded;
            sent += total;
            counted += 1;
        }
    }
    if sent == 0 {
        return Err(format!("no run of `{config}` counts its requests"));
    }
    let success = crate::noise::interval::proportion(ok, sent);
    let (value, interval) = if failed_share {
        let v = (sent - ok) as f64 / sent as f64 * 100.0;
        (
            v,
            success.map(|i| Interval {
                lo: (1.0 - i.hi) * 100.0,
                hi: (1.0 - i.lo) * 100.0,
            }),
        )
    } else {
        let v = ok as f64 / sent as f64 * 100.0;
        (
            v,
            success.map(|i| Interval {
                lo: i.lo * 100.0,
                hi: i.hi * 100.0,
            }),
        )
    };
    Ok(Computed {
        is_number: true,
        priced: None,
        value,
        text: format::with_unit(value, "%"),
        unit: "%".to_string(),
        source: format!(
            "{ok} of {sent} requests of {} succeeded, over {counted} run{}{}",
            ctx.display(config).0,
            format::plural(counted),
            interval.map_or(String::new(), |i| format!("; {}", i.text("%")))
        ),
        noise: ValueNoise {
            interval,
            runs: 0,
            from: Vec::new(),
        },
    })
}

/// `expr` computed by `eval`, when it is a number; `function` names the caller in the error.
fn number(
    ctx: &ReportContext<'_>,
    expr: &Expr,
    function: &str,
    eval: Evaluate,
) -> Result<Computed, String> {
    let c = eval(ctx, expr)?;
    if c.is_number {
        Ok(c)
    } else {
        Err(format!(
            "`{function}` needs a number, but the value is {}",
            c.text
        ))
    }
}
