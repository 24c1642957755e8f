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
//! | `claim(13x, ratio(A, B))` | shows the typed `13x`; a warning, and a mark on the page, when the data gives another number at that precision |
//!
//! Quantities are those of chart blocks (`ttft:p50`, `output_tok_s_per_user`, `success_rate`…);
//! A and B are any expression. An expression naming data that does not exist is an error at its
//! line; the page shows the expression marked instead of a number.

use super::context::ReportContext;
use super::load::{parse_load, same, LoadKind};
use crate::analysis::{breaking_point, BreakingRule, LoadObservation};
use crate::format;
pub(super) use crate::html::escape;
use crate::model::{Metric, Run, Stat};
use crate::problem::Severity;
use crate::quantity::{Better, Quantity};

/// A computed value.
#[derive(Debug, Clone, PartialEq)]
pub struct Computed {
    /// The number.
    pub value: f64,
    /// False when the value is a finding rather than a number ("none"): arithmetic refuses it.
    pub is_number: bool,
    /// How it is shown: `406 ms`, `12.9x`, `10 req/s`.
    pub text: String,
    /// Where it comes from, for the tooltip.
    pub source: String,
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

/// Where the word at the start of `text` ends: at `,`, `(` or `)`, except that a comma
/// grouping thousands (`5,028`: a digit before, three digits and no fourth after) is part of it.
fn word_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        // Only a word that is a number so far (`5,028`, `~1,048`), not `h100,256`.
        let numeric = bytes[..i]
            .iter()
            .all(|c| c.is_ascii_digit() || b",.~<> ".contains(c));
        let grouping = b == b',' && numeric && i > 0 && bytes[i - 1].is_ascii_digit() && {
            let after = &bytes[i + 1..];
            after.len() >= 3
                && after[..3].iter().all(u8::is_ascii_digit)
                && !after.get(3).is_some_and(u8::is_ascii_digit)
        };
        if matches!(b, b',' | b'(' | b')') && !grouping {
            return i;
        }
    }
    text.len()
}

/// A parsed expression: a function applied to arguments, or a bare word.
#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Call(String, Vec<Expr>),
    Word(String),
}

/// Parses `name(arg, ...)`, where an argument is an expression or a word (anything without
/// `,`, `(` or `)`).
fn parse(text: &str) -> Result<Expr, String> {
    let (expr, rest) = parse_at(text, 0)?;
    if !rest.trim().is_empty() {
        return Err(format!("unexpected `{}` after the expression", rest.trim()));
    }
    Ok(expr)
}

/// Expressions nest at most this deep (`ratio(max(…), max(…))` is 2).
const MAX_DEPTH: usize = 16;

fn parse_at(text: &str, depth: usize) -> Result<(Expr, &str), String> {
    if depth > MAX_DEPTH {
        return Err(format!("expressions nest at most {MAX_DEPTH} deep"));
    }
    let text = text.trim_start();
    let end = word_end(text);
    let word = text[..end].trim();
    if word.is_empty() {
        return Err("expected a value or a function such as `value(ttft:p50, vllm, 10)`".into());
    }
    let rest = &text[end..];
    let Some(mut rest) = rest.strip_prefix('(') else {
        return Ok((Expr::Word(word.to_string()), rest));
    };
    let mut args = Vec::new();
    loop {
        let (arg, after) = parse_at(rest, depth + 1)?;
        args.push(arg);
        let after = after.trim_start();
        if let Some(next) = after.strip_prefix(',') {
            rest = next;
        } else if let Some(next) = after.strip_prefix(')') {
            return Ok((Expr::Call(word.to_ascii_lowercase(), args), next));
        } else {
            return Err(format!("`{word}(`: expected `,` or `)`"));
        }
    }
}

impl ReportContext<'_> {
    /// Renders the inline value `` `=text` `` (without the `=`).
    pub fn inline(&self, text: &str) -> Inline {
        let result = parse(text).and_then(|expr| match &expr {
            Expr::Call(name, args) if name == "claim" => self.claim(args),
            _ => self.eval(&expr).map(|c| (c, None)),
        });
        match result {
            Ok((computed, None)) => Inline {
                html: span("value", &computed.source, &escape(&computed.text)),
                problem: None,
            },
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

    /// `claim(typed, expr)`: the computed value, and the typed text with a message when they
    /// disagree at the typed precision.
    fn claim(&self, args: &[Expr]) -> Result<(Computed, Option<(String, String)>), String> {
        let [Expr::Word(typed), expr] = args else {
            return Err("expected `claim(<the number as written>, <expression>)`".into());
        };
        let computed = self.eval(expr)?;
        let (number, decimals) = typed_number(typed).ok_or_else(|| {
            format!(
                "`claim({typed}, …)`: expected a number as written, such as `13x` or `5,028 ms`"
            )
        })?;
        let tolerance = 0.5 * 10f64.powi(-(decimals as i32)) + 1e-9;
        let agrees = match typed.trim_start().chars().next() {
            Some('<') => computed.value < number,
            Some('>') => computed.value > number,
            _ => (computed.value - number).abs() <= tolerance,
        };
        if agrees {
            let shown = Computed {
                text: typed.clone(),
                source: format!("{} ({} in the data)", computed.source, computed.text),
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
    fn eval(&self, expr: &Expr) -> Result<Computed, String> {
        let Expr::Call(name, args) = expr else {
            let Expr::Word(word) = expr else {
                unreachable!()
            };
            return Err(format!(
                "`{word}` is not an expression; expected value(…), max(…), min(…), ratio(…), \
                 pct(…), cv(…), per_day(…), slope(…), stable(…), breaking(…) or claim(…)"
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
                self.value_at(w[0], w[1], w[2])
            }
            "max" | "min" => {
                let w = words(2, &format!("{name}(<quantity>, <configuration>)"))?;
                self.extreme(w[0], w[1], name == "max")
            }
            "ratio" | "pct" => {
                let [a, b] = args.as_slice() else {
                    return Err(format!("expected `{name}(<expression>, <expression>)`"));
                };
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                if let Some(finding) = [&a, &b].into_iter().find(|c| !c.is_number) {
                    return Err(format!(
                        "`{name}` needs numbers, but one value is {}",
                        finding.text
                    ));
                }
                if b.value == 0.0 {
                    return Err(format!("`{name}`: the second value ({}) is zero", b.text));
                }
                let source = format!("{} against {}", a.source, b.source);
                Ok(if name == "ratio" {
                    let value = a.value / b.value;
                    Computed {
                        is_number: true,
                        value,
                        text: format!("{}x", format::number(round_for_ratio(value))),
                        source,
                    }
                } else {
                    let value = (b.value - a.value) / b.value * 100.0;
                    Computed {
                        is_number: true,
                        value,
                        text: format!("{}%", format::fixed(value, 1)),
                        source,
                    }
                })
            }
            "cv" => {
                let w = words(3, "cv(<metric>, <configuration>, <load>)")?;
                let mean = self.value_at(&format!("{}:mean", w[0]), w[1], w[2])?;
                let std = self.value_at(&format!("{}:std", w[0]), w[1], w[2])?;
                if mean.value == 0.0 {
                    return Err(format!("`cv`: the mean of {} is zero", w[0]));
                }
                let value = std.value / mean.value * 100.0;
                Ok(Computed {
                    is_number: true,
                    value,
                    text: format!("{}%", format::fixed(value, 1)),
                    source: format!("{} ÷ {}", std.source, mean.source),
                })
            }
            "slope" => {
                let w = words(
                    4,
                    "slope(<latency>, output_tokens|input_tokens, <configuration>, <load>)",
                )?;
                self.slope(w[0], w[1], w[2], w[3])
            }
            "per_day" => {
                let [a] = args.as_slice() else {
                    return Err("expected `per_day(<expression>)`".into());
                };
                let a = self.eval(a)?;
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
                    value,
                    text: format!("{}{per}", format::fixed(value, 0)),
                    source: format!("{} × 86,400 s", a.source),
                })
            }
            "stable" | "breaking" => {
                let usage = format!(
                    "expected `{name}(<configuration>)`, optionally with the sweep (`rate` or \
                     `concurrency`){}",
                    if name == "stable" {
                        " and a condition such as `ttft:p99 <= 2000`"
                    } else {
                        ""
                    }
                );
                let mut words = args.iter().map(|a| match a {
                    Expr::Word(w) => Ok(w.as_str()),
                    Expr::Call(..) => Err(usage.clone()),
                });
                let config = words.next().ok_or_else(|| usage.clone())??;
                let (mut kind, mut condition) = (None, None);
                for word in words {
                    let word = word?;
                    match LoadKind::parse(word) {
                        Some(k) if kind.is_none() => kind = Some(k),
                        None if condition.is_none() && name == "stable" => condition = Some(word),
                        _ => return Err(usage),
                    }
                }
                let runs = self.sweep(config, kind, name)?;
                if name == "stable" {
                    self.stable(config, &runs, condition)
                } else {
                    self.breaking(config, &runs)
                }
            }
            "claim" => Err("`claim(…)` cannot be inside another expression".into()),
            other => Err(format!(
                "unknown function `{other}`; expected value, max, min, ratio, pct, cv, per_day, \
                 slope, stable, breaking or claim"
            )),
        }
    }

    /// The runs of a configuration named in an expression, or an error listing the known ones.
    fn config_runs(&self, config: &str) -> Result<Vec<&Run>, String> {
        self.config_keys(Some(&[config.to_string()]))?;
        Ok(self.runs_of(config))
    }

    /// The runs of one sweep of `config`: those of `kind`, or all when they are of one kind.
    fn sweep(
        &self,
        config: &str,
        kind: Option<LoadKind>,
        function: &str,
    ) -> Result<Vec<&Run>, String> {
        let runs = self.config_runs(config)?;
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

    fn value_at(&self, quantity: &str, config: &str, load: &str) -> Result<Computed, String> {
        let q = parse_quantity(quantity)?;
        let run = self.run_at_load(config, load)?;
        let value = q
            .of(run)
            .ok_or_else(|| format!("`{config}` at {} does not report {q}", run.load.target))?;
        Ok(self.computed(q, value, config, run))
    }

    /// The slope of the tokens chart's line for `config` at `load`, in ms per token.
    fn slope(
        &self,
        metric: &str,
        tokens: &str,
        config: &str,
        load: &str,
    ) -> Result<Computed, String> {
        let run = self.run_at_load(config, load)?;
        let (fit, noun) = super::charts::tokens::fit(run, tokens, metric)?;
        Ok(Computed {
            is_number: true,
            value: fit.slope,
            text: format!("{} ms per {noun}", format::number(fit.slope)),
            source: format!(
                "least-squares line through {} requests of {} (R² {})",
                fit.n,
                run.provenance,
                format::fixed(fit.r2, 2)
            ),
        })
    }

    /// The run of `config` at `load` (written as in a chart block: `4`, `4 req/s`,
    /// `concurrency 16`).
    fn run_at_load(&self, config: &str, load: &str) -> Result<&Run, String> {
        let (target, kind) = parse_load(load)?;
        let runs = self.config_runs(config)?;
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

    fn extreme(&self, quantity: &str, config: &str, largest: bool) -> Result<Computed, String> {
        let q = parse_quantity(quantity)?;
        let runs = self.config_runs(config)?;
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
        Ok(self.computed(q, best.0, config, best.1))
    }

    fn computed(&self, q: Quantity, value: f64, config: &str, run: &Run) -> Computed {
        Computed {
            is_number: true,
            value,
            text: format::with_unit(value, q.unit()),
            source: format!(
                "{q} of {} at {} ({})",
                self.display(config).0,
                run.load.target,
                run.provenance
            ),
        }
    }

    /// The highest load up to which every load point of `config` had no failed request and
    /// met `condition` (`<quantity> <= <limit>` or `>=`).
    fn stable(
        &self,
        config: &str,
        runs: &[&Run],
        condition: Option<&str>,
    ) -> Result<Computed, String> {
        let condition = condition.map(parse_condition).transpose()?;
        let mut last: Option<&Run> = None;
        for run in runs {
            let Some(success) = run.requests.success_rate() else {
                return Err(format!(
                    "`{config}` at {} has no request counts, so whether every request succeeded \
                     is unknown ({})",
                    run.load.target, run.provenance
                ));
            };
            let no_failures = success >= 1.0;
            let meets = condition.as_ref().is_none_or(|(q, at_most, limit)| {
                q.of(run)
                    .is_some_and(|v| if *at_most { v <= *limit } else { v >= *limit })
            });
            if !(no_failures && meets) {
                break;
            }
            last = Some(run);
        }
        let Some(run) = last else {
            // Nothing stable is a finding, not an error: "none", below the lowest load.
            let lowest = &runs[0].load.target;
            return Ok(Computed {
                is_number: false,
                value: 0.0,
                text: format!("none (not even {lowest})"),
                source: format!(
                    "{} failed requests{} already at its lowest load, {lowest} ({})",
                    self.display(config).0,
                    if condition.is_some() {
                        " or missed the condition"
                    } else {
                        ""
                    },
                    runs[0].provenance
                ),
            });
        };
        let value = run
            .load
            .target
            .value()
            .ok_or_else(|| format!("`{config}`'s load {} is not a number", run.load.target))?;
        Ok(Computed {
            is_number: true,
            value,
            text: run.load.target.to_string(),
            source: format!(
                "highest load of {} with every request successful{} ({})",
                self.display(config).0,
                condition.map_or(String::new(), |(q, at_most, limit)| format!(
                    " and {q} {} {}",
                    if at_most { "≤" } else { "≥" },
                    format::with_unit(limit, q.unit())
                )),
                run.provenance
            ),
        })
    }

    fn breaking(&self, config: &str, runs: &[&Run]) -> Result<Computed, String> {
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
            value: found.load,
            text: run.load.target.to_string(),
            source: format!(
                "first load of {} where the sweep breaks: {} ({})",
                self.display(config).0,
                found.summary(),
                run.provenance
            ),
        })
    }
}

/// A quantity as written in expressions and tables: `ttft:p50`, `output_throughput`.
pub(super) fn parse_quantity(text: &str) -> Result<Quantity, String> {
    let (metric, stat) = match text.split_once(':') {
        Some((m, s)) => (m, Some(s)),
        None => (text, None),
    };
    Quantity::parse(metric, stat)
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

/// A number as typed in prose (`13x`, `5,028 ms`, `64.7%`, `~85`): its value and decimals.
fn typed_number(text: &str) -> Option<(f64, usize)> {
    let rest = text
        .trim_start()
        .trim_start_matches(['~', '<', '>', '≈'])
        .trim_start();
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

/// Ratios read best with three significant digits at most: `12.9`, `1.35`, `130`.
fn round_for_ratio(v: f64) -> f64 {
    if v.abs() >= 100.0 {
        v.round()
    } else if v.abs() >= 10.0 {
        (v * 10.0).round() / 10.0
    } else {
        (v * 100.0).round() / 100.0
    }
}

/// `<span class=… title=…>html</span>`; `title` is escaped here.
fn span(class: &str, title: &str, html: &str) -> String {
    format!(
        "<span class=\"{class}\" title=\"{}\">{html}</span>",
        escape(title)
    )
}
