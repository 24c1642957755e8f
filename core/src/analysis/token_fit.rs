//! A run's per-request latency against its tokens, and the least-squares line through it: the
//! dots and the slope ("10.2 ms per output token") of a report's `kind: tokens` chart and the
//! number its `slope(…)` inline value quotes, computed in one place for both.

use super::{linear_fit, LineFit};
use crate::model::{Metric, RequestSamples, Run};

/// Which tokens a request's latency is set against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tokens {
    /// The tokens the request generated.
    Output,
    /// The tokens of its prompt.
    Input,
}

impl Tokens {
    /// The tokens a report names: `output_tokens` (the default) or `input_tokens`.
    pub fn parse(text: Option<&str>) -> Result<Tokens, String> {
        match text.map(str::trim) {
            None | Some("output_tokens") => Ok(Tokens::Output),
            Some("input_tokens") => Ok(Tokens::Input),
            Some(other) => Err(format!(
                "`x: {other}`: a tokens chart sets latency against `output_tokens` or `input_tokens`"
            )),
        }
    }

    /// Each request's count of these tokens.
    pub fn values(self, samples: &RequestSamples) -> &[f64] {
        match self {
            Tokens::Output => &samples.output_tokens,
            Tokens::Input => &samples.input_tokens,
        }
    }

    /// What one of them is called: `output token`, `prompt token`.
    pub fn noun(self) -> &'static str {
        match self {
            Tokens::Output => "output token",
            Tokens::Input => "prompt token",
        }
    }
}

/// The latency a tokens chart plots: end-to-end unless `metric` says otherwise.
pub fn latency_metric(text: Option<&str>) -> Result<Metric, String> {
    match text.map(|t| t.trim().to_ascii_lowercase()).as_deref() {
        None | Some("e2e") => Ok(Metric::E2e),
        Some("ttft") => Ok(Metric::Ttft),
        Some("tpot") => Ok(Metric::Tpot),
        Some(other) => Err(format!(
            "`metric: {other}`: this kind plots a per-request latency: e2e, ttft or tpot"
        )),
    }
}

/// (tokens, latency) of each successful request of `run` with both finite; none when the run
/// has no per-request token counts or latencies of that kind.
pub fn request_points(run: &Run, tokens: Tokens, metric: Metric) -> Option<Vec<(f64, f64)>> {
    let samples = run.samples.as_ref()?;
    let xs = tokens.values(samples);
    let ys = samples.latencies(metric)?;
    if xs.is_empty() || ys.is_empty() {
        return None;
    }
    let ok = samples.ok.iter().copied().chain(std::iter::repeat(true));
    Some(
        xs.iter()
            .zip(ys)
            .zip(ok)
            .filter(|((x, y), ok)| *ok && x.is_finite() && y.is_finite())
            .map(|((x, y), _)| (*x, *y))
            .collect(),
    )
}

/// The least-squares line of `run`'s per-request latency (`metric`, as a tokens chart names it)
/// against its tokens (`tokens`: `output_tokens` or `input_tokens`), and what one token is
/// called (`output token`): the slope the `slope(…)` inline value quotes.
pub fn fit(run: &Run, tokens: &str, metric: &str) -> Result<(LineFit, &'static str), String> {
    let tokens = Tokens::parse(Some(tokens))?;
    let metric = latency_metric(Some(metric))?;
    let pairs = request_points(run, tokens, metric).ok_or_else(|| {
        format!(
            "{} has no per-request {} counts with {}",
            run.source(),
            tokens.noun(),
            metric.label()
        )
    })?;
    let fit = linear_fit(&pairs).ok_or_else(|| {
        format!(
            "{}: no line to fit: fewer than two distinct {} counts among its successful requests",
            run.source(),
            tokens.noun()
        )
    })?;
    Ok((fit, tokens.noun()))
}
