//! philschmid/llmperf-bench: llmperf run once per concurrency, its summaries gathered in one
//! JSON object keyed by the concurrency (`"1"`, `"2"`, … `"128"`), in run order:
//! - `{model}_tp_{gpus}_results.json`: each value a whole llmperf summary, read by
//!   [`super::llmperf`]'s reader (times in seconds; `results_inter_token_latency_s` is the
//!   request latency over its output tokens, TTFT included: TPOT including the first token);
//! - `{model}_tp_{gpus}_summary.json`: each value condensed to `concurrency`,
//!   `first-time-to-token_mean_in_ms` (mean TTFT), `latency_ms_per_token` (the same llmperf
//!   "ITL" in ms: TPOT including the first token), `throughput_token_per_s` (output tokens per
//!   second of the run) and the **configured** mean lengths `input_token_length` /
//!   `output_token_length` (the workload's targets, not measured);
//! - `{model}_tp_{gpus}_cur_{c}.json`: one condensed object alone.
//!
//! One run per concurrency, sorted by it. The file name's `tp_{gpus}` becomes the `tp` setting;
//! the condensed files name no model, so theirs is the file name's (`meta-llama_Llama-3-8B`,
//! its `/` written as `_`). The three files of one model hold the same runs: `import_all` keeps
//! the full summaries and joins the condensed files into them.

use serde_json::{Map, Value};

use super::fields::Fields;
use super::llmperf::{is_summary as is_llmperf_summary, read_summary_document};
use super::unread::Unread;
use super::ImportedFile;
use crate::model::{
    Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer, Provenance, Run,
};
use crate::problem::Problem;

/// The keys of a condensed summary.
const CONDENSED: [&str; 6] = [
    "concurrency",
    "input_token_length",
    "output_token_length",
    "first-time-to-token_mean_in_ms",
    "throughput_token_per_s",
    "latency_ms_per_token",
];

fn is_condensed(value: &Value) -> bool {
    value.as_object().is_some_and(|o| {
        o.contains_key("concurrency")
            && o.contains_key("first-time-to-token_mean_in_ms")
            && o.keys().all(|k| CONDENSED.contains(&k.as_str()))
    })
}

fn is_concurrency_key(key: &str) -> bool {
    key.parse::<u32>().is_ok_and(|n| n >= 1) && !key.starts_with('0')
}

/// True for a keyed file (every key a concurrency, every value a summary of either form) or a
/// single condensed object.
pub(super) fn is_results(value: &Value) -> bool {
    if is_condensed(value) {
        return true;
    }
    let Some(obj) = value.as_object() else {
        return false;
    };
    !obj.is_empty()
        && obj
            .iter()
            .all(|(k, v)| is_concurrency_key(k) && v.is_object())
        && obj
            .values()
            .any(|v| is_llmperf_summary(v) || is_condensed(v))
}

/// Reads every concurrency's summary into a run.
pub(super) fn read_document(out: &mut ImportedFile, value: &Value, at: Location) {
    let Some(obj) = out.require(
        value.as_object(),
        &at,
        "expected an object of llmperf summaries keyed by concurrency",
    ) else {
        return;
    };
    let tp = tp_of(&out.file);
    if is_condensed(value) {
        read_condensed(out, obj, None, at.clone());
    } else {
        let mut keys: Vec<(u32, &String)> = Vec::new();
        for key in obj.keys() {
            match key.parse::<u32>() {
                Ok(concurrency) if is_concurrency_key(key) => keys.push((concurrency, key)),
                _ => out.problems.push(Problem::error(
                    &out.file,
                    at.child(key),
                    "expected a concurrency (a whole number from 1) as the key of each llmperf \
                     summary, or the six keys of a condensed summary; this entry is not read",
                )),
            }
        }
        keys.sort();
        for (concurrency, key) in keys {
            let here = at.child(key);
            match obj.get(key.as_str()) {
                Some(v) if is_llmperf_summary(v) => read_full(out, v, concurrency, here),
                Some(Value::Object(o)) => read_condensed(out, o, Some(concurrency), here),
                Some(other) => out.problems.push(Problem::error(
                    &out.file,
                    here,
                    format!(
                        "expected an llmperf summary (an object), found {}",
                        crate::number::describe_json(other)
                    ),
                )),
                None => {}
            }
        }
    }
    if out.runs.is_empty() && out.problems.is_empty() {
        out.problems.push(Problem::error(
            &out.file,
            at.clone(),
            "no llmperf summary here; expected summaries keyed by concurrency or a condensed \
             summary",
        ));
    }
    for run in &mut out.runs {
        run.provenance.producer = Producer::LlmperfBench;
        if let Some(tp) = &tp {
            run.config.settings.insert("tp".into(), tp.clone());
        }
    }
}

/// The keys of an llmperf summary its reader does not model.
fn unread_keys(value: &Value, unread: &mut Unread) {
    const READ: [&str; 6] = [
        "version",
        "model",
        "num_concurrent_requests",
        "mean_input_tokens",
        "mean_output_tokens",
        "timestamp",
    ];
    let Some(obj) = value.as_object() else { return };
    for key in obj.keys() {
        let read = READ.contains(&key.as_str())
            || key.starts_with("results_ttft_s")
            || key.starts_with("results_end_to_end_latency_s")
            || key.starts_with("results_inter_token_latency_s")
            || key.starts_with("results_number_input_tokens")
            || key.starts_with("results_number_output_tokens")
            || matches!(
                key.as_str(),
                "results_num_requests_started"
                    | "results_number_errors"
                    | "results_error_code_frequency"
                    | "results_mean_output_throughput_token_per_s"
                    | "results_num_completed_requests"
                    | "results_num_completed_requests_per_min"
            );
        if !read {
            unread.name(key.clone());
        }
    }
}

/// One full llmperf summary, checked against its key.
fn read_full(out: &mut ImportedFile, value: &Value, key: u32, at: Location) {
    let before = out.runs.len();
    read_summary_document(out, value, at.clone());
    let Some(run) = out.runs.get_mut(before) else {
        return;
    };
    let mut unread = Unread::default();
    unread_keys(value, &mut unread);
    run.problems
        .extend(unread.warning(&out.file, at.clone(), "the llmperf summary"));
    let inner = run.load.target;
    if inner != LoadTarget::Concurrency(f64::from(key)) {
        let (file, location) = (out.file.clone(), at.child("num_concurrent_requests"));
        run.problems.push(Problem::warning(
            &file,
            location,
            format!("the summary says {inner}, but its key says concurrency {key}; the summary's is kept"),
        ));
        if inner == LoadTarget::MaxThroughput {
            run.load.target = LoadTarget::Concurrency(f64::from(key));
        }
    }
}

/// One condensed summary: mean TTFT, mean TPOT including the first token, output throughput,
/// and the configured lengths.
fn read_condensed(
    out: &mut ImportedFile,
    obj: &Map<String, Value>,
    key: Option<u32>,
    at: Location,
) {
    let mut f = Fields::new(obj, &out.file, at.clone());
    let concurrency = f
        .number("concurrency")
        .filter(|c| c.is_finite() && *c >= 1.0)
        .or(key.map(f64::from));
    if let (Some(c), Some(k)) = (concurrency, key) {
        if c != f64::from(k) {
            f.warn_at(
                "concurrency",
                format!("{c}, but its key says {k}; the value is kept"),
            );
        }
    }
    let target = concurrency.map_or(LoadTarget::MaxThroughput, LoadTarget::Concurrency);
    let mut run = Run::new(
        Provenance::new(&out.file, at.clone(), Producer::LlmperfBench),
        Default::default(),
        LoadPoint::new(target),
    );
    run.config.model = model_of(&out.file);
    for (key, metric) in [
        ("first-time-to-token_mean_in_ms", Metric::Ttft),
        // llmperf's "ITL": the request latency over its output tokens, TTFT included.
        ("latency_ms_per_token", Metric::TpotInclFirst),
    ] {
        if let Some(mean) = f.non_negative(key) {
            run.latency.push(LatencyMetric {
                metric,
                distribution: Distribution {
                    mean: Some(mean),
                    ..Default::default()
                },
            });
        }
    }
    run.throughput.output_tok_s = f.non_negative("throughput_token_per_s");
    let target = |f: &mut Fields<'_>, key: &str| {
        f.non_negative(key)
            .filter(|v| *v >= 0.0 && *v < 1e12)
            .map(|v| v.round() as u64)
    };
    run.workload.input_len = target(&mut f, "input_token_length");
    run.workload.output_len = target(&mut f, "output_token_length");
    run.problems = f.problems;
    run.problems.push(Problem::warning(
        &out.file,
        at,
        "llmperf-bench's condensed summary: mean TTFT, mean TPOT including the first token and \
         the output throughput only, no request counts; the model is the file name's",
    ));
    out.runs.push(run);
}

/// `1` of `…_tp_1_results.json`.
fn tp_of(path: &str) -> Option<String> {
    let name = path.rsplit(['/', '\\']).next()?;
    let rest = &name[name.rfind("_tp_")? + 4..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    (!digits.is_empty()).then_some(digits)
}

/// `meta-llama_Meta-Llama-3-8B-Instruct` of `meta-llama_Meta-Llama-3-8B-Instruct_tp_1_….json`.
fn model_of(path: &str) -> Option<String> {
    let name = path.rsplit(['/', '\\']).next()?;
    let model = &name[..name.rfind("_tp_")?];
    (!model.is_empty()).then(|| model.to_string())
}

#[cfg(test)]
mod tests;
