// The site an installed `benchdeck` built (run by `cargo xtask test` after `pip install` of its
// wheel, and by `cargo xtask dist --check-install` after `cargo install` of the packaged crate):
// a project outside the repository with `benchdeck init`'s report and folders of result files
// that no report names. Not a `*.test.mjs`: it needs that
// site, so the main suites never pick it up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { siteUnderTest } from './lib/site.mjs';
import { chartsReady, inkRatio, screenshot } from './lib/browser.mjs';

const site = siteUnderTest();

test('the home page lists the starter report, then a page per folder of results', async () => {
  const page = await site.page();
  await page.goto(site.url);
  await chartsReady(page);
  const titles = await page.locator('.report-card h2').allTextContents();
  assert.equal(titles[0], 'About these benchmarks');
  for (const folder of ['console', 'latency', 'sglang', 'vllm']) {
    assert.ok(titles.some((t) => t === folder || t.startsWith(`${folder}: `)), `no page for ${folder}/: ${titles}`);
  }
  const marks = await page.locator('.report-card .meta', { hasText: 'made automatically' }).count();
  assert.equal(marks, 4);
  await screenshot(page, 'installed-home');
  assert.deepEqual(page.errors, []);
});

test('an automatic page draws the standard charts and says how to write its report', async () => {
  const page = await site.page();
  const response = await page.goto(`${site.url}latency/`);
  assert.equal(response.status(), 200);
  await chartsReady(page);
  const note = await page.locator('.automatic-note').innerText();
  assert.match(note, /benchdeck new report latency results\/latency\//);
  const ids = await page.locator('figure.chart').evaluateAll((fs) => fs.map((f) => f.id));
  for (const id of ['chart-ttft', 'chart-tradeoff', 'chart-ttft-cdf']) {
    assert.ok(ids.includes(id), `no ${id} in ${ids}`);
  }
  assert.ok(await inkRatio(page, '#chart-ttft-cdf canvas') > 0.01, 'the CDF is drawn');
  assert.match(await page.locator('.prose').allInnerTexts().then((t) => t.join(' ')), /Faster by/);
  await screenshot(page, 'installed-automatic');
  assert.deepEqual(page.errors, []);
});

test('without JavaScript the automatic page reads completely', async () => {
  const page = await site.pageWithoutScripts();
  await page.goto(`${site.url}vllm/`);
  const text = await page.locator('body').innerText();
  assert.match(text, /Made automatically/);
  assert.match(text, /Each configuration at its best/);
  assert.ok(await page.locator('.chart-image svg').count() > 3, 'charts drawn inline');
});
