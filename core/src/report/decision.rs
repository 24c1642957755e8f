//! A report's `decision:` front matter: what the wizard offers for this report's data.
//!
//! ```yaml
//! decision:
//!   sweep: rate                       # which sweep the SLAs are checked on: rate or concurrency
//!   load: 5                           # the load the reader starts from
//!   slas: [{metric: ttft:p99, max: 2000}, {metric: success_rate, min: 99}]
//!   criteria: [output_tok_s_per_user, ttft:p50, max_stable_load, scale_to_zero]
//!   attributes:
//!     llama-lmcache: {scale_to_zero: true, cost_model: per second}
//!   tree: {start: cost, nodes: {...}}  # the guided questions (`decision::tree`)
//! ```
//!
//! The build checks every name (configurations, metrics, tree nodes) and turns the data into
//! [`DecisionData`]: one [`Candidate`] per configuration with the values the engine needs, and
//! the tree with each recommendation's reason rendered (inline values included).

use crate::decision::tree::layout::{lay_out, Style};
use std::collections::BTreeMap;

use super::context::ReportContext;
use super::front::DecisionFront;
use super::front::SlaFront;
use super::load::LoadKind;
use super::values::parse_quantity;
use crate::decision::tree::{Node, Tree};
use crate::decision::{Attribute, Bound, Candidate, Constraint, Criterion, CriterionKind};
use crate::model::Run;
use crate::quantity::Quantity;
use crate::site::{DecisionData, RenderedReason};

/// Quantities every candidate carries, so the reader can add SLAs and criteria on them.
const STANDARD: &[&str] = &[
    "ttft:p50",
    "ttft:p90",
    "ttft:p99",
    "e2e:p50",
    "e2e:p99",
    "tpot:mean",
    "output_throughput",
    "output_tok_s_per_user",
    "request_throughput",
    "success_rate",
];

/// The wizard's data, or every mistake in the block (as messages for the front matter).
pub fn build(
    ctx: &ReportContext<'_>,
    front: &DecisionFront,
    render: &mut dyn FnMut(&str, &str) -> String,
) -> Result<DecisionData, Vec<String>> {
    let mut errors = Vec::new();
    let kind = sweep_kind(front.sweep.as_deref(), &mut errors);
    let keys = ctx.config_keys(None).unwrap_or_default();
    for key in front.attributes.keys() {
        if !keys.contains(key) {
            errors.push(format!(
                "decision `attributes`: configuration `{key}` is not in this report's results; found {}",
                keys.join(", ")
            ));
        }
    }
    let constraints = constraints(&front.slas, &mut errors);
    let criteria = criteria(front, &mut errors);
    let quantities = carried_quantities(&constraints, &criteria);
    let candidates = candidates(ctx, front, &keys, kind, &quantities);
    if kind.is_none() && keys.iter().any(|k| mixed_sweeps(&ctx.runs_of(k))) {
        errors.push(
            "decision: some configurations have both a concurrency and a request-rate sweep; \
             say which one the wizard uses with `sweep: rate` or `sweep: concurrency`"
                .into(),
        );
    }
    let mut reasons = BTreeMap::new();
    if let Some(tree) = &front.tree {
        errors.extend(
            tree.check(&keys)
                .into_iter()
                .map(|e| format!("decision `tree`: {e}")),
        );
        reasons = rendered_reasons(tree, render);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(DecisionData {
        load: front
            .load
            .or_else(|| {
                candidates
                    .first()
                    .and_then(|c| c.points.first())
                    .map(|p| p.load)
            })
            .unwrap_or(1.0),
        constraints,
        criteria,
        diagram: front.tree.as_ref().map(|tree| {
            let label_of = |key: &str| {
                candidates
                    .iter()
                    .find(|c| c.key == key)
                    .map_or_else(|| key.to_string(), |c| c.label.clone())
            };
            lay_out(tree, label_of, &Style::default())
        }),
        candidates,
        tree: front.tree.clone(),
        reasons,
    })
}

/// One candidate per configuration of `keys` with runs of the sweep `kind` (any, when
/// `None`), carrying `quantities` and its attributes.
fn candidates(
    ctx: &ReportContext<'_>,
    front: &DecisionFront,
    keys: &[String],
    kind: Option<LoadKind>,
    quantities: &[Quantity],
) -> Vec<Candidate> {
    keys.iter()
        .filter_map(|key| {
            let runs: Vec<&Run> = ctx
                .runs_of(key)
                .into_iter()
                .filter(|r| kind.is_none() || LoadKind::of(&r.load.target) == kind)
                .collect();
            if runs.is_empty() {
                return None;
            }
            let mut c = Candidate::from_runs(key, &ctx.display(key).0, &runs, quantities);
            c.attributes = front.attributes.get(key).cloned().unwrap_or_default();
            Some(c)
        })
        .collect()
}

/// The `sweep:` the SLAs are checked on; a mistake is added to `errors`.
fn sweep_kind(sweep: Option<&str>, errors: &mut Vec<String>) -> Option<LoadKind> {
    match sweep {
        None => None,
        Some("rate") => Some(LoadKind::Rate),
        Some("concurrency") => Some(LoadKind::Concurrency),
        Some(other) => {
            errors.push(format!(
                "decision `sweep: {other}`: expected rate or concurrency"
            ));
            None
        }
    }
}

/// The `slas:` as constraints; each mistake is added to `errors`.
fn constraints(slas: &[SlaFront], errors: &mut Vec<String>) -> Vec<Constraint> {
    let mut constraints = Vec::new();
    for sla in slas {
        match (parse_quantity(&sla.metric), sla.max, sla.min) {
            (Err(e), ..) => errors.push(format!("decision `slas`: {e}")),
            (Ok(quantity), Some(max), None) => constraints.push(Constraint {
                quantity,
                bound: Bound::AtMost(max),
            }),
            (Ok(quantity), None, Some(min)) => constraints.push(Constraint {
                quantity,
                bound: Bound::AtLeast(min),
            }),
            (Ok(_), ..) => errors.push(format!(
                "decision `slas`, `{}`: expected exactly one of `max` or `min`",
                sla.metric
            )),
        }
    }
    constraints
}

/// The `criteria:`, each a metric, `max_stable_load` or a yes/no attribute, all weighing 1;
/// each mistake is added to `errors`.
fn criteria(front: &DecisionFront, errors: &mut Vec<String>) -> Vec<Criterion> {
    let mut criteria = Vec::new();
    for name in &front.criteria {
        let kind = if name == "max_stable_load" {
            CriterionKind::MaxStableLoad
        } else if let Ok(q) = parse_quantity(name) {
            CriterionKind::Measured(q)
        } else if front
            .attributes
            .values()
            .any(|a| matches!(a.get(name), Some(Attribute::Flag(_))))
        {
            CriterionKind::Attribute(name.clone())
        } else {
            errors.push(format!(
                "decision `criteria`: `{name}` is neither a metric, `max_stable_load`, nor a \
                 yes/no attribute given in `attributes`"
            ));
            continue;
        };
        criteria.push(Criterion { kind, weight: 1.0 });
    }
    criteria
}

/// The quantities every candidate carries: the [`STANDARD`] ones, then those the SLAs and
/// criteria name.
fn carried_quantities(constraints: &[Constraint], criteria: &[Criterion]) -> Vec<Quantity> {
    let mut quantities: Vec<Quantity> = STANDARD
        .iter()
        .filter_map(|q| parse_quantity(q).ok())
        .collect();
    for q in constraints
        .iter()
        .map(|c| c.quantity)
        .chain(criteria.iter().filter_map(|c| match c.kind {
            CriterionKind::Measured(q) => Some(q),
            _ => None,
        }))
    {
        if !quantities.contains(&q) {
            quantities.push(q);
        }
    }
    quantities
}

/// Each recommendation's reason in `tree`, rendered by `render` (node id, text).
fn rendered_reasons(
    tree: &Tree,
    render: &mut dyn FnMut(&str, &str) -> String,
) -> BTreeMap<String, RenderedReason> {
    let mut reasons = BTreeMap::new();
    for (id, node) in &tree.nodes {
        if let Node::Recommendation { because, .. } = node {
            reasons.insert(
                id.clone(),
                RenderedReason {
                    html: render(id, because),
                },
            );
        }
    }
    reasons
}

/// Whether `runs` mix load kinds (rates and concurrencies).
fn mixed_sweeps(runs: &[&Run]) -> bool {
    runs.iter()
        .any(|r| LoadKind::of(&r.load.target) != LoadKind::of(&runs[0].load.target))
}
