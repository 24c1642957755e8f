//! Inline values: `` `=expression` `` in a report's prose, computed from its runs, so a number
//! in the text cannot drift from the data it describes.
//!
//! | expression | value |
//! |---|---|
//! | `value(ttft:p50, vllm, 10)` | a quantity of one configuration at one load point |
//! | `max(output_throughput, vllm)`, `min(ttft:p99, vllm)` | the largest or smallest over the configuration's sweep |
//! | `ratio(A, B)` | A ÷ B, shown as `12.9x` |
//! | `pct(A, B)` | (B − A) ÷ B, in percent: how much lower A is than B (`faster by`) |
//! | `stable(vllm)`, `stable(vllm, ttft:p99 <= 2000)` | the highest load up to which every load point had no failed request (and met the condition) |
//! | `breaking(vllm)` | the first load where 5% of requests fail or TTFT p99 triples (the chart's breaking point) |
//! | `cv(ttft, vllm, 10)` | the coefficient of variation, std ÷ mean, in percent |
//! | `per_day(A)` | A × 86,400: a rate per second as a daily capacity (`request_throughput` → requests per day) |
//! | `slope(e2e, output_tokens, vllm, 4)` | the tokens chart's line: ms of a per-request latency (`e2e`, `ttft`, `tpot`) per output (or `input_tokens`) token, fitted to the successful requests at that load |
//! | `share(A, B)` | A ÷ B in percent: the part A is of B (`85%`; `values/derived.rs`) |
//! | `diff(A, B)` | A − B, in their one unit |
//! | `seconds(A)` | a value in ms in seconds (`10.47 s`), so `claim(10.47 s, …)` compares like with like |
//! | `requests(vllm, 10)` | the requests a run sent (`num_prompts`): `1,200 requests` |
//! | `overall(success_rate, vllm)` | the share of every request of the configuration's runs that succeeded (or `error_rate`) |
//! | `fit(e2e:mean, output_tokens, a, b, c)` | the least-squares slope of a quantity against the runs' mean output (or `input_tokens`) counts over the configurations named: `10.18 ms per output token` (`values/fitted.rs`) |
//! | `window(p95, vllm, 2, median)` | one number of a run's time windows, as a `windows` chart cuts them: `median`, `min`, `max`, `first`, `last` or `slowest` (highest p95) window's `p50`…`p99` or `tok_s` (`values/window.rs`) |
//! | `claim(13x, ratio(A, B))` | shows the typed `13x`; a warning, and a mark on the page, when the data gives another number at that precision |
//!
//! Quantities are those of chart blocks (`ttft:p50`, `output_tok_s_per_user`, `success_rate`…);
//! A and B are any expression. An expression naming data that does not exist is an error at its
//! line; the page shows the expression marked instead of a number.

use super::context::ReportContext;
use super::load::{parse_load, same, LoadKind};
use crate::compare::Comparison;
use crate::format;
pub(super) use crate::html::escape;
use crate::model::Run;
use crate::problem::Severity;
use crate::quantity::Quantity;

/// A computed value.
#[derive(Debug, Clone, PartialEq)]
pub struct Computed {
    /// The number.
    pub value: f64,
    /// False when the value is a finding rather than a number ("none"): arithmetic refuses it.
    pub is_number: bool,
    /// How it is shown: `406 ms`, `12.9x`, `10 req/s`.
    pub text: String,
    /// The unit of `value` (`ms`, `%`, `$ per million output tokens`); empty for a count or
    /// a finding. `seconds`, `diff` and `share` check it.
    pub unit: String,
    /// Where it comes from, for the tooltip.
    pub source: String,
    /// How it follows a reader's own prices (`cost::sheet`), when it is or compares a cost.
    pub priced: Option<Priced>,
    /// How sure it is, and what it compares.
    pub noise: ValueNoise,
}

/// What an inline value knows of its noise: its 95% interval, how many runs it combines, and
/// the runs a comparison sets side by side (for the workload note).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ValueNoise {
    /// The value's 95% interval, when the data bounds it.
    pub interval: Option<crate::noise::Interval>,
    /// How many runs the value's run combines (a load point measured several times); 0 or 1
    /// for one run.
    pub runs: usize,
    /// The runs a value was read from, each with its configuration's name shown (index into
    /// the report's runs), so a comparison can say how their workloads differ.
    pub from: Vec<(String, usize)>,
}

/// How a computed value follows a reader's own prices: what the page needs to show it at their
/// rates (`app/src/components/prices.rs`).
#[derive(Debug, Clone, PartialEq)]
pub enum Priced {
    /// A cost of this configuration: proportional to its price.
    Cost(String),
    /// `ratio` or `pct` of two values, one or both a cost: each side's configuration when it is
    /// a cost, and its value. (A comparison of comparisons stays as the build computed it.)
    Compared(Comparison, [(Option<String>, f64); 2]),
}

/// What an inline value became: HTML for the page, and a problem when there is one.
#[derive(Debug, Clone, PartialEq)]
pub struct Inline {
    /// A `<span>` (escaped; sanitised with the rest of the page).
    pub html: String,
    /// An error (the expression cannot be computed) or a warning (the prose says something the
    /// data does not).
    pub problem: Option<(Severity, String)>,
}

mod derived;
mod fitted;
mod parse;
pub(super) mod sweep;
mod window;

use parse::{parse, Expr};
pub(super) use sweep::stable_run;

/// Renders the inline value `` `=text` `` (without the `=`).
pub fn inline(ctx: &ReportContext<'_>, text: &str) -> Inline {
    let result = parse(text).and_then(|expr| match &expr {
        Expr::Call(name, args) if name == "claim" => claim(ctx, args),
        _ => eval(ctx, &expr).map(|c| (c, None)),
    });
    match result {
        Ok((computed, None)) => {
            let (note, problem) = value_notes(ctx, &computed);
            Inline {
                html: span(
                    "value",
                    &computed.source,
                    &format!("{}{note}", priced_text(&computed, true)),
                ),
                problem,
            }
        }
        Ok((computed, Some((typed, message)))) => Inline {
            html: span(
                "value value-contradicted",
                &message,
                &format!(
                    "{} <small>(data: {})</small>",
                    escape(&typed),
                    escape(&computed.text)
                ),
            ),
            problem: Some((Severity::Warning, message)),
        },
        Err(e) => Inline {
            html: span("value value-error", &e, &format!("⚠ {}", escape(text))),
            problem: Some((Severity::Error, format!("inline value `={text}`: {e}"))),
        },
    }
}

/// What an inline value adds after its number: how many runs it combines (`(3 runs)`),
/// and, for a comparison of runs whose workloads differ, a note naming the difference,
/// which the build warns about too.
fn value_notes(
    ctx: &ReportContext<'_>,
    computed: &Computed,
) -> (String, Option<(Severity, String)>) {
    let mut note = String::new();
    if computed.noise.runs > 1 {
        note += &format!(" <small>({} runs)</small>", computed.noise.runs);
    }
    let side_by_side = vec![computed
        .noise
        .from
        .iter()
        .filter_map(|(name, i)| Some((name.as_str(), *ctx.runs.get(*i)?)))
        .collect::<Vec<_>>()];
    let differences = crate::model::differences::among(&side_by_side);
    let short = crate::model::differences::short_note(&differences);
    match (crate::model::differences::note(&differences), short) {
        (Some(text), Some(short)) => {
            note += &format!(
                " <small class=\"workload-differs\" title=\"{}\">({})</small>",
                escape(&text),
                escape(&short)
            );
            let warning = format!("an inline value compares runs whose workloads differ: {text}");
            (note, Some((Severity::Warning, warning)))
        }
        _ => (note, None),
    }
}

/// Computes the expression `text` (any but `claim`, which needs prose to check): for
/// blocks that show values, such as tiles.
pub(super) fn compute(ctx: &ReportContext<'_>, text: &str) -> Result<Computed, String> {
    match parse(text)? {
        Expr::Call(name, _) if name == "claim" => {
            Err("`claim(…)` checks a number in prose; here, give the expression alone".into())
        }
        expr => eval(ctx, &expr),
    }
}

/// `claim(typed, expr)`: the computed value, and the typed text with a message when they
/// disagree at the typed precision.
fn claim(
    ctx: &ReportContext<'_>,
    args: &[Expr],
) -> Result<(Computed, Option<(String, String)>), String> {
    let [Expr::Word(typed), expr] = args else {
        return Err("expected `claim(<the number as written>, <expression>)`".into());
    };
    let computed = eval(ctx, expr)?;
    let (number, decimals) = typed_number(typed).ok_or_else(|| {
        format!("`claim({typed}, …)`: expected a number as written, such as `13x` or `5,028 ms`")
    })?;
    let tolerance = 0.5 * 10f64.powi(-(decimals as i32)) + 1e-9;
    let within_noise = computed
        .noise
        .interval
        .filter(|i| i.contains(number))
        .map(|i| i.text(""));
    let agrees = match typed.trim_start().chars().next() {
        Some('<') => computed.value < number,
        Some('>') => computed.value > number,
        _ => (computed.value - number).abs() <= tolerance || within_noise.is_some(),
    };
    if agrees {
        let data = match within_noise {
            Some(ci) if (computed.value - number).abs() > tolerance => {
                format!("{} in the data, {ci}", computed.text)
            }
            _ => format!("{} in the data", computed.text),
        };
        let shown = Computed {
            text: typed.clone(),
            source: format!("{} ({data})", computed.source),
            ..computed
        };
        return Ok((shown, None));
    }
    let message = format!(
        "the prose says {typed}, but the data gives {} ({})",
        computed.text, computed.source
    );
    Ok((computed, Some((typed.clone(), message))))
}

/// Computes `expr`.
fn eval(ctx: &ReportContext<'_>, expr: &Expr) -> Result<Computed, String> {
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
        "seconds" => derived::seconds(ctx, args),
        "diff" => derived::diff(ctx, args),
        "share" => derived::share(ctx, args),
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
    let per = if a.text.ends_with("req/s") {
        " requests per day"
    } else if a.text.ends_with("tok/s") {
        " tokens per day"
    } else {
        " per day"
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

/// The runs of a configuration named in an expression, or an error listing the known ones.
fn config_runs<'c>(ctx: &'c ReportContext<'_>, config: &str) -> Result<Vec<&'c Run>, String> {
    ctx.config_keys(Some(&[config.to_string()]))?;
    Ok(ctx.runs_of(config))
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

/// The run of `config` at `load` (written as in a chart block: `4`, `4 req/s`,
/// `concurrency 16`).
fn run_at_load<'c>(
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

/// A value of `run` as an inline value shows it: the number, its interval and where it came from.
fn computed(ctx: &ReportContext<'_>, q: Quantity, value: f64, config: &str, run: &Run) -> Computed {
    let estimate = crate::noise::estimate(q, run).filter(|e| e.value == value);
    let interval = estimate
        .and_then(|e| e.interval_text(q.unit()))
        .map_or(String::new(), |ci| format!("; {ci}"));
    let name = ctx.display(config).0;
    Computed {
        is_number: true,
        priced: crate::cost::is_cost(q).then(|| Priced::Cost(config.to_string())),
        value,
        text: format::with_unit(value, q.prose_unit()),
        unit: q.prose_unit().to_string(),
        source: format!(
            "{q} of {name} at {} ({}){interval}",
            run.load.target,
            run.source()
        ),
        noise: ValueNoise {
            interval: estimate.and_then(|e| e.interval.map(|(i, _)| i)),
            runs: run.repeats.as_ref().map_or(1, |r| r.count),
            from: ctx
                .runs
                .iter()
                .position(|r| std::ptr::eq(*r, run))
                .map(|i| (name, i))
                .into_iter()
                .collect(),
        },
    }
}

/// The 95% interval of `ratio(a, b)` (a ÷ b) or `pct(a, b)` ((b − a) ÷ b, in percent), when
/// both sides have one.
pub(super) fn compared_interval(
    comparison: Comparison,
    a: &Computed,
    b: &Computed,
) -> Option<crate::noise::Interval> {
    let ratio =
        crate::noise::Ratio::between((b.value, b.noise.interval), (a.value, a.noise.interval))?;
    let i = ratio.interval?;
    Some(match comparison {
        Comparison::Ratio => i,
        Comparison::PercentLower => crate::noise::Interval {
            lo: (1.0 - i.hi) * 100.0,
            hi: (1.0 - i.lo) * 100.0,
        },
    })
}

/// A quantity as written in expressions and tables: `ttft:p50`, `output_throughput`.
pub(super) fn parse_quantity(text: &str) -> Result<Quantity, String> {
    let (metric, stat) = match text.split_once(':') {
        Some((m, s)) => (m, Some(s)),
        None => (text, None),
    };
    Quantity::parse(metric, stat)
}

/// A number as typed in prose (`13x`, `5,028 ms`, `64.7%`, `~85`, `$1.23 per million output
/// tokens`): its value and decimals.
fn typed_number(text: &str) -> Option<(f64, usize)> {
    let rest = text
        .trim_start()
        .trim_start_matches(['~', '<', '>', '≈'])
        .trim_start()
        .trim_start_matches('$');
    if !rest.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        return None;
    }
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '-'))
        .filter(|c| *c != ',')
        .collect();
    let value: f64 = digits.parse().ok()?;
    let decimals = digits.split_once('.').map_or(0, |(_, d)| d.len());
    Some((value, decimals))
}

/// The escaped text of `computed`; a cost is wrapped by [`priced_span`], a comparison of costs
/// by [`compared_span`].
pub(super) fn priced_text(computed: &Computed, with_unit: bool) -> String {
    match &computed.priced {
        Some(Priced::Cost(key)) if computed.is_number && with_unit => {
            priced_span(key, computed.value, &computed.text, &computed.unit, None)
        }
        Some(Priced::Cost(key)) if computed.is_number => {
            priced_number(key, computed.value, &computed.text)
        }
        Some(Priced::Compared(comparison, sides)) => {
            compared_span(*comparison, sides, &computed.text)
        }
        _ => escape(&computed.text),
    }
}

/// `text`, `ratio` or `pct` of two values of which one or both is a cost, in a
/// `<span data-compare=… data-price-a=… data-value-a=… data-value-b=…>` so the page can compute it
/// again at the reader's rates (`data-price-b` too when the second is a cost).
fn compared_span(comparison: Comparison, sides: &[(Option<String>, f64); 2], text: &str) -> String {
    let mut attributes = format!("data-compare=\"{}\"", comparison.name());
    for ((key, value), side) in sides.iter().zip(["a", "b"]) {
        if let Some(key) = key {
            attributes += &format!(" data-price-{side}=\"{}\"", escape(key));
        }
        attributes += &format!(" data-value-{side}=\"{value}\"");
    }
    format!("<span {attributes}>{}</span>", escape(text))
}

/// `text`, a cost of configuration `key` worth `value` in `unit` (`$/1M tok` in a table, `$ per
/// million output tokens` in prose), in a `<span data-price=… data-usd=…>` so the page can show
/// it at the reader's rates, with its unit (`data-unit`) and, for a table whose figures all have
/// `decimals` digits, that number (`data-decimals`).
pub(super) fn priced_span(
    key: &str,
    value: f64,
    text: &str,
    unit: &str,
    decimals: Option<usize>,
) -> String {
    let decimals = decimals.map_or(String::new(), |d| format!(" data-decimals=\"{d}\""));
    format!(
        "<span data-price=\"{}\" data-usd=\"{value}\" data-unit=\"{}\"{decimals}>{}</span>",
        escape(key),
        escape(unit),
        escape(text)
    )
}

/// A cost's number alone (a tile's, whose unit is written beside it: `$1.23` and `/1M tok`),
/// in a `<span data-price=… data-usd=… data-unit="$">` for the page to show at the reader's
/// rates.
fn priced_number(key: &str, value: f64, text: &str) -> String {
    format!(
        "<span data-price=\"{}\" data-usd=\"{value}\" data-unit=\"$\">{}</span>",
        escape(key),
        escape(text)
    )
}

/// `<span class=… title=…>html</span>`; `title` is escaped here.
fn span(class: &str, title: &str, html: &str) -> String {
    format!(
        "<span class=\"{class}\" title=\"{}\">{html}</span>",
        escape(title)
    )
}
