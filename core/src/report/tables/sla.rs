//! ```` ```table ```` `kind: sla`: each use case's target checked for each configuration at
//! one load: ✓ or ✗ when the value's 95% interval is on one side of the target, ≈ when it holds
//! the target; a latency percentile with too many failed requests behind it fails whatever its
//! value.

use super::super::context::ReportContext;
use super::super::values::{escape, parse_quantity};
use super::directive::TableDirective;
use super::figure::figure;
use super::take::{one_kind_at, run_at, value_of, Take};
use crate::decision::{Bound, Compliance};
use crate::format;
use crate::model::Run;
use crate::noise;
use crate::quantity::Quantity;

/// An `sla` table: each use case's target checked for each configuration at one load.
pub(super) fn sla(ctx: &ReportContext<'_>, d: &TableDirective) -> Result<String, String> {
    let cases = d.use_cases.as_ref().filter(|c| !c.is_empty()).ok_or(
        "an sla table needs `use_cases`, a list such as [{name: Chat, metric: ttft:p95, max: 500}]",
    )?;
    let load = d
        .load
        .as_ref()
        .ok_or("an sla table needs `load`: the load point the targets are checked at")?
        .parse()?;
    let keys = ctx.config_keys(d.configs.as_deref())?;
    one_kind_at(ctx, &keys, load.0, load.1)?;
    let mut rows = Vec::new();
    for case in cases {
        let q = parse_quantity(&case.metric)?;
        let (limit, at_most) = match (case.max, case.min) {
            (Some(max), None) => (max, true),
            (None, Some(min)) => (min, false),
            _ => {
                return Err(format!(
                    "use case `{}`: expected exactly one of `max` or `min`",
                    case.name
                ))
            }
        };
        let mut cells = String::new();
        for key in &keys {
            let bound = if at_most {
                Bound::AtMost(limit)
            } else {
                Bound::AtLeast(limit)
            };
            cells += &match value_of(ctx, q, key, Take::At(load.0, load.1)) {
                Some((value, run)) => cell(q, bound, value, run),
                None => match run_at(ctx, key, load.0, load.1).filter(|r| r.all_failed()) {
                    // No latency because nothing was served: the target is missed.
                    Some(run) => format!(
                        "<td class=\"fail\" title=\"{}\">✗ every request failed</td>",
                        escape(&run.source())
                    ),
                    None => "<td title=\"no data at this load\">–</td>".to_string(),
                },
            };
        }
        rows.push(format!(
            "<tr><th scope=\"row\">{} <small>({q} {} {})</small></th>{cells}</tr>",
            escape(&case.name),
            if at_most { "≤" } else { "≥" },
            escape(&format::with_unit(limit, q.unit())),
        ));
    }
    let head: String = keys
        .iter()
        .map(|k| format!("<th scope=\"col\">{}</th>", escape(&ctx.display(k).0)))
        .collect();
    let caption = d.caption.as_deref().unwrap_or("");
    // The mark the reader cannot guess is explained wherever it appears.
    let caption = if rows.iter().any(|r| r.contains("class=\"unclear\"")) {
        let ended = caption.is_empty() || caption.ends_with(['.', '!', '?', ')']);
        format!("{caption}{} {UNCLEAR_LEGEND}", if ended { "" } else { "." })
            .trim()
            .to_string()
    } else {
        caption.to_string()
    };
    Ok(figure(
        d.title.as_deref().unwrap_or("Service-level targets"),
        &caption,
        &format!("<th scope=\"col\">Use case (target)</th>{head}"),
        &rows,
    ))
}

/// What a table with a `≈` cell adds to its caption.
const UNCLEAR_LEGEND: &str = "≈: the value's 95% interval holds the target, so the data cannot \
                              say whether it is met (the cell's tooltip gives the interval).";

/// One configuration's cell: ✓ when the target is met by the value's whole 95% interval, ✗
/// when missed by it (or when too many requests failed), `≈` when the interval holds the
/// limit: the data cannot say on which side the truth is.
fn cell(q: Quantity, bound: Bound, value: f64, run: &Run) -> String {
    let interval = noise::estimate(q, run)
        .and_then(|e| e.interval)
        .map(|(i, _)| i);
    let failures = too_many_failures(q, run);
    let compliance = match failures {
        Some(_) => Compliance::Missed,
        None => bound.judge(value, interval),
    };
    let (class, mark, why) = match compliance {
        Compliance::Met => ("pass", "✓", String::new()),
        Compliance::Missed => (
            "fail",
            "✗",
            failures.map(|f| format!("{f}; ")).unwrap_or_default(),
        ),
        Compliance::WithinNoise(i) => (
            "unclear",
            "≈",
            format!("within the noise of the target: {}; ", i.text(q.unit())),
        ),
    };
    format!(
        "<td class=\"{class}\" title=\"{}\">{mark} {}{}</td>",
        escape(&format!("{why}{}", run.source())),
        escape(&format::with_unit(value, q.unit())),
        if too_many_failures(q, run).is_some() {
            " <small>(failures)</small>"
        } else {
            ""
        }
    )
}

/// Why `run` misses a latency percentile target whatever its value (see
/// [`crate::decision::too_many_failures`]).
fn too_many_failures(q: Quantity, run: &Run) -> Option<String> {
    crate::decision::too_many_failures(q, run.requests.success_rate()? * 100.0)
}
