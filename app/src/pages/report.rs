//! A report page: the Markdown narrative with its charts, and the problems found in its data.

use benchdeck_core::site::{
    result_file_href, runs_csv_path, runs_json_path, Block, ReportPage, TocEntry,
};
use leptos::either::EitherOf4;
use leptos::prelude::*;

use super::not_found::NotFound;
use crate::browser::data::{self, ReportError};
use crate::components::fresh::Fresh;
use crate::components::{
    handler, ChartView, Download, Downloads, FilterPanel, Filters, FlowchartView, GridView,
    LoadErrorPanel, PricePanel, Prices, ProblemList, Wizard,
};

/// The report `slug` (the URL's `/<slug>/`).
#[component]
pub fn Report(
    /// The report's slug.
    slug: String,
    /// Its data, when the page came with it.
    initial: Option<ReportPage>,
) -> impl IntoView {
    let page = data::loaded(initial.map(Ok), || data::report_page(slug));
    move || match data::take(page) {
        None => EitherOf4::A(view! { <p class="loading">"Loading report…"</p> }),
        Some(Ok(page)) => {
            let downloads = published_downloads(&page);
            EitherOf4::B(view! { <ReportBody page downloads/> })
        }
        Some(Err(ReportError::NotFound)) => EitherOf4::C(view! { <NotFound/> }),
        Some(Err(ReportError::Load(error))) => {
            crate::browser::ready::expect_charts(0);
            EitherOf4::D(view! { <LoadErrorPanel error/> })
        }
    }
}

/// The files a published report offers: its runs normalised, and its raw result files.
fn published_downloads(page: &ReportPage) -> Vec<Download> {
    let slug = &page.summary.slug;
    let mut items = vec![
        Download::link(
            "Runs, normalised (JSON)",
            data::href(&runs_json_path(slug)),
            format!("{slug}-runs.json"),
        ),
        Download::link(
            "Runs, normalised (CSV)",
            data::href(&runs_csv_path(slug)),
            format!("{slug}-runs.csv"),
        ),
    ];
    items.extend(page.sources.iter().map(|source| {
        let name = source.rsplit('/').next().unwrap_or(source).to_string();
        Download::link(
            format!("Result file {source}"),
            data::href(&result_file_href(source)),
            name,
        )
    }));
    items
}

/// A report: its header, problems, contents, narrative with charts, the wizard and the data to
/// download. Published reports and dropped files (`pages/local.rs`) both show this.
#[component]
pub fn ReportBody(
    /// The page's data.
    page: ReportPage,
    /// Its data files.
    downloads: Vec<Download>,
) -> impl IntoView {
    crate::browser::ready::expect_charts(page.charts().count());
    crate::browser::set_title(&format!("{} · benchdeck", page.summary.title));
    let meta = [
        page.summary.date.clone(),
        (!page.summary.authors.is_empty()).then(|| page.summary.authors.join(", ")),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" · ");
    let slug = page.summary.slug.clone();
    // The price editor goes under the first chart that shows a cost, else before the wizard.
    let panel_at = page.prices.as_ref().map(|sheet| {
        page.blocks
            .iter()
            .position(|b| block_charts(b).any(|id| sheet.charts.iter().any(|c| &c.id == id)))
    });
    Prices::provide(page.prices);
    Filters::provide(page.filters);
    let blocks = page
        .blocks
        .into_iter()
        .enumerate()
        .map(|(i, block)| {
            let shown = match block {
                Block::Html { html } => {
                    EitherOf4::A(view! { <div class="prose" inner_html=html></div> })
                }
                Block::Chart { chart } => {
                    EitherOf4::B(view! { <ChartView spec=chart slug=slug.clone()/> })
                }
                Block::Grid { grid } => EitherOf4::C(view! { <GridView grid slug=slug.clone()/> }),
                Block::Flowchart { flowchart } => {
                    EitherOf4::D(view! { <FlowchartView flowchart/> })
                }
            };
            (
                shown,
                (panel_at == Some(Some(i))).then(|| view! { <PricePanel/> }),
            )
        })
        .collect_view();
    // Built anew, never patched, if rendered again (`fresh.rs`).
    Fresh(view! {
        <article class="report">
            <header class="report-header">
                <h1>{page.summary.title}</h1>
                <p class="meta">{meta}</p>
            </header>
            {page.summary.automatic.map(|folder| view! { <AutomaticNote folder slug=slug.clone()/> })}
            <ProblemList problems=page.problems/>
            <Contents entries=page.toc page=data::href(&format!("{slug}/"))/>
            <FilterPanel/>
            {blocks}
            {(panel_at == Some(None)).then(|| view! { <PricePanel/> })}
            {page.decision.map(|data| view! { <Wizard data/> })}
            <Downloads items=downloads/>
        </article>
    })
}

/// The ids of the charts a block shows (a grid's panels).
fn block_charts(block: &Block) -> Box<dyn Iterator<Item = &String> + '_> {
    match block {
        Block::Chart { chart } => Box::new(std::iter::once(&chart.id)),
        Block::Grid { grid } => Box::new(grid.panels.iter().map(|p| &p.id)),
        Block::Html { .. } | Block::Flowchart { .. } => Box::new(std::iter::empty()),
    }
}

/// Says the build made this page for result files that no report names, and how to start a
/// report from them (the page's own URL stays the report's).
#[component]
fn AutomaticNote(
    /// Their folder under `results/` (`""` for files directly in it).
    folder: String,
    /// The page's URL segment, which the suggested report keeps.
    slug: String,
) -> impl IntoView {
    let path = if folder.is_empty() {
        "results/".to_string()
    } else {
        format!("results/{folder}/")
    };
    let command = format!("benchdeck new report {slug} {path}");
    view! {
        <aside class="automatic-note" aria-label="Made automatically">
            <p>
                <strong>"Made automatically. "</strong>
                "No report names the result files in " <code>{path}</code>
                ", so this page shows the standard charts for them. To tell their story, start a \
                report from the same charts, edit it and rebuild:"
            </p>
            <pre><code>{command}</code></pre>
        </aside>
    }
}

/// The table of contents: links that scroll to their section. (A plain `#id` link would resolve
/// against `<base href>` and leave the page.)
#[component]
fn Contents(
    /// Sections and subsections, in order.
    entries: Vec<TocEntry>,
    /// The page's own path: links are `page#id`, so they work without JavaScript too.
    page: String,
) -> impl IntoView {
    (!entries.is_empty()).then(|| {
        let items = entries
            .into_iter()
            .map(|entry| {
                let id = entry.id.clone();
                let jump = move |ev: leptos::ev::MouseEvent| {
                    ev.prevent_default();
                    let heading = crate::browser::document().and_then(|d| d.get_element_by_id(&id));
                    if let Some(heading) = heading {
                        heading.scroll_into_view();
                    }
                };
                view! {
                    <li class=format!("toc-level-{}", entry.level)>
                        <a href=format!("{page}#{}", entry.id) on:click=handler(jump)>{entry.text}</a>
                    </li>
                }
            })
            .collect_view();
        view! {
            <nav class="toc" aria-label="Contents">
                <h2>"Contents"</h2>
                <ol>{items}</ol>
            </nav>
        }
    })
}
