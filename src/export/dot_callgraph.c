/* Call graph of a profile as Graphviz dot: one node per function with self
 * and inclusive percentages, one edge per caller/callee pair with the call
 * count; nodes and edges under the thresholds are dropped; colours go from
 * blue (cold) to red (hot) by inclusive cost. An edge inside a recursion
 * (caller and callee in one strongly connected component) shows its call
 * count only, dashed: its inclusive cost counts the nested calls once per
 * level (fib -> fib of an XRay trace came to 479 % of the total). When the event is a time
 * (tk_dot_options.event_per_second), the total and each node's inclusive time are printed in
 * the unit asked for. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/writer.h"
#include "core/alloc.h"
#include "core/compat.h"
#include "model/profile.h"
#include "analysis/profile_summary.h"

typedef struct dot_edge {
    uint32_t from, to;
    uint64_t calls, cost;
} dot_edge;

static int cmp_dot_edge(const void *a, const void *b)
{
    const dot_edge *x = a, *y = b;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    return (x->to > y->to) - (x->to < y->to);
}

static void dot_label_str(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        if ((unsigned char)*s < 0x20)
            fputc(' ', f);
        else
            fputc(*s, f);
    }
}

/* Hue from 0.66 (blue, cold) to 0 (red, hot). */
static void colour(FILE *f, double frac)
{
    if (frac < 0) frac = 0;
    if (frac > 1) frac = 1;
    fprintf(f, "\"%.3f 0.85 0.85\"", 0.66 * (1.0 - frac));
}

/* The length of the operator name at s ("operator<<", "operator()", ...) when s starts one
 * at a word boundary (at, the index of s in its name), else 0. */
static size_t operator_len(const char *name, size_t at)
{
    const char *s = name + at;
    if (strncmp(s, "operator", 8) != 0 || (at > 0 && name[at - 1] != ':' && name[at - 1] != ' '))
        return 0;
    size_t n = 8;
    if (s[n] == '(' && s[n + 1] == ')') return n + 2;
    while (s[n] && strchr("<>=!+-*/%^&|~,[]", s[n])) n++;
    return n;
}

/* The index of the "(" that opens the parameter list of a name ending in ")" or ") const",
 * or SIZE_MAX. */
static size_t params_at(const char *name, size_t len)
{
    size_t end = len;
    if (end >= 6 && strcmp(name + end - 6, " const") == 0) end -= 6;
    if (end == 0 || name[end - 1] != ')') return SIZE_MAX;
    int depth = 0;
    for (size_t i = end; i-- > 0;) {
        if (name[i] == ')')
            depth++;
        else if (name[i] == '(' && --depth == 0)
            return i > 0 && !(i >= 8 && operator_len(name, i - 8) == 10 && i + 2 == end) ? i
                                                                                         : SIZE_MAX;
    }
    return SIZE_MAX;
}

char *tk_short_name(const char *name, char *out, size_t size)
{
    size_t len = strlen(name), n = 0;
    size_t params = name[0] == '(' ? SIZE_MAX : params_at(name, len);
    int depth = 0;
    for (size_t i = 0; i < len && n + 1 < size; i++) {
        size_t op = depth == 0 ? operator_len(name, i) : 0;
        if (op) {
            for (size_t k = 0; k < op && n + 1 < size; k++) out[n++] = name[i + k];
            i += op - 1;
            continue;
        }
        if (i == params) {
            if (n + 2 < size) {
                out[n++] = '(';
                out[n++] = ')';
            }
            break;
        }
        char c = name[i];
        if (c == '<') {
            if (depth++ == 0) out[n++] = c;
        } else if (c == '>' && depth > 0) {
            if (--depth == 0) out[n++] = c;
        } else if (depth == 0) {
            out[n++] = c;
        }
    }
    out[n] = 0;
    return out;
}

/* The call arcs of every part, one per caller/callee pair (the calls and the
 * inclusive cost of event ev added up over parts and call sites), by caller
 * then callee. *count: how many; NULL when out of memory. */
static dot_edge *merged_edges(const tk_profile *p, size_t ev, size_t *count)
{
    size_t nev = tk_profile_event_count(p);
    size_t ncalls = 0;
    for (size_t i = 0; i < tk_profile_part_count(p); i++)
        ncalls += tk_profile_part(p, i)->calls.count;
    dot_edge *edges = tk_malloc((ncalls ? ncalls : 1) * sizeof *edges);
    if (!edges) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < tk_profile_part_count(p); i++) {
        const tk_prof_part *pt = tk_profile_part(p, i);
        const tk_prof_call *rows = pt->calls.rows;
        for (size_t r = 0; r < pt->calls.count; r++) {
            const uint64_t *v = pt->calls.values + r * (nev + 1);
            edges[k].from = rows[r].fn;
            edges[k].to = rows[r].callee;
            edges[k].calls = v[0];
            edges[k].cost = nev ? v[1 + ev] : 0;
            k++;
        }
    }
    qsort(edges, k, sizeof *edges, cmp_dot_edge);
    size_t m = 0; /* merge edges of the same pair (several parts, call sites) */
    for (size_t i = 0; i < k; i++) {
        if (m && edges[m - 1].from == edges[i].from && edges[m - 1].to == edges[i].to) {
            edges[m - 1].calls += edges[i].calls;
            edges[m - 1].cost += edges[i].cost;
        } else {
            edges[m++] = edges[i];
        }
    }
    *count = m;
    return edges;
}

/* What the nodes and edges are drawn with. */
typedef struct dot_style {
    const tk_dot_options *o;
    size_t ev; /* the event */
    uint64_t total; /* its total */
    int timed; /* a time: printed in o->time_unit */
    const char *unit;
    int decimals;
} dot_style;

static void dot_node(const tk_profile *p, const dot_style *ds, size_t f, const tk_prof_entry *e,
                     FILE *out)
{
    uint64_t total = ds->total;
    size_t ev = ds->ev;
    double si = total ? 100.0 * (double)e->self[ev] / (double)total : 0;
    double ii = total ? 100.0 * (double)e->inclusive[ev] / (double)total : 0;
    char shortbuf[1024];
    fprintf(out, "  f%zu [label=\"", f);
    const char *name = tk_profile_str(p, e->name);
    dot_label_str(out, ds->o->full_names ? name : tk_short_name(name, shortbuf, sizeof shortbuf));
    fputs("\\n", out);
    dot_label_str(out, tk_profile_str(p, e->object));
    fprintf(out, "\\n%.2f%% (%.2f%% self)", ii, si);
    if (ds->timed)
        fprintf(out, "\\n%.*f %s", ds->decimals,
                tk_ticks_to_unit(e->inclusive[ev], ds->o->event_per_second, ds->o->time_unit),
                ds->unit);
    /* a root is called by nobody: no count */
    if (e->calls) fprintf(out, "\\n%" PRIu64 " call%s", e->calls, e->calls == 1 ? "" : "s");
    fputs("\", color=", out);
    colour(out, ii / 100.0);
    fputs("];\n", out);
}

/* An edge drawn; dashed when inside a recursion (cls: the recursion classes). */
static void dot_edge_line(const dot_style *ds, const dot_edge *d, const uint32_t *cls, FILE *out)
{
    if (cls[d->from] == cls[d->to]) {
        fprintf(out,
                "  f%" PRIu32 " -> f%" PRIu32 " [label=\"%" PRIu64 "x\\n(recursive)\", "
                "style=dashed, color=\"0.000 0.00 0.45\"];\n",
                d->from, d->to, d->calls);
        return;
    }
    double pe = ds->total ? 100.0 * (double)d->cost / (double)ds->total : 0;
    fprintf(out, "  f%" PRIu32 " -> f%" PRIu32 " [label=\"%.2f%%\\n%" PRIu64 "x\", color=", d->from,
            d->to, pe, d->calls);
    colour(out, pe / 100.0);
    fprintf(out, ", penwidth=%.2f];\n", 1.0 + 3.0 * pe / 100.0);
}

/* An edge between two nodes drawn: every call arc of at least the edge threshold, also inside
 * a recursion, where its inclusive cost counts the nested calls once per level and so is at
 * least the cost of the calls under its outermost ones: no arc over the threshold is left out
 * (a CPython profile's 298 arcs inside its recursion, drawn whatever their cost, took dot
 * 14 s; the 151 over 0.1 %, 0.13 s). */
static int edge_drawn(const dot_style *ds, const dot_edge *d, const unsigned char *keep)
{
    if (!keep[d->from] || !keep[d->to]) return 0;
    double pe = ds->total ? 100.0 * (double)d->cost / (double)ds->total : 0;
    return pe >= ds->o->edge_threshold;
}

/* The order of the nodes for the cut: by inclusive (ctx: the summary, event first) or self
 * cost, most first, then by function id. */
typedef struct cut_order {
    const tk_prof_summary *s;
    size_t ev;
    int by_self;
} cut_order;

static int cmp_cut(const void *a, const void *b, void *ctx)
{
    const cut_order *c = ctx;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const tk_prof_entry *ex = &c->s->entries[x], *ey = &c->s->entries[y];
    uint64_t vx = c->by_self ? ex->self[c->ev] : ex->inclusive[c->ev];
    uint64_t vy = c->by_self ? ey->self[c->ev] : ey->inclusive[c->ev];
    if (vx != vy) return vx > vy ? -1 : 1;
    return (x > y) - (x < y);
}

/* The functions drawn (keep[f] = 1): those of at least the node threshold inclusive; of more
 * than max_nodes of them, the max_nodes hottest by inclusive cost and the max_nodes / 5
 * hottest by self cost (the rows `report` lists first, which a long chain of callers at
 * high inclusive cost would push out). *capped: whether the limit cut. TK_OK or
 * TK_ERR_NOMEM. */
static tk_status select_nodes(const tk_prof_summary *s, const dot_style *ds, size_t nfn,
                              unsigned char *keep, int *capped, tk_error *err)
{
    size_t max = ds->o->max_nodes ? ds->o->max_nodes : 100, n = 0;
    for (size_t f = 0; f < nfn; f++) {
        /* a profile without events has no total: nothing is drawn */
        keep[f] =
            ds->total && 100.0 * (double)s->entries[f].inclusive[ds->ev] / (double)ds->total >=
                             ds->o->node_threshold;
        n += keep[f];
    }
    *capped = n > max;
    if (!*capped) return TK_OK;
    uint32_t *ids = tk_malloc(n * sizeof *ids);
    if (!ids) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (size_t f = 0, k = 0; f < nfn; f++)
        if (keep[f]) ids[k++] = (uint32_t)f;
    cut_order c = {s, ds->ev, 1};
    tk_qsort_r(ids, n, sizeof *ids, cmp_cut, &c);
    for (size_t k = 0; k < n; k++) keep[ids[k]] = k < max / 5 ? 2 : 0;
    c.by_self = 0;
    tk_qsort_r(ids, n, sizeof *ids, cmp_cut, &c);
    for (size_t k = 0; k < n; k++) keep[ids[k]] = k < max || keep[ids[k]] == 2;
    tk_free(ids);
    return TK_OK;
}

/* What the cut left out, as a line of the graph's label (labelled: the label is open);
 * nothing when every function and call is drawn. Returns whether the label is open. */
static int cut_note(const dot_style *ds, size_t nodes, size_t nfn, size_t edges, size_t m,
                    int capped, int labelled, FILE *out)
{
    if (nodes == nfn && edges == m) return labelled;
    const tk_dot_options *o = ds->o;
    size_t max = o->max_nodes ? o->max_nodes : 100;
    fputs(labelled ? "\\n" : "  label=\"", out);
    fprintf(out, "%zu of %zu function%s", nodes, nfn, nfn == 1 ? "" : "s");
    if (capped) {
        fprintf(out, " (the %zu of highest inclusive and the %zu of highest self cost", max,
                max / 5);
        if (o->node_threshold > 0) fprintf(out, ", of those of %g%% or more", o->node_threshold);
        fputc(')', out);
    } else if (o->node_threshold > 0) {
        fprintf(out, " (%g%% or more inclusive)", o->node_threshold);
    }
    fprintf(out, ", %zu of %zu call%s", edges, m, m == 1 ? "" : "s");
    if (o->edge_threshold > 0) fprintf(out, " (%g%% or more)", o->edge_threshold);
    fputs(": --all draws every one", out);
    return 1;
}

/* The graph's attributes and the start of its label (its total), if it has one: returns
 * whether it has. */
static int dot_head(const tk_profile *p, const dot_style *ds, FILE *out)
{
    fputs("digraph callgraph {\n  graph [fontname=\"Helvetica\", nodesep=0.25, ranksep=0.4];\n"
          "  node [shape=box, style=filled, fontname=\"Helvetica\", fontcolor=white];\n"
          "  edge [fontname=\"Helvetica\"];\n",
          out);
    if (ds->timed) {
        fprintf(out, "  label=\"time, total %.*f %s", ds->decimals,
                tk_ticks_to_unit(ds->total, ds->o->event_per_second, ds->o->time_unit), ds->unit);
    } else if (tk_profile_event_count(p)) {
        fputs("  label=\"event: ", out);
        dot_label_str(out, tk_profile_str(p, tk_profile_event(p, ds->ev)->name));
        fprintf(out, ", total %" PRIu64, ds->total);
    } else {
        return 0;
    }
    return 1;
}

/* The graph of the functions and calls kept (keep: by function; edges, m of them). */
static void dot_graph(const tk_profile *p, const tk_prof_summary *s, const dot_style *ds,
                      const unsigned char *keep, int capped, const dot_edge *edges, size_t m,
                      const uint32_t *cls, FILE *out)
{
    size_t nfn = tk_profile_function_count(p), nodes = 0, drawn = 0;
    for (size_t f = 0; f < nfn; f++) nodes += keep[f];
    for (size_t i = 0; i < m; i++) drawn += (size_t)edge_drawn(ds, &edges[i], keep);
    if (cut_note(ds, nodes, nfn, drawn, m, capped, dot_head(p, ds, out), out)) fputs("\";\n", out);
    for (size_t f = 0; f < nfn; f++)
        if (keep[f]) dot_node(p, ds, f, &s->entries[f], out);
    for (size_t i = 0; i < m; i++)
        if (edge_drawn(ds, &edges[i], keep)) dot_edge_line(ds, &edges[i], cls, out);
    fputs("}\n", out);
}

static tk_status profile_write_dot_stream(const tk_profile *p, const tk_dot_options *opt, FILE *out,
                                          tk_error *err)
{
    tk_dot_options o = TK_DOT_OPTIONS_INIT;
    if (opt) o = *opt;
    /* zero: the defaults; below zero: none (every percentage is at least 0) */
    if (o.node_threshold == 0) o.node_threshold = 0.5;
    if (o.edge_threshold == 0) o.edge_threshold = 0.1;
    size_t nev = tk_profile_event_count(p);
    tk_prof_summary *s;
    tk_status st = tk_profile_summarize(p, 0, TK_GROUP_FUNCTION, &s, err);
    if (st != TK_OK) return st;
    dot_style ds = {&o,
                    o.event < nev ? o.event : 0,
                    0,
                    nev && o.event_per_second > 0,
                    tk_time_unit_name(o.time_unit),
                    tk_time_unit_decimals(o.time_unit)};
    ds.total = nev ? s->totals[ds.ev] : 0;
    size_t nfn = tk_profile_function_count(p);
    /* summary entries are indexed by function id in function mode */
    size_t m = 0;
    dot_edge *edges = merged_edges(p, ds.ev, &m);
    unsigned char *keep = tk_calloc(nfn ? nfn : 1, 1);
    uint32_t *cls = NULL;
    int capped = 0;
    if (!edges || !keep)
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    else
        st = tk_profile_recursion_classes(p, 0, 0, &cls, err);
    if (st == TK_OK) st = select_nodes(s, &ds, nfn, keep, &capped, err);
    if (st == TK_OK) dot_graph(p, s, &ds, keep, capped, edges, m, cls, out);
    tk_free(cls);
    tk_free(edges);
    tk_free(keep);
    tk_prof_summary_free(s);
    if (st != TK_OK) return st;
    if (ferror(out)) return tk_error_set(err, TK_ERR_IO, "write error");
    return TK_OK;
}

tk_status tk_profile_write_dot(const tk_profile *p, const tk_dot_options *opt, const tk_writer *out,
                               tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, profile_write_dot_stream(p, opt, s.f, err), err);
}
