//! Which keys each kind of ```` ```chart ```` block reads. A key the kind does not read is an
//! error naming the keys it does, never ignored: `x: output_tokens` on a chart that draws
//! against the load would otherwise be drawn, silently, against the load.

use super::call::ChartDirective;

/// Keys every kind takes.
const COMMON: [&str; 5] = ["id", "title", "caption", "kind", "configs"];

/// The keys of `kind` beyond [`COMMON`]; `None` for an unknown kind (reported elsewhere).
fn kind_keys(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "bars" => &["metric", "stat", "error_bars", "sla"],
        "lines" => &[
            "metric",
            "stat",
            "x",
            "series",
            "fit",
            "band",
            "error_bars",
            "x_scale",
            "y_scale",
            "sla",
            "breaking",
            "speedup",
        ],
        "percentiles" => &["metric", "load", "percentiles", "sla"],
        "hbars" => &["metrics", "load"],
        "scatter" => &["x", "y", "x_scale", "y_scale"],
        "cdf" => &["metric", "load", "sla"],
        "histogram" => &["metric", "load"],
        "box" => &["metric"],
        "tokens" => &["x", "metric", "load"],
        "lengths" => &["categories", "tokens", "metric", "stat", "load"],
        // `metric` is refused by the kind itself, with the reason.
        "breakdown" => &["metric", "stat", "load", "share", "parts"],
        "cv" => &["metric"],
        "windows" => &["stat", "window", "metric", "load", "x"],
        "trend" => &["metric", "stat", "load", "x", "min_change"],
        "grid" => &["panels", "columns"],
        _ => return None,
    })
}

/// The keys `d` sets, by name.
fn set_keys(d: &ChartDirective) -> Vec<&'static str> {
    let set = [
        ("id", d.id.is_some()),
        ("title", d.title.is_some()),
        ("caption", d.caption.is_some()),
        ("kind", d.kind.is_some()),
        ("metric", d.metric.is_some()),
        ("stat", d.stat.is_some()),
        ("metrics", d.metrics.is_some()),
        ("x", d.x.is_some()),
        ("y", d.y.is_some()),
        ("load", d.load.is_some()),
        ("configs", d.configs.is_some()),
        ("series", d.series.is_some()),
        ("fit", d.fit.is_some()),
        ("x_scale", d.x_scale.is_some()),
        ("y_scale", d.y_scale.is_some()),
        ("band", d.band.is_some()),
        ("error_bars", d.error_bars.is_some()),
        ("sla", d.sla.is_some()),
        ("breaking", d.breaking.is_some()),
        ("speedup", d.speedup.is_some()),
        ("percentiles", d.percentiles.is_some()),
        ("categories", d.categories.is_some()),
        ("tokens", d.tokens.is_some()),
        ("share", d.share.is_some()),
        ("parts", d.parts.is_some()),
        ("window", d.window.is_some()),
        ("min_change", d.min_change.is_some()),
        ("panels", d.panels.is_some()),
        ("columns", d.columns.is_some()),
        ("span", d.span.is_some()),
    ];
    set.into_iter()
        .filter(|(_, is_set)| *is_set)
        .map(|(k, _)| k)
        .collect()
}

/// An error naming the first key of `d` that its kind does not read, and the keys it does.
/// `in_grid`: a grid's panel, which may also take `span`.
pub(super) fn check(d: &ChartDirective, in_grid: bool) -> Result<(), String> {
    let kind = d.kind.as_deref().unwrap_or("bars");
    let Some(own) = kind_keys(kind) else {
        return Ok(());
    };
    let panel: &[&str] = if in_grid { &["span"] } else { &[] };
    let taken = |k: &str| COMMON.contains(&k) || own.contains(&k) || panel.contains(&k);
    match set_keys(d).into_iter().find(|k| !taken(k)) {
        None => Ok(()),
        Some(key) => {
            let all: Vec<&str> = COMMON.iter().chain(own).chain(panel).copied().collect();
            let hint = match (kind, key) {
                ("bars", "x") => " (to draw against output or prompt tokens, use `kind: lines`)",
                (_, "span") => " (`span` places a grid's panel)",
                _ => "",
            };
            Err(format!(
                "kind `{kind}` does not take `{key}`{hint}; its keys are {}",
                all.join(", ")
            ))
        }
    }
}
