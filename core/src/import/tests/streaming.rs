//! The streaming import (per-request lists read aside as the parser goes, `import::document`)
//! gives exactly what parsing each document whole gave ([`import_whole`]): the same runs, values
//! and problems, at the same places, for every JSON fixture and the repository's results, for
//! those files cut short at many places, and for their values replaced by wrong types.

use std::path::Path;

use serde_json::{json, Value};

use crate::import::{import, import_whole};

/// The files whose per-request lists the streaming import reads aside: vLLM's `--save-detailed`
/// results (one document, JSON Lines, SGLang's), GuideLLM's reports.
const STREAMED: [&str; 9] = [
    "vllm/concurrency2-qwen.json",
    "vllm/llama-appended.jsonl",
    "sglang/broken.jsonl",
    "guidellm/v0.3/benchmarks.json",
    "guidellm/v0.4/benchmarks.json",
    "guidellm/v0.7/benchmarks.json",
    "guidellm/broken/all-failed.json",
    "guidellm/broken/nan.json",
    "guidellm/broken/wrong-types.json",
];

/// The most cut points, and the most places broken, per file (each tried with every
/// replacement), spread evenly over the file.
const CUTS: usize = 200;
const PLACES: usize = 100;

/// Both imports of `bytes` as `name`, compared by their debug form (`NaN` equals itself there).
fn assert_same(name: &str, bytes: &[u8], case: &str) {
    let streamed = format!("{:#?}", import(name, bytes));
    let whole = format!("{:#?}", import_whole(name, bytes));
    if streamed != whole {
        let at = streamed
            .lines()
            .zip(whole.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        let line = |text: &str| text.lines().nth(at).unwrap_or("(end)").to_string();
        panic!(
            "{name} ({case}): the streamed import differs at line {at} of its debug form: \
             streamed `{}`, whole `{}`",
            line(&streamed),
            line(&whole)
        );
    }
}

/// Every `.json` and `.jsonl` file below `dir`, relative to the repository's root.
fn json_files(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            json_files(root, &path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("json" | "jsonl")
        ) {
            let relative = path.strip_prefix(root).unwrap();
            out.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
}

#[test]
fn every_json_fixture_and_result_imports_as_when_parsed_whole() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    json_files(&root, &root.join("tests").join("fixtures"), &mut files);
    json_files(&root, &root.join("results"), &mut files);
    assert!(files.len() > 100, "only {} files found", files.len());
    for file in &files {
        let bytes = std::fs::read(root.join(file)).unwrap();
        assert_same(file, &bytes, "as written");
    }
}

#[test]
fn cut_short_anywhere_the_streamed_import_is_the_whole_one() {
    for path in STREAMED {
        let bytes = crate::fixtures::bytes(path);
        let step = (bytes.len() / CUTS).max(1);
        for end in (0..bytes.len()).step_by(step) {
            assert_same(path, &bytes[..end], &format!("cut at byte {end}"));
        }
    }
}

#[test]
fn wrong_types_anywhere_give_the_same_runs_and_problems() {
    let replacements = [
        Value::Null,
        json!("slow"),
        json!("NaN"),
        json!(-1),
        json!(1e308),
        json!([]),
        json!([1, "x"]),
        json!({}),
        json!(true),
    ];
    for path in STREAMED {
        for doc in crate::fixtures::json_documents(&crate::fixtures::text(path)) {
            let places = crate::fixtures::json_pointers(&doc);
            let step = (places.len() / PLACES).max(1);
            for place in places.iter().step_by(step) {
                for replacement in &replacements {
                    let mut changed = doc.clone();
                    *changed.pointer_mut(place).unwrap() = replacement.clone();
                    let text = changed.to_string();
                    assert_same(path, text.as_bytes(), &format!("{place} = {replacement}"));
                }
            }
        }
    }
}

/// The messages of importing `text` as `name`, one a line, checked equal to the whole import's.
fn messages(name: &str, text: &str) -> String {
    assert_same(name, text.as_bytes(), "as given");
    crate::fixtures::messages(&import(name, text.as_bytes()))
}

#[test]
fn a_bad_value_in_a_streamed_list_is_an_error_at_its_json_path() {
    let mut doc =
        crate::fixtures::json_documents(&crate::fixtures::text("vllm/concurrency2-qwen.json"))
            .remove(0);
    doc["ttfts"][2] = json!(true);
    doc["latencies"] = json!("soon");
    let said = messages("run.json", &doc.to_string());
    assert!(
        said.contains("run.json#ttfts[2]: error: expected a number, found the boolean true"),
        "{said}"
    );
    assert!(
        said.contains(
            "run.json#latencies: error: expected an array of numbers, found the string \"soon\""
        ),
        "{said}"
    );

    let path = "guidellm/v0.4/benchmarks.json";
    let mut doc = crate::fixtures::json_documents(&crate::fixtures::text(path)).remove(0);
    doc["benchmarks"][2]["requests"]["successful"][0]["time_to_first_token_ms"] = json!([40]);
    doc["benchmarks"][1]["requests"]["errored"] = json!(7);
    let said = messages("b.json", &doc.to_string());
    assert!(
        said.contains(
            "b.json#benchmarks[2].requests.successful[0].time_to_first_token_ms: error: \
             expected a number, found an array"
        ),
        "{said}"
    );
    assert!(
        said.contains("b.json#benchmarks[1].requests.errored: error: expected a list of requests"),
        "{said}"
    );
}

#[test]
fn a_truncated_file_is_an_error_at_its_line_and_column() {
    let text = crate::fixtures::text("guidellm/v0.4/benchmarks.json");
    let cut = &text[..text.len() / 2];
    let said = messages("cut.json", cut);
    assert!(said.starts_with("cut.json:"), "{said}");
    assert!(said.contains(": error: "), "{said}");
    let vllm = crate::fixtures::text("vllm/concurrency2-qwen.json");
    let cut = &vllm[..vllm.find("\"itls\"").unwrap() + 12];
    let said = messages("cut.json", cut);
    assert!(said.starts_with("cut.json:1:"), "{said}");
}
