//! What a report's blocks can see while they are built, and only what they share: the report's
//! file, front matter and runs, which configurations and loads there are, and how each
//! configuration is shown. Each directive is a function of its own module that takes the
//! context: `charts::build`, `tables::build`, `tiles::build`, `values::inline`,
//! `decision::build`, and for the page as a whole `differs::section`, `prices::sheet` and
//! `filters::sheet`.

use super::front::{FrontMatter, Palette};
use super::load::{load_label, load_order, LoadText};
use crate::chart::{Point, Series};
use crate::model::{LoadTarget, Run};

/// The report being built, as its blocks see it.
pub(super) struct ReportContext<'a> {
    pub file: &'a str,
    pub front: &'a FrontMatter,
    pub runs: &'a [&'a Run],
    pub palette: &'a Palette,
}

impl ReportContext<'_> {
    /// The configuration keys to plot: the directive's, checked, or every key in the report's
    /// runs, in front matter order first.
    pub(super) fn config_keys(&self, wanted: Option<&[String]>) -> Result<Vec<String>, String> {
        let mut present: Vec<String> = Vec::new();
        for run in self.runs {
            let key = run.config.key();
            if !present.contains(&key) {
                present.push(key);
            }
        }
        match wanted {
            Some(wanted) => {
                for key in wanted {
                    if !present.contains(key) {
                        return Err(format!(
                            "configuration `{key}` is not in this report's results; found {}",
                            present.join(", ")
                        ));
                    }
                }
                Ok(wanted.to_vec())
            }
            None => {
                let mut ordered: Vec<String> = self
                    .front
                    .configs
                    .iter()
                    .map(|c| c.key.clone())
                    .filter(|k| present.contains(k))
                    .collect();
                for key in present {
                    if !ordered.contains(&key) {
                        ordered.push(key);
                    }
                }
                Ok(ordered)
            }
        }
    }

    /// Legend name and palette slot of a configuration.
    pub fn display(&self, key: &str) -> (String, usize) {
        let shown = self.front.configs.iter().find(|c| c.key == key);
        let label = shown
            .and_then(|c| c.label.clone())
            .unwrap_or_else(|| key.to_string());
        let slot = shown
            .and_then(|c| c.color.map(|slot| slot % crate::chart::theme::LOOKS))
            .or_else(|| self.palette.get(key).copied())
            .unwrap_or(0);
        (label, slot)
    }

    /// The runs of configuration `key`, sorted by load. Where one load point was measured on
    /// several days (a nightly folder), only the newest day's runs: every chart, table and value
    /// shows where the configuration stands now, and `kind: trend` shows the days before.
    /// Repeats of one day (a sweep's `run=0`, `run=1`) and undated runs are all kept.
    pub(super) fn runs_of(&self, key: &str) -> Vec<&Run> {
        let mut runs: Vec<&Run> = self
            .runs
            .iter()
            .copied()
            .filter(|r| r.config.key() == key)
            .collect();
        let newest_day = |load: &LoadTarget| {
            runs.iter()
                .filter(|r| r.load.target == *load)
                .filter_map(|r| r.provenance.date.as_ref().map(|d| d.day()))
                .max()
        };
        let keep: Vec<bool> = runs
            .iter()
            .map(|r| match (&r.provenance.date, newest_day(&r.load.target)) {
                (Some(date), Some(newest)) => date.day() == newest,
                _ => true,
            })
            .collect();
        let mut keep = keep.into_iter();
        runs.retain(|_| keep.next().unwrap_or(true));
        runs.sort_by(|a, b| load_order(&a.load.target).total_cmp(&load_order(&b.load.target)));
        runs
    }

    /// Every run of configuration `key`, older days included (the table of every run), by
    /// load and then date.
    pub(super) fn every_run_of(&self, key: &str) -> Vec<&Run> {
        let mut runs: Vec<&Run> = self
            .runs
            .iter()
            .copied()
            .filter(|r| r.config.key() == key)
            .collect();
        runs.sort_by(|a, b| {
            load_order(&a.load.target)
                .total_cmp(&load_order(&b.load.target))
                .then_with(|| a.provenance.date.cmp(&b.provenance.date))
        });
        runs
    }

    /// Every load point of the configurations `keys`, in increasing load.
    pub(super) fn loads_of(&self, keys: &[String]) -> Vec<LoadTarget> {
        let mut loads: Vec<LoadTarget> = Vec::new();
        for key in keys {
            for run in self.runs_of(key) {
                if !loads.contains(&run.load.target) {
                    loads.push(run.load.target);
                }
            }
        }
        loads.sort_by(|a, b| load_order(a).total_cmp(&load_order(b)));
        loads
    }

    /// The run of `key` at `load`, or its only run when no load is given.
    pub(super) fn run_at(
        &self,
        key: &str,
        load: Option<&LoadText>,
    ) -> Result<Option<&Run>, String> {
        let runs = self.runs_of(key);
        match load {
            Some(load) => {
                load.parse()?;
                Ok(runs
                    .into_iter()
                    .find(|r| load.matches(&r.load.target).unwrap_or(false)))
            }
            None if runs.len() <= 1 => Ok(runs.into_iter().next()),
            None => Err(format!(
                "configuration `{key}` has {} load points; say which with `load:` (one of {})",
                runs.len(),
                runs.iter()
                    .map(|r| load_label(&r.load.target))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// A series per configuration of `keys`, named and coloured as the report shows it, with the
    /// points `points_of` gives for its key.
    pub(super) fn series_per_config(
        &self,
        keys: &[String],
        points_of: impl Fn(&str) -> Vec<Point>,
    ) -> Vec<Series> {
        keys.iter()
            .map(|key| {
                let (name, color) = self.display(key);
                Series {
                    name,
                    color,
                    points: points_of(key),
                }
            })
            .collect()
    }
}
