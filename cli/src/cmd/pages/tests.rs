//! Tests of the entry pages: head tags, link previews, embed pages, the local page and the
//! Content-Security-Policy, on a small built site in a scratch folder.

use super::head::Image;
use super::*;
use benchdeck_core::chart::{self, ChartSpec};
use benchdeck_core::html::escape;
use benchdeck_core::site::{Block, ChartGrid, ReportSummary};

const HOSTILE: &str = "</script><script>alert(1)</script> \"q\" & 'x'";

/// What trunk writes, reduced: the marker, preloads and the inline module loader.
const TEMPLATE: &str = r#"<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <base href="/repo/">
    <!-- benchdeck:head -->
    <link rel="modulepreload" href="/repo/app-1.js" crossorigin="anonymous" integrity="sha384-x">
  </head>
  <body>
    <div id="app"></div>
<script type="module">
import init, * as bindings from '/repo/app-1.js';
const wasm = await init({ module_or_path: '/repo/app-1_bg.wasm' });
</script></body>
</html>"#;

fn summary(slug: &str, title: &str) -> ReportSummary {
    ReportSummary {
        slug: slug.into(),
        title: title.into(),
        date: None,
        authors: vec![],
        summary: format!("About {title}"),
        charts: 0,
        runs: 0,
        first_chart: None,
        automatic: None,
        changes: Vec::new(),
    }
}

/// A line chart of one series, `id`, titled `title`.
fn chart(id: &str, title: &str) -> ChartSpec {
    let point = |x: f64, y: f64| chart::Point {
        x,
        y: Some(y),
        ..chart::Point::default()
    };
    ChartSpec {
        id: id.into(),
        title: title.into(),
        kind: chart::ChartKind::Lines,
        series: vec![chart::Series {
            name: "vLLM".into(),
            color: 0,
            points: vec![point(1.0, 40.0), point(2.0, 55.0)],
        }],
        ..ChartSpec::default()
    }
}

/// A built site: report `grid-first` opens with a grid (panels `p1`, `p2`, grid `g`) then chart
/// `c1`; report `plain` has no chart and is an automatic page (folder `runs <b>`).
fn built_site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |rel: &str, bytes: &[u8]| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    };
    write("index.html", TEMPLATE.as_bytes());
    let plain = ReportSummary {
        automatic: Some("runs <b>".into()),
        changes: Vec::new(),
        ..summary("plain", "Plain")
    };
    let reports = vec![summary("grid-first", HOSTILE), plain];
    let index = SiteIndex {
        reports: reports.clone(),
    };
    write(INDEX_PATH, &crate::data_file::pack(&index).unwrap());
    let [p1, p2, c1] = grid_first_charts();
    let grid_first = ReportPage {
        summary: reports[0].clone(),
        decision: None,
        toc: vec![],
        blocks: vec![
            Block::Html {
                html: "<p>Intro</p>".into(),
            },
            Block::Grid {
                grid: ChartGrid {
                    id: "g".into(),
                    title: "The grid".into(),
                    caption: String::new(),
                    columns: 2,
                    panels: vec![p1, p2],
                    spans: vec![],
                },
            },
            Block::Chart { chart: c1 },
        ],
        prices: None,
        filters: None,
        sources: vec![],
        problems: vec![],
    };
    write(
        &report_data_path("grid-first"),
        &crate::data_file::pack(&grid_first).unwrap(),
    );
    let plain = ReportPage {
        summary: reports[1].clone(),
        blocks: vec![],
        prices: None,
        filters: None,
        ..grid_first
    };
    write(
        &report_data_path("plain"),
        &crate::data_file::pack(&plain).unwrap(),
    );
    dir
}

/// The charts of report `grid-first` in [`built_site`], grid panels first.
fn grid_first_charts() -> [ChartSpec; 3] {
    [
        chart("p1", HOSTILE),
        chart("p2", "Panel 2"),
        chart("c1", "Chart 1"),
    ]
}

/// Every page of the site in `dir`, served under `public_url`, at `site_url` when given.
fn try_pages(
    dir: &Path,
    site_url: Option<&str>,
    public_url: &str,
    bench_page: bool,
) -> Result<Vec<(String, String)>> {
    let options = Options::new(site_url, public_url, bench_page)?;
    site_pages(dir, &PageWriter::new(TEMPLATE, dir, options)?)
}

fn pages_of(dir: &Path, base: &str) -> std::collections::BTreeMap<String, String> {
    let site_url = base.contains("://").then_some(base);
    try_pages(dir, site_url, "/repo/", false)
        .unwrap()
        .into_iter()
        .collect()
}

#[test]
fn head_tags_escape_untrusted_titles() {
    let mut head = Head::new("<script>alert(1)</script>", "a \"quoted\" & 'x'");
    head.url = Some("/r/\"x/".into());
    head.image = Some(Image {
        url: "/r/charts/x/a.png".into(),
        width: 1920,
        height: 1080,
        alt: "<b>\"alt\"</b>".into(),
    });
    let html = head.html();
    assert!(!html.contains("<script>"));
    assert!(!html.contains("<b>"));
    assert!(html.contains("<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>"));
    assert!(html.contains("content=\"a &quot;quoted&quot; &amp; &#39;x&#39;\""));
    assert!(html.contains("<meta property=\"og:url\" content=\"/r/&quot;x/\">"));
    assert!(html.contains(
        "<meta property=\"og:image:alt\" content=\"&lt;b&gt;&quot;alt&quot;&lt;/b&gt;\">"
    ));
    assert!(html.contains(
        "<meta name=\"twitter:image:alt\" content=\"&lt;b&gt;&quot;alt&quot;&lt;/b&gt;\">"
    ));
}

#[test]
fn every_page_is_written_where_the_layout_says() {
    let dir = built_site();
    let pages = pages_of(dir.path(), "/repo/");
    let paths: Vec<&str> = pages.keys().map(String::as_str).collect();
    assert_eq!(
        paths,
        [
            "404.html",
            "embed/grid-first/c1/index.html",
            "embed/grid-first/g/index.html",
            "embed/grid-first/p1/index.html",
            "embed/grid-first/p2/index.html",
            "grid-first/index.html",
            "index.html",
            "local/index.html",
            "plain/index.html",
        ]
    );
    assert!(pages["404.html"].contains("<meta name=\"benchdeck-not-found\" content=\"\">"));
    assert!(pages["404.html"].contains("<meta name=\"robots\" content=\"noindex\">"));
    assert!(pages
        .iter()
        .all(|(path, page)| path == "404.html" || !page.contains("benchdeck-not-found")));
    assert!(pages["local/index.html"].contains("<title>Your result files</title>"));
    // No page carries the site index (the home page fetches it): a page grows with its own
    // report, not with the site.
    assert!(pages.values().all(|p| !p.contains("application/json")));
}

#[test]
fn the_link_preview_is_the_first_charts_png_grid_panels_included() {
    let dir = built_site();
    let pages = pages_of(dir.path(), "/repo/");
    let report = &pages["grid-first/index.html"];
    // The PNG's size: the chart's export size scaled to 1,200 px, as `benchdeck site` draws it.
    let (width, height) = chart::export_size(&grid_first_charts()[0]);
    let height = (f64::from(height) * 1200.0 / f64::from(width)).round();
    let width = "<meta property=\"og:image:width\" content=\"1200\">";
    let height = format!("<meta property=\"og:image:height\" content=\"{height}\">");
    assert!(
        report.contains(width) && report.contains(&height),
        "{report}"
    );
    for tag in [
        "<meta property=\"og:url\" content=\"/repo/grid-first/\">",
        "<meta property=\"og:image\" content=\"/repo/charts/grid-first/p1.png\">",
        "<meta name=\"twitter:card\" content=\"summary_large_image\">",
        "<meta name=\"twitter:image\" content=\"/repo/charts/grid-first/p1.png\">",
        "<meta property=\"og:image:alt\" content=\"&lt;/script&gt;&lt;script&gt;alert(1)",
    ] {
        assert!(report.contains(tag), "{tag} in {report}");
    }
    // The loader fetches the report's data with the app, named by the page.
    assert!(
        report.contains("<meta name=\"benchdeck-data\" content=\"data/reports/grid-first.bin\">")
    );
    // The home page has nothing for the islands' app to fetch: no data named.
    assert!(!pages["index.html"].contains("<meta name=\"benchdeck-data\""));
    // The tab shows the title the app's report page gives it; link previews the report's own.
    let title = escape(HOSTILE);
    assert!(report.contains(&format!("<title>{title} · benchdeck</title>")));
    assert!(report.contains(&format!("<meta property=\"og:title\" content=\"{title}\">")));
    // Nothing is downloaded for the app while the page is read: no preload of any kind.
    assert!(pages.values().all(|p| !p.contains("rel=\"preload\"")));
    assert!(!pages["404.html"].contains(".bin"));
    // The report's hostile title is escaped in every tag; the loader is the only script.
    assert_eq!(report.matches("<script").count(), 1, "{report}");
    // With the site's address, the URLs are absolute.
    let absolute = pages_of(dir.path(), "https://user.github.io/repo/");
    assert!(absolute["grid-first/index.html"].contains(
        "<meta name=\"twitter:image\" content=\"https://user.github.io/repo/charts/grid-first/p1.png\">"
    ));
    // A report without charts has a plain card and no image.
    let plain = &pages["plain/index.html"];
    assert!(plain.contains("<meta name=\"twitter:card\" content=\"summary\">"));
    assert!(!plain.contains("og:image"));
}

#[test]
fn charts_and_grids_get_embed_pages_that_are_not_indexed() {
    let dir = built_site();
    let pages = pages_of(dir.path(), "/repo/");
    for (id, title) in [
        (
            "p1",
            "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &quot;q&quot; &amp; &#39;x&#39;",
        ),
        ("p2", "Panel 2"),
        ("g", "The grid"),
        ("c1", "Chart 1"),
    ] {
        let page = &pages[&format!("embed/grid-first/{id}/index.html")];
        assert!(page.contains(&format!("<title>{title} · ")), "{id}: {page}");
        assert!(page.contains("<meta name=\"robots\" content=\"noindex\">"));
        assert!(!page.contains("og:"), "{page}");
        assert_eq!(page.matches("<script").count(), 1, "{page}");
    }
    assert!(!pages["grid-first/index.html"].contains("noindex"));
}

#[test]
fn every_page_starts_its_head_with_the_policy() {
    let dir = built_site();
    let template = template::with_app_loader(TEMPLATE).unwrap();
    let loader = csp::inline_scripts(&template).unwrap()[0].text;
    let hash = csp::hash_source(loader);
    for (path, page) in pages_of(dir.path(), "/") {
        let head = page.find("<head>").unwrap() + "<head>".len();
        assert!(
            page[head..].starts_with(
                "\n    <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'; \
                 script-src 'self' 'wasm-unsafe-eval' 'sha256-"
            ),
            "{path}"
        );
        // Without scripts, the app's controls give their place back (a style, not a script).
        assert!(
            page.contains(
                "<noscript><style>.js-only { display: none !important; }</style></noscript>"
            ),
            "{path}"
        );
        // One hash, the loader's: the JSON data block is not a script that runs.
        assert_eq!(page.matches("'sha256-").count(), 1, "{path}");
        assert!(
            page.contains(&format!("'wasm-unsafe-eval' {hash};")),
            "{path}"
        );
    }
}

#[test]
fn preview_urls_are_absolute_with_a_site_url_and_root_relative_without() {
    assert_eq!(
        preview_base(Some("https://user.github.io/repo"), "/repo/").unwrap(),
        "https://user.github.io/repo/"
    );
    assert_eq!(preview_base(None, "/repo/").unwrap(), "/repo/");
    assert_eq!(preview_base(None, "/").unwrap(), "/");
    assert_eq!(preview_base(Some(""), "/repo").unwrap(), "/repo/");
    assert_eq!(preview_base(None, "./").unwrap(), "/");
    assert_eq!(
        preview_base(None, "https://cdn.example/site").unwrap(),
        "https://cdn.example/site/"
    );
    for bad in [
        "user.github.io/repo",
        "https://",
        "ftp://x/",
        "https://a b/",
    ] {
        assert!(preview_base(Some(bad), "/").is_err(), "{bad}");
    }
}

#[test]
fn a_missing_report_is_an_error_naming_the_file() {
    let dir = built_site();
    std::fs::remove_file(dir.path().join(report_data_path("plain"))).unwrap();
    let err = try_pages(dir.path(), None, "/", false).unwrap_err();
    assert!(
        format!("{err:#}").contains("data/reports/plain.bin"),
        "{err:#}"
    );
}

/// The part of a page the app renders (inside `<div id="app">`).
fn app_root(page: &str) -> &str {
    let start = page
        .find("<div id=\"app\">")
        .expect("the page has the app's root");
    let end = page
        .rfind("</div>\n<script")
        .expect("the root ends before the loader");
    &page[start..end + "</div>".len()]
}

#[test]
fn every_page_is_rendered_by_the_app_into_its_root() {
    let dir = built_site();
    let pages = pages_of(dir.path(), "/repo/");
    let report = app_root(&pages["grid-first/index.html"]);
    // The hostile title is text, never markup, in the rendered body too.
    assert!(!report.contains("<script>alert(1)"), "{report}");
    assert!(report.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(report.contains("<p>Intro</p>"));
    // Each chart is its drawing, inline and labelled with its text alternative, with links to
    // its SVG file and its CSV (under the site's path).
    for spec in grid_first_charts() {
        let id = &spec.id;
        let label = escape(&alt_text(&spec));
        assert!(
            report.contains(&format!("role=\"img\" aria-label=\"{label}\">")),
            "{id}"
        );
        assert!(report.contains(&format!("href=\"/repo/charts/grid-first/{id}.svg\"")));
        assert!(report.contains(&format!("href=\"/repo/charts/grid-first/{id}.csv\"")));
    }
    // Three charts, each drawn at a phone's width; the chart of its own drawn wide, the grid's
    // two panels, which share their row, not (their embed pages carry every drawing).
    assert_eq!(report.matches("<svg class=\"narrow\" ").count(), 3);
    assert_eq!(report.matches("<svg class=\"wide widest\" ").count(), 1);
    assert_eq!(report.matches("<svg class=\"medium widest\" ").count(), 2);
    assert_eq!(report.matches("<svg class=\"wide").count(), 1);
    for panel in ["p1", "p2"] {
        let embed = app_root(&pages[&format!("embed/grid-first/{panel}/index.html")]);
        assert_eq!(
            embed.matches("<svg class=\"wide widest\" ").count(),
            1,
            "{panel}"
        );
        assert_eq!(
            embed.matches("<svg class=\"medium\" ").count(),
            1,
            "{panel}"
        );
    }
    assert!(
        !report.contains("<img src=\"/repo/charts/"),
        "no chart image requests"
    );
    let home = app_root(&pages["index.html"]);
    assert!(home.contains("href=\"/repo/plain/\""), "{home}");
    assert!(app_root(&pages["404.html"]).contains("Page not found"));
    assert!(app_root(&pages["local/index.html"]).contains("Your result files"));
    let embed = app_root(&pages["embed/grid-first/c1/index.html"]);
    assert!(embed.contains("class=\"embed\"") && !embed.contains("site-header"));
    // The benchmark page, in the benchmark build only, is drawn by the app alone.
    let with_bench = try_pages(dir.path(), None, "/repo/", true).unwrap();
    let bench = with_bench
        .iter()
        .find(|(path, _)| path == "_bench/scatter/index.html")
        .expect("the benchmark build has the page");
    assert_eq!(app_root(&bench.1), "<div id=\"app\"></div>");
    // No page runs an inline script of its own: the policy's only hash is trunk's loader.
    for page in pages.values() {
        assert_eq!(csp::inline_scripts(page).unwrap().len(), 1);
    }
}

#[test]
fn an_automatic_page_says_so_and_how_to_write_its_report() {
    let dir = built_site();
    let pages = pages_of(dir.path(), "/repo/");
    let plain = app_root(&pages["plain/index.html"]);
    assert!(plain.contains("Made automatically."), "{plain}");
    assert!(
        plain.contains("<code>benchdeck new report plain results/runs &lt;b&gt;/</code>"),
        "{plain}"
    );
    assert!(!app_root(&pages["grid-first/index.html"]).contains("Made automatically"));
    assert!(app_root(&pages["index.html"]).contains("made automatically · 0 charts, 0 runs"));
}

#[test]
fn a_rendered_report_page_matches_its_snapshot() {
    let dir = built_site();
    let pages = pages_of(dir.path(), "/repo/");
    let page = without_drawings(app_root(&pages["grid-first/index.html"]));
    insta::assert_snapshot!(page.replace("><", ">\n<"));
}

/// `html` with each inline drawing's elements left out (`<svg …>…</svg>`): the chart tests of
/// `benchdeck_core::chart` snapshot the drawings.
fn without_drawings(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(start) = rest.find("<svg ") {
        let open_end = start + rest[start..].find('>').unwrap() + 1;
        let end = open_end + rest[open_end..].find("</svg>").unwrap();
        out.push_str(&rest[..open_end]);
        out.push('…');
        out.push_str("</svg>");
        rest = &rest[end + "</svg>".len()..];
    }
    out.push_str(rest);
    out
}

#[test]
fn with_a_site_url_pages_are_canonical_and_the_site_has_a_sitemap_and_a_feed() {
    let dir = built_site();
    let pages = pages_of(dir.path(), "https://u.github.io/repo/");
    assert!(pages["grid-first/index.html"]
        .contains("<link rel=\"canonical\" href=\"https://u.github.io/repo/grid-first/\">"));
    assert!(
        pages["index.html"].contains("<link rel=\"canonical\" href=\"https://u.github.io/repo/\">")
    );
    assert!(pages["plain/index.html"].contains(
        "type=\"application/atom+xml\" title=\"benchdeck reports\" \
         href=\"https://u.github.io/repo/feed.xml\""
    ));
    assert!(!pages["404.html"].contains("rel=\"canonical\""));
    assert!(pages["sitemap.xml"].contains("<loc>https://u.github.io/repo/plain/</loc>"));
    assert_eq!(pages["feed.xml"].matches("<entry>").count(), 2);
    // Without it: root-relative addresses, so no canonical links and no sitemap.
    let pages = pages_of(dir.path(), "/repo/");
    assert!(pages.values().all(|p| !p.contains("rel=\"canonical\"")));
    assert!(!pages.contains_key("sitemap.xml"));
}

#[test]
fn pages_do_not_preload_the_app() {
    let dir = built_site();
    let pages = pages_of(dir.path(), "/repo/");
    assert!(pages.values().all(|p| !p.contains("modulepreload")));
    assert!(pages
        .values()
        .filter(|p| p.contains("<html"))
        .all(|p| p.contains("addEventListener('load', idle")));
}

/// What the packaged app's build does: a site with no report, no benchmark page. (Its summary
/// line once subtracted four fixed pages from three.)
#[test]
fn a_site_without_reports_gets_its_pages_without_panicking() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), TEMPLATE).unwrap();
    let index_path = dir.path().join(INDEX_PATH);
    std::fs::create_dir_all(index_path.parent().unwrap()).unwrap();
    let index = SiteIndex { reports: vec![] };
    std::fs::write(&index_path, crate::data_file::pack(&index).unwrap()).unwrap();
    let code = execute(&Args {
        dist: dir.path().into(),
        site_url: None,
        public_url: "/".into(),
        bench_page: false,
        save_template: None,
    })
    .unwrap();
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(dir.path().join("404.html").is_file());
    assert!(dir.path().join("local/index.html").is_file());
    assert!(!dir.path().join("_bench").exists());
}

#[test]
fn a_script_that_reached_a_rendered_body_fails_the_build() {
    let dir = built_site();
    let path = dir.path().join(report_data_path("grid-first"));
    let mut page: ReportPage = read_data_file(&path).unwrap();
    // A block's HTML is the sanitiser's output; should anything ever get past it, the page
    // carries it as it is.
    for injected in [
        "<p>Intro</p><script>fetch('/steal')</script>",
        "<p onmouseover=\"alert(1)\">Intro</p>",
    ] {
        page.blocks[0] = Block::Html {
            html: injected.into(),
        };
        std::fs::write(&path, crate::data_file::pack(&page).unwrap()).unwrap();
        let error = format!(
            "{:#}",
            try_pages(dir.path(), None, "/repo/", false).unwrap_err()
        );
        assert!(
            error.contains("a page's body must never run a script of its own"),
            "{injected}: {error}"
        );
    }
}
