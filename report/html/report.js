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

function label(c) { return c.flags ? c.name + " †" : c.name; }

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
  const rows = cat.codecs.filter(c => c[op]).sort((a, b) => a[op].median - b[op].median);
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
      data: rows.map(c => ({ value: c[op].median, itemStyle: { color: PALETTE[c.color % PALETTE.length] } })),
      tooltip: {
        formatter: p => {
          const c = rows[p.dataIndex], v = c[op];
          return "<b>" + esc(c.name) + "</b> " + op + "<br>median " + fmtDur(v.median) +
            "<br>interval " + fmtDur(v.lo) + " – " + fmtDur(v.hi) +
            (c.items > 1 ? "<br>" + fmtDur(v.median / c.items) + " per item (" + c.items + ")" : "") +
            (c.flags ? "<br>† " + esc(c.flags) : "");
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
  const rows = cat.codecs.filter(c => c.encode || c.decode).sort((a, b) => a.bytes - b.bytes);
  if (rows.length === 0) return null;
  const chart = echarts.init(el, null, { renderer: "svg" });
  const opt = baseOption("encoded size", rows.map(label), {
    type: "value", axisLabel: { formatter: v => fmtBytes(v), hideOverlap: true },
  });
  opt.grid.right = 56; // room for the value labels past the longest bar
  opt.series = [{
    type: "bar", barMaxWidth: 22,
    data: rows.map(c => ({ value: c.bytes, itemStyle: { color: PALETTE[c.color % PALETTE.length] } })),
    label: { show: true, position: "right", formatter: p => fmtBytes(p.value), fontSize: 10 },
    tooltip: {
      formatter: p => {
        const c = rows[p.dataIndex];
        return "<b>" + esc(c.name) + "</b><br>" + c.bytes + " bytes" +
          (c.items > 1 ? "<br>" + (c.bytes / c.items).toFixed(1) + " per item (" + c.items + ")" : "");
      },
    },
  }];
  chart.setOption(opt);
  return chart;
}

// allocsChart: allocations per op, encode and decode side by side.
function allocsChart(el, cat) {
  const rows = cat.codecs.filter(c => c.encode || c.decode)
    .sort((a, b) => ((a.encode ? a.encode.allocs : 0) + (a.decode ? a.decode.allocs : 0)) -
      ((b.encode ? b.encode.allocs : 0) + (b.decode ? b.decode.allocs : 0)));
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

function drawCharts() {
  const charts = [];
  for (const cat of SERBENCH_CHARTS) {
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
  window.addEventListener("resize", () => charts.forEach(c => c.resize()));
  document.body.dataset.charts = String(charts.length);
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
  const count = document.getElementById("count");
  const apply = () => {
    const q = filter.value.trim().toLowerCase();
    const terms = q ? q.split(/\s+/) : [];
    let shown = 0;
    for (const r of rows) {
      const text = r.textContent.toLowerCase();
      const ok = terms.every(t => text.includes(t)) &&
        (!status.value || r.cells[4].textContent.trim().startsWith(status.value)) &&
        (!op.value || r.cells[0].textContent === op.value);
      r.hidden = !ok;
      if (ok) shown++;
    }
    count.textContent = shown + " of " + rows.length + " results";
  };
  filter.addEventListener("input", apply);
  status.addEventListener("change", apply);
  op.addEventListener("change", apply);
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
