//! A tidy CSV of your own (one row per run), mapped to benchdeck's model by `# benchdeck:` lines
//! at the top of the file.
//!
//! A per-file importer sees no sidecar file, so the mapping lives in the CSV itself: every line
//! before the header that starts with `# benchdeck:` holds mappings separated by commas, each
//! `target=source`. Other lines starting with `#` are comments, anywhere in the file. A file
//! that starts with `#` but has no `# benchdeck:` line before its first other line is not a
//! tidy CSV and goes to the next text format (Markdown reports start with `#` too).
//!
//! ```text
//! # benchdeck: load=concurrency:users, config=engine, config.hardware="1x A10G"
//! # benchdeck: ttft.p50=ttft_p50 (s), ttft.p99=ttft_p99 (s), e2e.mean=latency_ms (ms)
//! # benchdeck: output_tok_s=tok_per_s, succeeded=ok, failed=errors
//! users,engine,ttft_p50,ttft_p99,latency_ms,tok_per_s,ok,errors
//! 1,vllm,0.081,0.120,2500,48.5,20,0
//! 8,vllm,0.240,0.410,3900,310.2,20,0
//! ```
//!
//! | mapping | meaning |
//! |---|---|
//! | `load=<kind>:<column>` | the load point, required once; kind `concurrency`, `rate` (req/s, `inf` allowed) or `batch` |
//! | `<metric>.<stat>=<column> (<unit>)` | a latency statistic; metric `ttft`, `ttst`, `tpot` (excluding the first token), `tpot_incl_first`, `itl`, `e2e`; stat `mean`, `median`, `std`, `min`, `max` or `p<N>` (`p99`, `p99.9`); unit `ms`, `s`, `us` or `ns`, required, converted to ms |
//! | `input_len.<stat>=<column>`, `output_len.<stat>=<column>` | tokens per request |
//! | `output_tok_s`, `total_tok_s`, `input_tok_s`, `requests_per_s`, `goodput_req_s` `=<column>` | rates per second; add ` (/min)` for a column per minute |
//! | `output_tok_s_per_user=<column>` | output tokens per second one user sees: the mean over requests of each request's rate (load_test.py's `Tok/s`), not the server's throughput |
//! | `total`, `succeeded`, `failed` `=<column>` | request counts (a missing one is derived from the other two) |
//! | `total_input`, `total_output` `=<column>` | tokens over the whole run |
//! | `achieved_rps`, `max_concurrency` `=<column>` | what the load achieved, the concurrency cap of a rate |
//! | `config=<column>` | a configuration column: named `model`, `engine`, `label`, `hardware` or `dataset` it fills that field; any other name joins the label as `name=value` |
//! | `config.<field>=<column>` or `config.<field>="text"` | a configuration field from a column, or the same text for every row |
//!
//! Column names are the header's cells, exactly (trimmed); a source's unit is its last
//! parenthesised part, so a column named `ttft (s)` is written `ttft (s) (s)`. Cells may carry the
//! declared unit (`0.12 s`); `N/A`, `-` and empty cells are missing. Every mistake in the mapping
//! is an error at its line and column saying what was expected, and the mapping is used without
//! it; columns that no mapping names are listed in a warning. A row whose load cannot be read is
//! skipped with an error; a row with `succeeded` 0 is a failed run without latencies.

use super::table::{self, Row};
use super::ImportedFile;
use crate::model::{
    ConfigIdentity, Distribution, LatencyMetric, LoadPoint, LoadTarget, Location, Metric, Producer,
    Provenance, Rate, RequestCounts, Run, Stat, Throughput, TokenStats,
};
use crate::number::{parse_number, Reading};
use crate::problem::Problem;

/// The text after `# benchdeck:` when `line` is a mapping line, with its byte offset in `line`.
fn directive(line: &str) -> Option<(usize, &str)> {
    let start = line.len() - line.trim_start().len();
    let rest = line[start..].strip_prefix('#')?;
    let after_hash = rest.trim_start();
    let tag = after_hash.get(..10)?;
    if !tag.eq_ignore_ascii_case("benchdeck:") {
        return None;
    }
    let body = &after_hash[10..];
    Some((line.len() - body.len(), body))
}

/// True when the lines before the header (blank or `#` lines) hold a `# benchdeck:` mapping.
/// Markdown starts with `#` too, but has no such line.
pub(super) fn is_tidy_csv(text: &str) -> bool {
    crate::json::strip_bom(text)
        .lines()
        .take_while(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
        .any(|l| directive(l).is_some())
}

/// The load knob of `load=`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum LoadKind {
    Concurrency,
    Rate,
    Batch,
}

/// A rate field of the model.
#[derive(Debug, Clone, Copy, PartialEq)]
enum RateField {
    OutputTokS,
    OutputTokSPerUser,
    TotalTokS,
    InputTokS,
    RequestsPerS,
    GoodputReqS,
    AchievedRps,
}

/// A configuration field of the model.
#[derive(Debug, Clone, Copy, PartialEq)]
enum ConfigField {
    Model,
    Engine,
    Label,
    Hardware,
    Dataset,
}

fn config_field(name: &str) -> Option<ConfigField> {
    Some(match name.to_ascii_lowercase().as_str() {
        "model" => ConfigField::Model,
        "engine" => ConfigField::Engine,
        "label" => ConfigField::Label,
        "hardware" => ConfigField::Hardware,
        "dataset" => ConfigField::Dataset,
        _ => return None,
    })
}

/// Where a mapped value goes.
#[derive(Debug, Clone, PartialEq)]
enum Target {
    Load(LoadKind),
    /// Metric, statistic, ms per unit, and the unit as written (cells may repeat it).
    Latency(Metric, Stat, f64, String),
    InputLen(Stat),
    OutputLen(Stat),
    /// A rate, and the seconds of its unit of time (60 for `/min`).
    Rate(RateField, f64),
    Total,
    Succeeded,
    Failed,
    TotalInput,
    TotalOutput,
    MaxConcurrency,
    Config(ConfigField),
    /// Another configuration column, joined into the label as `name=value`.
    LabelPart(String),
}

/// Where a mapped value comes from.
#[derive(Debug, Clone, PartialEq)]
enum Source {
    Column(usize),
    Text(String),
}

/// One mapping, with the place it was written.
#[derive(Debug, Clone)]
struct Mapping {
    target: Target,
    source: Source,
    at: Location,
}

/// One `target=source` item as written.
struct Item<'a> {
    text: &'a str,
    line: u64,
    column: u64,
}

const TARGETS: &str = "load=<kind>:<column>, <metric>.<stat>=<column> (<unit>), \
     input_len.<stat>, output_len.<stat>, output_tok_s, output_tok_s_per_user, total_tok_s, \
     input_tok_s, requests_per_s, goodput_req_s, achieved_rps, total, succeeded, failed, total_input, total_output, \
     max_concurrency, config, config.<field>";

/// Splits a mapping line into items at commas outside double quotes.
fn items(line: &str, body_offset: usize, line_no: u64) -> Vec<Item<'_>> {
    let mut ranges = Vec::new();
    let mut start = body_offset;
    let mut quoted = false;
    for (i, b) in line.bytes().enumerate().skip(body_offset) {
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => {
                ranges.push((start, i));
                start = i + 1;
            }
            _ => {}
        }
    }
    ranges.push((start, line.len()));
    ranges
        .into_iter()
        .filter_map(|(from, to)| {
            let raw = line.get(from..to)?;
            let text = raw.trim();
            if text.is_empty() {
                return None;
            }
            let lead = raw.len() - raw.trim_start().len();
            let column = line.get(..from + lead)?.chars().count() as u64 + 1;
            Some(Item {
                text,
                line: line_no,
                column,
            })
        })
        .collect()
}

/// `ttft_p50 (s)` → (`ttft_p50`, `Some("s")`).
fn split_unit(source: &str) -> (&str, Option<&str>) {
    let s = source.trim();
    if let Some(inner) = s.strip_suffix(')') {
        if let Some(open) = inner.rfind('(') {
            let name = inner[..open].trim_end();
            if !name.is_empty() {
                return (name, Some(inner[open + 1..].trim()));
            }
        }
    }
    (s, None)
}

fn time_unit(unit: &str) -> Option<f64> {
    super::stats::ms_per(unit)
}

/// Seconds per unit of time of a rate unit: none or `/s` → 1, `/min` → 60.
fn rate_unit(unit: Option<&str>) -> Option<f64> {
    let Some(u) = unit else { return Some(1.0) };
    let u = u.trim().to_ascii_lowercase();
    let (_, per) = u.rsplit_once('/')?;
    match per.trim() {
        "s" | "sec" | "second" => Some(1.0),
        "min" | "minute" => Some(60.0),
        _ => None,
    }
}

/// Resolves one item against the header, or says what was expected.
fn resolve(item: &Item<'_>, header: &Row) -> Result<Mapping, String> {
    let at = Location::Line {
        line: item.line,
        column: Some(item.column),
    };
    let Some((target, source)) = item.text.split_once('=') else {
        return Err(format!(
            "`{}`: expected `target=column`, e.g. `ttft.p50=ttft_p50 (ms)`",
            item.text
        ));
    };
    let target = target.trim();
    let source = source.trim();
    if source.is_empty() {
        return Err(format!("`{target}=`: expected a column name after `=`"));
    }
    let column = |name: &str| -> Result<usize, String> {
        let found: Vec<usize> = header
            .cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.as_str() == name)
            .map(|(i, _)| i)
            .collect();
        match found.as_slice() {
            [i] => Ok(*i),
            [] => Err(format!(
                "`{target}`: no column `{name}` in the header at line {}; expected one of {}",
                header.line,
                header
                    .cells
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            several => Err(format!(
                "`{target}`: the column `{name}` appears {} times in the header at line {}; \
                 expected a unique name",
                several.len(),
                header.line
            )),
        }
    };
    let no_unit = |name: &str| -> Result<usize, String> {
        match split_unit(name) {
            (_, Some(unit)) if column(name).is_err() => Err(format!(
                "`{target}` takes no unit, but `({unit})` was given; expected `{target}=<column>`"
            )),
            _ => column(name),
        }
    };
    let lower = target.to_ascii_lowercase();
    let mapped = |target: Target, source: Source| Mapping {
        target,
        source,
        at: at.clone(),
    };

    if lower == "load" {
        let Some((kind, name)) = source.split_once(':') else {
            return Err(format!(
                "`load={source}`: expected `load=<kind>:<column>` with kind `concurrency`, \
                 `rate` or `batch`"
            ));
        };
        let kind = match kind.trim().to_ascii_lowercase().as_str() {
            "concurrency" | "users" => LoadKind::Concurrency,
            "rate" | "request_rate" | "rps" => LoadKind::Rate,
            "batch" | "batch_size" => LoadKind::Batch,
            other => {
                return Err(format!(
                    "`load`: unknown load kind `{other}`; expected `concurrency`, `rate` or `batch`"
                ))
            }
        };
        return Ok(mapped(
            Target::Load(kind),
            Source::Column(no_unit(name.trim())?),
        ));
    }
    if lower == "config" {
        let i = no_unit(source)?;
        let name = header.cell(i);
        let target =
            config_field(name).map_or_else(|| Target::LabelPart(name.to_string()), Target::Config);
        return Ok(mapped(target, Source::Column(i)));
    }
    if let Some(field) = lower.strip_prefix("config.") {
        let Some(field) = config_field(field) else {
            return Err(format!(
                "`{target}`: unknown configuration field; expected `config.model`, \
                 `config.engine`, `config.label`, `config.hardware` or `config.dataset`"
            ));
        };
        if let Some(text) = source.strip_prefix('"') {
            let Some(text) = text.strip_suffix('"') else {
                return Err(format!(
                    "`{target}`: the text `{source}` has no closing `\"`"
                ));
            };
            return Ok(mapped(
                Target::Config(field),
                Source::Text(text.to_string()),
            ));
        }
        return Ok(mapped(
            Target::Config(field),
            Source::Column(no_unit(source)?),
        ));
    }
    let simple = match lower.as_str() {
        "total" => Some(Target::Total),
        "succeeded" => Some(Target::Succeeded),
        "failed" => Some(Target::Failed),
        "total_input" => Some(Target::TotalInput),
        "total_output" => Some(Target::TotalOutput),
        "max_concurrency" => Some(Target::MaxConcurrency),
        _ => None,
    };
    if let Some(t) = simple {
        return Ok(mapped(t, Source::Column(no_unit(source)?)));
    }
    let rate = match lower.as_str() {
        "output_tok_s" => Some(RateField::OutputTokS),
        "output_tok_s_per_user" => Some(RateField::OutputTokSPerUser),
        "total_tok_s" => Some(RateField::TotalTokS),
        "input_tok_s" => Some(RateField::InputTokS),
        "requests_per_s" => Some(RateField::RequestsPerS),
        "goodput_req_s" => Some(RateField::GoodputReqS),
        "achieved_rps" => Some(RateField::AchievedRps),
        _ => None,
    };
    if let Some(field) = rate {
        let (name, unit) = split_unit(source);
        let Some(seconds) = rate_unit(unit) else {
            return Err(format!(
                "`{target}`: unknown rate unit `({})`; expected none (per second), `(/s)` or \
                 `(/min)`",
                unit.unwrap_or("")
            ));
        };
        return Ok(mapped(
            Target::Rate(field, seconds),
            Source::Column(column(name)?),
        ));
    }
    let Some((metric, stat)) = lower.split_once('.') else {
        return Err(format!(
            "`{target}`: unknown target; expected one of {TARGETS}"
        ));
    };
    let Some(stat_value) = Stat::parse(stat) else {
        return Err(format!(
            "`{target}`: unknown statistic `{stat}`; expected mean, median, std, min, max or \
             p<N> such as p99"
        ));
    };
    match metric {
        "input_len" => {
            return Ok(mapped(
                Target::InputLen(stat_value),
                Source::Column(no_unit(source)?),
            ))
        }
        "output_len" => {
            return Ok(mapped(
                Target::OutputLen(stat_value),
                Source::Column(no_unit(source)?),
            ))
        }
        _ => {}
    }
    let Some(metric) = Metric::from_id(metric) else {
        return Err(format!(
            "`{target}`: unknown metric `{metric}`; expected ttft, ttst, tpot, tpot_incl_first, \
             itl, e2e, input_len or output_len"
        ));
    };
    let (name, unit) = split_unit(source);
    let Some(unit) = unit else {
        return Err(format!(
            "`{target}={source}`: expected the column's time unit in parentheses, e.g. \
             `{target}={source} (ms)`; units are never guessed"
        ));
    };
    let Some(scale) = time_unit(unit) else {
        return Err(format!(
            "`{target}`: unknown time unit `({unit})`; expected `(ms)`, `(s)`, `(us)` or `(ns)`"
        ));
    };
    Ok(mapped(
        Target::Latency(metric, stat_value, scale, unit.to_string()),
        Source::Column(column(name)?),
    ))
}

/// A short name of a target, to find the same target mapped twice.
fn target_key(t: &Target) -> String {
    match t {
        Target::Load(_) => "load".into(),
        Target::Latency(m, s, _, _) => format!("{}.{s}", m.id()),
        Target::InputLen(s) => format!("input_len.{s}"),
        Target::OutputLen(s) => format!("output_len.{s}"),
        Target::Rate(f, _) => format!("{f:?}"),
        Target::Config(f) => format!("config.{f:?}"),
        Target::LabelPart(name) => format!("label part {name}"),
        other => format!("{other:?}"),
    }
}

/// Reads the whole file.
pub(super) fn read(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile {
        file: file.to_string(),
        producer: Some(Producer::TidyCsv),
        runs: Vec::new(),
        problems: Vec::new(),
        joined: Vec::new(),
        joined_into: None,
    };
    let text = crate::json::strip_bom(text);
    // Comment lines become blank lines, so the CSV reader keeps every line number.
    let mut masked = String::with_capacity(text.len());
    let mut raw_items: Vec<Item<'_>> = Vec::new();
    let mut header_line: Option<u64> = None;
    for (i, line) in text.split('\n').enumerate() {
        let line_no = i as u64 + 1;
        let content = line.strip_suffix('\r').unwrap_or(line);
        if i > 0 {
            masked.push('\n');
        }
        if content.trim_start().starts_with('#') {
            if let Some((offset, _)) = directive(content) {
                if header_line.is_none() {
                    raw_items.extend(items(content, offset, line_no));
                } else {
                    out.problems.push(Problem::warning(
                        file,
                        Location::line(line_no),
                        "a `# benchdeck:` line after the header is ignored; expected the mapping \
                         before the header",
                    ));
                }
            }
            continue;
        }
        if header_line.is_none() && !content.trim().is_empty() {
            header_line = Some(line_no);
        }
        masked.push_str(line);
    }
    if raw_items.is_empty() {
        out.problems.push(Problem::error(
            file,
            Location::line(1),
            "expected `# benchdeck:` mapping lines before the CSV header (see the README's \
             \"Your own CSV\")",
        ));
        return out;
    }
    let (rows, broken) = table::read_rows(file, &masked);
    let Some((header, body)) = rows.split_first() else {
        out.problems.push(Problem::error(
            file,
            Location::line(header_line.unwrap_or(1)),
            "expected a CSV header line after the `# benchdeck:` mapping",
        ));
        out.problems.extend(broken);
        return out;
    };

    let mut mappings: Vec<Mapping> = Vec::new();
    for item in &raw_items {
        match resolve(item, header) {
            Ok(m) => {
                let key = target_key(&m.target);
                if let Some(first) = mappings.iter().find(|x| target_key(&x.target) == key) {
                    out.problems.push(Problem::error(
                        file,
                        m.at.clone(),
                        format!(
                            "`{}` is mapped twice (first at {}{}); expected each target once, \
                             this one is ignored",
                            item.text.split('=').next().unwrap_or("").trim(),
                            file,
                            first.at
                        ),
                    ));
                } else {
                    mappings.push(m);
                }
            }
            Err(message) => out.problems.push(Problem::error(
                file,
                Location::Line {
                    line: item.line,
                    column: Some(item.column),
                },
                message,
            )),
        }
    }
    let Some(load) = mappings.iter().find_map(|m| match (&m.target, &m.source) {
        (Target::Load(kind), Source::Column(i)) => Some((*kind, *i)),
        _ => None,
    }) else {
        out.problems.push(Problem::error(
            file,
            Location::line(raw_items.first().map_or(1, |i| i.line)),
            "expected a `load=<kind>:<column>` mapping (kind `concurrency`, `rate` or `batch`); \
             without a load point no row can become a run",
        ));
        out.problems.extend(broken);
        return out;
    };
    let used: Vec<usize> = mappings
        .iter()
        .filter_map(|m| match m.source {
            Source::Column(i) => Some(i),
            Source::Text(_) => None,
        })
        .collect();
    let unmapped: Vec<String> = header
        .cells
        .iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(_, c)| format!("`{c}`"))
        .collect();
    if !unmapped.is_empty() {
        out.problems.push(Problem::warning(
            file,
            Location::line(header.line),
            format!(
                "no `# benchdeck:` mapping names the columns {}; their values are ignored",
                unmapped.join(", ")
            ),
        ));
    }
    for row in body {
        match read_row(file, header, load, &mappings, row) {
            Ok(run) => out.runs.push(run),
            Err(p) => out.problems.push(p),
        }
    }
    if body.is_empty() && broken.is_none() {
        out.problems.push(Problem::error(
            file,
            Location::line(header.line + 1),
            "the header has no rows under it; expected one row per run",
        ));
    }
    out.problems.extend(broken);
    out
}

fn read_row(
    file: &str,
    header: &Row,
    load: (LoadKind, usize),
    mappings: &[Mapping],
    row: &Row,
) -> Result<Run, Problem> {
    if row.cells.len() != header.cells.len() {
        return Err(Problem::error(
            file,
            Location::line(row.line),
            format!(
                "expected {} cells as in the header, found {}; this row is skipped",
                header.cells.len(),
                row.cells.len()
            ),
        ));
    }
    let (load_kind, load_at) = load;
    let load_value = parse_number(row.cell(load_at), &[]).value();
    let target = match (load_kind, load_value) {
        (LoadKind::Concurrency, Some(v)) if v.is_finite() && v >= 1.0 => {
            Some(LoadTarget::Concurrency(v))
        }
        (LoadKind::Rate, Some(v)) if v.is_infinite() && v > 0.0 => {
            Some(LoadTarget::RequestRate(Rate::Infinite))
        }
        (LoadKind::Rate, Some(v)) if v.is_finite() && v > 0.0 => {
            Some(LoadTarget::RequestRate(Rate::PerSecond(v)))
        }
        (LoadKind::Batch, Some(v)) if v >= 1.0 && v.fract() == 0.0 && v <= f64::from(u32::MAX) => {
            Some(LoadTarget::BatchSize(v as u32))
        }
        _ => None,
    };
    let Some(target) = target else {
        let expected = match load_kind {
            LoadKind::Concurrency => "a concurrency of at least 1",
            LoadKind::Rate => "a positive request rate (or `inf`)",
            LoadKind::Batch => "a whole batch size of at least 1",
        };
        return Err(Problem::error(
            file,
            row.at(load_at),
            format!(
                "`{}`: expected {expected}, found `{}`; this row is skipped",
                header.cell(load_at),
                row.cell(load_at)
            ),
        ));
    };

    let mut problems = Vec::new();
    let mut config = ConfigIdentity::default();
    let mut label_parts: Vec<String> = Vec::new();
    let mut latency: Vec<LatencyMetric> = Vec::new();
    let mut throughput = Throughput::default();
    let mut tokens = TokenStats::default();
    let mut requests = RequestCounts::default();
    let mut load_point = LoadPoint {
        target,
        max_concurrency: None,
        achieved_rps: None,
        achieved_concurrency: None,
    };
    for m in mappings {
        if matches!(m.target, Target::Load(_)) {
            continue;
        }
        let (text, at) = match &m.source {
            Source::Text(t) => (t.as_str(), None),
            Source::Column(i) => (row.cell(*i), Some(*i)),
        };
        match &m.target {
            Target::Config(field) => {
                let value = (!text.is_empty()).then(|| text.to_string());
                let slot = match field {
                    ConfigField::Model => &mut config.model,
                    ConfigField::Engine => &mut config.engine,
                    ConfigField::Label => &mut config.label,
                    ConfigField::Hardware => &mut config.hardware,
                    ConfigField::Dataset => &mut config.dataset,
                };
                *slot = value;
                continue;
            }
            Target::LabelPart(name) => {
                if !text.is_empty() {
                    label_parts.push(format!("{name}={text}"));
                }
                continue;
            }
            _ => {}
        }
        let Some(i) = at else { continue };
        let unit_suffix: Vec<&str> = match &m.target {
            Target::Latency(_, _, _, unit) => vec![unit.as_str()],
            _ => Vec::new(),
        };
        let value = match parse_number(text, &unit_suffix) {
            Reading::Value(v) if v.is_finite() && v >= 0.0 => v,
            Reading::Missing => continue,
            _ => {
                problems.push(Problem::error(
                    file,
                    row.at(i),
                    format!(
                        "`{}`: expected a number of at least 0, found `{text}`",
                        header.cell(i)
                    ),
                ));
                continue;
            }
        };
        let whole = |problems: &mut Vec<Problem>| -> Option<u64> {
            if value.fract() == 0.0 && value <= 9.0e15 {
                Some(value as u64)
            } else {
                problems.push(Problem::error(
                    file,
                    row.at(i),
                    format!(
                        "`{}`: expected a whole number, found `{text}`",
                        header.cell(i)
                    ),
                ));
                None
            }
        };
        match &m.target {
            Target::Latency(metric, stat, scale, _) => {
                let entry = match latency.iter_mut().position(|l| l.metric == *metric) {
                    Some(k) => &mut latency[k],
                    None => {
                        latency.push(LatencyMetric {
                            metric: *metric,
                            distribution: Distribution::default(),
                        });
                        let last = latency.len() - 1;
                        &mut latency[last]
                    }
                };
                set(&mut entry.distribution, *stat, value * scale);
            }
            Target::InputLen(stat) => set(
                tokens.input_len.get_or_insert_with(Default::default),
                *stat,
                value,
            ),
            Target::OutputLen(stat) => set(
                tokens.output_len.get_or_insert_with(Default::default),
                *stat,
                value,
            ),
            Target::Rate(field, seconds) => {
                let v = Some(value / seconds);
                match field {
                    RateField::OutputTokS => throughput.output_tok_s = v,
                    RateField::OutputTokSPerUser => throughput.output_tok_s_per_user = v,
                    RateField::TotalTokS => throughput.total_tok_s = v,
                    RateField::InputTokS => throughput.input_tok_s = v,
                    RateField::RequestsPerS => throughput.requests_per_s = v,
                    RateField::GoodputReqS => throughput.goodput_req_s = v,
                    RateField::AchievedRps => load_point.achieved_rps = v,
                }
            }
            Target::Total => requests.total = whole(&mut problems),
            Target::Succeeded => requests.succeeded = whole(&mut problems),
            Target::Failed => requests.failed = whole(&mut problems),
            Target::TotalInput => tokens.total_input = whole(&mut problems),
            Target::TotalOutput => tokens.total_output = whole(&mut problems),
            Target::MaxConcurrency => {
                load_point.max_concurrency = whole(&mut problems)
                    .and_then(|n| u32::try_from(n).ok())
                    .filter(|n| *n >= 1);
            }
            Target::Load(_) | Target::Config(_) | Target::LabelPart(_) => {}
        }
    }
    if !label_parts.is_empty() {
        let mut label = config.label.take().map_or_else(Vec::new, |l| vec![l]);
        label.extend(label_parts);
        config.label = Some(label.join(", "));
    }
    match (requests.total, requests.succeeded, requests.failed) {
        (Some(t), Some(s), Some(f)) if s.checked_add(f) != Some(t) => {
            problems.push(Problem::warning(
                file,
                Location::line(row.line),
                format!("succeeded {s} + failed {f} is not the total {t}"),
            ))
        }
        (Some(t), Some(s), None) if s <= t => requests.failed = Some(t - s),
        (Some(t), None, Some(f)) if f <= t => requests.succeeded = Some(t - f),
        (None, Some(s), Some(f)) => requests.total = s.checked_add(f),
        (Some(t), Some(s), None) | (Some(t), None, Some(s)) => problems.push(Problem::warning(
            file,
            Location::line(row.line),
            format!("a count of {s} is larger than the total {t}"),
        )),
        _ => {}
    }
    if requests.succeeded == Some(0) {
        problems.push(Problem::warning(
            file,
            Location::line(row.line),
            "no request succeeded; the run is shown as failed and its latencies are ignored",
        ));
        latency.clear();
        throughput.output_tok_s = None;
        throughput.output_tok_s_per_user = None;
        throughput.total_tok_s = None;
        throughput.input_tok_s = None;
    }
    latency.sort_by_key(|l| l.metric);
    Ok(Run {
        provenance: Provenance {
            file: file.to_string(),
            location: Location::line(row.line),
            producer: Producer::TidyCsv,
            producer_version: None,
        },
        config,
        load: load_point,
        requests,
        latency,
        throughput,
        tokens,
        samples: None,
        problems,
    })
}

fn set(d: &mut Distribution, stat: Stat, value: f64) {
    match stat {
        Stat::Mean => d.mean = Some(value),
        Stat::Median => d.median = Some(value),
        Stat::Std => d.std = Some(value),
        Stat::Min => d.min = Some(value),
        Stat::Max => d.max = Some(value),
        Stat::P(p) => d.set_percentile(p, value),
    }
}

#[cfg(test)]
mod tests;
