#![no_main]
//! Fuzzes what the app reads from its address: a chart's view (`?chart-<id>=…`: statistic,
//! scale, hidden series, SLA, zoom), the page a path shows (`site::Route`), a reader's prices
//! (`?price.<key>=`) applied to a report's cost charts and wizard, and its filters
//! (`?hide.<facet>=`). Lines of the input feed each.

use std::sync::OnceLock;

use benchdeck_core::chart::{ViewState, Zoom};
use benchdeck_core::cost::{Repricing, StatedPrice};
use benchdeck_core::site::{ReportPage, Route};
use libfuzzer_sys::fuzz_target;

/// The production-stack report, which states prices: its cost charts get repriced.
fn priced_page() -> &'static ReportPage {
    static PAGE: OnceLock<ReportPage> = OnceLock::new();
    PAGE.get_or_init(|| {
        let text = include_str!("../../reports/production-inference-stack.md");
        benchdeck_fuzz::site::check_report(text)
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.split('\n');
    let view = lines.next().unwrap_or_default();
    let decoded = ViewState::decode(view);
    assert_eq!(
        ViewState::decode(&decoded.encode()).encode(),
        decoded.encode()
    );
    if let Some(zoom) = Zoom::decode(view) {
        let _ = Zoom::decode(&zoom.encode());
    }
    let path = lines.next().unwrap_or_default();
    let _ = Route::of(path);
    let _ = Route::under("/repo", path);
    let _ = Route::under("", path);

    let page = priced_page();
    if let Some(sheet) = &page.prices {
        let rates: Vec<f64> = sheet
            .configs
            .iter()
            .map(|c| {
                lines
                    .next()
                    .and_then(StatedPrice::rate_from_address)
                    .unwrap_or(c.rate)
            })
            .collect();
        let repricing = Repricing::new(sheet, &rates);
        for priced in &sheet.charts {
            if let Some(spec) = page.charts().find(|s| s.id == priced.id) {
                let repriced = repricing.chart(spec, priced);
                assert_eq!(repriced.series.len(), spec.series.len());
            }
        }
        if let Some(decision) = &page.decision {
            let _ = repricing.candidates(&decision.candidates);
        }
    }
    if let Some(filters) = &page.filters {
        let excluded: Vec<Vec<String>> = filters
            .facets
            .iter()
            .map(|f| f.excluded_from_address(lines.next().unwrap_or_default()))
            .collect();
        let hidden = filters.hidden(&excluded);
        assert!(hidden.len() <= filters.configs.len());
    }
});
