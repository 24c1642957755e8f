//! The checks of the targets that fuzz what a report author or a reader controls, and the result
//! files their reports draw on: the repository's own `results/`, imported once.

use std::path::Path;
use std::sync::OnceLock;

use benchdeck_core::import::{import_all, ImportedFile};
use benchdeck_core::input::InputFile;
use benchdeck_core::report::{build_report, Palette};
use benchdeck_core::site::{wire, Block, ReportPage};

/// The name every fuzzed report is built under.
pub const REPORT: &str = "reports/fuzz.md";

/// The front matter the targets that fuzz a report's body put above it: the seed reports' result
/// folders (six nights of the nightly runs, for trends), and prices and labels for two
/// configurations, so cost charts and tables have data. Fewer files than `results/` holds keep
/// each input quick.
pub const FRONT_MATTER: &str = "---\ntitle: Fuzz\nresults: [\"production-stack/*\", \
     \"vllm-vs-sglang/*\", \"model-distributions/*\", \"latency-analysis/*\", \
     \"week-2-baseline/**\", \"nightly/2026-11-0[1-6]/*\"]\nconfigs:\n  - key: \
     qwen-rayserve-sharegpt\n    label: Qwen\n    price: {gpu_hour: 1.418, gpus: 1}\n  - key: \
     deepseek-disagg-sharegpt\n    price: {gpu_hour: 1.418, gpus: 4}\n---\n\n";

/// Every file of the repository's `results/`, imported.
pub fn results() -> &'static [ImportedFile] {
    static RESULTS: OnceLock<Vec<ImportedFile>> = OnceLock::new();
    RESULTS.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results");
        let mut files = Vec::new();
        read_below(&root, &root, &mut files);
        files.sort_by(|a, b| a.path.cmp(&b.path));
        import_all(&files)
    })
}

fn read_below(root: &Path, dir: &Path, out: &mut Vec<InputFile>) {
    for entry in std::fs::read_dir(dir).expect("results/ is readable") {
        let path = entry.expect("results/ is readable").path();
        if path.is_dir() {
            read_below(root, &path, out);
        } else {
            let rel = path.strip_prefix(root).expect("below results/");
            out.push(InputFile {
                path: rel.to_string_lossy().replace('\\', "/"),
                bytes: std::fs::read(&path).expect("a result file is readable"),
            });
        }
    }
}

/// Builds `text` as a report over [`results`] and checks the page.
pub fn check_report(text: &str) -> ReportPage {
    let page = build_report(REPORT, "fuzz", text, results(), &Palette::new());
    check_page(&page);
    page
}

/// The page's promises: every problem names the report, no HTML it carries holds a script or
/// a frame, it survives the wire byte for byte, and every diagram lays out and walks.
pub fn check_page(page: &ReportPage) {
    for problem in &page.problems {
        assert_eq!(
            problem.file, REPORT,
            "a problem names another file: {problem}"
        );
        assert!(!problem.message.is_empty(), "a problem without a message");
    }
    for block in &page.blocks {
        match block {
            Block::Html { html } => check_html(html),
            Block::Flowchart { flowchart } => {
                let diagram = &flowchart.diagram;
                assert!(diagram.width.is_finite() && diagram.height.is_finite());
            }
            Block::Chart { .. } | Block::Grid { .. } => {}
        }
    }
    if let Some(decision) = &page.decision {
        assert_eq!(decision.tree.is_some(), decision.diagram.is_some());
    }
    if let Some(diagram) = page.decision.as_ref().and_then(|d| d.diagram.as_ref()) {
        assert!(diagram.width.is_finite() && diagram.height.is_finite());
    }
    if let Some(tree) = page.decision.as_ref().and_then(|d| d.tree.as_ref()) {
        for answers in [&[][..], &[0], &[1, 0], &[0, 1, 2], &[usize::MAX]] {
            let _ = tree.walk(answers);
        }
    }
    if let Some(decision) = &page.decision {
        for reason in decision.reasons.values() {
            check_html(&reason.html);
        }
    }
    round_trip(page);
}

/// Sanitised HTML never holds an element that runs or embeds code.
pub fn check_html(html: &str) {
    let lower = html.to_ascii_lowercase();
    for tag in ["<script", "<iframe", "<object", "<embed", "javascript:"] {
        assert!(!lower.contains(tag), "`{tag}` in a page's HTML: {html}");
    }
}

/// `value` encoded, decoded and encoded again gives the same bytes.
pub fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned>(value: &T) {
    let bytes = wire::encode(value).expect("a page encodes");
    let back: T = wire::decode(&bytes).expect("an encoded page decodes");
    assert_eq!(wire::encode(&back).expect("encodes again"), bytes);
}
