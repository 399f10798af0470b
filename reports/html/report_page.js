'use strict';
// report.html's charts and tables, from the report embedded as JSON in #report-data (the same
// content as report.json, docs/report_schema.md). Uses charts.js.
const report = JSON.parse(document.getElementById('report-data').textContent);
const units = report.units.map(u => u.name);
const opNames = report.ops.map(o => o.name);
const unitColor = {field: 'unit', type: 'nominal', title: 'unit', scale: {domain: units}};
const seconds = (field, title) => ({field, type: 'quantitative', title, format: '.4~g'});

// Cycles are in the op's unit clock: latency_s / total_cycles converts them.
function opTimes(op) {
  const unit = report.units.find(u => u.name === op.unit) || {};
  const secondsPerCycle = op.total_cycles > 0 ? op.latency_s / op.total_cycles
    : 1 / ((unit.clock_ghz || report.summary.clock_ghz || 1) * 1e9);
  const start_s = op.start_cycle * secondsPerCycle;
  return {start_s, end_s: start_s + op.latency_s};
}

// Gantt: one row per unit, one bar per op over the time it ran.
function timelineChart() {
  const rows = report.ops.map(op => Object.assign({op: op.name, unit: op.unit, kind: op.kind,
    bound: op.bound || '–', latency_s: op.latency_s, energy_j: op.energy_j}, opTimes(op)));
  if (!rows.length) return noChart('timeline', 'no ops');
  drawChart('timeline', {
    name: 'data', width: 900, height: {step: 30}, data: {values: rows}, params: [zoom('timeline_zoom', ['x'])],
    mark: {type: 'bar', stroke: '#fff', strokeWidth: 0.5},
    encoding: {
      y: {field: 'unit', type: 'nominal', title: 'unit', sort: units},
      x: {field: 'start_s', type: 'quantitative', title: 'time (s)', axis: {format: SI}},
      x2: {field: 'end_s'},
      color: {field: 'kind', type: 'nominal', title: 'op kind'},
      tooltip: [{field: 'op'}, {field: 'unit'}, {field: 'kind'}, {field: 'bound'},
        seconds('start_s', 'start (s)'), seconds('end_s', 'end (s)'), seconds('latency_s', 'latency (s)'),
        {field: 'energy_j', title: 'energy (J)', format: '.4~g'}],
    },
  }, rows.length);
}

// Per op, its cycles split into computing and waiting on DRAM (stall = total - compute).
function computeStallChart() {
  const rows = report.ops.flatMap(op => [
    {op: op.name, unit: op.unit, part: 'compute', cycles: op.compute_cycles},
    {op: op.name, unit: op.unit, part: 'stall (waiting on DRAM)', cycles: op.stall_cycles},
  ]).filter(r => typeof r.cycles === 'number');
  if (!rows.length) return noChart('compute-stall', 'no op reports compute and stall cycles');
  drawChart('compute-stall', {
    name: 'data', width: 800, height: {step: 14}, data: {values: rows}, params: [zoom('compute_stall_zoom', ['x'])],
    mark: 'bar',
    encoding: {
      y: {field: 'op', type: 'nominal', title: 'op (execution order)', sort: opNames},
      x: {field: 'cycles', type: 'quantitative', title: 'cycles (of the op\'s unit clock)', stack: 'zero', axis: {format: SI}},
      color: {field: 'part', type: 'nominal', title: 'cycles', scale: {range: ['#4e79a7', '#e15759']}},
      tooltip: [{field: 'op'}, {field: 'unit'}, {field: 'part'}, {field: 'cycles', type: 'quantitative', format: ','}],
    },
  }, rows.length);
}

// Units: the fraction of the run they were busy. Ops: MACs over what the unit's peak could have
// done in the op's cycles.
function utilizationChart() {
  const unitRows = report.units.map(u => ({unit: u.name, kind: u.kind, busy: u.busy_fraction,
    busy_cycles: u.busy_cycles, total_cycles: u.total_cycles}));
  const opRows = report.ops.filter(o => typeof o.compute_utilization === 'number')
    .map(o => ({op: o.name, unit: o.unit, utilization: o.compute_utilization, macs: o.macs, bound: o.bound || '–'}));
  const most = Math.max(1, ...opRows.map(r => r.utilization), ...unitRows.map(r => r.busy));
  const fraction = (field, title) => ({field, type: 'quantitative', title, axis: {format: '%'}, scale: {domain: [0, most]}});
  drawChart('utilization', {
    vconcat: [
      {name: 'data_units', title: 'units: busy cycles / run cycles', width: 800, height: {step: 22}, data: {values: unitRows},
        params: [zoom('unit_utilization_zoom', ['x'])], mark: 'bar',
        encoding: {y: {field: 'unit', type: 'nominal', sort: units, title: 'unit'}, x: fraction('busy', 'busy fraction'),
          color: unitColor, tooltip: [{field: 'unit'}, {field: 'kind'}, {field: 'busy', format: '.2%', title: 'busy'},
            {field: 'busy_cycles', format: ','}, {field: 'total_cycles', format: ','}]}},
      {name: 'data_ops', title: 'ops: MACs / (peak MACs per cycle × op cycles)', width: 800, height: {step: 14}, data: {values: opRows},
        params: [zoom('op_utilization_zoom', ['x'])], mark: 'bar',
        encoding: {y: {field: 'op', type: 'nominal', sort: opNames, title: 'op (execution order)'},
          x: fraction('utilization', 'compute utilisation'), color: unitColor,
          tooltip: [{field: 'op'}, {field: 'unit'}, {field: 'utilization', format: '.2%', title: 'utilisation'},
            {field: 'macs', format: ','}, {field: 'bound'}]}},
    ],
  }, unitRows.length + opRows.length);
}

// One roofline per unit: its ops' attained FLOP/s against FLOP per byte of the memory that
// feeds the unit (log-log), under the unit's compute peak and that memory's bandwidth: DRAM, or
// for a PIM unit its banks' internal bandwidth (the roofline then carries internal_bytes). (A
// kind's other ceilings, such as simd's L2, bound FLOP per byte of that level, not of DRAM, so
// they are not drawn on this axis.)
function memoryOf(roofline) {
  return roofline.internal_bytes_per_s > 0 || roofline.internal_bytes > 0
    ? {name: 'bank-internal', bytes: 'internal_bytes', bandwidth: roofline.internal_bytes_per_s}
    : {name: 'DRAM', bytes: 'dram_bytes', bandwidth: roofline.dram_bytes_per_s};
}
function intensityOf(roofline) {
  if (roofline.ops_per_byte > 0) return roofline.ops_per_byte;
  const bytes = roofline[memoryOf(roofline).bytes];
  return roofline.flops > 0 && bytes > 0 ? roofline.flops / bytes : 0;
}
const hasRoofline = o => o.roofline && intensityOf(o.roofline) > 0 && o.roofline.attained_flops_per_s > 0;
function rooflineOf(unit, index) {
  const ops = report.ops.filter(o => o.unit === unit.name && hasRoofline(o));
  if (!ops.length) return null;
  const r = ops[0].roofline, peak = r.peak_flops_per_s, memory = memoryOf(r);
  const points = ops.map(o => ({op: o.name, bound: o.bound || '–', intensity: intensityOf(o.roofline),
    flops_per_s: o.roofline.attained_flops_per_s, flops: o.roofline.flops, bytes: o.roofline[memory.bytes]}));
  const xs = points.map(p => p.intensity);
  const knees = peak > 0 && memory.bandwidth > 0 ? [peak / memory.bandwidth] : [];
  const lo = Math.min(...xs, ...knees) / 4, hi = Math.max(...xs, ...knees) * 4;
  const lines = knees.length ? [lo, Math.min(hi, Math.max(lo, knees[0])), hi].map(x => ({
    ceiling: `${memory.name} bandwidth and compute peak`, intensity: x, flops_per_s: Math.min(peak, memory.bandwidth * x),
    bytes_per_s: memory.bandwidth, peak})) : [];
  const x = {field: 'intensity', type: 'quantitative', title: `arithmetic intensity (FLOP per ${memory.name} byte)`,
    scale: {type: 'log', domain: [lo, hi]}, axis: {format: SI}};
  const y = {field: 'flops_per_s', type: 'quantitative', title: 'attained (FLOP/s)', scale: {type: 'log'}, axis: {format: SI}};
  return {
    title: `${unit.name} (${unit.kind}): peak ${si(peak, 'FLOP/s')}`, width: 420, height: 300,
    layer: [
      {data: {values: lines}, mark: {type: 'line', color: '#555', strokeWidth: 1.5},
        encoding: {x, y, strokeDash: {field: 'ceiling', type: 'nominal', title: 'ceiling'},
          tooltip: [{field: 'ceiling'}, {field: 'bytes_per_s', title: `${memory.name} bandwidth (B/s)`, format: '.4~s'},
            {field: 'peak', title: 'compute peak (FLOP/s)', format: '.4~s'}]}},
      {name: `data_${index}`, data: {values: points}, params: [zoom(`roofline_zoom_${index}`)], mark: {type: 'point', filled: true, size: 60},
        encoding: {x, y, color: {field: 'bound', type: 'nominal', title: 'op bound by'},
          tooltip: [{field: 'op'}, {field: 'bound'}, {field: 'intensity', title: `FLOP per ${memory.name} byte`, format: '.4~g'},
            {field: 'flops_per_s', title: 'attained (FLOP/s)', format: '.4~s'},
            {field: 'flops', title: 'FLOP', format: '.4~s'}, {field: 'bytes', title: `${memory.name} bytes`, format: '.4~s'}]}},
    ],
    marks: points.length,
  };
}
function rooflineChart() {
  const views = report.units.map(rooflineOf).filter(v => v);
  const missing = report.units.filter(u => !report.ops.some(o => o.unit === u.name && hasRoofline(o))).map(u => u.name);
  document.getElementById('roofline-note').textContent = missing.length
    ? `no op with roofline data on ${missing.join(', ')}` : '';
  if (!views.length) return noChart('roofline', 'no op of this run reports roofline data');
  const marks = views.reduce((n, v) => n + v.marks, 0);
  views.forEach(v => delete v.marks);
  drawChart('roofline', {concat: views, columns: 2, resolve: {scale: {color: 'shared', strokeDash: 'shared'}}}, marks);
}

// Energy by action: per unit (its ops plus idle leakage) and per op, stacked.
function energyChart(id, owners, ownerField, sort) {
  const rows = owners.flatMap(owner => Object.entries(owner.energy_by_action || {})
    .filter(([, joules]) => joules > 0)
    .map(([action, joules]) => ({[ownerField]: owner.name, unit: owner.unit || owner.name, action, joules})));
  if (!rows.length) return noChart(id, 'no energy model for this run');
  drawChart(id, {
    name: 'data', width: 800, height: {step: ownerField === 'unit' ? 26 : 14}, data: {values: rows},
    params: [zoom(`${id}_zoom`, ['x'])], mark: 'bar',
    encoding: {
      y: {field: ownerField, type: 'nominal', sort, title: ownerField},
      x: {field: 'joules', type: 'quantitative', stack: 'zero', title: 'energy (J)', axis: {format: SI}},
      color: {field: 'action', type: 'nominal', title: 'action', scale: {scheme: 'tableau20'}},
      tooltip: [{field: ownerField}, {field: 'unit'}, {field: 'action'}, {field: 'joules', title: 'energy (J)', format: '.4~g'}],
    },
  }, rows.length);
}

// A piecewise-constant series from [start, end, value] intervals (summed where they overlap):
// one point per change, drawn with step-after interpolation.
function stepSeries(intervals) {
  const times = [...new Set(intervals.flatMap(([s, e]) => [s, e]))].sort((a, b) => a - b);
  return times.map(t => ({time_s: t, value: intervals.reduce((sum, [s, e, v]) => sum + (s <= t && t < e ? v : 0), 0)}));
}

// DRAM bandwidth over time: each op's bytes over the time it ran, per unit and all together,
// under the arch's DRAM bandwidth.
function dramBandwidthChart() {
  const intervals = report.ops.filter(o => o.latency_s > 0).map(o => {
    const t = opTimes(o);
    return {unit: o.unit, interval: [t.start_s, t.end_s, ((o.dram_bytes_read || 0) + (o.dram_bytes_written || 0)) / o.latency_s / 1e9]};
  });
  const series = units.map(name => ({name, points: stepSeries(intervals.filter(i => i.unit === name).map(i => i.interval))}))
    .filter(s => s.points.some(p => p.value > 0));
  if (units.length > 1) series.push({name: 'all units', points: stepSeries(intervals.map(i => i.interval))});
  if (!series.length) return noChart('dram-bandwidth', 'no DRAM traffic in this run');
  const rows = series.flatMap(s => s.points.map(p => ({series: s.name, time_s: p.time_s, gbps: p.value})));
  const dram = ((report.arch || {}).memory || {}).dram || {};
  const peak = dram.sustained_bandwidth_gbps || dram.bandwidth_gbps;
  const layers = [{
    name: 'data', data: {values: rows}, params: [zoom('dram_zoom', ['x'])], mark: {type: 'line', interpolate: 'step-after'},
    encoding: {
      x: {field: 'time_s', type: 'quantitative', title: 'time (s)', axis: {format: SI}},
      y: {field: 'gbps', type: 'quantitative', title: 'DRAM bandwidth (GB/s)'},
      color: {field: 'series', type: 'nominal', title: 'traffic of', scale: {domain: series.map(s => s.name)}},
      tooltip: [{field: 'series'}, seconds('time_s', 'from (s)'), {field: 'gbps', title: 'GB/s', format: '.4~g'}],
    },
  }];
  if (peak > 0) {
    layers.push({data: {values: [{gbps: peak, label: `DRAM ${fmt(peak)} GB/s`}]}, mark: {type: 'rule', strokeDash: [4, 3], color: '#888'},
      encoding: {y: {field: 'gbps', type: 'quantitative'}, tooltip: [{field: 'label', title: 'ceiling'}]}});
  }
  drawChart('dram-bandwidth', {width: 800, height: 240, layer: layers}, series.length);
}

// Power (W) per unit per window, and temperature (°C) per block at the end of each window.
function seriesChart(id, byUnit, title, interpolate) {
  const names = byUnit ? Object.keys(byUnit) : [];
  if (!names.length) return noChart(id, 'not available for this run');
  const window_s = report.power_trace ? report.power_trace.window_s : 1;
  const atEnd = interpolate !== 'step-after';
  const rows = names.flatMap(unit => {
    const values = byUnit[unit];
    const points = values.map((v, i) => ({unit, window: i + 1, time_s: (i + (atEnd ? 1 : 0)) * window_s, value: v}));
    if (!atEnd && values.length) points.push({unit, window: values.length, time_s: values.length * window_s, value: values[values.length - 1]});
    return points;
  });
  drawChart(id, {
    name: 'data', width: 800, height: 240, data: {values: rows}, params: [zoom(`${id}_zoom`, ['x'])],
    mark: {type: 'line', interpolate, point: rows.length <= 2 * names.length * 60},
    encoding: {
      x: {field: 'time_s', type: 'quantitative', title: `time (s; windows of ${si(window_s, 's')})`, axis: {format: SI}},
      y: {field: 'value', type: 'quantitative', title, scale: {zero: false}},
      color: unitColor,
      tooltip: [{field: 'unit'}, {field: 'window'}, seconds('time_s', 'time (s)'), {field: 'value', title, format: '.4~g'}],
    },
  }, names.length);
}

// Floorplan heat map: the generated floorplan (blocks side by side, each as tall as the square
// of the total area is wide, width by area), coloured by temperature in the slider's window.
function floorplanChart() {
  const celsius = report.thermal ? report.thermal.celsius : null;
  const names = celsius ? Object.keys(celsius) : [];
  if (!names.length) return noChart('floorplan', 'no thermal trace for this run');
  const area = name => (report.units.find(u => u.name === name) || {}).area_mm2 || 0;
  const total = names.reduce((s, n) => s + area(n), 0);
  if (!(total > 0)) return noChart('floorplan', 'no unit areas for a floorplan');
  const height_mm = Math.sqrt(total), windows = celsius[names[0]].length;
  const window_s = report.power_trace ? report.power_trace.window_s : 0;
  let left = 0;
  const rows = names.flatMap(unit => {
    const width_mm = area(unit) / height_mm, x0 = left;
    left += width_mm;
    return celsius[unit].map((c, w) => ({unit, window: w + 1, until_s: (w + 1) * window_s, celsius: c,
      x0, x1: x0 + width_mm, y0: 0, y1: height_mm, cx: x0 + width_mm / 2, area_mm2: area(unit)}));
  });
  const all = rows.map(r => r.celsius);
  const generated = !report.thermal.floorplan || /generated/.test(report.thermal.floorplan);
  document.getElementById('floorplan-note').textContent = generated ? ''
    : `the thermal model used ${report.thermal.floorplan}; drawn here side by side by area`;
  const mm = title => ({type: 'quantitative', title, axis: {format: '.3~g'}});
  drawChart('floorplan', {
    width: 420, height: Math.max(100, Math.round(420 * height_mm / left)),
    data: {values: rows},
    params: [{name: 'power_window', value: windows, bind: {input: 'range', min: 1, max: windows, step: 1, name: 'power window '}}],
    transform: [{filter: 'datum.window == power_window'}],
    layer: [
      {name: 'data', params: [zoom('floorplan_zoom')], mark: {type: 'rect', stroke: '#333'},
        encoding: {x: Object.assign({field: 'x0'}, mm('x (mm)')), x2: {field: 'x1'},
          y: Object.assign({field: 'y0'}, mm('y (mm)')), y2: {field: 'y1'},
          color: {field: 'celsius', type: 'quantitative', title: '°C', scale: {scheme: 'inferno', domain: [Math.min(...all), Math.max(...all)]}},
          tooltip: [{field: 'unit'}, {field: 'celsius', title: '°C', format: '.4~g'}, {field: 'window'},
            seconds('until_s', 'window ends (s)'), {field: 'area_mm2', title: 'area (mm²)', format: '.4~g'}]}},
      {mark: {type: 'text', baseline: 'top', dy: 6, color: '#fff'},
        encoding: {x: {field: 'cx', type: 'quantitative'}, y: {field: 'y1', type: 'quantitative'}, text: {field: 'unit'}}},
    ],
  }, names.length);
}

// One row per op: where it ran, what bounded it, and its mapping in the unit kind's own terms
// (the searched point when the compiler searched it, else the scalar entries the model recorded).
function mappingTable() {
  const rows = report.ops.map(op => {
    const mapping = op.mapping || {};
    const text = mapping.search ? `${mapping.search.point} [${mapping.search.searcher}, ${mapping.search.evaluations} evaluations]`
      : Object.entries(mapping).filter(([, v]) => v === null || typeof v !== 'object').map(([k, v]) => `${k}=${v}`).join(' ');
    // A type the unit converted the op to says from what.
    const dtype = op.converted_from ? `${op.dtype} (from ${op.converted_from})` : (op.dtype || '–');
    return [op.name, op.unit, dtype, op.bound || '–', op.latency_s, text];
  });
  fillTable(document.getElementById('mappings'), ['op', 'unit', 'dtype', 'bound', 'latency (s)', 'mapping'], rows,
    ['text', 'text', 'text', 'text', '', 'code']);
}

// How each attention op ran: fused or unfused, both forms' estimates and why.
function attentionFormsTable() {
  const forms = report.attention_forms || [];
  const box = document.getElementById('attention-forms');
  if (!forms.length) { box.textContent = 'no attention ops'; return; }
  fillTable(box, ['op', 'form', 'fused estimate (s)', 'unfused estimate (s)', 'why'],
    forms.map(f => [f.op, f.form, f.fused_estimate_s, f.unfused_estimate_s, f.reason]), ['text', 'text', '', '', 'text']);
}

document.getElementById('summary').textContent =
  `${report.provenance.workload_name} on ${report.provenance.arch_name}: ${fmt(report.summary.latency_s)} s, ` +
  `${fmt(report.summary.energy_j)} J, ${fmt(report.summary.avg_power_w)} W, peak ${fmt(report.summary.peak_temp_c)} °C` +
  (report.mapping ? `; mappings ${report.mapping.mode}` : '');
timelineChart();
computeStallChart();
utilizationChart();
rooflineChart();
energyChart('energy-units', report.units, 'unit', units);
energyChart('energy-ops', report.ops, 'op', opNames);
dramBandwidthChart();
seriesChart('power', report.power_trace ? report.power_trace.watts : null, 'power (W)', 'step-after');
seriesChart('temperature', report.thermal ? report.thermal.celsius : null, 'temperature (°C)', 'linear');
floorplanChart();
mappingTable();
attentionFormsTable();
chartsDrawn();
