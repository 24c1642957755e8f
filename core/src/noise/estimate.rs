//! What an estimate is: a value with its 95% [`Interval`] and the [`Basis`] it came from, as
//! pages write them.

use crate::format;

/// A 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Interval {
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

impl Interval {
    /// True when `value` lies inside it (ends included).
    pub fn contains(&self, value: f64) -> bool {
        self.lo <= value && value <= self.hi
    }

    /// True when both ends are finite numbers.
    pub fn bounded(&self) -> bool {
        self.lo.is_finite() && self.hi.is_finite()
    }

    /// The interval widened, where it must be, to hold `value`: a value outside its own
    /// interval is bad data, and a narrower interval would make it look surer than it is.
    pub fn holding(self, value: f64) -> Interval {
        Interval {
            lo: self.lo.min(value),
            hi: self.hi.max(value),
        }
    }

    /// The interval in `unit`: `95% CI 41.2–48.9 ms`, with the decimals the values need.
    pub fn text(&self, unit: &str) -> String {
        // One bound alone (a p99 of too few requests): `95% CI ≥ 41.2 ms`.
        if self.lo.is_finite() != self.hi.is_finite() {
            let (sign, end) = if self.lo.is_finite() {
                ("≥", self.lo)
            } else {
                ("≤", self.hi)
            };
            return format!("95% CI {sign} {}", format::with_unit(end, unit));
        }
        if unit.starts_with('$') {
            // `95% CI $1.10–$1.35/1M tok`.
            return format!(
                "95% CI {}–{}",
                format::money(self.lo),
                format::with_unit(self.hi, unit)
            );
        }
        let (lo, hi) = (format::number(self.lo), format::number(self.hi));
        let range = if self.lo < 0.0 || self.hi < 0.0 {
            format!("{lo} to {hi}")
        } else {
            format!("{lo}–{hi}")
        };
        if unit.is_empty() {
            format!("95% CI {range}")
        } else if unit == "%" {
            format!("95% CI {range}%")
        } else {
            format!("95% CI {range} {unit}")
        }
    }

    /// A percentage interval as verdicts write it, one decimal: `95% CI 27.9–33.1%`,
    /// `95% CI −2.5 to 4.8%`; an end that no data bounds is `∞`.
    pub fn percent_text(&self) -> String {
        let end = |v: f64| {
            if v.is_infinite() {
                if v > 0.0 { "∞" } else { "−∞" }.to_string()
            } else {
                format::fixed(v, 1).replace('-', "−")
            }
        };
        if self.lo < 0.0 || self.hi < 0.0 {
            format!("95% CI {} to {}%", end(self.lo), end(self.hi))
        } else {
            format!("95% CI {}–{}%", end(self.lo), end(self.hi))
        }
    }
}

/// What an interval was computed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// The per-request values of this many requests.
    Requests(usize),
    /// A mean with its standard deviation over this many requests.
    Summary(u64),
    /// The values of this many runs at one load point.
    Runs(usize),
    /// The per-request values of this many requests, judged in this many blocks of
    /// neighbours because neighbouring requests were alike ([`super::dependence`]).
    Blocks {
        /// The requests.
        requests: usize,
        /// The blocks they were judged in.
        blocks: usize,
    },
}

impl Basis {
    /// `from 400 requests`, `over 3 runs`.
    pub fn text(self) -> String {
        match self {
            Basis::Requests(n) => format!("from {} requests", format::number(n as f64)),
            Basis::Summary(n) => format!(
                "from the mean and standard deviation of {} requests",
                format::number(n as f64)
            ),
            Basis::Runs(k) => format!("over {k} runs"),
            Basis::Blocks { requests, blocks } => format!(
                "from {} requests in {blocks} blocks of alike neighbours",
                format::number(requests as f64)
            ),
        }
    }

    /// The degrees of freedom of the interval's critical value: those of Student's t for a
    /// mean or a t over runs or blocks; for order statistics and Wilson's interval (normal in
    /// the limit) those of the requests' mean, which errs on the cautious side. A p-value read
    /// off the interval uses them.
    pub fn degrees_of_freedom(self) -> f64 {
        match self {
            Basis::Requests(n) => n.saturating_sub(1).max(1) as f64,
            Basis::Summary(n) => n.saturating_sub(1).max(1) as f64,
            Basis::Runs(k) => k.saturating_sub(1).max(1) as f64,
            Basis::Blocks { blocks, .. } => blocks.saturating_sub(1).max(1) as f64,
        }
    }
}

/// A value with its 95% interval, where the data allows one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The value a page shows.
    pub value: f64,
    /// Its interval, both ends finite, and what it came from; `None`: the noise is unknown,
    /// or bounds the value on one side only ([`Estimate::one_sided`]).
    pub interval: Option<(Interval, Basis)>,
    /// The interval when the data bounds the value on one side only (the other end infinite):
    /// a p99 of 200 requests has a lower bound and no upper one. Comparisons use it
    /// ([`Estimate::bounds`]); charts and tables, which draw two ends, do not.
    pub one_sided: Option<(Interval, Basis)>,
}

impl Estimate {
    /// A value whose noise is unknown.
    pub fn bare(value: f64) -> Estimate {
        Estimate {
            value,
            interval: None,
            one_sided: None,
        }
    }

    /// `value` with `interval`, which goes to [`Estimate::interval`] when both its ends are
    /// finite and to [`Estimate::one_sided`] when one is. An interval that misses the value
    /// is widened to hold it; one of zero width (constant values, rounded clocks) tells
    /// nothing of the noise and is dropped; a lower end below zero is zero, as no quantity
    /// benchdeck estimates is negative.
    pub fn new(value: f64, interval: Option<(Interval, Basis)>) -> Estimate {
        let interval = interval
            .map(|(i, basis)| {
                let i = i.holding(value);
                // A finite lower end below zero is zero; an unbounded one stays unbounded.
                let lo = if i.lo.is_finite() {
                    i.lo.max(0.0)
                } else {
                    i.lo
                };
                (Interval { lo, hi: i.hi }, basis)
            })
            .filter(|(i, _)| i.hi > i.lo);
        match interval {
            Some((i, basis)) if i.bounded() => Estimate {
                value,
                interval: Some((i, basis)),
                one_sided: None,
            },
            one_sided => Estimate {
                value,
                interval: None,
                one_sided,
            },
        }
    }

    /// The interval comparisons use: the two-sided one, else the one-sided one.
    pub fn bounds(&self) -> Option<(Interval, Basis)> {
        self.interval.or(self.one_sided)
    }

    /// The text a tooltip or a table's title adds: `95% CI 41.2–48.9 ms from 400 requests`.
    pub fn interval_text(&self, unit: &str) -> Option<String> {
        self.interval
            .map(|(i, basis)| format!("{} {}", i.text(unit), basis.text()))
    }
}
