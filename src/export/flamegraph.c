/* Flame graphs as SVG from folded stacks: the stacks are merged into a tree (a node per call
 * path: children of a node are found by name, the last child touched first, since folded
 * output is sorted and consecutive lines share their prefixes), laid out by count, and
 * written with a small script of tracekit's own for zoom, search and tooltips. */
#include "core/writer.h"
#include "tracekit/flamegraph.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "tracekit/tracekit.h"


typedef struct fnode {
    const char *name;
    uint32_t len;
    uint32_t parent, first, next, last, last_hit;
    uint32_t depth;
    double value, before; /* value: the drawn count; before: differential's first count */
    double x; /* start, in counts */
    double narrow, narrow_before; /* the counts of its children narrower than a pixel */
    double narrow_x; /* where they start (after the wider children) */
    uint32_t nnarrow; /* how many */
} fnode;

typedef struct ftree {
    fnode *n;
    size_t count, cap;
    tk_hmap index; /* hash of (parent, name) -> node (the first of a hash; others scanned) */
    uint64_t key; /* of the names' hashes (tk_hash_new_key) */
    uint32_t max_depth;
    int diff;
} ftree;

#define NONE UINT32_MAX

static uint32_t child(ftree *t, uint32_t parent, const char *name, uint32_t len)
{
    fnode *p = &t->n[parent];
    if (p->last_hit != NONE && t->n[p->last_hit].len == len &&
        memcmp(t->n[p->last_hit].name, name, len) == 0)
        return p->last_hit;
    uint64_t key = tk_hash_u64(parent) ^ tk_hash_bytes(t->key, name, len), v;
    int known = tk_hmap_get(&t->index, key, &v);
    if (known && t->n[v].parent == parent && t->n[v].len == len &&
        memcmp(t->n[v].name, name, len) == 0)
        return p->last_hit = (uint32_t)v;
    if (known) /* another name of the same hash: the children one by one */
        for (uint32_t c = p->first; c != NONE; c = t->n[c].next)
            if (t->n[c].len == len && memcmp(t->n[c].name, name, len) == 0) return p->last_hit = c;
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        fnode *m = tk_reallocarray(t->n, cap, sizeof *m);
        if (!m) return NONE;
        t->n = m;
        t->cap = cap;
        p = &t->n[parent];
    }
    uint32_t id = (uint32_t)t->count++;
    fnode *c = &t->n[id];
    memset(c, 0, sizeof *c);
    c->name = name;
    c->len = len;
    c->parent = parent;
    c->first = c->next = c->last = c->last_hit = NONE;
    c->depth = p->depth + 1;
    if (!known && tk_hmap_put(&t->index, key, id) != 0) return NONE;
    /* appended: the children keep the order of the input */
    if (p->first == NONE)
        p->first = id;
    else
        t->n[p->last].next = id;
    p->last = id;
    if (c->depth > t->max_depth) t->max_depth = c->depth;
    return p->last_hit = id;
}

/* One stack (tk_folded_scan): its counts added along its path. */
static tk_status add_line(void *user, const tk_folded_line *l)
{
    ftree *t = user;
    const char *stack_end = l->stack + l->stack_len;
    uint32_t cur = 0;
    t->n[0].value += l->count;
    t->n[0].before += l->before;
    for (const char *f = l->stack; f < stack_end;) {
        const char *fe = memchr(f, ';', (size_t)(stack_end - f));
        if (!fe) fe = stack_end;
        cur = child(t, cur, f, (uint32_t)(fe - f));
        if (cur == NONE) return TK_ERR_NOMEM;
        t->n[cur].value += l->count;
        t->n[cur].before += l->before;
        f = fe + 1;
    }
    return TK_OK;
}

/* Children of at least `cut` counts (a pixel) first, in the input's order, then the narrower
 * ones, whose sum is drawn as one frame (nodes are created after their parents: one pass in
 * index order places every child after its earlier siblings). */
static void layout(ftree *t, double cut)
{
    t->n[0].x = 0;
    for (size_t i = 0; i < t->count; i++) {
        fnode *n = &t->n[i];
        double x = n->x;
        for (uint32_t c = n->first; c != NONE; c = t->n[c].next) {
            if (t->n[c].value < cut) continue;
            t->n[c].x = x;
            x += t->n[c].value;
        }
        n->narrow_x = x;
        for (uint32_t c = n->first; c != NONE; c = t->n[c].next) {
            if (t->n[c].value >= cut) continue;
            t->n[c].x = x;
            x += t->n[c].value;
            n->narrow += t->n[c].value;
            n->narrow_before += t->n[c].before;
            n->nnarrow++;
        }
    }
}

static void put_xml(FILE *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        switch (s[i]) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default:
            if ((unsigned char)s[i] >= 0x20 || s[i] == '\t') fputc(s[i], out);
        }
    }
}

/* The module of a name: before its last "::" or "." (outside template brackets), else the
 * name; hashed to a hue. */
static unsigned module_hash(const char *s, uint32_t len)
{
    uint32_t end = len;
    for (uint32_t i = 0; i + 1 < len; i++)
        if ((s[i] == ':' && s[i + 1] == ':') || s[i] == '.') end = i;
    if (end == 0) end = len;
    unsigned h = 2166136261u;
    for (uint32_t i = 0; i < end; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void colour(const ftree *t, const fnode *n, char *buf, size_t size)
{
    if (t->diff) {
        double d = n->value - n->before, base = n->value > n->before ? n->value : n->before;
        double share = base > 0 ? fabs(d) / base : 0;
        unsigned c = 255 - (unsigned)(share > 1 ? 200 : share * 200);
        if (d > 0)
            snprintf(buf, size, "rgb(255,%u,%u)", c, c);
        else if (d < 0)
            snprintf(buf, size, "rgb(%u,%u,255)", c, c);
        else
            snprintf(buf, size, "rgb(230,230,230)");
        return;
    }
    unsigned h = module_hash(n->name, n->len);
    snprintf(buf, size, "rgb(%u,%u,%u)", 205 + h % 50, 80 + (h >> 8) % 130, (h >> 16) % 55);
}

/* The page's script: zoom (click), search (a regular expression: matches highlighted, their
 * share of the total shown), reset, text fitted to the frames. Frames are <g> elements with
 * data-s (start) and data-n (count) in counts, data-d (depth) and data-p (parent's id). */
static const char script[] =
    "<script type=\"text/ecmascript\"><![CDATA[\n"
    "'use strict';\n"
    "const svg = document.documentElement, W = +svg.dataset.w, total = +svg.dataset.total;\n"
    "const frames = Array.from(document.querySelectorAll('g.f'));\n"
    "const byId = new Map(frames.map(g => [g.id, g]));\n"
    "let zoomed = null;\n"
    "function fit(g, w) {\n"
    "  const t = g.querySelector('text');\n"
    "  const name = g.dataset.k ? g.dataset.k + ' frames narrower than a pixel' : g.dataset.name;\n"
    "  const n = Math.floor((w - 6) / 7);\n"
    "  t.textContent = n < 3 ? '' : name.length <= n ? name : name.slice(0, n - 2) + '..';\n"
    "}\n"
    "function place(g, s, n, zs, zn) {\n"
    "  const x = (s - zs) / zn * W + 10, w = n / zn * W;\n"
    "  const r = g.querySelector('rect'), t = g.querySelector('text');\n"
    "  r.setAttribute('x', x.toFixed(2)); r.setAttribute('width', Math.max(w, 0).toFixed(2));\n"
    "  t.setAttribute('x', (x + 3).toFixed(2)); fit(g, w);\n"
    "}\n"
    "function zoom(g) {\n"
    "  zoomed = g;\n"
    "  const zs = +g.dataset.s, zn = +g.dataset.n;\n"
    "  for (const f of frames) {\n"
    "    const s = +f.dataset.s, n = +f.dataset.n;\n"
    "    const inside = s >= zs && s + n <= zs + zn && +f.dataset.d >= +g.dataset.d;\n"
    "    const above = s <= zs && s + n >= zs + zn && +f.dataset.d < +g.dataset.d;\n"
    "    f.style.display = inside || above ? '' : 'none';\n"
    "    if (inside) place(f, s, n, zs, zn); else if (above) place(f, zs, zn, zs, zn);\n"
    "    f.classList.toggle('parent', above);\n"
    "  }\n"
    "  document.getElementById('unzoom').style.display = '';\n"
    "}\n"
    "function unzoom() {\n"
    "  zoom(frames[0]); zoomed = null;\n"
    "  document.getElementById('unzoom').style.display = 'none';\n"
    "}\n"
    "function search(re) {\n"
    "  let rx;\n"
    "  try { rx = new RegExp(re); } catch (e) { return; }\n"
    "  const hit = new Set();\n"
    "  let sum = 0;\n"
    "  for (const f of frames) {\n"
    "    const m = re !== '' && !f.dataset.k && rx.test(f.dataset.name);\n"
    "    f.classList.toggle('match', m);\n"
    "    if (!m) continue;\n"
    "    hit.add(f.id);\n"
    "    let p = f.dataset.p, nested = false;\n"
    "    while (p) { if (hit.has(p)) { nested = true; break; } p = byId.get(p).dataset.p; }\n"
    "    if (!nested) sum += +f.dataset.n;\n"
    "  }\n"
    "  const m = document.getElementById('matched');\n"
    "  m.textContent = re === '' ? '' : 'Matched: ' + (100 * sum / total).toFixed(1) + '%';\n"
    "  m.dataset.sum = sum;\n"
    "}\n"
    "for (const f of frames) {\n"
    "  f.addEventListener('click', () => zoom(f));\n"
    "  f.addEventListener('mouseover', () => {\n"
    "    document.getElementById('details').textContent = f.querySelector('title').textContent;\n"
    "  });\n"
    "}\n"
    "document.getElementById('unzoom').addEventListener('click', unzoom);\n"
    "document.getElementById('search').addEventListener('click', () => {\n"
    "  const re = prompt('Search for (a regular expression):', '');\n"
    "  if (re !== null) search(re);\n"
    "});\n"
    "for (const f of frames) fit(f, +f.querySelector('rect').getAttribute('width'));\n"
    "window.tkFlame = { zoom: id => zoom(byId.get(id)), unzoom, search };\n"
    "]]></script>\n";

static void put_count(FILE *out, double v)
{
    if (v == floor(v) && v < 1e15)
        fprintf(out, "%.0f", v);
    else
        fprintf(out, "%.3f", v);
}

/* What a frame shows: a node, or the children of a node narrower than a pixel together. */
typedef struct frame {
    const fnode *n; /* the node (agg: the parent of the narrow children) */
    int agg;
    double value, before, x;
    uint32_t depth;
} frame;

static void put_frame(FILE *out, const ftree *t, uint32_t i, const frame *f,
                      const tk_flame_options *o, double scale, unsigned height)
{
    double total = t->n[0].value;
    unsigned y = o->reverse ? 40 + f->depth * 16 : height - 30 - (f->depth + 1) * 16;
    char fill[48];
    if (f->agg)
        snprintf(fill, sizeof fill, "rgb(190,190,190)");
    else
        colour(t, f->n, fill, sizeof fill);
    fprintf(out, "<g class=\"f%s\" id=\"%s%" PRIu32 "\" data-s=\"", f->agg ? " agg" : "",
            f->agg ? "a" : "f", i);
    put_count(out, f->x);
    fputs("\" data-n=\"", out);
    put_count(out, f->value);
    fprintf(out, "\" data-d=\"%" PRIu32 "\"", f->depth);
    if (f->agg)
        fprintf(out, " data-p=\"f%" PRIu32 "\" data-k=\"%" PRIu32 "\"", i, f->n->nnarrow);
    else if (i)
        fprintf(out, " data-p=\"f%" PRIu32 "\"", f->n->parent);
    fputs(" data-name=\"", out);
    if (!f->agg) put_xml(out, f->n->name, f->n->len);
    fputs("\"><title>", out);
    if (f->agg)
        fprintf(out, "%" PRIu32 " frames narrower than a pixel", f->n->nnarrow);
    else
        put_xml(out, f->n->name, f->n->len);
    fputs(" (", out);
    if (t->diff) {
        put_count(out, f->before);
        fputs(" -> ", out);
    }
    put_count(out, f->value);
    fprintf(out, " %s, %.2f%%", o->unit ? o->unit : "samples",
            total > 0 ? 100.0 * f->value / total : 0.0);
    if (t->diff && f->before > 0)
        fprintf(out, ", %+.2f%%", 100.0 * (f->value - f->before) / f->before);
    fprintf(out,
            ")</title><rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"15\" "
            "fill=\"%s\" rx=\"2\"/><text x=\"%.2f\" y=\"%u\"></text></g>\n",
            10 + f->x * scale, y, f->value * scale, fill, 13 + f->x * scale, y + 11);
}

/* The depth of the deepest frame put_frames draws. */
static uint32_t drawn_depth(const ftree *t, double scale, double cut, double min_width)
{
    uint32_t d = 0;
    for (size_t i = 0; i < t->count; i++) {
        const fnode *n = &t->n[i];
        if (i && n->value < cut) continue;
        uint32_t nd = n->nnarrow && n->narrow * scale >= min_width ? n->depth + 1 : n->depth;
        if (nd > d) d = nd;
    }
    return d;
}

/* Every node at least `cut` counts wide (with its ancestors), and for each one drawn, its
 * children narrower than that as one frame when they add up to min_width pixels. */
static void put_frames(FILE *out, const ftree *t, const tk_flame_options *o, double scale,
                       unsigned height, double cut, double min_width)
{
    for (size_t i = 0; i < t->count; i++) {
        const fnode *n = &t->n[i];
        if (i && n->value < cut) continue; /* its parent drew it in its narrow frame */
        frame f = {n, 0, n->value, n->before, n->x, n->depth};
        put_frame(out, t, (uint32_t)i, &f, o, scale, height);
        if (!n->nnarrow || n->narrow * scale < min_width) continue;
        frame a = {n, 1, n->narrow, n->narrow_before, n->narrow_x, n->depth + 1};
        put_frame(out, t, (uint32_t)i, &a, o, scale, height);
    }
}

static void put_head(FILE *out, const ftree *t, const tk_flame_options *o, unsigned width,
                     unsigned height)
{
    const char *title = o->title     ? o->title
                        : t->diff    ? "Differential Flame Graph"
                        : o->reverse ? "Icicle Graph"
                                     : "Flame Graph";
    fprintf(out,
            "<?xml version=\"1.0\" standalone=\"no\"?>\n"
            "<svg version=\"1.1\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
            "xmlns=\"http://www.w3.org/2000/svg\" data-w=\"%u\" data-total=\"",
            width, height, width, height, width - 20);
    put_count(out, t->n[0].value);
    fputs("\">\n<style>\n"
          "text { font-family: Verdana, sans-serif; font-size: 12px; fill: #000; }\n"
          "g.f { cursor: pointer; } g.f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
          "g.f text { pointer-events: none; font-size: 11px; }\n"
          "g.match rect { fill: rgb(230,0,230); } g.parent rect { opacity: 0.6; }\n"
          ".button { cursor: pointer; fill: #0645ad; }\n"
          "</style>\n",
          out);
    fprintf(out,
            "<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f8\"/>\n"
            "<text id=\"title\" x=\"%u\" y=\"22\" text-anchor=\"middle\" "
            "style=\"font-size: 17px\">",
            width / 2);
    put_xml(out, title, strlen(title));
    fprintf(out,
            "</text>\n<text id=\"unzoom\" class=\"button\" x=\"10\" y=\"22\" "
            "style=\"display: none\">Reset zoom</text>\n"
            "<text id=\"search\" class=\"button\" x=\"%u\" y=\"22\" text-anchor=\"end\">"
            "Search</text>\n<text id=\"matched\" x=\"%u\" y=\"%u\" text-anchor=\"end\"></text>\n"
            "<text id=\"details\" x=\"10\" y=\"%u\"></text>\n",
            width - 10, width - 10, height - 10, height - 10);
}

static tk_status flamegraph_svg_stream(const char *text, size_t len, const tk_flame_options *opt,
                                       FILE *out, tk_error *err)
{
    tk_flame_options o = TK_FLAME_OPTIONS_INIT;
    if (opt) o = *opt;
    unsigned width = o.width ? o.width : 1200;
    if (width < 200) width = 200;
    double min_width = o.min_width > 0 ? o.min_width : 0.1;
    ftree t;
    memset(&t, 0, sizeof t);
    t.key = tk_hash_new_key();
    t.n = tk_malloc(1024 * sizeof *t.n);
    if (!t.n) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    t.cap = 1024;
    t.count = 1;
    memset(&t.n[0], 0, sizeof t.n[0]);
    t.n[0].name = "all";
    t.n[0].len = 3;
    t.n[0].first = t.n[0].next = t.n[0].last = t.n[0].last_hit = NONE;
    tk_status st = tk_folded_scan(text, len, o.path ? o.path : "folded stacks", NULL, add_line, &t,
                                  &t.diff, err);
    if (st == TK_ERR_NOMEM) tk_error_set(err, st, "out of memory");
    if (st == TK_OK) {
        double scale = t.n[0].value > 0 ? (width - 20) / t.n[0].value : 0;
        double cut = scale > 0 ? 1.0 / scale : 0; /* a pixel, in counts */
        layout(&t, cut);
        unsigned height = 70 + (drawn_depth(&t, scale, cut, min_width) + 1) * 16;
        put_head(out, &t, &o, width, height);
        put_frames(out, &t, &o, scale, height, cut, min_width);
        fputs(script, out);
        fputs("</svg>\n", out);
        if (ferror(out)) st = tk_error_set(err, TK_ERR_IO, "write error");
    }
    tk_free(t.n);
    tk_hmap_free(&t.index);
    return st;
}

tk_status tk_flamegraph_svg(const char *text, size_t len, const tk_flame_options *opt,
                            const tk_writer *out, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, flamegraph_svg_stream(text, len, opt, s.f, err), err);
}
