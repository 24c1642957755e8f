#![no_main]
//! Fuzzes the console-output importer (`vllm bench serve` / SGLang result blocks in any text).

use benchdeck_core::import::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| benchdeck_fuzz::check(Format::Console, data));
