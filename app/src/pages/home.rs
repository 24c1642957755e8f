//! The home page: every report, newest first.

use benchdeck_core::site::{chart_card_svg_paths, ReportSummary, SiteIndex};
use leptos::either::EitherOf4;
use leptos::prelude::*;

use crate::browser::data;
use crate::components::fresh::Fresh;
use crate::components::{DropZone, LoadErrorPanel};

/// Lists the reports of the site.
#[component]
pub fn Home(
    /// The site index, when the page came with it.
    initial: Option<SiteIndex>,
) -> impl IntoView {
    let index = data::loaded(initial.map(Ok), data::site_index);
    view! {
        <section class="home">
            <h1>"Reports"</h1>
            {move || match data::take(index) {
                    None => EitherOf4::A(view! { <p class="loading">"Loading reports…"</p> }),
                    Some(Ok(index)) => {
                        crate::browser::ready::expect_charts(0);
                        if index.reports.is_empty() {
                            EitherOf4::B(view! { <p>"No reports yet: add a Markdown file to reports/."</p> })
                        } else {
                            EitherOf4::C(Fresh(view! {
                                <ul class="report-list">
                                    {index.reports.into_iter().map(|r| view! { <ReportCard report=r/> }).collect_view()}
                                </ul>
                            }))
                        }
                    }
                    Some(Err(error)) => EitherOf4::D(view! { <LoadErrorPanel error/> }),
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
        report
            .automatic
            .as_ref()
            .map(|_| "made automatically".to_string()),
        report.date.clone(),
        (!report.authors.is_empty()).then(|| report.authors.join(", ")),
        Some(format!("{} charts, {} runs", report.charts, report.runs)),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" · ");
    let image = report.first_chart.map(|chart| {
        let [src, dark] = chart_card_svg_paths(&report.slug, &chart.id).map(|p| data::href(&p));
        view! {
            <a class="card-chart" href=link.clone() tabindex="-1" aria-hidden="true">
                <picture>
                    <source media="(prefers-color-scheme: dark)" srcset=dark/>
                    <img src=src alt=chart.alt width=chart.size.0.to_string()
                        height=chart.size.1.to_string() loading="lazy" decoding="async"/>
                </picture>
            </a>
        }
    });
    view! {
        <li class="report-card">
            <div class="card-text">
                <h2><a href=link.clone()>{report.title}</a></h2>
                <p class="meta">{meta}</p>
                <p class="summary">{report.summary}</p>
            </div>
            {image}
        </li>
    }
}
