//! Engine and GPU telemetry files read as the importers read results: recognised by content,
//! each gives [`crate::telemetry::Readings`] and no run. `siblings::engine` then matches them
//! to the run they belong to.

use super::ImportedFile;
use crate::model::{Location, Producer};
use crate::problem::Problem;
use crate::telemetry::{prometheus, series, server_log, Readings};

/// True when `text` is a telemetry file benchdeck reads.
pub fn is_telemetry(text: &str) -> bool {
    prometheus::is_scrape(text) || series::is_table(text) || server_log::is_log(text)
}

/// Reads the telemetry file `file`.
pub fn read(file: &str, text: &str) -> ImportedFile {
    if prometheus::is_scrape(text) {
        let (snapshot, bad) = prometheus::read(text);
        let readings = Readings {
            snapshot: Some(snapshot),
            ..Readings::default()
        };
        return with_readings(file, Producer::PrometheusScrape, readings, Vec::new(), bad);
    }
    if let Some(table) = series::read(text) {
        let producer = Producer::TelemetrySeries;
        return with_readings(file, producer, table.readings, table.notes, table.bad);
    }
    let readings = server_log::read(text);
    with_readings(file, Producer::EngineLog, readings, Vec::new(), Vec::new())
}

fn with_readings(
    file: &str,
    producer: Producer,
    readings: Readings,
    notes: Vec<String>,
    bad: Vec<(usize, String)>,
) -> ImportedFile {
    let mut out = ImportedFile::new(file, Some(producer));
    for (line, expected) in bad {
        out.problems.push(Problem::warning(
            file,
            Location::line(line as u64),
            format!("{expected}; the line is left out"),
        ));
    }
    for note in notes {
        out.problems
            .push(Problem::warning(file, Location::File, note));
    }
    if readings.is_empty() {
        out.problems.push(Problem::warning(
            file,
            Location::File,
            "holds no engine or GPU metric benchdeck reads (requests waiting and running, \
             KV-cache use, prefix-cache and speculative-decoding counters, preemptions, GPU power \
             and utilisation)",
        ));
    }
    out.telemetry = Some(Box::new(readings));
    out
}
