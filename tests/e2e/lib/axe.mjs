// axe-core's accessibility rules run in a page under test: the serious and critical violations
// (WCAG A and AA), each named by its rule and the element it was found on.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/// The page's serious and critical violations as `rule: selector` (an empty list when none).
/// Injected through the driver, not a <script>, so the page's Content-Security-Policy stands.
export async function seriousViolations(page) {
  await page.evaluate(`${SOURCE}\n;window.axe = axe; 0`);
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  });
}

/// A page that shows the build's HTML as a reader without JavaScript gets it: the app's scripts
/// are not loaded (axe itself needs a page that runs scripts, so JavaScript stays on).
export async function withoutTheApp(page) {
  await page.route(/\.(js|wasm)(\?|$)/, (route) => route.abort());
  return page;
}
