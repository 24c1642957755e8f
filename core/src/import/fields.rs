//! Reading typed fields out of a JSON object, with every problem located and explained, and
//! filling the latency distributions the importers read them into.

use serde_json::{Map, Value};

use super::document::lists::Numbers;
use crate::model::{Distribution, LatencyMetric, Location, Metric, RunDate};
use crate::number::{describe_json, json_number, Reading};
use crate::problem::Problem;

/// A JSON object being read, with the file and place it came from and the problems found so far.
pub(crate) struct Fields<'a> {
    /// The object.
    pub obj: &'a Map<String, Value>,
    /// File name for problems.
    pub file: &'a str,
    /// Location of the object.
    pub at: Location,
    /// Problems found while reading.
    pub problems: Vec<Problem>,
}

impl<'a> Fields<'a> {
    /// Starts reading `obj`.
    pub fn new(obj: &'a Map<String, Value>, file: &'a str, at: Location) -> Self {
        Fields {
            obj,
            file,
            at,
            problems: Vec::new(),
        }
    }

    /// True when the key is present (even as null).
    pub fn has(&self, key: &str) -> bool {
        self.obj.contains_key(key)
    }

    /// A number. Missing keys, `null`, `NaN` and `N/A` give `None` silently; anything else that
    /// is not a number gives `None` and an error naming the key and what was found.
    pub fn number(&mut self, key: &str) -> Option<f64> {
        let value = self.obj.get(key)?;
        match json_number(value) {
            Reading::Value(v) => Some(v),
            Reading::Missing => None,
            Reading::Invalid => {
                self.problems.push(Problem::error(
                    self.file,
                    self.at.child(key),
                    format!("expected a number, found {}", describe_json(value)),
                ));
                None
            }
        }
    }

    /// A finite number of at least 0 (`-0` read as 0): every number read this way is a
    /// duration, a rate, a length, a count or a statistic of one, so a negative one or an
    /// infinity is an error.
    pub fn non_negative(&mut self, key: &str) -> Option<f64> {
        let v = self.number(key)?;
        let wrong = if !v.is_finite() {
            "expected a finite number"
        } else if v < 0.0 {
            "expected a number of at least 0"
        } else {
            return Some(v + 0.0);
        };
        self.problems.push(Problem::error(
            self.file,
            self.at.child(key),
            format!("{wrong}, found {v}"),
        ));
        None
    }

    /// Each of `values` (the list at `key`, read multiplied by `scale`) that is below 0 becomes
    /// `NaN` and an error at its index, quoting the file's value (the first five, then how many
    /// more): durations and lengths of requests.
    pub fn negatives_refused(&mut self, key: &str, values: &mut [f64], scale: f64) {
        let mut bad = 0usize;
        for (i, v) in values.iter_mut().enumerate() {
            if *v < 0.0 {
                if bad < 5 {
                    self.problems.push(Problem::error(
                        self.file,
                        self.at.child(key).child(&format!("[{i}]")),
                        format!("expected a number of at least 0, found {}", *v / scale),
                    ));
                }
                bad += 1;
                *v = f64::NAN;
            } else {
                // -0 is 0.
                *v += 0.0;
            }
        }
        if bad > 5 {
            self.problems.push(Problem::error(
                self.file,
                self.at.child(key),
                format!("{} more elements are below 0", bad - 5),
            ));
        }
    }

    /// A non-negative whole number, such as a request count.
    pub fn count(&mut self, key: &str) -> Option<u64> {
        let v = self.number(key)?;
        if v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v <= 9.0e15 {
            Some(v as u64)
        } else {
            self.problems.push(Problem::error(
                self.file,
                self.at.child(key),
                format!("expected a whole number of at least 0, found {v}"),
            ));
            None
        }
    }

    /// A string; numbers are accepted and written as text. `null` and empty strings give `None`.
    pub fn string(&mut self, key: &str) -> Option<String> {
        match self.obj.get(key)? {
            Value::Null => None,
            Value::String(s) if s.trim().is_empty() => None,
            Value::String(s) => Some(s.trim().to_string()),
            Value::Number(n) => Some(n.to_string()),
            other => {
                self.problems.push(Problem::error(
                    self.file,
                    self.at.child(key),
                    format!("expected text, found {}", describe_json(other)),
                ));
                None
            }
        }
    }

    /// When the run was measured: text in one of [`RunDate::parse`]'s forms or a Unix
    /// timestamp in seconds. Anything else is a warning naming the key (the run is kept, without
    /// a date: only trend charts need one).
    pub fn date(&mut self, key: &str) -> Option<RunDate> {
        let value = self.obj.get(key)?;
        let date = match value {
            Value::Null => return None,
            Value::String(s) if s.trim().is_empty() => return None,
            Value::String(s) => RunDate::parse(s),
            Value::Number(n) => n.as_f64().and_then(RunDate::from_unix_seconds),
            _ => None,
        };
        if date.is_none() {
            self.warn_at(
                key,
                format!(
                    "expected a date (`20251020-110000`, `2025-10-20T11:00:00Z` or Unix seconds \
                     after 2000), found {}; the run has no date",
                    describe_json(value)
                ),
            );
        }
        date
    }

    /// An array of numbers, multiplied by `scale`. Invalid elements are reported by index and
    /// become `NaN` so indices stay aligned with sibling arrays.
    pub fn numbers(&mut self, key: &str, scale: f64) -> Option<Vec<f64>> {
        let value = self.obj.get(key)?;
        let Value::Array(items) = value else {
            if !value.is_null() {
                self.problems.push(Problem::error(
                    self.file,
                    self.at.child(key),
                    format!(
                        "expected an array of numbers, found {}",
                        describe_json(value)
                    ),
                ));
            }
            return None;
        };
        Some(self.numbers_in(key, &Numbers::from_values(items), scale))
    }

    /// The numbers of `list`, the array at `key` (read aside by the parser, or from the object
    /// by [`Fields::numbers`]), multiplied by `scale`. Elements that are not numbers are read
    /// leniently ([`json_number`]); the invalid ones are reported by index (the first five, then
    /// how many more) and become `NaN` so indices stay aligned with sibling arrays.
    pub fn numbers_in(&mut self, key: &str, list: &Numbers, scale: f64) -> Vec<f64> {
        let mut out: Vec<f64> = list.values.iter().map(|v| v * scale).collect();
        let mut bad = 0usize;
        for (i, item) in &list.others {
            out[*i] = match json_number(item) {
                Reading::Value(v) => v * scale,
                Reading::Missing => f64::NAN,
                Reading::Invalid => {
                    if bad < 5 {
                        self.problems.push(Problem::error(
                            self.file,
                            self.at.child(key).child(&format!("[{i}]")),
                            format!("expected a number, found {}", describe_json(item)),
                        ));
                    }
                    bad += 1;
                    f64::NAN
                }
            };
        }
        if bad > 5 {
            self.problems.push(Problem::error(
                self.file,
                self.at.child(key),
                format!("{} more elements are not numbers", bad - 5),
            ));
        }
        out
    }

    /// Records a problem at `key`.
    pub fn error_at(&mut self, key: &str, message: impl Into<String>) {
        self.problems
            .push(Problem::error(self.file, self.at.child(key), message));
    }

    /// Records a warning at `key`.
    pub fn warn_at(&mut self, key: &str, message: impl Into<String>) {
        self.problems
            .push(Problem::warning(self.file, self.at.child(key), message));
    }
}

/// The distribution of `metric` in `latency`, added empty at the end when the metric is new.
pub(crate) fn latency_entry(latency: &mut Vec<LatencyMetric>, metric: Metric) -> &mut Distribution {
    let index = match latency.iter().position(|m| m.metric == metric) {
        Some(i) => i,
        None => {
            latency.push(LatencyMetric {
                metric,
                distribution: Distribution::default(),
            });
            latency.len() - 1
        }
    };
    &mut latency[index].distribution
}

/// Sets one statistic of `d` from a key suffix such as `mean`, `median`, `std`, `p99` or `p99.9`.
/// Returns false when the statistic name is not one of those.
pub(crate) fn set_stat(d: &mut Distribution, stat: &str, value: f64) -> bool {
    match stat {
        "mean" | "avg" => d.mean = Some(value),
        "median" => d.median = Some(value),
        "std" | "stddev" => d.std = Some(value),
        "min" => d.min = Some(value),
        "max" => d.max = Some(value),
        p => match percentile_rank(p) {
            Some(rank) => d.set_percentile(rank, value),
            None => return false,
        },
    }
    true
}

/// The rank of a statistic named `p99`, `p99.9` or `p0`: from 0 to 100, its digits unsigned.
pub(crate) fn percentile_rank(stat: &str) -> Option<f64> {
    stat.strip_prefix('p')
        .filter(|n| n.starts_with(|c: char| c.is_ascii_digit()))
        .and_then(|n| n.parse::<f64>().ok())
        .filter(|rank| (0.0..=100.0).contains(rank))
}
