#![no_main]
//! Fuzzes the InferenceX aggregate importer (one run per object, or an array of them).

use benchdeck_core::import::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| benchdeck_fuzz::check(Format::InferenceX, data));
