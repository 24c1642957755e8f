// `benchdeck serve`'s live reload, on the installed binary's project (run by `cargo xtask test`
// while that `serve` runs, with BENCHDECK_SERVE_URL and BENCHDECK_PROJECT): a report saved while
// its page is open reloads the page by itself, where the reader was. Not a `*.test.mjs`: it
// needs that server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch } from './lib/browser.mjs';

const URL = process.env.BENCHDECK_SERVE_URL;
const PROJECT = process.env.BENCHDECK_PROJECT;

test('a saved report reloads its open page by itself, where the reader was', async () => {
  const browser = await launch();
  try {
    const page = await browser.page({ viewport: { width: 1200, height: 500 } });
    await page.goto(URL);
    await page.locator('.report-card h2 a', { hasText: 'About these benchmarks' }).click();
    await page.waitForLoadState('load');
    const address = page.url();
    // The page waits for the next build; the built site itself never carries the script.
    assert.equal(await page.locator('script[src="/_benchdeck/reload.js"]').count(), 1);
    const reports = path.join(PROJECT, 'reports');
    const file = path.join(reports, fs.readdirSync(reports).find((f) => f.endsWith('.md')));
    const before = fs.readFileSync(file, 'utf8');
    // Down the page, as far as it goes up to 300 px.
    const down = await page.evaluate(() => Math.min(300, document.documentElement.scrollHeight - innerHeight));
    assert.ok(down >= 100, `the page scrolls ${down} px`);
    await page.evaluate((y) => window.scrollTo(0, y), down);
    await page.waitForFunction((y) => window.scrollY >= y - 1, down);
    const mark = `Saved while open ${Date.now()}.`;
    const saved = Date.now();
    fs.writeFileSync(file, `${before}\n${mark}\n`);
    try {
      await page.locator('.prose', { hasText: mark }).first().waitFor({ timeout: 60000 });
      const seconds = (Date.now() - saved) / 1000;
      console.log(`live reload: saved to reloaded page in ${seconds.toFixed(2)} s`);
      assert.equal(page.url(), address);
      await page.waitForFunction((y) => Math.abs(window.scrollY - y) <= 2, down, { timeout: 5000 });
      assert.deepEqual(page.errors, []);
    } finally {
      fs.writeFileSync(file, before);
    }
  } finally {
    await browser.close();
  }
});
