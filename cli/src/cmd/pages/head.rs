//! What goes in a page's `<head>`: its title and description, the link-preview (Open Graph,
//! Twitter) tags with the report's first chart as the image, the data the loader fetches, and
//! the markers the app reads; and the base of the preview URLs, absolute with `--site-url`.

use anyhow::{bail, Result};
use benchdeck_core::chart;
use benchdeck_core::html::escape;
use benchdeck_core::site::{chart_png_path, ReportPage, NOT_FOUND_META};

use super::super::site::{png_height, PNG_WIDTH};
use super::template::{DATA_META, FULL_APP_META};

/// The base of link-preview URLs, with a trailing `/`: `--site-url` when given (it must be an
/// absolute `http(s)` URL), else trunk's public URL. That one is usually a path (`/repo/`), so
/// the URLs are root-relative: fine for the app and for people, but crawlers of link previews
/// (Open Graph, Twitter cards) need absolute URLs, which only `--site-url` can give.
pub(super) fn preview_base(site_url: Option<&str>, public_url: &str) -> Result<String> {
    let with_slash = |s: &str| {
        if s.ends_with('/') {
            s.to_string()
        } else {
            format!("{s}/")
        }
    };
    let url = match site_url.map(str::trim).filter(|s| !s.is_empty()) {
        Some(url) => {
            let rest = url
                .strip_prefix("https://")
                .or_else(|| url.strip_prefix("http://"));
            if rest.is_none_or(|r| r.is_empty() || r.starts_with('/')) {
                bail!(
                    "--site-url `{url}`: expected the site's absolute address, such as \
                     `https://user.github.io/repo/`"
                );
            }
            url
        }
        None => public_url.trim(),
    };
    if url
        .chars()
        .any(|c| c.is_whitespace() || matches!(c, '"' | '<' | '>' | '\''))
    {
        bail!("the site URL `{url}` has spaces or quotes; expected a URL such as `/repo/`");
    }
    Ok(if url.contains("://") || url.starts_with('/') {
        with_slash(url)
    } else {
        // A relative public URL (`./`): from the root, as a page's address must be.
        with_slash(&format!("/{}", url.trim_start_matches("./")))
    })
}

/// A link-preview image.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Image {
    pub(super) url: String,
    pub(super) width: u32,
    pub(super) height: u32,
    /// What it shows: the chart's title.
    pub(super) alt: String,
}

/// The PNG of the report's preview chart ([`ReportPage::preview_chart`]), when it has one: its
/// size is the chart's export size scaled to [`PNG_WIDTH`], as `benchdeck site` rasterises it
/// (`serve` makes it only when asked for).
pub(super) fn preview_image(base: &str, page: &ReportPage) -> Option<Image> {
    let chart = page.preview_chart()?;
    let (width, height) = chart::export_size(chart);
    Some(Image {
        url: format!("{base}{}", chart_png_path(&page.summary.slug, &chart.id)),
        width: PNG_WIDTH,
        height: png_height((width, height)),
        alt: chart.title.clone(),
    })
}

/// A page's head tags.
pub(super) struct Head<'a> {
    pub(super) title: &'a str,
    pub(super) description: &'a str,
    /// The browser tab's title, when it is not [`Head::title`] (which link previews show).
    pub(super) tab_title: Option<String>,
    /// The page's own address, for `og:url`.
    pub(super) url: Option<String>,
    /// The link-preview image.
    pub(super) image: Option<Image>,
    /// Whether search engines should leave the page out.
    pub(super) noindex: bool,
    /// Whether to write Open Graph and Twitter tags.
    pub(super) social: bool,
    /// Whether this is the page the host serves for unknown addresses: the app then shows
    /// "page not found" without asking the server for data it does not have.
    pub(super) not_found: bool,
    /// The data the app will fetch for this page (relative to `<base href>`), named in a
    /// `<meta name="benchdeck-data">` for the loader: it starts downloading the data with the
    /// app's wasm once the page has loaded (see `template.rs`), not while the page is parsed,
    /// and a browser without JavaScript never downloads it.
    pub(super) data: Option<String>,
    /// Whether the page starts the whole app rather than the islands' app (`/local/`).
    pub(super) full_app: bool,
    /// The page's own absolute address (only with `--site-url`).
    pub(super) canonical: Option<String>,
    /// The site's Atom feed (only with `--site-url`).
    pub(super) feed: Option<String>,
}

impl<'a> Head<'a> {
    pub(super) fn new(title: &'a str, description: &'a str) -> Self {
        Head {
            title,
            description,
            tab_title: None,
            url: None,
            image: None,
            noindex: false,
            social: true,
            not_found: false,
            data: None,
            full_app: false,
            canonical: None,
            feed: None,
        }
    }

    /// `<title>`, description, robots, Open Graph and Twitter tags; every value HTML-escaped.
    pub(super) fn html(&self) -> String {
        let t = escape(self.tab_title.as_deref().unwrap_or(self.title));
        let d = escape(self.description);
        let mut tags = vec![
            format!("<title>{t}</title>"),
            format!("<meta name=\"description\" content=\"{d}\">"),
        ];
        if self.noindex {
            tags.push("<meta name=\"robots\" content=\"noindex\">".to_string());
        }
        if let Some(url) = &self.canonical {
            tags.push(format!("<link rel=\"canonical\" href=\"{}\">", escape(url)));
        }
        if let Some(url) = &self.feed {
            tags.push(format!(
                "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"benchdeck \
                 reports\" href=\"{}\">",
                escape(url)
            ));
        }
        // Without scripts the app never comes, so its controls (`.js-only`, which keep their
        // place for it, invisible) give that place back: no empty rows under the charts.
        // (`!important`: the stylesheet, later in the head, gives each control its display.)
        tags.push(
            "<noscript><style>.js-only { display: none !important; }</style></noscript>"
                .to_string(),
        );
        if let Some(data) = &self.data {
            tags.push(format!(
                "<meta name=\"{DATA_META}\" content=\"{}\">",
                escape(data)
            ));
        }
        if self.full_app {
            tags.push(format!("<meta name=\"{FULL_APP_META}\" content=\"\">"));
        }
        if self.not_found {
            tags.push(format!("<meta name=\"{NOT_FOUND_META}\" content=\"\">"));
        }
        if self.social {
            let meta = |attr: &str, name: &str, value: &str| {
                format!("<meta {attr}=\"{name}\" content=\"{}\">", escape(value))
            };
            tags.push(meta("property", "og:type", "article"));
            tags.push(meta("property", "og:title", self.title));
            tags.push(meta("property", "og:description", self.description));
            if let Some(url) = &self.url {
                tags.push(meta("property", "og:url", url));
            }
            if let Some(image) = &self.image {
                tags.push(meta("property", "og:image", &image.url));
                tags.push(meta("property", "og:image:type", "image/png"));
                tags.push(meta("property", "og:image:width", &image.width.to_string()));
                tags.push(meta(
                    "property",
                    "og:image:height",
                    &image.height.to_string(),
                ));
                tags.push(meta("property", "og:image:alt", &image.alt));
            }
            let card = if self.image.is_some() {
                "summary_large_image"
            } else {
                "summary"
            };
            tags.push(meta("name", "twitter:card", card));
            tags.push(meta("name", "twitter:title", self.title));
            tags.push(meta("name", "twitter:description", self.description));
            if let Some(image) = &self.image {
                tags.push(meta("name", "twitter:image", &image.url));
                tags.push(meta("name", "twitter:image:alt", &image.alt));
            }
        }
        tags.join("\n    ")
    }
}
