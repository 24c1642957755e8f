#![no_main]
//! Fuzzes mapping files (`benchdeck-mapping.yaml`) with the files they claim, and the draft
//! `inspect --suggest-mapping` writes of each file. The input is files, each starting with a
//! line `=== <path>`, as the `siblings` target's.

use benchdeck_core::import::{import_all, is_mapping_file, suggest_mapping};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let files = benchdeck_fuzz::files(text, 8);
    let imports = import_all(&files);
    assert_eq!(imports.len(), files.len(), "one import per file");
    let names: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    for imported in &imports {
        for problem in imported.all_problems() {
            assert!(names.contains(&problem.file.as_str()), "{problem}");
        }
    }
    for file in files.iter().filter(|f| !is_mapping_file(&f.path)) {
        let _ = suggest_mapping(&file.path, &String::from_utf8_lossy(&file.bytes));
    }
});
