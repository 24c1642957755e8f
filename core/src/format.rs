//! Number formatting for people: thousands separators, sensible precision, units.
//!
//! Components and charts only display strings made here, so the same value reads the same in a
//! table, a tooltip, an axis and an inline value.

/// `"s"` unless `n` is 1, for counted nouns: `format!("{n} file{}", plural(n))`.
pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Formats `v` with thousands separators and a precision that suits its size:
/// `5028` → `5,028`, `85.1` → `85.1`, `45.037` → `45.04`, `0.00123` → `0.00123`.
pub fn number(v: f64) -> String {
    if v.is_nan() {
        return "n/a".to_string();
    }
    if v.is_infinite() {
        return if v > 0.0 { "∞" } else { "-∞" }.to_string();
    }
    let decimals = decimals_for(v.abs());
    group_thousands(&trim_zeros(&format!("{v:.decimals$}")))
}

/// [`number`] with at most `max_decimals` digits after the point where room is short (the value
/// over a narrow bar), but never fewer than two significant digits:
/// `50.75` → `50.8` (1), `51` (0); `5.26` → `5.3` (0); `0.0123` → `0.012` (0).
pub fn number_within(v: f64, max_decimals: usize) -> String {
    if !v.is_finite() || v == 0.0 {
        return number(v);
    }
    let abs = v.abs();
    let two_significant = (1 - abs.log10().floor() as i64).max(0) as usize;
    let decimals = decimals_for(abs).min(max_decimals.max(two_significant));
    group_thousands(&trim_zeros(&format!("{v:.decimals$}")))
}

/// The digits after the point that [`number`] writes for a value of size `abs`.
fn decimals_for(abs: f64) -> usize {
    if abs >= 1000.0 {
        0
    } else if abs >= 100.0 {
        1
    } else if abs >= 1.0 || abs == 0.0 {
        2
    } else {
        // Three significant digits for small values.
        (-abs.log10().floor() as usize + 2).min(9)
    }
}

/// Formats with exactly `decimals` digits after the point, and thousands separators.
pub fn fixed(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return number(v);
    }
    group_thousands(&format!("{v:.decimals$}"))
}

/// A value with its unit: `5,028 ms`, `85.1 tok/s`, `64.7%`. Money is written as money: a
/// unit starting with `$` puts the dollar before the number and the rest after it
/// (`$1.23/1M tok`, `$1.23 per million output tokens`), with [`money`]'s digits.
pub fn with_unit(v: f64, unit: &str) -> String {
    if let Some(rest) = unit.strip_prefix('$') {
        return if v.is_finite() {
            format!("{}{rest}", money(v))
        } else {
            number(v)
        };
    }
    match unit {
        "%" => format!("{}%", number(v)),
        "" => number(v),
        u => format!("{} {u}", number(v)),
    }
}

/// A value with its unit and exactly `decimals` digits: `45.04 ms`, `$12.29/1M tok` (tables
/// that line up).
pub fn with_unit_fixed(v: f64, unit: &str, decimals: usize) -> String {
    if let Some(rest) = unit.strip_prefix('$') {
        if !v.is_finite() {
            return number(v);
        }
        let sign = if v < 0.0 { "-" } else { "" };
        return format!("{sign}${}{rest}", fixed(v.abs(), decimals));
    }
    match unit {
        "%" => format!("{}%", fixed(v, decimals)),
        "" => fixed(v, decimals),
        u => format!("{} {u}", fixed(v, decimals)),
    }
}

/// A sum of dollars as people write it: `$1.23`, `$0.50` (cents from a cent up), `$1,234` (no
/// cents from a thousand), `$0.0012` (two significant digits below a cent), `-$1.23`.
pub fn money(v: f64) -> String {
    if !v.is_finite() {
        return number(v);
    }
    let abs = v.abs();
    let decimals = if abs >= 1000.0 {
        0
    } else if abs >= 0.01 || abs == 0.0 {
        2
    } else {
        ((1 - abs.log10().floor() as i64).max(0) as usize).min(9)
    };
    let sign = if v < 0.0 { "-" } else { "" };
    format!("{sign}${}", group_thousands(&format!("{abs:.decimals$}")))
}

/// How much of `total` bytes is `done`, in the unit that suits `total`: `3.2 of 12.5 KiB`,
/// `1.5 of 40.0 MiB`.
pub fn bytes_of(done: u64, total: u64) -> String {
    const KIB: f64 = 1024.0;
    let (scale, unit) = if total < 1024 * 1024 {
        (KIB, "KiB")
    } else {
        (KIB * KIB, "MiB")
    };
    let amount = |bytes: u64| fixed(bytes as f64 / scale, 1);
    format!("{} of {} {unit}", amount(done), amount(total))
}

fn trim_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

fn group_thousands(s: &str) -> String {
    let (sign, rest) = match s.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", s),
    };
    let (int, frac) = match rest.find('.') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    let mut grouped = String::with_capacity(int.len() + int.len() / 3);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("{sign}{grouped}{frac}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_read_are_said_in_the_unit_of_the_whole() {
        assert_eq!(bytes_of(0, 3_277), "0.0 of 3.2 KiB");
        assert_eq!(bytes_of(3_277, 3_277), "3.2 of 3.2 KiB");
        assert_eq!(bytes_of(1024 * 1024, 40 * 1024 * 1024), "1.0 of 40.0 MiB");
        assert_eq!(bytes_of(0, 0), "0.0 of 0.0 KiB");
    }

    #[test]
    fn numbers_read_like_a_person_wrote_them() {
        assert_eq!(number(5028.0), "5,028");
        assert_eq!(number(85.1), "85.1");
        assert_eq!(number(45.037437), "45.04");
        assert_eq!(number(406.0), "406");
        assert_eq!(number(373.0145), "373");
        assert_eq!(number(18107.32), "18,107");
        assert_eq!(number(1234567.0), "1,234,567");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(0.00123), "0.00123");
        assert_eq!(number(-2500.7), "-2,501");
        assert_eq!(number(f64::INFINITY), "∞");
        assert_eq!(number(f64::NAN), "n/a");
    }

    #[test]
    fn numbers_within_a_few_decimals_keep_two_significant_digits() {
        assert_eq!(number_within(50.75, 9), number(50.75));
        assert_eq!(number_within(50.75, 1), "50.8");
        assert_eq!(number_within(50.75, 0), "51");
        assert_eq!(number_within(100.0, 0), "100");
        assert_eq!(number_within(1021.4, 0), "1,021");
        assert_eq!(number_within(5.26, 0), "5.3");
        assert_eq!(number_within(-5.26, 0), "-5.3");
        assert_eq!(number_within(0.0123, 0), "0.012");
        assert_eq!(number_within(0.00123, 9), "0.00123");
        assert_eq!(number_within(0.0, 0), "0");
        assert_eq!(number_within(f64::NAN, 0), "n/a");
    }

    #[test]
    fn fixed_keeps_trailing_zeros() {
        assert_eq!(fixed(45.0374, 2), "45.04");
        assert_eq!(fixed(18107.324, 2), "18,107.32");
        assert_eq!(fixed(30.0, 2), "30.00");
    }

    #[test]
    fn units() {
        assert_eq!(with_unit(5028.0, "ms"), "5,028 ms");
        assert_eq!(with_unit(64.7, "%"), "64.7%");
    }

    #[test]
    fn money_is_written_as_money() {
        assert_eq!(with_unit(1.2291, "$/1M tok"), "$1.23/1M tok");
        assert_eq!(
            with_unit(1.2291, "$ per million output tokens"),
            "$1.23 per million output tokens"
        );
        assert_eq!(with_unit(0.5, "$"), "$0.50");
        assert_eq!(with_unit(11.694, "$/1M tok"), "$11.69/1M tok");
        assert_eq!(with_unit(1234.6, "$/1M tok"), "$1,235/1M tok");
        assert_eq!(with_unit(0.001234, "$"), "$0.0012");
        assert_eq!(with_unit(-1.2291, "$"), "-$1.23");
        assert_eq!(with_unit_fixed(12.2912, "$/1M tok", 2), "$12.29/1M tok");
        assert_eq!(with_unit_fixed(4.0, "$/1M tok", 2), "$4.00/1M tok");
        assert_eq!(money(0.0), "$0.00");
        assert_eq!(with_unit(f64::NAN, "$/1M tok"), "n/a");
    }
}
