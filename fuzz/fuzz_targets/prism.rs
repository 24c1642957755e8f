#![no_main]
//! Fuzzes the llm-d Prism archive importer.

use benchdeck_core::import::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| benchdeck_fuzz::check(Format::Prism, data));
