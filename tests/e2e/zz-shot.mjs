// usage: node shot-tmp.mjs URL OUT WIDTH light|dark js|nojs [selector]
import { chromium } from 'playwright-core';
const [url, out, width, scheme, js, selector] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
const page = await browser.newPage({ viewport: { width: Number(width), height: 900 }, colorScheme: scheme, javaScriptEnabled: js === 'js' });
page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
await page.goto(url);
if (js === 'js') { try { await page.waitForFunction(() => performance.getEntriesByName('charts-ready').length > 0, null, { timeout: 30000 }); } catch (e) { console.log('no charts-ready'); } }
if (selector) {
  const el = page.locator(selector).first();
  await el.scrollIntoViewIfNeeded();
  await page.waitForTimeout(800);
  await el.screenshot({ path: out });
} else {
  const h = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let i = 0, y = 0; y < h; i++, y += 1600) {
    await page.screenshot({ path: out.replace('.png', `-${i}.png`), clip: { x: 0, y, width: Number(width), height: Math.min(1600, h - y) }, fullPage: true });
  }
  console.log('height', h);
}
await browser.close();
