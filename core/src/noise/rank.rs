//! The Mann–Whitney U test: whether the values of one run tend to be larger than those of
//! another, from ranks alone, so that a latency distribution's long tail does not swamp it.
//! Trends use it for the newest nightly run against the pooled runs before it.

use super::student::normal_upper_tail;

/// A rank test's outcome.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankTest {
    /// The two-sided p-value (normal approximation with the tie correction).
    pub p_value: f64,
    /// The probability that a value of `new` exceeds one of `old` (ties count half): 0.5 when
    /// neither tends to be larger. The effect size the caption states.
    pub superiority: f64,
}

/// `new` against `old` (NaN ignored); `None` when either has fewer than 5 values.
pub fn mann_whitney(new: &[f64], old: &[f64]) -> Option<RankTest> {
    let mut all: Vec<(f64, bool)> = new
        .iter()
        .filter(|v| v.is_finite())
        .map(|&v| (v, true))
        .chain(old.iter().filter(|v| v.is_finite()).map(|&v| (v, false)))
        .collect();
    let n1 = all.iter().filter(|(_, is_new)| *is_new).count();
    let n2 = all.len() - n1;
    if n1 < 5 || n2 < 5 {
        return None;
    }
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Mid-ranks, and Σ(t³ − t) over tied groups for the variance.
    let mut rank_sum_new = 0.0;
    let mut ties = 0.0;
    let mut i = 0;
    while i < all.len() {
        let mut j = i + 1;
        while j < all.len() && all[j].0 == all[i].0 {
            j += 1;
        }
        let t = (j - i) as f64;
        let mid_rank = (i + j + 1) as f64 / 2.0;
        rank_sum_new += mid_rank * all[i..j].iter().filter(|(_, is_new)| *is_new).count() as f64;
        ties += t * t * t - t;
        i = j;
    }
    let (a, b) = (n1 as f64, n2 as f64);
    let u = rank_sum_new - a * (a + 1.0) / 2.0;
    let n = a + b;
    let variance = a * b / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)));
    let p_value = if variance > 0.0 {
        let z = ((u - a * b / 2.0).abs() - 0.5).max(0.0) / variance.sqrt();
        (2.0 * normal_upper_tail(z)).min(1.0)
    } else {
        1.0
    };
    Some(RankTest {
        p_value,
        superiority: u / (a * b),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_textbook_example() {
        // Every new value above every old one: U = n1·n2, superiority 1, p small.
        let new = [10.0, 11.0, 12.0, 13.0, 14.0, 15.0];
        let old = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let t = mann_whitney(&new, &old).unwrap();
        assert_eq!(t.superiority, 1.0);
        // Exact two-sided p for 6 vs 6 fully separated is 0.0022; the normal approximation
        // with continuity gives 0.0051.
        assert!(t.p_value < 0.01, "{t:?}");
        let same = mann_whitney(&old, &old).unwrap();
        assert_eq!(same.superiority, 0.5);
        assert!(same.p_value > 0.9);
        assert_eq!(mann_whitney(&new[..4], &old), None);
    }

    #[test]
    fn all_ties_give_no_evidence() {
        let t = mann_whitney(&[3.0; 8], &[3.0; 9]).unwrap();
        assert_eq!(t.p_value, 1.0);
        assert_eq!(t.superiority, 0.5);
    }
}
