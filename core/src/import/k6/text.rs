//! k6's end-of-test summary as the console prints it, in any text file: the classic layout
//! (before k6 1.0, and `--summary-mode=legacy`) and the 1.0 layout (`█ TOTAL RESULTS` with
//! `CUSTOM`, `HTTP`, `EXECUTION`, `NETWORK` sections). One run per file, read into the same
//! metrics as the JSON summary and mapped by the same rules (see the parent module).
//!
//! Each metric is a line `name.....: data` (dots pad the names; a threshold's `✓`/`✗` may stand
//! before it; `{ tag:value }` submetrics are indented under their metric):
//! - a trend, `avg=1.16s min=612.4ms med=1.15s max=1.81s p(90)=1.31s p(95)=1.37s`: durations
//!   as k6 humanises them (`9.43µs`, `612.4ms`, `1.16s`, `1m2.5s`, truncated to two decimals),
//!   converted to ms; a trend printed without units (a custom `Trend` not marked as time) is
//!   read as ms with a warning;
//! - a counter, `824 6.859438/s` (its count and rate);
//! - a rate, `0.00% 0 out of 824` (k6 0.54+) or `0.00% ✓ 0 ✗ 824` (before): for
//!   `http_req_failed` the first number (`✓`) counts failed requests;
//! - a gauge, `8 min=8 max=8`.
//!
//! The load point is the scenario the run header describes (`* default: 8 looping VUs for 2m0s`
//! is concurrency 8, `10.00 iterations/s for 1m0s (maxVUs: 20-50)` a rate of 10 capped at 50),
//! else the peak of `vus_max`. Checks, data sizes, submetrics and k6's own HTTP timings have no
//! place in the model and are named in one warning.

use serde_json::{Map, Number, Value};

use super::metrics::{run_of, K6Metric, Places};
use crate::import::console::strip_ansi;
use crate::import::unread::Unread;
use crate::import::ImportedFile;
use crate::model::{LoadPoint, LoadTarget, Location, Producer, Rate};
use crate::problem::Problem;

/// True for text holding a k6 summary: the 1.0 `█ TOTAL RESULTS` title, or a classic metric
/// line of a metric every k6 run has.
pub(crate) fn is_text(text: &str) -> bool {
    text.lines().any(|raw| {
        let line = strip_ansi(raw);
        let line = line.trim();
        if line.trim_start_matches('█').trim() == "TOTAL RESULTS" && line.starts_with('█') {
            return true;
        }
        metric_line(line).is_some_and(|(name, _)| {
            matches!(
                name,
                "http_req_duration" | "iteration_duration" | "iterations" | "vus_max"
            )
        })
    })
}

/// `name.....: data` → (`name`, `data`), a threshold's mark taken off.
fn metric_line(line: &str) -> Option<(&str, &str)> {
    let line = line.trim_start_matches(['✓', '✗']).trim_start();
    let colon = line.find(": ")?;
    let head = &line[..colon];
    let name = head.trim_end_matches('.');
    let dots = head.len() - name.len();
    let named = !name.is_empty() && (!name.contains(' ') || name.starts_with('{'));
    (dots >= 2 && named).then(|| (name.trim(), line[colon + 2..].trim()))
}

/// One metric read from its line, as the JSON summary's values would hold it.
struct Parsed {
    name: String,
    line: u64,
    kind: &'static str,
    time: bool,
    values: Map<String, Value>,
}

/// Reads the summary into one run.
pub(crate) fn read_text(file: &str, text: &str) -> ImportedFile {
    let mut out = ImportedFile::new(file, Some(Producer::K6));
    let mut problems = Vec::new();
    let mut unread = Unread::default();
    let mut parsed: Vec<Parsed> = Vec::new();
    let mut load = None;
    let mut first = None;
    for (i, raw) in text.lines().enumerate() {
        let number = i as u64 + 1;
        let clean = strip_ansi(raw);
        let line = clean.trim();
        load = load.or_else(|| scenario(line));
        let Some((name, data)) = metric_line(line) else {
            continue;
        };
        first.get_or_insert(number);
        if name.starts_with('{') || name.starts_with("checks") || name.starts_with("data_") {
            unread.name(name.to_string());
            continue;
        }
        match parse(name, data, number) {
            Some(p) => parsed.push(p),
            None => problems.push(Problem::error(
                file,
                Location::line(number),
                format!("`{name}`: expected a k6 trend, counter, rate or gauge, found `{data}`"),
            )),
        }
    }
    let Some(first) = first else {
        out.problems.push(Problem::error(
            file,
            Location::File,
            "no k6 metric line (`http_req_duration....: avg=…`) found",
        ));
        return out;
    };
    for p in parsed.iter().filter(|p| p.kind == "trend" && !p.time) {
        problems.push(Problem::warning(
            file,
            Location::line(p.line),
            format!(
                "`{}` is printed without a unit; its values are read as milliseconds",
                p.name
            ),
        ));
    }
    for p in &parsed {
        if is_unmodelled(&p.name) {
            unread.name(p.name.clone());
        }
    }
    let all: Vec<K6Metric<'_>> = parsed
        .iter()
        .map(|p| K6Metric {
            name: &p.name,
            kind: Some(p.kind),
            contains: p.time.then_some("time"),
            values: &p.values,
            at: Location::line(p.line),
        })
        .collect();
    let at = Location::line(first);
    problems.extend(unread.warning(file, at.clone(), "k6's summary"));
    let places = Places {
        run: at.clone(),
        failed: at.clone(),
        vus: at,
    };
    out.runs
        .push(run_of(file, &all, 1.0, load, places, problems));
    out
}

/// k6's own metrics that the mapping does not read (timings of the HTTP client, iterations).
fn is_unmodelled(name: &str) -> bool {
    (name.starts_with("http_req_") && !matches!(name, "http_req_duration" | "http_req_failed"))
        || matches!(
            name,
            "iteration_duration" | "iterations" | "vus" | "dropped_iterations"
        )
        || name.starts_with("group_")
}

/// A metric's values from its data, by the form of the data.
fn parse(name: &str, data: &str, line: u64) -> Option<Parsed> {
    let words: Vec<&str> = data.split_whitespace().collect();
    let mut values = Map::new();
    let mut put = |key: &str, v: f64| {
        if let Some(n) = Number::from_f64(v) {
            values.insert(key.to_string(), Value::Number(n));
        }
    };
    let (kind, time) = if words.first()?.contains('=') {
        let mut time = false;
        for word in &words {
            let (key, value) = word.split_once('=')?;
            let (ms, has_unit) = duration_ms(value)?;
            time |= has_unit;
            put(key, ms);
        }
        ("trend", time)
    } else if let Some(percent) = words[0].strip_suffix('%') {
        let _: f64 = percent.parse().ok()?;
        let (passes, total) = rate_counts(&words[1..])?;
        put("passes", passes);
        put("fails", total - passes);
        ("rate", false)
    } else if words.get(1).is_some_and(|w| w.ends_with("/s")) {
        put("count", words[0].parse().ok()?);
        put("rate", words[1].strip_suffix("/s")?.parse().ok()?);
        ("counter", false)
    } else {
        put("value", words[0].parse().ok()?);
        for word in &words[1..] {
            let (key, value) = word.split_once('=')?;
            put(key, value.parse().ok()?);
        }
        ("gauge", false)
    };
    Some(Parsed {
        name: name.to_string(),
        line,
        kind,
        time,
        values,
    })
}

/// `0 out of 824` or `✓ 0 ✗ 824` → (passes, total).
fn rate_counts(words: &[&str]) -> Option<(f64, f64)> {
    match words {
        [p, "out", "of", n] => Some((p.parse().ok()?, n.parse().ok()?)),
        ["✓", p, "✗", f] => {
            let (p, f): (f64, f64) = (p.parse().ok()?, f.parse().ok()?);
            Some((p, p + f))
        }
        _ => None,
    }
}

/// A humanised duration in ms (`9.43µs`, `612.4ms`, `1.16s`, `1m2.5s`, `1h2m3s`, `0s`), and
/// whether it had a unit; a bare number is returned as it is.
fn duration_ms(text: &str) -> Option<(f64, bool)> {
    if let Ok(v) = text.parse::<f64>() {
        return Some((v, false));
    }
    let mut total = 0.0;
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number: f64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..unit_len] {
            "h" => 3_600_000.0,
            "m" => 60_000.0,
            "s" => 1000.0,
            "ms" => 1.0,
            "µs" | "us" => 1e-3,
            "ns" => 1e-6,
            _ => return None,
        };
        total += number * scale;
        rest = &rest[unit_len..];
    }
    Some((total, true))
}

/// The load the run header's scenario line states: `* default: 8 looping VUs for 2m0s` (a
/// concurrency), `* x: Up to 50 looping VUs for 5m0s over 3 stages` (its peak), or `* x:
/// 10.00 iterations/s for 1m0s (maxVUs: 20-50, …)` (a rate, capped by the most VUs).
fn scenario(line: &str) -> Option<LoadPoint> {
    let rest = line.strip_prefix("* ")?;
    let (_, description) = rest.split_once(": ")?;
    let words: Vec<&str> = description.split_whitespace().collect();
    vus(&words).or_else(|| rate(description, &words))
}

fn vus(words: &[&str]) -> Option<LoadPoint> {
    let at = words.iter().position(|w| *w == "looping")?;
    let n: f64 = words.get(at.checked_sub(1)?)?.parse().ok()?;
    (words.get(at + 1) == Some(&"VUs") && n >= 1.0)
        .then(|| LoadPoint::new(LoadTarget::Concurrency(n)))
}

fn rate(description: &str, words: &[&str]) -> Option<LoadPoint> {
    let at = words.iter().position(|w| *w == "iterations/s")?;
    let r: f64 = words.get(at.checked_sub(1)?)?.parse().ok()?;
    let cap = description
        .split_once("maxVUs: ")
        .and_then(|(_, m)| m.split([',', ')']).next())
        .and_then(|m| m.rsplit('-').next())
        .and_then(|m| m.trim().parse::<u32>().ok());
    (r > 0.0).then(|| LoadPoint {
        max_concurrency: cap,
        ..LoadPoint::new(LoadTarget::RequestRate(Rate::PerSecond(r)))
    })
}
