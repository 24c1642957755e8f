//! A first draft of a mapping file from the keys a result file holds (`benchdeck inspect
//! --suggest-mapping FILE`): each key's name says what it may be (a load, a configuration field,
//! a latency statistic with its unit from `_ms`, `_s`, `_us` or `_ns`, a throughput, a count).
//! A guess is only a draft: every line says what it read, and the keys it could not place are
//! listed for the user to map or leave out.

use serde_json::Value;

use super::flat::flatten;
use crate::import::table;

/// The draft of a mapping file for the result file `file` holding `text`; `Err` says why no
/// keys could be read.
pub fn suggest_mapping(file: &str, text: &str) -> Result<String, String> {
    let text = crate::json::strip_bom(text);
    let name = file.rsplit('/').next().unwrap_or(file);
    let (keys, runs) = keys_of(file, text)?;
    let mut targets: Vec<String> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    let mut unplaced: Vec<&str> = Vec::new();
    for key in &keys {
        match guess(key) {
            Some((target, item)) if !targets.contains(&target) => {
                targets.push(target);
                lines.push(item);
            }
            _ => unplaced.push(key),
        }
    }
    Ok(draft(name, runs.as_deref(), &targets, &lines, &unplaced))
}

/// The keys of the file's first run (a CSV's header), and a JSON file's path to its runs.
fn keys_of(file: &str, text: &str) -> Result<(Vec<String>, Option<String>), String> {
    if !text.trim_start().starts_with(['{', '[']) {
        let (rows, broken) = table::read_rows(file, text);
        return match rows.first() {
            Some(header) => Ok((header.cells.clone(), None)),
            None => Err(broken.map_or("the file is empty".to_string(), |p| p.message)),
        };
    }
    let first = if crate::json::looks_like_json_lines(text) {
        crate::json::parse_lines(text)
            .into_iter()
            .next()
            .map(|l| l.value)
    } else {
        Some(crate::json::parse(text, 0))
    };
    let value = match first {
        Some(Ok(value)) => value,
        Some(Err(e)) => return Err(e.message),
        None => return Err("the file is empty".to_string()),
    };
    let (run, runs) = first_run(&value);
    let keys = flatten(run).into_iter().map(|(k, _)| k).collect();
    Ok((keys, runs))
}

/// A document's first run: the first object of the array it is, or of its first key holding an
/// array of objects (that key's path then goes in `runs:`), or the document itself.
fn first_run(value: &Value) -> (&Value, Option<String>) {
    if let Value::Array(list) = value {
        return (list.first().unwrap_or(value), None);
    }
    if let Value::Object(map) = value {
        for (key, v) in map {
            if let Some(first @ Value::Object(_)) = v.as_array().and_then(|l| l.first()) {
                return (first, Some(key.clone()));
            }
        }
    }
    (value, None)
}

/// A key's words, lower case: `ttft_p50_ms` is `ttft`, `p50`, `ms`.
fn words_of(lower: &str) -> Vec<&str> {
    lower
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '.')
        .flat_map(|w| w.split('.'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// True when `key` names a latency and its unit (`ttft_p50_ms`, `lat_p99_s`), so a guess of
/// it does not assume milliseconds.
pub(in crate::import) fn names_a_latency_and_its_unit(key: &str) -> bool {
    let lower = key.to_ascii_lowercase();
    let words = words_of(&lower);
    latency_metric(&lower, &words).is_some() && time_unit(&words).is_some()
}

/// What `key` may map to: the target's name (each is mapped once) and the map's item.
pub(in crate::import) fn guess(key: &str) -> Option<(String, String)> {
    let lower = key.to_ascii_lowercase();
    let words = words_of(&lower);
    let has = |w: &str| words.contains(&w);
    let any = |ws: &[&str]| ws.iter().any(|w| has(w));
    if let Some(kind) = load_kind(&words) {
        return Some(("load".into(), format!("load={kind}:{key}")));
    }
    for (field, names) in CONFIG_FIELDS {
        if words.len() <= 2 && any(names) && !any(&["tok", "tokens", "ms", "s"]) {
            return Some((format!("config.{field}"), format!("config.{field}={key}")));
        }
    }
    if let Some(metric) = latency_metric(&lower, &words) {
        let stat = statistic(&words)?;
        let unit = time_unit(&words).unwrap_or("ms");
        let target = format!("{metric}.{stat}");
        return Some((target.clone(), format!("{target}={key} ({unit})")));
    }
    let rate = |name: &str| Some((name.to_string(), format!("{name}={key}")));
    let per_second = any(&["s", "sec", "per_s", "ps", "throughput", "tps", "rate"]);
    if any(&["tok", "tokens", "token"]) && per_second {
        return if any(&["output", "out", "gen", "generation", "completion"]) {
            rate("output_tok_s")
        } else if any(&["input", "in", "prompt"]) {
            rate("input_tok_s")
        } else {
            rate("total_tok_s")
        };
    }
    if any(&["rps", "qps"]) || (any(&["req", "requests", "request"]) && per_second) {
        return rate("requests_per_s");
    }
    for (target, names) in COUNTS {
        if words.len() <= 2 && any(names) {
            return rate(target);
        }
    }
    None
}

/// Configuration fields and the words that name them.
const CONFIG_FIELDS: [(&str, &[&str]); 5] = [
    ("model", &["model", "model_id", "model_name"]),
    ("engine", &["engine", "backend", "framework", "server"]),
    ("hardware", &["hardware", "gpu", "accelerator", "device"]),
    ("dataset", &["dataset", "dataset_name", "workload"]),
    ("label", &["label", "name", "config", "setup"]),
];

/// Counts and the words that name them.
const COUNTS: [(&str, &[&str]); 3] = [
    (
        "succeeded",
        &["completed", "succeeded", "successful", "success", "ok"],
    ),
    ("failed", &["failed", "failures", "errors", "error"]),
    ("total", &["total", "num_requests", "requests", "count"]),
];

/// Words that make a `rate` something other than the load: `error_rate`, `hit_rate`.
const NOT_A_LOAD: [&str; 8] = [
    "error",
    "errors",
    "success",
    "hit",
    "cache",
    "fail",
    "failure",
    "acceptance",
];

/// The load kind a key's words name, when they name one.
fn load_kind(words: &[&str]) -> Option<&'static str> {
    if words.iter().any(|w| NOT_A_LOAD.contains(w)) {
        return None;
    }
    let only = |names: &[&str]| words.len() <= 2 && words.iter().any(|w| names.contains(w));
    if only(&[
        "concurrency",
        "conc",
        "users",
        "vus",
        "concurrent",
        "clients",
    ]) {
        Some("concurrency")
    } else if only(&["request_rate", "qps", "rate", "rps"]) && !words.contains(&"achieved") {
        Some("rate")
    } else if only(&["batch", "batch_size", "bs"]) {
        Some("batch")
    } else {
        None
    }
}

/// The latency metric a key names.
fn latency_metric(lower: &str, words: &[&str]) -> Option<&'static str> {
    let has = |w: &str| words.contains(&w);
    if has("ttft") || lower.contains("first_token") {
        Some("ttft")
    } else if has("tpot") || lower.contains("per_output_token") {
        Some("tpot")
    } else if has("itl") || lower.contains("inter_token") {
        Some("itl")
    } else if has("e2e") || has("e2el") || has("latency") || has("lat") || has("response_time") {
        Some("e2e")
    } else {
        None
    }
}

/// The statistic a key's words name (`p99`, `median`, `mean`, ...).
fn statistic(words: &[&str]) -> Option<String> {
    for w in words.iter().rev() {
        let stat = match *w {
            "mean" | "avg" | "average" => "mean".to_string(),
            "median" => "median".to_string(),
            "std" | "stdev" | "stddev" => "std".to_string(),
            "min" => "min".to_string(),
            "max" => "max".to_string(),
            w if w.starts_with('p')
                && w[1..].parse::<f64>().is_ok_and(|p| p > 0.0 && p < 100.0) =>
            {
                w.to_string()
            }
            _ => continue,
        };
        return Some(stat);
    }
    None
}

/// The time unit a key's words name.
fn time_unit(words: &[&str]) -> Option<&'static str> {
    words.iter().rev().find_map(|w| match *w {
        "ms" | "msec" | "millis" => Some("ms"),
        "s" | "sec" | "secs" | "seconds" => Some("s"),
        "us" | "usec" | "micros" => Some("us"),
        "ns" | "nsec" | "nanos" => Some("ns"),
        _ => None,
    })
}

/// The mapping file's text.
fn draft(
    name: &str,
    runs: Option<&str>,
    targets: &[String],
    lines: &[String],
    unplaced: &[&str],
) -> String {
    let mut out = format!(
        "# A first draft of a mapping file, from the keys of `{name}` (benchdeck inspect\n\
         # --suggest-mapping): check every line, then save it as benchdeck-mapping.yaml beside\n\
         # the result files. The targets and units are README's \"Your own CSV\"; a unit not in\n\
         # the key's name was taken to be ms.\n\
         files: \"{name}\"\n"
    );
    if let Some(runs) = runs {
        out.push_str(&format!("runs: {runs}\n"));
    }
    out.push_str("map:\n");
    if !targets.iter().any(|t| t == "load") {
        out.push_str(
            "  # No key names the load: add `- load=concurrency:<key>` (or `rate`, `batch`).\n",
        );
    }
    for line in lines {
        out.push_str(&format!("  - {line}\n"));
    }
    if !unplaced.is_empty() {
        out.push_str("# Not placed (map them, or leave them out):\n");
        for key in unplaced {
            out.push_str(&format!("#   {key}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::suggest_mapping;
    use crate::import::import_all;
    use crate::input::InputFile;
    use crate::model::{LoadTarget, Metric, Producer, Stat};

    #[test]
    fn a_draft_from_a_csvs_header_reads_the_file() {
        let csv = "users,model,ttft_p50_ms,lat_p99_s,out_tok_s,completed,failed,notes\n\
                   1,qwen,40,2.5,48.5,20,0,warm\n8,qwen,90,3.5,300,20,0,\n";
        let draft = suggest_mapping("mine/run.csv", csv).unwrap();
        assert!(draft.contains("files: \"run.csv\"\n"), "{draft}");
        for item in [
            "  - load=concurrency:users\n",
            "  - config.model=model\n",
            "  - ttft.p50=ttft_p50_ms (ms)\n",
            "  - e2e.p99=lat_p99_s (s)\n",
            "  - output_tok_s=out_tok_s\n",
            "  - succeeded=completed\n",
            "  - failed=failed\n",
            "#   notes\n",
        ] {
            assert!(draft.contains(item), "{item}: {draft}");
        }
        // The draft, saved beside the file, reads it.
        let imports = import_all(&[
            InputFile {
                path: "mine/benchdeck-mapping.yaml".into(),
                bytes: draft.into_bytes(),
            },
            InputFile {
                path: "mine/run.csv".into(),
                bytes: csv.as_bytes().to_vec(),
            },
        ]);
        let f = imports.iter().find(|f| f.file == "mine/run.csv").unwrap();
        assert_eq!(f.producer, Some(Producer::Mapped));
        assert_eq!(f.runs.len(), 2);
        assert_eq!(f.runs[1].load.target, LoadTarget::Concurrency(8.0));
        assert_eq!(
            f.runs[1].latency_stat(Metric::E2e, Stat::P(99.0)),
            Some(3500.0)
        );
    }

    #[test]
    fn a_draft_from_json_finds_the_runs_and_says_when_no_key_is_the_load() {
        let json = r#"{"meta": {"tool": "x"}, "runs": [{"engine": "vllm",
            "ttft": {"mean_ms": 40, "p99_ms": 90}, "tokens_per_sec": 300}]}"#;
        let draft = suggest_mapping("r.json", json).unwrap();
        assert!(draft.contains("runs: runs\n"), "{draft}");
        assert!(draft.contains("  - config.engine=engine\n"), "{draft}");
        assert!(
            draft.contains("  - ttft.mean=ttft.mean_ms (ms)\n"),
            "{draft}"
        );
        assert!(draft.contains("  - ttft.p99=ttft.p99_ms (ms)\n"), "{draft}");
        assert!(
            draft.contains("  - total_tok_s=tokens_per_sec\n"),
            "{draft}"
        );
        assert!(draft.contains("No key names the load"), "{draft}");
        assert!(suggest_mapping("e.json", "{").is_err());
    }
}
