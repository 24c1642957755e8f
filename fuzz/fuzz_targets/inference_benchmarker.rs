#![no_main]
//! Fuzzes the inference benchmarker importer with inputs kept in its format's shape by the seed corpus.

use benchdeck_core::import::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| benchdeck_fuzz::check(Format::InferenceBenchmarker, data));
