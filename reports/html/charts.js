'use strict';
// Shared by report.html and dashboard.html: draws Vega-Lite charts through vega-embed (both
// inlined before this script, from third_party/). Charts are rendered as SVG so their tick labels
// are text; every chart has tooltips, an export menu (no "open in editor": that would leave the
// page) and, where its axes are continuous, zoom and pan (drag, wheel; double-click resets).
// Each chart's container gets data-marks: how many items its data layers (the views named
// "data" or "data_<...>") draw, which the browser test compares with the report and the SVG; <body data-charts="drawn"> once every chart is drawn.

const CHART_OPTIONS = {
  mode: 'vega-lite',
  renderer: 'svg',
  actions: {export: true, source: false, compiled: false, editor: false},
  tooltip: {theme: 'light'},
};
const CHART_CONFIG = {
  font: 'system-ui, sans-serif',
  axis: {labelFontSize: 11, titleFontSize: 12, grid: true, gridOpacity: 0.5},
  legend: {labelFontSize: 11, titleFontSize: 12, labelLimit: 260, titleLimit: 400},
  view: {stroke: '#ddd'},
};
// Scales bound to a drag/wheel interval: zoom and pan. `encodings` limits it to one axis; names
// must differ between the views of one chart.
function zoom(name, encodings) {
  const select = encodings ? {type: 'interval', encodings} : 'interval';
  return {name, select, bind: 'scales'};
}

function fmt(x) {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  return typeof x === 'number' ? Number(x.toPrecision(4)).toString() : String(x);
}
// A value with an SI prefix for text: si(1e-6, 's') is '1 \u00b5s'.
function si(x, unit) {
  const prefixes = [[1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k'], [1, ''], [1e-3, 'm'], [1e-6, '\u00b5'], [1e-9, 'n'], [1e-12, 'p']];
  if (!(x > 0)) return `${fmt(x)} ${unit}`;
  const [scale, prefix] = prefixes.find(([s]) => x >= s) || prefixes[prefixes.length - 1];
  return `${fmt(x / scale)} ${prefix}${unit}`;
}
// Axis ticks in SI prefixes (2.5µ, 40M), so a title "time (s)" reads as seconds at any scale.
const SI = '~s';

const pendingCharts = [];
const chartViews = {};  // id -> the promise of its Vega view, finalised when it is redrawn
function drawChart(id, spec, marks) {
  const box = document.getElementById(id);
  box.className = '';
  box.dataset.marks = String(marks);
  const previous = chartViews[id];
  const full = Object.assign({config: CHART_CONFIG}, spec);
  const done = Promise.resolve(previous).then(view => { if (view) view.finalize(); })
    .then(() => vegaEmbed(box, full, CHART_OPTIONS)).then(result => result.view)
    .catch(error => { console.error(`chart ${id}: ${error.message}`, error.stack); });
  chartViews[id] = done;
  pendingCharts.push(done);
  return done;
}
function noChart(id, why) {
  const box = document.getElementById(id);
  const previous = chartViews[id];
  delete chartViews[id];
  Promise.resolve(previous).then(view => { if (view) view.finalize(); });
  box.dataset.marks = '0';
  box.className = 'note';
  box.textContent = why;
}
// Marks <body data-charts> "drawn" once the charts asked for so far are; "drawing" until then.
function chartsDrawn() {
  document.body.dataset.charts = 'drawing';
  return Promise.all(pendingCharts.splice(0)).then(() => {
    if (!pendingCharts.length) document.body.dataset.charts = 'drawn';
  });
}

// A table from rows of cell values; `classes` names each column's cell class ('' = number).
function fillTable(box, header, rows, classes) {
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const name of header) {
    const th = document.createElement('th');
    th.textContent = name;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const cells of rows) {
    const tr = body.insertRow();
    cells.forEach((cell, i) => {
      const td = tr.insertCell();
      td.textContent = typeof cell === 'number' ? fmt(cell) : cell;
      if (classes && classes[i]) td.className = classes[i];
    });
  }
  table.dataset.marks = String(rows.length);
  box.replaceChildren(table);
  return table;
}
