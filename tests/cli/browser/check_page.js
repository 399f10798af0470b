// Loads one polyarch HTML page in headless Chromium (playwright-core driving Debian's
// /usr/bin/chromium) from a file:// URL, with every network request refused, and checks it:
// no console errors or page errors, each chart's data-marks equal to the expected count, and a
// screenshot saved. Usage: node check_page.js PAGE.html SHOT.png '{"#latency svg": 54, ...}'
// Prints one line per check; exits 1 on any failure.
'use strict';
const { chromium } = require('playwright-core');
const path = require('path');

async function main() {
  const [page_path, shot_path, expected_json] = process.argv.slice(2);
  const expected = JSON.parse(expected_json);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
                                          args: ['--no-sandbox'] });
  const failures = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    // A self-contained page asks for nothing but its own file.
    await page.route('**/*', route => {
      if (route.request().url().startsWith('file:')) return route.continue();
      failures.push('network request: ' + route.request().url());
      return route.abort();
    });
    page.on('console', message => { if (message.type() === 'error') failures.push('console error: ' + message.text()); });
    page.on('pageerror', error => failures.push('page error: ' + error.message));
    await page.goto('file://' + path.resolve(page_path), { waitUntil: 'load' });
    for (const [selector, count] of Object.entries(expected)) {
      const marks = await page.$eval(selector, node => node.dataset.marks).catch(() => null);
      const drawn = await page.$$eval(selector + ' .mark, ' + selector + ' tbody tr', nodes => nodes.length);
      console.log(`${selector}: data-marks=${marks}, drawn=${drawn}, expected=${count}`);
      if (Number(marks) !== count || drawn !== count) failures.push(`${selector}: expected ${count} marks`);
    }
    await page.screenshot({ path: shot_path, fullPage: true });
  } finally {
    await browser.close();
  }
  for (const failure of failures) console.log('FAIL ' + failure);
  process.exit(failures.length ? 1 : 0);
}
main().catch(error => { console.log('FAIL ' + error.stack); process.exit(1); });
