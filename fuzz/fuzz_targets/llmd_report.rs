#![no_main]
//! Fuzzes the llm-d benchmark report importer (0.2 YAML or JSON).

use benchdeck_core::import::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| benchdeck_fuzz::check(Format::LlmdReport, data));
