//! The model and load GenAI-Perf writes into the name of its artifact directory,
//! `{model}-{endpoint}-{concurrencyN|request_rateR}`, read for the CSV and for the other files
//! GenAI-Perf and AIPerf put there.

use crate::model::{ConfigIdentity, LoadTarget, Rate};

/// Endpoint names GenAI-Perf and AIPerf put between the model and the load in the artifact
/// directory name, longest first.
const ENDPOINTS: [&str; 14] = [
    "openai-image_retrieval",
    "openai-completions",
    "openai-embeddings",
    "openai-multimodal",
    "openai-rankings",
    "openai-generate",
    "openai-chat",
    "triton-tensorrtllm",
    "triton-generate",
    "triton-python",
    "triton-vllm",
    "tensorrtllm_engine",
    "huggingface-generate",
    "openai-templates",
];

/// Model and load from the artifact directory holding the file, as GenAI-Perf names it.
pub(in crate::import) fn artifact_directory(path: &str) -> Option<(ConfigIdentity, LoadTarget)> {
    let mut parts = path.rsplit(['/', '\\']);
    parts.next()?; // the file itself
    let dir = parts.next()?;
    let (rest, stimulus) = dir.rsplit_once('-')?;
    let load = if let Some(n) = stimulus.strip_prefix("concurrency") {
        let n: f64 = n.parse().ok()?;
        (n.is_finite() && n >= 1.0).then_some(LoadTarget::Concurrency(n))?
    } else if let Some(r) = stimulus.strip_prefix("request_rate") {
        let r: f64 = r.parse().ok()?;
        (r.is_finite() && r > 0.0).then_some(LoadTarget::RequestRate(Rate::PerSecond(r)))?
    } else {
        return None;
    };
    let (model, engine) = match ENDPOINTS
        .iter()
        .find_map(|e| rest.strip_suffix(e)?.strip_suffix('-').map(|m| (m, *e)))
    {
        Some((model, endpoint)) if !model.is_empty() => {
            (model.to_string(), Some(endpoint.to_string()))
        }
        _ => (rest.to_string(), None),
    };
    if model.is_empty() {
        return None;
    }
    Some((
        ConfigIdentity {
            model: engine.is_some().then(|| model.clone()),
            // Without a known endpoint the model cannot be told apart from it: the whole
            // prefix is kept as the label.
            label: engine.is_none().then_some(model),
            ..ConfigIdentity::default()
        },
        load,
    ))
}
