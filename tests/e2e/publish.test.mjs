// Publishing and embedding (issue 7): chart embeds in an iframe, the embed code, link previews,
// the data downloads, the view in the address, the Content-Security-Policy, and result files
// dropped on the site (read in the browser only) — including files made to attack the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { siteUnderTest, BASE, REPORT } from './lib/site.mjs';
import { addressParam, chartsReady, inkRatio, screenshot } from './lib/browser.mjs';

const ROOT = path.resolve('../..');

const site = siteUnderTest();

/// A file of the project as `{ name, text }`, to build a browser `File` from.
function projectFile(rel, name = path.basename(rel)) {
  return { name, text: fs.readFileSync(path.join(ROOT, rel), 'utf8') };
}

/// Drops `files` on `selector` as a reader would: real `File` objects in a `DataTransfer`,
/// dispatched as dragover and drop events.
async function dropFiles(page, files, selector = '.drop-zone') {
  await page.evaluate(({ files, selector }) => {
    const transfer = new DataTransfer();
    for (const f of files) transfer.items.add(new File([f.text], f.name, { type: 'application/octet-stream' }));
    const target = document.querySelector(selector);
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  }, { files, selector });
}

test('an embed page draws its chart alone inside an iframe, follows ?theme= and keeps the tooltip', async () => {
  const page = await site.page();
  const embed = `${site.url}embed/${REPORT}/mean-ttft/`;
  const direct = await page.goto(embed);
  assert.equal(direct.status(), 200, 'the embed page is a real file');
  // The host page is another site's: another origin (port) on loopback. (A made-up public
  // origin would be stopped by Chromium's local-network checks before reaching the site.)
  const blog = http.createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><link rel="icon" href="data:,"><h1>A blog post</h1>
      <iframe id="e" src="${embed}?theme=dark" width="720" height="560" style="border:0"></iframe>`);
  });
  await new Promise((resolve) => blog.listen(0, '127.0.0.1', resolve));
  await page.goto(`http://127.0.0.1:${blog.address().port}/post.html`);
  const frame = page.frameLocator('#e');
  await frame.locator('figure.chart canvas').waitFor({ timeout: 20000 });
  const inner = page.frames().find((f) => f.url().includes('/embed/'));
  await inner.waitForFunction(() => performance.getEntriesByName('charts-ready').length > 0, null, { timeout: 20000 });
  assert.equal(await frame.locator('header.site-header').count(), 0, 'no site header in an embed');
  assert.equal(await frame.locator('figure.chart').count(), 1);
  assert.equal(await frame.locator('.chart-tools').count(), 0, 'no downloads in an embed');
  assert.equal(await inner.evaluate(() => document.documentElement.dataset.theme), 'dark');
  const bg = await inner.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(22, 24, 29)', 'dark background');
  const ink = await inner.$eval('figure.chart canvas', (c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 30) n++;
    return n / (d.length / 4);
  });
  assert.ok(ink > 0.02, `the embedded chart is blank (${ink})`);
  await frame.locator('figure.chart canvas').focus();
  await frame.locator('figure.chart canvas').press('ArrowRight');
  await assert.doesNotReject(frame.locator('.chart-tooltip').waitFor({ timeout: 5000 }));
  const link = frame.locator('.embed-source a');
  assert.equal(await link.getAttribute('href'), `${BASE}${REPORT}/`);
  assert.equal(await link.getAttribute('target'), '_blank');
  await screenshot(page, 'embed-in-iframe-dark');
  blog.close();
  // A grid embeds whole, its panels without their tools.
  const grid = await site.page();
  await grid.goto(`${site.url}embed/${REPORT}/at-a-glance/`);
  await chartsReady(grid);
  assert.equal(await grid.locator('figure.chart').count(), 4);
  assert.equal(await grid.locator('.chart-tools, .chart-grid > a.tool').count(), 0);
  // A chart id that does not exist has no page: the host's 404, without the site's header.
  const missing = await site.page();
  const response = await missing.goto(`${site.url}embed/${REPORT}/no-such-chart/`);
  assert.equal(response.status(), 404);
  await chartsReady(missing);
  await missing.locator('.not-found h1', { hasText: 'Page not found' }).waitFor();
  assert.equal(await missing.locator('.site-header').count(), 0);
  assert.deepEqual(page.errors, []);
});

test('where the browser offers no clipboard (a site on plain HTTP), Copy selects the embed code to copy by hand', async () => {
  const page = await site.page();
  // As on a page of an insecure origin: no navigator.clipboard.
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }));
  await page.goto(`${site.url}${REPORT}/`);
  await chartsReady(page);
  const figure = page.locator('figure#chart-mean-ttft');
  await figure.locator('.chart-menu > summary').click();
  await figure.locator('.embed-toggle').click();
  const button = figure.locator('.embed-code button.tool').first();
  await button.click();
  await figure.locator('.embed-code button.tool', { hasText: 'Selected: press Ctrl+C' }).first().waitFor();
  const selection = await page.evaluate(() => {
    const field = document.activeElement;
    return { tag: field.tagName, whole: field.selectionStart === 0 && field.selectionEnd === field.value.length, text: field.value };
  });
  assert.equal(selection.tag, 'TEXTAREA');
  assert.ok(selection.whole, 'the whole code is selected');
  assert.match(selection.text, /^<iframe src=/);
  await screenshot(page, 'embed-code-selected', { fullPage: false });
  assert.deepEqual(page.errors, []);
});

test('the embed code gives an iframe of the embed page and an img of the static SVG; the build wrote the SVG, and a PNG only of the link-preview chart', async () => {
  const page = await site.page();
  await page.goto(`${site.url}${REPORT}/`);
  await chartsReady(page);
  const figure = page.locator('figure#chart-mean-ttft');
  await figure.locator('.chart-menu > summary').click();
  await figure.locator('.embed-toggle').click();
  const codes = await figure.locator('.embed-code textarea').allTextContents();
  assert.equal(codes.length, 2);
  const origin = new URL(site.url).origin;
  assert.ok(codes[0].startsWith(`<iframe src="${origin}${BASE}embed/${REPORT}/mean-ttft/"`), codes[0]);
  assert.match(codes[0], /title="Mean time to first token by request rate"/);
  assert.ok(codes[1].startsWith(`<img src="${origin}${BASE}charts/${REPORT}/mean-ttft.svg"`), codes[1]);
  for (const [file, type] of [[`charts/${REPORT}/mean-ttft.svg`, 'image/svg+xml'], [`charts/${REPORT}/at-a-glance-1.png`, 'image/png']]) {
    const response = await page.request.get(`${site.url}${file}`);
    assert.equal(response.status(), 200, file);
    assert.match(response.headers()['content-type'], new RegExp(type.replace('+', '\\+')), file);
  }
  // A reader's PNG is drawn in the browser: the build rasterises no other chart.
  assert.equal((await page.request.get(`${site.url}charts/${REPORT}/mean-ttft.png`)).status(), 404);
  await screenshot(page, 'embed-code');
  assert.deepEqual(page.errors, []);
});

test('report entry pages carry a link preview with the first chart as image, and a CSP', async () => {
  const page = await site.page();
  await page.goto(`${site.url}${REPORT}/`);
  const meta = (sel) => page.locator(sel).getAttribute('content');
  assert.equal(await meta('meta[property="og:title"]'), 'Inference Framework Benchmarks: vLLM vs SGLang');
  assert.equal(await meta('meta[name="twitter:card"]'), 'summary_large_image');
  const image = await meta('meta[property="og:image"]');
  assert.match(image, new RegExp(`charts/${REPORT}/[\\w-]+\\.png$`));
  const response = await page.request.get(new URL(image, site.url).href);
  assert.equal(response.status(), 200, image);
  const csp = await meta('meta[http-equiv="Content-Security-Policy"]');
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
  assert.match(csp, /object-src 'none'/);
  await chartsReady(page);
  assert.deepEqual(page.errors, [], 'the CSP blocks nothing the site needs');
});

test('a report offers its raw result files and its runs normalised as JSON and CSV', async () => {
  const page = await site.page();
  await page.goto(`${site.url}${REPORT}/`);
  await chartsReady(page);
  const links = page.locator('.downloads a');
  const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(hrefs.includes(`${BASE}data/runs/${REPORT}.json`), hrefs.join(' '));
  assert.ok(hrefs.includes(`${BASE}data/runs/${REPORT}.csv`), hrefs.join(' '));
  const raw = hrefs.find((h) => h.startsWith(`${BASE}results/`));
  assert.ok(raw, `no raw result file in ${hrefs}`);
  const runs = await (await page.request.get(`${site.url}data/runs/${REPORT}.json`)).json();
  assert.equal(runs.length, 12, 'twelve vllm bench serve results');
  const csv = await (await page.request.get(`${site.url}data/runs/${REPORT}.csv`)).text();
  assert.equal(csv.trim().split('\n').length, 13, 'a header and twelve rows');
  const original = fs.readFileSync(path.join(ROOT, 'results/vllm-vs-sglang/llama-3.1-8b-instruct.jsonl'), 'utf8');
  const served = await (await page.request.get(new URL(raw, site.url).href)).text();
  assert.equal(served, original, 'the raw file is published as it is');
});

test('a chart\'s view (statistic, scale, hidden series) lives in the address and survives a reload', async () => {
  const page = await site.page();
  await page.goto(`${site.url}${REPORT}/`);
  await chartsReady(page);
  const figure = page.locator('figure.chart')
    .filter({ has: page.locator('.log-toggle') }).filter({ has: page.locator('.legend-item') }).first();
  const id = await figure.getAttribute('data-chart');
  const logWas = await figure.locator('.log-toggle').isChecked();
  await figure.locator('.log-toggle').click();
  await figure.locator('.legend-item').first().click();
  await addressParam(page, `chart-${id}`, /h1/);
  await page.reload();
  await chartsReady(page);
  const again = page.locator(`figure.chart[data-chart="${id}"]`);
  assert.equal(await again.locator('.log-toggle').isChecked(), !logWas);
  assert.equal(await again.locator('.legend-item').first().getAttribute('aria-pressed'), 'false');
  assert.deepEqual(page.errors, []);
});

test('result files dropped on the home page become a report with charts, tables, the wizard and every problem', async () => {
  const page = await site.page();
  await page.goto(site.url);
  await chartsReady(page);
  const files = [
    projectFile('results/vllm-vs-sglang/llama-3.1-8b-instruct.jsonl'),
    projectFile('tests/fixtures/sglang/broken.jsonl'),
    { name: 'notes.txt', text: 'not a result file' },
  ];
  await dropFiles(page, files);
  await page.waitForURL(`${site.url}local/`);
  await page.locator('h1', { hasText: 'Your result files' }).waitFor({ timeout: 30000 });
  await page.waitForFunction(() => performance.getEntriesByName('charts-ready').length > 0);
  const charts = await page.locator('figure.chart canvas').count();
  assert.ok(charts >= 8, `${charts} charts`);
  for (let i = 0; i < charts; i++) {
    const ink = await inkRatio(page, `figure.chart >> nth=${i} >> canvas`);
    assert.ok(ink > 0.01, `dropped chart ${i} is blank`);
  }
  assert.ok(await page.locator('.prose table').count() >= 1, 'the summary table');
  assert.ok(await page.locator('.wizard').count() === 1, 'the wizard');
  const problems = await page.locator('.problems').innerText();
  assert.match(problems, /notes\.txt/);
  assert.match(problems, /broken\.jsonl:\d+/, 'problems name the file and line');
  assert.equal(await page.locator('.chart-tools a', { hasText: 'SVG' }).count(), 0, 'no published SVG for dropped files');
  const csvLink = page.locator('.downloads a', { hasText: 'CSV' });
  assert.match(await csvLink.getAttribute('href'), /^blob:/);
  await screenshot(page, 'dropped-files');
  assert.deepEqual(page.errors, []);
});

test('back from the dropped files returns to the report they were dropped on, and forward to them', async () => {
  const page = await site.page();
  await page.goto(`${site.url}${REPORT}/`);
  await chartsReady(page);
  const reportCharts = await page.locator('figure.chart canvas').count();
  // Dropped on the report itself: anywhere on any page opens files.
  await dropFiles(page, [projectFile('tests/fixtures/llmperf/acme-chat-13b_512_128_summary.json')], 'figure.chart');
  await page.waitForURL(`${site.url}local/`);
  await page.locator('h1', { hasText: 'Your result files' }).waitFor({ timeout: 30000 });
  await page.waitForFunction(() => document.querySelectorAll('figure.chart canvas').length > 0, null, { timeout: 30000 });
  const localCharts = await page.locator('figure.chart canvas').count();
  await page.goBack();
  await page.waitForURL(`${site.url}${REPORT}/`);
  await page.locator('h1', { hasText: 'Inference Framework Benchmarks' }).waitFor();
  await page.waitForFunction((n) => document.querySelectorAll('figure.chart canvas').length === n, reportCharts);
  await chartsReady(page);
  const ink = await inkRatio(page, 'figure.chart >> nth=0 >> canvas');
  assert.ok(ink > 0.02, `the report's first chart is blank after going back (${ink})`);
  await page.goForward();
  await page.waitForURL(`${site.url}local/`);
  await page.waitForFunction((n) => document.querySelectorAll('figure.chart canvas').length === n, localCharts);
  assert.deepEqual(page.errors, []);
});

test('a drop whose app cannot be downloaded says so in view, and the next drop opens the files', async () => {
  const page = await site.page();
  await page.goto(`${site.url}${REPORT}/`);
  await chartsReady(page);
  const charts = await page.locator('figure.chart canvas').count();
  await page.route('**/benchdeck-full*', (route) => route.fulfill({ status: 404, body: 'not here' }));
  const files = [projectFile('tests/fixtures/llmperf/acme-chat-13b_512_128_summary.json')];
  // Dropped on a chart far down the page: the alert must come into view.
  await dropFiles(page, files, '[id="chart-head-to-head-inf"]');
  const alert = page.locator('#main > #dropped-files-failed[role="alert"]');
  await alert.waitFor({ timeout: 20000 });
  assert.match(await alert.innerText(), /Your files were not opened/);
  assert.match(await alert.innerText(), /could not be downloaded \(.*benchdeck-full.*\)/s, 'the browser\'s reason');
  const box = await alert.evaluate((e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, height: innerHeight }; });
  assert.ok(box.top >= 8 && box.bottom <= box.height, `the alert is in view, clear of the edge (${JSON.stringify(box)})`);
  await screenshot(page, 'dropped-files-app-failed', { fullPage: false });
  assert.equal(page.url(), `${site.url}${REPORT}/`, 'the page stays');
  assert.equal(await page.locator('figure.chart canvas').count(), charts, 'its charts stay live');
  // A second failure replaces the alert instead of adding one.
  await dropFiles(page, files, 'figure.chart');
  await page.waitForTimeout(500);
  assert.equal(await page.locator('#dropped-files-failed').count(), 1);
  await page.unroute('**/benchdeck-full*');
  await dropFiles(page, files, 'figure.chart');
  await page.waitForURL(`${site.url}local/`);
  await page.locator('h1', { hasText: 'Your result files' }).waitFor({ timeout: 30000 });
  assert.equal(await page.locator('#dropped-files-failed').count(), 0);
  // The islands' app still listens (colour scheme, sizes) beside the whole app that took the
  // page over: a change of either must not break or blank the page.
  await page.waitForFunction(() => document.querySelectorAll('figure.chart canvas').length > 0, null, { timeout: 30000 });
  const local = await page.locator('figure.chart canvas').count();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 700, height: 900 });
  await page.waitForTimeout(800);
  assert.equal(await page.locator('figure.chart canvas').count(), local);
  assert.equal(await page.locator('.error-panel.fatal').count(), 0);
  const dark = await page.$eval('figure.chart canvas', (c) => {
    const [r, g, b] = c.getContext('2d').getImageData(2, 2, 1, 1).data;
    return r + g + b < 200;
  });
  assert.ok(dark, 'the whole app\'s chart redrew in the dark scheme');
  assert.deepEqual(page.errors.filter((e) => !e.includes('benchdeck-full')), []);
});

/// Forgets what earlier tests' dropped files left in this browser's storage.
async function forgetKeptFiles(page) {
  await page.goto(site.url);
  await page.evaluate(() => new Promise((done) => {
    const request = indexedDB.deleteDatabase('benchdeck');
    request.onsuccess = request.onerror = request.onblocked = () => done();
  }));
}

test('files chosen with the file dialog are read, kept for the next visit, and forgotten on request', async () => {
  const page = await site.page();
  await forgetKeptFiles(page);
  const workers = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await page.goto(`${site.url}local/`);
  await chartsReady(page);
  // Nothing is kept (the browser lists no such database): the worker, a download of its own,
  // is not started to find that out.
  await page.waitForTimeout(500);
  assert.deepEqual(workers, [], 'no worker started when nothing is kept');
  await page.locator('.drop-zone input[type=file]').setInputFiles([
    path.join(ROOT, 'tests/fixtures/llmperf/acme-chat-13b_512_128_summary.json'),
  ]);
  await page.waitForFunction(() => document.querySelectorAll('figure.chart canvas').length > 0, null, { timeout: 30000 });
  assert.equal(workers.length, 1, 'one worker read the files');
  await page.locator('.kept-note', { hasText: 'kept in this browser only' }).waitFor();
  const charts = await page.locator('figure.chart canvas').count();
  await page.reload();
  await page.waitForFunction((n) => document.querySelectorAll('figure.chart canvas').length === n, charts, { timeout: 30000 });
  assert.match(await page.locator('h1').first().innerText(), /Your result files/);
  await page.locator('.kept-note .forget').click();
  await page.locator('.local-empty').waitFor();
  assert.equal(await page.locator('figure.chart').count(), 0);
  await page.reload();
  await chartsReady(page);
  assert.equal(await page.locator('figure.chart').count(), 0, 'forgotten for good');
  assert.match(await page.locator('.local-empty').innerText(), /until you forget them/);
  assert.deepEqual(page.errors, []);
});

test('when the browser cannot keep the files it says so, and the files are still read', async () => {
  const page = await site.page();
  await forgetKeptFiles(page);
  // The worker keeps the files: its script gets a storage that is full.
  await page.route('**/benchdeck-worker_loader.js', async (route) => {
    const response = await route.fetch();
    const full = "IDBObjectStore.prototype.put = function put() { throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); };\n";
    await route.fulfill({ response, body: full + await response.text() });
  });
  await page.goto(`${site.url}local/`);
  await chartsReady(page);
  await page.locator('.drop-zone input[type=file]').setInputFiles([
    path.join(ROOT, 'tests/fixtures/llmperf/acme-chat-13b_512_128_summary.json'),
  ]);
  await page.waitForFunction(() => document.querySelectorAll('figure.chart canvas').length > 0, null, { timeout: 30000 });
  const warning = page.locator('.kept-note.warning');
  await warning.waitFor();
  assert.match(await warning.innerText(), /could not be kept for your next visit: the browser's storage for this site is full/);
  assert.deepEqual(page.errors, []);
});

test('when the file reader cannot be downloaded, the files are said not read and the next try works', async () => {
  const page = await site.page();
  await forgetKeptFiles(page);
  await page.route('**/benchdeck-worker*', (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.goto(`${site.url}local/`);
  await chartsReady(page);
  const file = path.join(ROOT, 'tests/fixtures/llmperf/acme-chat-13b_512_128_summary.json');
  await page.locator('.drop-zone input[type=file]').setInputFiles([file]);
  const failed = page.locator('.local-empty .error-panel[role="alert"]');
  await failed.waitFor({ timeout: 20000 });
  assert.match(await failed.innerText(), /These files were not read:\s*the file reader could not be started: its script did not load/);
  assert.deepEqual(page.errors.filter((e) => !e.includes('benchdeck-worker')), []);
  await page.unroute('**/benchdeck-worker*');
  await page.locator('.drop-zone input[type=file]').setInputFiles([file]);
  await page.waitForFunction(() => document.querySelectorAll('figure.chart canvas').length > 0, null, { timeout: 30000 });
  assert.equal(await page.locator('.error-panel').count(), 0);
});

test('a 40 MB result file shows its progress and never freezes the page', async (t) => {
  const page = await site.page();
  await page.goto(site.url);
  await chartsReady(page);
  // A vllm bench serve result with per-request arrays, 40 MB, made in the page.
  const bytes = await page.evaluate(() => {
    const n = 80000;
    const seq = (f) => Array.from({ length: n }, (_, i) => f(i));
    const result = {
      date: '20260101-000000', backend: 'vllm', model_id: 'acme/chat-13b', tokenizer_id: 'acme/chat-13b',
      num_prompts: n, request_rate: 'inf', max_concurrency: 64, duration: 600, completed: n,
      total_input_tokens: n * 512, total_output_tokens: n * 128, request_throughput: 100,
      output_throughput: 12800, total_token_throughput: 64000,
      mean_ttft_ms: 210, median_ttft_ms: 200, std_ttft_ms: 20, p99_ttft_ms: 260,
      mean_tpot_ms: 11, median_tpot_ms: 11, std_tpot_ms: 1, p99_tpot_ms: 13,
      mean_itl_ms: 11, median_itl_ms: 11, std_itl_ms: 1, p99_itl_ms: 19,
      input_lens: seq(() => 512), output_lens: seq(() => 128),
      ttfts: seq((i) => 0.2 + (i % 97) / 1000),
      itls: seq((i) => Array.from({ length: 40 }, (_, j) => 0.011 + ((i + j) % 13) / 10000)),
      latencies: seq((i) => 1.6 + (i % 89) / 1000), generated_texts: seq(() => ''), errors: seq(() => ''),
    };
    const text = JSON.stringify(result);
    window.__big = new File([text], 'big-serve-result.json');
    return text.length;
  });
  assert.ok(bytes > 35e6, `${bytes} bytes`);
  // Frame gaps on the main thread while the worker reads and imports.
  await page.evaluate(() => {
    window.__gaps = [];
    let last = performance.now();
    const tick = (t) => { window.__gaps.push(t - last); last = t; if (!window.__stop) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    const transfer = new DataTransfer();
    transfer.items.add(window.__big);
    document.querySelector('.drop-zone').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  });
  await page.locator('.local-progress progress').waitFor({ timeout: 10000 });
  const seen = new Set();
  while (await page.locator('.local-progress').count()) {
    const words = await page.locator('.local-progress [role=status]').textContent().catch(() => null);
    if (words) seen.add(words.replace(/[\d.]+ of/, 'N of'));
    await page.waitForTimeout(50);
  }
  await page.waitForFunction(() => performance.getEntriesByName('charts-ready').length > 0, null, { timeout: 60000 });
  const gaps = await page.evaluate(() => { window.__stop = true; return window.__gaps; });
  const took = gaps.reduce((a, b) => a + b, 0);
  gaps.sort((a, b) => b - a);
  t.diagnostic(`${(bytes / 1e6).toFixed(1)} MB read and charted in ${Math.round(took)} ms; longest frames ${gaps.slice(0, 3).map(Math.round).join(', ')} ms`);
  assert.ok([...seen].some((w) => w.startsWith('Reading big-serve-result.json')), [...seen].join(' | '));
  assert.ok(await page.locator('figure.chart canvas').count() > 0, 'the big file is charted');
  // Rendering the finished report takes the main thread once; reading and importing never do.
  const longFrames = gaps.filter((g) => g > 200);
  assert.ok(longFrames.length <= 2, `frames over 200 ms: ${longFrames.map(Math.round)}`);
  assert.deepEqual(page.errors, []);
});

test('a file over the size limit is refused at once, with the limit named', async () => {
  const page = await site.page();
  await page.goto(site.url);
  await chartsReady(page);
  await page.evaluate(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(101 * 1024 * 1024)], 'huge.json'));
    document.querySelector('.drop-zone').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  });
  const panel = page.locator('.error-panel');
  await panel.waitFor();
  assert.match(await panel.innerText(), /huge\.json: 101\.0 MiB is over the limit of 100\.0 MiB per file/);
  assert.deepEqual(page.errors, []);
});

test('nothing in a dropped file or its name runs as script', async () => {
  const page = await site.page();
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page.goto(site.url);
  await chartsReady(page);
  const attack = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';
  const serve = projectFile('results/vllm-vs-sglang/llama-3.1-8b-instruct.jsonl');
  serve.name = `${attack}.jsonl`;
  serve.text = serve.text
    .replaceAll('"vllm"', `"${attack.replaceAll('"', '\\"')}"`)
    .replaceAll('meta-llama/Llama-3.1-8B-Instruct', 'javascript:window.__xss=3');
  const svg = {
    name: 'chart.svg',
    text: '<svg xmlns="http://www.w3.org/2000/svg" onload="window.__xss=4"><script>window.__xss=5</script></svg>',
  };
  const markdown = { name: 'notes.md', text: '# Hi\n\n<script>window.__xss=6</script>\n[x](javascript:window.__xss=7)\n' };
  await dropFiles(page, [serve, svg, markdown]);
  await page.waitForURL(`${site.url}local/`);
  await page.waitForFunction(() => performance.getEntriesByName('charts-ready').length > 0, null, { timeout: 30000 });
  // Hover and tab through everything a reader could touch.
  for (const canvas of await page.locator('figure.chart canvas').all()) {
    await canvas.focus();
    await canvas.press('ArrowRight');
  }
  await page.locator('.problems').innerText();
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  assert.deepEqual(dialogs, []);
  assert.equal(await page.locator('script:not([type="application/json"]):not([src])').count(), 1, 'only the app loader is inline');
  assert.equal(await page.locator('main img, main [onerror], main [onload], main a[href^="javascript:"]').count(), 0);
  const text = await page.locator('main').innerText();
  assert.ok(text.includes('<img src=x onerror'), 'the attack is shown as text');
  await screenshot(page, 'dropped-attack');
  assert.deepEqual(page.errors, []);
});
