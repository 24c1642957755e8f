//! ```` ```chart ```` `kind: scatter`: one quantity against another over each configuration's
//! sweep, a point per load point, with the better corner named in the caption.

use super::call::{point, quantity_axis, scale, ChartCall};
use crate::chart::{ChartKind, ChartSpec};
use crate::quantity::{Better, Quantity};
use crate::report::context::ReportContext;
use crate::report::load::load_label;

/// One quantity against another over each configuration's sweep.
pub(super) fn scatter(ctx: &ReportContext<'_>, c: ChartCall<'_>) -> Result<ChartSpec, String> {
    let ChartCall { id, d, keys } = c;
    let parse = |field: &str, text: Option<&String>| -> Result<Quantity, String> {
        let text = text.ok_or_else(|| {
            format!(
                "`scatter` needs `{field}`, for example `x: output_throughput` and `y: ttft:p99`"
            )
        })?;
        match text.split_once(':') {
            Some((metric, stat)) => Quantity::parse(metric, Some(stat)),
            None => Quantity::parse(text, None),
        }
    };
    let qx = parse("x", d.x.as_ref())?;
    let qy = parse("y", d.y.as_ref())?;
    let series = ctx.series_per_config(keys, |key| {
        ctx.runs_of(key)
            .into_iter()
            .filter_map(|run| {
                let x = qx.of(run)?;
                let mut p = point(x, qy, run);
                p.note = format!("at {}", load_label(&run.load.target));
                Some(p)
            })
            .collect()
    });
    let mut x = quantity_axis(qx);
    x.scale = scale(d.x_scale.as_deref())?;
    let mut y = quantity_axis(qy);
    y.scale = scale(d.y_scale.as_deref())?;
    Ok(ChartSpec {
        id: id.to_string(),
        title: format!("{qy} against {qx}"),
        caption: format!(
            "Each point is one load point; {} is better, and the line joins each \
             configuration's best trade-offs.",
            corner(qx.better(), qy.better())
        ),
        kind: ChartKind::Scatter,
        x,
        y,
        series,
        annotations: Vec::new(),
        alternatives: Vec::new(),
    })
}

/// Where a scatter's better corner is: `lower right` for throughput (x, higher) against a
/// latency (y, lower).
fn corner(x: Better, y: Better) -> &'static str {
    match (x, y) {
        (Better::Higher, Better::Lower) => "lower right",
        (Better::Higher, Better::Higher) => "upper right",
        (Better::Lower, Better::Lower) => "lower left",
        (Better::Lower, Better::Higher) => "upper left",
    }
}
