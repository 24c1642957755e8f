// The built site under test, served like GitHub Pages, and one headless Chromium for a test
// file: `const site = siteUnderTest()` starts both before the file's tests and stops them after.
import { before, after } from 'node:test';
import path from 'node:path';
import { serve } from './server.mjs';
import { launch } from './browser.mjs';

/// The built site (`BENCHDECK_DIST`) and the path it is served under (`BENCHDECK_BASE`).
export const DIST = path.resolve(process.env.BENCHDECK_DIST ?? '../../dist');
export const BASE = process.env.BENCHDECK_BASE ?? '/';
/// The seed 002 report, the default site's main example.
export const REPORT = 'inference-framework-benchmarks';

export function siteUnderTest() {
  let server;
  let browser;
  let withoutScripts;
  before(async () => {
    server = await serve(DIST, BASE);
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await withoutScripts?.close();
    await server?.close();
  });
  return {
    /// The site's address, ending in `/`.
    get url() { return server.url; },
    /// A new page (tab) with console errors collected in `page.errors`.
    page: (options) => browser.page(options),
    /// A new page in a browser with JavaScript off (started on first use).
    async pageWithoutScripts(options) {
      withoutScripts ??= await launch({ javaScriptEnabled: false });
      return withoutScripts.page(options);
    },
  };
}
