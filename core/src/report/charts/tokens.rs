//! ```` ```chart ```` `kind: tokens`: per-request latency against the request's tokens (seed 004's
//! "latency against output tokens"). One dot per successful request at one load point, and each
//! configuration's least-squares line with its slope: "10.2 ms per output token".
//!
//! Keys: `x` is `output_tokens` (the default) or `input_tokens`; `metric` is the latency
//! (`e2e`, the default, `ttft` or `tpot`); `load` and `configs` as for other kinds. The runs need
//! per-request data with token counts.

use super::call::ChartCall;
use crate::analysis::linear_fit;
use crate::analysis::token_fit::{latency_metric, request_points, Tokens};
use crate::chart::{Annotation, Axis, ChartKind, ChartSpec, Point, Series};
use crate::format;
use crate::report::context::ReportContext;

/// The x axis of latency against `tokens`.
fn axis(tokens: Tokens) -> Axis {
    match tokens {
        Tokens::Output => Axis::new("Output tokens", "tokens"),
        Tokens::Input => Axis::new("Prompt tokens", "tokens"),
    }
}

/// Latency against tokens, request by request, with fitted lines.
pub(super) fn tokens(ctx: &ReportContext<'_>, c: ChartCall<'_>) -> Result<ChartSpec, String> {
    let ChartCall { id, d, keys } = c;
    let tokens = Tokens::parse(d.x.as_deref())?;
    let metric = latency_metric(d.metric.as_deref())?;
    let mut series = Vec::new();
    let mut annotations = Vec::new();
    let mut slopes = Vec::new();
    for key in keys {
        let (name, color) = ctx.display(key);
        let Some(run) = ctx.run_at(key, d.load.as_ref())? else {
            continue;
        };
        let pairs = request_points(run, tokens, metric).ok_or_else(|| {
            format!(
                "configuration `{key}` has no per-request {} counts with {} at that load; \
                 the result file must carry per-request data",
                tokens.noun(),
                metric.label()
            )
        })?;
        let source = run.source();
        if let Some(fit) = linear_fit(&pairs) {
            let label = format!("{} ms/token", format::number(fit.slope));
            slopes.push(format!(
                "{name} {} ms per {} (R² {}, {} requests)",
                format::number(fit.slope),
                tokens.noun(),
                format::fixed(fit.r2, 2),
                fit.n
            ));
            annotations.push(Annotation::Fit {
                series: series.len(),
                slope: fit.slope,
                intercept: fit.intercept,
                from: fit.x_range.0,
                to: fit.x_range.1,
                label,
            });
        }
        series.push(Series {
            name,
            color,
            points: pairs
                .into_iter()
                .map(|(x, y)| Point {
                    x,
                    y: Some(y),
                    source: source.clone(),
                    ..Point::default()
                })
                .collect(),
        });
    }
    let fitted = if slopes.is_empty() {
        String::new()
    } else {
        format!(" Lines are least-squares fits: {}.", slopes.join("; "))
    };
    Ok(ChartSpec {
        id: id.to_string(),
        title: d
            .title
            .clone()
            .unwrap_or_else(|| format!("{} against {}s", metric.label(), tokens.noun())),
        caption: format!(
            "{} of each successful request against its {}s, by configuration.{fitted}",
            metric.label(),
            tokens.noun()
        ),
        kind: ChartKind::Scatter,
        x: axis(tokens),
        y: Axis::new(metric.label(), "ms"),
        series,
        annotations,
        alternatives: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use crate::chart::{Annotation, ChartKind, ChartSpec};
    use crate::import::import;
    use crate::report::{build_report, Palette};

    /// Five requests of seed 004's shape (about 10 ms per output token) and one that failed.
    const RUN: &str = r#"{"date": "20250301-101010", "backend": "vllm", "model_id": "m",
        "request_rate": 2.0, "completed": 5, "failed": 1, "duration": 10.0,
        "mean_ttft_ms": 40.0, "input_lens": [100, 200, 300, 400, 500, 600],
        "output_lens": [10, 20, 50, 100, 40, 0],
        "ttfts": [0.03, 0.04, 0.05, 0.06, 0.045, 0.0],
        "latencies": [0.105, 0.206, 0.512, 1.021, 0.41, 0.0],
        "errors": ["", "", "", "", "", "Timeout"]}"#;

    fn chart(body: &str) -> Result<ChartSpec, Vec<String>> {
        super::super::chart_on("vllm/t.json", RUN, body)
    }

    #[test]
    fn latency_against_output_tokens_with_its_slope() {
        let spec = chart("kind: tokens").unwrap();
        assert_eq!(spec.kind, ChartKind::Scatter);
        assert_eq!(spec.x.title, "Output tokens");
        assert_eq!(spec.y.title, "End-to-end latency");
        assert_eq!(
            spec.series[0].points.len(),
            5,
            "the failed request is left out"
        );
        let Some(Annotation::Fit {
            slope,
            from,
            to,
            label,
            ..
        }) = spec.annotations.first()
        else {
            panic!("{:?}", spec.annotations)
        };
        assert!((slope - 10.2).abs() < 0.1, "{slope}");
        assert_eq!((*from, *to), (10.0, 100.0));
        assert_eq!(
            label,
            &format!("{} ms/token", crate::format::number(*slope))
        );
        assert!(
            spec.caption
                .contains("Lines are least-squares fits: vllm 10.18 ms per output token"),
            "{}",
            spec.caption
        );
        assert!(
            spec.caption
                .contains("ms per output token (R² 1.00, 5 requests)"),
            "{}",
            spec.caption
        );
    }

    #[test]
    fn prompt_tokens_and_other_latencies() {
        let spec = chart("kind: tokens\nx: input_tokens\nmetric: ttft").unwrap();
        assert_eq!(spec.x.title, "Prompt tokens");
        assert_eq!(spec.y.title, "TTFT");
        assert_eq!(spec.series[0].points[0].y, Some(30.0));
    }

    fn page_text(body: &str) -> (String, Vec<String>) {
        let results = [import("vllm/t.json", RUN.as_bytes())];
        let text = format!("---\ntitle: T\nresults: [\"vllm/*\"]\n---\n\n{body}\n");
        let page = build_report("reports/r.md", "r", &text, &results, &Palette::new());
        let html = page.prose_html();
        (
            html,
            page.problems.iter().map(ToString::to_string).collect(),
        )
    }

    #[test]
    fn the_slope_inline_value_quotes_the_charts_line() {
        let (html, problems) = page_text(
            "Each token costs `=slope(e2e, output_tokens, vllm, 2)`; \
             each prompt token `=slope(ttft, input_tokens, vllm, 2)`.",
        );
        assert_eq!(problems, Vec::<String>::new());
        assert!(html.contains(">10.18 ms per output token<"), "{html}");
        // By hand: prompt tokens 100..500 (mean 300) against TTFT 30, 40, 50, 60, 45 ms (mean
        // 45): Sxy 5,000, Sxx 100,000, Syy 500; slope 0.05, R² 5,000² ÷ (100,000 × 500) = 0.5.
        assert!(html.contains(">0.05 ms per prompt token<"), "{html}");
        assert!(html.contains("(R² 0.50)"), "{html}");
        assert!(
            html.contains("least-squares line through 5 requests of vllm/t.json (R² 1.00)"),
            "{html}"
        );
        let (_, problems) =
            page_text("`=slope(e2e, seconds, vllm, 2)` `=slope(e2e, output_tokens, vllm, 9)`");
        assert!(
            problems[0].contains("`output_tokens` or `input_tokens`"),
            "{problems:?}"
        );
        assert!(problems[1].contains("has no run at load 9"), "{problems:?}");
    }

    #[test]
    fn wrong_keys_say_what_a_tokens_chart_takes() {
        let e = chart("kind: tokens\nx: seconds").unwrap_err();
        assert!(e[0].contains("`x: seconds`: a tokens chart sets latency against `output_tokens` or `input_tokens`"), "{e:?}");
        let e = chart("kind: tokens\nmetric: output_throughput").unwrap_err();
        assert!(
            e[0].contains("this kind plots a per-request latency: e2e, ttft or tpot"),
            "{e:?}"
        );
    }
}
