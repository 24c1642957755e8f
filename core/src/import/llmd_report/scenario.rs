//! A report's `scenario`: the serving stack (the configuration) and the load generator's
//! standardized settings (the load point and the workload).

use serde_json::{Map, Value};

use crate::import::fields::Fields;
use crate::import::json_objects::{nested, object};
use crate::import::unread::Unread;
use crate::model::{ConfigIdentity, LoadPoint, LoadTarget, Rate, Workload};
use crate::number::{describe_json, json_number, Reading};

/// What `scenario` says.
#[derive(Debug)]
pub(super) struct Scenario {
    pub config: ConfigIdentity,
    pub load: LoadPoint,
    pub workload: Workload,
    /// The load generator (`inference-perf`, `guidellm`, `vllm-benchmark`, `aiperf`, …), lower
    /// case; `guidellm-0.3` for GuideLLM before 0.4, whose TPOT meant something else.
    pub tool: String,
    pub tool_version: Option<String>,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            config: ConfigIdentity::default(),
            load: LoadPoint::new(LoadTarget::MaxThroughput),
            workload: Workload::default(),
            tool: String::new(),
            tool_version: None,
        }
    }
}

/// Reads `scenario`.
pub(super) fn read(s: &mut Fields<'_>, unread: &mut Unread) -> Scenario {
    unread.keys(s.obj, "scenario", &["stack", "load"]);
    let mut scenario = Scenario::default();
    let load = object(s, "load").and_then(|l| l.get("standardized")?.as_object());
    if let Some(standardized) = load {
        let mut f = Fields::new(standardized, s.file, s.at.child("load.standardized"));
        read_load(&mut f, &mut scenario);
        s.problems.append(&mut f.problems);
    } else {
        s.warn_at(
            "load.standardized",
            "missing; expected the load generator's settings (`tool`, `rate_qps`, \
             `concurrency`): the run has no load point",
        );
    }
    match s.obj.get("stack") {
        Some(Value::Array(components)) => {
            let engines: Vec<&Map<String, Value>> = components
                .iter()
                .filter_map(Value::as_object)
                .filter(|c| kind(c) == Some("inference_engine"))
                .collect();
            scenario.config = identity(&engines, &mut scenario.workload);
        }
        Some(other) if !other.is_null() => s.error_at(
            "stack",
            format!(
                "expected a list of components, found {}",
                describe_json(other)
            ),
        ),
        _ => {}
    }
    if scenario.config.model.is_none() {
        s.warn_at(
            "stack",
            "no `inference_engine` component names a model (`standardized.model.name`); the run \
             has no model",
        );
    }
    scenario
}

fn kind(component: &Map<String, Value>) -> Option<&str> {
    component.get("standardized")?.get("kind")?.as_str()
}

fn text(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// `load.standardized`: the tool, the load point and the target lengths.
fn read_load(f: &mut Fields<'_>, scenario: &mut Scenario) {
    scenario.tool = f.string("tool").unwrap_or_default().to_ascii_lowercase();
    scenario.tool_version = f.string("tool_version");
    let version = scenario.tool_version.as_deref().unwrap_or("");
    let version = version.strip_prefix('v').unwrap_or(version);
    if scenario.tool == "guidellm" && (version.starts_with("0.2") || version.starts_with("0.3")) {
        scenario.tool = "guidellm-0.3".into();
    }
    let rate = f.number("rate_qps");
    let concurrency = f.number("concurrency");
    scenario.load = load_point(f, rate, concurrency, &scenario.tool);
    let target = |f: &mut Fields<'_>, key: &str| {
        nested(f, key, |l| l.non_negative("value"))
            .flatten()
            .filter(|v| *v >= 0.0 && *v < 1e12)
            .map(|v| v.round() as u64)
    };
    scenario.workload.input_len = target(f, "input_seq_len");
    scenario.workload.output_len = target(f, "output_seq_len");
}

/// The load point from `rate_qps` and `concurrency` (see the module documentation).
fn load_point(
    f: &mut Fields<'_>,
    rate: Option<f64>,
    concurrency: Option<f64>,
    tool: &str,
) -> LoadPoint {
    let finite_concurrency = concurrency.filter(|c| c.is_finite() && *c >= 1.0);
    if let Some(c) = concurrency.filter(|c| !c.is_finite() || *c < 1.0) {
        if c.is_finite() {
            f.error_at("concurrency", format!("expected at least 1, found {c}"));
        }
    }
    let rate = rate.filter(|r| {
        let ok = *r > 0.0;
        if !ok {
            f.error_at("rate_qps", format!("expected a positive rate, found {r}"));
        }
        ok
    });
    let target = match (rate, finite_concurrency) {
        (_, Some(c)) if tool == "inference-perf" => LoadTarget::Concurrency(c),
        (Some(r), _) if r.is_finite() => LoadTarget::RequestRate(Rate::PerSecond(r)),
        (_, Some(c)) => LoadTarget::Concurrency(c),
        (Some(_), None) => LoadTarget::RequestRate(Rate::Infinite),
        (None, None) if concurrency.is_some_and(f64::is_infinite) => {
            LoadTarget::RequestRate(Rate::Infinite)
        }
        (None, None) => {
            f.warn_at(
                "rate_qps",
                "no `rate_qps` and no `concurrency`: the run has no load point",
            );
            LoadTarget::MaxThroughput
        }
    };
    let cap = match target {
        LoadTarget::RequestRate(_) => finite_concurrency
            .filter(|c| c.fract() == 0.0 && *c <= f64::from(u32::MAX))
            .map(|c| c as u32),
        _ => None,
    };
    LoadPoint {
        max_concurrency: cap,
        ..LoadPoint::new(target)
    }
}

/// Model, engine, hardware, settings and label from the inference engines of the stack.
fn identity(engines: &[&Map<String, Value>], workload: &mut Workload) -> ConfigIdentity {
    let mut config = ConfigIdentity::default();
    let Some(first) = engines.first() else {
        return config;
    };
    let standardized = |c: &Map<String, Value>| c.get("standardized").cloned();
    let s = standardized(first).unwrap_or(Value::Null);
    config.model = text(s.get("model").and_then(|m| m.get("name")));
    config.engine = text(s.get("tool"));
    workload.engine_version = text(s.get("tool_version"));
    config.label = text(first.get("metadata").and_then(|m| m.get("label")));
    let mut gpus = 0u64;
    let mut accelerators: Vec<String> = Vec::new();
    for engine in engines {
        let s = standardized(engine).unwrap_or(Value::Null);
        let replicas = whole(s.get("replicas")).unwrap_or(1);
        let accelerator = s.get("accelerator");
        let count = whole(accelerator.and_then(|a| a.get("count"))).unwrap_or(0);
        gpus = gpus.saturating_add(replicas.saturating_mul(count));
        if let Some(name) = text(accelerator.and_then(|a| a.get("model"))) {
            if !accelerators.contains(&name) {
                accelerators.push(name);
            }
        }
        if let Some(role) = text(s.get("role")).filter(|r| r != "replica") {
            config
                .settings
                .insert(format!("{role}_replicas"), replicas.to_string());
        }
    }
    if gpus > 0 && !accelerators.is_empty() {
        config.hardware = Some(format!("{gpus}x {}", accelerators.join(" + ")));
    }
    let parallelism = s.get("accelerator").and_then(|a| a.get("parallelism"));
    if let Some(tp) = whole(parallelism.and_then(|p| p.get("tp"))) {
        config.settings.insert("tp".into(), tp.to_string());
    }
    config
}

/// A whole number of at least 0, as the schema's integers are.
fn whole(value: Option<&Value>) -> Option<u64> {
    match json_number(value?) {
        Reading::Value(v) if v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v < 1e12 => {
            Some(v as u64)
        }
        _ => None,
    }
}
