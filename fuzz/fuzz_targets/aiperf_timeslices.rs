#![no_main]
//! Fuzzes AIPerf's timeslices importer (`profile_export_aiperf_timeslices.json`).

use benchdeck_core::import::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| benchdeck_fuzz::check(Format::AiperfTimeslices, data));
