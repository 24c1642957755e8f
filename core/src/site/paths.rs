//! Where each file of the built site lives, relative to its root: the data the app fetches, the
//! chart files and embeds, the published result files, and the folders no report may take.

/// Path of the index, relative to the site root.
pub const INDEX_PATH: &str = "data/index.bin";

/// Path of a report's page data, relative to the site root.
pub fn report_data_path(slug: &str) -> String {
    format!("data/reports/{slug}.bin")
}

/// Path of a chart's SVG file (written by the build), relative to the site root.
pub fn chart_svg_path(slug: &str, chart_id: &str) -> String {
    format!("charts/{slug}/{chart_id}.svg")
}

/// Path of a chart's PNG file (written by the build, the same drawing as the SVG), relative to
/// the site root; the first chart's PNG is a report's link-preview image.
pub fn chart_png_path(slug: &str, chart_id: &str) -> String {
    format!("charts/{slug}/{chart_id}.png")
}

/// Path of a chart's SVG in the dark theme (written by the build), relative to the site root:
/// what a page shows a reader in dark mode before the app draws the chart, or without it.
pub fn chart_dark_svg_path(slug: &str, chart_id: &str) -> String {
    format!("charts/{slug}/{chart_id}.dark.svg")
}

/// Path of the drawing of a report's first chart that its card on the home page shows, and of
/// the same in the dark theme (written by the build, relative to the site root): drawn at a
/// phone's width, so its text still reads at a card's size (the export's would be 3 px there).
pub fn chart_card_svg_paths(slug: &str, chart_id: &str) -> [String; 2] {
    [
        format!("charts/{slug}/{chart_id}.card.svg"),
        format!("charts/{slug}/{chart_id}.card.dark.svg"),
    ]
}

/// Path of a chart's plotted values as CSV (written by the build), relative to the site root.
pub fn chart_csv_path(slug: &str, chart_id: &str) -> String {
    format!("charts/{slug}/{chart_id}.csv")
}

/// Folder of a chart's (or grid's) embed page, relative to the site root: a page without the
/// site's header, made for an `<iframe>`, with `?theme=light|dark` to fix its colours.
pub fn embed_page_path(slug: &str, chart_id: &str) -> String {
    format!("embed/{slug}/{chart_id}/")
}

/// The runs a report draws on, normalised (the canonical model), as JSON.
pub fn runs_json_path(slug: &str) -> String {
    format!("data/runs/{slug}.json")
}

/// The runs a report draws on, normalised, one row per run, as CSV.
pub fn runs_csv_path(slug: &str) -> String {
    format!("data/runs/{slug}.csv")
}

/// A raw result file as published with the site; `source` is its path relative to `results/`
/// (one of [`ReportPage::sources`](super::ReportPage)).
pub fn result_file_path(source: &str) -> String {
    format!("results/{source}")
}

/// The page that shows result files a reader dropped on the site (read in the browser only).
pub const LOCAL_PAGE_PATH: &str = "local/";

/// The name of the `<meta>` tag that marks `404.html`, the page a static host serves for an
/// unknown address: the app shows "page not found" there without fetching anything.
pub const NOT_FOUND_META: &str = "benchdeck-not-found";

/// The function every page's loader defines on `window` (`cli/src/cmd/pages/template.rs`) for
/// the islands' app to download the whole app with when a reader drops files
/// (`app/src/islands/full.rs`).
pub const OPEN_DROPPED_FUNCTION: &str = "benchdeckOpenDropped";

/// The hidden page of the drawing benchmark that `cargo xtask bench` runs.
pub const BENCH_PAGE_PATH: &str = "_bench/scatter/";

/// Top-level folders of the built site that no report may take: the data the app reads, the
/// chart images, chart embeds, the published result files, the page of dropped files, and the
/// hidden drawing benchmark page.
pub const RESERVED_SLUGS: [&str; 6] = ["data", "charts", "embed", "results", "local", "_bench"];

/// The slug of that page's report (it has no published files).
pub const LOCAL_SLUG: &str = "local";
