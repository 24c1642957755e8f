//! The one warning that names every field of a file its importer does not model, so that
//! nothing is left out silently: `successes.request_size_bytes`, `load_summary.schedule_delay`…

use serde_json::{Map, Value};

use crate::model::Location;
use crate::problem::Problem;

/// Most names one warning lists; the rest are counted.
const SHOWN: usize = 40;

/// The fields an importer met and did not read, by their path in the file.
#[derive(Debug, Default)]
pub(crate) struct Unread {
    names: Vec<String>,
}

impl Unread {
    /// Notes every key of `obj` that is not among `read` and holds something (not `null`), as
    /// `prefix.key`.
    pub fn keys(&mut self, obj: &Map<String, Value>, prefix: &str, read: &[&str]) {
        for (key, value) in obj {
            if !value.is_null() && !read.contains(&key.as_str()) {
                self.names.push(path(prefix, key));
            }
        }
    }

    /// Notes one field by its path.
    pub fn name(&mut self, name: impl Into<String>) {
        self.names.push(name.into());
    }

    /// One warning at `at` naming every field noted (the first [`SHOWN`] of them), or `None`
    /// when every field was read. `what` names the file's kind: `inference-perf's report`.
    pub fn warning(self, file: &str, at: Location, what: &str) -> Option<Problem> {
        let count = self.names.len();
        if count == 0 {
            return None;
        }
        let mut shown: Vec<String> = self
            .names
            .iter()
            .take(SHOWN)
            .map(|n| format!("`{n}`"))
            .collect();
        if count > SHOWN {
            shown.push(format!("and {} more", count - SHOWN));
        }
        let (fields, are) = if count == 1 {
            ("field", "is")
        } else {
            ("fields", "are")
        };
        Some(Problem::warning(
            file,
            at,
            format!(
                "{count} {fields} of {what} {are} not in benchdeck's model and not read: {}",
                shown.join(", ")
            ),
        ))
    }
}

/// `prefix.key`, or `key` at the top.
pub(crate) fn path(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_warning_names_what_was_not_read_and_counts_past_the_limit() {
        let v = serde_json::json!({"a": 1, "b": null, "c": {}, "d": 2});
        let mut unread = Unread::default();
        unread.keys(v.as_object().unwrap(), "top", &["a"]);
        let p = unread
            .warning("f.json", Location::json("top"), "the tool's file")
            .unwrap();
        assert_eq!(
            p.to_string(),
            "f.json#top: warning: 2 fields of the tool's file are not in benchdeck's model and \
             not read: `top.c`, `top.d`"
        );
        let mut many = Unread::default();
        for i in 0..45 {
            many.name(format!("k{i}"));
        }
        let p = many.warning("f", Location::File, "x").unwrap();
        assert!(p.message.ends_with("`k39`, and 5 more"), "{}", p.message);
        assert!(Unread::default()
            .warning("f", Location::File, "x")
            .is_none());
    }
}
