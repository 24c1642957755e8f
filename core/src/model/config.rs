//! What was measured: the serving setup a run belongs to ([`ConfigIdentity`]), and the GPUs it
//! ran on as its metadata says.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What was measured: the serving setup a run belongs to. Runs with equal [`ConfigIdentity::key`]
/// form one sweep.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConfigIdentity {
    /// Model name or path, e.g. `meta-llama/Llama-3.1-8B-Instruct`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Serving engine, e.g. `vllm` or `sgl`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// The user's own label for the deployment, e.g. `deepseek-disagg`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Hardware, e.g. `4x A10G`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hardware: Option<String>,
    /// Dataset, e.g. `sharegpt` or `random-1024-128`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<String>,
    /// Server settings that tell configurations of one sweep apart, e.g. `max_num_seqs` → `4`
    /// from `vllm bench sweep` (its folder names and the keys it adds to each result).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
}

impl ConfigIdentity {
    /// The name a configuration is known by in reports: the label if the user gave one, else the
    /// engine, else the model, else `unnamed`; then its settings, if any (`vllm max_num_seqs=4`).
    pub fn key(&self) -> String {
        let mut key = self
            .label
            .as_deref()
            .or(self.engine.as_deref())
            .or(self.model.as_deref())
            .unwrap_or("unnamed")
            .to_string();
        for (name, value) in &self.settings {
            key.push_str(&format!(" {name}={value}"));
        }
        key
    }

    /// The GPUs the hardware description counts (`2x L40S`, `8 × H100`, `4xA10G`), else the
    /// product of the parallel sizes among the settings (`tensor_parallel_size`, `tp`,
    /// `pipeline_parallel_size`, `pp`, `data_parallel_size`, `dp`) when one is there.
    pub fn gpus(&self) -> Option<u32> {
        self.hardware
            .as_deref()
            .and_then(counted_gpus)
            .or_else(|| parallel_gpus(&self.settings))
    }
}

/// `N` of a hardware description that starts `N x …` or `N× …`, for N of at least 1.
fn counted_gpus(hardware: &str) -> Option<u32> {
    let text = hardware.trim();
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let rest = text[digits..].trim_start();
    let n: u32 = text[..digits].parse().ok()?;
    (n >= 1 && (rest.starts_with(['x', 'X', '×']))).then_some(n)
}

/// The product of the parallel sizes among `settings`, when at least one is a whole number.
fn parallel_gpus(settings: &BTreeMap<String, String>) -> Option<u32> {
    const SIZES: [&[&str]; 3] = [
        &["tensor_parallel_size", "tp", "tp_size"],
        &["pipeline_parallel_size", "pp", "pp_size"],
        &["data_parallel_size", "dp", "dp_size"],
    ];
    let mut found = false;
    let mut gpus: u32 = 1;
    for names in SIZES {
        let size = names
            .iter()
            .find_map(|n| settings.get(*n))
            .and_then(|v| v.trim().parse::<u32>().ok())
            .filter(|&v| v >= 1);
        if let Some(size) = size {
            found = true;
            gpus = gpus.checked_mul(size)?;
        }
    }
    found.then_some(gpus)
}
