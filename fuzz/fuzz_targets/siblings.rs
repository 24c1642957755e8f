#![no_main]
//! Fuzzes several files at once: sibling joins (llmperf summary + responses, Locust stats +
//! history, GenAI-Perf JSON + CSV) and dates read from paths. The input is files, each starting
//! with a line `=== <path>`; seeded with the fixture folders whose files belong together.

use benchdeck_core::import::import_all;
use benchdeck_core::input::InputFile;
use libfuzzer_sys::fuzz_target;

/// The files of `text`: each `=== path` line starts one.
fn files(text: &str) -> Vec<InputFile> {
    let mut out: Vec<InputFile> = Vec::new();
    for part in text.split("=== ").filter(|p| !p.is_empty()) {
        let (path, body) = part.split_once('\n').unwrap_or((part, ""));
        out.push(InputFile {
            path: path.trim().to_string(),
            bytes: body.as_bytes().to_vec(),
        });
    }
    out.truncate(16);
    out
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let files = files(text);
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
