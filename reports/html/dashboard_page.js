'use strict';
// dashboard.html's views, from points.csv embedded as JSON in #sweep-data ({objectives,
// columns, rows}): the objectives' scatter (axes and colour selectable), parallel coordinates,
// per-parameter sensitivity and one table row per point with the workloads as columns. The
// filters select points; every view redraws from the selection. Uses charts.js.
const data = JSON.parse(document.getElementById('sweep-data').textContent);
const col = name => data.columns.indexOf(name);
// points.csv: point_id, the parameters, area_mm2, workload, workload_path, metrics, op_count, pareto.
const parameters = data.columns.slice(1, col('area_mm2'));
const metrics = data.columns.slice(col('workload_path') + 1).filter(name => name !== 'op_count' && name !== 'pareto' &&
  data.rows.every(row => row[col(name)] === null || typeof row[col(name)] === 'number'));
const objectives = data.objectives.length ? data.objectives
  : [{metric: 'latency_s', minimize: true}, {metric: 'energy_j', minimize: true}].filter(o => metrics.includes(o.metric));
const workloads = [...new Set(data.rows.map(row => row[col('workload')]))];

// A point's value of a metric over its workloads as the sweep ranks its objectives: the sum,
// the mean for avg_power_w, the point's own area_mm2; null when a workload has none.
function aggregate(metric, rows) {
  if (metric === 'area_mm2') return rows[0][col('area_mm2')];
  const values = rows.map(row => row[col(metric)]);
  if (values.length < workloads.length || values.some(v => v === null || v === undefined)) return null;
  const sum = values.reduce((a, b) => a + b, 0);
  return metric === 'avg_power_w' ? sum / values.length : sum;
}
const byPoint = new Map();
for (const row of data.rows) {
  const id = row[col('point_id')];
  if (!byPoint.has(id)) byPoint.set(id, []);
  byPoint.get(id).push(row);
}
const axisMetrics = [...new Set([...objectives.map(o => o.metric), 'area_mm2', ...metrics])];
const points = [...byPoint.entries()].map(([id, rows]) => {
  const point = {point_id: id, pareto: rows[0][col('pareto')] === 1 ? 'on the front' : 'off the front', rows};
  for (const name of parameters) point[name] = rows[0][col(name)];
  for (const metric of axisMetrics) point[metric] = aggregate(metric, rows);
  for (const row of rows) {
    for (const metric of metrics) point[`${row[col('workload')]}: ${metric}`] = row[col(metric)];
  }
  return point;
});
const reportLink = (id, workload) => `points/${encodeURIComponent(id)}/${encodeURIComponent(workload)}/report.html`;
points.forEach(p => { p.report = reportLink(p.point_id, workloads[0]); });
const isNumeric = name => points.every(p => typeof p[name] === 'number');
const objectiveTitle = metric => {
  const objective = objectives.find(o => o.metric === metric);
  const how = metric === 'area_mm2' ? 'per point' : metric === 'avg_power_w' ? 'mean over workloads' : 'sum over workloads';
  return `${metric} (${how}${objective ? `; objective, ${objective.minimize ? 'min' : 'max'}` : ''})`;
};

// Filters: a checkbox per parameter value, and the Pareto front alone.
const filters = {front: false, values: Object.fromEntries(parameters.map(name => [name, new Set(points.map(p => String(p[name])))]))};
const byValue = (a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)));
function distinct(name) { return [...new Set(points.map(p => p[name]))].sort(byValue); }
function buildFilters() {
  const box = document.getElementById('filters');
  const checkbox = (parent, text, checked, onChange) => {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.checked = checked;
    input.addEventListener('change', () => { onChange(input.checked); render(); });
    label.append(input, ' ', text);
    parent.appendChild(label);
    return input;
  };
  const front = document.createElement('fieldset');
  front.innerHTML = '<legend>Pareto front</legend>';
  checkbox(front, 'only points on the front', false, on => { filters.front = on; }).dataset.filter = 'front';
  box.appendChild(front);
  for (const name of parameters) {
    const set = document.createElement('fieldset');
    const legend = document.createElement('legend');
    legend.textContent = name;
    set.appendChild(legend);
    for (const value of distinct(name)) {
      const input = checkbox(set, fmt(value), true, on => {
        if (on) filters.values[name].add(String(value)); else filters.values[name].delete(String(value));
      });
      input.dataset.filter = `${name}=${value}`;
    }
    box.appendChild(set);
  }
}
function selected() {
  return points.filter(p => (!filters.front || p.pareto === 'on the front') &&
    parameters.every(name => filters.values[name].has(String(p[name]))));
}

// Axis and colour choice for the scatter (and colour of the parallel coordinates).
const choice = {
  x: objectives[0] ? objectives[0].metric : axisMetrics[0],
  y: objectives[1] ? objectives[1].metric : axisMetrics[1] || axisMetrics[0],
  color: objectives[2] ? objectives[2].metric : 'pareto',
};
function buildAxes() {
  const box = document.getElementById('axes');
  for (const [key, label] of [['x', 'x axis'], ['y', 'y axis'], ['color', 'colour']]) {
    const wrap = document.createElement('label');
    const select = document.createElement('select');
    select.id = `axis-${key}`;
    for (const metric of (key === 'color' ? ['pareto', ...axisMetrics] : axisMetrics)) {
      const option = document.createElement('option');
      option.value = metric;
      option.textContent = metric;
      option.selected = choice[key] === metric;
      select.appendChild(option);
    }
    select.addEventListener('change', () => { choice[key] = select.value; render(); });
    wrap.append(label + ' ', select);
    box.appendChild(wrap);
  }
}
// Vega-Lite reads '.' and '[' in a field name as nested access: parameters are key paths.
const esc = name => name.replace(/([.[\]\\])/g, '\\$1');
const parameterTooltips = () => parameters.map(name => ({field: esc(name), title: name, type: isNumeric(name) ? 'quantitative' : 'nominal'}));
function colorEncoding() {
  if (choice.color === 'pareto') return {field: 'pareto', type: 'nominal', title: 'Pareto', scale: {domain: ['on the front', 'off the front'], range: ['#e15759', '#4e79a7']}};
  return {field: choice.color, type: 'quantitative', title: objectiveTitle(choice.color), scale: {scheme: 'viridis', zero: false}};
}
// Log scale when every value is positive and they span more than a decade.
function scaleOf(metric) {
  const values = points.map(p => p[metric]).filter(v => typeof v === 'number');
  const positive = values.length && values.every(v => v > 0);
  return positive && Math.max(...values) / Math.min(...values) > 10 ? {type: 'log'} : {zero: false};
}

function scatter(shown) {
  const plotted = shown.filter(p => typeof p[choice.x] === 'number' && typeof p[choice.y] === 'number');
  if (!plotted.length) return noChart('pareto', 'no point shown has both values');
  const values = plotted.map(p => Object.assign({}, p, {rows: undefined}));
  drawChart('pareto', {
    name: 'data', width: 700, height: 420, data: {values}, params: [zoom('pareto_zoom')],
    mark: {type: 'point', filled: true, cursor: 'pointer'},
    encoding: {
      x: {field: choice.x, type: 'quantitative', title: objectiveTitle(choice.x), scale: scaleOf(choice.x), axis: {format: SI}},
      y: {field: choice.y, type: 'quantitative', title: objectiveTitle(choice.y), scale: scaleOf(choice.y), axis: {format: SI}},
      color: colorEncoding(),
      shape: {field: 'pareto', type: 'nominal', title: 'Pareto', scale: {domain: ['on the front', 'off the front'], range: ['diamond', 'circle']}},
      size: {condition: {test: "datum.pareto == 'on the front'", value: 110}, value: 50},
      href: {field: 'report'},
      tooltip: [{field: 'point_id'}, {field: 'pareto'},
        ...axisMetrics.filter(m => isNumeric(m) || points.some(p => p[m] !== null)).map(m => ({field: m, type: 'quantitative', format: '.4~g'})),
        ...parameterTooltips(), {field: 'report', title: 'report (after sweep show)'}],
    },
  }, plotted.length);
}

// Parallel coordinates: one vertical axis per parameter and objective, each scaled to its
// values among all points (so filtering keeps the axes still), with its own tick labels.
function dimensionScale(name, swept) {
  const values = distinct(name);
  if (!isNumeric(name)) {
    const step = values.length > 1 ? 1 / (values.length - 1) : 0;
    return {position: v => values.indexOf(v) * step + (values.length > 1 ? 0 : 0.5), ticks: values.map(v => [v, values.indexOf(v) * step + (values.length > 1 ? 0 : 0.5)])};
  }
  const lo = values[0], hi = values[values.length - 1];
  const log = lo > 0 && hi / lo > 100;
  const f = v => (log ? Math.log10(v) : v);
  const span = f(hi) - f(lo);
  const position = v => (span > 0 ? (f(v) - f(lo)) / span : 0.5);
  // A few swept values are their own ticks; else five, evenly over the span.
  const ticks = span > 0 ? swept && values.length <= 8 ? values.map(v => [v, position(v)]) : [0, 0.25, 0.5, 0.75, 1].map(t => {
    const v = log ? Math.pow(10, f(lo) + t * span) : lo + t * span;
    return [v, t];
  }) : [[lo, 0.5]];
  return {position, ticks};
}
function parallel(shown) {
  const dimensions = [...parameters, ...objectives.map(o => o.metric)].filter((name, i, all) => all.indexOf(name) === i &&
    points.some(p => p[name] !== null && p[name] !== undefined));
  if (!dimensions.length || !shown.length) return noChart('parallel', 'no point shown');
  const scales = Object.fromEntries(dimensions.map(name => [name, dimensionScale(name, parameters.includes(name))]));
  const summary = p => dimensions.map(name => `${name}=${fmt(p[name])}`).join(', ');
  const lines = shown.flatMap(p => dimensions.filter(name => p[name] !== null && p[name] !== undefined).map(name => ({
    point_id: p.point_id, pareto: p.pareto, [choice.color]: p[choice.color], dimension: name,
    position: scales[name].position(p[name]), value: p[name], values: summary(p), report: p.report})));
  const tickText = v => (typeof v === 'number' && v !== 0 && (Math.abs(v) < 0.01 || Math.abs(v) >= 1e4) ? si(v, '').replace(' ', '') : fmt(v));
  const ticks = dimensions.flatMap(name => scales[name].ticks.map(([value, position]) => ({dimension: name, position, label: tickText(value)})));
  const x = {field: 'dimension', type: 'nominal', title: null, sort: dimensions, scale: {domain: dimensions, padding: 0.1},
    axis: {orient: 'top', labelAngle: 0, labelLimit: 180, domain: false}};
  const y = {field: 'position', type: 'quantitative', axis: null, scale: {domain: [-0.04, 1.04]}};
  drawChart('parallel', {
    width: Math.max(500, 150 * dimensions.length), height: 300,
    layer: [
      {data: {values: dimensions.map(dimension => ({dimension}))}, mark: {type: 'rule', color: '#999'},
        encoding: {x, y: {datum: 0, type: 'quantitative', scale: {domain: [-0.04, 1.04]}, axis: null}, y2: {datum: 1}}},
      {name: 'data', data: {values: lines}, params: [zoom('parallel_zoom', ['y'])], mark: {type: 'line', strokeWidth: 1.5, opacity: 0.75, cursor: 'pointer'},
        encoding: {x, y, detail: {field: 'point_id'}, color: Object.assign(colorEncoding(), {legend: null}), href: {field: 'report'},
          tooltip: [{field: 'point_id'}, {field: 'pareto'}, {field: 'values', title: 'values'}]}},
      {data: {values: ticks}, mark: {type: 'text', align: 'right', dx: -4, fontSize: 10, color: '#444'},
        encoding: {x, y, text: {field: 'label'}}},
    ],
  }, shown.length);
}

// Sensitivity: for each objective and parameter, the objective's mean, lowest and highest value
// over the shown points that have each value of the parameter.
function sensitivity(shown) {
  if (!parameters.length || !shown.length) return noChart('sensitivity', 'no parameters or no point shown');
  const rows = objectives.flatMap(o => parameters.flatMap(name => distinct(name).flatMap(value => {
    const values = shown.filter(p => p[name] === value && typeof p[o.metric] === 'number').map(p => p[o.metric]);
    if (!values.length) return [];
    return [{objective: o.metric, parameter: name, value: fmt(value), order: distinct(name).indexOf(value), points: values.length,
      mean: values.reduce((a, b) => a + b, 0) / values.length, lowest: Math.min(...values), highest: Math.max(...values)}];
  })));
  if (!rows.length) return noChart('sensitivity', 'no objective values among the points shown');
  const views = objectives.flatMap((o, i) => parameters.map((name, j) => {
    const x = {field: 'value', type: 'ordinal', title: name, sort: {field: 'order'}, axis: {labelAngle: 0}};
    const tooltip = [{field: 'parameter'}, {field: 'value'}, {field: 'objective'}, {field: 'points'},
      {field: 'mean', format: '.4~g'}, {field: 'lowest', format: '.4~g'}, {field: 'highest', format: '.4~g'}];
    return {
      width: 220, height: 160, transform: [{filter: {and: [{field: 'objective', equal: o.metric}, {field: 'parameter', equal: name}]}}],
      layer: [
        {name: `data_${i}_${j}`, mark: {type: 'rule', color: '#999'}, encoding: {x, y: {field: 'lowest', type: 'quantitative'}, y2: {field: 'highest'}, tooltip}},
        {params: [zoom(`sensitivity_zoom_${i}_${j}`, ['y'])], mark: {type: 'line', point: {filled: true, size: 50}},
          encoding: {x, y: {field: 'mean', type: 'quantitative', title: o.metric, scale: {zero: false}, axis: {format: SI}}, tooltip}},
      ],
    };
  }));
  drawChart('sensitivity', {data: {values: rows}, concat: views, columns: Math.max(1, parameters.length), resolve: {scale: {y: 'independent', x: 'independent'}}}, rows.length);
}

// One row per point: its parameters, objectives and Pareto flag, then each workload's metrics
// and its report. A click on a header sorts by that column.
const tableColumns = ['point_id', ...parameters, ...objectives.map(o => o.metric).filter(m => m !== 'area_mm2'), 'area_mm2', 'pareto',
  ...workloads.flatMap(w => metrics.map(m => `${w}: ${m}`))];
const sort = {column: null, ascending: true};
function table(shown) {
  const box = document.getElementById('points');
  const rows = shown.slice();
  if (sort.column) {
    rows.sort((a, b) => {
      const u = a[sort.column], v = b[sort.column];
      const order = u === v ? 0 : u === null || u === undefined ? 1 : v === null || v === undefined ? -1 : byValue(u, v);
      return sort.ascending ? order : -order;
    });
  }
  const tableEl = fillTable(box, [...tableColumns, ...workloads.map(w => `${w}: report`)],
    rows.map(p => [...tableColumns.map(name => (p[name] === null || p[name] === undefined ? '' : p[name])), ...workloads.map(() => '')]),
    [...tableColumns.map(name => (isNumeric(name) ? '' : 'text'))]);
  tableEl.tBodies[0].querySelectorAll('tr').forEach((tr, i) => {
    if (rows[i].pareto === 'on the front') tr.className = 'front';
    workloads.forEach((w, k) => {
      const link = document.createElement('a');
      link.href = reportLink(rows[i].point_id, w);
      link.textContent = 'report';
      link.title = `written by: polyarch sweep show results.sqlite ${rows[i].point_id}`;
      tr.cells[tableColumns.length + k].appendChild(link);
    });
  });
  tableEl.tHead.querySelectorAll('th').forEach((th, i) => {
    if (i >= tableColumns.length) return;
    th.addEventListener('click', () => {
      sort.ascending = sort.column === tableColumns[i] ? !sort.ascending : true;
      sort.column = tableColumns[i];
      table(selected());
    });
  });
}

function render() {
  const shown = selected();
  const front = points.filter(p => p.pareto === 'on the front').length;
  document.getElementById('summary').textContent = `${points.length} points × ${workloads.length} workloads ` +
    `(${data.rows.length} results), ${front} on the Pareto front; ${shown.length} shown`;
  document.getElementById('summary').dataset.shown = String(shown.length);
  scatter(shown);
  parallel(shown);
  sensitivity(shown);
  table(shown);
  chartsDrawn();
}

buildFilters();
buildAxes();
render();
