//! The header of a `benchmarks.csv`: its layout, and what each column holds and how to name it
//! in messages.

use super::columns::Col;

/// The header of a file: what each column holds and how to name it in messages.
pub(super) struct Header {
    pub(super) cols: Vec<Col>,
    pub(super) names: Vec<String>,
}

/// The header's generation: 0.3's one row, or 0.4+'s three.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Layout {
    V03,
    V04,
}
