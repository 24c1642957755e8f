//! A generated project: its report and result files, with the runs and slugs they hold.

/// A generated file: its path (relative to `reports/` or `results/`) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// Relative path with `/` separators.
    pub path: String,
    /// The file's content.
    pub text: String,
}

/// A generated project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Set {
    /// Markdown reports, relative to `reports/`.
    pub reports: Vec<GeneratedFile>,
    /// Result files, relative to `results/`.
    pub results: Vec<GeneratedFile>,
    /// Runs in all the result files.
    pub runs: usize,
    /// The slug of every report, in the order generated.
    pub slugs: Vec<String>,
}

impl Set {
    /// Bytes of all the result files.
    pub fn result_bytes(&self) -> usize {
        self.results.iter().map(|f| f.text.len()).sum()
    }
}
