//! What a published site offers crawlers and feed readers when its address is known
//! (`--site-url`): `sitemap.xml` (the home page and every report; embed pages are not indexed),
//! an Atom feed of the reports and of the change points their trend charts found (`feed.xml`),
//! and `robots.txt` pointing at the sitemap.
//!
//! Dates come from the reports' front matter (`date: YYYY-MM-DD`). A report without one is dated
//! like the newest report of the site, and a site with no dated report like the build
//! (`SOURCE_DATE_EPOCH` when set, for reproducible builds).

use benchdeck_core::html::escape;
use benchdeck_core::site::SiteIndex;

/// The feed's path, relative to the site root; every page links to it.
pub const FEED_PATH: &str = "feed.xml";

/// `sitemap.xml`, `feed.xml` and `robots.txt` for the site at `site_url` (absolute, ending in
/// `/`), as (path relative to the site root, text).
pub fn files(index: &SiteIndex, site_url: &str) -> Vec<(String, String)> {
    let fallback = newest_date(index).unwrap_or_else(build_date);
    vec![
        ("sitemap.xml".to_string(), sitemap(index, site_url)),
        (FEED_PATH.to_string(), atom(index, site_url, &fallback)),
        (
            "robots.txt".to_string(),
            format!("User-agent: *\nAllow: /\nSitemap: {site_url}sitemap.xml\n"),
        ),
    ]
}

/// The sitemap: the home page and every report, with its date when it has one.
fn sitemap(index: &SiteIndex, site_url: &str) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    xml.push_str(&format!("  <url><loc>{}</loc></url>\n", escape(site_url)));
    for report in &index.reports {
        let loc = escape(&format!("{site_url}{}/", report.slug));
        match report.date.as_deref().filter(|d| is_date(d)) {
            Some(date) => xml.push_str(&format!(
                "  <url><loc>{loc}</loc><lastmod>{date}</lastmod></url>\n"
            )),
            None => xml.push_str(&format!("  <url><loc>{loc}</loc></url>\n")),
        }
    }
    xml.push_str("</urlset>\n");
    xml
}

/// The Atom feed: one entry per report (title, summary, authors, date, link), newest first as
/// the home page lists them.
fn atom(index: &SiteIndex, site_url: &str, fallback: &str) -> String {
    let stamp = |date: &str| format!("{date}T00:00:00Z");
    let mut xml = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
         <feed xmlns=\"http://www.w3.org/2005/Atom\">\n\
         \x20 <title>benchdeck reports</title>\n\
         \x20 <id>{site}</id>\n\
         \x20 <link rel=\"alternate\" type=\"text/html\" href=\"{site}\"/>\n\
         \x20 <link rel=\"self\" type=\"application/atom+xml\" href=\"{site}{FEED_PATH}\"/>\n\
         \x20 <updated>{}</updated>\n\
         \x20 <author><name>benchdeck</name></author>\n",
        stamp(fallback),
        site = escape(site_url),
    );
    for report in &index.reports {
        let url = escape(&format!("{site_url}{}/", report.slug));
        let date = report
            .date
            .as_deref()
            .filter(|d| is_date(d))
            .unwrap_or(fallback);
        xml.push_str("  <entry>\n");
        xml.push_str(&format!("    <title>{}</title>\n", escape(&report.title)));
        xml.push_str(&format!("    <id>{url}</id>\n"));
        xml.push_str(&format!(
            "    <link rel=\"alternate\" type=\"text/html\" href=\"{url}\"/>\n"
        ));
        xml.push_str(&format!("    <updated>{}</updated>\n", stamp(date)));
        for author in &report.authors {
            xml.push_str(&format!(
                "    <author><name>{}</name></author>\n",
                escape(author)
            ));
        }
        if !report.summary.is_empty() {
            xml.push_str(&format!(
                "    <summary>{}</summary>\n",
                escape(&report.summary)
            ));
        }
        xml.push_str("  </entry>\n");
        for change in &report.changes {
            xml.push_str(&change_entry(&report.slug, site_url, change));
        }
    }
    xml.push_str("</feed>\n");
    xml
}

/// The feed's entry for a change point of the report `slug`: its title and what changed, dated
/// the day of the new level, linking to the trend chart. Its id is made from the chart, the day
/// and the title, so a new change elsewhere leaves it as it was (feed readers show an entry
/// whose id changed again). Control characters from result files are dropped: XML forbids them.
fn change_entry(slug: &str, site_url: &str, change: &benchdeck_core::site::ChangeEntry) -> String {
    let url = escape(&format!("{site_url}{slug}/#chart-{}", change.chart));
    let date = if is_date(&change.date) {
        change.date.clone()
    } else {
        change.date.get(..10).unwrap_or("1970-01-01").to_string()
    };
    let fingerprint = fnv1a(&format!(
        "{}\n{}\n{}",
        change.chart, change.date, change.title
    ));
    let xml_text = |text: &str| -> String {
        escape(&text.chars().filter(|c| !c.is_control()).collect::<String>())
    };
    format!(
        "  <entry>\n    <title>{}</title>\n    <id>{url}-{date}-{fingerprint:016x}</id>\n    \
         <link rel=\"alternate\" type=\"text/html\" href=\"{url}\"/>\n    \
         <updated>{date}T00:00:00Z</updated>\n    <summary>What changed: {}</summary>\n  \
         </entry>\n",
        xml_text(&change.title),
        xml_text(&change.what_changed)
    )
}

/// The 64-bit FNV-1a hash of `text`: stable across builds and platforms.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The newest front-matter date of the site's reports.
fn newest_date(index: &SiteIndex) -> Option<String> {
    index
        .reports
        .iter()
        .filter_map(|r| r.date.clone())
        .filter(|d| is_date(d))
        .max()
}

/// Whether `text` is a `YYYY-MM-DD` date.
fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes
            .iter()
            .enumerate()
            .all(|(i, b)| i == 4 || i == 7 || b.is_ascii_digit())
}

/// Today's date in UTC (`SOURCE_DATE_EPOCH`'s day when set), `YYYY-MM-DD`.
fn build_date() -> String {
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        });
    civil_date(seconds / 86_400)
}

/// The proleptic Gregorian date of `days` since 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_date(days: u64) -> String {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use benchdeck_core::site::ReportSummary;

    fn report(slug: &str, title: &str, date: Option<&str>) -> ReportSummary {
        ReportSummary {
            slug: slug.into(),
            title: title.into(),
            date: date.map(Into::into),
            authors: vec!["A & B".into()],
            summary: "Less <b>latency</b>".into(),
            charts: 1,
            runs: 1,
            first_chart: None,
            automatic: None,
            changes: Vec::new(),
        }
    }

    #[test]
    fn each_change_point_of_a_trend_is_an_entry_linking_to_its_chart() {
        let mut nightly = report("nightly", "Nightly", Some("2026-11-14"));
        nightly.changes = vec![benchdeck_core::site::ChangeEntry {
            date: "2026-11-08".into(),
            chart: "tpot-trend".into(),
            title: "vLLM: Median TPOT −8.1% (better) from 2026-11-08".into(),
            what_changed: "engine version 0.11.0 → 0.11.1 <b>\u{1}".into(),
        }];
        let index = SiteIndex {
            reports: vec![nightly],
        };
        let xml = atom(&index, "https://u.github.io/r/", "2026-11-14");
        assert_eq!(xml.matches("<entry>").count(), 2);
        assert!(
            xml.contains(
                "<title>vLLM: Median TPOT −8.1% (better) from 2026-11-08</title>\n    \
                 <id>https://u.github.io/r/nightly/#chart-tpot-trend-2026-11-08-"
            ),
            "{xml}"
        );
        assert!(xml.contains("<updated>2026-11-08T00:00:00Z</updated>"));
        assert!(xml.contains("What changed: engine version 0.11.0 → 0.11.1 &lt;b&gt;</summary>"));
    }

    #[test]
    fn days_become_dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(20_513), "2026-03-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
    }

    #[test]
    fn the_sitemap_and_the_feed_list_every_report_escaped_and_dated() {
        let index = SiteIndex {
            reports: vec![
                report("new", "New <one>", Some("2026-04-25")),
                report("undated", "Undated", None),
            ],
        };
        let files: std::collections::BTreeMap<_, _> = files(&index, "https://u.github.io/r/")
            .into_iter()
            .collect();
        let sitemap = &files["sitemap.xml"];
        assert!(sitemap.contains("<url><loc>https://u.github.io/r/</loc></url>"));
        assert!(sitemap.contains(
            "<url><loc>https://u.github.io/r/new/</loc><lastmod>2026-04-25</lastmod></url>"
        ));
        assert!(sitemap.contains("<url><loc>https://u.github.io/r/undated/</loc></url>"));
        let feed = &files["feed.xml"];
        assert_eq!(feed.matches("<entry>").count(), 2);
        assert!(feed.contains("<title>New &lt;one&gt;</title>"));
        assert!(feed.contains("<summary>Less &lt;b&gt;latency&lt;/b&gt;</summary>"));
        assert!(feed.contains("<author><name>A &amp; B</name></author>"));
        // The undated report and the feed take the newest report's date.
        assert_eq!(
            feed.matches("<updated>2026-04-25T00:00:00Z</updated>")
                .count(),
            3
        );
        assert!(files["robots.txt"].contains("Sitemap: https://u.github.io/r/sitemap.xml"));
    }
}
