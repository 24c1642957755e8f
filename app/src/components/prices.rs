//! The reader's own prices. A report whose configurations state a price gets a panel (under its
//! first cost chart) where each rate can be changed; the page then shows every cost at those
//! rates: cost charts (`ChartView` asks [`Prices::chart`]), the cost figures in the text,
//! tiles and tables, the ratios and percentages that compare costs and the verdicts of a
//! head-to-head table of costs (the build's `<span data-price>`, `<span data-compare>` and
//! `<figure data-versus>`, rewritten by [`PricePanel`]'s effect),
//! and the wizard's ranking ([`Prices::repricing`]). The rates live in the address
//! (`?price.<key>=<rate>`), so a link shares them.

use crate::browser::number::parse_f64;
use crate::state::effect::effect;
use benchdeck_core::chart::{self, ChartSpec};
use benchdeck_core::compare::{Comparison, Verdict};
use benchdeck_core::cost::{PriceSheet, Repricing, StatedPrice};
use benchdeck_core::format;
use benchdeck_core::quantity::Better;
use leptos::prelude::*;

use crate::components::handler;

/// The page's prices: as stated, and as the reader set them.
#[derive(Clone, Copy)]
pub struct Prices {
    sheet: StoredValue<PriceSheet>,
    rates: RwSignal<Vec<f64>>,
    repricing: Memo<Repricing>,
}

impl Prices {
    /// Makes `sheet`'s prices the page's (a context for its charts and wizard), the rates
    /// taken from the address where it holds valid ones, and kept there when they change.
    pub fn provide(sheet: Option<PriceSheet>) {
        let Some(sheet) = sheet else {
            return;
        };
        let stated: Vec<f64> = sheet.configs.iter().map(|c| c.rate).collect();
        let rates: Vec<f64> = sheet
            .configs
            .iter()
            .map(|c| {
                crate::state::query::get(&c.address_key())
                    .and_then(|t| StatedPrice::rate_from_address_with(&t, &parse_f64))
                    .unwrap_or(c.rate)
            })
            .collect();
        let keys: Vec<String> = sheet.configs.iter().map(StatedPrice::address_key).collect();
        let sheet = StoredValue::new(sheet);
        let rates = RwSignal::new(rates);
        let repricing = Memo::new(move |_| sheet.with_value(|s| Repricing::new(s, &rates.get())));
        effect(move || {
            let pairs: Vec<(&str, String)> = rates.with(|rates| {
                keys.iter()
                    .zip(rates.iter().zip(&stated))
                    .map(|(key, (rate, stated))| {
                        let shown = if rate == stated {
                            String::new()
                        } else {
                            format!("{rate}")
                        };
                        (key.as_str(), shown)
                    })
                    .collect()
            });
            crate::state::query::set(&pairs);
        });
        provide_context(Prices {
            sheet,
            rates,
            repricing,
        });
    }

    /// The page's prices, when it has any.
    pub fn of_page() -> Option<Prices> {
        use_context::<Prices>()
    }

    /// The factors on each configuration's costs (tracked).
    pub fn repricing(&self) -> Repricing {
        self.repricing.get()
    }

    /// `spec` at the reader's rates, when it shows a cost and a rate differs (tracked).
    pub fn chart(&self, spec: &ChartSpec) -> Option<ChartSpec> {
        let repricing = self.repricing.get();
        if repricing.is_identity() {
            return None;
        }
        self.sheet.with_value(|s| {
            let priced = s.charts.iter().find(|c| c.id == spec.id)?;
            Some(repricing.chart(spec, priced))
        })
    }
}

/// The editor: one row per priced configuration (its colour, name, rate and what the rate
/// buys an hour), and a button back to the report's prices.
#[component]
pub fn PricePanel() -> impl IntoView {
    let prices = Prices::of_page()?;
    let live = crate::state::live::running();
    // The build's page already shows the report's prices: the figures are rewritten only once
    // a rate differs (and from then on, also back to the report's).
    let touched = StoredValue::new(false);
    effect(move || {
        let repricing = prices.repricing.get();
        if repricing.is_identity() && !touched.get_value() {
            return;
        }
        touched.set_value(true);
        if let Some(root) = crate::browser::document().and_then(|d| d.document_element()) {
            rewrite_costs(&root, &repricing);
        }
    });
    let rows = prices.sheet.with_value(|s| {
        s.configs
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let swatch = chart::theme::css_swatch(c.color);
                let stated = c.clone();
                let rate = move || prices.rates.with(|r| r.get(i).copied().unwrap_or(stated.rate));
                let hourly = {
                    let c = c.clone();
                    move || format!("${}", format::fixed(c.usd_per_hour(rate()), 2))
                };
                let invalid = RwSignal::new(false);
                let input_id = format!("price-{i}");
                view! {
                    <tr>
                        <th scope="row"><span class="swatch" style=swatch></span>{c.label.clone()}</th>
                        <td>
                            <label class="price-rate">"$ "
                                <input type="number" min="0" step="any" id=input_id
                                    value=format!("{}", c.rate)
                                    prop:value=move || format!("{}", rate())
                                    aria-invalid=move || invalid.get().to_string()
                                    on:input=handler(move |ev| {
                                        let text = event_target_value(&ev);
                                        let parsed = parse_f64(text.trim()).filter(|r| *r > 0.0 && r.is_finite());
                                        invalid.set(parsed.is_none());
                                        if let Some(rate) = parsed {
                                            prices.rates.update(|r| if let Some(slot) = r.get_mut(i) { *slot = rate });
                                        }
                                    })/>
                            </label>
                            " " {c.per_text()}
                            {move || invalid.get().then(|| view! {
                                <span class="price-error" role="alert">" Expected a positive number of dollars; the last valid rate is used."</span>
                            })}
                        </td>
                        <td class="price-hourly">{hourly}<span class="on-narrow">" an hour"</span></td>
                    </tr>
                }
            })
            .collect_view()
    });
    let reset = move |_| {
        prices.rates.set(
            prices
                .sheet
                .with_value(|s| s.configs.iter().map(|c| c.rate).collect()),
        );
    };
    Some(view! {
        <section class="prices" aria-labelledby="prices-title">
            <p class="prices-title" id="prices-title"><strong>"Prices"</strong></p>
            <p class="prices-note">
                "Every cost on this page uses these rates. Put in your own: the cost charts, figures, \
                tables and the wizard follow, and the address keeps your rates for a link."
            </p>
            <form on:submit=handler(|ev: leptos::ev::SubmitEvent| ev.prevent_default())>
                <fieldset disabled=move || !live.get()>
                    <legend class="visually-hidden">"Rate of each configuration"</legend>
                    <table class="price-table">
                        <thead><tr><th scope="col">"Configuration"</th><th scope="col">"Rate"</th><th scope="col">"Per hour"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </fieldset>
                <button type="button" class="tool js-only" on:click=handler(reset)>"Use the report's prices"</button>
            </form>
        </section>
    })
}

/// Shows each cost figure under `root` (the build's `<span data-price data-usd>`) and each
/// comparison of costs (`<span data-compare>`) at the reader's rates, and moves a summary row's
/// bold mark to its cheapest cell.
fn rewrite_costs(root: &web_sys::Element, repricing: &Repricing) {
    for span in crate::browser::elements(root, "[data-price]") {
        let key = span.get_attribute("data-price").unwrap_or_default();
        let Some(usd) = span.get_attribute("data-usd").and_then(|v| parse_f64(&v)) else {
            continue;
        };
        let stated = stated_text(&span);
        let factor = repricing.factor(&key);
        let text = if factor == 1.0 {
            stated
        } else {
            let value = usd * factor;
            let decimals = span
                .get_attribute("data-decimals")
                .and_then(|d| d.parse::<usize>().ok());
            match (span.get_attribute("data-unit"), decimals) {
                (Some(unit), Some(decimals)) => format::with_unit_fixed(value, &unit, decimals),
                (Some(unit), None) => format::with_unit(value, &unit),
                (None, _) => format::number(value),
            }
        };
        show_text(&span, &text);
    }
    for span in crate::browser::elements(root, "[data-compare]") {
        let stated = stated_text(&span);
        let text = recompared(&span, repricing).unwrap_or(stated);
        show_text(&span, &text);
    }
    mark_cheapest(root, repricing);
    for table in crate::browser::elements(root, "figure[data-versus] table") {
        judge_head_to_head(&table, repricing);
    }
}

/// A head-to-head table of costs (the build's `figure[data-versus]`): each row's cheaper
/// configuration and by how much, at the reader's rates, as the build says it
/// (`compare::Verdict`). The two figures of a row are cost figures, rewritten with the others.
fn judge_head_to_head(table: &web_sys::Element, repricing: &Repricing) {
    // Load, the two configurations, the verdict and by how much; a `workload` column (the
    // prompts sent beside the load) is neither.
    let names: Vec<String> = crate::browser::elements(table, "thead th:not(.workload)")
        .iter()
        .map(|th| th.text_content().unwrap_or_default())
        .collect();
    let [_, first, second, ..] = names.as_slice() else {
        return;
    };
    let cost = |cell: &web_sys::Element| {
        let span = cell.query_selector("[data-price]").ok()??;
        let usd = parse_f64(&span.get_attribute("data-usd")?)?;
        Some(usd * repricing.factor(&span.get_attribute("data-price")?))
    };
    for row in crate::browser::elements(table, "tbody tr") {
        let cells = crate::browser::elements(&row, "td:not(.workload)");
        let [a, b, winner, by] = cells.as_slice() else {
            continue;
        };
        let (Some(a), Some(b)) = (cost(a), cost(b)) else {
            continue;
        };
        let Some(verdict) = Verdict::of(a, b, Better::Lower) else {
            continue;
        };
        let name = match verdict {
            Verdict::Better(0, _) => first.as_str(),
            Verdict::Better(_, _) => second.as_str(),
            Verdict::Tie => "tie",
        };
        show_text(winner, name);
        show_text(by, &verdict.by_text());
    }
}

/// A comparison of costs (`ratio`, `pct`; the build's `<span data-compare>`) computed again
/// from both sides at the reader's rates; `None` while both sides are at the stated prices.
fn recompared(span: &web_sys::Element, repricing: &Repricing) -> Option<String> {
    let comparison = Comparison::named(&span.get_attribute("data-compare")?)?;
    let factor = |side: &str| {
        span.get_attribute(&format!("data-price-{side}"))
            .map_or(1.0, |key| repricing.factor(&key))
    };
    let (factor_a, factor_b) = (factor("a"), factor("b"));
    if factor_a == 1.0 && factor_b == 1.0 {
        return None;
    }
    let value = |side: &str| parse_f64(&span.get_attribute(&format!("data-value-{side}"))?);
    let result = comparison.of(value("a")? * factor_a, value("b")? * factor_b)?;
    Some(comparison.text(result))
}

/// The text the build gave `span` (a claim may word a figure its own way), kept on it the first
/// time it is looked at, before any rewrite, so that the stated prices bring it back.
fn stated_text(span: &web_sys::Element) -> String {
    match span.get_attribute("data-stated") {
        Some(text) => text,
        None => {
            let text = span.text_content().unwrap_or_default();
            span.set_attribute("data-stated", &text).ok();
            text
        }
    }
}

/// Sets `span`'s text to `text`, unless it already reads so.
fn show_text(span: &web_sys::Element, text: &str) {
    if span.text_content().as_deref() != Some(text) {
        span.set_text_content(Some(text));
    }
}

/// In each table of costs, each cost row's cheapest cell bold (`td.best > strong`) and the
/// others plain, then the "Best for" row said again from the bold cells.
fn mark_cheapest(root: &web_sys::Element, repricing: &Repricing) {
    for table in crate::browser::elements(root, "table") {
        let has_costs = table
            .query_selector("[data-price]")
            .ok()
            .flatten()
            .is_some();
        // A head-to-head names its cheaper configuration in a column of its own.
        let head_to_head = table
            .closest("figure[data-versus]")
            .ok()
            .flatten()
            .is_some();
        if !has_costs || head_to_head {
            continue;
        }
        for row in crate::browser::elements(&table, "tr") {
            let cells: Vec<(web_sys::Element, f64)> =
                crate::browser::elements(&row, "td [data-price]")
                    .into_iter()
                    .filter_map(|span| {
                        let usd = parse_f64(&span.get_attribute("data-usd")?)?;
                        let key = span.get_attribute("data-price")?;
                        Some((span, usd * repricing.factor(&key)))
                    })
                    .collect();
            if cells.len() < 2 {
                continue;
            }
            let least = cells.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
            let tied = cells.iter().filter(|c| c.1 == least).count() > 1;
            for (span, value) in &cells {
                set_best(span, !tied && *value == least);
            }
        }
        refresh_best_for(&table);
    }
}

/// A summary table's "Best for" row: under each configuration, the rows where its cell is
/// bold, as the build writes it (`report/tables.rs`).
fn refresh_best_for(table: &web_sys::Element) {
    let Some(best_for) = table.query_selector("tr.best-for").ok().flatten() else {
        return;
    };
    let targets = crate::browser::elements(&best_for, ":scope > td");
    let mut wins: Vec<Vec<String>> = vec![Vec::new(); targets.len()];
    for row in crate::browser::elements(table, "tbody > tr:not(.best-for)") {
        let label = row
            .query_selector(":scope > th")
            .ok()
            .flatten()
            .and_then(|th| th.text_content())
            .unwrap_or_default();
        for (j, cell) in crate::browser::elements(&row, ":scope > td")
            .iter()
            .enumerate()
        {
            if cell.class_list().contains("best") {
                if let Some(w) = wins.get_mut(j) {
                    w.push(label.clone());
                }
            }
        }
    }
    for (cell, wins) in targets.iter().zip(wins) {
        let text = if wins.is_empty() {
            "–".to_string()
        } else {
            wins.join(", ")
        };
        if cell.text_content().as_deref() != Some(text.as_str()) {
            cell.set_text_content(Some(&text));
        }
    }
}

/// Makes the cell of `span` the row's best (bold, `class="best"`) or a plain one.
fn set_best(span: &web_sys::Element, best: bool) {
    let Some(parent) = span.parent_element() else {
        return;
    };
    let in_strong = parent.tag_name().eq_ignore_ascii_case("strong");
    let cell = if in_strong {
        parent.parent_element()
    } else {
        Some(parent.clone())
    };
    let Some(cell) = cell else {
        return;
    };
    if best && !in_strong {
        let Some(document) = crate::browser::document() else {
            return;
        };
        if let Ok(strong) = document.create_element("strong") {
            parent.replace_child(&strong, span).ok();
            strong.append_child(span).ok();
        }
    } else if !best && in_strong {
        cell.replace_child(span, &parent).ok();
    }
    if best {
        cell.class_list().add_1("best").ok();
    } else {
        cell.class_list().remove_1("best").ok();
    }
}
