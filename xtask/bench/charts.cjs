#!/usr/bin/env node
// The browser half of `cargo xtask bench`'s chart comparison: serves the built site and the
// uPlot reference page on loopback, loads benchdeck's hidden /_bench/scatter/ page and the uPlot
// page in turn in headless Chromium (LOADS times each, interleaved, each load in a fresh
// context), waits for `charts-ready` and reads the JSON each page writes into
// <pre id="bench-results">.
//
// usage: NODE_PATH=<dir with playwright-core> node charts.cjs SITE_DIR UPLOT_DIR [LOADS]
// Prints one JSON line: {"chromium": version, "benchdeck": [result per load], "uplot": [...]}.
// The static server is the end-to-end tests' (tests/e2e/lib/server.mjs): like GitHub Pages, it
// answers unknown paths with 404.html, from which the app routes to the hidden page.
'use strict';

const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { chromium } = require('playwright-core');

const [siteDir, uplotDir, loadsArg] = process.argv.slice(2);
if (!siteDir || !uplotDir) {
  console.error('usage: node charts.cjs SITE_DIR UPLOT_DIR [LOADS]');
  process.exit(2);
}
const loads = Number(loadsArg || 3);
const READY = "performance.getEntriesByName('charts-ready').length > 0 && " +
  "(document.getElementById('bench-results')?.textContent ?? '').trim().length > 0";

async function measure(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', e => errors.push(String(e)));
    // The app's page is served as 404.html (status 404), which the console reports.
    page.on('console', m => {
      if (m.type() === 'error' && !/status of 404/.test(m.text())) errors.push(m.text());
    });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(READY, null, { polling: 500, timeout: 300000 });
    const text = await page.$eval('#bench-results', el => el.textContent);
    const result = JSON.parse(text);
    if (errors.length && !result.error) result.error = `page errors: ${errors.join(' | ')}`;
    return result;
  } finally {
    await context.close();
  }
}

(async () => {
  const serverModule = path.join(__dirname, '..', '..', 'tests', 'e2e', 'lib', 'server.mjs');
  const { serve } = await import(pathToFileURL(serverModule).href);
  const site = await serve(path.resolve(siteDir), '/');
  const uplot = await serve(path.resolve(uplotDir), '/');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const out = { chromium: browser.version(), benchdeck: [], uplot: [] };
    for (let i = 0; i < loads; i++) {
      out.benchdeck.push(await measure(browser, `${site.url}_bench/scatter/`));
      out.uplot.push(await measure(browser, `${uplot.url}`));
      console.error(`charts: load ${i + 1} of ${loads} done`);
    }
    console.log(JSON.stringify(out));
  } finally {
    await browser.close();
    await site.close();
    await uplot.close();
  }
})().catch(e => { console.error(e); process.exit(1); });
