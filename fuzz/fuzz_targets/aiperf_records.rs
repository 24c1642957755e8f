#![no_main]
//! Fuzzes the AIPerf per-request records importer (`profile_export.jsonl`).

use benchdeck_core::import::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| benchdeck_fuzz::check(Format::AiperfRecords, data));
