//! Filtering a report's configurations by engine, model and hardware (a report with many of
//! them: `site::FilterSheet`). One panel at the top of the report; what it leaves out
//! disappears from every chart (its series are hidden, its legend button says why) and from
//! every table (its column), at once. The choice lives in the address (`?hide.engine=sgl`), so
//! a link shows the same selection.

use crate::state::effect::effect;
use benchdeck_core::site::filter::{FilterSheet, ADDRESS_SEPARATOR};
use leptos::prelude::*;

use crate::components::handler;

/// The page's filter: what it offers and what the reader turned off.
#[derive(Clone, Copy)]
pub struct Filters {
    sheet: StoredValue<FilterSheet>,
    /// Per facet, the values turned off.
    excluded: RwSignal<Vec<Vec<String>>>,
    /// The labels of the configurations left out.
    hidden: Memo<Vec<String>>,
}

impl Filters {
    /// Makes `sheet` the page's filter (a context for its charts), the choice read from the
    /// address and kept there when it changes.
    pub fn provide(sheet: Option<FilterSheet>) {
        let Some(sheet) = sheet else {
            return;
        };
        let keys: Vec<String> = sheet.facets.iter().map(|f| f.address_key()).collect();
        let excluded: Vec<Vec<String>> = sheet
            .facets
            .iter()
            .zip(&keys)
            .map(|(facet, key)| {
                crate::state::query::get(key)
                    .map(|text| facet.excluded_from_address(&text))
                    .unwrap_or_default()
            })
            .collect();
        let sheet = StoredValue::new(sheet);
        let excluded = RwSignal::new(excluded);
        let hidden = Memo::new(move |_| excluded.with(|e| sheet.with_value(|s| s.hidden(e))));
        effect(move || {
            let pairs: Vec<(&str, String)> = excluded.with(|excluded| {
                keys.iter()
                    .zip(excluded)
                    .map(|(key, off)| (key.as_str(), off.join(&ADDRESS_SEPARATOR.to_string())))
                    .collect()
            });
            crate::state::query::set(&pairs);
        });
        provide_context(Filters {
            sheet,
            excluded,
            hidden,
        });
    }

    /// The page's filter, when it has one.
    pub fn of_page() -> Option<Filters> {
        use_context::<Filters>()
    }

    /// Bit `i` set when series `names[i]` is a configuration left out (tracked).
    pub fn mask(&self, names: &[String]) -> u64 {
        self.hidden.with(|hidden| {
            names
                .iter()
                .enumerate()
                .filter(|(i, name)| *i < 64 && hidden.contains(name))
                .fold(0, |mask, (i, _)| mask | 1 << i)
        })
    }
}

/// The panel: per facet, a toggle button per value (with how many configurations have it),
/// how many configurations are shown, and "Show all".
#[component]
pub fn FilterPanel() -> impl IntoView {
    let filters = Filters::of_page()?;
    // The build's page shows every column: tables are walked only once something is left out
    // (and from then on, also to show it again).
    let touched = StoredValue::new(false);
    effect(move || {
        let hidden = filters.hidden.get();
        if hidden.is_empty() && !touched.get_value() {
            return;
        }
        touched.set_value(true);
        if let Some(root) = crate::browser::document().and_then(|d| d.document_element()) {
            hide_columns(&root, &hidden);
        }
    });
    // The build's page lists the values; they can be turned off once the app runs.
    let live = crate::state::live::running();
    let total = filters.sheet.with_value(|s| s.configs.len());
    let groups = filters.sheet.with_value(|s| {
        s.facets
            .iter()
            .enumerate()
            .map(|(f, facet)| {
                let buttons = facet
                    .values
                    .iter()
                    .map(|value| {
                        let count = s.count(f, value);
                        let v = value.clone();
                        let on = move || {
                            filters
                                .excluded
                                .with(|e| !e.get(f).is_some_and(|off| off.contains(&v)))
                        };
                        let v = value.clone();
                        let toggle = move |_| {
                            filters.excluded.update(|e| {
                                if let Some(off) = e.get_mut(f) {
                                    match off.iter().position(|x| *x == v) {
                                        Some(i) => {
                                            off.remove(i);
                                        }
                                        None => off.push(v.clone()),
                                    }
                                }
                            })
                        };
                        view! {
                            <button type="button" class="legend-item filter-value"
                                disabled=move || !live.get()
                                aria-pressed=move || on().to_string() on:click=handler(toggle)>
                                {value.clone()}<span class="filter-count">{count}</span>
                            </button>
                        }
                    })
                    .collect_view();
                view! {
                    <div class="filter-facet" role="group" aria-label=facet.name.clone()>
                        <span class="facet-name">{facet.name.clone()}</span>
                        {buttons}
                    </div>
                }
            })
            .collect_view()
    });
    let shown = move || total - filters.hidden.with(Vec::len);
    let show_all = move |_| {
        filters
            .excluded
            .update(|e| e.iter_mut().for_each(Vec::clear))
    };
    Some(view! {
        <section class="filters" aria-labelledby="filters-title">
            <p class="filters-title" id="filters-title">
                <strong>"Configurations shown"</strong>
                <span class="filters-count" role="status">{move || format!(" {} of {total}", shown())}</span>
                {move || (shown() < total).then(|| view! {
                    <button type="button" class="tool" on:click=handler(show_all)>"Show all"</button>
                })}
            </p>
            {groups}
        </section>
    })
}

/// Hides, in every table of the page, the columns headed by a configuration in `hidden`.
fn hide_columns(root: &web_sys::Element, hidden: &[String]) {
    for table in crate::browser::elements(root, "table") {
        let heads = crate::browser::elements(&table, "thead tr > *");
        let off: Vec<usize> = heads
            .iter()
            .enumerate()
            .filter(|(_, th)| {
                let text = th.text_content().unwrap_or_default();
                hidden.iter().any(|h| *h == text.trim())
            })
            .map(|(i, _)| i)
            .collect();
        for row in crate::browser::elements(&table, "tr") {
            for (i, cell) in crate::browser::elements(&row, ":scope > *")
                .iter()
                .enumerate()
            {
                let hide = off.contains(&i);
                if hide != cell.has_attribute("hidden") {
                    if hide {
                        cell.set_attribute("hidden", "").ok();
                    } else {
                        cell.remove_attribute("hidden").ok();
                    }
                }
            }
        }
    }
}
