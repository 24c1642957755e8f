//! Base against new drawn, one chart per metric: a pair of bars (base, new) per load point,
//! each with its 95% interval as a whisker, by the same chart code as the site's, so a pull
//! request comment can link a picture of what changed.

use super::outcome::Outcome;
use crate::chart::{Axis, ChartKind, ChartSpec, Point, Series};

/// One grouped-bars chart per metric that any point compares, in the order rows name them.
pub fn charts(outcome: &Outcome) -> Vec<ChartSpec> {
    let mut metrics: Vec<(String, String, String)> = Vec::new();
    for row in outcome.points.iter().flat_map(|p| &p.rows) {
        if !metrics.iter().any(|(id, ..)| *id == row.metric) {
            metrics.push((row.metric.clone(), row.label.clone(), row.unit.clone()));
        }
    }
    metrics
        .into_iter()
        .map(|(id, label, unit)| chart(outcome, &id, &label, &unit))
        .collect()
}

fn chart(outcome: &Outcome, id: &str, label: &str, unit: &str) -> ChartSpec {
    let mut categories = Vec::new();
    let mut base = Vec::new();
    let mut new = Vec::new();
    for point in &outcome.points {
        let Some(row) = point.rows.iter().find(|r| r.metric == id) else {
            continue;
        };
        let x = categories.len() as f64;
        categories.push(format!("{} · {}", point.id.config, point.id.load));
        base.push(bar(x, row.base, row.base_interval));
        new.push(bar(x, row.new, row.new_interval));
    }
    let mut y = Axis::new(label, unit);
    y.better = outcome
        .points
        .iter()
        .flat_map(|p| &p.rows)
        .find(|r| r.metric == id)
        .map(|r| r.better);
    ChartSpec {
        id: file_stem(id),
        title: format!("{label}: base against new"),
        caption: format!(
            "{label} ({unit}) of base and new at each load point both measured; whiskers are 95% \
             intervals where the data bounds them."
        ),
        kind: ChartKind::GroupedBars { categories },
        x: Axis::new("Configuration · load", ""),
        y,
        series: vec![
            Series {
                name: "base".into(),
                color: 7,
                points: base,
            },
            Series {
                name: "new".into(),
                color: 0,
                points: new,
            },
        ],
        annotations: Vec::new(),
        alternatives: Vec::new(),
    }
}

fn bar(x: f64, y: Option<f64>, interval: Option<[f64; 2]>) -> Point {
    Point {
        lo: interval.map(|[lo, _]| lo),
        hi: interval.map(|[_, hi]| hi),
        ci: interval,
        note: if y.is_none() {
            "not reported".into()
        } else {
            String::new()
        },
        ..Point::new(x, y)
    }
}

/// `ttft:p99` as a file name: `ttft-p99`.
pub fn file_stem(metric_id: &str) -> String {
    metric_id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}
