//! A cell of Locust's tables as a number: finite, or whole for counts, with an error at the cell
//! otherwise.

use crate::import::table::{self, Row, Wanted};
use crate::problem::Problem;

/// Cell `i` of `row` as a finite number; `N/A` and empty cells are missing.
pub(super) fn number(
    file: &str,
    header: &Row,
    row: &Row,
    i: usize,
    problems: &mut Vec<Problem>,
) -> Option<f64> {
    table::number(file, row, i, header.cell(i), Wanted::AtLeastZero, problems)
}

/// `v`, read from cell `i` of `row`, as a whole number; else an error at the cell.
pub(super) fn whole(
    file: &str,
    header: &Row,
    row: &Row,
    i: usize,
    v: f64,
    problems: &mut Vec<Problem>,
) -> Option<u64> {
    if v.fract() == 0.0 && v <= 9.0e15 {
        Some(v as u64)
    } else {
        problems.push(Problem::error(
            file,
            row.at(i),
            format!(
                "`{}`: expected a whole number, found `{}`",
                header.cell(i),
                row.cell(i)
            ),
        ));
        None
    }
}
