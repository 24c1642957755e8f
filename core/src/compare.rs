//! Two values compared as a report says it: `ratio(a, b)`, A ÷ B written `12.9x`, and
//! `pct(a, b)`, how much lower A is than B in percent (`35.2%`), in prose; and a head-to-head
//! table's row, which of two configurations is better and by how much ([`Verdict`]). The build
//! computes them here (`report::values`, `report::tables`), and the page again when a reader's
//! prices change a cost on either side (`app/src/components/prices.rs`), so both write the same
//! text.

use crate::format;
use crate::quantity::Better;

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

/// Which of two values a head-to-head row finds better, and by how much: the gap over the worse
/// value, in percent ("Faster by", "Cheaper by", "Higher by").
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Verdict {
    /// The first (0) or the second (1) value is better, by this much (`None` against zero,
    /// where a percentage means nothing).
    Better(usize, Option<f64>),
    /// They are equal.
    Tie,
}

impl Verdict {
    /// `a` against `b` where `better` says which way is better; `None` unless both are finite.
    pub fn of(a: f64, b: f64, better: Better) -> Option<Verdict> {
        if !(a.is_finite() && b.is_finite()) {
            return None;
        }
        if a == b {
            return Some(Verdict::Tie);
        }
        let first_wins = match better {
            Better::Lower => a < b,
            Better::Higher => a > b,
        };
        let (winner, worse) = if first_wins { (a, b) } else { (b, a) };
        let by = (winner - worse).abs() / worse * 100.0;
        let by = (worse > 0.0 && by.is_finite()).then_some(by);
        Some(Verdict::Better(usize::from(!first_wins), by))
    }

    /// How much better, as the row writes it: `23.45%`, `0%` for a tie, `–` against zero.
    pub fn by_text(self) -> String {
        match self {
            Verdict::Better(_, Some(by)) => format!("{}%", format::fixed(by, 2)),
            Verdict::Better(_, None) => "–".to_string(),
            Verdict::Tie => "0%".to_string(),
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

    #[test]
    fn a_head_to_head_finds_the_better_value_and_the_gap_over_the_worse() {
        // Seed 002's mean TTFT at 1 req/s: vLLM 45.04 ms, SGLang 64.88 ms.
        let faster = Verdict::of(45.04, 64.88, Better::Lower).unwrap();
        assert!(matches!(faster, Verdict::Better(0, Some(by)) if (by - 30.58).abs() < 0.01));
        assert_eq!(faster.by_text(), "30.58%");
        let higher = Verdict::of(2783.0, 2845.0, Better::Higher).unwrap();
        assert!(matches!(higher, Verdict::Better(1, Some(_))), "{higher:?}");
        assert_eq!(
            Verdict::of(0.0, 5.0, Better::Higher).unwrap().by_text(),
            "–"
        );
        assert_eq!(Verdict::of(3.0, 3.0, Better::Lower), Some(Verdict::Tie));
        assert_eq!(Verdict::Tie.by_text(), "0%");
        assert_eq!(Verdict::of(f64::NAN, 3.0, Better::Lower), None);
    }
}
