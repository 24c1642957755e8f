//! How a site is built: the options `build` and `serve` give a build.

/// How a site is built.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Options {
    /// The path the site is served under, with slashes at both ends.
    pub public_url: String,
    /// The site's public address, when known.
    pub site_url: Option<String>,
    /// Write the site even when a report has errors (shown on its page), as `serve` does.
    pub keep_going: bool,
    /// Publish result files that hold what looks like a secret.
    pub publish_secrets: bool,
    /// Leave the charts' PNGs to whoever serves the site (`serve` makes one when asked).
    pub pngs_on_request: bool,
}
