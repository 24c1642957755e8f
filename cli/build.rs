//! Embeds the prebuilt web app when `bundle/` holds it (`cargo xtask dist` writes it; the
//! packaged crate carries it), so an installed `benchdeck build` needs neither trunk, nor the
//! wasm32 target, nor wasm-bindgen. Without it the list is empty and `build` says how to get one.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let bundle = root.join("bundle");
    println!("cargo:rerun-if-changed=bundle");
    let mut files = Vec::new();
    if bundle.join("index.html").is_file() {
        collect(&bundle, &mut files);
    }
    files.sort();
    let mut code = String::from("/// The web app's files: path in the site, contents.\n");
    code.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for path in &files {
        let relative = path
            .strip_prefix(&bundle)
            .expect("below bundle/")
            .to_string_lossy()
            .replace('\\', "/");
        writeln!(code, "    ({relative:?}, include_bytes!({path:?})),").expect("a String");
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("bundle.rs");
    std::fs::write(out, code).expect("OUT_DIR is writable");
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).expect("bundle/ is readable");
    for entry in entries {
        let path = entry.expect("bundle/ is readable").path();
        if path.is_dir() {
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}
