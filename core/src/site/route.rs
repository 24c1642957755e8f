//! Which page of the site a URL path shows.
//!
//! Every page has an entry HTML file of its own (the build writes one per report, per embed and
//! for the fixed pages), so the app matches the path once when it starts, instead of carrying a
//! client-side router; links between pages are ordinary page loads. The one move inside the app
//! is to the page of dropped files, which the app makes with the History API.

use super::paths::{BENCH_PAGE_PATH, LOCAL_PAGE_PATH, RESERVED_SLUGS};

/// A page of the site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// `/`: the list of reports.
    Home,
    /// `/local/`: the result files a reader dropped.
    Local,
    /// `/embed/<slug>/<id>/`: one chart or grid alone, for an `<iframe>`.
    Embed {
        /// The report.
        slug: String,
        /// The chart or grid.
        id: String,
    },
    /// `/<slug>/`: a report.
    Report {
        /// The report.
        slug: String,
    },
    /// `/_bench/scatter/`: the drawing benchmark that `cargo xtask bench` runs.
    ScatterBench,
    /// Any other path.
    NotFound,
}

impl Route {
    /// The page at `path`, the URL's path below the site's base (`/repo/x/` is `x/` under
    /// `/repo`), with or without its leading and trailing `/`. Segments stay percent-encoded,
    /// as slugs and chart ids never need encoding.
    pub fn of(path: &str) -> Route {
        let path = path.trim_matches('/');
        if path.is_empty() || path == "index.html" {
            return Route::Home;
        }
        if path == LOCAL_PAGE_PATH.trim_end_matches('/') {
            return Route::Local;
        }
        if path == BENCH_PAGE_PATH.trim_end_matches('/') {
            return Route::ScatterBench;
        }
        let segments: Vec<&str> = path.split('/').collect();
        match segments.as_slice() {
            ["embed", slug, id] if !slug.is_empty() && !id.is_empty() => Route::Embed {
                slug: slug.to_string(),
                id: id.to_string(),
            },
            [slug] | [slug, "index.html"] if !RESERVED_SLUGS.contains(slug) => Route::Report {
                slug: slug.to_string(),
            },
            _ => Route::NotFound,
        }
    }

    /// The route of a full URL path under the site's `base` path (`""` at the root, `/repo`
    /// on GitHub Pages); a path outside the base is [`Route::NotFound`].
    pub fn under(base: &str, pathname: &str) -> Route {
        let base = base.trim_end_matches('/');
        match pathname.strip_prefix(base) {
            Some(rest) if rest.is_empty() || rest.starts_with('/') => Route::of(rest),
            _ => Route::NotFound,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Route;

    fn report(slug: &str) -> Route {
        Route::Report {
            slug: slug.to_string(),
        }
    }

    #[test]
    fn fixed_pages() {
        for path in ["", "/", "index.html", "/index.html"] {
            assert_eq!(Route::of(path), Route::Home, "{path:?}");
        }
        assert_eq!(Route::of("/local/"), Route::Local);
        assert_eq!(Route::of("local"), Route::Local);
        assert_eq!(Route::of("/_bench/scatter/"), Route::ScatterBench);
    }

    #[test]
    fn reports_and_embeds() {
        assert_eq!(Route::of("/vllm-vs-sglang/"), report("vllm-vs-sglang"));
        assert_eq!(Route::of("vllm-vs-sglang"), report("vllm-vs-sglang"));
        assert_eq!(
            Route::of("/vllm-vs-sglang/index.html"),
            report("vllm-vs-sglang")
        );
        assert_eq!(
            Route::of("/embed/vllm-vs-sglang/ttft-p99/"),
            Route::Embed {
                slug: "vllm-vs-sglang".into(),
                id: "ttft-p99".into()
            }
        );
    }

    #[test]
    fn anything_else_is_not_found() {
        for path in [
            "/a/b/",
            "/embed/",
            "/embed/x/",
            "/embed/x//",
            "/embed/x/y/z/",
            "/_bench/",
            "/data/",
            "/charts/",
            "/local/x/",
        ] {
            assert_eq!(Route::of(path), Route::NotFound, "{path:?}");
        }
    }

    #[test]
    fn under_a_base_path() {
        assert_eq!(Route::under("", "/"), Route::Home);
        assert_eq!(Route::under("/repo", "/repo/"), Route::Home);
        assert_eq!(Route::under("/repo", "/repo"), Route::Home);
        assert_eq!(Route::under("/repo/", "/repo/r/"), report("r"));
        assert_eq!(Route::under("/repo", "/repo/local/"), Route::Local);
        assert_eq!(Route::under("/repo", "/other/r/"), Route::NotFound);
        assert_eq!(Route::under("/repo", "/repository/r/"), Route::NotFound);
    }
}
