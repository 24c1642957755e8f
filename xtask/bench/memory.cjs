#!/usr/bin/env node
// The memory a page holds once it is ready, for `cargo xtask scale --measure`: each load in a
// fresh browser context, waits until READY_EXPR holds and the network is idle, collects garbage,
// then reads Chromium's Performance.getMetrics over CDP (JSHeapUsedSize, JSHeapTotalSize, Nodes)
// and the size of the app's WebAssembly.Memory: the wasm heap is an ArrayBuffer that
// JSHeapUsedSize does not count. trunk's loader announces the instance's exports in its
// `TrunkApplicationStarted` event; an init script keeps them. (CDP's Runtime.queryObjects over
// WebAssembly.Memory.prototype would find every memory, but it crashed Chromium 156's renderer.)
//
// usage: NODE_PATH=<dir with playwright-core> node memory.cjs URL READY_EXPR [LOADS]
// Prints one JSON line: {"url", "loads", "js_heap_used": [...], "js_heap_total": [...],
// "wasm_memory": [...], "dom_nodes": [...]}, one value per load, in bytes (nodes: a count).
const { chromium } = require('playwright-core');

const [url, readyExpr, loadsArg] = process.argv.slice(2);
if (!url || !readyExpr) {
  console.error('usage: node memory.cjs URL READY_EXPR [LOADS]');
  process.exit(2);
}
const loads = Number(loadsArg || 3);

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const out = { url, loads, js_heap_used: [], js_heap_total: [], wasm_memory: [], dom_nodes: [] };
  for (let i = 0; i < loads; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', e => errors.push(String(e)));
    await page.addInitScript(() => {
      addEventListener('TrunkApplicationStarted', e => { window.__benchdeckWasm = e.detail.wasm; });
    });
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(readyExpr, null, { polling: 'raf', timeout: 60000 });
    await page.waitForLoadState('networkidle');
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Performance.enable');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = name => (metrics.find(m => m.name === name) || {}).value;
    const wasm = await page.evaluate(() => {
      const m = window.__benchdeckWasm && window.__benchdeckWasm.memory;
      return m instanceof WebAssembly.Memory ? m.buffer.byteLength : null;
    });
    if (wasm === null) throw new Error(`${url}: the app's WebAssembly.Memory was not announced`);
    out.js_heap_used.push(metric('JSHeapUsedSize'));
    out.js_heap_total.push(metric('JSHeapTotalSize'));
    out.wasm_memory.push(wasm);
    out.dom_nodes.push(metric('Nodes'));
    if (errors.length) console.error(`page errors: ${errors.join(' | ')}`);
    await context.close();
  }
  await browser.close();
  console.log(JSON.stringify(out));
})().catch(e => { console.error(e); process.exit(1); });
