//! How hard a run was pushed: the knob the tool turned and what was achieved.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The load a run was driven at, and what was achieved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadPoint {
    /// The knob the tool turned.
    pub target: LoadTarget,
    /// Concurrency cap applied on top of a request rate, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_concurrency: Option<u32>,
    /// Requests per second actually completed (successes only unless the producer says otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub achieved_rps: Option<f64>,
    /// Mean number of requests in flight, where the file reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub achieved_concurrency: Option<f64>,
}

impl LoadPoint {
    /// Driven at `target`, with no concurrency cap and nothing achieved known.
    pub fn new(target: LoadTarget) -> Self {
        LoadPoint {
            target,
            max_concurrency: None,
            achieved_rps: None,
            achieved_concurrency: None,
        }
    }
}

/// The load knob of a run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum LoadTarget {
    /// Closed loop: this many requests in flight.
    Concurrency(f64),
    /// Open loop: requests arrive at this rate.
    RequestRate(Rate),
    /// Offline batch of this size.
    BatchSize(u32),
    /// Offline run as fast as possible (no load knob).
    MaxThroughput,
    /// One request at a time.
    Sequential,
}

impl LoadTarget {
    /// The axis this knob belongs on.
    pub fn axis(&self) -> LoadAxis {
        match self {
            LoadTarget::Concurrency(_) | LoadTarget::Sequential => LoadAxis::Concurrency,
            LoadTarget::RequestRate(_) => LoadAxis::RequestRate,
            LoadTarget::BatchSize(_) => LoadAxis::BatchSize,
            LoadTarget::MaxThroughput => LoadAxis::None,
        }
    }

    /// The position on the load axis; infinite rates are `f64::INFINITY`.
    pub fn value(&self) -> Option<f64> {
        match *self {
            LoadTarget::Concurrency(c) => Some(c),
            LoadTarget::RequestRate(Rate::PerSecond(r)) => Some(r),
            LoadTarget::RequestRate(Rate::Infinite) => Some(f64::INFINITY),
            LoadTarget::BatchSize(b) => Some(f64::from(b)),
            LoadTarget::Sequential => Some(1.0),
            LoadTarget::MaxThroughput => None,
        }
    }
}

impl fmt::Display for LoadTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadTarget::Concurrency(c) => write!(f, "concurrency {}", crate::format::number(*c)),
            LoadTarget::RequestRate(r) => write!(f, "{r}"),
            LoadTarget::BatchSize(b) => write!(f, "batch {b}"),
            LoadTarget::MaxThroughput => f.write_str("max throughput"),
            LoadTarget::Sequential => f.write_str("sequential"),
        }
    }
}

/// Which load axis a sweep runs along.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadAxis {
    /// Requests in flight.
    Concurrency,
    /// Requests per second offered.
    RequestRate,
    /// Offline batch size.
    BatchSize,
    /// No load knob.
    None,
}

impl LoadAxis {
    /// Axis title with unit.
    pub fn title(self) -> &'static str {
        match self {
            LoadAxis::Concurrency => "Concurrency (requests in flight)",
            LoadAxis::RequestRate => "Request rate (req/s)",
            LoadAxis::BatchSize => "Batch size",
            LoadAxis::None => "Run",
        }
    }
}

/// An arrival rate; `inf` means every request is sent at once.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rate {
    /// Requests per second.
    PerSecond(f64),
    /// All requests at time zero.
    Infinite,
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rate::PerSecond(r) => write!(f, "{} req/s", crate::format::number(*r)),
            Rate::Infinite => f.write_str("∞ req/s"),
        }
    }
}
