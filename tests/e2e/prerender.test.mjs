// Pages are complete before any script runs: read with JavaScript off (text, tables, inline
// values, the wizard's recommendation, every chart as an inline drawing with its label and its CSV),
// the same text once the app has taken over, nothing moving when it does, and a clean print.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { siteUnderTest, BASE, REPORT } from './lib/site.mjs';
import { chartsReady, drawAll, screenshot } from './lib/browser.mjs';
import { seriousViolations, withoutTheApp } from './lib/axe.mjs';

const site = siteUnderTest();

/// Every page worth reading: the home page, each report, one chart's embed page, the dropped
/// files' page and the 404 page.
async function routes() {
  const page = await site.pageWithoutScripts();
  await page.goto(site.url);
  const reports = await page.locator('.report-card h2 a').evaluateAll((links) =>
    links.map((a) => new URL(a.href).pathname));
  await page.close();
  assert.equal(reports.length, 6, `reports linked from the home page: ${reports}`);
  const relative = (p) => p.slice(BASE.length);
  return ['', ...reports.map(relative), `embed/${REPORT}/at-a-glance-1/`, 'local/', 'no-such-page/'];
}

/// Each chart's build drawing as shown: how many of its drawings (wide, medium, small, narrow) are
/// shown, which one it is, whether it sits in a grid's panel, its box's width, how much of the
/// box's height and of its area it fills, its smallest text in screen pixels, its label and marks.
async function shownDrawings(page) {
  return page.locator('figure.chart .chart-image').evaluateAll((images) => images.map((image) => {
    const shown = [...image.querySelectorAll('svg')].filter((svg) => getComputedStyle(svg).display !== 'none');
    const svg = shown[0];
    const [, , w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
    const box = image.getBoundingClientRect();
    const scale = Math.min(box.width / w, box.height / h);
    const tick = Math.min(...[...svg.querySelectorAll('text')].map((t) => Number(t.getAttribute('font-size'))));
    return {
      shown: shown.length,
      drawing: svg.classList[0],
      panel: image.closest('.grid-panels') !== null,
      box: box.width,
      fill: (h * scale) / box.height,
      area: (w * scale * h * scale) / (box.width * box.height),
      text: tick * scale,
      height: svg.getBoundingClientRect().height,
      label: svg.getAttribute('aria-label'),
      shapes: svg.querySelectorAll('polyline, rect, circle, line, path, polygon').length,
    };
  }));
}

/// The visible text of the page's app root, without the controls that only exist with
/// JavaScript (`.js-only`) and the text inside the build's chart drawings (the canvases replace
/// them; both carry the same label), whitespace folded.
async function visibleText(page) {
  return page.evaluate(() => {
    const root = document.getElementById('app').cloneNode(true);
    root.querySelectorAll('.js-only, .chart-image').forEach((e) => e.remove());
    const holder = document.createElement('div');
    holder.style.cssText = 'position:absolute;left:-99999px;width:1200px';
    holder.append(root);
    document.body.append(holder);
    const text = holder.innerText.replace(/\s+/g, ' ').trim();
    holder.remove();
    return text;
  });
}

test('without JavaScript a report reads completely: narrative, tables, values, wizard, charts drawn inline with their data', async () => {
  const page = await site.pageWithoutScripts();
  const response = await page.goto(`${site.url}${REPORT}/`);
  assert.equal(response.status(), 200);
  assert.equal(await page.locator('h1').innerText(), 'Inference Framework Benchmarks: vLLM vs SGLang');
  assert.match(await page.locator('.prose').first().innerText(), /vllm bench serve/);
  // The summary tables, as seed 002 printed them.
  const ttft = page.locator('figure.data-table', { hasText: 'Mean TTFT: vLLM vs SGLang' });
  // An interval sits on the line under its value: the cells' text with its lines joined.
  const rows = (await ttft.locator('tbody tr').allInnerTexts()).map((r) => r.replace(/\n/g, ' '));
  // Each verdict with the 95% interval of the gap (Welch's, from each row's mean, standard
  // deviation and count); at ∞ req/s the interval includes none.
  assert.deepEqual(rows[0].split('\t'), ['1 req/s', '120', '120', '45.04 ms', '64.88 ms', 'vLLM', '30.58% (95% CI 2.7–46.1%)']);
  assert.deepEqual(rows[5].split('\t').slice(5), ['no clear difference', '3.80% (95% CI −1.1 to 8.4%)']);
  // One sentence above the table says the same, in words a reader can repeat.
  assert.equal(await page.locator('p.table-lead').first().innerText(),
    'vLLM is faster from 1 req/s to 35 req/s (by 12.7–51.3%); at saturation there is no clear difference.');
  // A scorecard opens at the author's target, and the reader may read it at another, without
  // JavaScript too: one variant shown at a time.
  const card = page.locator('.scorecard');
  const shown = () => card.locator('.scorecard-variant:visible figcaption').allInnerTexts();
  assert.deepEqual(await shown(), ['At 40 tok/s per user']);
  await card.locator('label', { hasText: /^30 tok\/s\/user$/ }).click();
  assert.deepEqual(await shown(), ['At 30 tok/s per user']);
  assert.match(await card.locator('.scorecard-variant:visible p.table-lead').innerText(), /^At 30 tok\/s per user, Output throughput: /);
  // Inline values are computed numbers in the text.
  assert.ok(await page.locator('.prose .value').count() > 0, 'inline values');
  // Every chart is the build's drawing, inline, at its final size, labelled with what it shows.
  const drawings = await shownDrawings(page);
  assert.equal(drawings.length, 16);
  for (const { shown, label, height, shapes } of drawings) {
    assert.equal(shown, 1, `${label}: one drawing shown`);
    assert.match(label, /(chart|plot|distribution|Histogram) of .+ (against|series|:)/i, label);
    assert.ok(height >= 140, `the drawing has its final height (${height}px)`);
    assert.ok(shapes > 5, `the drawing has its marks (${shapes})`);
  }
  assert.equal(await page.locator('figure.chart .chart-image img').count(), 0, 'no image requests for charts');
  // The controls that need the app take no room: no empty row stands where they would be.
  const appControls = await page.locator('.js-only').evaluateAll((all) =>
    all.map((e) => ({ display: getComputedStyle(e).display, height: e.getBoundingClientRect().height })));
  assert.ok(appControls.length > 0, 'the report has controls that need the app');
  assert.deepEqual(appControls.filter((c) => c.display !== 'none' || c.height > 0), []);
  // Each chart links to its data, which the host serves.
  const csv = page.locator('figure.chart .chart-tools a', { hasText: 'CSV' });
  assert.equal(await csv.count(), 16);
  const csvResponse = await page.request.get(new URL(await csv.first().getAttribute('href'), site.url).href);
  assert.equal(csvResponse.status(), 200);
  assert.match(await csvResponse.text(), /^series,x,x_label,y,ci_low,ci_high,unit,source,note/);
  // The wizard shows the published recommendation, its controls disabled.
  const wizard = page.locator('.wizard');
  assert.match(await wizard.locator('.verdict').innerText(), /\S/);
  assert.ok(await wizard.locator('table.ranking tbody tr').count() >= 2);
  assert.ok(await wizard.locator('fieldset[disabled]').count() >= 1);
  // Contents links stay on the page.
  const toc = await page.locator('.toc a').first().getAttribute('href');
  assert.ok(toc.startsWith(`${BASE}${REPORT}/#`), toc);
  for (const colorScheme of ['light', 'dark']) {
    for (const width of [1280, 390]) {
      const shot = await site.pageWithoutScripts({ colorScheme, viewport: { width, height: 900 } });
      await shot.goto(`${site.url}${REPORT}/`);
      // Readers in dark mode get the charts in the dark theme: the stylesheet recolours them.
      const background = await shot.locator('figure.chart .chart-image svg rect').first()
        .evaluate((rect) => getComputedStyle(rect).fill);
      assert.equal(background, colorScheme === 'dark' ? 'rgb(22, 24, 29)' : 'rgb(255, 255, 255)');
      await screenshot(shot, `no-js-report-${colorScheme}-${width}`, { fullPage: false });
      await shot.close();
    }
  }
});

test('tables fit: at 1280 px no table of any report hides a column, and at 390 px no page scrolls sideways', async () => {
  for (const route of await routes()) {
    for (const width of [1280, 390]) {
      const page = await site.pageWithoutScripts({ viewport: { width, height: 900 } });
      await page.goto(`${site.url}${route}`);
      // Open what a reader can open, so its tables are laid out as they would be read.
      await page.evaluate(() => document.querySelectorAll('details.what-differs').forEach((d) => { d.open = true; }));
      // A table scrolls inside its figure (`display: block`), so both are measured.
      const hidden = await page.evaluate(() => [...document.querySelectorAll(
        'figure.data-table, details.what-differs .data-table')]
        .filter((box) => [box, box.querySelector('table')].some((b) => b && b.scrollWidth > b.clientWidth + 1))
        .map((box) => `${box.querySelector('figcaption')?.textContent ?? 'what differs'}: ${box.scrollWidth - box.clientWidth}px`));
      if (width === 1280) assert.deepEqual(hidden, [], `${route}: tables that scroll at 1280 px`);
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(sideways <= 0, `${route} at ${width} px: the page scrolls sideways by ${sideways}px`);
      if (width === 390) {
        // A table that scrolls on a phone keeps its row labels in view.
        const sticky = await page.evaluate(() => [...document.querySelectorAll('figure.data-table')]
          .filter((box) => [box, box.querySelector('table')].some((b) => b && b.scrollWidth > b.clientWidth + 1))
          .every((box) => { const th = box.querySelector('tbody th'); return !th || getComputedStyle(th).position === 'sticky'; }));
        assert.ok(sticky, `${route}: a scrolling table's first column is kept in view`);
      }
      await page.close();
    }
  }
});

// Under `/` only: the pages under `/benchdeck/` are the same pages (CI time).
test('no page has a serious or critical accessibility violation without JavaScript, light and dark', { skip: BASE !== '/' && 'checked under / only' }, async () => {
  for (const route of await routes()) {
    for (const [colorScheme, width] of [['light', 1280], ['dark', 390]]) {
      const page = await withoutTheApp(await site.page({ colorScheme, viewport: { width, height: 900 } }));
      await page.goto(`${site.url}${route}`);
      assert.deepEqual(await seriousViolations(page), [], `${route || 'home'} (${colorScheme}, ${width} px)`);
      await page.close();
    }
  }
});

test('without JavaScript every page has its content and its links work', async () => {
  for (const route of await routes()) {
    const page = await site.pageWithoutScripts();
    await page.goto(`${site.url}${route}`);
    const text = await visibleText(page);
    assert.ok(text.length > 40, `${route || 'home'} has text: ${text}`);
    assert.equal(await page.locator('text=Loading').count(), 0, `${route}: no loading placeholder`);
    const broken = await page.locator('img').evaluateAll((images) => images
      .filter((img) => img.loading !== 'lazy' || img.getBoundingClientRect().top < innerHeight)
      .filter((img) => img.complete && img.naturalWidth === 0).map((img) => img.src));
    assert.deepEqual(broken, [], `${route}: broken images`);
    await page.close();
  }
  // From the home page to a report by its link, with no script to route it.
  const page = await site.pageWithoutScripts();
  await page.goto(site.url);
  await page.locator('.report-card h2 a', { hasText: 'vLLM vs SGLang' }).click();
  await page.waitForURL(`**${BASE}${REPORT}/`);
  // Every chart has its drawing; the four panels of the 2×2 grid have no wide one.
  assert.equal(await page.locator('figure.chart .chart-image svg.widest').count(), 16);
  assert.equal(await page.locator('figure.chart .chart-image svg.wide').count(), 12);
  // The home page shows each report's first chart.
  await page.goto(site.url);
  assert.equal(await page.locator('.report-card .card-chart img').count(), 6);
});

test('without JavaScript every chart shows the drawing that fits its box, filling it with text that reads: on a phone, on a tablet, and in a grid\'s panels on a wide screen', async () => {
  const reports = (await routes()).filter((r) => r !== '' && !r.startsWith('embed/') && r !== 'local/' && r !== 'no-such-page/');
  assert.equal(reports.length, 6);
  let panels = 0;
  for (const width of [390, 700, 1280]) {
    for (const route of reports) {
      const page = await site.pageWithoutScripts({ viewport: { width, height: 844 } });
      await page.goto(`${site.url}${route}`);
      const charts = await shownDrawings(page);
      assert.ok(charts.length > 0, `${route}: charts`);
      for (const [i, c] of charts.entries()) {
        const at = `${route} at ${width}px, chart ${i}`;
        assert.equal(c.shown, 1, `${at}: one drawing shown`);
        // The phone-width drawing on a phone, the tablet-width one on a tablet (a grid is one
        // column there), the wide one on a desktop, where a grid's panel beside another gets the
        // 480 px drawing (or the phone's, in a box of 420 px or less: three panels abreast); a
        // panel spanning the grid's columns gets the wide one.
        const panel = c.box > 800 ? 'wide' : c.box > 420 ? 'small' : 'narrow';
        const expected = width === 390 ? 'narrow' : width === 700 ? 'medium' : c.panel ? panel : 'wide';
        assert.equal(c.drawing, expected, `${at}: the ${c.drawing} drawing in a ${c.box}px box`);
        assert.ok(c.fill > 0.8, `${at}: the drawing fills ${Math.round(c.fill * 100)}% of its box's height`);
        assert.ok(c.area > 0.8, `${at}: the drawing covers ${Math.round(c.area * 100)}% of its box`);
        assert.ok(c.text >= 9.5, `${at}: its smallest text is ${c.text.toFixed(1)} px on screen`);
        if (width === 1280 && c.panel) panels += 1;
      }
      if (width === 390 && route.startsWith('nightly')) await screenshot(page, 'nightly-phone-nojs', { fullPage: false });
      await page.close();
    }
  }
  assert.ok(panels >= 4, `grid panels seen at 1280px: ${panels}`);
});

test('a grid\'s panel, which its report\'s page carries without a wide drawing, shows its widest in a box wider than that', async () => {
  // A reader whose larger font widens the page (62rem): the panels beside each other get boxes
  // over 840 px, where a chart of its own shows its wide drawing.
  const page = await site.pageWithoutScripts({ viewport: { width: 1900, height: 900 } });
  await page.goto(`${site.url}${REPORT}/`);
  // (addStyleTag waits for a load event that a page without scripts never fires.)
  await page.evaluate(() => document.head.append(Object.assign(document.createElement('style'), { textContent: 'main { max-width: none; }' })));
  const panels = (await shownDrawings(page)).filter((c) => c.panel);
  assert.equal(panels.length, 4);
  for (const [i, c] of panels.entries()) {
    assert.ok(c.box > 840, `panel ${i}: a ${c.box}px box`);
    assert.equal(c.shown, 1, `panel ${i}: one drawing shown`);
    assert.equal(c.drawing, 'medium', `panel ${i}`);
    assert.ok(c.fill > 0.8 && c.area > 0.8, `panel ${i} fills its box`);
  }
  await page.close();
});

test('the app takes over the page the build rendered: the same text on every page', async () => {
  for (const route of await routes()) {
    const still = await site.pageWithoutScripts();
    await still.goto(`${site.url}${route}`);
    const before = await visibleText(still);
    await still.close();
    const page = await site.page();
    await page.goto(`${site.url}${route}`);
    await chartsReady(page);
    await page.waitForFunction(() => document.documentElement.classList.contains('live'));
    const after = await visibleText(page);
    assert.equal(after, before, `${route || 'home'}: the text changed when the app took over`);
    assert.deepEqual(page.errors.filter((e) => !/status of 404/.test(e)), [], route);
    await page.close();
  }
});

test('nothing moves when the app takes over: layout shift at most 0.05, the scroll position kept', async () => {
  for (const width of [1280, 390]) {
    const page = await site.page({ viewport: { width, height: 900 } });
    // Hold the app back until the reader has scrolled, as a slow network would.
    let release;
    const gate = new Promise((resolve) => { release = resolve; });
    await page.route('**/*.wasm', async (route) => { await gate; await route.continue(); });
    await page.goto(`${site.url}${REPORT}/`);
    // A reader who reached a link with Tab keeps it focused, and a data table they opened stays
    // open.
    const focused = await page.evaluate(() => {
      document.querySelector('#app figure.chart details.chart-data').open = true;
      const link = document.querySelector('#app article a[href]');
      link.focus();
      return link.outerHTML;
    });
    const heading = page.locator('h2', { hasText: 'Tail latency' });
    await heading.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -100));
    const before = await page.evaluate(() => ({ y: scrollY }));
    const top = await heading.evaluate((h) => h.getBoundingClientRect().top);
    assert.equal(await page.locator('canvas.drawn').count(), 0, 'the app has not run yet');
    await page.evaluate(() => {
      window.__shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shift += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    release();
    await chartsReady(page, 20000, { all: false });
    await page.waitForTimeout(300);
    const shift = await page.evaluate(() => window.__shift);
    console.log(`layout shift at ${width}px: ${shift}`);
    assert.ok(shift <= 0.05, `cumulative layout shift ${shift} at ${width}px`);
    assert.equal(await page.evaluate(() => scrollY), before.y, 'the scroll position is kept');
    const topAfter = await heading.evaluate((h) => h.getBoundingClientRect().top);
    assert.ok(Math.abs(topAfter - top) <= 1, `the heading moved from ${top} to ${topAfter}`);
    assert.equal(await page.evaluate(() => document.activeElement.outerHTML), focused, 'the focus is kept');
    const table = page.locator('#app figure.chart details.chart-data').first();
    assert.equal(await table.getAttribute('open'), '', 'the data table opened before stays open');
    await table.locator('tbody tr').first().waitFor({ state: 'attached' });
    // Every chart became a canvas of the image's size, in its place (once the reader comes near).
    await drawAll(page);
    const sizes = await page.locator('figure.chart .chart-canvas').evaluateAll((boxes) => boxes.map((b) => {
      const canvas = b.querySelector('canvas').getBoundingClientRect();
      const box = b.getBoundingClientRect();
      return [Math.round(box.height), Math.round(canvas.height)];
    }));
    for (const [box, canvas] of sizes) assert.ok(Math.abs(box - canvas) <= 1, `canvas ${canvas}px in a ${box}px box`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('the app leaves the home page as the build wrote it: nothing moves, its cards\' images stay the same', async () => {
  for (const width of [1280, 390]) {
    const page = await site.page({ viewport: { width, height: 900 } });
    let release;
    const gate = new Promise((resolve) => { release = resolve; });
    await page.route('**/*.wasm', async (route) => { await gate; await route.continue(); });
    await page.goto(site.url);
    await page.evaluate(() => window.scrollTo(0, 200));
    const before = await page.evaluate(() => scrollY);
    await page.evaluate(() => {
      window.__shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shift += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
      window.__images = [...document.querySelectorAll('.report-card img')];
    });
    release();
    await page.waitForFunction(() => document.documentElement.classList.contains('live'));
    await page.waitForTimeout(300);
    const shift = await page.evaluate(() => window.__shift);
    assert.ok(shift <= 0.05, `cumulative layout shift ${shift} on the home page at ${width}px`);
    assert.equal(await page.evaluate(() => scrollY), before, 'the scroll position is kept');
    const same = await page.evaluate(() => {
      const now = [...document.querySelectorAll('.report-card img')];
      return window.__images.length > 0 && now.length === window.__images.length
        && now.every((image, i) => image === window.__images[i]);
    });
    assert.ok(same, 'the cards\' images are the build\'s, not made again');
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('a report prints as a clean document: narrative, tables and charts, no controls', async () => {
  const page = await site.page();
  await page.goto(`${site.url}${REPORT}/`);
  await chartsReady(page);
  await page.emulateMedia({ media: 'print' });
  const hidden = await page.evaluate(() => ['.site-header', '.chart-tools', '.chart-controls', '.toc']
    .map((s) => [s, [...document.querySelectorAll(s)].every((e) => getComputedStyle(e).display === 'none')]));
  for (const [selector, gone] of hidden) assert.ok(gone, `${selector} is not printed`);
  assert.ok(await page.locator('figure.chart canvas.drawn').first().isVisible());
  const pdf = await page.pdf({ format: 'A4', printBackground: true });
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
  const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  assert.ok(pages >= 4, `the report printed on ${pages} pages`);
  assert.deepEqual(page.errors, []);
});

test('charts are drawn as the reader comes near them: further down, the build\'s drawing shows until then', async () => {
  const page = await site.page({ viewport: { width: 1280, height: 800 } });
  const images = [];
  page.on('request', (request) => { if (/\/charts\//.test(request.url())) images.push(request.url()); });
  await page.goto(`${site.url}${REPORT}/`);
  await chartsReady(page, 20000, { all: false });
  await page.waitForFunction(() => document.documentElement.classList.contains('live'));
  const state = () => page.locator('figure.chart').evaluateAll((figures) => figures.map((f) => ({
    drawn: f.querySelector('canvas').classList.contains('drawn'),
    top: f.getBoundingClientRect().top,
  })));
  const atLoad = await state();
  assert.ok(atLoad.some((c) => c.drawn), 'the charts in view are drawn');
  const far = atLoad.filter((c) => c.top > 800 * 2);
  assert.ok(far.length > 3, `${far.length} charts far below the fold`);
  assert.ok(far.every((c) => !c.drawn), 'charts far below the fold wait for the reader');
  // Further down, each shows the build's drawing meanwhile: the one inline in the page, moved
  // into the app's chart when the app took over, so no chart fetches its image.
  const inline = await page.locator('figure.chart').evaluateAll((figures) => figures
    .filter((f) => !f.querySelector('canvas.drawn'))
    .every((f) => f.querySelector('.chart-image > svg') !== null));
  assert.ok(inline, 'an undrawn chart shows its drawing from the build');
  assert.deepEqual(images, [], 'no chart fetched its image');
  const last = page.locator('figure.chart').last();
  await last.scrollIntoViewIfNeeded();
  await last.locator('canvas.drawn').waitFor({ state: 'visible' });
  assert.deepEqual(page.errors, []);
});

test('diagrams are drawn by the build: the blog\'s architecture and its disaggregated prefill, as text in SVG', async () => {
  const page = await site.pageWithoutScripts();
  await page.goto(`${site.url}production-inference-stack/`);
  const diagrams = page.locator('figure.flowchart svg');
  assert.equal(await diagrams.count(), 2);
  const architecture = diagrams.first();
  assert.match(await architecture.getAttribute('aria-label'), /^Diagram: Client to Nginx load balancer; /);
  const boxes = await architecture.locator('.node').evaluateAll((nodes) => nodes.map((n) => {
    const r = n.querySelector('rect').getBoundingClientRect();
    return { text: n.textContent, x: r.x, y: r.y, right: r.right, bottom: r.bottom };
  }));
  assert.equal(boxes.length, 8);
  assert.ok(boxes.some((b) => b.text === 'FastAPI gatewayrouting, backendselection, metrics'), JSON.stringify(boxes));
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const overlap = a.x < b.right && b.x < a.right && a.y < b.bottom && b.y < a.bottom;
      assert.ok(!overlap, `${a.text} overlaps ${b.text}`);
    }
  }
  assert.equal(await page.locator('figure.flowchart figcaption').nth(1).textContent(),
    'Disaggregated prefill: the KV cache moves from the prefill workers to the decode workers');
  await architecture.scrollIntoViewIfNeeded();
  await screenshot(page, 'production-stack-architecture-no-js', { fullPage: false });
  await page.close();
});
