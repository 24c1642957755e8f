// The built site in a real browser: home page, report page, charts drawn, deep links under a
// sub-path, 404 routing, and no console errors anywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { siteUnderTest, BASE, REPORT } from './lib/site.mjs';
import { addressParam, chartsReady, drawn, inkRatio, screenshot, visitedPoints } from './lib/browser.mjs';
import { seriousViolations } from './lib/axe.mjs';


const site = siteUnderTest();

test('the home page lists the reports', async () => {
  const page = await site.page();
  await page.goto(site.url);
  await chartsReady(page);
  const titles = await page.locator('.report-card h2').allTextContents();
  assert.ok(titles.includes('Inference Framework Benchmarks: vLLM vs SGLang'), `titles: ${titles}`);
  const href = await page.locator('.report-card h2 a', { hasText: 'vLLM vs SGLang' }).getAttribute('href');
  assert.equal(href, `${BASE}${REPORT}/`);
  // Newest first: the synthetic nightly regressions (2026-11-14), the production-stack blog
  // (2026-04), the Week 2 baseline (2026-01-29), the synthetic distributions over time
  // (2026-01-02) and latency analysis (2026-01-01), then the framework comparison (2025).
  assert.match(titles[0], /Nightly regression watch/);
  assert.match(titles[1], /Production-Grade LLM Inference Stack/);
  assert.match(titles[2], /Week 2 baseline/);
  assert.match(titles[3], /distributions over time/);
  assert.match(titles[4], /Latency analysis/);
  assert.equal(titles.length, 6);
  await screenshot(page, 'home');
  assert.deepEqual(page.errors, []);
});

test('each report card shows its first chart drawn for the card\'s size: its text reads, in light and dark, on a desktop and a phone', async () => {
  for (const [colorScheme, width] of [['light', 1200], ['dark', 1200], ['light', 390]]) {
    const page = await site.page({ colorScheme, viewport: { width, height: 900 } });
    await page.goto(site.url);
    // The app renders the page again and swaps it in: take the cards it shows from then on.
    await page.waitForFunction(() => document.documentElement.classList.contains('live'));
    const images = page.locator('.report-card .card-chart img');
    assert.equal(await images.count(), 6);
    for (const image of await images.all()) {
      await image.scrollIntoViewIfNeeded();
      await image.evaluate((img) => img.decode());
      const { src, natural, shown } = await image.evaluate((img) => ({
        src: img.currentSrc, natural: img.naturalWidth, shown: img.getBoundingClientRect().width,
      }));
      assert.match(src, colorScheme === 'dark' ? /\.card\.dark\.svg$/ : /\.card\.svg$/);
      const svg = await (await page.request.get(src)).text();
      const smallest = Math.min(...[...svg.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1])));
      const onScreen = (smallest * shown) / natural;
      // The charts' own bar (prerender.test.mjs): text smaller than this is hard to read.
      assert.ok(onScreen >= 9.5, `${src}: its smallest text is ${onScreen.toFixed(1)} px on the card at ${width} px`);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('a report page renders its narrative and draws every chart', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await site.page({ colorScheme });
    const response = await page.goto(`${site.url}${REPORT}/`);
    assert.equal(response.status(), 200, 'the deep link is a real file');
    await chartsReady(page);
    await assert.doesNotReject(page.locator('h1', { hasText: 'Inference Framework Benchmarks' }).waitFor());
    assert.equal(await page.title(), 'Inference Framework Benchmarks: vLLM vs SGLang · benchdeck');
    const charts = await page.locator('figure.chart canvas').count();
    assert.equal(charts, 16, 'a 2x2 grid, three metric charts, three tail-latency charts, six head-to-heads');
    for (let i = 0; i < charts; i++) {
      const ink = await inkRatio(page, `figure.chart >> nth=${i} >> canvas`);
      assert.ok(ink > 0.02, `chart ${i} is blank (${(ink * 100).toFixed(2)}% ink)`);
    }
    assert.match(await page.locator('.prose').first().innerText(), /vllm bench serve/);
    assert.equal(await page.locator('.markdown-alert-note').count(), 1);
    assert.equal(await page.locator('.error-panel').count(), 0);
    await screenshot(page, `report-${colorScheme}`);
    await screenshot(page, `report-${colorScheme}-first-view`, { fullPage: false });
    assert.deepEqual(page.errors, []);
  }
});

test('tables and inline values are computed from the data, as seed 002 printed them', async () => {
  const page = await site.page();
  await page.goto(`${site.url}${REPORT}/`);
  await chartsReady(page);
  const ttft = page.locator('figure.data-table', { hasText: 'Mean TTFT: vLLM vs SGLang' });
  // An interval sits on the line under its value: the cells' text with its lines joined.
  const rows = (await ttft.locator('tbody tr').allInnerTexts()).map((r) => r.replace(/\n/g, ' '));
  assert.equal(rows.length, 6);
  // Seed 002's num_prompts beside each load, and how many completed.
  assert.deepEqual(rows[0].split('\t'), ['1 req/s', '120', '120', '45.04 ms', '64.88 ms', 'vLLM', '30.58% (95% CI 2.7–46.1%)']);
  assert.deepEqual(rows[5].split('\t'), ['∞ req/s', '2,000', '1,015', '18,107.32 ms', '17,419.66 ms', 'no clear difference', '3.80% (95% CI −1.1 to 8.4%)']);
  const tpot = (await page.locator('figure.data-table', { hasText: 'Mean TPOT' }).locator('tbody tr').allInnerTexts()).map((r) => r.replace(/\n/g, ' '));
  assert.deepEqual(tpot[3].split('\t'), ['30 req/s', '3,600', '3,600', '90.01 ms', '129.65 ms', 'vLLM', '30.57% (95% CI 29.7–31.4%)']);
  // The summary marks one best cell per row.
  const summary = page.locator('figure.data-table', { hasText: 'side by side' });
  assert.equal(await summary.locator('td.best').count(), 6);
  // Inline values: the number, and its source on hover.
  const value = page.locator('.value', { hasText: '45.04 ms' }).first();
  assert.match(await value.getAttribute('title'), /Mean TTFT of vLLM at 1 req\/s \(vllm-vs-sglang\/.*\.jsonl:\d+\)/);
  assert.equal(await page.locator('.value-error, .value-contradicted').count(), 0);
  await summary.scrollIntoViewIfNeeded();
  await screenshot(page, 'report-tables', { fullPage: false });
  assert.deepEqual(page.errors, []);
});

test('the production-stack blog report computes every headline number and flags where the blog disagrees', async () => {
  const page = await site.page();
  await page.goto(`${site.url}production-inference-stack/`);
  await chartsReady(page, 60000);
  const charts = await page.locator('figure.chart canvas').count();
  assert.ok(charts >= 10, `${charts} charts`);
  for (let i = 0; i < charts; i++) {
    const ink = await inkRatio(page, `figure.chart >> nth=${i} >> canvas`);
    assert.ok(ink > 0.02, `chart ${i} is blank (${(ink * 100).toFixed(2)}% ink)`);
  }
  const values = (await page.locator('.prose .value').allInnerTexts()).map((t) => t.trim());
  for (const figure of ['13x', '85.1 tok/s', '6.6 tok/s', '406 ms', '5,028 ms', '408 ms', '1,048 ms', '100%', '10.0', '2.0', '37 tok/s', '26 tok/s']) {
    assert.ok(values.includes(figure), `${figure} is not among the computed values: ${values.join(' | ')}`);
  }
  // Where the blog's prose and its own reports disagree, the page says so next to the figure.
  const contradicted = await page.locator('.value-contradicted').allInnerTexts();
  assert.ok(contradicted.some((t) => t.includes('~75%') && t.includes('data: 40%')), contradicted.join(' | '));
  // The blog's 64.7% is the load test's total over the whole sweep: computed, and it agrees.
  assert.ok(values.includes('64.7%'), values.join(' | '));
  assert.equal(await page.locator('.value-error').count(), 0);
  // Every computed figure names its source file and line.
  const title = await page.locator('.prose .value', { hasText: '85.1 tok/s' }).first().getAttribute('title');
  assert.match(title, /production-stack\/deepseek-v2-lite-disagg-concurrency\.csv:\d+/);
  await screenshot(page, 'production-stack');
  assert.deepEqual(page.errors, []);
});

test('the latency report draws every chart and its computed tables; its contents scroll to numbered sections', async () => {
  const page = await site.page();
  await page.goto(`${site.url}latency-analysis/`);
  await chartsReady(page);
  // Every chart of the synthetic latency report is drawn, and its computed figures are there.
  const charts = await page.locator('figure.chart canvas').count();
  assert.ok(charts >= 5, `${charts} charts`);
  for (let i = 0; i < charts; i++) {
    const ink = await inkRatio(page, `figure.chart >> nth=${i} >> canvas`);
    assert.ok(ink > 0.02, `chart ${i} is blank (${(ink * 100).toFixed(2)}% ink)`);
  }
  const sla = page.locator('figure.data-table', { hasText: 'Service-level targets' });
  assert.equal(await sla.locator('td.pass, td.fail, td.unclear').count(), 6);
  // Three values whose 95% interval holds their target: neither met nor missed, and said so.
  assert.equal(await sla.locator('td.unclear').count(), 3);
  assert.match(await sla.locator('p.table-caption').innerText(), /≈: the value's 95% interval holds the target/);
  assert.ok((await page.locator('.prose .value', { hasText: 'requests per day' }).count()) === 2);
  assert.equal(await page.locator('.value-error').count(), 0);
  const links = page.locator('nav.toc a');
  assert.ok((await links.count()) >= 5);
  assert.match(await links.first().innerText(), /^1 Why the mean is not enough$/);
  const capacity = links.filter({ hasText: 'Capacity' });
  await capacity.click();
  await page.waitForFunction(() => window.scrollY > 500);
  const top = await page.locator('h2#capacity').evaluate((h) => h.getBoundingClientRect().top);
  assert.ok(top >= -2 && top < 200, `the section starts at ${top}px`);
  assert.equal(new URL(page.url()).pathname, `${BASE}latency-analysis/`, 'still on the report');
  assert.deepEqual(page.errors, []);
});

test('the decision wizard answers guided questions and ranks setups by the reader\'s SLAs and weights, in the URL', async () => {
  const page = await site.page();
  await page.goto(`${site.url}production-inference-stack/`);
  await chartsReady(page, 60000);
  const wizard = page.locator('section.wizard');
  await wizard.scrollIntoViewIfNeeded();
  // Guided: cost-sensitive, bursty traffic -> Modal + LMCache, with figures from the data.
  await wizard.locator('button.answer', { hasText: 'Yes' }).first().click();
  await wizard.locator('button.answer', { hasText: 'Yes, bursty' }).click();
  const pick = wizard.locator('.recommendation');
  assert.match(await pick.innerText(), /Recommended: LLaMA 3\.1-8B \+ LMCache \(Modal\)/);
  assert.match(await pick.innerText(), /1,048 ms/);
  await addressParam(page, 'answers', '0,0');
  // Back, then the other branch by keyboard: no, neither -> DeepSeek disaggregated.
  await wizard.locator('button', { hasText: 'Restart' }).click();
  await wizard.locator('button.answer', { hasText: 'No' }).first().focus();
  await page.keyboard.press('Enter');
  await wizard.locator('button.answer', { hasText: 'Neither' }).click();
  assert.match(await pick.innerText(), /DeepSeek-V2-Lite, disaggregated/);
  // Requirements: equal weights tie; weighting max stable load picks DeepSeek disaggregated.
  assert.match(await wizard.locator('.verdict').innerText(), /tie/);
  assert.match(await wizard.locator('ul.rejected').innerText(), /no disaggregation: Success rate is 78% at load 5/);
  const stable = wizard.getByLabel('Weight of Max stable load');
  await stable.fill('3');
  assert.match(await wizard.locator('.verdict').innerText(), /^DeepSeek-V2-Lite, disaggregated ranks first/);
  assert.equal(await wizard.locator('table.ranking tbody tr').count(), 2);
  // The state is in the URL: a reload gives the same answer.
  await addressParam(page, 'weights', /./);
  await page.reload();
  await chartsReady(page, 60000);
  assert.match(await page.locator('section.wizard .verdict').innerText(), /^DeepSeek-V2-Lite, disaggregated ranks first/);
  assert.match(await page.locator('section.wizard .recommendation').innerText(), /DeepSeek-V2-Lite, disaggregated/);
  await page.locator('section.wizard').screenshot({ path: path.resolve(process.env.BENCHDECK_SCREENSHOTS ?? '../../target/e2e', 'wizard.png') });
  assert.deepEqual(page.errors, []);
});

test('a reader puts in their own prices: every cost figure, the cost chart and the table follow, kept in the URL', async () => {
  const page = await site.page();
  await page.goto(`${site.url}production-inference-stack/`);
  await chartsReady(page, 60000);
  const panel = page.locator('section.prices');
  // The editor sits under the cost chart, one row per priced configuration, at the stated rates.
  assert.equal(await page.locator('#chart-cost-per-million + section.prices').count(), 1);
  const inputs = panel.locator('input');
  assert.deepEqual(await inputs.evaluateAll((all) => all.map((i) => i.value)), ['0.000306', '1.418', '1.418']);
  assert.match(await panel.innerText(), /per GPU-hour × 4 GPUs\s+\$5\.67/);
  const qwen = page.locator('.prose .value [data-price="qwen-rayserve-sharegpt"]').first();
  assert.equal(await qwen.innerText(), '$1.23 per million output tokens');
  const deepseek = page.locator('.prose .value [data-price="deepseek-disagg-sharegpt"]').first();
  assert.equal(await deepseek.innerText(), '$4.68 per million output tokens');
  const ratio = page.locator('.prose [data-compare="ratio"][data-price-a="deepseek-disagg-sharegpt"]').first();
  assert.equal(await ratio.innerText(), '3.81x');
  // Twice Qwen's rate: its figure doubles, DeepSeek's stays, the ratio of the two halves, the
  // address keeps the rate.
  await inputs.nth(1).fill('2.836');
  assert.equal(await qwen.innerText(), '$2.46 per million output tokens');
  assert.equal(await deepseek.innerText(), '$4.68 per million output tokens');
  assert.equal(await ratio.innerText(), '1.91x');
  assert.match(await panel.innerText(), /\$2\.84\b/);
  await addressParam(page, 'price.qwen-rayserve-sharegpt', '2.836');
  // The chart is redrawn at that rate: Qwen's point at concurrency 64 reads 2.46.
  const canvas = page.locator('#chart-cost-per-million canvas');
  await canvas.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  const tooltip = await page.locator('#chart-cost-per-million .chart-tooltip').innerText();
  assert.match(tooltip, /Qwen2\.5-7B, ShareGPT run/);
  assert.match(tooltip, /\$2\.46\/1M tok/);
  // Not a price: said so next to the field, the last valid rate still applies.
  await inputs.nth(1).fill('-3');
  assert.equal(await inputs.nth(1).getAttribute('aria-invalid'), 'true');
  assert.match(await panel.locator('[role="alert"]').innerText(), /Expected a positive number of dollars/);
  assert.equal(await qwen.innerText(), '$2.46 per million output tokens');
  // A reload (or a shared link) shows the reader's rates.
  await page.reload();
  await chartsReady(page, 60000);
  assert.equal(await qwen.innerText(), '$2.46 per million output tokens');
  assert.equal(await inputs.nth(1).inputValue(), '2.836');
  // Back to the report's prices: the figures and the address as published.
  await panel.locator('button', { hasText: "Use the report's prices" }).click();
  assert.equal(await qwen.innerText(), '$1.23 per million output tokens');
  assert.equal(await ratio.innerText(), '3.81x');
  await addressParam(page, 'price.qwen-rayserve-sharegpt', null);
  // The summary table marks the cheapest again: Qwen at ten times its rate is no longer it.
  const table = page.locator('figure.data-table', { hasText: 'at its cheapest' });
  const costRow = table.locator('tbody tr', { hasText: 'Cost per 1M output tokens' });
  const bestFor = table.locator('tr.best-for td');
  assert.match(await costRow.locator('td.best').innerText(), /^\$1\.23\/1M tok/);
  assert.match(await bestFor.nth(0).innerText(), /Cost per 1M output tokens/);
  await inputs.nth(1).fill('14.18');
  assert.match(await costRow.locator('td.best strong').innerText(), /^\$4\.68\/1M tok/);
  assert.equal(await costRow.locator('td.best').count(), 1);
  assert.doesNotMatch(await bestFor.nth(0).innerText(), /Cost per 1M output tokens/);
  assert.match(await bestFor.nth(1).innerText(), /Cost per 1M output tokens/);
  // The head-to-head of costs judges each concurrency again: at concurrency 64 DeepSeek is now
  // the cheaper, by (12.29 - 4.68) / 12.29; its figures keep their two decimals.
  const versus = page.locator('figure.data-table[data-versus]');
  const at64 = versus.locator('tbody tr', { hasText: 'concurrency 64' }).locator('td');
  assert.deepEqual(await at64.allInnerTexts(),
    ['$12.29/1M tok', '$4.68/1M tok', 'DeepSeek-V2-Lite disaggregated, ShareGPT run', '61.89%']);
  assert.equal(await versus.locator('strong').count(), 0, 'a head-to-head names its winner, bolds none');
  await panel.locator('button', { hasText: "Use the report's prices" }).click();
  assert.deepEqual(await at64.allInnerTexts(),
    ['$1.23/1M tok', '$4.68/1M tok', 'Qwen2.5-7B, ShareGPT run', '73.76%']);
  assert.deepEqual(page.errors, []);
});

test('a report of many configurations filters them by engine, model and hardware on every chart and table, kept in the URL', async () => {
  const page = await site.page();
  await page.goto(`${site.url}production-inference-stack/`);
  await chartsReady(page, 60000);
  const panel = page.locator('section.filters');
  assert.match(await panel.locator('.filters-count').innerText(), /7 of 7/);
  assert.deepEqual(await panel.locator('.filter-facet .facet-name').allInnerTexts(), ['Engine', 'Model', 'Hardware']);
  const cost = '#chart-cost-per-million';
  await drawn(page, `${cost} canvas`);
  const before = await visitedPoints(page, cost);
  const llama = page.locator(`${cost} .legend-item`, { hasText: 'LLaMA 3.1-8B + LMCache (Modal)' });
  const table = page.locator('figure.data-table', { hasText: 'at its cheapest' });
  const llamaColumn = table.locator('thead th', { hasText: 'LLaMA 3.1-8B + LMCache (Modal)' });
  assert.equal(await llamaColumn.isVisible(), true);
  // Modal's hardware off: LLaMA leaves every chart and table; the others stay.
  await panel.locator('button.filter-value', { hasText: 'A10G (Modal)' }).click();
  assert.match(await panel.locator('.filters-count').innerText(), /6 of 7/);
  await addressParam(page, 'hide.hardware', 'A10G (Modal)');
  assert.equal(await llama.getAttribute('aria-pressed'), 'false');
  assert.equal(await llama.isDisabled(), true);
  assert.equal(await llamaColumn.isVisible(), false);
  assert.equal(await table.locator('tbody tr >> nth=0 >> td[hidden]').count(), 1);
  assert.ok((await visitedPoints(page, cost)) < before, 'LLaMA\'s points are gone from the chart');
  // By keyboard: the engine of DeepSeek's disaggregated runs off too.
  await panel.locator('button.filter-value', { hasText: 'disaggregated' }).focus();
  await page.keyboard.press('Enter');
  assert.match(await panel.locator('.filters-count').innerText(), /4 of 7/);
  // A reload shows the same selection; "Show all" brings everything back.
  await page.reload();
  await chartsReady(page, 60000);
  assert.match(await panel.locator('.filters-count').innerText(), /4 of 7/);
  assert.equal(await llamaColumn.isVisible(), false);
  await panel.locator('button', { hasText: 'Show all' }).click();
  assert.match(await panel.locator('.filters-count').innerText(), /7 of 7/);
  assert.equal(await llamaColumn.isVisible(), true);
  await addressParam(page, 'hide.hardware', null);
  assert.deepEqual(page.errors, []);
});

test('the guided questions are drawn as a flowchart with the path taken highlighted', async () => {
  const views = [
    { name: 'light', colorScheme: 'light' },
    { name: 'dark', colorScheme: 'dark' },
    { name: 'narrow', colorScheme: 'light', viewport: { width: 390, height: 844 } },
    { name: 'narrow-dark', colorScheme: 'dark', viewport: { width: 390, height: 844 } },
  ];
  for (const { name, colorScheme, viewport } of views) {
    const page = await site.page({ colorScheme, viewport });
    await page.goto(`${site.url}production-inference-stack/`);
    await chartsReady(page, 60000);
    const wizard = page.locator('section.wizard');
    const svg = wizard.locator('figure.tree-diagram svg[role="img"]');
    // Before any answer, the start is where the reader is.
    assert.equal(await svg.locator('[aria-current="step"]').getAttribute('data-node'), 'cost');
    // Not cost-sensitive, needs tool calling -> Qwen on Anyscale.
    await wizard.locator('button.answer', { hasText: 'No' }).first().click();
    await wizard.locator('button.answer', { hasText: 'Tool calling' }).click();
    const marked = (selector) => svg.locator(selector).evaluateAll((gs) => gs.map((g) => g.dataset.node ?? g.dataset.edge).sort());
    assert.deepEqual(await marked('g.node.on-path'), ['cost', 'need', 'qwen-tools']);
    assert.deepEqual(await marked('g.edge.on-path'), ['cost#1', 'need#1']);
    assert.deepEqual(await marked('[aria-current]'), ['qwen-tools']);
    assert.match(await svg.locator('[aria-current]').getAttribute('class'), /\bkind-recommendation\b.*\bcurrent\b/);
    assert.equal(await svg.locator('g.node').count(), 8, 'every node drawn once');
    assert.match(
      await svg.getAttribute('aria-label'),
      /Path taken: Is cost your main concern\? No\. What do you need most\? Tool calling\. Recommendation reached: Qwen2\.5-7B \(Ray Serve\)\./,
    );
    // Every text stays inside its box, as the browser measures it.
    const overflowing = await svg.evaluate((root) => {
      const out = [];
      for (const g of root.querySelectorAll('g.node, g.answer')) {
        const box = g.querySelector('rect').getBBox();
        const text = g.querySelector('text').getBBox();
        if (text.x < box.x || text.y < box.y || text.x + text.width > box.x + box.width || text.y + text.height > box.y + box.height) {
          out.push(`${g.textContent}: text ${Math.round(text.width)}×${Math.round(text.height)} in box ${box.width}×${box.height}`);
        }
      }
      return out;
    });
    assert.deepEqual(overflowing, []);
    // The drawing never widens the page; on a narrow screen its own box scrolls.
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(sideways <= 0, `${name}: page scrolls sideways by ${sideways}px`);
    const figure = wizard.locator('figure.tree-diagram');
    await figure.scrollIntoViewIfNeeded();
    await figure.screenshot({ path: path.resolve(process.env.BENCHDECK_SCREENSHOTS ?? '../../target/e2e', `tree-${name}.png`) });
    if (name === 'light') {
      // A question on the path goes back to it when clicked.
      await svg.locator('g.node[data-node="need"]').click();
      assert.deepEqual(await marked('[aria-current]'), ['need']);
      assert.deepEqual(await marked('g.edge.on-path'), ['cost#1']);
      assert.match(await wizard.locator('fieldset.question legend').innerText(), /What do you need most\?/);
      await figure.screenshot({ path: path.resolve(process.env.BENCHDECK_SCREENSHOTS ?? '../../target/e2e', 'tree-light-asking.png') });
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

// Under `/` only: the pages under `/benchdeck/` are the same pages (CI time).
test('no report has a serious or critical accessibility violation once the app runs, light and dark', { skip: BASE !== '/' && 'checked under / only' }, async () => {
  for (const slug of [REPORT, 'production-inference-stack', 'latency-analysis', 'week-2-baseline', 'model-distributions', 'nightly-regressions']) {
    for (const [colorScheme, width] of [['light', 1280], ['dark', 390]]) {
      const page = await site.page({ colorScheme, viewport: { width, height: 900 } });
      await page.goto(`${site.url}${slug}/`);
      await chartsReady(page, 60000, { all: false });
      assert.deepEqual(await seriousViolations(page), [], `${slug} (${colorScheme}, ${width} px)`);
      await page.close();
    }
  }
});

test('a narrow screen gets charts that fit', async () => {
  // Every default report: charts, tables, Markdown tables and the wizard stay within the screen.
  for (const slug of [REPORT, 'production-inference-stack', 'latency-analysis', 'week-2-baseline', 'model-distributions', 'nightly-regressions']) {
    const page = await site.page({ viewport: { width: 390, height: 844 } });
    await page.goto(`${site.url}${slug}/`);
    await chartsReady(page, 60000);
    const widths = await page.$$eval('figure.chart canvas', (cs) => cs.map((c) => c.getBoundingClientRect().width));
    for (const w of widths) assert.ok(w <= 390, `${slug}: canvas ${w}px wider than the screen`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${slug}: page scrolls sideways by ${overflow}px`);
    if (slug === REPORT) await screenshot(page, 'report-narrow');
    assert.deepEqual(page.errors, []);
  }
});

test('charts follow the window: resizing it redraws each chart to its new width', async () => {
  const page = await site.page({ viewport: { width: 1200, height: 900 } });
  await page.goto(`${site.url}${REPORT}/`);
  await chartsReady(page);
  // Each canvas drawn (its own pixel size, not only squeezed by CSS) at its container's width.
  const fitted = () => page.evaluate(() => [...document.querySelectorAll('.chart-canvas')].every((box) => {
    const canvas = box.querySelector('canvas');
    return Math.abs(parseFloat(canvas.style.width) - Math.max(280, Math.floor(box.getBoundingClientRect().width))) <= 1;
  }));
  const widths = () => page.$$eval('figure.chart canvas', (cs) => cs.map((c) => c.style.width));
  assert.ok(await fitted());
  const wide = await widths();
  await page.setViewportSize({ width: 500, height: 900 });
  await page.waitForFunction(() => [...document.querySelectorAll('figure.chart canvas')]
    .every((c) => parseFloat(c.style.width) <= 500));
  assert.ok(await fitted());
  const narrow = await widths();
  assert.equal(narrow.length, wide.length);
  assert.notDeepEqual(narrow, wide);
  const ink = await inkRatio(page, 'figure.chart >> nth=0 >> canvas');
  assert.ok(ink > 0.02, `the first chart is blank after the resize (${ink})`);
  assert.deepEqual(page.errors, []);
});

test('charts follow the reader switching to dark mode with the page open', async () => {
  const page = await site.page({ colorScheme: 'light' });
  await page.goto(`${site.url}${REPORT}/`);
  await chartsReady(page);
  // The colour of the chart's first pixel: the plot's background.
  const corner = () => page.$eval('figure.chart canvas', (c) => [...c.getContext('2d').getImageData(0, 0, 1, 1).data]);
  const light = await corner();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction((before) => {
    const now = document.querySelector('figure.chart canvas').getContext('2d').getImageData(0, 0, 1, 1).data;
    return now[0] !== before[0];
  }, light);
  const dark = await corner();
  assert.ok(dark[0] + dark[1] + dark[2] < light[0] + light[1] + light[2], `${light} then ${dark}`);
  assert.deepEqual(page.errors, []);
});

test('unknown addresses route back into the app', async () => {
  for (const address of ['no-such-report/', 'no-such-page', 'a/b/c']) {
    const page = await site.page();
    const url = `${site.url}${address}`;
    const response = await page.goto(url);
    assert.equal(response.status(), 404, 'the host answers 404, as GitHub Pages does');
    await page.locator('h1', { hasText: 'Page not found' }).waitFor();
    await chartsReady(page);
    const link = page.locator('.not-found a');
    assert.equal(await link.getAttribute('href'), BASE);
    // The browser logs the document's own 404; nothing else may fail.
    const others = page.errors.filter((e) => !e.endsWith(`(${url})`));
    assert.deepEqual(others, []);
  }
});

test('a deep link survives a reload', async () => {
  const page = await site.page();
  await page.goto(`${site.url}${REPORT}/`);
  await chartsReady(page);
  await page.reload();
  await chartsReady(page);
  await page.locator('h1', { hasText: 'Inference Framework Benchmarks' }).waitFor();
  assert.equal(await page.locator('figure.chart canvas').count(), 16);
  assert.deepEqual(page.errors, []);
});

test('a report page downloads its data once, asked for by the page before the app starts', async () => {
  const page = await site.page();
  const requests = [];
  const warnings = [];
  page.on('request', (r) => { if (r.url().endsWith('.bin')) requests.push(r.url()); });
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  await page.goto(`${site.url}${REPORT}/`);
  await chartsReady(page);
  assert.deepEqual(requests, [`${site.url}data/reports/${REPORT}.bin`]);
  // Its download started before the app's wasm had even arrived.
  const timing = await page.evaluate(() => {
    const entry = (end) => performance.getEntriesByType('resource').find((r) => r.name.endsWith(end));
    return { data: entry('.bin').startTime, wasm: entry('_bg.wasm').responseEnd };
  });
  assert.ok(timing.data < timing.wasm, JSON.stringify(timing));
  // The preload's credentials match the app's fetch, so the browser used it (Chromium warns
  // of a preloaded resource left unused, naming it).
  assert.deepEqual(warnings.filter((w) => w.includes('.bin')), []);
  assert.deepEqual(page.errors, []);
});

test('following a link from the home page opens the report', async () => {
  const page = await site.page();
  await page.goto(site.url);
  await chartsReady(page);
  await page.locator('.report-card h2 a', { hasText: 'vLLM vs SGLang' }).click();
  await page.waitForURL(`${site.url}${REPORT}/`);
  await page.locator('h1', { hasText: 'Inference Framework Benchmarks' }).waitFor();
  await page.locator('figure.chart canvas').first().waitFor();
  const ink = await inkRatio(page, 'figure.chart >> nth=0 >> canvas');
  assert.ok(ink > 0.02, `chart is blank after client-side navigation (${ink})`);
  assert.deepEqual(page.errors, []);
});

test('data that cannot be loaded or read gives a readable error panel above the build\'s page, which still reads', async () => {
  const cases = [
    { body: '{"summary": {"slug": "x"', status: 200, expect: /expected data written by `benchdeck [^`]+`, found something else; rebuild the site/ },
    { body: 'boom', status: 500, expect: /the server answered 500/ },
    { body: Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3]), status: 200, expect: /the data is damaged: it does not decompress \(cut short, or changed after the build\); rebuild the site/ },
    // A site published in part: the page is there, its data is not; on an embed page too.
    { body: 'gone', status: 404, expect: /not found \(404\): the site was published without this page's data/ },
    { body: 'gone', status: 404, expect: /published without this page's data/, at: `embed/${REPORT}/mean-ttft/` },
  ];
  for (const { body, status, expect, at = `${REPORT}/` } of cases) {
    const page = await site.page();
    await page.route(`**/data/reports/${REPORT}.bin`, (route) =>
      route.fulfill({ status, body, contentType: 'application/octet-stream' }));
    await page.goto(`${site.url}${at}`);
    const panel = page.locator('.error-panel');
    await panel.waitFor();
    const text = await panel.innerText();
    assert.match(text, new RegExp(`data/reports/${REPORT}\\.bin`), 'the panel names the file');
    assert.match(text, expect);
    // The charts keep the build's drawings: no canvas is drawn without the data.
    await chartsReady(page, 20000, { all: false });
    assert.ok(await page.locator('figure.chart .chart-image svg').count() > 0, 'the build\'s drawings are gone');
    if (!at.startsWith('embed/')) assert.ok(await page.locator('.prose').count() > 0, 'the narrative is gone');
    const allowed = page.errors.filter((e) => !e.includes(`data/reports/${REPORT}.bin`));
    assert.deepEqual(allowed, []);
  }
});

test('a grid shows its panels side by side and offers the whole grid as one SVG', async () => {
  const page = await site.page();
  await page.goto(`${site.url}${REPORT}/`);
  await chartsReady(page);
  const grid = page.locator('section.chart-grid[data-grid="at-a-glance"]');
  const panels = grid.locator('figure.chart');
  assert.equal(await panels.count(), 4);
  const boxes = await Promise.all([0, 1].map((i) => panels.nth(i).boundingBox()));
  assert.ok(Math.abs(boxes[0].y - boxes[1].y) < 2 && boxes[1].x > boxes[0].x + 100, 'two panels per row');
  for (let i = 0; i < 4; i++) {
    const ink = await inkRatio(page, `section.chart-grid >> figure.chart >> nth=${i} >> canvas`);
    assert.ok(ink > 0.02, `panel ${i} is blank`);
  }
  // The panels draw the same two engines: one legend under the grid serves them all, and
  // hiding vLLM there hides it in every panel, kept in each panel's view in the address.
  assert.equal(await panels.locator('.chart-legend').count(), 0, 'no legend per panel');
  const legend = grid.locator('.grid-legend .legend-item');
  assert.deepEqual((await legend.allInnerTexts()).map((t) => t.trim()), ['vLLM', 'SGLang']);
  const ids = await panels.evaluateAll((figures) => figures.map((f) => f.dataset.chart));
  const points = [];
  for (const id of ids) points.push(await visitedPoints(page, `figure.chart[data-chart="${id}"]`));
  await legend.first().click();
  assert.equal(await legend.first().getAttribute('aria-pressed'), 'false');
  for (const [i, id] of ids.entries()) {
    await addressParam(page, `chart-${id}`, /h1/);
    const left = await visitedPoints(page, `figure.chart[data-chart="${id}"]`);
    assert.equal(left * 2, points[i], `panel ${id}: ${left} of its ${points[i]} points left`);
  }
  await page.reload();
  await chartsReady(page);
  assert.equal(await legend.first().getAttribute('aria-pressed'), 'false', 'a reload keeps it hidden');
  await legend.first().click();
  for (const id of ids) await addressParam(page, `chart-${id}`, null);
  const href = await grid.locator('a.tool', { hasText: 'Whole grid' }).getAttribute('href');
  const svg = await page.request.get(new URL(href, site.url).toString());
  assert.equal(svg.status(), 200);
  assert.match(await svg.text(), /Median TPOT/);
  await grid.screenshot({ path: `${process.env.BENCHDECK_SCREENSHOTS ?? '../../target/e2e'}/grid.png` });
  assert.deepEqual(page.errors, []);
});

test('a page whose app cannot be downloaded says so above it, and still reads as published', async () => {
  const page = await site.page();
  await page.route(/benchdeck-app-[0-9a-f]+_bg\.wasm$/, (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.goto(`${site.url}${REPORT}/`);
  const alert = page.locator('#main > #app-failed[role="alert"]');
  await alert.waitFor({ timeout: 20000 });
  const text = await alert.innerText();
  assert.match(text, /This page's charts and controls did not start/);
  assert.match(text, /could not be loaded \(the server answered 404 for .*benchdeck-app-[0-9a-f]+_bg\.wasm\)\. Reload the page to try again\./s);
  // Everything the build wrote is there, and nothing crashed.
  await page.locator('h1', { hasText: 'Inference Framework Benchmarks' }).waitFor();
  assert.equal(await page.locator('figure.chart .chart-image svg.widest').count(), 16);
  assert.equal(await page.locator('.error-panel.fatal').count(), 0);
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains('live')), false);
  await screenshot(page, 'app-failed', { fullPage: false });
  assert.deepEqual(page.errors.filter((e) => !/_bg\.wasm|status of 404/.test(e)), []);
});
