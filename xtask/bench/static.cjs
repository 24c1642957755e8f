#!/usr/bin/env node
// What a page costs before any script runs, for `cargo xtask bench`:
// - with JavaScript off (a crawler, a feed or chat preview, a reader without scripts): every
//   byte the page pulls in until it has loaded (HTML, CSS, chart images), raw and gzip -9;
// - with JavaScript on: the first contentful paint, and the bytes the browser had to have before
//   it (the document and the resources Resource Timing marks render-blocking: what the reader
//   needs to see the page).
// Each load uses a fresh browser context with an empty cache; medians of LOADS loads.
//
// usage: NODE_PATH=<dir with playwright-core> node static.cjs URL [LOADS]
// Prints one JSON line: {"url", "no_js": {"bytes", "gzip_bytes", "requests", "images"},
// "first_paint": {"fcp_ms": [...], "median_fcp_ms", "gzip_bytes", "resources": [...]}}
const { chromium } = require('playwright-core');
const zlib = require('node:zlib');

const [url, loadsArg] = process.argv.slice(2);
if (!url) {
  console.error('usage: node static.cjs URL [LOADS]');
  process.exit(2);
}
const loads = Number(loadsArg || 5);
const gzip = (body) => zlib.gzipSync(body, { level: 9 }).length;

/// Collects every response body of `page` by URL.
function bodies(page) {
  const seen = new Map();
  page.on('response', async (r) => {
    try { seen.set(r.url(), await r.body()); } catch (_) { /* redirects have no body */ }
  });
  return seen;
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const viewport = { width: 1280, height: 900 };

  // JavaScript off: everything the page loads, images included.
  const still = await browser.newContext({ viewport, javaScriptEnabled: false, bypassCSP: true });
  const page = await still.newPage();
  const seen = bodies(page);
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForLoadState('networkidle');
  const images = await page.locator('img').count();
  const all = [...seen.values()];
  const noJs = {
    bytes: all.reduce((n, b) => n + b.length, 0),
    gzip_bytes: all.reduce((n, b) => n + gzip(b), 0),
    requests: all.length,
    images,
  };
  await still.close();

  // JavaScript on: the first contentful paint and what had arrived by then.
  const fcp = [];
  let before = null;
  for (let i = 0; i < loads; i++) {
    const context = await browser.newContext({ viewport, bypassCSP: true });
    const tab = await context.newPage();
    const got = bodies(tab);
    await tab.goto(url, { waitUntil: 'commit' });
    const timing = await tab.evaluate(() => new Promise((resolve) => {
      new PerformanceObserver((list) => {
        const paint = list.getEntries().find((e) => e.name === 'first-contentful-paint');
        if (!paint) return;
        // What the browser waited for before painting: the document and the resources it
        // marks render-blocking (stylesheets, synchronous scripts in the head).
        const blocking = performance.getEntriesByType('resource')
          .filter((r) => r.renderBlockingStatus === 'blocking').map((r) => r.name);
        resolve({ fcp: paint.startTime, arrived: [location.href, ...blocking] });
      }).observe({ type: 'paint', buffered: true });
    }));
    await tab.waitForLoadState('networkidle');
    fcp.push(Math.round(timing.fcp));
    if (i === 0) {
      const resources = timing.arrived.filter((u) => got.has(u));
      before = {
        gzip_bytes: resources.reduce((n, u) => n + gzip(got.get(u)), 0),
        resources: resources.map((u) => new URL(u).pathname),
      };
    }
    await context.close();
  }
  await browser.close();
  const sorted = [...fcp].sort((a, b) => a - b);
  console.log(JSON.stringify({
    url,
    no_js: noJs,
    first_paint: { fcp_ms: fcp, median_fcp_ms: sorted[Math.floor(loads / 2)], ...before },
  }));
})().catch((e) => { console.error(e); process.exit(1); });
