//! The choices of `compare`'s options that both of its modes read: how to print, and what
//! fails the run.

/// The output formats.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned columns, coloured when printing to a terminal.
    Text,
    /// GitHub-flavoured Markdown tables.
    Markdown,
    /// JSON (`benchdeck-compare/2`).
    Json,
}

/// What fails the run.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// A metric worse clearly, by more than `--threshold`, and beyond the family's noise.
    Worse,
}
