//! The result blocks `vllm bench serve` (and `benchmark_serving.py`) and SGLang's
//! `bench_serving` print, as people keep them: pasted into a README, a log, a Markdown file with
//! one block per request rate, or a shell script with every line commented out.
//!
//! ```text
//! ============ Serving Benchmark Result ============
//! Successful requests:                     32
//! Benchmark duration (s):                  150.87
//! ---------------Time to First Token----------------
//! Mean TTFT (ms):                          7279.56
//! ==================================================
//! ```
//!
//! Every block in the file is one run. Lines are read after taking off ANSI colours, a comment
//! prefix (`#`, `//`, `>`) and surrounding spaces; progress bars and other lines outside blocks
//! are skipped. Each `label: value` line of a block becomes the key `vllm bench serve --save-result`
//! writes for it, and the block is read by the same code as that JSON ([`super::vllm`]), so the
//! two cannot disagree. The load point comes from the block's own "Traffic request rate" /
//! "Maximum request concurrency" lines, else from those lines printed before it (vLLM prints them
//! above its progress bar), else from the nearest heading, comment or command line before it
//! that names a rate or a concurrency ("## Request rate 10", "# concurrency=32",
//! "--request-rate 4"); a block with none is read at rate ∞, the benchmark's default, with a
//! warning. The `Namespace(...)` vLLM prints before a block ([`namespace`]) names its model,
//! dataset, lengths and tokenizer, and gives its load when no line printed nearer does. Lines the format defines are read wherever they stand in a block, also under
//! sections a fork added ("Performance Metrics", "Latency Metrics"); every other line (an
//! author's "Accuracy Rate (%)") is a warning naming it and its section, and is left out.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::{Map, Number, Value};

mod namespace;

use super::ImportedFile;
use crate::model::{Location, Producer};
use crate::problem::Problem;
use namespace::namespace;

/// The banner that opens a block.
const BANNER: &str = "Serving Benchmark Result";

/// True when some line of `text` opens a result block.
pub(super) fn is_console(text: &str) -> bool {
    text.lines().any(|line| opens_block(&clean(line)))
}

/// Reads every block of `text`.
pub(super) fn read(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile::new(file, Some(Producer::VllmServe));
    let mut context = Context::default();
    let mut block: Option<Block> = None;
    for (index, raw) in text.lines().enumerate() {
        let number = index as u64 + 1;
        let line = clean(raw);
        match block.as_mut() {
            None if opens_block(&line) => block = Some(Block::new(number, &context)),
            None => context.see(&line),
            Some(open) if closes_block(&line) => {
                finish(&mut out, open, number);
                block = None;
                context = Context::default();
            }
            Some(open) => open.see(&line, number, file, &mut out.problems),
        }
    }
    if let Some(open) = block {
        out.problems.push(Problem::error(
            file,
            Location::line(open.start),
            format!(
                "the result block that starts here has no closing `=====` line (the file ends \
                 at line {}); its {} values are read, the rest of the block is missing",
                text.lines().count(),
                open.keys.len()
            ),
        ));
        let end = text.lines().count() as u64;
        finish(&mut out, &open, end);
    }
    if out.runs.is_empty() && out.problems.is_empty() {
        out.problems.push(Problem::error(
            file,
            Location::File,
            format!("no `{BANNER}` block found"),
        ));
    }
    out
}

/// `raw` without ANSI colours (CSI sequences: ESC [ parameters final-byte).
pub(super) fn strip_ansi(raw: &str) -> String {
    let mut text = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            continue;
        }
        text.push(c);
    }
    text
}

/// A line as written, without ANSI colours, a comment prefix, or surrounding spaces: a slice of
/// the line unless it has colours to take out (a one-line JSON file of 700 MB is not copied to
/// be looked at).
fn clean(raw: &str) -> Cow<'_, str> {
    if raw.contains('\u{1b}') {
        Cow::Owned(uncomment(&strip_ansi(raw)).to_string())
    } else {
        Cow::Borrowed(uncomment(raw))
    }
}

/// `line` without surrounding spaces and comment prefixes (`//`, `#`, `>`).
fn uncomment(text: &str) -> &str {
    let mut line = text.trim();
    loop {
        let stripped = line
            .strip_prefix("//")
            .or_else(|| line.strip_prefix('#'))
            .or_else(|| line.strip_prefix('>'));
        match stripped {
            Some(rest) => line = rest.trim_start(),
            None => break,
        }
    }
    line.trim_end()
}

fn opens_block(line: &str) -> bool {
    line.starts_with("==") && line.contains(BANNER)
}

fn closes_block(line: &str) -> bool {
    line.len() >= 10 && line.chars().all(|c| c == '=')
}

/// What was printed before a block: the load lines vLLM prints above its progress bar, and the
/// nearest heading or comment naming a rate or a concurrency.
#[derive(Debug, Default, Clone)]
struct Context {
    rate: Option<Value>,
    concurrency: Option<Value>,
    heading_rate: Option<Value>,
    heading_concurrency: Option<Value>,
    /// The keys of the `Namespace(...)` vLLM printed before the block: its model, dataset,
    /// lengths and tokenizer, and a load below the printed lines' and above a heading's.
    namespace: Option<Map<String, Value>>,
}

impl Context {
    fn see(&mut self, line: &str) {
        if let Some(keys) = namespace(line) {
            self.namespace = Some(keys);
            return;
        }
        if let Some((label, value)) = label_value(line) {
            match label.as_str() {
                "traffic request rate" | "request rate" => {
                    self.rate = rate_value(value);
                    return;
                }
                "maximum request concurrency" | "max request concurrency" => {
                    self.concurrency = count_value(value);
                    return;
                }
                _ => {}
            }
        }
        let rates = ["request rate", "request_rate", "request-rate", "qps", "rps"];
        let concurrencies = ["max_concurrency", "max-concurrency", "concurrency"];
        if let Some(rate) = named_number(line, &rates) {
            self.heading_rate = rate_value(&rate);
            self.heading_concurrency = None;
        } else if let Some(c) = named_number(line, &concurrencies) {
            self.heading_concurrency = count_value(&c);
            self.heading_rate = None;
        }
    }
}

/// One block being read: the result keys so far.
#[derive(Debug)]
struct Block {
    start: u64,
    keys: Map<String, Value>,
    /// For each key, the line it was printed on and its label there.
    lines: BTreeMap<String, (u64, String)>,
    /// The section the lines are in, as its title is written, when the format does not define
    /// it (a fork's "Performance Metrics"): its lines are read all the same, and those that are
    /// not the format's own are named with it.
    own_section: Option<String>,
    context: Context,
}

impl Block {
    fn new(start: u64, context: &Context) -> Block {
        Block {
            start,
            keys: Map::new(),
            lines: BTreeMap::new(),
            own_section: None,
            context: context.clone(),
        }
    }

    fn see(&mut self, line: &str, number: u64, file: &str, problems: &mut Vec<Problem>) {
        if line.is_empty() {
            return;
        }
        if let Some(title) = section_title(line) {
            let known = KNOWN_SECTIONS.contains(&title.to_lowercase().as_str());
            self.own_section = (!known).then(|| title.to_string());
            return;
        }
        let Some((label, value)) = label_value(line) else {
            return;
        };
        match result_key(&label) {
            Some(Key::Number(key)) => match number_value(value) {
                Some(n) => {
                    self.keys.insert(key.clone(), n);
                    self.lines.insert(key, (number, label));
                }
                None => problems.push(Problem::error(
                    file,
                    Location::line(number),
                    format!("`{label}`: expected a number, found `{value}`"),
                )),
            },
            Some(Key::Rate) => self.context.rate = rate_value(value),
            Some(Key::Concurrency) => self.context.concurrency = count_value(value),
            Some(Key::Backend) => {
                self.keys
                    .insert("backend".into(), Value::String(value.to_string()));
            }
            Some(Key::Ignored) => {}
            None => {
                let section = self
                    .own_section
                    .as_ref()
                    .map_or_else(String::new, |s| format!(" (in the section `{s}`)"));
                problems.push(Problem::warning(
                    file,
                    Location::line(number),
                    format!(
                        "`{label}`{section} is not a value of the vLLM or SGLang result; left out"
                    ),
                ));
            }
        }
    }
}

/// Sections of the vLLM and SGLang result blocks.
const KNOWN_SECTIONS: &[&str] = &[
    "time to first token",
    "time per output token (excl. 1st token)",
    "inter-token latency",
    "end-to-end latency",
    "end-to-end latency (e2el)",
    "speculative decoding",
];

/// `----Title----` → `Title`.
fn section_title(line: &str) -> Option<&str> {
    let title = line.trim_matches('-').trim();
    (line.starts_with("---") && line.ends_with("---") && !title.is_empty()).then_some(title)
}

/// `Label (unit):   value` → (`label (unit)` lower case, `value`).
fn label_value(line: &str) -> Option<(String, &str)> {
    let (label, value) = line.rsplit_once(':')?;
    let value = value.trim();
    let label = label.trim();
    (!label.is_empty() && !value.is_empty()).then(|| (label.to_lowercase(), value))
}

/// What a block's line is.
enum Key {
    /// A number stored under this `--save-result` key.
    Number(String),
    /// The request rate.
    Rate,
    /// The concurrency cap.
    Concurrency,
    /// The engine (SGLang prints `Backend:`).
    Backend,
    /// A line of the format that benchdeck's model has no place for.
    Ignored,
}

/// The `--save-result` key of a block's label.
fn result_key(label: &str) -> Option<Key> {
    let number = |key: &str| Some(Key::Number(key.to_string()));
    match label {
        "successful requests" => number("completed"),
        "failed requests" => number("failed"),
        "benchmark duration (s)" => number("duration"),
        "total input tokens" => number("total_input_tokens"),
        "total generated tokens" => number("total_output_tokens"),
        "request throughput (req/s)" => number("request_throughput"),
        "request goodput (req/s)" => number("request_goodput"),
        "output token throughput (tok/s)" => number("output_throughput"),
        "input token throughput (tok/s)" => number("input_throughput"),
        "total token throughput (tok/s)" => number("total_token_throughput"),
        "traffic request rate" | "request rate" => Some(Key::Rate),
        "maximum request concurrency" | "max request concurrency" => Some(Key::Concurrency),
        "backend" => Some(Key::Backend),
        // Speculative decoding: vLLM's section, SGLang's `Accept length`.
        "acceptance rate (%)" => number("spec_decode_acceptance_rate"),
        "acceptance length" | "accept length" => number("spec_decode_acceptance_length"),
        "drafts" => number("spec_decode_num_drafts"),
        "draft tokens" => number("spec_decode_draft_tokens"),
        "accepted tokens" => number("spec_decode_accepted_tokens"),
        // Each draft position's rate: not modelled.
        p if p.starts_with("position ") => Some(Key::Ignored),
        "total generated tokens (retokenized)"
        | "concurrency"
        | "peak output token throughput (tok/s)"
        | "peak concurrent requests"
        | "burstiness factor" => Some(Key::Ignored),
        _ => latency_key(label).map(Key::Number),
    }
}

/// `Mean TTFT (ms)`, `P99 E2E Latency (ms)` → `mean_ttft_ms`, `p99_e2el_ms`.
fn latency_key(label: &str) -> Option<String> {
    let rest = label.strip_suffix(" (ms)")?;
    let (stat, metric) = rest.split_once(' ')?;
    let metric = match metric {
        "ttft" => "ttft",
        "tpot" => "tpot",
        "itl" => "itl",
        "e2el" | "e2e latency" => "e2el",
        _ => return None,
    };
    let known = matches!(stat, "mean" | "median" | "std" | "min" | "max")
        || stat
            .strip_prefix('p')
            .is_some_and(|n| !n.is_empty() && n.parse::<f64>().is_ok());
    known.then(|| format!("{stat}_{metric}_ms"))
}

/// A number as printed (`-0.00` is zero, `1,234.5` has a separator).
fn number_value(text: &str) -> Option<Value> {
    // Thousands separators are read; a decimal comma (`45,50`) is no number.
    let value = crate::number::parse_number(text, &[]).value()?;
    let value = if value == 0.0 { 0.0 } else { value };
    Number::from_f64(value).map(Value::Number)
}

/// A request rate: a positive number or `inf`.
fn rate_value(text: &str) -> Option<Value> {
    let word = text.split_whitespace().next()?;
    if word.eq_ignore_ascii_case("inf") || word.eq_ignore_ascii_case("infinite") {
        return Some(Value::String("inf".into()));
    }
    number_value(word).filter(|n| n.as_f64().is_some_and(|v| v > 0.0))
}

/// A whole number of requests; `not set` and the like are none.
fn count_value(text: &str) -> Option<Value> {
    let word = text.split_whitespace().next()?;
    word.parse::<u64>().ok().map(|n| Value::Number(n.into()))
}

/// The number after one of `names` in a heading or comment: `Request rate 10`, `qps=2.5`,
/// `concurrency: 32`. Names match whole words, case-insensitively.
fn named_number(line: &str, names: &[&str]) -> Option<String> {
    let lower = line.to_lowercase();
    for name in names {
        let mut from = 0;
        while let Some(at) = lower[from..].find(name) {
            let start = from + at;
            let end = start + name.len();
            from = end;
            let before_ok = lower[..start]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric() && c != '_');
            if !before_ok {
                continue;
            }
            let rest = lower[end..].trim_start_matches([' ', ':', '=', '\t']);
            let number: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            if !number.is_empty() {
                return Some(number);
            }
            if rest.starts_with("inf") {
                return Some("inf".into());
            }
        }
    }
    None
}

/// Turns a finished block into a run through the `--save-result` reader.
fn finish(out: &mut ImportedFile, block: &Block, end: u64) {
    // Read as a JSON object whose problems name its keys, then moved to the keys' lines.
    let at = Location::Json {
        line: Some(block.start),
        path: String::new(),
    };
    let mut keys = block.keys.clone();
    let context = &block.context;
    let mut given = context.namespace.clone().unwrap_or_default();
    let (ns_rate, ns_concurrency) = (
        given.remove("request_rate"),
        given.remove("max_concurrency"),
    );
    let (rate, concurrency) = match (&context.rate, &context.concurrency) {
        (None, None) if ns_rate.is_some() || ns_concurrency.is_some() => (ns_rate, ns_concurrency),
        (None, None) => (
            context.heading_rate.clone(),
            context.heading_concurrency.clone(),
        ),
        (rate, concurrency) => (rate.clone(), concurrency.clone()),
    };
    for (key, value) in given {
        keys.entry(key).or_insert(value);
    }
    let assumed = rate.is_none() && concurrency.is_none();
    keys.insert(
        "request_rate".into(),
        rate.unwrap_or_else(|| Value::String("inf".into())),
    );
    if let Some(c) = concurrency {
        keys.insert("max_concurrency".into(), c);
    }
    let sglang = keys
        .get("backend")
        .and_then(Value::as_str)
        .is_some_and(|b| b.to_lowercase().contains("sglang"));
    match super::vllm::read_serve_object(&out.file, &Value::Object(keys), at) {
        Ok(mut run) => {
            if assumed {
                run.problems.push(Problem::warning(
                    &out.file,
                    Location::line(block.start),
                    format!(
                        "the result block (lines {}-{end}) names no load point: no `Traffic \
                         request rate` or `Maximum request concurrency` line in or before it, \
                         and no heading before it such as `## Request rate 10`; read as every \
                         request sent at once (rate ∞), the benchmark's default",
                        block.start
                    ),
                ));
            }
            if sglang {
                run.provenance.producer = Producer::SglangServing;
                out.producer = Some(Producer::SglangServing);
            }
            run.provenance.location = Location::line(block.start);
            run.problems = std::mem::take(&mut run.problems)
                .into_iter()
                .map(|p| at_its_line(p, block))
                .collect();
            out.runs.push(run);
        }
        Err(problem) => out.problems.push(at_its_line(problem, block)),
    }
}

/// `problem`, found at a key of the block read as an object, at the line that key was printed
/// on and named by its label there (`s.log:4: error: `successful requests`: expected a whole
/// number…`); a key the block did not print (its load, from the lines before it) is at the
/// block's first line.
fn at_its_line(problem: Problem, block: &Block) -> Problem {
    let Location::Json { path, .. } = &problem.location else {
        return problem;
    };
    // The longest key the path starts with: `p99.9_ttft_ms` holds a `.` of its own.
    let line = block
        .lines
        .iter()
        .filter(|(key, _)| {
            path.strip_prefix(key.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
        })
        .max_by_key(|(key, _)| key.len())
        .map(|(_, line)| line);
    match line {
        Some((line, label)) => Problem {
            location: Location::line(*line),
            message: format!("`{label}`: {}", problem.message),
            ..problem
        },
        None => Problem {
            location: Location::line(block.start),
            ..problem
        },
    }
}

#[cfg(test)]
mod tests;
