//! The gate judges many metrics at many loads at once: with twenty metrics each read at 95%,
//! an A/A pair would fail one in three times by chance alone. Holm's step-down correction
//! (Holm 1979) keeps the chance that *any* metric fails a comparison in which nothing changed
//! at or below 5%: the p-values of every row judged with an interval are sorted, the i-th
//! smallest of m is held against 0.05 ÷ (m − i + 1), and rows pass that test in order until
//! the first that does not. A row fails the gate only when it is worse, clearly, by more than
//! the threshold, *and* survives this correction. Rows whose noise is unknown are not in the
//! family: they cannot fail.

use super::judge::VerdictRow;

/// The family's error rate: the most that a comparison where nothing changed may fail.
pub const FAMILY_ALPHA: f64 = 0.05;

/// Sets each row's `fails` by Holm's correction over every row with a p-value.
pub fn correct<'a>(rows: impl IntoIterator<Item = &'a mut VerdictRow>) {
    let mut rows: Vec<&mut VerdictRow> = rows.into_iter().collect();
    let p_values: Vec<Option<f64>> = rows.iter().map(|r| r.p_value).collect();
    for (row, survives) in rows.iter_mut().zip(survivors(&p_values)) {
        row.fails = row.worse_beyond_threshold && survives;
    }
}

/// Which of `p_values` survive Holm's correction at [`FAMILY_ALPHA`]; a `None` is not in the
/// family and never survives.
pub fn survivors(p_values: &[Option<f64>]) -> Vec<bool> {
    let mut order: Vec<(usize, f64)> = p_values
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((i, (*p)?)))
        .collect();
    order.sort_by(|a, b| a.1.total_cmp(&b.1));
    let m = order.len();
    let mut survives = vec![false; p_values.len()];
    for (rank, (i, p)) in order.into_iter().enumerate() {
        if p > FAMILY_ALPHA / (m - rank) as f64 {
            break;
        }
        survives[i] = true;
    }
    survives
}

/// The number of rows in the family: those judged with an interval.
pub fn size<'a>(rows: impl IntoIterator<Item = &'a VerdictRow>) -> usize {
    rows.into_iter().filter(|r| r.p_value.is_some()).count()
}
