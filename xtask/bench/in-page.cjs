#!/usr/bin/env node
// When a condition first holds, timed by the page itself, for `cargo xtask bench`: a script
// added before the page's own checks the condition on every animation frame from the first one
// and keeps `performance.now()` of the first frame it holds in. `page-load.cjs` asks the page
// from outside (a poll, then a second round trip for the time) while it gzips every response on
// the same cores, which adds its own tens of milliseconds to a page ready in a few hundred; this
// script does no work during the load. Loads of the pages are interleaved (A, B, A, B, …), each
// in a fresh browser context with an empty cache, so both see the machine in the same state.
//
// usage: NODE_PATH=<dir with playwright-core> node in-page.cjs RUNS URL_A READY_A URL_B READY_B …
// Prints one JSON line: {"pages": [{"url", "ready_ms": [...], "median_ms"}, ...]}
const { chromium } = require('playwright-core');

const [runsArg, ...pairs] = process.argv.slice(2);
const runs = Number(runsArg);
if (!runs || pairs.length === 0 || pairs.length % 2 !== 0) {
  console.error('usage: node in-page.cjs RUNS URL READY [URL READY]…');
  process.exit(2);
}
const pages = [];
for (let i = 0; i < pairs.length; i += 2) pages.push({ url: pairs[i], ready: pairs[i + 1], ready_ms: [] });

/// Runs in the page before its own scripts: times the first frame in which `ready` holds.
function watch(ready) {
  const holds = new Function(`return (${ready});`);
  const tick = () => {
    let ok = false;
    try { ok = Boolean(holds()); } catch (_) { /* the page is not far enough yet */ }
    if (ok) window.__readyAt = performance.now();
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  for (let i = 0; i < runs; i++) {
    for (const p of pages) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      await page.addInitScript(watch, p.ready);
      await page.goto(p.url, { waitUntil: 'commit' });
      await page.waitForFunction(() => window.__readyAt !== undefined, null, { timeout: 60000 });
      p.ready_ms.push(Math.round(await page.evaluate(() => window.__readyAt)));
      await context.close();
    }
  }
  await browser.close();
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(JSON.stringify({
    pages: pages.map((p) => ({ url: p.url, ready_ms: p.ready_ms, median_ms: median(p.ready_ms) })),
  }));
})().catch((e) => { console.error(e); process.exit(1); });
