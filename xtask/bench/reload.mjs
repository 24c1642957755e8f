// `cargo xtask bench`'s "Writing a report": under `benchdeck serve` at URL, each report of the
// PROJECT is opened and saved SAVES times with a new sentence at its end; each save is timed
// from the write to the moment the open page shows that sentence (the server noticed the change,
// rebuilt, the page's reload script heard of it and the page loaded again). The file is put back
// after. Prints one JSON line: { reports: [{ slug, ms: [...] }], errors: [...] }.
import fs from 'node:fs';
import path from 'node:path';
import { launch } from '../../tests/e2e/lib/browser.mjs';

const [url, project, saves] = process.argv.slice(2);
const folder = path.join(project, 'reports');
const files = fs.readdirSync(folder).filter((f) => f.endsWith('.md')).sort();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const browser = await launch();
const out = { reports: [], errors: [] };
try {
  const page = await browser.page({ viewport: { width: 1280, height: 800 } });
  for (const name of files) {
    const slug = name.replace(/\.md$/, '');
    const file = path.join(folder, name);
    const before = fs.readFileSync(file, 'utf8');
    await page.goto(`${url}${slug}/`);
    await page.waitForLoadState('load');
    const ms = [];
    try {
      for (let i = 0; i < Number(saves); i++) {
        const mark = `Saved while open, ${slug} ${i} ${Date.now()}.`;
        const saved = performance.now();
        fs.writeFileSync(file, `${before}\n\n${mark}\n`);
        await page.locator('.prose', { hasText: mark }).first().waitFor({ timeout: 30000 });
        ms.push(performance.now() - saved);
        await page.waitForLoadState('load');
        await sleep(300);
      }
    } finally {
      fs.writeFileSync(file, before);
    }
    out.reports.push({ slug, ms });
    // The restored file's build, before the next report's page is opened.
    await sleep(1000);
  }
  out.errors = page.errors;
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
