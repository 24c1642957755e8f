//! load_test.py's console progress lines: `Testing …` names a level, then its summary line or
//! its per-request lines give the level's values.

use super::columns::{column, normalise, Col, Family, Level};
use super::document::Document;
use super::entry::{apply, set_count};
use crate::model::{Location, RequestSamples};
use crate::number::parse_number;

impl Document {
    /// Console progress lines of load_test.py.
    pub(super) fn progress_line(&mut self, t: &str, line_no: u64, pending: &mut Option<Level>) {
        let lower = t.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("model:") {
            if self.model.is_none() && !rest.trim().is_empty() {
                self.model = Some(t[6..].trim().to_string());
            }
            return;
        }
        if let Some(rest) = lower.strip_prefix("testing ") {
            *pending = progress_level(rest);
            if let (Some(level), Some(total)) = (*pending, requests_in(rest)) {
                self.recognised = true;
                let file = self.file.clone();
                let entry = self.entry(level, line_no);
                set_count(
                    &file,
                    &mut entry.total,
                    total,
                    "requests",
                    Location::line(line_no),
                    &mut entry.problems,
                );
            }
            return;
        }
        let Some(level) = *pending else { return };
        if let Level::Baseline(_) = level {
            if let Some(rest) = lower.strip_prefix("request ") {
                if let Some(sample) = request_line(t, rest) {
                    self.recognised = true;
                    let entry = self.entry(level, line_no);
                    let s = entry.samples.get_or_insert_with(RequestSamples::default);
                    s.ok.push(sample.0);
                    s.ttft_ms.push(if sample.0 { sample.1 } else { f64::NAN });
                    s.e2e_ms.push(sample.2);
                }
            }
            return;
        }
        if !t.contains(':') {
            return;
        }
        let pairs: Vec<(&str, &str)> = t
            .split('|')
            .filter_map(|p| p.split_once(':'))
            .map(|(k, v)| (k.trim(), v.trim()))
            .collect();
        let known: Vec<(Col, &str, &str)> = pairs
            .iter()
            .map(|(k, v)| (column(&normalise(k), Family::LoadTest), *k, *v))
            .filter(|(c, _, _)| *c != Col::Unknown)
            .collect();
        if known.is_empty() {
            return;
        }
        // One summary line per level.
        *pending = None;
        self.recognised = true;
        let file = self.file.clone();
        let mut problems = Vec::new();
        let entry = self.entry(level, line_no);
        for (c, k, v) in known {
            apply(
                &file,
                entry,
                c,
                k,
                v,
                Location::line(line_no),
                &mut problems,
            );
        }
        entry.problems.append(&mut problems);
    }
}

/// `concurrency=8 (20 requests)...`, `5.0 rps for 30.0s...`, `prompt length ~32 tokens...`.
fn progress_level(rest: &str) -> Option<Level> {
    let number = |s: &str| -> Option<f64> {
        let end = s
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(s.len());
        s[..end].parse::<f64>().ok().filter(|v| v.is_finite())
    };
    if let Some(c) = rest.strip_prefix("concurrency=") {
        return number(c.trim_start())
            .filter(|v| *v >= 1.0)
            .map(Level::Wave);
    }
    if let Some(p) = rest.strip_prefix("prompt length ~") {
        return number(p).filter(|v| *v > 0.0).map(Level::Baseline);
    }
    let (r, after) = rest.split_once(' ')?;
    if after.starts_with("rps") {
        return number(r).filter(|v| *v > 0.0).map(Level::Sustained);
    }
    None
}

/// `(20 requests)` in a `Testing concurrency=…` line.
fn requests_in(rest: &str) -> Option<u64> {
    let open = rest.find('(')?;
    let inner = &rest[open + 1..];
    let n = inner
        .strip_suffix(")...")
        .or_else(|| inner.split(')').next())?;
    n.trim().strip_suffix("requests")?.trim().parse().ok()
}

/// `Request 1: ✓ TTFT=4964ms Total=5518ms` → (ok, ttft, total).
fn request_line(t: &str, lower_rest: &str) -> Option<(bool, f64, f64)> {
    let (_, after) = lower_rest.split_once(':')?;
    let ok = if t.contains('✓') {
        true
    } else if t.contains('✗') {
        false
    } else {
        return None;
    };
    let value = |key: &str| -> Option<f64> {
        let start = after.find(key)? + key.len();
        let word = after[start..].split_whitespace().next()?;
        parse_number(word, &["ms"]).value()
    };
    Some((ok, value("ttft=")?, value("total=")?))
}
