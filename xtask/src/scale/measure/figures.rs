//! The section's figures: the goal the pages are held to, a median, a count with thousands
//! separators, and bytes in MB or KB.

/// The goal of issue 8: a page of the large site within this factor of the small site's.
pub(super) const GOAL: f64 = 1.5;

/// The median of `values` (the upper one of an even count), 0 when there are none.
pub(super) fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// `1,234,567`.
pub(super) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes as `12.3 MB` (10⁶), or `456 KB`.
pub(super) fn mb(bytes: u64) -> String {
    if bytes >= 1_000_000 {
        format!("{:.1} MB", bytes as f64 / 1e6)
    } else {
        format!("{} KB", (bytes as f64 / 1e3).round())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_for_people() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1234), "1,234");
        assert_eq!(thousands(20_000), "20,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(mb(1_500_000), "1.5 MB");
        assert_eq!(mb(2_400), "2 KB");
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
    }
}
