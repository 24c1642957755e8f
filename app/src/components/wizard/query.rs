//! The wizard's state in the page's address (`?answers=1.0`, `?load=5&limits=99,2000&weights=1,2`),
//! so that a recommendation can be shared as a link.

use crate::browser::number::parse_f64;

/// Numbers as the address carries them: separated by commas.
pub fn join(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The page's query string (none when the browser gives none).
pub struct Query(Option<web_sys::UrlSearchParams>);

impl Query {
    /// The page's query; none at build time.
    pub fn read() -> Query {
        let search = crate::browser::window().and_then(|w| w.location().search().ok());
        Query(search.and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok()))
    }

    fn get(&self, key: &str) -> Option<String> {
        self.0.as_ref()?.get(key)
    }

    /// A finite number; `None` when absent or unreadable.
    pub fn number(&self, key: &str) -> Option<f64> {
        parse_f64(&self.get(key)?).filter(|v| v.is_finite())
    }

    /// A comma-separated list of numbers; `None` when absent or unreadable.
    pub fn list(&self, key: &str) -> Option<Vec<f64>> {
        let text = self.get(key)?;
        if text.is_empty() {
            return Some(Vec::new());
        }
        text.split(',')
            .map(|x| parse_f64(x).filter(|v| v.is_finite()))
            .collect()
    }

    /// Sets the wizard's keys (an empty value removes one); the charts' keys, the path and the
    /// hash stay.
    pub fn write(pairs: &[(&str, String)]) {
        crate::state::query::set(pairs);
    }
}
