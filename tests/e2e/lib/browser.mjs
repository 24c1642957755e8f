// Headless Chromium from the system (Debian's package), driven by playwright-core, with every
// console error and page error collected so tests can assert there were none.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/// A browser; `{ javaScriptEnabled: false }` gives one that runs no script, as a crawler, a
/// feed reader or a reader with JavaScript off sees the site.
export async function launch({ javaScriptEnabled = true } = {}) {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchdeck-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: FLAGS,
    headless: true,
    viewport: { width: 1200, height: 900 },
    deviceScaleFactor: 1,
    javaScriptEnabled,
  });
  return {
    context,
    async page(options = {}) {
      const page = await context.newPage();
      if (options.viewport) await page.setViewportSize(options.viewport);
      if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
      const errors = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`console: ${m.text()} (${m.location().url})`);
      });
      page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
      page.errors = errors;
      return page;
    },
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/// Waits for the app's `charts-ready` performance mark: the charts near the viewport are drawn,
/// the others show the build's drawing. With `all` (the default) it then has every chart drawn,
/// scrolling through the page and back, for tests that read or click any of them.
export async function chartsReady(page, timeout = 20000, { all = true } = {}) {
  await page.waitForFunction(() => performance.getEntriesByName('charts-ready').length > 0, null, { timeout });
  if (all) await drawAll(page);
}

/// Charts are drawn when they come near the viewport (further down, the build's drawing shows):
/// scrolls `selector`'s chart into view and waits until its canvas is drawn.
export async function drawn(page, selector) {
  const canvas = page.locator(selector);
  await canvas.scrollIntoViewIfNeeded();
  await canvas.evaluate((c) => new Promise((resolve) => {
    const done = () => !c.closest('figure.chart') || c.classList.contains('drawn');
    const poll = () => (done() ? resolve() : requestAnimationFrame(poll));
    poll();
  }));
}

/// Scrolls through the page until every chart's canvas is drawn, then back to where it was.
export async function drawAll(page) {
  const count = await page.locator('figure.chart canvas').count();
  const [x, y] = await page.evaluate(() => [window.scrollX, window.scrollY]);
  for (let i = 0; i < count; i++) await drawn(page, `figure.chart >> nth=${i} >> canvas`);
  await page.evaluate(([x, y]) => window.scrollTo(x, y), [x, y]);
}

/// Share of a canvas's pixels that differ from its top-left (background) pixel (the canvas is
/// scrolled into view and drawn first).
export async function inkRatio(page, selector) {
  await drawn(page, selector);
  return page.$eval(selector, (canvas) => {
    const ctx = canvas.getContext('2d');
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    const bg = [data[0], data[1], data[2]];
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i] - bg[0]) + Math.abs(data[i + 1] - bg[1]) + Math.abs(data[i + 2] - bg[2]) > 30) ink++;
    }
    return ink / (data.length / 4);
  });
}

/// Saves a screenshot under target/e2e/ for people to look at.
/// With `{ fullPage: false }` only the viewport is taken (what a reader sees first).
export async function screenshot(page, name, { fullPage = true } = {}) {
  const dir = path.resolve(process.env.BENCHDECK_SCREENSHOTS ?? '../../target/e2e');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage });
}

/// How many points the arrow keys visit on the focused chart `figure` (its drawn targets).
export async function visitedPoints(page, figure) {
  await page.locator(`${figure} canvas`).focus();
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowRight');
  const tooltip = page.locator(`${figure} .chart-tooltip`);
  const first = await tooltip.innerText();
  for (let n = 1; n < 200; n++) {
    await page.keyboard.press('ArrowRight');
    if ((await tooltip.innerText()) === first) return n;
  }
  return Infinity;
}

/// The value of `key` in the page's query once it is `expected` (a string, `null` for absent, or
/// a RegExp). The app writes the address from an effect after the event that changed its view,
/// and Playwright's `page.url()` learns of it from a later message, so the page's own
/// `location` is read, polled until it matches (or the wait times out, naming the last value).
export async function addressParam(page, key, expected, timeout = 5000) {
  const read = () => page.evaluate((k) => new URLSearchParams(location.search).get(k), key);
  const matches = (value) =>
    expected instanceof RegExp ? value !== null && expected.test(value) : value === expected;
  const until = Date.now() + timeout;
  let value = await read();
  while (!matches(value) && Date.now() < until) {
    await page.waitForTimeout(25);
    value = await read();
  }
  if (!matches(value)) {
    throw new Error(`the address's ${key} is ${JSON.stringify(value)}, expected ${expected}`);
  }
  return value;
}
