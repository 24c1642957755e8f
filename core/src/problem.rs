//! Problems found in user input: where (file and place), how bad, and what was expected.
//!
//! Nothing in benchdeck drops bad input silently: a value that cannot be read becomes a
//! [`Problem`] attached to the run or file it belongs to, and is shown by `inspect` and the site.

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::location::Location;
use crate::printable::printable;

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Something was read, but is worth a look (a value was ignored, a unit was assumed).
    Warning,
    /// Something could not be read; what depends on it is missing.
    Error,
}

/// One problem with its location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// How bad it is.
    pub severity: Severity,
    /// The file, as the user named it.
    pub file: String,
    /// The place in the file.
    pub location: Location,
    /// What is wrong and what was expected, in lower case without a final full stop.
    pub message: String,
}

impl Problem {
    /// An error at `location` of `file`.
    pub fn error(file: &str, location: Location, message: impl Into<String>) -> Self {
        Problem {
            severity: Severity::Error,
            file: file.to_string(),
            location,
            message: message.into(),
        }
    }

    /// A warning at `location` of `file`.
    pub fn warning(file: &str, location: Location, message: impl Into<String>) -> Self {
        Problem {
            severity: Severity::Warning,
            file: file.to_string(),
            location,
            message: message.into(),
        }
    }

    /// `file:line` or `file#path`, the way editors and terminals link it.
    pub fn place(&self) -> String {
        format!("{}{}", self.file, self.location)
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        // Printed on terminals and in CI logs: what the input put in it is escaped there.
        write!(
            f,
            "{}: {level}: {}",
            printable(&self.place()),
            printable(&self.message)
        )
    }
}
