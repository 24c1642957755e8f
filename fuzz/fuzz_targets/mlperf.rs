#![no_main]
//! Fuzzes the MLPerf LoadGen summary importer (`mlperf_log_summary.txt`).

use benchdeck_core::import::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| benchdeck_fuzz::check(Format::Mlperf, data));
