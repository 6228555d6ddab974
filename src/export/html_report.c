/* A report as one HTML page: the report's JSON is embedded as data and drawn by a script of
 * tracekit's own (summary, tables, timeline); the flame graph is tk_flamegraph_svg's document
 * embedded as a data: URL (its own script keeps working there). Nothing is fetched. */
#include "core/writer.h"
#include "tracekit/html_report.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bytes.h"
#include "core/json.h"
#include "tracekit/tracekit.h"

static const char style[] =
    "body { font: 14px sans-serif; margin: 16px; color: #222; }\n"
    "h1 { font-size: 20px; } h2 { font-size: 16px; margin: 18px 0 6px; }\n"
    "dl { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; }\n"
    "dt { font-weight: bold; } dd { margin: 0; font-family: monospace; }\n"
    ".scroll { position: relative; height: 420px; overflow: auto; border: 1px solid #ccc; }\n"
    ".row { position: absolute; left: 0; display: flex; white-space: nowrap; height: 22px; }\n"
    ".row.head { position: static; font-weight: bold; cursor: pointer; background: #eee;\n"
    "            overflow: hidden; }\n"
    ".cell { flex: 0 0 130px; box-sizing: border-box; padding: 2px 6px; overflow: hidden;\n"
    "        text-overflow: ellipsis; font-family: monospace; }\n"
    ".head .cell { font-family: sans-serif; }\n"
    "input[type=search] { width: 26em; margin-bottom: 4px; }\n"
    "iframe { width: 100%; height: 420px; border: 1px solid #ccc; }\n"
    "#timeline-info { font-family: monospace; min-height: 1.4em; }\n"
    "h3 { font-size: 14px; margin: 12px 0 4px; }\n"
    "figure.graph { margin: 12px 0; border: 1px solid #ccc; padding: 6px; }\n"
    "figcaption .fields span { display: inline-block; margin-right: 14px; font-family:"
    " monospace; }\n"
    "figcaption .fields span b { font-family: sans-serif; margin-right: 4px; }\n"
    ".svg { max-height: 640px; overflow: auto; }\n"
    ".svg svg { max-width: 100%; height: auto; }\n"
    "table.paths { border-collapse: collapse; font-family: monospace; margin-top: 6px; }\n"
    "table.paths td, table.paths th { border: 1px solid #ddd; padding: 2px 6px; text-align:"
    " left; }\n"
    "table.paths tr.path { cursor: pointer; } table.paths tr.sel { background: #fdd; }\n"
    ".hl polygon, .hl ellipse, .hl path { stroke: #d00 !important; stroke-width: 3; }\n"
    ".hl text { fill: #d00; }\n";

static const char script[] =
    "'use strict';\n"
    "// numbers beyond 2^53 keep their digits (JSON.parse hands the reviver their source)\n"
    "function parseJSON(text) {\n"
    "  return JSON.parse(text, (k, v, ctx) => typeof v === 'number' && !Number.isSafeInteger(v)\n"
    "    && ctx && typeof ctx.source === 'string' && /^-?[0-9]+$/.test(ctx.source) ?"
    " ctx.source : v);\n"
    "}\n"
    "const report = parseJSON(document.getElementById('report').textContent);\n"
    "const events = Array.isArray(report.events) ? report.events : [];\n"
    "const ROW = 22;\n"
    "function el(tag, attrs, text) {\n"
    "  const e = document.createElement(tag);\n"
    "  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);\n"
    "  if (text !== undefined) e.textContent = text;\n"
    "  return e;\n"
    "}\n"
    "function fmt(v) {\n"
    "  if (typeof v === 'number')\n"
    "    return Number.isInteger(v) ? String(v) : String(+v.toPrecision(10));\n"
    "  if (v === null || v === undefined) return '';\n"
    "  if (Array.isArray(v)) return v.map(fmt).join(', ');\n"
    "  if (typeof v === 'object') return Object.keys(v).map(k => k + ' ' + fmt(v[k])).join(', ');\n"
    "  return String(v);\n"
    "}\n"
    "const isTable = v => Array.isArray(v) && v.length > 0 && typeof v[0] === 'object' &&"
    " v[0] !== null;\n"
    "// a row by its first two plain members (\"pid 77, thread 1\")\n"
    "function rowName(r, i) {\n"
    "  const ks = Object.keys(r).filter(k => r[k] === null || typeof r[k] !=="
    " 'object').slice(0, 2);\n"
    "  return ks.length ? ks.map(k => k + ' ' + fmt(r[k])).join(', ') : '#' + i;\n"
    "}\n"
    "// every array of objects of the report, nested ones too (key \"processes.0.loop_table\")\n"
    "function tablesOf(obj, prefix, title, out) {\n"
    "  for (const k of Object.keys(obj)) {\n"
    "    if (!isTable(obj[k])) continue;\n"
    "    const key = prefix ? prefix + '.' + k : k, name = title ? title + ': ' + k : k;\n"
    "    out.push({ key, title: name, rows: obj[k] });\n"
    "    obj[k].forEach((r, i) => {\n"
    "      if (Object.values(r).some(isTable)) tablesOf(r, key + '.' + i, name + ' ' +"
    " rowName(r, i), out);\n"
    "    });\n"
    "  }\n"
    "  return out;\n"
    "}\n"
    "const allTables = tablesOf(report, '', '', []);\n"
    "function summary() {\n"
    "  const dl = document.getElementById('summary-list');\n"
    "  for (const k of Object.keys(report)) {\n"
    "    const v = report[k];\n"
    "    if (isTable(v)) continue;\n"
    "    let text = fmt(v);\n"
    "    if (Array.isArray(v) && events.length === v.length && k !== 'events')\n"
    "      text = v.map((x, i) => events[i] + ' ' + fmt(x)).join(', ');\n"
    "    dl.append(el('dt', {}, k), el('dd', { 'data-key': k }, text));\n"
    "  }\n"
    "}\n"
    "function columns(rows) {\n"
    "  const cols = [], nested = new Set();\n"
    "  for (const r of rows.slice(0, 50)) for (const k of Object.keys(r)) if (isTable(r[k]))"
    " nested.add(k);\n"
    "  for (const r of rows.slice(0, 50)) for (const k of Object.keys(r)) {\n"
    "    const v = r[k];\n"
    "    if (nested.has(k)) continue;\n"
    "    if (Array.isArray(v) && v.every(x => typeof x === 'number')) {\n"
    "      for (let i = 0; i < v.length; i++) {\n"
    "        const name = k + ' ' + (events.length === v.length ? events[i] : i);\n"
    "        if (!cols.some(c => c.name === name))\n"
    "          cols.push({ name, get: o => (o[k] || [])[i] });\n"
    "      }\n"
    "    } else if (!cols.some(c => c.name === k)) cols.push({ name: k, get: o => o[k] });\n"
    "  }\n"
    "  return cols;\n"
    "}\n"
    "function table(key, title, rows) {\n"
    "  const sec = el('section', { class: 'table', 'data-key': key });\n"
    "  sec.append(el('h2', {}, title.replace(/_/g, ' ') + ' (' + rows.length + ')'));\n"
    "  const filter = el('input', { type: 'search', placeholder: 'filter rows (a regex on any"
    " column)' });\n"
    "  sec.append(filter);\n"
    "  const cols = columns(rows);\n"
    "  // a column as wide as its longest text of 400 rows spread over the table (9 px a\n"
    "  // character, 60 to 520)\n"
    "  const step = Math.ceil(rows.length / 400), sample = rows.filter((r, i) => i % step ==="
    " 0);\n"
    "  for (const c of cols) {\n"
    "    const n = Math.max(c.name.length * 1.1, ...sample.map(r => fmt(c.get(r)).length));\n"
    "    c.width = Math.max(60, Math.min(520, 16 + n * 9)) + 'px';\n"
    "  }\n"
    "  const head = el('div', { class: 'row head' });\n"
    "  const box = el('div', { class: 'scroll' });\n"
    "  const spacer = el('div', { class: 'spacer' });\n"
    "  box.append(spacer);\n"
    "  sec.append(head, box);\n"
    "  let view = rows.slice(), sortBy = -1, desc = true;\n"
    "  cols.forEach((c, i) => {\n"
    "    const h = el('span', { class: 'cell', 'data-col': i, title: 'sort by ' + c.name },"
    " c.name);\n"
    "    h.style.flexBasis = c.width;\n"
    "    h.addEventListener('click', () => {\n"
    "      desc = sortBy === i ? !desc : true; sortBy = i;\n"
    "      const num = view.every(r => typeof c.get(r) === 'number' || c.get(r) === undefined);\n"
    "      view.sort((a, b) => {\n"
    "        const x = c.get(a), y = c.get(b);\n"
    "        const d = num ? (x || 0) - (y || 0) : fmt(x).localeCompare(fmt(y));\n"
    "        return desc ? -d : d;\n"
    "      });\n"
    "      draw(true);\n"
    "    });\n"
    "    head.append(h);\n"
    "  });\n"
    "  function draw(reset) {\n"
    "    if (reset) box.scrollTop = 0;\n"
    "    spacer.style.height = (view.length * ROW) + 'px';\n"
    "    box.style.height = Math.min(420, view.length * ROW + 4) + 'px';\n"
    "    for (const r of Array.from(box.querySelectorAll('.row'))) r.remove();\n"
    "    const first = Math.floor(box.scrollTop / ROW);\n"
    "    const n = Math.ceil(box.clientHeight / ROW) + 2;\n"
    "    for (let i = first; i < Math.min(view.length, first + n); i++) {\n"
    "      const r = el('div', { class: 'row', 'data-index': i });\n"
    "      r.style.top = (i * ROW) + 'px';\n"
    "      for (const c of cols) {\n"
    "        const text = fmt(c.get(view[i])), cell = el('span', { class: 'cell', title: text },"
    " text);\n"
    "        cell.style.flexBasis = c.width;\n"
    "        r.append(cell);\n"
    "      }\n"
    "      box.append(r);\n"
    "    }\n"
    "  }\n"
    "  box.addEventListener('scroll', () => { head.scrollLeft = box.scrollLeft; draw(false); });\n"
    "  filter.addEventListener('input', () => {\n"
    "    let rx = null;\n"
    "    try { rx = new RegExp(filter.value); } catch (e) { return; }\n"
    "    view = rows.filter(r => cols.some(c => rx.test(fmt(c.get(r)))));\n"
    "    draw(true);\n"
    "  });\n"
    "  document.getElementById('tables').append(sec);\n"
    "  draw(true);\n"
    "  sec.tkView = () => view;\n"
    "}\n"
    "function timeline() {\n"
    "  const node = document.getElementById('trace');\n"
    "  if (!node) return;\n"
    "  const doc = JSON.parse(node.textContent);\n"
    "  const evs = (Array.isArray(doc) ? doc : doc.traceEvents).filter(e => e.ph === 'X');\n"
    "  const lanes = new Map();\n"
    "  let t0 = Infinity, t1 = -Infinity;\n"
    "  for (const e of evs) {\n"
    "    const k = e.pid + ' / ' + e.tid;\n"
    "    if (!lanes.has(k)) lanes.set(k, []);\n"
    "    lanes.get(k).push(e);\n"
    "    t0 = Math.min(t0, e.ts); t1 = Math.max(t1, e.ts + e.dur);\n"
    "  }\n"
    "  const canvas = document.getElementById('timeline-canvas');\n"
    "  const info = document.getElementById('timeline-info');\n"
    "  const boxes = [];\n"
    "  let y = 0, depthMax = 0;\n"
    "  for (const [k, list] of lanes) {\n"
    "    list.sort((a, b) => a.ts - b.ts || b.dur - a.dur);\n"
    "    const stack = [];\n"
    "    const lane = { name: 'pid/tid ' + k, y, items: [] };\n"
    "    for (const e of list) {\n"
    "      while (stack.length && stack[stack.length - 1] <= e.ts) stack.pop();\n"
    "      lane.items.push({ e, d: stack.length });\n"
    "      depthMax = Math.max(depthMax, stack.length);\n"
    "      stack.push(e.ts + e.dur);\n"
    "    }\n"
    "    lane.depth = 1 + Math.max(0, ...lane.items.map(i => i.d));\n"
    "    y += 18 + lane.depth * 14;\n"
    "    boxes.push(lane);\n"
    "  }\n"
    "  const W = canvas.parentElement.clientWidth || 1200;\n"
    "  canvas.width = W; canvas.height = y + 4;\n"
    "  let from = t0, to = t1 > t0 ? t1 : t0 + 1;\n"
    "  function paint() {\n"
    "    const g = canvas.getContext('2d'), s = (W - 20) / (to - from);\n"
    "    g.clearRect(0, 0, W, canvas.height); g.font = '11px sans-serif';\n"
    "    for (const lane of boxes) {\n"
    "      g.fillStyle = '#333'; g.fillText(lane.name, 4, lane.y + 12);\n"
    "      for (const { e, d } of lane.items) {\n"
    "        const x = 10 + (e.ts - from) * s, w = e.dur * s;\n"
    "        if (x + w < 0 || x > W || w < 0.3) continue;\n"
    "        g.fillStyle = 'hsl(' + (e.name.length * 47 % 360) + ',60%,65%)';\n"
    "        g.fillRect(x, lane.y + 16 + d * 14, Math.max(w, 1), 13);\n"
    "        if (w > 40) {\n"
    "          g.fillStyle = '#000';\n"
    "          g.fillText(e.name.slice(0, w / 6), x + 2, lane.y + 26 + d * 14);\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "  canvas.addEventListener('wheel', ev => {\n"
    "    ev.preventDefault();\n"
    "    const at = from + (ev.offsetX - 10) / (W - 20) * (to - from);\n"
    "    const f = ev.deltaY > 0 ? 1.25 : 0.8;\n"
    "    from = at - (at - from) * f; to = at + (to - at) * f; paint();\n"
    "  });\n"
    "  canvas.addEventListener('mousemove', ev => {\n"
    "    const t = from + (ev.offsetX - 10) / (W - 20) * (to - from);\n"
    "    for (const lane of boxes) {\n"
    "      const d = Math.floor((ev.offsetY - lane.y - 16) / 14);\n"
    "      if (d < 0 || d >= lane.depth) continue;\n"
    "      const hit = lane.items.find(i => i.d === d && i.e.ts <= t && t <= i.e.ts + i.e.dur);\n"
    "      if (!hit) continue;\n"
    "      info.textContent = hit.e.name + ': ' + hit.e.dur + ' us at ' + hit.e.ts + ' us';\n"
    "      return;\n"
    "    }\n"
    "  });\n"
    "  window.tkTimeline = boxes.map(l => ({ name: l.name, calls: l.items.length }));\n"
    "  document.getElementById('timeline').hidden = false;\n"
    "  paint();\n"
    "}\n"
    "// the report's rows of each graph: loops by their head, CSI functions by their label\n"
    "function rowsOfGraphs() {\n"
    "  const by = new Map();\n"
    "  const add = (kind, key, t, i) => {\n"
    "    const k = kind + ' ' + fmt(key);\n"
    "    if (!by.has(k)) by.set(k, []);\n"
    "    by.get(k).push({ table: t, index: i });\n"
    "  };\n"
    "  for (const t of allTables) t.rows.forEach((r, i) => {\n"
    "    if (/(^|[.])loop_table$/.test(t.key) && r.loop !== undefined) add('loop', r.loop, t, i);\n"
    "    if (/(^|[.])hot_loops$/.test(t.key) && r.head !== undefined) add('loop', r.head, t, i);\n"
    "    if (t.key === 'rows' && r['function'] !== undefined) add('function', r['function'],"
    " t, i);\n"
    "  });\n"
    "  return by;\n"
    "}\n"
    "function fields(t, i) {\n"
    "  const r = t.rows[i], div = el('div', { class: 'fields', 'data-table': t.key,"
    " 'data-index': i });\n"
    "  div.append(el('span', { class: 'from' }, t.title + ' #' + i));\n"
    "  for (const k of Object.keys(r)) {\n"
    "    if (isTable(r[k])) continue;\n"
    "    const s = el('span', { 'data-key': k }, fmt(r[k]));\n"
    "    s.prepend(el('b', {}, k));\n"
    "    div.append(s);\n"
    "  }\n"
    "  return div;\n"
    "}\n"
    "// block id (the first word of a node's label) -> the node's <g> and its dot name\n"
    "function nodesOf(fig) {\n"
    "  const m = new Map();\n"
    "  for (const g of fig.querySelectorAll('g.node')) {\n"
    "    const t = g.querySelector('text'), name = g.querySelector('title').textContent;\n"
    "    if (t) m.set(t.textContent.split(' ')[0], { g, name, exit: /"
    " EXIT$/.test(t.textContent) });\n"
    "  }\n"
    "  return m;\n"
    "}\n"
    "function highlight(fig, path) {\n"
    "  for (const g of fig.querySelectorAll('.hl')) g.classList.remove('hl');\n"
    "  if (!path) return;\n"
    "  const nodes = nodesOf(fig), seq = path.blocks.map(b => nodes.get(String(b))).filter(n"
    " => n);\n"
    "  const exit = Array.from(nodes.values()).find(n => n.exit);\n"
    "  if (path.end === 'EXIT' && exit) seq.push(exit);\n"
    "  const edges = new Map(Array.from(fig.querySelectorAll('g.edge'))\n"
    "    .map(g => [g.querySelector('title').textContent, g]));\n"
    "  seq.forEach((n, i) => {\n"
    "    n.g.classList.add('hl');\n"
    "    const e = i + 1 < seq.length && edges.get(n.name + '->' + seq[i + 1].name);\n"
    "    if (e) e.classList.add('hl');\n"
    "  });\n"
    "}\n"
    "function pathTable(fig, data) {\n"
    "  const tab = el('table', { class: 'paths' }), head = el('tr');\n"
    "  for (const h of ['path', 'blocks', 'starts', 'ends', 'lines']) head.append(el('th',"
    " {}, h));\n"
    "  tab.append(head);\n"
    "  for (const p of data.list) {\n"
    "    const tr = el('tr', { class: 'path', 'data-id': p.id });\n"
    "    for (const v of [p.id, p.blocks.join(' '), p.start, p.end, p.lines])"
    " tr.append(el('td', {}, fmt(v)));\n"
    "    tr.addEventListener('click', () => {\n"
    "      const on = !tr.classList.contains('sel');\n"
    "      for (const x of tab.querySelectorAll('tr.sel')) x.classList.remove('sel');\n"
    "      tr.classList.toggle('sel', on);\n"
    "      highlight(fig, on ? p : null);\n"
    "    });\n"
    "    tab.append(tr);\n"
    "  }\n"
    "  const note = el('p', { class: 'listed' }, data.list.length + ' of ' + fmt(data.paths)"
    " + ' paths listed' +\n"
    "    (data.more ? ' (tracekit paths --list --all for more)' : '') + '; click a path to"
    " draw it');\n"
    "  fig.append(note, tab);\n"
    "}\n"
    "function graphs() {\n"
    "  const figs = Array.from(document.querySelectorAll('figure.graph'));\n"
    "  if (!figs.length) return;\n"
    "  const by = rowsOfGraphs();\n"
    "  const kinds = new Set(figs.map(f => f.dataset.kind));\n"
    "  document.getElementById('graphs-title').textContent = kinds.has('loop') ?\n"
    "    'Hot loops: their control flow graphs' : 'Paths of each function';\n"
    "  for (const fig of figs) {\n"
    "    const cap = fig.querySelector('figcaption');\n"
    "    cap.append(el('h3', {}, (fig.dataset.kind === 'loop' ? 'Loop ' : '') +"
    " fig.dataset.key));\n"
    "    for (const { table: t, index: i } of by.get(fig.dataset.kind + ' ' +"
    " fig.dataset.key) || [])\n"
    "      cap.append(fields(t, i));\n"
    "    const data = fig.querySelector('script.graph-data');\n"
    "    if (data) pathTable(fig, parseJSON(data.textContent));\n"
    "  }\n"
    "  document.getElementById('graphs').hidden = false;\n"
    "}\n"
    "summary();\n"
    "for (const t of allTables) table(t.key, t.title, t.rows);\n"
    "timeline();\n"
    "graphs();\n"
    "const sectionOf = key => document.querySelector('section.table[data-key=\"' + key + '\"]');\n"
    "window.tkReport = { report, tables: allTables.map(t => t.key), view: key =>"
    " sectionOf(key).tkView(),\n"
    "                    highlight: (fig, p) => highlight(fig, p) };\n";

/* JSON inside <script>: "</" would end the element; "<\/" is the same JSON */
static void put_json(FILE *out, const char *s, size_t len)
{
    size_t from = 0;
    for (size_t i = 0; i + 1 < len; i++)
        if (s[i] == '<' && s[i + 1] == '/') {
            fwrite(s + from, 1, i + 1 - from, out);
            fputc('\\', out);
            from = i + 1;
        }
    fwrite(s + from, 1, len - from, out);
}

static void put_text_n(FILE *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '<')
            fputs("&lt;", out);
        else if (s[i] == '>')
            fputs("&gt;", out);
        else if (s[i] == '&')
            fputs("&amp;", out);
        else
            fputc(s[i], out);
    }
}

static void put_attr(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '"')
            fputs("&quot;", out);
        else if (*s == '<')
            fputs("&lt;", out);
        else if (*s == '&')
            fputs("&amp;", out);
        else
            fputc(*s, out);
    }
}

static void put_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", out);
        else if (*s == '>')
            fputs("&gt;", out);
        else if (*s == '&')
            fputs("&amp;", out);
        else
            fputc(*s, out);
    }
}

static void put_base64(FILE *out, const unsigned char *p, size_t n)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n) v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < n) v |= p[i + 2];
        fputc(b64[v >> 18 & 63], out);
        fputc(b64[v >> 12 & 63], out);
        fputc(i + 1 < n ? b64[v >> 6 & 63] : '=', out);
        fputc(i + 2 < n ? b64[v & 63] : '=', out);
    }
}

/* The flame graph as an <iframe> of its SVG document. */
static tk_status put_flame(const tk_html_report *r, FILE *out, tk_error *err)
{
    tk_bytes_out svg = {0};
    tk_writer w = {tk_bytes_write, &svg};
    tk_status st = tk_flamegraph_svg(r->folded, r->folded_len, &r->flame, &w, err);
    if (svg.failed) st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (st == TK_OK) {
        fputs("<section id=\"flame\"><h2>Flame graph</h2>\n"
              "<iframe title=\"flame graph\" src=\"data:image/svg+xml;base64,",
              out);
        put_base64(out, svg.p, svg.len);
        fputs("\"></iframe></section>\n", out);
    }
    tk_free(svg.p);
    return st;
}

/* The graph's SVG inline (what comes before "<svg", Graphviz's XML declaration, doctype and
 * comments, left out), or its note and dot source. */
static void put_graph(FILE *out, const tk_html_graph *g)
{
    fputs("<figure class=\"graph\" data-kind=\"", out);
    put_attr(out, g->kind ? g->kind : "");
    fputs("\" data-key=\"", out);
    put_attr(out, g->key ? g->key : "");
    fputs("\"><figcaption></figcaption>\n", out);
    const char *svg = g->svg ? memmem(g->svg, g->svg_len, "<svg", 4) : NULL;
    if (svg) {
        fputs("<div class=\"svg\">", out);
        fwrite(svg, 1, g->svg_len - (size_t)(svg - g->svg), out);
        fputs("</div>\n", out);
    } else {
        fputs("<p class=\"note\">", out);
        put_text(out, g->note ? g->note : "not drawn");
        fputs("</p>\n", out);
        if (g->dot) {
            fputs("<details><summary>the graph in Graphviz's dot language</summary><pre>", out);
            put_text_n(out, g->dot, g->dot_len);
            fputs("</pre></details>\n", out);
        }
    }
    if (g->data) {
        fputs("<script type=\"application/json\" class=\"graph-data\">", out);
        put_json(out, g->data, g->data_len);
        fputs("</script>\n", out);
    }
    fputs("</figure>\n", out);
}

static tk_status html_report_write_stream(const tk_html_report *r, FILE *out, tk_error *err)
{
    const char *title = r->title ? r->title : "tracekit report";
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", out);
    put_text(out, title);
    fprintf(out, "</title>\n<style>\n%s</style>\n</head><body>\n<h1>", style);
    put_text(out, title);
    fputs("</h1>\n<section id=\"summary\"><h2>Summary</h2><dl id=\"summary-list\"></dl>"
          "</section>\n<div id=\"tables\"></div>\n",
          out);
    if (r->folded) {
        tk_status st = put_flame(r, out, err);
        if (st != TK_OK) return st;
    }
    fputs("<section id=\"timeline\" hidden><h2>Timeline (wheel: zoom)</h2>"
          "<div id=\"timeline-info\"></div><div><canvas id=\"timeline-canvas\"></canvas></div>"
          "</section>\n",
          out);
    if (r->ngraphs) fputs("<section id=\"graphs\" hidden><h2 id=\"graphs-title\"></h2>\n", out);
    for (size_t i = 0; i < r->ngraphs; i++) put_graph(out, &r->graphs[i]);
    if (r->ngraphs) fputs("</section>\n", out);
    fputs("<script type=\"application/json\" id=\"report\">", out);
    put_json(out, r->report_json, r->report_len);
    fputs("</script>\n", out);
    if (r->trace_json) {
        fputs("<script type=\"application/json\" id=\"trace\">", out);
        put_json(out, r->trace_json, r->trace_len);
        fputs("</script>\n", out);
    }
    fprintf(out, "<script>\n%s</script>\n</body></html>\n", script);
    if (ferror(out)) return tk_error_set(err, TK_ERR_IO, "write error");
    return TK_OK;
}

/* ---- the keys of a report's graphs ------------------------------------------------------ */

#define KEYS_DEPTH 64

/* Where the walk is: per nesting level, whether it is an array named `array`; in an object
 * of such an array, whether the next value is `member`'s. */
typedef struct keys_walk {
    const char *array, *member;
    unsigned char in_array[KEYS_DEPTH]; /* level: an array named `array` */
    size_t depth;
    const char *last_key; /* the object member whose value comes next */
    int take; /* the next value is wanted */
} keys_walk;

static void keys_open(keys_walk *w, int array)
{
    if (w->depth < KEYS_DEPTH)
        w->in_array[w->depth] = array && w->last_key && strcmp(w->last_key, w->array) == 0;
    w->depth++;
    w->take = 0;
}

tk_status tk_html_report_keys(const char *json, size_t len, const char *array, const char *member,
                              tk_html_key_fn fn, void *user, tk_error *err)
{
    tk_json *j;
    tk_status st = tk_json_open_memory(&j, json, len, "report", NULL, err);
    if (st != TK_OK) return st;
    keys_walk w;
    memset(&w, 0, sizeof w);
    w.array = array;
    w.member = member;
    char *key = NULL; /* the last member name, kept across tokens */
    tk_json_token t;
    while (st == TK_OK && (st = tk_json_next(j, &t, err)) == TK_OK) {
        int parent_wanted = w.depth >= 2 && w.depth - 2 < KEYS_DEPTH && w.in_array[w.depth - 2];
        if (t.type == TK_JSON_KEY) {
            char *k = tk_realloc(key, t.len + 1);
            if (!k)
                st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
            else
                memcpy(k, t.str, t.len + 1);
            key = k;
            w.last_key = key;
            w.take = parent_wanted && key && strcmp(key, member) == 0;
            continue;
        }
        if (t.type == TK_JSON_OBJECT_BEGIN || t.type == TK_JSON_ARRAY_BEGIN) {
            keys_open(&w, t.type == TK_JSON_ARRAY_BEGIN);
        } else if (t.type == TK_JSON_OBJECT_END || t.type == TK_JSON_ARRAY_END) {
            w.depth--;
        } else if (w.take && (t.type == TK_JSON_NUMBER || t.type == TK_JSON_STRING)) {
            char buf[64];
            const char *v = t.str;
            if (t.type == TK_JSON_NUMBER) { /* not NUL-terminated */
                snprintf(buf, sizeof buf, "%.*s", (int)(t.len < 63 ? t.len : 63), t.str);
                v = buf;
            }
            st = fn(user, v, t.type == TK_JSON_NUMBER ? strlen(buf) : t.len);
        }
        w.last_key = NULL;
        w.take = 0;
    }
    tk_free(key);
    tk_json_free(j);
    return st == TK_END ? TK_OK : st;
}

tk_status tk_html_report_write(const tk_html_report *r, const tk_writer *out, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, html_report_write_stream(r, s.f, err), err);
}
