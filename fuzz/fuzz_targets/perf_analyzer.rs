#![no_main]
//! Fuzzes the perf_analyzer `profile_export.json` importer.

use benchdeck_core::import::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| benchdeck_fuzz::check(Format::PerfAnalyzer, data));
