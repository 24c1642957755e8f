//! What simple_full_stack_inference's `sweep.sh` writes around Locust's CSVs: the folder
//! `{model}_{task_set}_u{users}` whose name gives the configuration and load, and the
//! `run_config.json` beside them (configuration, not results).

use serde_json::Value;

use crate::import::ImportedFile;
use crate::model::{ConfigIdentity, Location};
use crate::problem::Problem;

/// sweep.sh's folder `results/<timestamp>/{model}_{task_set}_u{users}/`: the configuration and
/// the number of users.
pub(super) fn sweep_folder(path: &str) -> Option<(ConfigIdentity, f64)> {
    let mut parts = path.rsplit(['/', '\\']);
    parts.next()?;
    let dir = parts.next()?;
    let (rest, users) = dir.rsplit_once("_u")?;
    if users.is_empty() || !users.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let users: f64 = users.parse().ok()?;
    if users < 1.0 {
        return None;
    }
    let (model, task) = rest.rsplit_once('_')?;
    if model.is_empty() || task.is_empty() {
        return None;
    }
    Some((
        ConfigIdentity {
            model: Some(model.to_string()),
            label: Some(rest.to_string()),
            dataset: Some(task.to_string()),
            ..ConfigIdentity::default()
        },
        users,
    ))
}

/// True for the `run_config.json` sweep.sh writes beside the Locust CSVs.
pub(in crate::import) fn is_run_config(value: &Value) -> bool {
    value.as_object().is_some_and(|o| {
        o.contains_key("users") && o.contains_key("model_name") && o.contains_key("task_set")
    })
}

/// Reports a sweep.sh `run_config.json`: configuration, not results.
pub(in crate::import) fn read_run_config(out: &mut ImportedFile, value: &Value, at: Location) {
    let text = |key: &str| match value.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => "?".to_string(),
    };
    out.problems.push(Problem::warning(
        &out.file,
        at,
        format!(
            "sweep.sh run configuration (model `{}`, task set `{}`, {} users): configuration \
             only, not results; the run is read from the Locust `_stats.csv` beside it, whose \
             folder name `{{model}}_{{task_set}}_u{{users}}` carries these settings",
            text("model_name"),
            text("task_set"),
            text("users")
        ),
    ));
}
