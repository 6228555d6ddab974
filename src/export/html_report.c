/* A report as one HTML page: the report's JSON is embedded as data and drawn by a script of
 * tracekit's own (summary, tables, timeline); the flame graph is tk_flamegraph_svg's document
 * embedded as a data: URL (its own script keeps working there). Nothing is fetched. */
#include "tracekit/html_report.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracekit/tracekit.h"

static const char style[] =
    "body { font: 14px sans-serif; margin: 16px; color: #222; }\n"
    "h1 { font-size: 20px; } h2 { font-size: 16px; margin: 18px 0 6px; }\n"
    "dl { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; }\n"
    "dt { font-weight: bold; } dd { margin: 0; font-family: monospace; }\n"
    ".scroll { position: relative; height: 420px; overflow: auto; border: 1px solid #ccc; }\n"
    ".row { position: absolute; left: 0; display: flex; white-space: nowrap; height: 22px; }\n"
    ".row.head { position: static; font-weight: bold; cursor: pointer; background: #eee; }\n"
    ".cell { flex: 0 0 130px; box-sizing: border-box; padding: 2px 6px; overflow: hidden;\n"
    "        text-overflow: ellipsis; font-family: monospace; }\n"
    ".head .cell { font-family: sans-serif; }\n"
    "iframe { width: 100%; height: 420px; border: 1px solid #ccc; }\n"
    "#timeline-info { font-family: monospace; min-height: 1.4em; }\n";

static const char script[] =
    "'use strict';\n"
    "const report = JSON.parse(document.getElementById('report').textContent);\n"
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
    "  if (typeof v === 'object') return JSON.stringify(v);\n"
    "  return String(v);\n"
    "}\n"
    "function summary() {\n"
    "  const dl = document.getElementById('summary-list');\n"
    "  for (const k of Object.keys(report)) {\n"
    "    const v = report[k];\n"
    "    if (Array.isArray(v) && v.length && typeof v[0] === 'object' && v[0] !== null) continue;\n"
    "    let text = fmt(v);\n"
    "    if (Array.isArray(v) && events.length === v.length && k !== 'events')\n"
    "      text = v.map((x, i) => events[i] + ' ' + fmt(x)).join(', ');\n"
    "    dl.append(el('dt', {}, k), el('dd', { 'data-key': k }, text));\n"
    "  }\n"
    "}\n"
    "function columns(rows) {\n"
    "  const cols = [];\n"
    "  for (const r of rows.slice(0, 50)) for (const k of Object.keys(r)) {\n"
    "    const v = r[k];\n"
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
    "function table(key, rows) {\n"
    "  const sec = el('section', { class: 'table', 'data-key': key });\n"
    "  sec.append(el('h2', {}, key + ' (' + rows.length + ')'));\n"
    "  const filter = el('input', { type: 'search', placeholder: 'filter by name (a regex)' });\n"
    "  sec.append(filter);\n"
    "  const cols = columns(rows);\n"
    "  const head = el('div', { class: 'row head' });\n"
    "  const box = el('div', { class: 'scroll' });\n"
    "  const spacer = el('div', { class: 'spacer' });\n"
    "  box.append(spacer);\n"
    "  sec.append(head, box);\n"
    "  let view = rows.slice(), sortBy = -1, desc = true;\n"
    "  cols.forEach((c, i) => {\n"
    "    const h = el('span', { class: 'cell', 'data-col': i }, c.name);\n"
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
    "      for (const c of cols) r.append(el('span', { class: 'cell' }, fmt(c.get(view[i]))));\n"
    "      box.append(r);\n"
    "    }\n"
    "  }\n"
    "  box.addEventListener('scroll', () => draw(false));\n"
    "  filter.addEventListener('input', () => {\n"
    "    let rx = null;\n"
    "    try { rx = new RegExp(filter.value); } catch (e) { return; }\n"
    "    const nameOf = r => fmt(r.name !== undefined ? r.name : r[Object.keys(r)[0]]);\n"
    "    view = rows.filter(r => rx.test(nameOf(r)));\n"
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
    "  document.getElementById('timeline').hidden = false;\n"
    "  paint();\n"
    "}\n"
    "summary();\n"
    "for (const k of Object.keys(report)) {\n"
    "  const v = report[k];\n"
    "  if (Array.isArray(v) && v.length && typeof v[0] === 'object' && v[0] !== null)\n"
    "    table(k, v);\n"
    "}\n"
    "timeline();\n"
    "const sectionOf = key => document.querySelector('section.table[data-key=\"' + key + '\"]');\n"
    "window.tkReport = { report, view: key => sectionOf(key).tkView() };\n";

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

static void put_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", out);
        else if (*s == '>') fputs("&gt;", out);
        else if (*s == '&') fputs("&amp;", out);
        else fputc(*s, out);
    }
}

static void put_base64(FILE *out, const unsigned char *p, size_t n)
{
    static const char b64[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
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
    char *svg = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&svg, &len);
    if (!m) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    tk_status st = tk_flamegraph_svg(r->folded, r->folded_len, &r->flame, m, err);
    if (fclose(m) != 0 && st == TK_OK) st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (st == TK_OK) {
        fputs("<section id=\"flame\"><h2>Flame graph</h2>\n"
              "<iframe title=\"flame graph\" src=\"data:image/svg+xml;base64,", out);
        put_base64(out, (const unsigned char *)svg, len);
        fputs("\"></iframe></section>\n", out);
    }
    free(svg);
    return st;
}

tk_status tk_html_report_write(const tk_html_report *r, FILE *out, tk_error *err)
{
    const char *title = r->title ? r->title : "tracekit report";
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", out);
    put_text(out, title);
    fprintf(out, "</title>\n<style>\n%s</style>\n</head><body>\n<h1>", style);
    put_text(out, title);
    fputs("</h1>\n<section id=\"summary\"><h2>Summary</h2><dl id=\"summary-list\"></dl>"
          "</section>\n<div id=\"tables\"></div>\n", out);
    if (r->folded) {
        tk_status st = put_flame(r, out, err);
        if (st != TK_OK) return st;
    }
    fputs("<section id=\"timeline\" hidden><h2>Timeline (wheel: zoom)</h2>"
          "<div id=\"timeline-info\"></div><div><canvas id=\"timeline-canvas\"></canvas></div>"
          "</section>\n<script type=\"application/json\" id=\"report\">", out);
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
