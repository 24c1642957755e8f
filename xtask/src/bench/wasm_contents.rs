//! "What the app's wasm holds": the app built as it is published (release profile, wasm-bindgen,
//! wasm-opt with `app/index.html`'s flags) but with its function names kept, so that twiggy can
//! say whose code each byte is. Functions are grouped by the module they belong to (inlined code
//! counts for the function it was inlined into), the top ten of them and the crates written into
//! `docs/PERFORMANCE.md`: where the next cut of the wasm budget has to come from.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::run::{self, step};
use crate::tools::{self, Toolbox};

/// The section's heading in `docs/PERFORMANCE.md`.
pub const HEADING: &str = "## What the app's wasm holds";

/// Crates whose modules are told apart; the others count as one.
const BY_MODULE: [&str; 8] = [
    "benchdeck_core",
    "benchdeck_app",
    "tachys",
    "reactive_graph",
    "leptos",
    "core",
    "alloc",
    "std",
];

/// Measures and writes the section.
pub fn section(root: &Path, toolbox: &Toolbox) -> Result<String> {
    let mut toolbox = toolbox.clone();
    tools::ensure_twiggy(&mut toolbox)?;
    let work = root.join("target").join("bench").join("wasm-contents");
    let wasm = named_build(root, &toolbox, &work)?;
    let csv = run::output(
        toolbox
            .command("twiggy")
            .args(["top", "-n", "1000000", "--format", "csv"])
            .arg(&wasm),
    )?;
    let sizes = sizes(&csv)?;
    Ok(write_section(&sizes))
}

/// The app's wasm as published, with the names section kept: cargo's release build without
/// stripping (in a target folder of its own, so the published build's cache stays), then
/// wasm-bindgen and wasm-opt keeping the names.
fn named_build(root: &Path, toolbox: &Toolbox, work: &Path) -> Result<std::path::PathBuf> {
    step("the app's wasm with its function names (a release build of its own)");
    let target = root.join("target").join("wasm-names");
    run::status(
        Command::new("cargo")
            .current_dir(root)
            .args(["build", "--release", "--target", tools::WASM_TARGET])
            .args(["--package", "benchdeck-app", "--bin", "benchdeck-app"])
            .env("CARGO_TARGET_DIR", &target)
            .env("CARGO_PROFILE_RELEASE_STRIP", "none"),
    )?;
    let built = target
        .join(tools::WASM_TARGET)
        .join("release")
        .join("benchdeck-app.wasm");
    std::fs::create_dir_all(work)?;
    run::status(
        toolbox
            .command("wasm-bindgen")
            .args(["--target", "web", "--keep-debug", "--out-dir"])
            .arg(work)
            .arg(&built),
    )?;
    let optimised = work.join("app.wasm");
    run::status(
        toolbox
            .command("wasm-opt")
            .args(["-Oz", "--debuginfo"])
            .args(wasm_opt_params(root)?)
            .arg(work.join("benchdeck-app_bg.wasm"))
            .arg("-o")
            .arg(&optimised),
    )?;
    Ok(optimised)
}

/// The flags `app/index.html` gives trunk's wasm-opt (`data-wasm-opt-params`).
fn wasm_opt_params(root: &Path) -> Result<Vec<String>> {
    let page = std::fs::read_to_string(root.join("app").join("index.html"))?;
    let key = "data-wasm-opt-params=\"";
    let Some(start) = page.find(key).map(|i| i + key.len()) else {
        bail!("app/index.html gives wasm-opt no `data-wasm-opt-params`");
    };
    let end = page[start..].find('"').map_or(page.len(), |i| start + i);
    Ok(page[start..end]
        .split_whitespace()
        .map(str::to_string)
        .collect())
}

/// Bytes by owner (a module of [`BY_MODULE`]'s crates, another crate, or a part of the wasm
/// file), from twiggy's CSV; the names section and other custom sections are not shipped code
/// and left out.
fn sizes(csv: &str) -> Result<BTreeMap<String, u64>> {
    let mut reader = csv::ReaderBuilder::new().from_reader(csv.as_bytes());
    let mut sizes = BTreeMap::new();
    for row in reader.records() {
        let row = row.context("twiggy's CSV")?;
        let (Some(name), Some(size)) = (row.get(0), row.get(1)) else {
            continue;
        };
        let Ok(size) = size.parse::<u64>() else {
            continue;
        };
        if let Some(owner) = owner(name) {
            *sizes.entry(owner).or_default() += size;
        }
    }
    Ok(sizes)
}

/// Whose `name` (a twiggy item) is: `tachys::html`, `serde_core`, `data segments`; `None` for
/// what the shipped file does not hold (names, custom sections) and twiggy's summary rows.
fn owner(name: &str) -> Option<String> {
    if name.starts_with("custom section") || name.contains("function names") {
        return None;
    }
    if name.starts_with('Σ') || name.starts_with("...") {
        return None;
    }
    if name.starts_with("data segment") {
        return Some("data (strings, tables)".to_string());
    }
    for part in [
        "import", "export", "type[", "elem", "table", "global", "code[",
    ] {
        if name.starts_with(part) {
            return Some("wasm imports, exports, types".to_string());
        }
    }
    let path = name.trim_start_matches(['<', '&', '*', ' ']);
    let path = path
        .strip_prefix("impl ")
        .or_else(|| path.strip_prefix("dyn "))
        .unwrap_or(path);
    let mut segments = path.split("::").map(|s| {
        // `core[c5930c85a12de822]` is `core`; `Foo<T>` is `Foo`.
        s.split(['[', '<', ' ', '(']).next().unwrap_or(s)
    });
    let krate = segments.next().filter(|k| !k.is_empty())?;
    let is_ident = krate.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !is_ident {
        return Some("other".to_string());
    }
    if krate.chars().next().is_some_and(char::is_uppercase) {
        // A generic parameter's closure (`F as FnOnce`): code of whichever crate called it.
        return Some("generic closures".to_string());
    }
    match segments.next() {
        Some(module) if BY_MODULE.contains(&krate) && !module.is_empty() => {
            Some(format!("{krate}::{module}"))
        }
        _ => Some(krate.to_string()),
    }
}

fn write_section(sizes: &BTreeMap<String, u64>) -> String {
    let total: u64 = sizes.values().sum();
    let mut owners: Vec<(&String, &u64)> = sizes.iter().collect();
    owners.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let mut crates: BTreeMap<&str, u64> = BTreeMap::new();
    for (owner, size) in sizes {
        let krate = owner.split("::").next().unwrap_or(owner);
        *crates.entry(krate).or_default() += size;
    }
    let mut crates: Vec<(&str, u64)> = crates.into_iter().collect();
    crates.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let share = |size: u64| 100.0 * size as f64 / total.max(1) as f64;
    let mut doc = format!("{HEADING}\n\n");
    let _ = writeln!(
        doc,
        "The app's wasm built as published but with its function names kept (a release build \
         of its own, wasm-bindgen `--keep-debug`, wasm-opt `-Oz --debuginfo` with \
         `app/index.html`'s flags), read by twiggy {}: {total} bytes of code and data, the names \
         left out. Each function counts for its module, with whatever was inlined into it.\n",
        tools::TWIGGY
    );
    let _ = writeln!(doc, "| the ten largest | bytes | share |\n|---|---:|---:|");
    for (owner, size) in owners.iter().take(10) {
        let _ = writeln!(doc, "| `{owner}` | {size} | {:.1}% |", share(**size));
    }
    let _ = writeln!(doc, "\n| by crate | bytes | share |\n|---|---:|---:|");
    for (krate, size) in crates.iter().take(10) {
        let _ = writeln!(doc, "| `{krate}` | {size} | {:.1}% |", share(*size));
    }
    let leptos: u64 = crates
        .iter()
        .filter(|(k, _)| ["tachys", "reactive_graph", "leptos"].contains(k))
        .map(|(_, size)| size)
        .sum();
    let _ = writeln!(
        doc,
        "\nLeptos's rendering and reactivity (`tachys`, `reactive_graph`, `leptos`) are {:.1}% \
         of it (the published pages' app renders only their islands, and hydrates nothing); \
         benchdeck's own code (`benchdeck_app`, `benchdeck_core`) is {:.1}%.",
        share(leptos),
        share(
            crates
                .iter()
                .filter(|(k, _)| k.starts_with("benchdeck"))
                .map(|(_, size)| size)
                .sum()
        )
    );
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_count_for_their_module_or_crate() {
        let owner = |name| owner(name).unwrap_or_default();
        assert_eq!(
            owner("benchdeck_core::chart::draw_kind::hb3c53"),
            "benchdeck_core::chart"
        );
        assert_eq!(
            owner("<tachys::html::element::HtmlElement<E,At,Ch> as tachys::view::RenderHtml>::hydrate::h"),
            "tachys::html"
        );
        assert_eq!(
            owner("core[c5930c85a12de822]::fmt::float::float_to_decimal_common_exact::<f64>"),
            "core::fmt"
        );
        assert_eq!(owner("serde_core::de::Visitor::visit_u64"), "serde_core");
        assert_eq!(
            owner("<dlmalloc[e24a2]::dlmalloc::Dlmalloc<A>>::malloc"),
            "dlmalloc"
        );
        assert_eq!(owner("F as FnOnce"), "generic closures");
        assert_eq!(owner("data segment \".rodata\""), "data (strings, tables)");
        assert_eq!(owner("\"function names\" subsection"), "");
        assert_eq!(owner("custom section '.debug_str'"), "");
    }

    #[test]
    fn sizes_add_up_by_owner() {
        let csv = "Name,ShallowSize,ShallowSizePercent,RetainedSize,RetainedSizePercent\n\
                   \"\"\"function names\"\" subsection\",1890218,45.2,,\n\
                   benchdeck_core::chart::a::h1,100,0.1,,\n\
                   benchdeck_core::chart::b::h2,50,0.1,,\n\
                   tachys::view::x,7,0.1,,\n";
        let sizes = sizes(csv).unwrap();
        assert_eq!(sizes["benchdeck_core::chart"], 150);
        assert_eq!(sizes["tachys::view"], 7);
        assert_eq!(sizes.len(), 2);
        let section = write_section(&sizes);
        assert!(
            section.contains("| `benchdeck_core::chart` | 150 | 95.5% |"),
            "{section}"
        );
    }
}
