//! `fit(<quantity>, output_tokens|input_tokens, <configuration>, …)`: the least-squares line of
//! a quantity against each run's mean token count, over the runs of the configurations named:
//! the slope a `lines` chart with `x: output_tokens` and `fit: true` draws, for prose ("10.18 ms
//! per output token" through seed 004's four scenarios). `slope(…)` is its per-request twin.

use super::computed::{Computed, ValueNoise};
use super::lookup::parse_quantity;
use super::parse::Expr;
use crate::analysis::linear_fit;
use crate::format;
use crate::report::charts::{slope_text, TokensX};
use crate::report::context::ReportContext;

/// The slope of `quantity` against the runs' mean tokens, over the configurations named.
pub(super) fn fit(ctx: &ReportContext<'_>, args: &[Expr]) -> Result<Computed, String> {
    let usage = "expected `fit(<quantity>, output_tokens|input_tokens, <configuration>, \
                 <configuration>…)`";
    let words = super::parse::words(args, usage)?;
    let [quantity, tokens, configs @ ..] = words.as_slice() else {
        return Err(usage.into());
    };
    if configs.is_empty() {
        return Err(usage.into());
    }
    let q = parse_quantity(quantity)?;
    let tokens = TokensX::parse(Some(tokens))?.ok_or(usage)?;
    let mut points = Vec::new();
    for config in configs {
        for run in super::lookup::config_runs(ctx, config)? {
            let (Some(x), Some(y)) = (tokens.of(run), q.of(run)) else {
                return Err(format!(
                    "`{config}` at {} lacks its mean {} count or {q} ({})",
                    run.load.target,
                    tokens.noun(),
                    run.source()
                ));
            };
            points.push((x, y));
        }
    }
    let fit = linear_fit(&points).ok_or_else(|| {
        format!(
            "no line to fit: fewer than two different mean {} counts among {}",
            tokens.noun(),
            configs.join(", ")
        )
    })?;
    Ok(Computed {
        is_number: true,
        priced: None,
        value: fit.slope,
        text: slope_text(&fit, q, tokens),
        unit: format!("{}/tok", q.unit()),
        source: format!(
            "least-squares line of {q} against mean {}s through {} runs of {} (R² {})",
            tokens.noun(),
            fit.n,
            configs.join(", "),
            format::fixed(fit.r2, 2)
        ),
        noise: ValueNoise::default(),
    })
}
