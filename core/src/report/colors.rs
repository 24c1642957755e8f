//! Which palette slot each configuration of a report is drawn in.
//!
//! The site gives every configuration key one slot (`build::palette`), so a configuration keeps
//! its colour from page to page wherever it can. Within one report, two configurations never
//! share a look up to [`LOOKS`]: a configuration whose site colour is already taken in this
//! report (pinned with `color:` in the front matter, or held by a configuration earlier in the
//! site's order) takes the first free one of the [`PALETTE_SIZE`] colours, and once all twelve
//! are taken, the first free colour drawn with a pattern (slots 12 to 23: dashed lines, hollow
//! dots, outlined bars; `chart::theme::patterned`). Beyond twenty-four configurations looks
//! repeat; pin them, or split the report.

use std::collections::BTreeSet;

use super::front::{ConfigDisplay, Palette};
use crate::chart::theme::{LOOKS, PALETTE_SIZE};

/// The slots of `keys` (the report's configurations) in this report, from the site's `site`
/// slots and the front matter's pinned colours (`shown`).
pub(super) fn report_palette(keys: &[String], shown: &[ConfigDisplay], site: &Palette) -> Palette {
    let pinned = |key: &str| shown.iter().find(|c| c.key == key).and_then(|c| c.color);
    let mut taken: BTreeSet<usize> = shown
        .iter()
        .filter(|c| keys.contains(&c.key))
        .filter_map(|c| c.color.map(|slot| slot % LOOKS))
        .collect();
    let mut unpinned: Vec<&String> = keys.iter().filter(|k| pinned(k).is_none()).collect();
    unpinned.sort_by_key(|k| (site.get(*k).copied().unwrap_or(usize::MAX), *k));
    let mut slots = Palette::new();
    for key in unpinned {
        let preferred = site.get(key).copied().unwrap_or(0) % PALETTE_SIZE;
        let slot = if taken.contains(&preferred) {
            (0..LOOKS).find(|s| !taken.contains(s)).unwrap_or(preferred)
        } else {
            preferred
        };
        taken.insert(slot);
        slots.insert(key.clone(), slot);
    }
    slots
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    fn site(slots: &[(&str, usize)]) -> Palette {
        slots.iter().map(|(k, s)| (k.to_string(), *s)).collect()
    }

    #[test]
    fn a_configuration_keeps_its_site_colour_when_it_is_free() {
        let palette = report_palette(&keys(&["b", "a"]), &[], &site(&[("a", 3), ("b", 5)]));
        assert_eq!(palette, site(&[("a", 3), ("b", 5)]));
    }

    #[test]
    fn configurations_whose_site_colours_collide_get_distinct_ones() {
        // Site slots 0, 12, 24 and 1 are colours 0, 0, 0 and 1 of twelve.
        let site = site(&[("a", 0), ("b", 12), ("c", 24), ("d", 1)]);
        let palette = report_palette(&keys(&["c", "b", "a", "d"]), &[], &site);
        assert_eq!(
            palette["a"], 0,
            "first in the site's order keeps its colour"
        );
        assert_eq!(palette["d"], 1);
        assert_eq!((palette["b"], palette["c"]), (2, 3));
    }

    #[test]
    fn pinned_colours_are_kept_and_never_shared() {
        let shown = vec![ConfigDisplay {
            key: "b".into(),
            label: None,
            color: Some(0),
            price: None,
        }];
        let palette = report_palette(&keys(&["a", "b"]), &shown, &site(&[("a", 0), ("b", 1)]));
        assert_eq!(
            palette.get("b"),
            None,
            "a pinned colour is the front matter's"
        );
        assert_eq!(palette["a"], 1, "slot 0 is pinned by b");
    }

    #[test]
    fn beyond_twelve_configurations_the_colours_come_again_patterned() {
        let names: Vec<String> = (0..26).map(|i| format!("k{i:02}")).collect();
        let site: Palette = names.iter().map(|k| (k.clone(), 0)).collect();
        let palette = report_palette(&names, &[], &site);
        let first_twelve: BTreeSet<usize> = names[..12].iter().map(|k| palette[k]).collect();
        assert_eq!(first_twelve, (0..12).collect());
        // The thirteenth to the twenty-fourth: the twelve hues, patterned; no look twice.
        let next_twelve: BTreeSet<usize> = names[12..24].iter().map(|k| palette[k]).collect();
        assert_eq!(next_twelve, (12..24).collect());
        assert!(names[12..24]
            .iter()
            .all(|k| crate::chart::theme::patterned(palette[k])));
        assert_eq!(palette["k24"], 0, "beyond twenty-four a look repeats");
    }

    #[test]
    fn a_site_slot_beyond_the_palette_is_its_plain_hue_in_a_report() {
        let palette = report_palette(&keys(&["a"]), &[], &site(&[("a", 13)]));
        assert_eq!(palette["a"], 1);
    }
}
