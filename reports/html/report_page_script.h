#pragma once
// The JavaScript and CSS of report.html, inlined so the page needs no network: hand-written SVG
// charts (no charting library) reading the report embedded as JSON in #report-data. Each chart's
// <svg> gets data-marks = the number of marks it drew, which the browser test checks.

namespace polyarch::reports::html {

inline constexpr const char* kReportCss = R"CSS(
body{font:14px system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
svg{background:#fafafa;border:1px solid #ddd}
.axis{stroke:#999}.label{font-size:11px;fill:#555}
.legend span{display:inline-block;margin-right:12px}
.swatch{display:inline-block;width:10px;height:10px;margin-right:4px}
table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right;border-bottom:1px solid #eee}
#mappings td:last-child{text-align:left;font-family:monospace;font-size:12px}
#attention-forms td:last-child{text-align:left;font-size:12px}
)CSS";

inline constexpr const char* kReportScript = R"JS(
'use strict';
const report = JSON.parse(document.getElementById('report-data').textContent);
const NS = 'http://www.w3.org/2000/svg';
const COLORS = ['#4e79a7','#f28e2b','#e15759','#76b7b2','#59a14f','#edc948','#b07aa1','#ff9da7'];
const units = report.units.map(u => u.name);
const color = name => COLORS[Math.max(0, units.indexOf(name)) % COLORS.length];
function el(tag, attrs, parent, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}
function svg(id, width, height) {
  const node = el('svg', {width, height, viewBox: `0 0 ${width} ${height}`});
  document.getElementById(id).appendChild(node);
  return node;
}
function fmt(x) { return x === null || x === undefined ? '–' : Number(x).toPrecision(4); }
function mark(node, title, parent) {
  node.classList.add('mark');
  el('title', {}, node, title);
  parent.dataset.marks = String(Number(parent.dataset.marks || 0) + 1);
  return node;
}
function legend(id) {
  const box = document.getElementById(id);
  box.className = 'legend';
  for (const name of units) {
    const item = document.createElement('span');
    item.innerHTML = `<i class="swatch" style="background:${color(name)}"></i>`;
    item.appendChild(document.createTextNode(name));
    box.appendChild(item);
  }
}

// Per-op latency, one bar per op coloured by the unit that ran it, placed on the timeline.
function latencyChart() {
  const ops = report.ops, rowH = 14, left = 160, width = 900;
  const chart = svg('latency', width, Math.max(40, ops.length * rowH + 30));
  chart.dataset.marks = '0';
  const end = Math.max(1e-30, ...ops.map(o => o.start_cycle / Math.max(1, o.total_cycles) * o.latency_s + o.latency_s));
  ops.forEach((op, i) => {
    const seconds_per_cycle = op.total_cycles > 0 ? op.latency_s / op.total_cycles : 0;
    const x = left + (op.start_cycle * seconds_per_cycle) / end * (width - left - 10);
    const w = Math.max(1, op.latency_s / end * (width - left - 10));
    el('text', {x: left - 4, y: i * rowH + 11, 'text-anchor': 'end', class: 'label'}, chart, op.name);
    mark(el('rect', {x, y: i * rowH + 2, width: w, height: rowH - 3, fill: color(op.unit)}, chart),
         `${op.name} on ${op.unit}: ${fmt(op.latency_s)} s, ${fmt(op.energy_j)} J, bound ${op.bound ?? '–'}`, chart);
  });
  legend('latency-legend');
}

// Roofline: attained FLOP/s against arithmetic intensity, log-log, with each unit's ceiling.
// Energy per op (one bar each, coloured by unit; the hover lists its actions) and per unit (one
// segment per action, stacked, shaded within the unit's colour).
function actionsText(energy) {
  return Object.entries(energy || {}).map(([a, j]) => `${a} ${fmt(j)} J`).join(', ');
}
function energyOpsChart() {
  const ops = report.ops.filter(o => o.energy_j !== null && o.energy_j !== undefined);
  const rowH = 14, left = 160, width = 900;
  const chart = svg('energy-ops', width, Math.max(40, ops.length * rowH + 30));
  chart.dataset.marks = '0';
  if (!ops.length) { el('text', {x: 10, y: 24, class: 'label'}, chart, 'no energy model for this run'); return; }
  const most = Math.max(1e-30, ...ops.map(o => o.energy_j));
  ops.forEach((op, i) => {
    el('text', {x: left - 4, y: i * rowH + 11, 'text-anchor': 'end', class: 'label'}, chart, op.name);
    mark(el('rect', {x: left, y: i * rowH + 2, width: Math.max(1, op.energy_j / most * (width - left - 20)), height: rowH - 3, fill: color(op.unit)}, chart),
         `${op.name} on ${op.unit}: ${fmt(op.energy_j)} J (${actionsText(op.energy_by_action)})`, chart);
  });
}
function energyUnitsChart() {
  const rowH = 22, left = 160, width = 900;
  const rows = report.units.filter(u => u.energy_by_action);
  const chart = svg('energy-units', width, Math.max(40, rows.length * rowH + 20));
  chart.dataset.marks = '0';
  if (!rows.length) { el('text', {x: 10, y: 24, class: 'label'}, chart, 'no energy model for this run'); return; }
  const most = Math.max(1e-30, ...rows.map(u => Object.values(u.energy_by_action).reduce((a, b) => a + b, 0)));
  rows.forEach((unit, i) => {
    el('text', {x: left - 4, y: i * rowH + 15, 'text-anchor': 'end', class: 'label'}, chart, unit.name);
    let x = left;
    Object.entries(unit.energy_by_action).filter(([, j]) => j > 0).forEach(([action, joules], k) => {
      const w = joules / most * (width - left - 20);
      mark(el('rect', {x, y: i * rowH + 3, width: Math.max(1, w), height: rowH - 6, fill: color(unit.name), 'fill-opacity': 1 - 0.12 * (k % 6), stroke: '#fff'}, chart),
           `${unit.name} ${action}: ${fmt(joules)} J`, chart);
      x += w;
    });
  });
}

function rooflineChart() {
  const points = report.ops.filter(o => o.roofline && o.roofline.ops_per_byte > 0 && o.roofline.attained_flops_per_s > 0);
  const width = 600, height = 360, pad = 50;
  const chart = svg('roofline', width, height);
  chart.dataset.marks = '0';
  if (!points.length) { el('text', {x: pad, y: height / 2, class: 'label'}, chart, 'no op of this run reports roofline data'); return; }
  const xs = points.map(o => o.roofline.ops_per_byte), ys = points.map(o => o.roofline.attained_flops_per_s);
  const peaks = points.map(o => o.roofline.peak_flops_per_s || 0);
  const x0 = Math.log10(Math.min(...xs)) - 1, x1 = Math.log10(Math.max(...xs)) + 1;
  const y0 = Math.log10(Math.min(...ys)) - 1, y1 = Math.log10(Math.max(...ys, ...peaks)) + 0.5;
  const X = v => pad + (Math.log10(v) - x0) / (x1 - x0) * (width - 2 * pad);
  const Y = v => height - pad - (Math.log10(v) - y0) / (y1 - y0) * (height - 2 * pad);
  el('line', {x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, class: 'axis'}, chart);
  el('line', {x1: pad, y1: pad, x2: pad, y2: height - pad, class: 'axis'}, chart);
  el('text', {x: width / 2, y: height - 12, class: 'label'}, chart, 'FLOP per DRAM byte (log)');
  el('text', {x: 4, y: pad - 10, class: 'label'}, chart, 'FLOP/s (log)');
  const seen = new Set();
  for (const op of points) {
    const r = op.roofline;
    if (seen.has(op.unit) || !(r.peak_flops_per_s > 0 && r.dram_bytes_per_s > 0)) continue;
    seen.add(op.unit);
    const knee = r.peak_flops_per_s / r.dram_bytes_per_s, lo = Math.pow(10, x0), hi = Math.pow(10, x1);
    const path = [[lo, Math.max(Math.pow(10, y0), r.dram_bytes_per_s * lo)], [knee, r.peak_flops_per_s], [hi, r.peak_flops_per_s]]
      .map(([a, b], i) => `${i ? 'L' : 'M'}${X(Math.max(lo, a))},${Y(b)}`).join('');
    el('path', {d: path, fill: 'none', stroke: color(op.unit), 'stroke-dasharray': '4 3'}, chart);
  }
  for (const op of points) {
    mark(el('circle', {cx: X(op.roofline.ops_per_byte), cy: Y(op.roofline.attained_flops_per_s), r: 4, fill: color(op.unit)}, chart),
         `${op.name} (${op.unit}): ${fmt(op.roofline.ops_per_byte)} FLOP/B, ${fmt(op.roofline.attained_flops_per_s)} FLOP/s`, chart);
  }
}

// One polyline per unit over the power windows: watts, or degrees Celsius.
function seriesChart(id, series, unitLabel) {
  const width = 900, height = 220, pad = 45;
  const chart = svg(id, width, height);
  chart.dataset.marks = '0';
  const names = series ? Object.keys(series) : [];
  if (!names.length) { el('text', {x: pad, y: height / 2, class: 'label'}, chart, 'not available for this run'); return; }
  const all = names.flatMap(n => series[n]);
  const lo = Math.min(...all), hi = Math.max(...all) + 1e-12, n = Math.max(2, series[names[0]].length);
  const window_s = report.power_trace ? report.power_trace.window_s : 1;
  el('text', {x: 4, y: 14, class: 'label'}, chart, `${unitLabel}: ${fmt(lo)} – ${fmt(hi)}; ${series[names[0]].length} windows of ${fmt(window_s)} s`);
  for (const name of names) {
    const points = series[name].map((v, i) => `${pad + i / (n - 1) * (width - 2 * pad)},${height - pad - (v - lo) / (hi - lo) * (height - 2 * pad)}`);
    if (points.length === 1) points.push(points[0].replace(/^[^,]+/, String(width - pad)));
    mark(el('polyline', {points: points.join(' '), fill: 'none', stroke: color(name), 'stroke-width': 1.5}, chart), name, chart);
  }
}

// Floorplan heat map: one block per unit side by side, width by area (as the generated
// floorplan lays them out), coloured by its temperature in the slider's window.
function floorplanChart() {
  const celsius = report.thermal ? report.thermal.celsius : null;
  const width = 600, height = 160;
  const chart = svg('floorplan', width, height);
  chart.dataset.marks = '0';
  const slider = document.getElementById('floorplan-window');
  if (!celsius || !Object.keys(celsius).length) { slider.disabled = true; el('text', {x: 10, y: height / 2, class: 'label'}, chart, 'no thermal trace for this run'); return; }
  const names = Object.keys(celsius), windows = celsius[names[0]].length;
  const area = name => (report.units.find(u => u.name === name) || {}).area_mm2 || 1;
  const total = names.reduce((s, n) => s + area(n), 0);
  const all = names.flatMap(n => celsius[n]), lo = Math.min(...all), hi = Math.max(...all) + 1e-9;
  slider.max = String(Math.max(0, windows - 1));
  let x = 0;
  const blocks = names.map(name => {
    const w = area(name) / total * (width - 2);
    const rect = mark(el('rect', {x: 1 + x, y: 20, width: Math.max(1, w - 2), height: height - 40, stroke: '#333'}, chart), name, chart);
    el('text', {x: 1 + x + 4, y: 34, class: 'label'}, chart, name);
    x += w;
    return {name, rect};
  });
  const label = el('text', {x: 4, y: 14, class: 'label'}, chart, '');
  function paint() {
    const t = Number(slider.value);
    for (const {name, rect} of blocks) {
      const v = celsius[name][Math.min(t, celsius[name].length - 1)], f = (v - lo) / (hi - lo);
      rect.setAttribute('fill', `rgb(${Math.round(255 * f)},${Math.round(80 + 60 * (1 - f))},${Math.round(255 * (1 - f))})`);
      rect.querySelector('title').textContent = `${name}: ${fmt(v)} °C`;
    }
    label.textContent = `window ${t + 1} of ${windows}: ${fmt(lo)} – ${fmt(hi)} °C`;
  }
  slider.addEventListener('input', paint);
  paint();
}

// One row per op: where it ran, what bounded it, and its mapping in the unit kind's own terms
// (the searched point when the compiler searched it, else the scalar entries the model recorded).
function mappingTable() {
  const table = document.createElement('table');
  table.innerHTML = '<thead><tr><th>op</th><th>unit</th><th>dtype</th><th>bound</th><th>latency (s)</th><th>mapping</th></tr></thead>';
  const body = document.createElement('tbody');
  for (const op of report.ops) {
    const mapping = op.mapping || {};
    const text = mapping.search ? `${mapping.search.point} [${mapping.search.searcher}, ${mapping.search.evaluations} evaluations]`
      : Object.entries(mapping).filter(([, v]) => v === null || typeof v !== 'object').map(([k, v]) => `${k}=${v}`).join(' ');
    const row = document.createElement('tr');
    // A type the unit converted the op to says from what.
    const dtype = op.converted_from ? `${op.dtype} (from ${op.converted_from})` : (op.dtype || '–');
    for (const cell of [op.name, op.unit, dtype, op.bound || '–', fmt(op.latency_s), text]) {
      const td = document.createElement('td');
      td.textContent = cell;
      row.appendChild(td);
    }
    body.appendChild(row);
  }
  table.appendChild(body);
  table.dataset.marks = String(report.ops.length);
  document.getElementById('mappings').appendChild(table);
}

// How each attention op ran: fused or unfused, both forms' estimates and why.
function attentionFormsTable() {
  const forms = report.attention_forms || [];
  const box = document.getElementById('attention-forms');
  if (!forms.length) { box.textContent = 'no attention ops'; return; }
  const table = document.createElement('table');
  table.innerHTML = '<thead><tr><th>op</th><th>form</th><th>fused estimate (s)</th><th>unfused estimate (s)</th><th>why</th></tr></thead>';
  const body = document.createElement('tbody');
  for (const form of forms) {
    const row = document.createElement('tr');
    for (const cell of [form.op, form.form, fmt(form.fused_estimate_s), fmt(form.unfused_estimate_s), form.reason]) {
      const td = document.createElement('td');
      td.textContent = cell;
      row.appendChild(td);
    }
    body.appendChild(row);
  }
  table.appendChild(body);
  table.dataset.marks = String(forms.length);
  box.appendChild(table);
}

document.getElementById('summary').textContent =
  `${report.provenance.workload_name} on ${report.provenance.arch_name}: ${fmt(report.summary.latency_s)} s, ` +
  `${fmt(report.summary.energy_j)} J, ${fmt(report.summary.avg_power_w)} W, peak ${fmt(report.summary.peak_temp_c)} °C` +
  (report.mapping ? `; mappings ${report.mapping.mode}` : '');
latencyChart();
energyOpsChart();
energyUnitsChart();
rooflineChart();
mappingTable();
attentionFormsTable();
seriesChart('power', report.power_trace ? report.power_trace.watts : null, 'W');
seriesChart('temperature', report.thermal ? report.thermal.celsius : null, '°C');
legend('series-legend');
floorplanChart();
)JS";

}  // namespace polyarch::reports::html
