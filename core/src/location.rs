//! Where in a file something is: a line (and column), or a path inside a JSON document. Problems
//! and runs' provenance both point into files with it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A place inside a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Location {
    /// The whole file.
    File,
    /// A 1-based line, with an optional 1-based column.
    Line {
        /// Line number, from 1.
        line: u64,
        /// Column number, from 1.
        #[serde(default)]
        column: Option<u64>,
    },
    /// A JSON path such as `benchmarks[2].metrics.time_to_first_token_ms`, optionally on a line
    /// of a JSON Lines file.
    Json {
        /// Line of the object in a JSON Lines file.
        #[serde(default)]
        line: Option<u64>,
        /// Dotted path inside the object; empty for the object itself.
        path: String,
    },
}

impl Location {
    /// A line without a column.
    pub fn line(line: u64) -> Self {
        Location::Line { line, column: None }
    }

    /// A JSON path in a file holding one document.
    pub fn json(path: impl Into<String>) -> Self {
        Location::Json {
            line: None,
            path: path.into(),
        }
    }

    /// The same location, one level deeper into a JSON object.
    pub fn child(&self, key: &str) -> Self {
        match self {
            Location::Json { line, path } => Location::Json {
                line: *line,
                path: join_json_path(path, key),
            },
            other => other.clone(),
        }
    }
}

fn join_json_path(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else if key.starts_with('[') {
        format!("{path}{key}")
    } else {
        format!("{path}.{key}")
    }
}

impl fmt::Display for Location {
    /// Formats as the suffix of `file`: `:12`, `:12:4`, `#results[3].ttft` or `:7#mean_ttft_ms`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::File => Ok(()),
            Location::Line { line, column: None } => write!(f, ":{line}"),
            Location::Line {
                line,
                column: Some(c),
            } => write!(f, ":{line}:{c}"),
            Location::Json { line, path } => {
                if let Some(line) = line {
                    write!(f, ":{line}")?;
                }
                if !path.is_empty() {
                    write!(f, "#{path}")?;
                }
                Ok(())
            }
        }
    }
}
