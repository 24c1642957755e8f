//! What differs between two runs of one configuration on either side of a change point: the
//! engine and its version, the benchmarking tool and its version, the model, the hardware, the
//! dataset, what was sent (lengths, burstiness, tokenizer) and every metadata key (`--metadata`
//! pairs such as a commit or a driver version). The settings are part of the configuration's
//! name, so both runs share them.

use serde::Serialize;

use crate::model::Run;

/// One thing that differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// What it is: `engine version`, `model`, or a metadata key.
    pub what: String,
    /// Its value in the run before; absent when that run does not say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    /// Its value in the run after.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
}

impl Difference {
    /// `driver 550 → 560`, `commit (none) → a1b2c3`.
    pub fn text(&self) -> String {
        let side = |v: &Option<String>| v.clone().unwrap_or_else(|| "(not stated)".into());
        format!(
            "{} {} → {}",
            self.what,
            side(&self.before),
            side(&self.after)
        )
    }
}

/// Everything that differs between `before` and `after`, in the order above.
pub fn differences(before: &Run, after: &Run) -> Vec<Difference> {
    let described = |run: &Run| -> Vec<(String, Option<String>)> {
        let tool = run.provenance.producer.display_name();
        let mut fields = vec![
            ("engine".to_string(), run.config.engine.clone()),
            (
                "engine version".to_string(),
                run.workload.engine_version.clone(),
            ),
            (
                "benchmark tool".to_string(),
                Some(match &run.provenance.producer_version {
                    Some(version) => format!("{tool} {version}"),
                    None => tool.to_string(),
                }),
            ),
            ("model".to_string(), run.config.model.clone()),
            ("hardware".to_string(), run.config.hardware.clone()),
            ("dataset".to_string(), run.config.dataset.clone()),
            (
                "input length".to_string(),
                run.workload.input_len.map(|n| n.to_string()),
            ),
            (
                "output length".to_string(),
                run.workload.output_len.map(|n| n.to_string()),
            ),
            (
                "burstiness".to_string(),
                run.workload.burstiness.map(|b| b.to_string()),
            ),
            ("tokenizer".to_string(), run.workload.tokenizer.clone()),
        ];
        fields.extend(
            run.metadata
                .iter()
                .map(|(k, v)| (k.clone(), Some(v.clone()))),
        );
        fields
    };
    let (old, new) = (described(before), described(after));
    let mut names: Vec<&String> = old.iter().map(|(n, _)| n).collect();
    for (name, _) in &new {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let value = |list: &[(String, Option<String>)], name: &str| {
        list.iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.clone())
    };
    names
        .into_iter()
        .filter_map(|name| {
            let (b, a) = (value(&old, name), value(&new, name));
            (b != a).then(|| Difference {
                what: name.clone(),
                before: b,
                after: a,
            })
        })
        .collect()
}
