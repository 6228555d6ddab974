/* Folded stacks (flame graphs) from a profile's call graph.
 *
 * A callgrind profile keeps the cost of each caller -> callee arc, not of each
 * call chain, so a flame graph is an estimate: the cost that flows into a
 * function is split among its own cost and its callees in the proportions of
 * the whole profile. From each root (a function whose outgoing cost exceeds
 * what its callers account for: main's caller, thread starts) a depth-first
 * walk gives every frame f reached with weight w the self cost
 * w * self(f) / through(f) and each callee g the weight w * arc(f, g) /
 * through(f), where through(f) = self(f) + the cost of all its outgoing arcs.
 * The weights add up: the folded counts sum to the roots' weights, which are
 * scaled to the program total (a no-op when the arcs are consistent). A callee
 * already on the stack (recursion), a weight below the threshold and the
 * depth limit end a branch: the callee stays as a leaf frame carrying its
 * whole weight. Call trees (one chain per function) come out exact. Frames
 * are named without callgrind's context suffix. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/writer.h"
#include "core/alloc.h"
#include "model/profile.h"
#include "analysis/profile_summary.h"

typedef struct arc {
    uint32_t from, to;
    double cost;
} arc;

typedef struct frame {
    uint32_t fn;
    double share; /* weight / through(fn) */
    size_t next; /* next outgoing arc to visit */
    size_t name_at; /* length of the stack text before this frame */
} frame;

typedef struct walk {
    const tk_profile *p;
    FILE *out;
    char *text; /* "a;b;c" of the current stack */
    size_t text_len, text_cap;
    double emitted_exact; /* exact sum of what was emitted so far */
    uint64_t emitted; /* rounded sum printed so far */
    int nomem;
} walk;

static int cmp_arc(const void *a, const void *b)
{
    const arc *x = a, *y = b;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    return (x->to > y->to) - (x->to < y->to);
}

/* A function's name without callgrind's context suffix ('caller'caller2 of
 * --separate-callers, '2 of --separate-recs): the stack shows the callers. */
static const char *base_name(const tk_profile *p, uint32_t fn, size_t *len)
{
    const char *s = tk_profile_str(p, tk_profile_function_at(p, fn)->name);
    const char *q = strchr(s, '\'');
    *len = q && q > s ? (size_t)(q - s) : strlen(s);
    return s;
}

/* Append ";s" (or "s" at the bottom) to the stack text, with ';' and line
 * breaks as '_' (they would end a frame or the line). */
static void push_frame(walk *w, const char *s, size_t n)
{
    if (w->text_len + n + 2 > w->text_cap) {
        size_t cap = (w->text_len + n + 2) * 2;
        char *t = tk_realloc(w->text, cap);
        if (!t) {
            w->nomem = 1;
            return;
        }
        w->text = t;
        w->text_cap = cap;
    }
    if (w->text_len) w->text[w->text_len++] = ';';
    for (size_t i = 0; i < n; i++)
        w->text[w->text_len++] = s[i] == ';' || s[i] == '\n' || s[i] == '\r' ? '_' : s[i];
}

static void push_name(walk *w, uint32_t fn)
{
    size_t n;
    const char *s = base_name(w->p, fn, &n);
    push_frame(w, s, n);
}

/* One line for the current stack with value v; values are rounded so that
 * the printed counts add up to the rounded sum of all values. */
static void emit(walk *w, double v)
{
    if (w->nomem || !(v > 0)) return;
    w->emitted_exact += v;
    double target = floor(w->emitted_exact + 0.5);
    /* costs near 2^64 (summed in doubles) saturate instead of wrapping */
    uint64_t upto = !(target > 0) ? 0 : target >= 0x1p64 ? UINT64_MAX : (uint64_t)target;
    if (upto <= w->emitted) return;
    fprintf(w->out, "%.*s %" PRIu64 "\n", (int)w->text_len, w->text, upto - w->emitted);
    w->emitted = upto;
}

/* The call graph of the parts folded for event ev: the arcs merged per
 * (caller, callee), arcs[first[f] .. first[f + 1]) leaving f; each function's
 * through (self + its outgoing arcs) and into (its incoming arcs) cost. */
typedef struct call_graph {
    arc *arcs;
    size_t *first;
    double *through, *into;
} call_graph;

static void call_graph_free(call_graph *g)
{
    tk_free(g->arcs);
    tk_free(g->first);
    tk_free(g->through);
    tk_free(g->into);
}

static tk_status call_graph_build(const tk_profile *p, size_t first_part, size_t end_part,
                                  size_t ev, const tk_prof_summary *s, call_graph *g)
{
    size_t nev = tk_profile_event_count(p);
    size_t nfn = tk_profile_function_count(p), ncalls = 0;
    for (size_t i = first_part; i < end_part; i++) ncalls += tk_profile_part(p, i)->calls.count;
    g->arcs = tk_malloc((ncalls ? ncalls : 1) * sizeof *g->arcs);
    g->first = tk_calloc(nfn + 1, sizeof *g->first);
    g->through = tk_calloc(nfn ? nfn : 1, sizeof *g->through);
    g->into = tk_calloc(nfn ? nfn : 1, sizeof *g->into);
    if (!g->arcs || !g->first || !g->through || !g->into) return TK_ERR_NOMEM;
    /* arcs of all parts and call sites, one per (caller, callee) */
    arc *arcs = g->arcs;
    size_t k = 0;
    for (size_t i = first_part; i < end_part; i++) {
        const tk_prof_part *pt = tk_profile_part(p, i);
        const tk_prof_call *rows = pt->calls.rows;
        for (size_t r = 0; r < pt->calls.count; r++) {
            double c = (double)pt->calls.values[r * (nev + 1) + 1 + ev];
            if (c > 0) arcs[k++] = (arc){rows[r].fn, rows[r].callee, c};
        }
    }
    qsort(arcs, k, sizeof *arcs, cmp_arc);
    size_t m = 0;
    for (size_t i = 0; i < k; i++) {
        if (m && arcs[m - 1].from == arcs[i].from && arcs[m - 1].to == arcs[i].to)
            arcs[m - 1].cost += arcs[i].cost;
        else
            arcs[m++] = arcs[i];
    }
    for (size_t i = 0; i < m; i++) {
        g->first[arcs[i].from + 1]++;
        g->through[arcs[i].from] += arcs[i].cost;
        g->into[arcs[i].to] += arcs[i].cost;
    }
    for (size_t f = 0; f < nfn; f++) {
        g->first[f + 1] += g->first[f];
        g->through[f] += (double)s->entries[f].self[ev];
    }
    return TK_OK;
}

/* The depth-first walk from the roots. */
typedef struct folder {
    walk *w;
    const call_graph *g;
    const tk_prof_summary *s;
    size_t ev;
    double min_weight;
    size_t max_depth;
    frame *stack; /* max_depth + 1 frames */
    unsigned char *on_stack; /* per function */
    size_t base; /* length of the label's text */
} folder;

/* The stacks from root with its weight. */
static void fold_root(folder *fo, uint32_t root, double weight)
{
    walk *w = fo->w;
    const call_graph *g = fo->g;
    const size_t *first = g->first;
    frame *stack = fo->stack;
    w->text_len = fo->base;
    push_name(w, root);
    size_t depth = 0;
    stack[0] = (frame){root, weight / g->through[root], first[root], fo->base};
    fo->on_stack[root] = 1;
    emit(w, (double)fo->s->entries[root].self[fo->ev] * stack[0].share);
    while (!w->nomem) {
        frame *fr = &stack[depth];
        if (fr->next == first[fr->fn + 1]) { /* all callees visited */
            fo->on_stack[fr->fn] = 0;
            w->text_len = fr->name_at;
            if (depth == 0) break;
            depth--;
            continue;
        }
        const arc *a = &g->arcs[fr->next++];
        double cw = a->cost * fr->share;
        size_t name_at = w->text_len;
        push_name(w, a->to);
        if (fo->on_stack[a->to] || cw < fo->min_weight || depth + 1 >= fo->max_depth ||
            !(g->through[a->to] > 0)) {
            emit(w, cw); /* the callee as a leaf with its whole weight */
            w->text_len = name_at;
            continue;
        }
        stack[++depth] = (frame){a->to, cw / g->through[a->to], first[a->to], name_at};
        fo->on_stack[a->to] = 1;
        emit(w, (double)fo->s->entries[a->to].self[fo->ev] * stack[depth].share);
    }
}

/* The folded stacks of one part (1-based) or of all (0), each stack starting
 * with label when there is one. */
static tk_status fold(const tk_profile *p, size_t part, const char *label,
                      const tk_folded_profile_options *opt, FILE *out, tk_error *err)
{
    const tk_folded_profile_options o = *opt;
    size_t nev = tk_profile_event_count(p);
    size_t ev = o.event < nev ? o.event : 0;
    tk_prof_summary *s;
    tk_status st = tk_profile_summarize(p, part, TK_GROUP_FUNCTION, &s, err);
    if (st != TK_OK) return st;
    size_t first_part = part ? part - 1 : 0, end_part = part ? part : tk_profile_part_count(p);
    size_t nfn = tk_profile_function_count(p);
    call_graph g = {NULL, NULL, NULL, NULL};
    walk w = {p, out, NULL, 0, 0, 0, 0, 0};
    folder fo = {&w, &g, s, ev, 0, o.max_depth ? o.max_depth : 1, NULL, NULL, 0};
    fo.on_stack = tk_calloc(nfn ? nfn : 1, 1);
    fo.stack = tk_malloc((fo.max_depth + 1) * sizeof *fo.stack);
    if (call_graph_build(p, first_part, end_part, ev, s, &g) != TK_OK || !fo.on_stack ||
        !fo.stack) {
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        goto done;
    }
    if (label) push_frame(&w, label, strlen(label));
    fo.base = w.text_len;
    /* The walks from the roots hand out exactly the roots' weights; profiles
     * whose arcs do not add up (other producers, time events, recursion counted
     * twice) would give another total, so the roots are scaled to the total. */
    double roots = 0;
    for (uint32_t f = 0; f < nfn; f++)
        if (g.through[f] > g.into[f]) roots += g.through[f] - g.into[f];
    double total = (double)s->totals[ev], scale = roots > 0 ? total / roots : 0;
    fo.min_weight = o.min_share * total;
    for (uint32_t root = 0; root < nfn && !w.nomem; root++) {
        double weight = (g.through[root] - g.into[root]) * scale;
        if (!(weight > 0)) continue; /* reached through its callers only */
        fold_root(&fo, root, weight);
    }
    if (w.nomem)
        st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    else if (ferror(out))
        st = tk_error_set(err, TK_ERR_IO, "write error");
done:
    call_graph_free(&g);
    tk_free(fo.on_stack);
    tk_free(fo.stack);
    tk_free(w.text);
    tk_prof_summary_free(s);
    return st;
}

/* The parts are of several processes (their "pid:" lines differ: valgrind's files of a forked
 * program, or tracekit's of several XRay traces, whose pids are their process keys): each
 * thread's root then names its process, "process PID thread TID", as the XRay folded stacks of
 * several traces do, so that equal thread numbers of two processes stay apart. */
static int parts_of_processes(const tk_profile *p)
{
    size_t n = tk_profile_part_count(p);
    const tk_prof_part *first = NULL;
    for (size_t i = 0; i < n; i++) {
        const tk_prof_part *pt = tk_profile_part(p, i);
        if (!pt->has_pid) continue;
        if (first && pt->pid != first->pid) return 1;
        if (!first) first = pt;
    }
    return 0;
}

static tk_status profile_write_folded_stream(const tk_profile *p,
                                             const tk_folded_profile_options *opt, FILE *out,
                                             tk_error *err)
{
    tk_folded_profile_options o = TK_FOLDED_PROFILE_OPTIONS_INIT;
    if (opt) o = *opt;
    /* zero: the defaults; a share below zero: none (a weight is at least 0) */
    if (o.min_share == 0) o.min_share = 1e-5;
    if (o.max_depth == 0) o.max_depth = 256;
    if (o.part > tk_profile_part_count(p))
        return tk_error_set(err, TK_ERR_ARG, "no part %zu (the profile has %zu)", o.part,
                            tk_profile_part_count(p));
    if (tk_profile_event_count(p) == 0) return TK_OK;
    if (o.part) return fold(p, o.part, NULL, &o, out, err);
    if (!o.per_part) return fold(p, 0, NULL, &o, out, err);
    tk_status st = TK_OK;
    int by_process = parts_of_processes(p);
    for (size_t i = 0; i < tk_profile_part_count(p) && st == TK_OK; i++) {
        const tk_prof_part *pt = tk_profile_part(p, i);
        char label[64];
        if (pt->has_thread && by_process)
            snprintf(label, sizeof label, "process %" PRIu64 " thread %" PRIu64, pt->pid,
                     pt->thread);
        else if (pt->has_thread)
            snprintf(label, sizeof label, "thread %" PRIu64, pt->thread);
        else
            snprintf(label, sizeof label, "part %zu", i + 1);
        st = fold(p, i + 1, label, &o, out, err);
    }
    return st;
}

tk_status tk_profile_write_folded(const tk_profile *p, const tk_folded_profile_options *opt,
                                  const tk_writer *out, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, profile_write_folded_stream(p, opt, s.f, err), err);
}
