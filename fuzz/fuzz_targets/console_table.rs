#![no_main]
//! Fuzzes the AIPerf and GenAI-Perf console-table importer (rich boxes in any text).

use benchdeck_core::import::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| benchdeck_fuzz::check(Format::ConsoleTable, data));
