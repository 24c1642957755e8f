//! The files benchdeck reads: a report or a result file, by its path and bytes, from disk (the
//! CLI) or dropped into the browser (the worker).

/// A file given to the build: its path relative to its folder, and its content.
#[derive(Debug, Clone)]
pub struct InputFile {
    /// Path relative to `reports/` or `results/`, with `/` separators.
    pub path: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}
