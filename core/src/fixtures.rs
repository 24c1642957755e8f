//! The test fixtures in `tests/fixtures/`: the one place that finds, reads and imports them.
//! A fixture that is missing fails the test with its path.

use std::path::PathBuf;

use crate::import::{import, ImportedFile};

/// The fixture at `relative` (to `tests/fixtures/`).
pub fn path(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(relative)
}

/// The bytes of the fixture at `relative`.
pub fn bytes(relative: &str) -> Vec<u8> {
    let path = path(relative);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text of the fixture at `relative`.
pub fn text(relative: &str) -> String {
    String::from_utf8(bytes(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The fixture at `relative`, imported under that name.
pub fn import_file(relative: &str) -> ImportedFile {
    import(relative, &bytes(relative))
}

/// The fixture at `relative`, imported under `name` (what its problems and runs then say).
pub fn import_named(relative: &str, name: &str) -> ImportedFile {
    import(name, &bytes(relative))
}

/// Every problem of `f` (its own, then its runs'), one a line: what a test expects to be empty,
/// or to hold one message.
pub fn messages(f: &ImportedFile) -> String {
    f.all_problems()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every value in `value` as a JSON pointer (`/a/0/b`), children before their parents, the
/// document itself (`""`) last: the places the robustness tests break one at a time.
pub fn json_pointers(value: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    pointers(value, String::new(), &mut out);
    out
}

fn pointers(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, child) in m {
                pointers(
                    child,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        serde_json::Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                pointers(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}
