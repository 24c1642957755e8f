// benchdeck serve: reloads this page when the site has been built again. `serve` adds this
// script to the pages it sends; a built site never holds it.
(() => {
  const KEY = 'benchdeck-serve-scroll';
  // Back where the reader was before the reload, once the page is laid out.
  const kept = sessionStorage.getItem(KEY);
  if (kept !== null) {
    sessionStorage.removeItem(KEY);
    addEventListener('load', () => scrollTo(0, Number(kept)));
  }
  let seen = null;
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  (async () => {
    for (;;) {
      try {
        // Answered at once when the build differs from `seen`, else when the next build ends.
        const answer = await fetch(`/_benchdeck/changes?seen=${seen ?? ''}`, { cache: 'no-store' });
        const now = (await answer.text()).trim();
        if (seen !== null && now !== seen) {
          sessionStorage.setItem(KEY, String(scrollY));
          location.reload();
          return;
        }
        seen = now;
      } catch {
        // The server stopped or restarts: ask again in a moment.
        await pause(1000);
      }
    }
  })();
})();
