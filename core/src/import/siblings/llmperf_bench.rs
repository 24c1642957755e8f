//! llmperf-bench's files of one model hold the same runs three times: the full summaries
//! (`X_results.json`) are kept, and the condensed `X_summary.json` and `X_cur_N.json` are joined
//! into them (or, without the full file, the `X_cur_N.json` into `X_summary.json`).

use super::join::{folder_of, record};
use crate::import::ImportedFile;
use crate::model::Producer;

/// Joins the condensed files of each model into its fullest file.
pub(super) fn join(imports: &mut [ImportedFile]) {
    for (keeper, condensed) in [("_results.json", "_summary.json"), ("_summary.json", "")] {
        for i in 0..imports.len() {
            if !is_bench(&imports[i]) || imports[i].joined_into.is_some() {
                continue;
            }
            let Some(prefix) = imports[i].file.strip_suffix(keeper).map(String::from) else {
                continue;
            };
            for j in (0..imports.len()).filter(|&j| j != i) {
                let name = imports[j].file.clone();
                let same = (!condensed.is_empty() && name == format!("{prefix}{condensed}"))
                    || is_cur_of(&name, &prefix);
                if same && is_bench(&imports[j]) && folder_of(&name) == folder_of(&prefix) {
                    record(imports, i, j);
                }
            }
        }
    }
}

fn is_bench(file: &ImportedFile) -> bool {
    file.producer == Some(Producer::LlmperfBench) && !file.runs.is_empty()
}

/// `X_cur_8.json` of `X`.
fn is_cur_of(name: &str, prefix: &str) -> bool {
    name.strip_prefix(prefix)
        .and_then(|r| r.strip_prefix("_cur_"))
        .and_then(|r| r.strip_suffix(".json"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}
