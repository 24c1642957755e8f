//! The report being read: its runs by level so far, the problems of no run, and the
//! configuration, which the tables and progress lines fill and which ends in the file's runs.

use super::columns::Level;
use super::entry::Entry;
use super::run::finish_entry;
use crate::import::ImportedFile;
use crate::model::{Location, Producer, Run};
use crate::problem::Problem;

/// A report being read: its runs by level so far, the problems of no run, and the configuration.
pub(super) struct Document {
    pub(super) file: String,
    pub(super) entries: Vec<Entry>,
    pub(super) problems: Vec<Problem>,
    pub(super) model: Option<String>,
    pub(super) dataset: Option<String>,
    /// True once something of a report was found.
    pub(super) recognised: bool,
}

impl Document {
    /// `--model X` and `--dataset-name X` in a code block.
    pub(super) fn command_line(&mut self, t: &str) {
        let words: Vec<&str> = t.split_whitespace().collect();
        for pair in words.windows(2) {
            match pair[0] {
                "--model" | "-m" if self.model.is_none() => self.model = Some(pair[1].to_string()),
                "--dataset-name" if self.dataset.is_none() => {
                    self.dataset = Some(pair[1].to_string())
                }
                _ => {}
            }
        }
    }

    pub(super) fn entry(&mut self, level: Level, line: u64) -> &mut Entry {
        match self.entries.iter().position(|e| e.level == level) {
            Some(i) => &mut self.entries[i],
            None => {
                self.entries.push(Entry::new(level, line));
                let last = self.entries.len() - 1;
                &mut self.entries[last]
            }
        }
    }

    pub(super) fn finish(self) -> ImportedFile {
        let file = self.file;
        let mut runs = Vec::new();
        for entry in self.entries {
            runs.push(finish_entry(
                &file,
                entry,
                self.model.as_deref(),
                self.dataset.as_deref(),
            ));
        }
        let producer = if !runs.is_empty()
            && runs
                .iter()
                .all(|r: &Run| r.provenance.producer == Producer::SimpleFullStackCsv)
        {
            Producer::SimpleFullStackCsv
        } else {
            Producer::SimpleFullStackLoadTest
        };
        let mut problems = self.problems;
        if runs.is_empty()
            && !problems
                .iter()
                .any(|p| p.severity == crate::problem::Severity::Error)
        {
            problems.push(Problem::error(
                &file,
                Location::File,
                "no row could become a run; expected load_test.py or benchmark.py tables with \
                 one row per load level",
            ));
        }
        ImportedFile {
            file,
            producer: Some(producer),
            runs,
            problems,
            joined: Vec::new(),
            joined_into: None,
            telemetry: None,
        }
    }
}
