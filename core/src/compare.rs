//! Two values compared as a report's prose says it: `ratio(a, b)`, A ÷ B written `12.9x`, and
//! `pct(a, b)`, how much lower A is than B in percent (`35.2%`). The build computes the inline
//! values with it (`report::values`), and the page again when a reader's prices change a cost
//! on either side (`app/src/components/prices.rs`), so both write the same text.

use crate::format;

/// How two values are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparison {
    /// A ÷ B.
    Ratio,
    /// (B − A) ÷ B, in percent: how much lower A is than B.
    PercentLower,
}

impl Comparison {
    /// The comparison an expression's function names (`ratio`, `pct`).
    pub fn named(name: &str) -> Option<Comparison> {
        match name {
            "ratio" => Some(Comparison::Ratio),
            "pct" => Some(Comparison::PercentLower),
            _ => None,
        }
    }

    /// The function's name, as written in expressions and in the page's `data-compare`.
    pub fn name(self) -> &'static str {
        match self {
            Comparison::Ratio => "ratio",
            Comparison::PercentLower => "pct",
        }
    }

    /// `a` compared with `b`; `None` when `b` is zero or either is not a finite number.
    pub fn of(self, a: f64, b: f64) -> Option<f64> {
        if !(a.is_finite() && b.is_finite()) || b == 0.0 {
            return None;
        }
        Some(match self {
            Comparison::Ratio => a / b,
            Comparison::PercentLower => (b - a) / b * 100.0,
        })
    }

    /// The result as the prose shows it: `12.9x`, `1.35x`, `130x`; `35.2%`.
    pub fn text(self, value: f64) -> String {
        match self {
            Comparison::Ratio => format!("{}x", format::number(round_for_ratio(value))),
            Comparison::PercentLower => format!("{}%", format::fixed(value, 1)),
        }
    }
}

/// Ratios read best with three significant digits at most: `12.9`, `1.35`, `130`.
fn round_for_ratio(v: f64) -> f64 {
    if v.abs() >= 100.0 {
        v.round()
    } else if v.abs() >= 10.0 {
        (v * 10.0).round() / 10.0
    } else {
        (v * 100.0).round() / 100.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_and_percentages_read_as_prose_writes_them() {
        let ratio = Comparison::named("ratio").unwrap();
        assert_eq!(
            ratio.of(406.0, 31.5).map(|v| ratio.text(v)).unwrap(),
            "12.9x"
        );
        assert_eq!(ratio.text(1.3456), "1.35x");
        assert_eq!(ratio.text(129.6), "130x");
        let pct = Comparison::named("pct").unwrap();
        assert_eq!(pct.of(65.0, 100.0), Some(35.0));
        assert_eq!(pct.text(35.0), "35.0%");
        assert_eq!(pct.name(), "pct");
        assert_eq!(ratio.of(1.0, 0.0), None);
        assert_eq!(ratio.of(f64::NAN, 1.0), None);
        assert_eq!(Comparison::named("cv"), None);
    }
}
