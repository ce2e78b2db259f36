// report.js draws serbench's charts with ECharts and makes the results
// table sortable and filterable. SERBENCH_CHARTS is set by the page.
"use strict";

const PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
  "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#2ca02c", "#d62728", "#9467bd"];

function fmtDur(ns) {
  const units = [[1e9, "s"], [1e6, "ms"], [1e3, "µs"], [1, "ns"]];
  for (const [div, name] of units) {
    if (ns >= div || div === 1) {
      const v = ns / div;
      return (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)) + " " + name;
    }
  }
  return String(ns);
}

function fmtBytes(n) {
  if (n >= 1e6) return (n / 1e6).toFixed(n >= 1e7 ? 0 : 1) + " MB";
  if (n >= 1e4) return (n / 1e3).toFixed(n >= 1e5 ? 0 : 1) + " kB";
  return n + " B";
}

function fmtNum(n) {
  return n >= 1e6 ? (n / 1e6).toFixed(1) + "M" : n >= 1e4 ? (n / 1e3).toFixed(0) + "k" : String(Math.round(n));
}

function esc(s) {
  return String(s).replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]);
}

function label(c) { return (c.flags ? c.name + " †" : c.name) + (c.marks ? " [" + c.marks + "]" : "") + (c.implausible ? " !" : ""); }

// marked reports whether a codec's variant marks (codes, "BG") pass the
// filter f: "" for all, "+B" for those marked B, "-B" for those not.
function marked(marks, f) {
  if (!f) return true;
  const has = (marks || "").includes(f.slice(1));
  return f[0] === "+" ? has : !has;
}

// IMPLAUSIBLE is how every chart draws a figure that may not rank.
const IMPLAUSIBLE = { color: "#c9ccd1", decal: { symbol: "rect", dashArrayX: [1, 0], dashArrayY: [2, 3], rotation: -0.8, color: "rgba(0,0,0,0.25)" } };

// ranked orders a shape's codecs for a chart: those that may rank by key,
// then those with an implausible figure, never first.
function ranked(codecs, key) {
  return codecs.slice().sort((a, b) => (a.implausible ? 1 : 0) - (b.implausible ? 1 : 0) || key(a) - key(b));
}

function barStyle(c) {
  return c.implausible ? IMPLAUSIBLE : { color: PALETTE[c.color % PALETTE.length] };
}

// errorBar draws a horizontal interval [lo, hi] on category row idx.
function errorBar(params, api) {
  const y = api.value(2);
  const lo = api.coord([api.value(0), y]);
  const hi = api.coord([api.value(1), y]);
  const cap = api.size([0, 1])[1] * 0.25;
  const style = { stroke: "#222", lineWidth: 1.5 };
  return {
    type: "group",
    children: [
      { type: "line", shape: { x1: lo[0], y1: lo[1], x2: hi[0], y2: hi[1] }, style },
      { type: "line", shape: { x1: lo[0], y1: lo[1] - cap, x2: lo[0], y2: lo[1] + cap }, style },
      { type: "line", shape: { x1: hi[0], y1: hi[1] - cap, x2: hi[0], y2: hi[1] + cap }, style },
    ],
  };
}

function baseOption(title, names, xAxis) {
  return {
    animation: false,
    title: { text: title, left: "center", top: 2, textStyle: { fontSize: 13, fontWeight: "normal" } },
    grid: { left: 8, right: 24, top: 30, bottom: 8, containLabel: true },
    tooltip: { trigger: "item", confine: true },
    xAxis: Object.assign({ splitLine: { lineStyle: { color: "#eee" } }, nameGap: 4 }, xAxis),
    yAxis: { type: "category", data: names, inverse: true, axisTick: { show: false } },
  };
}

// timeChart: median per op with its interval, fastest first.
function timeChart(el, cat, op) {
  const rows = ranked(cat.codecs.filter(c => c[op]), c => c[op].median);
  if (rows.length === 0) return null;
  const vals = rows.map(c => c[op]);
  const lo = Math.min(...vals.map(v => v.lo > 0 ? v.lo : v.median));
  const hi = Math.max(...vals.map(v => Math.max(v.hi, v.median)));
  const log = hi / lo >= 10;
  const chart = echarts.init(el, null, { renderer: "svg" });
  const opt = baseOption(op + " time per op" + (log ? " (log scale)" : ""), rows.map(label), {
    type: log ? "log" : "value",
    min: log ? Math.pow(10, Math.floor(Math.log10(lo))) : 0,
    axisLabel: { formatter: v => fmtDur(v), hideOverlap: true },
  });
  opt.series = [
    {
      type: "bar", barMaxWidth: 22,
      data: rows.map(c => ({ value: c[op].median, itemStyle: barStyle(c) })),
      tooltip: {
        formatter: p => {
          const c = rows[p.dataIndex], v = c[op];
          return "<b>" + esc(c.name) + "</b> " + op + "<br>median " + fmtDur(v.median) +
            "<br>interval " + fmtDur(v.lo) + " – " + fmtDur(v.hi) +
            (c.items > 1 ? "<br>" + fmtDur(v.median / c.items) + " per item (" + c.items + ")" : "") +
            (c.flags ? "<br>† " + esc(c.flags) : "") + implausibleNote(c.implausible);
        },
      },
    },
    {
      type: "custom", renderItem: errorBar, z: 10, silent: true,
      encode: { x: [0, 1], y: 2 },
      data: rows.filter(c => c[op].lo > 0 || c[op].hi > 0).map(c => [c[op].lo, c[op].hi, rows.indexOf(c)]),
    },
  ];
  chart.setOption(opt);
  return chart;
}

// bytesChart: the size of one encoded message, smallest first.
function bytesChart(el, cat) {
  const rows = ranked(cat.codecs.filter(c => c.encode || c.decode), c => c.bytes);
  if (rows.length === 0) return null;
  const chart = echarts.init(el, null, { renderer: "svg" });
  const opt = baseOption("encoded size", rows.map(label), {
    type: "value", axisLabel: { formatter: v => fmtBytes(v), hideOverlap: true },
  });
  opt.grid.right = 56; // room for the value labels past the longest bar
  opt.series = [{
    type: "bar", barMaxWidth: 22,
    data: rows.map(c => ({ value: c.bytes, itemStyle: barStyle(c) })),
    label: { show: true, position: "right", formatter: p => fmtBytes(p.value), fontSize: 10 },
    tooltip: {
      formatter: p => {
        const c = rows[p.dataIndex];
        return "<b>" + esc(c.name) + "</b><br>" + c.bytes + " bytes" +
          (c.items > 1 ? "<br>" + (c.bytes / c.items).toFixed(1) + " per item (" + c.items + ")" : "") +
          implausibleNote(c.implausible);
      },
    },
  }];
  chart.setOption(opt);
  return chart;
}

// allocsChart: allocations per op, encode and decode side by side.
function allocsChart(el, cat) {
  const rows = ranked(cat.codecs.filter(c => c.encode || c.decode),
    c => (c.encode ? c.encode.allocs : 0) + (c.decode ? c.decode.allocs : 0));
  if (rows.length === 0) return null;
  const chart = echarts.init(el, null, { renderer: "svg" });
  const opt = baseOption("allocations per op", rows.map(label), {
    type: "value", minInterval: 1, axisLabel: { formatter: v => fmtNum(v), hideOverlap: true },
  });
  opt.legend = { bottom: 0, itemWidth: 12, itemHeight: 8, textStyle: { fontSize: 10 } };
  opt.grid.bottom = 24;
  const series = (op, color) => ({
    name: op, type: "bar", barMaxWidth: 12, itemStyle: { color },
    data: rows.map(c => c[op] ? c[op].allocs : null),
    tooltip: {
      formatter: p => {
        const v = rows[p.dataIndex][op];
        return "<b>" + esc(rows[p.dataIndex].name) + "</b> " + op + "<br>" +
          (v ? v.allocs.toFixed(1) + " allocs, " + Math.round(v.bPerOp) + " B per op" : "not measured");
      },
    },
  });
  opt.series = [series("encode", "#4e79a7"), series("decode", "#f28e2b")];
  chart.setOption(opt);
  return chart;
}

function implausibleNote(why) {
  return why ? "<br><b>! implausible</b>, not ranked: " + esc(why) : "";
}

function fmtRatio(r) {
  return (r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(0) : r >= 1.1 ? r.toFixed(1) : r.toFixed(2)) + "×";
}

// needsExcluded returns the codecs the ticked needs leave out, each with
// the first need it fails and the evidence; empty when none is ticked.
function needsExcluded() {
  const out = new Map();
  if (typeof SERBENCH_NEEDS === "undefined" || !SERBENCH_NEEDS) return out;
  const ticked = [...document.querySelectorAll("#needs input:checked")].map(i => i.value);
  for (const c of SERBENCH_NEEDS.codecs) {
    const j = c.judgements.find(j => ticked.includes(j.need) && j.status !== "met");
    if (j) out.set(c.codec, j.need + (j.status === "unknown" ? " not known" : "") + (j.why ? ": " + j.why : ""));
  }
  return out;
}

// pointCodec is the codec of a scatter point ("json" of "json+zstd-3").
function pointCodec(p) { return p.compressor ? p.codec.slice(0, p.codec.length - p.compressor.length - 1) : p.codec; }

// heatClip is the ratio at which the heatmaps' colour scale stops: a cell
// 10× the best or slower is drawn in the darkest colour (its label gives
// its ratio), so that ratios from 1× to 10×, where choices are made, are
// told apart even when one codec is thousands of times slower.
const heatClip = 10;

// heatChart: codecs × dataset shapes, each median relative to the best in
// its column, on a log colour scale clipped at heatClip; implausible cells
// grey and marked. Codecs the ticked needs leave out are grey, and the
// best of a column is the best of the codecs left.
function heatChart(el, op, excluded) {
  const ov = SERBENCH_OVERVIEW;
  if (!ov[op] || ov[op].length === 0) return null;
  const out = c => excluded.get(ov.codecs[c.y].name);
  const best = {};
  for (const c of ov[op]) {
    if (!c.unranked && c.ratio > 0 && !out(c) && !(best[c.x] <= c.median)) best[c.x] = c.median;
  }
  const cells = ov[op].map(c => Object.assign({}, c, { out: out(c) },
    excluded.size > 0 && best[c.x] && !c.unranked && c.ratio > 0 ? { ratio: c.median / best[c.x] } : {}));
  const ok = cells.filter(c => !c.unranked && c.ratio > 0 && !c.out);
  const bad = cells.filter(c => c.unranked || !(c.ratio > 0) || c.out);
  const worst = Math.max(1, ...ok.map(c => c.ratio));
  const top = Math.log10(Math.min(Math.max(worst, 2), heatClip));
  const clipped = worst > heatClip;
  const names = ov.codecs.map(c => c.flags ? c.name + " †" : c.name);
  const chart = echarts.init(el, null, { renderer: "svg" });
  const tip = c => {
    const codec = ov.codecs[c.y];
    return "<b>" + esc(codec.name) + "</b> " + op + " on " + esc(ov.columns[c.x]) + "<br>median " + fmtDur(c.median) +
      (c.ratio > 0 ? "<br>" + fmtRatio(c.ratio) + " the best plausible there" : "") +
      (codec.flags ? "<br>† " + esc(codec.flags) : "") + implausibleNote(c.implausible) +
      (c.unranked && !c.implausible ? "<br>not ranked: the codec's other figure on this shape is implausible" : "") +
      (c.out ? "<br>left out by your needs: " + esc(c.out) : "");
  };
  chart.setOption({
    animation: false,
    title: { text: op + ": time relative to the best per shape", left: "center", top: 2, textStyle: { fontSize: 13, fontWeight: "normal" } },
    grid: { left: 8, right: 16, top: 30, bottom: 48, containLabel: true },
    tooltip: { trigger: "item", confine: true, formatter: p => tip(p.data.cell) },
    xAxis: { type: "category", data: ov.columns, axisLabel: { rotate: 30, fontSize: 10, interval: 0 }, splitArea: { show: true } },
    yAxis: { type: "category", data: names, inverse: true, axisTick: { show: false } },
    visualMap: {
      type: "continuous", seriesIndex: 0, min: 0, max: top, calculable: false, orient: "horizontal",
      left: "center", bottom: 0, itemHeight: 120, itemWidth: 10, text: [(clipped ? "≥" : "") + fmtRatio(Math.pow(10, top)), "1×"],
      inRange: { color: ["#e8f4ea", "#9fd0a8", "#f2c46b", "#e06c4f", "#8c2d1e"] }, textStyle: { fontSize: 10 },
    },
    series: [
      {
        type: "heatmap", name: op,
        data: ok.map(c => ({ value: [c.x, c.y, Math.min(Math.log10(c.ratio), top)], cell: c })),
        label: { show: true, fontSize: 10, formatter: p => fmtRatio(p.data.cell.ratio) },
        itemStyle: { borderColor: "#fff", borderWidth: 1 },
      },
      {
        type: "heatmap", name: op + " (implausible)",
        data: bad.map(c => ({ value: [c.x, c.y, 0], cell: c, itemStyle: IMPLAUSIBLE })),
        label: { show: true, fontSize: 10, formatter: p => p.data.cell.out ? "–" : (p.data.cell.implausible ? "! " : "") + (p.data.cell.ratio > 0 ? fmtRatio(p.data.cell.ratio) : fmtDur(p.data.cell.median)) },
        itemStyle: { borderColor: "#fff", borderWidth: 1 },
      },
    ],
  });
  return chart;
}

function labelRank(p) { return p.front ? 0 : p.implausible ? 1 : p.few ? 3 : 2; }

// scatterChart: encoded size against round-trip time, log scales, with
// the Pareto front drawn through the codecs on it and named. Codecs the
// ticked needs leave out are grey, and the front is that of the others.
function scatterChart(el, set, excluded) {
  if (!set.points || set.points.length === 0) return null;
  let pts = set.points;
  if (excluded.size > 0) {
    const front = scatterFront(set, excluded);
    pts = pts.map(p => Object.assign({}, p, { out: excluded.get(pointCodec(p)), front: front.includes(p.codec) }));
  }
  const chart = echarts.init(el, null, { renderer: "svg" });
  const name = p => (p.flags ? p.codec + " †" : p.codec) + (p.implausible ? " !" : "") + (p.few ? " (" + p.shapes + " of " + (SERBENCH_OVERVIEW.shape_sets - 1) + " shapes)" : "");
  const fmtT = v => set.relative ? fmtRatio(v) : fmtDur(v);
  const fmtS = v => set.relative && !set.size_name ? fmtRatio(v) : fmtBytes(v);
  const sizeWord = set.size_name || "size";
  const smallest = set.relative && !set.size_name ? " the smallest" : "";
  const front = pts.filter(p => p.front).sort((a, b) => a.time - b.time);
  const shown = pts.slice().sort((a, b) => labelRank(a) - labelRank(b));
  const span = (xs) => [Math.min(...xs) / 1.5, Math.max(...xs) * 1.5];
  const [tlo, thi] = span(pts.map(p => p.time));
  const [slo, shi] = span(pts.map(p => Math.max(p.size, 1e-9)));
  const tip = p => "<b>" + esc(p.codec) + "</b>" + (p.front ? " (on the Pareto front)" : "") +
    "<br>round trip " + fmtT(p.time) + (set.relative ? " the best" : "") +
    "<br>" + esc(sizeWord) + " " + fmtS(p.size) + smallest +
    (p.shapes ? "<br>over " + p.shapes + " dataset shapes" + (p.few ? ": too few to compare, never on the front" : "") : "") +
    (p.compressor ? "<br>compressed by " + esc(p.compressor) + ": the size sent, and the round trip with compressing and decompressing" : "") +
    (p.flags ? "<br>† " + esc(p.flags) : "") + implausibleNote(p.implausible) +
    (p.out ? "<br>left out by your needs: " + esc(p.out) : "");
  chart.setOption({
    animation: false,
    title: { text: set.size_name ? set.title : set.relative ? "size against round-trip time, relative to the best (geometric mean over shapes)" : "size against round-trip time: " + set.title,
      left: "center", top: 2, textStyle: { fontSize: 13, fontWeight: "normal" } },
    grid: { left: 12, right: 90, top: 34, bottom: 30, containLabel: true },
    legend: { data: ["Pareto front"], right: 4, top: 24, orient: "vertical", textStyle: { fontSize: 11 } },
    tooltip: { trigger: "item", confine: true, formatter: p => p.data && p.data.pt ? tip(p.data.pt) : "Pareto front: " + front.map(p => esc(p.codec)).join(", ") },
    xAxis: { type: "log", name: "round trip" + (set.relative ? " (× best)" : ""), nameLocation: "middle", nameGap: 22, min: tlo, max: thi,
      axisLabel: { formatter: v => fmtT(+v.toPrecision(2)), hideOverlap: true }, splitLine: { lineStyle: { color: "#eee" } } },
    yAxis: { type: "log", name: sizeWord + (smallest ? " (× smallest)" : ""), min: slo, max: shi,
      axisLabel: { formatter: v => fmtS(+v.toPrecision(2)), hideOverlap: true }, splitLine: { lineStyle: { color: "#eee" } } },
    series: [
      {
        type: "line", name: "Pareto front", data: front.map(p => [p.time, p.size]), symbol: "none", step: false,
        lineStyle: { color: "#2b5fa8", width: 2, type: "dashed" }, itemStyle: { color: "#2b5fa8" }, z: 1, silent: true,
      },
      {
        // Labels are shifted apart; one that still overlaps another is
        // hidden, unless it names a point on the front or a marked one
        // (whose label stands on the left of its point).
        type: "scatter", name: "codecs", z: 2,
        labelLayout: p => ({ moveOverlap: "shiftY", hideOverlap: labelRank(shown[p.dataIndex]) > 1 }),
        data: shown.map(p => ({
          value: [p.time, p.size], pt: p,
          symbol: p.excluded ? "triangle" : p.few ? "emptyCircle" : p.compressor ? "diamond" : "circle", symbolSize: p.front ? 12 : 9,
          itemStyle: p.out ? { color: "#d5d5d5", borderColor: "#fff", borderWidth: 1 } : p.implausible ? Object.assign({ borderColor: "#666", borderWidth: 1 }, IMPLAUSIBLE) :
            { color: p.front ? "#2b5fa8" : "#8aa4c8", borderColor: "#fff", borderWidth: 1 },
          label: { show: true, position: p.implausible ? "left" : "right", fontSize: 10, formatter: name(p), color: p.front ? "#1d3f73" : "#5f6672", fontWeight: p.front ? "bold" : "normal" },
        })),
      },
    ],
  });
  return chart;
}

// drawOverview draws the heatmaps and the scatter, and draws them again
// when another scatter set is picked or a need is ticked; it returns the
// heatmaps, which the page resizes (the scatter resizes itself).
function drawOverview() {
  const heats = [];
  if (typeof SERBENCH_OVERVIEW === "undefined" || !SERBENCH_OVERVIEW.columns || SERBENCH_OVERVIEW.columns.length === 0) return heats;
  const ov = SERBENCH_OVERVIEW;
  const height = Math.max(220, 110 + 24 * ov.codecs.length) + "px";
  const el = document.getElementById("scatter");
  const pick = document.getElementById("scatter-set");
  const frontText = document.getElementById("front");
  const outText = document.getElementById("needs-out");
  let scatter = null;
  const wanted = typeof SERBENCH_NEEDS !== "undefined" && SERBENCH_NEEDS && SERBENCH_NEEDS.wanted || [];
  for (const box of document.querySelectorAll("#needs input")) box.checked = wanted.includes(box.value);
  const draw = () => {
    const excluded = needsExcluded();
    for (const c of heats) c.dispose();
    heats.length = 0;
    for (const op of ["encode", "decode"]) {
      const hel = document.getElementById("heat-" + op);
      if (!hel) continue;
      hel.style.height = height;
      hel.classList.remove("empty");
      const c = heatChart(hel, op, excluded);
      if (c) heats.push(c); else hel.classList.add("empty");
    }
    if (el && ov.scatter.length > 0) {
      el.style.height = "440px";
      if (scatter) scatter.dispose();
      const set = ov.scatter[pick ? Number(pick.value) : 0];
      scatter = scatterChart(el, set, excluded);
      const names = excluded.size > 0 ? scatterFront(set, excluded) : set.front;
      if (frontText) frontText.innerHTML = "Pareto front (" + esc(set.title) + (excluded.size > 0 ? ", of the codecs your needs leave" : "") + "): " + names.map(c => "<b>" + esc(c) + "</b>").join(", ") + ".";
    }
    if (outText) {
      outText.innerHTML = excluded.size === 0 ? "" : "Left out by your needs (grey above): " +
        [...excluded].map(([c, why]) => "<b>" + esc(c) + "</b> (" + esc(why) + ")").join("; ") + ".";
    }
    document.body.dataset.overview = String(heats.length + (scatter ? 1 : 0));
    document.body.dataset.needsOut = String(excluded.size);
  };
  draw();
  window.addEventListener("resize", () => scatter && scatter.resize());
  if (pick) pick.addEventListener("change", draw);
  for (const box of document.querySelectorAll("#needs input")) box.addEventListener("change", draw);
  return heats;
}

// scatterFront names the codecs on set's Pareto front among those the
// ticked needs leave, fastest first (as scatterChart draws it).
function scatterFront(set, excluded) {
  const able = set.points.filter(p => !excluded.has(pointCodec(p)) && !p.implausible && !p.excluded && !p.few);
  return able.filter(p => !able.some(q => q !== p && q.time <= p.time && q.size <= p.size && (q.time < p.time || q.size < p.size)))
    .sort((a, b) => a.time - b.time).map(p => p.codec);
}

// drawCharts draws every category's charts, of the codecs the variant
// filter keeps, and draws them again when the filter changes.
function drawCharts() {
  const pick = document.getElementById("chart-marks");
  const charts = drawCategories(pick ? pick.value : "");
  if (pick) pick.addEventListener("change", () => {
    for (const c of charts) c.dispose();
    for (const el of document.querySelectorAll("[data-chart]")) el.classList.remove("empty");
    charts.splice(0, charts.length, ...drawCategories(pick.value));
  });
  document.body.dataset.charts = String(charts.length);
  const overview = drawOverview();
  window.addEventListener("resize", () => charts.concat(overview).forEach(c => c && c.resize()));
}

// drawCategories draws the charts of every category, of the codecs whose
// variant marks pass the filter f (see marked), and returns them.
function drawCategories(f) {
  const charts = [];
  for (const all of SERBENCH_CHARTS) {
    const cat = Object.assign({}, all, { codecs: all.codecs.filter(c => marked(c.marks, f)) });
    const height = Math.max(150, 60 + 26 * cat.codecs.length) + "px";
    const draw = {
      encode: el => timeChart(el, cat, "encode"),
      decode: el => timeChart(el, cat, "decode"),
      bytes: el => bytesChart(el, cat),
      allocs: el => allocsChart(el, cat),
    };
    for (const kind of Object.keys(draw)) {
      const el = document.getElementById(cat.id + "-" + kind);
      if (!el) continue;
      el.style.height = height;
      const c = draw[kind](el);
      if (c) charts.push(c); else el.classList.add("empty");
    }
  }
  return charts;
}

// The results table: click a header to sort, type or pick to filter.
function setupTable() {
  const table = document.getElementById("results-table");
  if (!table) return;
  const tbody = table.tBodies[0];
  const rows = Array.from(tbody.rows);
  const filter = document.getElementById("filter");
  const status = document.getElementById("status");
  const op = document.getElementById("op");
  const marks = document.getElementById("marks");
  const count = document.getElementById("count");
  const apply = () => {
    const q = filter.value.trim().toLowerCase();
    const terms = q ? q.split(/\s+/) : [];
    let shown = 0;
    for (const r of rows) {
      const text = r.textContent.toLowerCase();
      const ok = terms.every(t => text.includes(t)) &&
        (!status.value || r.cells[4].textContent.trim().startsWith(status.value)) &&
        (!op.value || r.cells[0].textContent === op.value) &&
        marked(r.dataset.marks, marks.value);
      r.hidden = !ok;
      if (ok) shown++;
    }
    count.textContent = shown + " of " + rows.length + " results";
  };
  filter.addEventListener("input", apply);
  status.addEventListener("change", apply);
  op.addEventListener("change", apply);
  marks.addEventListener("change", apply);
  apply();
  // The codec columns repeat the codecs table: hidden unless asked for.
  const details = document.getElementById("details");
  const showDetails = () => table.classList.toggle("brief", !details.checked);
  details.addEventListener("change", showDetails);
  showDetails();

  let sortCol = -1, asc = true;
  Array.from(table.tHead.rows[0].cells).forEach((th, i) => {
    th.tabIndex = 0;
    th.title = "sort";
    const sort = () => {
      asc = sortCol === i ? !asc : true;
      sortCol = i;
      const num = th.dataset.type === "num";
      const key = r => {
        const c = r.cells[i];
        if (!num) return c.textContent.trim().toLowerCase();
        const v = c.dataset.v;
        return v === "" || v === undefined ? Infinity : parseFloat(v);
      };
      const sorted = rows.slice().sort((a, b) => {
        const ka = key(a), kb = key(b);
        const d = ka < kb ? -1 : ka > kb ? 1 : 0;
        return asc ? d : -d;
      });
      for (const r of sorted) tbody.appendChild(r);
      for (const h of table.tHead.rows[0].cells) h.removeAttribute("aria-sort");
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
    };
    th.addEventListener("click", sort);
    th.addEventListener("keydown", e => { if (e.key === "Enter") sort(); });
  });
}

drawCharts();
setupTable();
