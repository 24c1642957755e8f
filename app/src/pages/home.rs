//! The home page: every report, newest first.

use benchdeck_core::site::ReportSummary;
use leptos::prelude::*;

use crate::components::{DropZone, LoadErrorPanel};
use crate::data;

/// Lists the reports of the site.
#[component]
pub fn Home() -> impl IntoView {
    let index = data::loaded(data::site_index());
    view! {
        <section class="home">
            <h1>"Reports"</h1>
            {move || match index.get() {
                    None => view! { <p class="loading">"Loading reports…"</p> }.into_any(),
                    Some(Ok(index)) => {
                        crate::ready::expect_charts(0);
                        if index.reports.is_empty() {
                            view! { <p>"No reports yet: add a Markdown file to reports/."</p> }.into_any()
                        } else {
                            view! {
                                <ul class="report-list">
                                    {index.reports.into_iter().map(|r| view! { <ReportCard report=r/> }).collect_view()}
                                </ul>
                            }.into_any()
                        }
                    }
                    Some(Err(error)) => view! { <LoadErrorPanel error/> }.into_any(),
            }}
        </section>
        <DropZone/>
    }
}

/// One report in the list.
#[component]
fn ReportCard(
    /// The report to show.
    report: ReportSummary,
) -> impl IntoView {
    let link = data::href(&format!("{}/", report.slug));
    let meta = [
        report.date.clone(),
        (!report.authors.is_empty()).then(|| report.authors.join(", ")),
        Some(format!("{} charts, {} runs", report.charts, report.runs)),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" · ");
    view! {
        <li class="report-card">
            <h2><a href=link>{report.title}</a></h2>
            <p class="meta">{meta}</p>
            <p class="summary">{report.summary}</p>
        </li>
    }
}
