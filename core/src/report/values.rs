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
//!
//! This file renders a value for the page; `values/eval.rs` dispatches an expression to its
//! computation, `values/computed.rs` says what it computes to and `values/lookup.rs` finds the
//! runs it names. The functions that compute their arguments are given the evaluator, so no
//! file here names the one that calls it.

use super::context::ReportContext;
use crate::compare::Comparison;
pub(super) use crate::html::escape;
use crate::problem::Severity;

/// What an inline value became: HTML for the page, and a problem when there is one.
#[derive(Debug, Clone, PartialEq)]
pub struct Inline {
    /// A `<span>` (escaped; sanitised with the rest of the page).
    pub html: String,
    /// An error (the expression cannot be computed) or a warning (the prose says something the
    /// data does not).
    pub problem: Option<(Severity, String)>,
}

mod computed;
mod derived;
mod eval;
mod fitted;
mod lookup;
mod parse;
pub(super) mod sweep;
mod window;

pub use computed::{Computed, Priced};
use eval::eval;
pub(super) use lookup::parse_quantity;
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
