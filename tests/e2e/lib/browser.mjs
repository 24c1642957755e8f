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

/// Waits for the app's `charts-ready` performance mark.
export async function chartsReady(page, timeout = 20000) {
  await page.waitForFunction(() => performance.getEntriesByName('charts-ready').length > 0, null, { timeout });
}

/// Share of a canvas's pixels that differ from its top-left (background) pixel.
export async function inkRatio(page, selector) {
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
