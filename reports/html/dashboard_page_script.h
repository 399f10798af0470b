#pragma once
// The JavaScript and CSS of dashboard.html (a sweep's page), inlined so it needs no network:
// a hand-written SVG Pareto scatter (hover for a point's parameters) and a table of the
// results that sorts by any column on a click. Data: #sweep-data, points.csv as JSON.

namespace polyarch::reports::html {

inline constexpr const char* kDashboardCss = R"CSS(
body{font:14px system-ui,sans-serif;margin:24px;color:#222}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
svg{background:#fafafa;border:1px solid #ddd}.axis{stroke:#999}.label{font-size:11px;fill:#555}
#hover{min-height:1.4em;font-family:monospace;font-size:12px}
table{border-collapse:collapse;font-size:12px}td,th{padding:2px 6px;border-bottom:1px solid #eee}
th{cursor:pointer;background:#f0f0f0;position:sticky;top:0}tr.front td{background:#eef6ee}
)CSS";

inline constexpr const char* kDashboardScript = R"JS(
'use strict';
const data = JSON.parse(document.getElementById('sweep-data').textContent);
const NS = 'http://www.w3.org/2000/svg';
const col = name => data.columns.indexOf(name);
function el(tag, attrs, parent, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}
function fmt(x) { return x === null || x === undefined ? '' : typeof x === 'number' ? Number(x.toPrecision(6)).toString() : String(x); }

// One entry per point: objectives aggregated over workloads as the sweep does (sums;
// avg_power_w averaged; area_mm2 per point).
const objectives = data.objectives.length >= 2 ? data.objectives.slice(0, 2)
  : [{metric: 'latency_s', minimize: true}, {metric: 'energy_j', minimize: true}];
const points = new Map();
for (const row of data.rows) {
  const id = row[col('point_id')];
  if (!points.has(id)) points.set(id, {id, row, sums: objectives.map(() => 0), n: 0, front: row[col('pareto')] === 1});
  const p = points.get(id);
  p.n += 1;
  objectives.forEach((o, k) => {
    const v = row[col(o.metric)];
    p.sums[k] = v === null || p.sums[k] === null ? null : o.metric === 'area_mm2' ? v : p.sums[k] + v;
  });
}
const plotted = [...points.values()].filter(p => p.sums.every(v => v !== null && v > 0));
plotted.forEach(p => objectives.forEach((o, k) => { if (o.metric === 'avg_power_w') p.sums[k] /= p.n; }));
const parameters = data.columns.slice(1, col('area_mm2'));

function scatter() {
  const width = 700, height = 420, pad = 60;
  const chart = el('svg', {width, height, viewBox: `0 0 ${width} ${height}`});
  document.getElementById('pareto').appendChild(chart);
  chart.dataset.marks = '0';
  if (!plotted.length) { el('text', {x: pad, y: height / 2, class: 'label'}, chart, 'no completed points'); return; }
  const logs = k => plotted.map(p => Math.log10(p.sums[k]));
  const range = k => { const v = logs(k), lo = Math.min(...v), hi = Math.max(...v); return [lo - 0.05, hi + 0.05 + (hi === lo ? 1 : 0)]; };
  const [x0, x1] = range(0), [y0, y1] = range(1);
  const X = v => pad + (Math.log10(v) - x0) / (x1 - x0) * (width - 2 * pad);
  const Y = v => height - pad - (Math.log10(v) - y0) / (y1 - y0) * (height - 2 * pad);
  el('line', {x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, class: 'axis'}, chart);
  el('line', {x1: pad, y1: pad, x2: pad, y2: height - pad, class: 'axis'}, chart);
  el('text', {x: width / 2 - 60, y: height - 20, class: 'label'}, chart, `${objectives[0].metric} (log, summed over workloads)`);
  el('text', {x: 6, y: pad - 16, class: 'label'}, chart, `${objectives[1].metric} (log)`);
  const hover = document.getElementById('hover');
  for (const p of plotted) {
    const text = `${p.id}${p.front ? ' [Pareto]' : ''}  ${objectives.map((o, k) => `${o.metric}=${fmt(p.sums[k])}`).join('  ')}  ` +
      parameters.map(name => `${name}=${fmt(p.row[col(name)])}`).join('  ');
    const dot = el('circle', {cx: X(p.sums[0]), cy: Y(p.sums[1]), r: p.front ? 5 : 3.5,
      fill: p.front ? '#e15759' : '#4e79a7', 'fill-opacity': p.front ? 1 : 0.55, class: 'mark'}, chart);
    el('title', {}, dot, text);
    dot.addEventListener('mouseover', () => { hover.textContent = text; });
    chart.dataset.marks = String(Number(chart.dataset.marks) + 1);
  }
}

// The results table: one row per (point, workload); a click on a header sorts by it.
function table() {
  const box = document.getElementById('points'), tableEl = document.createElement('table');
  const head = tableEl.createTHead().insertRow(), body = tableEl.createTBody();
  let sortColumn = -1, ascending = true;
  function render() {
    const rows = data.rows.slice();
    if (sortColumn >= 0) {
      rows.sort((a, b) => {
        const u = a[sortColumn], v = b[sortColumn];
        const order = u === v ? 0 : u === null ? 1 : v === null ? -1 : u < v ? -1 : 1;
        return ascending ? order : -order;
      });
    }
    body.replaceChildren(...rows.map(row => {
      const tr = document.createElement('tr');
      if (row[col('pareto')] === 1) tr.className = 'front';
      for (const value of row) tr.insertCell().textContent = fmt(value);
      return tr;
    }));
    box.dataset.marks = String(rows.length);
  }
  data.columns.forEach((name, i) => {
    const th = document.createElement('th');
    th.textContent = name;
    th.addEventListener('click', () => { ascending = sortColumn === i ? !ascending : true; sortColumn = i; render(); });
    head.appendChild(th);
  });
  box.appendChild(tableEl);
  render();
}

document.getElementById('summary').textContent =
  `${points.size} points, ${data.rows.length} results, ${[...points.values()].filter(p => p.front).length} on the Pareto front`;
scatter();
table();
)JS";

}  // namespace polyarch::reports::html
