//! What a report's blocks can see while they are built: the report's file, front matter and runs,
//! and how configurations are shown. Each kind of block adds its own methods in its module
//! (`charts`, `tables`, `values`, `decision`).

use super::{FrontMatter, Palette};
use crate::model::Run;

/// The report being built, as its blocks see it.
pub(super) struct ReportContext<'a> {
    pub file: &'a str,
    pub front: &'a FrontMatter,
    pub runs: &'a [&'a Run],
    pub palette: &'a Palette,
}
