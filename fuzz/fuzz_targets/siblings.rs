#![no_main]
//! Fuzzes several files at once: sibling joins (llmperf summary + responses, Locust stats +
//! history, GenAI-Perf JSON + CSV) and dates read from paths. The input is files, each starting
//! with a line `=== <path>`; seeded with the fixture folders whose files belong together.

use benchdeck_core::import::import_all;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let files = benchdeck_fuzz::files(text, 16);
    let imports = import_all(&files);
    assert_eq!(imports.len(), files.len(), "one import per file");
    let names: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    for (file, imported) in files.iter().zip(&imports) {
        assert_eq!(imported.file, file.path);
        for joined in imported.joined.iter().chain(&imported.joined_into) {
            assert!(
                names.contains(&joined.as_str()),
                "joined to a file not given: {joined}"
            );
            assert_ne!(joined, &file.path, "a file joined to itself");
        }
        for problem in imported.all_problems() {
            assert!(names.contains(&problem.file.as_str()), "{problem}");
        }
    }
    serde_json::to_string(&imports).expect("imports serialise");
});
