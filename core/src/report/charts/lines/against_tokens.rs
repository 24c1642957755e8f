//! `kind: lines` with `x: output_tokens` (or `input_tokens`): a metric against each run's mean
//! output (or prompt) length instead of its load, as seed 004 draws latency against output
//! tokens for scenarios measured one output length at a time. A line per configuration, or per
//! group of configurations (`series: [{name, configs}]`: seed 004's line per prompt length,
//! each point a scenario of its own); `fit: true` adds each line's least-squares line (dashed)
//! and its slope per token to the caption: "10.18 ms per output token".

use super::super::call::{alternatives, point, quantity_axis, scale, ChartCall};
use crate::analysis::{linear_fit, LineFit};
use crate::chart::{Annotation, Axis, ChartKind, ChartSpec, Point, Series};
use crate::format;
use crate::model::Run;
use crate::quantity::Quantity;
use crate::report::context::ReportContext;

/// Which of a run's mean lengths is the x axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::report) enum TokensX {
    Output,
    Input,
}

impl TokensX {
    /// `x:` of a lines chart: `None` for the load (no `x`, or `x: load`).
    pub(in crate::report) fn parse(text: Option<&str>) -> Result<Option<TokensX>, String> {
        match text.map(str::trim) {
            None | Some("load") => Ok(None),
            Some("output_tokens") => Ok(Some(TokensX::Output)),
            Some("input_tokens") => Ok(Some(TokensX::Input)),
            Some(other) => Err(format!(
                "`x: {other}`: a lines chart draws against the load (the default), \
                 `output_tokens` or `input_tokens` (each run's mean output or prompt length)"
            )),
        }
    }

    /// The run's mean length of this kind, in tokens.
    pub(in crate::report) fn of(self, run: &Run) -> Option<f64> {
        let (distribution, total) = match self {
            TokensX::Output => (&run.tokens.output_len, run.tokens.total_output),
            TokensX::Input => (&run.tokens.input_len, run.tokens.total_input),
        };
        let counted = || Some(total? as f64 / run.requests.succeeded? as f64);
        distribution
            .as_ref()
            .and_then(|d| d.mean)
            .or_else(counted)
            .filter(|t| t.is_finite() && *t >= 0.0)
    }

    /// `output token`, `prompt token`.
    pub(in crate::report) fn noun(self) -> &'static str {
        match self {
            TokensX::Output => "output token",
            TokensX::Input => "prompt token",
        }
    }

    fn axis(self) -> Axis {
        match self {
            TokensX::Output => Axis::new("Output tokens", "tokens"),
            TokensX::Input => Axis::new("Prompt tokens", "tokens"),
        }
    }
}

/// One line: its name, palette slot and the configurations whose runs are its points.
struct Line {
    name: String,
    color: usize,
    keys: Vec<String>,
}

/// A metric against each run's mean length of `tokens`, a line per configuration or group.
pub(super) fn lines_against_tokens(
    ctx: &ReportContext<'_>,
    c: ChartCall<'_>,
    tokens: TokensX,
) -> Result<ChartSpec, String> {
    let ChartCall { id, d, keys } = c;
    for (key, set) in [
        ("band", d.band.is_some()),
        ("error_bars", d.error_bars.is_some()),
        ("breaking", d.breaking.is_some()),
        ("speedup", d.speedup.is_some()),
    ] {
        if set {
            return Err(format!(
                "`{key}` follows a line along its load points; against tokens, leave it out"
            ));
        }
    }
    let quantity = super::super::call::quantity(d)?;
    let lines = lines_of(ctx, d.series.as_deref(), keys);
    let series_of = |q: Quantity| -> Result<Vec<Series>, String> {
        lines
            .iter()
            .map(|line| {
                Ok(Series {
                    name: line.name.clone(),
                    color: line.color,
                    points: token_points(ctx, &line.keys, tokens, q)?,
                })
            })
            .collect()
    };
    let series = series_of(quantity)?;
    let mut annotations = Vec::new();
    let mut caption = format!(
        "{quantity} ({}) against each run's mean {} count, a line per {}.",
        quantity.unit(),
        tokens.noun(),
        if d.series.is_some() {
            "group of configurations"
        } else {
            "configuration"
        }
    );
    if d.fit.unwrap_or(false) {
        let slopes = fits(&series, quantity, tokens, &mut annotations);
        if slopes.is_empty() {
            return Err(format!(
                "`fit: true`: no line has two points at different {} counts to fit",
                tokens.noun()
            ));
        }
        caption += &format!(" Dashed: least-squares lines, {}.", slopes.join("; "));
    }
    if let Some(slas) = &d.sla {
        annotations.extend(
            slas.values()
                .into_iter()
                .map(|v| super::super::call::sla_line(v, quantity.unit())),
        );
    }
    let alternatives = alternatives(quantity, |q| series_of(q).unwrap_or_default());
    let mut x = tokens.axis();
    x.scale = scale(d.x_scale.as_deref())?;
    let mut y = quantity_axis(quantity);
    y.scale = scale(d.y_scale.as_deref())?;
    Ok(ChartSpec {
        id: id.to_string(),
        title: format!("{quantity} against {}s", tokens.noun()),
        caption,
        kind: ChartKind::Lines,
        x,
        y,
        series,
        annotations,
        alternatives,
    })
}

/// The lines to draw: the directive's groups, or one per configuration of `keys`.
fn lines_of(
    ctx: &ReportContext<'_>,
    groups: Option<&[super::super::call::SeriesGroup]>,
    keys: &[String],
) -> Vec<Line> {
    match groups {
        Some(groups) => groups
            .iter()
            .map(|g| {
                let first = g.configs.first().map(|k| ctx.display(k).1).unwrap_or(0);
                Line {
                    name: g.name.clone(),
                    color: g.color.map_or(first, |c| c % crate::chart::theme::LOOKS),
                    keys: g.configs.clone(),
                }
            })
            .collect(),
        None => keys
            .iter()
            .map(|key| {
                let (name, color) = ctx.display(key);
                Line {
                    name,
                    color,
                    keys: vec![key.clone()],
                }
            })
            .collect(),
    }
}

/// A point of `q` per run of the configurations `keys`, at the run's mean token count, in
/// order of it; a run without that mean is an error naming it.
fn token_points(
    ctx: &ReportContext<'_>,
    keys: &[String],
    tokens: TokensX,
    q: Quantity,
) -> Result<Vec<Point>, String> {
    let mut points = Vec::new();
    for key in keys {
        for run in ctx.runs_of(key) {
            let x = tokens.of(run).ok_or_else(|| {
                format!(
                    "`x: {}`: `{key}` at {} states no mean {} count ({})",
                    match tokens {
                        TokensX::Output => "output_tokens",
                        TokensX::Input => "input_tokens",
                    },
                    run.load.target,
                    tokens.noun(),
                    run.source()
                )
            })?;
            points.push(point(x, q, run));
        }
    }
    points.sort_by(|a, b| a.x.total_cmp(&b.x));
    Ok(points)
}

/// Each series' least-squares line where it has two points at different x, as an annotation,
/// and its slope in words: `Short prompt 10.18 ms per output token (R² 1.00, 4 points)`.
fn fits(
    series: &[Series],
    quantity: Quantity,
    tokens: TokensX,
    annotations: &mut Vec<Annotation>,
) -> Vec<String> {
    let mut slopes = Vec::new();
    for (i, s) in series.iter().enumerate() {
        let pairs: Vec<(f64, f64)> = s.points.iter().filter_map(|p| Some((p.x, p.y?))).collect();
        let Some(fit) = linear_fit(&pairs) else {
            continue;
        };
        slopes.push(format!(
            "{} {} (R² {}, {} points)",
            s.name,
            slope_text(&fit, quantity, tokens),
            format::fixed(fit.r2, 2),
            fit.n
        ));
        annotations.push(Annotation::Fit {
            series: i,
            slope: fit.slope,
            intercept: fit.intercept,
            from: fit.x_range.0,
            to: fit.x_range.1,
            label: format!("{} {}/token", format::number(fit.slope), quantity.unit()),
        });
    }
    slopes
}

/// `10.18 ms per output token`.
pub(in crate::report) fn slope_text(fit: &LineFit, quantity: Quantity, tokens: TokensX) -> String {
    format!(
        "{} {} per {}",
        format::number(fit.slope),
        quantity.unit(),
        tokens.noun()
    )
}
