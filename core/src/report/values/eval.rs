//! The evaluator: an expression's function dispatched to its computation ([`eval`]), with the
//! functions simple enough to live beside it (`value`, `max`, `min`, `ratio`, `pct`, `cv`,
//! `per_day`, `slope`); the rest have files of their own.

use super::computed::{compared_interval, computed, Computed, Priced, ValueNoise};
use super::derived;
use super::fitted;
use super::lookup::{config_runs, parse_quantity, run_at_load};
use super::parse::Expr;
use super::sweep;
use super::window;
use crate::compare::Comparison;
use crate::format;
use crate::report::context::ReportContext;

/// Computes `expr`.
pub(super) fn eval(ctx: &ReportContext<'_>, expr: &Expr) -> Result<Computed, String> {
    let Expr::Call(name, args) = expr else {
        let Expr::Word(word) = expr else {
            unreachable!()
        };
        return Err(format!(
            "`{word}` is not an expression; expected value(…), max(…), min(…), ratio(…), \
             pct(…), share(…), diff(…), seconds(…), cv(…), per_day(…), slope(…), fit(…), \
             window(…), requests(…), overall(…), stable(…), breaking(…) or claim(…)"
        ));
    };
    let words = |n: usize, usage: &str| -> Result<Vec<&str>, String> {
        let words: Vec<&str> = args
            .iter()
            .filter_map(|a| match a {
                Expr::Word(w) => Some(w.as_str()),
                Expr::Call(..) => None,
            })
            .collect();
        if words.len() == args.len() && words.len() == n {
            Ok(words)
        } else {
            Err(format!("expected `{usage}`"))
        }
    };
    match name.as_str() {
        "value" => {
            let w = words(3, "value(<quantity>, <configuration>, <load>)")?;
            value_at(ctx, w[0], w[1], w[2])
        }
        "max" | "min" => {
            let w = words(2, &format!("{name}(<quantity>, <configuration>)"))?;
            extreme(ctx, w[0], w[1], name == "max")
        }
        "ratio" | "pct" => ratio_or_pct(ctx, name, args),
        "cv" => {
            let w = words(3, "cv(<metric>, <configuration>, <load>)")?;
            cv(ctx, w[0], w[1], w[2])
        }
        "slope" => {
            let w = words(
                4,
                "slope(<latency>, output_tokens|input_tokens, <configuration>, <load>)",
            )?;
            slope(ctx, w[0], w[1], w[2], w[3])
        }
        "per_day" => per_day(ctx, args),
        "seconds" => derived::seconds(ctx, args, eval),
        "diff" => derived::diff(ctx, args, eval),
        "share" => derived::share(ctx, args, eval),
        "fit" => fitted::fit(ctx, args),
        "window" => window::window(ctx, args),
        "requests" => {
            let w = words(2, "requests(<configuration>, <load>)")?;
            derived::requests(ctx, w[0], w[1])
        }
        "overall" => {
            let w = words(2, "overall(success_rate|error_rate, <configuration>)")?;
            derived::overall(ctx, w[0], w[1])
        }
        "stable" | "breaking" => sweep::stable_or_breaking(ctx, name, args),
        "claim" => Err("`claim(…)` cannot be inside another expression".into()),
        other => Err(format!(
            "unknown function `{other}`; expected value, max, min, ratio, pct, share, diff, \
             seconds, cv, per_day, slope, fit, window, requests, overall, stable, breaking \
             or claim"
        )),
    }
}

/// `ratio(a, b)`: `a` over `b`, as `13x`; or `pct(a, b)`: how much lower `a` is than `b`,
/// in percent.
fn ratio_or_pct(ctx: &ReportContext<'_>, name: &str, args: &[Expr]) -> Result<Computed, String> {
    let [a, b] = args else {
        return Err(format!("expected `{name}(<expression>, <expression>)`"));
    };
    let comparison = Comparison::named(name).expect("called for ratio and pct only");
    let (a, b) = (eval(ctx, a)?, eval(ctx, b)?);
    if let Some(finding) = [&a, &b].into_iter().find(|c| !c.is_number) {
        return Err(format!(
            "`{name}` needs numbers, but one value is {}",
            finding.text
        ));
    }
    let value = comparison
        .of(a.value, b.value)
        .ok_or_else(|| format!("`{name}`: the second value ({}) is zero", b.text))?;
    let cost_key = |c: &Computed| match &c.priced {
        Some(Priced::Cost(key)) => Some(key.clone()),
        _ => None,
    };
    let (key_a, key_b) = (cost_key(&a), cost_key(&b));
    let priced = (key_a.is_some() || key_b.is_some()).then_some(Priced::Compared(
        comparison,
        [(key_a, a.value), (key_b, b.value)],
    ));
    let interval = compared_interval(comparison, &a, &b);
    let source = format!("{} against {}", a.source, b.source);
    let interval_text = |i: crate::noise::Interval| match comparison {
        Comparison::Ratio => {
            format!("95% CI {}–{}", comparison.text(i.lo), comparison.text(i.hi))
        }
        Comparison::PercentLower => i.percent_text(),
    };
    Ok(Computed {
        is_number: true,
        priced,
        value,
        text: comparison.text(value),
        unit: match comparison {
            Comparison::Ratio => "x".to_string(),
            Comparison::PercentLower => "%".to_string(),
        },
        source: match interval {
            Some(i) => format!("{source}; {}", interval_text(i)),
            None => source,
        },
        noise: ValueNoise {
            interval,
            runs: 0,
            from: a.noise.from.iter().chain(&b.noise.from).cloned().collect(),
        },
    })
}

/// `cv(metric, configuration, load)`: the coefficient of variation, the standard deviation
/// over the mean, in percent.
fn cv(ctx: &ReportContext<'_>, metric: &str, config: &str, load: &str) -> Result<Computed, String> {
    let mean = value_at(ctx, &format!("{metric}:mean"), config, load)?;
    let std = value_at(ctx, &format!("{metric}:std"), config, load)?;
    if mean.value == 0.0 {
        return Err(format!("`cv`: the mean of {metric} is zero"));
    }
    let value = std.value / mean.value * 100.0;
    Ok(Computed {
        is_number: true,
        priced: None,
        value,
        text: format!("{}%", format::fixed(value, 1)),
        unit: "%".to_string(),
        source: format!("{} ÷ {}", std.source, mean.source),
        noise: ValueNoise::default(),
    })
}

/// `per_day(expr)`: a rate over a day, in requests or tokens when it is one.
fn per_day(ctx: &ReportContext<'_>, args: &[Expr]) -> Result<Computed, String> {
    let [a] = args else {
        return Err("expected `per_day(<expression>)`".into());
    };
    let a = eval(ctx, a)?;
    if !a.is_number {
        return Err(format!(
            "`per_day` needs a number, but the value is {}",
            a.text
        ));
    }
    // Only a rate per second makes a day's worth: a latency in ms times 86,400 is nothing.
    let per = match a.unit.as_str() {
        "req/s" => " requests per day",
        "tok/s" => " tokens per day",
        "tok/s/GPU" => " tokens per GPU per day",
        "tok/s/user" => " tokens per user per day",
        "" => " per day",
        unit => {
            return Err(format!(
                "`per_day` needs a rate per second (req/s, tok/s, tok/s/GPU, tok/s/user) or a \
                 plain number, but the value is {} ({unit})",
                a.text
            ))
        }
    };
    let value = a.value * 86_400.0;
    Ok(Computed {
        is_number: true,
        priced: None,
        value,
        text: format!("{}{per}", format::fixed(value, 0)),
        unit: String::new(),
        source: format!("{} × 86,400 s", a.source),
        noise: ValueNoise::default(),
    })
}

/// `value(quantity, config, load)`: one run's value, with its interval.
fn value_at(
    ctx: &ReportContext<'_>,
    quantity: &str,
    config: &str,
    load: &str,
) -> Result<Computed, String> {
    let q = parse_quantity(quantity)?;
    let run = run_at_load(ctx, config, load)?;
    let value = q.of(run).ok_or_else(|| {
        format!(
            "`{config}` at {} does not report {q}{}",
            run.load.target,
            q.lacking(run)
        )
    })?;
    Ok(computed(ctx, q, value, config, run))
}

/// The slope of the tokens chart's line for `config` at `load`, in ms per token.
fn slope(
    ctx: &ReportContext<'_>,
    metric: &str,
    tokens: &str,
    config: &str,
    load: &str,
) -> Result<Computed, String> {
    let run = run_at_load(ctx, config, load)?;
    let (fit, noun) = crate::analysis::token_fit::fit(run, tokens, metric)?;
    Ok(Computed {
        is_number: true,
        priced: None,
        value: fit.slope,
        text: format!("{} ms per {noun}", format::number(fit.slope)),
        unit: "ms/tok".to_string(),
        source: format!(
            "least-squares line through {} requests of {} (R² {})",
            fit.n,
            run.source(),
            format::fixed(fit.r2, 2)
        ),
        noise: ValueNoise::default(),
    })
}

/// `max(…)` or `min(…)`: the largest or smallest value of `quantity` over a configuration's
/// runs.
fn extreme(
    ctx: &ReportContext<'_>,
    quantity: &str,
    config: &str,
    largest: bool,
) -> Result<Computed, String> {
    let q = parse_quantity(quantity)?;
    let runs = config_runs(ctx, config)?;
    let best = runs
        .iter()
        .filter_map(|r| q.of(r).map(|v| (v, *r)))
        .reduce(|a, b| {
            let b_wins = if largest { b.0 > a.0 } else { b.0 < a.0 };
            if b_wins {
                b
            } else {
                a
            }
        })
        .ok_or_else(|| format!("no run of `{config}` reports {q}"))?;
    Ok(computed(ctx, q, best.0, config, best.1))
}
