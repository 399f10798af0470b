// Loads one polyarch HTML page in headless Chromium (playwright-core driving Debian's
// /usr/bin/chromium) from a file:// URL, with every network request refused, waits until its
// charts are drawn and checks them against what the caller derived from the page's inputs:
//   charts  {"#id": {"marks": N, "titles": ["time (s)", ...], "legends": [...]}}: the chart's
//           data-marks and the items its data layers drew (groups classed data..._marks) both
//           equal N; at least two non-empty tick labels; each title among its axis (legend) titles
//   tables  {"selector": rows}: the table's body rows
//   hover   [{"chart": "#id", "contains": "text"}]: hovering the chart's first data item shows
//           the tooltip, and it contains the text
//   zoom    ["#id"]: a wheel turn over the chart changes its tick labels
//   links   ["selector"]: each link there leads to a file that exists
//   click   {"selector": "...", "charts": {...}, "tables": {...}}: after a click there, the
//           charts and tables hold the given counts (checked as above)
// plus no console errors or page errors, and a screenshot saved.
// Usage: node check_page.js PAGE.html SHOT.png EXPECTED.json. Prints one line per check;
// exits 1 on any failure.
'use strict';
const { chromium } = require('playwright-core');
const fs = require('fs');
const path = require('path');

const DATA_GROUPS = 'g.role-mark[class*="data"]';

async function waitDrawn(page) {
  await page.waitForSelector('body[data-charts="drawn"]', { timeout: 30000 });
}

async function checkCharts(page, charts, failures) {
  for (const [id, expected] of Object.entries(charts || {})) {
    const seen = await page.$eval(id, (box, groups) => {
      const drawn = [...box.querySelectorAll(groups)]
        .filter(g => /(^|\s)data\w*_marks(\s|$)/.test(g.getAttribute('class')))
        .reduce((n, g) => n + g.children.length, 0);
      const text = selector => [...box.querySelectorAll(selector)].map(t => t.textContent.trim()).filter(t => t);
      return { marks: box.dataset.marks, drawn, ticks: text('.role-axis-label text'), titles: text('.role-axis-title text'),
               legends: text('.role-legend-title text') };
    }, DATA_GROUPS).catch(error => ({ error: error.message }));
    if (seen.error) { failures.push(`${id}: ${seen.error}`); continue; }
    console.log(`${id}: data-marks=${seen.marks}, drawn=${seen.drawn}, expected=${expected.marks}, ` +
                `${seen.ticks.length} tick labels, axis titles ${JSON.stringify(seen.titles)}`);
    if (Number(seen.marks) !== expected.marks || seen.drawn !== expected.marks) failures.push(`${id}: expected ${expected.marks} marks`);
    if (seen.ticks.length < 2) failures.push(`${id}: fewer than two tick labels`);
    for (const title of expected.titles || []) {
      if (!seen.titles.includes(title)) failures.push(`${id}: no axis titled "${title}"`);
    }
    for (const title of expected.legends || []) {
      if (!seen.legends.includes(title)) failures.push(`${id}: no legend titled "${title}" (${JSON.stringify(seen.legends)})`);
    }
  }
}

async function checkTables(page, tables, failures) {
  for (const [selector, rows] of Object.entries(tables || {})) {
    const drawn = await page.$$eval(selector + ' tbody tr', nodes => nodes.length);
    console.log(`${selector}: ${drawn} rows, expected ${rows}`);
    if (drawn !== rows) failures.push(`${selector}: expected ${rows} rows`);
  }
}

async function checkHover(page, hovers, failures) {
  for (const { chart, contains } of hovers || []) {
    const item = page.locator(`${chart} ${DATA_GROUPS} > *`).first();
    await item.hover({ force: true });
    const tooltip = await page.waitForSelector('#vg-tooltip-element.visible', { timeout: 5000 })
      .then(node => node.textContent()).catch(() => null);
    console.log(`${chart}: tooltip ${JSON.stringify(tooltip)}`);
    if (tooltip === null || !tooltip.includes(contains)) failures.push(`${chart}: no tooltip containing "${contains}" on hover`);
    await page.mouse.move(0, 0);
  }
}

async function checkZoom(page, charts, failures) {
  for (const chart of charts || []) {
    const ticks = () => page.$$eval(`${chart} .role-axis-label text`, nodes => nodes.map(n => n.textContent).join('|'));
    const before = await ticks();
    const group = page.locator(`${chart} ${DATA_GROUPS}`).first();
    await group.scrollIntoViewIfNeeded();
    const box = await group.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -400);
    await page.waitForTimeout(300);
    const after = await ticks();
    console.log(`${chart}: tick labels ${before === after ? 'unchanged' : 'changed'} by the wheel`);
    if (before === after) failures.push(`${chart}: the wheel did not zoom`);
  }
}

async function checkLinks(page, selectors, failures) {
  for (const selector of selectors || []) {
    const targets = await page.$$eval(selector, links => links.map(a => a.href));
    if (!targets.length) failures.push(`${selector}: no links`);
    for (const target of targets) {
      const exists = target.startsWith('file://') && fs.existsSync(decodeURIComponent(new URL(target).pathname));
      console.log(`${selector}: ${target} ${exists ? 'exists' : 'missing'}`);
      if (!exists) failures.push(`${selector}: ${target} is not a file`);
    }
  }
}

async function main() {
  const [page_path, shot_path, expected_path] = process.argv.slice(2);
  const expected = JSON.parse(fs.readFileSync(expected_path, 'utf8'));
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
                                          args: ['--no-sandbox'] });
  const failures = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    // A self-contained page asks for nothing but its own file.
    await page.route('**/*', route => {
      if (route.request().url().startsWith('file:')) return route.continue();
      failures.push('network request: ' + route.request().url());
      return route.abort();
    });
    page.on('console', message => { if (message.type() === 'error') failures.push('console error: ' + message.text()); });
    page.on('pageerror', error => failures.push('page error: ' + error.message));
    await page.goto('file://' + path.resolve(page_path), { waitUntil: 'load' });
    await waitDrawn(page);
    await checkCharts(page, expected.charts, failures);
    await checkTables(page, expected.tables, failures);
    await page.screenshot({ path: shot_path, fullPage: true });
    await checkHover(page, expected.hover, failures);
    await checkZoom(page, expected.zoom, failures);
    await checkLinks(page, expected.links, failures);
    if (expected.click) {
      await page.click(expected.click.selector);
      await waitDrawn(page);
      console.log(`after a click on ${expected.click.selector}:`);
      await checkCharts(page, expected.click.charts, failures);
      await checkTables(page, expected.click.tables, failures);
    }
  } finally {
    await browser.close();
  }
  for (const failure of failures) console.log('FAIL ' + failure);
  process.exit(failures.length ? 1 : 0);
}
main().catch(error => { console.log('FAIL ' + error.stack); process.exit(1); });
