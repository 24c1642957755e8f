#![no_main]
//! Fuzzes the one YAML reader (`core::yaml`) in both schemas: any text gives a value or a located
//! error within its budgets, and a value always serialises.

use benchdeck_core::yaml::{parse, Document, Schema};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for schema in [Schema::Core, Schema::PyYaml] {
        match parse(text, schema) {
            Ok(value) => {
                serde_json::to_string(&value).expect("a value serialises");
            }
            Err(e) => assert!(!e.message.is_empty()),
        }
    }
    if let Ok(document) = Document::parse(text, 7) {
        let _ = document.deserialize::<serde_json::Value>();
    }
});
