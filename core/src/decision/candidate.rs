//! A configuration as the engine sees it ([`Candidate`]): its measured values per load point,
//! interpolated between them and never extrapolated, and its attributes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::question::{allowed_failures, too_many_failures, Constraint};
use crate::format;
use crate::model::Run;
use crate::noise::Interval;
use crate::quantity::Quantity;

/// A configuration as the engine sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The configuration key.
    pub key: String,
    /// Its display name.
    pub label: String,
    /// Qualitative attributes from front matter: `scale_to_zero: true`, `cost_model: per-second`.
    #[serde(default)]
    pub attributes: BTreeMap<String, Attribute>,
    /// Measured values, by load, ascending.
    pub points: Vec<LoadValues>,
}

/// A qualitative attribute. Written as the bare value in front matter and JSON (`true`,
/// `"A100"`); binary formats (`site::wire`) tag it.
#[derive(Debug, Clone, PartialEq)]
pub enum Attribute {
    /// Has it or not (scores 1 or 0).
    Flag(bool),
    /// A description (shown, and matched by constraints).
    Text(String),
}

/// [`Attribute`] as binary formats carry it: tagged, as they cannot tell a bool from a string.
#[derive(Serialize, Deserialize)]
enum TaggedAttribute {
    Flag(bool),
    Text(String),
}

impl Serialize for Attribute {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match (self, s.is_human_readable()) {
            (Attribute::Flag(flag), true) => s.serialize_bool(*flag),
            (Attribute::Text(text), true) => s.serialize_str(text),
            (Attribute::Flag(flag), false) => TaggedAttribute::Flag(*flag).serialize(s),
            (Attribute::Text(text), false) => TaggedAttribute::Text(text.clone()).serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Attribute {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Attribute, D::Error> {
        if !d.is_human_readable() {
            return Ok(match TaggedAttribute::deserialize(d)? {
                TaggedAttribute::Flag(flag) => Attribute::Flag(flag),
                TaggedAttribute::Text(text) => Attribute::Text(text),
            });
        }
        struct Bare;
        impl serde::de::Visitor<'_> for Bare {
            type Value = Attribute;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("true, false or a text")
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Attribute, E> {
                Ok(Attribute::Flag(v))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Attribute, E> {
                Ok(Attribute::Text(v.to_string()))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Attribute, E> {
                Ok(Attribute::Text(v))
            }
        }
        d.deserialize_any(Bare)
    }
}

/// The values measured at one load point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadValues {
    /// Concurrency or request rate.
    pub load: f64,
    /// Each quantity the run reports.
    pub values: Vec<(Quantity, f64)>,
    /// The 95% intervals of those values the data bounds ([`crate::noise`]), low and high.
    #[serde(default)]
    pub intervals: Vec<(Quantity, f64, f64)>,
}

impl LoadValues {
    fn get(&self, q: Quantity) -> Option<f64> {
        self.values.iter().find(|(k, _)| *k == q).map(|(_, v)| *v)
    }

    fn interval(&self, q: Quantity) -> Option<(f64, f64)> {
        self.intervals
            .iter()
            .find(|(k, ..)| *k == q)
            .map(|&(_, lo, hi)| (lo, hi))
    }
}

impl Candidate {
    /// A candidate from its runs, with the given quantities read from each.
    pub fn from_runs(key: &str, label: &str, runs: &[&Run], quantities: &[Quantity]) -> Candidate {
        let mut points: Vec<LoadValues> = runs
            .iter()
            .filter_map(|r| {
                let load = r.load.target.value().filter(|v| v.is_finite())?;
                let estimates: Vec<(Quantity, crate::noise::Estimate)> = quantities
                    .iter()
                    .filter_map(|q| crate::noise::estimate(*q, r).map(|e| (*q, e)))
                    .collect();
                let values = estimates.iter().map(|(q, e)| (*q, e.value)).collect();
                let intervals = estimates
                    .iter()
                    .filter_map(|(q, e)| e.interval.map(|(i, _)| (*q, i.lo, i.hi)))
                    .collect();
                Some(LoadValues {
                    load,
                    values,
                    intervals,
                })
            })
            .collect();
        crate::order::sort_by_f64(&mut points, &|p| p.load);
        Candidate {
            key: key.to_string(),
            label: label.to_string(),
            attributes: BTreeMap::new(),
            points,
        }
    }

    /// `q` at `load`: measured, or interpolated between the two measured loads around it.
    /// Outside the measured range, or next to a point without `q`, it is an error saying so.
    pub fn value_at(&self, q: Quantity, load: f64) -> Result<f64, String> {
        let with: Vec<(f64, f64)> = self
            .points
            .iter()
            .filter_map(|p| p.get(q).map(|v| (p.load, v)))
            .collect();
        let (Some(first), Some(last)) = (with.first(), with.last()) else {
            return Err(format!("{} does not report {q}", self.label));
        };
        // A load point without the value (every request failed there) is not skipped over.
        if let Some(gap) = self.points.iter().find(|p| {
            p.get(q).is_none() && p.load >= first.0 && p.load <= last.0 && {
                let (below, above) = (
                    with.iter().rev().find(|(l, _)| *l <= load),
                    with.iter().find(|(l, _)| *l >= load),
                );
                below.is_some_and(|b| b.0 <= p.load) && above.is_some_and(|a| p.load <= a.0)
            }
        }) {
            return Err(format!(
                "{} has no {q} at load {} (next to {}), so it cannot be interpolated",
                self.label,
                format::number(gap.load),
                format::number(load)
            ));
        }
        if load < first.0 || load > last.0 {
            return Err(format!(
                "{} has {q} measured from load {} to {}, not at {} (no extrapolation)",
                self.label,
                format::number(first.0),
                format::number(last.0),
                format::number(load)
            ));
        }
        for pair in with.windows(2) {
            let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
            if load >= x0 && load <= x1 {
                if x1 == x0 {
                    return Ok(y0);
                }
                return Ok(y0 + (y1 - y0) * (load - x0) / (x1 - x0));
            }
        }
        // A single measured point equal to `load`.
        Ok(first.1)
    }

    /// The two measured loads `q` at `load` is interpolated between; `None` when `load` was
    /// measured (or `q` cannot be read there).
    pub fn interpolated_between(&self, q: Quantity, load: f64) -> Option<(f64, f64)> {
        let loads: Vec<f64> = self
            .points
            .iter()
            .filter(|p| p.get(q).is_some())
            .map(|p| p.load)
            .collect();
        if loads.contains(&load) {
            return None;
        }
        let pair = loads.windows(2).find(|w| w[0] < load && load < w[1])?;
        Some((pair[0], pair[1]))
    }

    /// The 95% interval of `q` at `load`: a measured point's, or between two measured points
    /// with intervals, each end interpolated as the value is. `None` where no interval is known.
    pub fn interval_at(&self, q: Quantity, load: f64) -> Option<Interval> {
        let with: Vec<(f64, (f64, f64))> = self
            .points
            .iter()
            .filter_map(|p| p.interval(q).map(|i| (p.load, i)))
            .collect();
        if let Some((_, (lo, hi))) = with.iter().find(|(l, _)| *l == load) {
            return Some(Interval { lo: *lo, hi: *hi });
        }
        let pair = with.windows(2).find(|w| w[0].0 < load && load < w[1].0)?;
        let ((x0, (lo0, hi0)), (x1, (lo1, hi1))) = (pair[0], pair[1]);
        // Only between two neighbours that both carry the value (no gap in between).
        let between = self
            .points
            .iter()
            .filter(|p| p.load > x0 && p.load < x1)
            .count();
        if between > 0 {
            return None;
        }
        let t = (load - x0) / (x1 - x0);
        Some(Interval {
            lo: lo0 + t * (lo1 - lo0),
            hi: hi0 + t * (hi1 - hi0),
        })
    }

    /// The highest measured load up to which every constraint holds (contiguously from the
    /// lowest), if any. A load point stands only when every request succeeded there, as the
    /// reports' `=stable()` says it, unless a latency percentile target leaves room for failed
    /// requests: they count against it as misses (a p90 target allows 10%).
    pub fn max_stable_load(&self, constraints: &[Constraint]) -> Option<f64> {
        let mut stable = None;
        for p in &self.points {
            let success = p.get(Quantity::SuccessRate);
            let room_for_failures = constraints
                .iter()
                .any(|c| allowed_failures(c.quantity).is_some());
            let ok = (room_for_failures || success.is_none_or(|s| s >= 100.0))
                && constraints.iter().all(|c| {
                    p.get(c.quantity).is_some_and(|v| c.bound.holds(v))
                        && success
                            .and_then(|s| too_many_failures(c.quantity, s))
                            .is_none()
                });
            if !ok {
                break;
            }
            stable = Some(p.load);
        }
        stable
    }

    pub(super) fn flag(&self, name: &str) -> bool {
        matches!(self.attributes.get(name), Some(Attribute::Flag(true)))
    }
}
