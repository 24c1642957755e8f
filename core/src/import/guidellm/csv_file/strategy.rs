//! A parsed row becomes a run: its strategy (from the row, the run's profile or a later
//! benchmark's `completed_strategies`) gives the load point, its cells the identity and counts.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::super::benchmark::Benchmark;
use super::super::identity::report_identity;
use super::super::load::load_point;
use super::super::object::text;
use super::header::Layout;
use super::row::Parsed;
use crate::model::{LoadPoint, LoadTarget, Location, TokenStats};
use crate::problem::{Problem, Severity};

/// Strategies by (run id, position), from every row's `Profile.completed_strategies`.
pub(super) fn completed_strategies(
    parsed: &[Parsed],
) -> HashMap<(String, usize), Map<String, Value>> {
    let mut known = HashMap::new();
    for p in parsed {
        let Some(Value::Array(done)) = p
            .profile
            .as_ref()
            .and_then(|p| p.get("completed_strategies"))
        else {
            continue;
        };
        let run = p.run_id.clone().unwrap_or_default();
        for (i, s) in done.iter().enumerate() {
            if let Value::Object(s) = s {
                known.entry((run.clone(), i)).or_insert_with(|| s.clone());
            }
        }
    }
    known
}

/// Turns a parsed row into a run: load point, identity, counts.
pub(super) fn finish_row(
    file: &str,
    mut p: Parsed,
    layout: Layout,
    known: &HashMap<(String, usize), Map<String, Value>>,
) -> crate::model::Run {
    let row_at = Location::line(p.line);
    let strategy = match layout {
        Layout::V04 => strategy_v04(&p, known),
        Layout::V03 => strategy_v03(&p),
    };
    let strategy_at = p.strategy.as_ref().map_or_else(
        || row_at.clone(),
        |(i, _)| Location::Line {
            line: p.line,
            column: Some(*i as u64 + 1),
        },
    );
    let load = match strategy {
        Ok(s) => {
            let (load, issues) = load_point(&s);
            for issue in issues {
                let message = format!("strategy {}: {}", Value::Object(s.clone()), issue.message);
                p.problems.push(match issue.severity {
                    Severity::Error => Problem::error(file, strategy_at.clone(), message),
                    Severity::Warning => Problem::warning(file, strategy_at.clone(), message),
                });
            }
            load
        }
        Err(message) => {
            p.problems
                .push(Problem::warning(file, strategy_at.clone(), message));
            LoadPoint::new(LoadTarget::MaxThroughput)
        }
    };

    // Identity: the benchmark's backend model first, then the report's settings.
    let (config, args) = match &p.arguments {
        Some(a) if a.contains_key("spec") => (Some(a), None),
        Some(a) => (None, Some(a)),
        None => (None, None),
    };
    let mut identity = report_identity(config, args);
    let own_model = p
        .backend
        .as_ref()
        .and_then(|b| text(b, "model"))
        .or_else(|| p.worker.as_ref().and_then(|w| text(w, "backend_model")));
    identity.model = own_model.or(identity.model);
    let version = p
        .metadata
        .as_ref()
        .and_then(|m| text(m, "guidellm_version"));

    let tokens = TokenStats {
        total_input: None,
        total_output: None,
        input_len: (!p.input_len.is_empty()).then_some(p.input_len),
        output_len: (!p.output_len.is_empty()).then_some(p.output_len),
    };
    let failed_at = p.succeeded_at.clone().unwrap_or_else(|| row_at.clone());
    let latency = p
        .latency
        .into_iter()
        .filter(|l| !l.distribution.is_empty())
        .collect();
    Benchmark {
        location: row_at,
        version,
        date: None,
        config: identity,
        load,
        requests: p.requests,
        latency,
        throughput: p.throughput,
        achieved_concurrency: p.concurrency,
        tokens,
        samples: None,
        problems: p.problems,
    }
    .into_run(file, failed_at)
}

/// The strategy of a 0.4+ row: its type from `Benchmark / Strategy`, its streams or rate from
/// the run's profile.
fn strategy_v04(
    p: &Parsed,
    known: &HashMap<(String, usize), Map<String, Value>>,
) -> Result<Map<String, Value>, String> {
    let kind = p.strategy.as_ref().map(|(_, k)| k.as_str());
    let profile = p.profile.as_ref();
    let position = profile
        .and_then(|pr| pr.get("completed_strategies"))
        .and_then(Value::as_array)
        .map(Vec::len)
        .or(p.run_index);
    let run = p.run_id.clone().unwrap_or_default();
    if let Some(s) = position.and_then(|i| known.get(&(run, i))) {
        let same = s.get("type_").and_then(Value::as_str);
        if kind.is_none() || same == kind {
            return Ok(s.clone());
        }
    }
    let Some(kind) = kind else {
        return Err(
            "the `Benchmark / Strategy` cell is empty; expected the strategy type, the run has \
             no load value"
                .to_string(),
        );
    };
    let mut strategy = Map::new();
    strategy.insert("type_".to_string(), Value::String(kind.to_string()));
    let key = match kind {
        "concurrent" => "streams",
        "constant" | "poisson" => "rate",
        _ => return Ok(strategy),
    };
    let listed = profile
        .and_then(|pr| {
            pr.get(key)
                .or_else(|| (key == "rate").then(|| pr.get("rates")).flatten())
        })
        .and_then(|v| match v {
            Value::Array(items) => position.and_then(|i| items.get(i)).cloned(),
            Value::Number(_) => Some(v.clone()),
            _ => None,
        });
    match listed {
        Some(value) => {
            strategy.insert(key.to_string(), value);
            Ok(strategy)
        }
        None => Err(format!(
            "the CSV names the strategy `{kind}` but not its {key} for this benchmark (neither \
             the profile nor a later benchmark's `completed_strategies` lists it: the last \
             benchmark of a sweep); the run has no load value, the JSON or YAML report has it"
        )),
    }
}

/// The strategy of a 0.3 row: `Args.strategy`, else the `Name` (`concurrent@4`,
/// `constant@2.50`, whose rate is rounded to two decimals).
fn strategy_v03(p: &Parsed) -> Result<Map<String, Value>, String> {
    if let Some(Value::Object(s)) = p.arguments.as_ref().and_then(|a| a.get("strategy")) {
        return Ok(s.clone());
    }
    let Some((_, name)) = &p.strategy else {
        return Err(
            "no `Args` strategy and no `Name`; expected the strategy, the run has no load value"
                .to_string(),
        );
    };
    let (kind, value) = name.split_once('@').unwrap_or((name.as_str(), ""));
    let mut strategy = Map::new();
    strategy.insert("type_".to_string(), Value::String(kind.to_string()));
    let key = match kind {
        "concurrent" => "streams",
        _ => "rate",
    };
    if !value.is_empty() {
        strategy.insert(key.to_string(), Value::String(value.to_string()));
    }
    Ok(strategy)
}
