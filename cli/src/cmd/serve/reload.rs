//! Live reload for `benchdeck serve`: every page it sends carries [`SCRIPT_PATH`], a script that
//! asks [`CHANGES_PATH`] for the name of the site's latest build and waits there (a long poll)
//! until the next one ends, then reloads the page where the reader was. Only `serve` adds the
//! script, as it sends a page: no built site holds it, and the pages' Content-Security-Policy
//! already allows a script and a request of their own origin (`'self'`).

use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// The address of the reload script.
pub(super) const SCRIPT_PATH: &str = "/_benchdeck/reload.js";
/// The address a page waits at for the next build.
pub(super) const CHANGES_PATH: &str = "/_benchdeck/changes";
/// The reload script.
pub(super) const SCRIPT: &str = include_str!("reload.js");

/// How long a page's request waits for a build before it is answered anyway (and asks again).
const LONGEST_WAIT: Duration = Duration::from_secs(25);

/// The builds made so far by this server (named by its start), and a signal for each new one.
pub(super) struct Builds {
    /// Names this server among the ones that ran at this port: a page that waited on an
    /// earlier one (stopped and started again, as `cargo xtask serve` does when the app's code
    /// changed) sees another build and reloads, though the count starts again.
    server: String,
    count: Mutex<u64>,
    ended: Condvar,
}

impl Builds {
    /// No build ended yet, on a server named by `server`.
    pub fn new(server: impl Into<String>) -> Self {
        Builds {
            server: server.into(),
            count: Mutex::new(0),
            ended: Condvar::new(),
        }
    }

    /// Builds of a server named by the time it started.
    pub fn started_now() -> Self {
        let since_epoch = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        Builds::new(since_epoch.as_millis().to_string())
    }

    /// Counts a build that ended (whether or not it succeeded) and wakes every waiting page.
    pub fn ended(&self) {
        *self.lock() += 1;
        self.ended.notify_all();
    }

    /// The answer to a page that last saw build `seen` (`?seen=S-N`, empty at first): the
    /// current build's name (this server's, a dash, its number), at once when it is not `seen`,
    /// else when the next build ends or after `wait` at most.
    pub fn after(&self, seen: &str, wait: Option<Duration>) -> String {
        let wait = wait.unwrap_or(LONGEST_WAIT);
        let count = self.lock();
        let (count, _) = self
            .ended
            .wait_timeout_while(count, wait, |count| self.name(*count) == seen)
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        self.name(*count)
    }

    /// Build `count` of this server, as pages see it.
    fn name(&self, count: u64) -> String {
        format!("{}-{count}", self.server)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, u64> {
        self.count
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The `seen` value of a changes request's query, empty when absent.
pub(super) fn seen(url: &str) -> &str {
    url.split_once('?')
        .map(|(_, query)| query)
        .into_iter()
        .flat_map(|query| query.split('&'))
        .find_map(|pair| pair.strip_prefix("seen="))
        .unwrap_or("")
}

/// `html` with the reload script added at the end of its body (or at its end, when it has no
/// `</body>`).
pub(super) fn with_script(html: &[u8]) -> Vec<u8> {
    let tag = format!("<script src=\"{SCRIPT_PATH}\" defer></script>");
    let text = String::from_utf8_lossy(html);
    let at = text.rfind("</body>").unwrap_or(text.len());
    let mut out = String::with_capacity(text.len() + tag.len());
    out.push_str(&text[..at]);
    out.push_str(&tag);
    out.push_str(&text[at..]);
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Instant;

    #[test]
    fn a_page_that_saw_an_older_build_is_answered_at_once() {
        let builds = Builds::new("s");
        assert_eq!(builds.after("", None), "s-0");
        builds.ended();
        builds.ended();
        assert_eq!(builds.after("s-0", None), "s-2");
    }

    #[test]
    fn a_page_that_waited_on_another_server_is_answered_at_once() {
        let builds = Builds::new("second");
        let start = Instant::now();
        assert_eq!(builds.after("first-0", None), "second-0");
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_page_waits_for_the_next_build_and_no_longer() {
        let builds = Arc::new(Builds::new("s"));
        let waiting = Arc::clone(&builds);
        let start = Instant::now();
        let page = std::thread::spawn(move || waiting.after("s-0", None));
        std::thread::sleep(Duration::from_millis(100));
        builds.ended();
        assert_eq!(page.join().unwrap(), "s-1");
        assert!(start.elapsed() < Duration::from_secs(5));
        // With no build, the wait ends with the same name.
        assert_eq!(builds.after("s-1", Some(Duration::from_millis(50))), "s-1");
    }

    #[test]
    fn the_query_gives_what_the_page_saw() {
        assert_eq!(seen("/_benchdeck/changes?seen=4"), "4");
        assert_eq!(seen("/_benchdeck/changes?x=1&seen=12"), "12");
        assert_eq!(seen("/_benchdeck/changes"), "");
    }

    #[test]
    fn the_script_goes_at_the_end_of_the_body() {
        let page = with_script(b"<html><body><p>x</p></body></html>");
        assert_eq!(
            String::from_utf8(page).unwrap(),
            "<html><body><p>x</p><script src=\"/_benchdeck/reload.js\" defer></script></body></html>"
        );
        assert!(String::from_utf8(with_script(b"x"))
            .unwrap()
            .ends_with("defer></script>"));
    }
}
