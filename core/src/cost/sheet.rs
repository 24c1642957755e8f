//! Prices a reader can change on the page: the prices a report states ([`PriceSheet`]), what
//! of each chart is a cost and whose ([`PricedChart`]), and the page at the reader's own rates
//! ([`Repricing`]).
//!
//! A cost per million tokens is the hourly price over the tokens made in an hour, so it is
//! proportional to the price: at a rate `k` times the stated one, every cost figure of that
//! configuration is `k` times what the build computed. The browser therefore rescales the
//! build's values instead of computing them again (it has no runs, only charts and HTML).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::front::PriceFront;
use crate::chart::{Annotation, ChartKind, ChartSpec, Point, Series};
use crate::decision::Candidate;
use crate::quantity::Quantity;

/// The unit of every cost quantity; an axis or value in it scales with the price.
pub const COST_UNIT: &str = "$/1M tok";

/// What a report lets its reader re-price: the configurations with a stated price, and the
/// charts that show a cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PriceSheet {
    /// Each priced configuration, in front matter order.
    pub configs: Vec<StatedPrice>,
    /// Each chart (grid panels included) with a cost on an axis.
    pub charts: Vec<PricedChart>,
}

/// One configuration's price as the report states it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatedPrice {
    /// The configuration key (also the address key: `?price.<key>=1.9`).
    pub key: String,
    /// Its legend name.
    pub label: String,
    /// Its palette slot.
    pub color: usize,
    /// The rate as stated: dollars per GPU-hour, or per second.
    pub rate: f64,
    /// What the rate is per.
    pub per: RateUnit,
    /// GPUs paid for (a GPU-hour rate is multiplied by them).
    pub gpus: u32,
}

/// What a stated rate is per.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RateUnit {
    /// Dollars per GPU per hour (`gpu_hour`).
    GpuHour,
    /// Dollars per second for the whole deployment (`per_second`, serverless).
    Second,
}

impl StatedPrice {
    /// The address key of the reader's rate: `price.<key>`.
    pub fn address_key(&self) -> String {
        format!("price.{}", self.key)
    }

    /// The rate a reader's address gives (`text`, the value of [`StatedPrice::address_key`]):
    /// a positive, finite number, else `None` (the stated rate stays).
    pub fn rate_from_address(text: &str) -> Option<f64> {
        StatedPrice::rate_from_address_with(text, &|t| t.parse().ok())
    }

    /// [`StatedPrice::rate_from_address`] with `number` reading the decimal as `str::parse`
    /// does (the browser app's reader is smaller: `app/src/browser/number.rs`).
    pub fn rate_from_address_with(text: &str, number: &dyn Fn(&str) -> Option<f64>) -> Option<f64> {
        number(text.trim()).filter(|rate| *rate > 0.0 && rate.is_finite())
    }

    /// The stated price of configuration `key`, from a front matter `price:` already checked
    /// by [`PriceFront::price`]; a per-GPU-hour price without `gpus` runs on `hardware_gpus`
    /// (as the build prices the runs: [`PriceFront::price_on`]). `None` when it states neither
    /// rate.
    pub fn from_front(
        key: &str,
        label: &str,
        color: usize,
        front: &PriceFront,
        hardware_gpus: Option<u32>,
    ) -> Option<Self> {
        let (rate, per) = match (front.gpu_hour, front.per_second) {
            (Some(rate), None) => (rate, RateUnit::GpuHour),
            (None, Some(rate)) => (rate, RateUnit::Second),
            _ => return None,
        };
        Some(StatedPrice {
            key: key.to_string(),
            label: label.to_string(),
            color,
            rate,
            per,
            gpus: front
                .gpus
                .map(|g| g as u32)
                .or(hardware_gpus.filter(|_| per == RateUnit::GpuHour))
                .unwrap_or(1),
        })
    }

    /// Dollars per hour for the deployment at `rate`.
    pub fn usd_per_hour(&self, rate: f64) -> f64 {
        match self.per {
            RateUnit::GpuHour => rate * f64::from(self.gpus),
            RateUnit::Second => rate * 3600.0,
        }
    }

    /// What the rate is per, in words: `per GPU-hour × 4 GPUs`, `per second`.
    pub fn per_text(&self) -> String {
        match (self.per, self.gpus) {
            (RateUnit::GpuHour, 1) => "per GPU-hour".to_string(),
            (RateUnit::GpuHour, n) => format!("per GPU-hour × {n} GPUs"),
            (RateUnit::Second, _) => "per second while it runs".to_string(),
        }
    }
}

/// Which values of a chart are costs, and whose price each series follows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PricedChart {
    /// The chart's id.
    pub id: String,
    /// Where the costs are.
    pub on: PricedValues,
    /// The configuration key of each series, in order (`""` for a series of none).
    pub keys: Vec<String>,
}

/// Where a chart's costs are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum PricedValues {
    /// The vertical axis.
    Y,
    /// The horizontal axis (a scatter of cost against something).
    X,
    /// These points of every series (the cost rows of a head-to-head chart).
    Rows(Vec<usize>),
}

impl PricedChart {
    /// What of `spec` is a cost, with `key_of` giving a series' configuration from its name;
    /// `None` when the chart shows no cost of a priced configuration.
    pub fn of(spec: &ChartSpec, key_of: impl Fn(&str) -> Option<String>) -> Option<PricedChart> {
        let on = if spec.y.unit == COST_UNIT {
            PricedValues::Y
        } else if spec.x.unit == COST_UNIT {
            PricedValues::X
        } else if let ChartKind::HBars { metrics } = &spec.kind {
            let rows: Vec<usize> = (0..metrics.len())
                .filter(|&i| metrics[i].unit == COST_UNIT)
                .collect();
            if rows.is_empty() {
                return None;
            }
            PricedValues::Rows(rows)
        } else {
            return None;
        };
        let keys: Vec<String> = spec
            .series
            .iter()
            .map(|s| key_of(&s.name).unwrap_or_default())
            .collect();
        keys.iter().any(|k| !k.is_empty()).then(|| PricedChart {
            id: spec.id.clone(),
            on,
            keys,
        })
    }
}

/// The reader's rates as factors on the stated prices: each cost figure of a configuration is
/// multiplied by its factor.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Repricing {
    factors: BTreeMap<String, f64>,
}

impl Repricing {
    /// The reader's `rates`, one per configuration of `sheet` in order; a rate that is not a
    /// positive number leaves its configuration at the stated price.
    pub fn new(sheet: &PriceSheet, rates: &[f64]) -> Repricing {
        // Inserted one by one: collecting into a `BTreeMap` sorts with a stable sort of its
        // own (3 KB of the app's wasm for this one map).
        let mut factors = BTreeMap::new();
        for (stated, &rate) in sheet.configs.iter().zip(rates) {
            let factor = rate / stated.rate;
            if rate > 0.0 && rate.is_finite() && factor != 1.0 {
                factors.insert(stated.key.clone(), factor);
            }
        }
        Repricing { factors }
    }

    /// The factor on configuration `key`'s costs (1 when its price is as stated).
    pub fn factor(&self, key: &str) -> f64 {
        self.factors.get(key).copied().unwrap_or(1.0)
    }

    /// Whether every price is as stated.
    pub fn is_identity(&self) -> bool {
        self.factors.is_empty()
    }

    /// `spec` with the costs of `priced` at the reader's rates.
    pub fn chart(&self, spec: &ChartSpec, priced: &PricedChart) -> ChartSpec {
        let mut out = spec.clone();
        let factor_of = |i: usize| priced.keys.get(i).map_or(1.0, |k| self.factor(k));
        let scale_all = |series: &mut [Series]| {
            for (i, s) in series.iter_mut().enumerate() {
                let f = factor_of(i);
                if f != 1.0 {
                    for (n, p) in s.points.iter_mut().enumerate() {
                        scale_point(p, n, &priced.on, f);
                    }
                }
            }
        };
        scale_all(&mut out.series);
        for alt in &mut out.alternatives {
            scale_all(&mut alt.series);
        }
        for a in &mut out.annotations {
            scale_annotation(a, &priced.on, &factor_of);
        }
        out
    }

    /// `candidates` with their costs at the reader's rates, for the wizard's ranking.
    pub fn candidates(&self, candidates: &[Candidate]) -> Vec<Candidate> {
        let mut out = candidates.to_vec();
        for c in &mut out {
            let f = self.factor(&c.key);
            if f == 1.0 {
                continue;
            }
            for p in &mut c.points {
                for (q, v) in p.values.iter_mut() {
                    if is_cost(*q) {
                        *v *= f;
                    }
                }
                // Their intervals with them: the wizard's noise note compares the two.
                for (q, lo, hi) in p.intervals.iter_mut() {
                    if is_cost(*q) {
                        *lo *= f;
                        *hi *= f;
                    }
                }
            }
        }
        out
    }
}

/// Whether `q` is a cost (proportional to the price).
pub fn is_cost(q: Quantity) -> bool {
    q.unit() == COST_UNIT
}

/// Point `n` of a series with factor `f` on the priced values `on`.
fn scale_point(p: &mut Point, n: usize, on: &PricedValues, f: f64) {
    match on {
        PricedValues::X => p.x *= f,
        PricedValues::Rows(rows) if !rows.contains(&n) => {}
        PricedValues::Y | PricedValues::Rows(_) => {
            p.y = p.y.map(|y| y * f);
            p.lo = p.lo.map(|y| y * f);
            p.hi = p.hi.map(|y| y * f);
            p.values.iter_mut().for_each(|v| *v *= f);
        }
    }
}

/// A series' marker or fitted line moved with its points.
fn scale_annotation(a: &mut Annotation, on: &PricedValues, factor_of: &impl Fn(usize) -> f64) {
    match (a, on) {
        (
            Annotation::Marker {
                series: Some(s), y, ..
            },
            PricedValues::Y,
        ) => *y *= factor_of(*s),
        (
            Annotation::Marker {
                series: Some(s), x, ..
            },
            PricedValues::X,
        ) => *x *= factor_of(*s),
        (
            Annotation::Fit {
                series,
                slope,
                intercept,
                ..
            },
            PricedValues::Y,
        ) => {
            let f = factor_of(*series);
            *slope *= f;
            *intercept *= f;
        }
        (
            Annotation::Fit {
                series,
                slope,
                from,
                to,
                ..
            },
            PricedValues::X,
        ) => {
            let f = factor_of(*series);
            *slope /= f;
            *from *= f;
            *to *= f;
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests;
