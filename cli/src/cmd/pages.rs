//! `benchdeck pages`: finish a built site so it works on any static host.
//!
//! For every report, `<slug>/index.html` is the app's `index.html` with the report's title,
//! description and Open Graph / Twitter tags, so deep links load directly and shared links show
//! a preview. `404.html` is a copy of `index.html`: GitHub Pages serves it for unknown paths and
//! the app routes from there. Every page carries the site index as a JSON data block.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use benchdeck_core::html::escape;
use benchdeck_core::site::{SiteIndex, INDEX_PATH};

/// Arguments of `pages`.
#[derive(clap::Args)]
pub struct Args {
    /// The built site (trunk's staging folder when run as its post-build hook).
    #[arg(long, env = "TRUNK_STAGING_DIR")]
    dist: PathBuf,
}

/// The placeholder in `app/index.html` that page-specific head tags replace.
const HEAD_MARKER: &str = "<!-- benchdeck:head -->";

/// Where the hidden benchmark page lives, relative to the site root.
const BENCH_PAGE: &str = "_bench/scatter";

/// Runs `pages`.
pub fn execute(args: &Args) -> Result<ExitCode> {
    let index_html_path = args.dist.join("index.html");
    let index_html = std::fs::read_to_string(&index_html_path)
        .with_context(|| format!("cannot read `{}`", index_html_path.display()))?;
    if !index_html.contains(HEAD_MARKER) {
        bail!(
            "`{}` has no `{HEAD_MARKER}` line; expected the app's index.html",
            index_html_path.display()
        );
    }
    let index_path = args.dist.join(INDEX_PATH);
    let index: SiteIndex =
        serde_json::from_str(&std::fs::read_to_string(&index_path).with_context(|| {
            format!(
                "cannot read `{}`; run `benchdeck site` first",
                index_path.display()
            )
        })?)
        .with_context(|| format!("`{}` is not a site index", index_path.display()))?;

    let embedded = embedded_index(&index)?;
    for report in &index.reports {
        let head = head_tags(&report.title, &report.summary) + &embedded;
        let html = index_html.replacen(HEAD_MARKER, &head, 1);
        let dir = args.dist.join(&report.slug);
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create `{}`", dir.display()))?;
        std::fs::write(dir.join("index.html"), html)
            .with_context(|| format!("cannot write `{}`", dir.display()))?;
    }
    let home = index_html.replacen(
        HEAD_MARKER,
        &(head_tags("benchdeck reports", "LLM-serving benchmark reports") + &embedded),
        1,
    );
    std::fs::write(&index_html_path, &home)?;
    std::fs::write(args.dist.join("404.html"), &home)?;
    // The hidden drawing benchmark (`app/src/pages/bench.rs`) gets a real page too, so it loads
    // with status 200 like every other page.
    let bench_dir = args.dist.join(BENCH_PAGE);
    std::fs::create_dir_all(&bench_dir)
        .with_context(|| format!("cannot create `{}`", bench_dir.display()))?;
    let bench = index_html.replacen(
        HEAD_MARKER,
        &(head_tags(
            "Scatter drawing benchmark",
            "benchdeck drawing 100,000 synthetic points",
        ) + &embedded),
        1,
    );
    std::fs::write(bench_dir.join("index.html"), bench)
        .with_context(|| format!("cannot write `{}`", bench_dir.display()))?;
    eprintln!(
        "benchdeck: wrote {} report entry page(s), the benchmark page and 404.html",
        index.reports.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// The site index as an inert JSON data block, so the app knows every report without a request
/// (and never asks the server for a report that does not exist). `<` is escaped so no text in a
/// title can close the block.
fn embedded_index(index: &SiteIndex) -> Result<String> {
    let json = serde_json::to_string(index)?.replace('<', "\\u003c");
    Ok(format!(
        "\n    <script type=\"application/json\" id=\"benchdeck-index\">{json}</script>"
    ))
}

/// `<title>`, description, Open Graph and Twitter tags; values are HTML-escaped.
fn head_tags(title: &str, summary: &str) -> String {
    let (t, s) = (escape(title), escape(summary));
    format!(
        "<title>{t}</title>\n    <meta name=\"description\" content=\"{s}\">\n    \
         <meta property=\"og:type\" content=\"article\">\n    \
         <meta property=\"og:title\" content=\"{t}\">\n    \
         <meta property=\"og:description\" content=\"{s}\">\n    \
         <meta name=\"twitter:card\" content=\"summary\">\n    \
         <meta name=\"twitter:title\" content=\"{t}\">\n    \
         <meta name=\"twitter:description\" content=\"{s}\">"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_tags_escape_untrusted_titles() {
        let head = head_tags("<script>alert(1)</script>", "a \"quoted\" & 'x'");
        assert!(!head.contains("<script>"));
        assert!(head.contains("<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>"));
        assert!(head.contains("content=\"a &quot;quoted&quot; &amp; &#39;x&#39;\""));
    }

    #[test]
    fn the_embedded_index_cannot_close_its_script_block() {
        let index = SiteIndex {
            reports: vec![benchdeck_core::site::ReportSummary {
                slug: "x".into(),
                title: "</script><script>alert(1)</script>".into(),
                date: None,
                authors: vec![],
                summary: String::new(),
                charts: 0,
                runs: 0,
            }],
        };
        let block = embedded_index(&index).unwrap();
        assert_eq!(block.matches("</script>").count(), 1, "{block}");
        let json = block
            .split_once('>')
            .and_then(|(_, rest)| rest.strip_suffix("</script>"))
            .unwrap();
        let back: SiteIndex = serde_json::from_str(json).unwrap();
        assert_eq!(back, index);
    }
}
