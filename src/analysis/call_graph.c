/* The call graph of a profile: adjacency arrays, strongly connected
 * components, and inclusive costs inside call cycles.
 *
 * Inclusive cost of a node f: the cost incurred while f is on the stack. A
 * call arc c -> f holds the cost of every call from c to f, from the call to
 * its return; under recursion such calls nest, and the arcs count the nested
 * time once per level. What the arcs prove (docs/formats/callgrind.md):
 *   - calls whose intervals cannot nest add up exactly: arcs from outside f's
 *     strongly connected component (SCC), f's self cost plus its calls to
 *     functions outside the SCC, and under callgrind's recursion levels
 *     (`f'2` names) every arc into or out of a level-1 node;
 *   - upper bounds: the calls into f from other nodes, f's self cost plus all
 *     its calls, the cost of f's SCC as a unit, the program total.
 * Outside cycles the bounds meet. Inside, the estimate discounts each call
 * into f from a caller c by the share of c's own incoming cost that comes
 * from under f (a backward walk along c's callers, weighted by arc cost,
 * reaches f before it leaves the SCC): measured against the exact numbers of
 * --separate-recs runs, it comes closest of the estimators tried. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/call_graph.h"
#include "core/alloc.h"
#include "graph/scc.h"
#include "model/profile.h"

/* The nodes of call row r of rows (row: its number over all parts); with row_caller the rows
 * are not read (they may be NULL). */
static void nodes_of(const tk_call_nodes *m, const tk_prof_call *rows, size_t r, size_t row,
                     uint32_t *a, uint32_t *b)
{
    if (m->row_caller) {
        *a = m->row_caller[row];
        *b = m->row_callee[row];
    } else if (m->fn_node) {
        *a = m->fn_node[rows[r].fn];
        *b = m->fn_node[rows[r].callee];
    } else {
        *a = rows[r].fn;
        *b = rows[r].callee;
    }
}

tk_status tk_call_graph_csr(const tk_call_nodes *m, uint32_t **first_out, uint32_t **to_out)
{
    *first_out = NULL;
    *to_out = NULL;
    size_t n = m->n, nedges = 0;
    for (size_t i = 0; i < m->nparts; i++) nedges += m->parts[i]->calls.count;
    if (nedges >= UINT32_MAX) return TK_ERR_LIMIT;
    uint32_t *first = tk_calloc(n + 1, sizeof *first);
    uint32_t *to = tk_malloc((nedges ? nedges : 1) * sizeof *to);
    if (!first || !to) {
        tk_free(first);
        tk_free(to);
        return TK_ERR_NOMEM;
    }
    for (int pass = 0; pass < 2; pass++) {
        size_t row = 0;
        for (size_t i = 0; i < m->nparts; i++) {
            const tk_prof_call *rows = m->parts[i]->calls.rows;
            for (size_t r = 0; r < m->parts[i]->calls.count; r++, row++) {
                uint32_t a, b;
                nodes_of(m, rows, r, row, &a, &b);
                if (pass == 0)
                    first[a + 1]++;
                else
                    to[first[a]++] = b;
            }
        }
        if (pass == 0)
            for (size_t v = 0; v < n; v++) first[v + 1] += first[v];
    }
    /* the placement moved each first[v] to the start of v + 1 */
    for (size_t v = n; v > 0; v--) first[v] = first[v - 1];
    first[0] = 0;
    *first_out = first;
    *to_out = to;
    return TK_OK;
}

int tk_name_is_recursion_level(const char *name, size_t len)
{
    /* callgrind writes name'N'caller1'caller2: the level right after the
     * function's own name, N >= 2 */
    const char *q = len > 1 ? memchr(name + 1, '\'', len - 1) : NULL;
    if (!q) return 0;
    size_t i = (size_t)(q - name) + 1, digits = 0;
    while (i < len && name[i] >= '0' && name[i] <= '9') i++, digits++;
    return digits > 0 && (i == len || name[i] == '\'') && !(digits == 1 && q[1] < '2');
}

/* ---- the estimate -------------------------------------------------------- */

static uint64_t add_sat(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

static tk_status add_vec(uint64_t *d, const uint64_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (__builtin_add_overflow(d[i], s[i], &d[i])) return TK_ERR_LIMIT;
    return TK_OK;
}

/* A call arc inside an SCC: the rows of one caller -> callee pair, added. */
typedef struct inner_arc {
    uint32_t callee, caller; /* local indexes */
    size_t row; /* a row of the pair (global row number) */
} inner_arc;

static int cmp_inner(const void *x, const void *y)
{
    const inner_arc *a = x, *b = y;
    if (a->callee != b->callee) return a->callee < b->callee ? -1 : 1;
    if (a->caller != b->caller) return a->caller < b->caller ? -1 : 1;
    return (a->row > b->row) - (a->row < b->row);
}

typedef struct est {
    const tk_call_nodes *m;
    size_t n, nev, stride;
    uint64_t *incl; /* self, then self + calls out of the SCC, then the result */
    const uint64_t *totals;
    const unsigned char *level;
    int leveled;
    uint32_t *comp;
    size_t ncomp;
    uint32_t *comp_size;
    unsigned char *comp_loop;
    uint64_t *in_ext; /* n * nev: calls into the node from other SCCs */
    /* the k nodes in cycles, by local index (in node order) */
    size_t k;
    uint32_t *local; /* node -> local index, UINT32_MAX outside cycles */
    uint32_t *node; /* local -> node */
    uint32_t *cq; /* local -> its SCC among the SCCs with cycles (0 .. nq - 1) */
    size_t nq;
    uint64_t *in_other; /* k * nev: calls into it from other nodes */
    uint64_t *out_in; /* k * nev: its calls inside its SCC, to itself too */
    uint64_t *out_ext; /* k * nev: its calls out of its SCC */
    uint64_t *nest_free_max; /* k * nev: the heaviest arc into it from its SCC that cannot nest */
    unsigned char *has_caller; /* called by another node */
    /* first event: all calls into it, its calls to itself; added as integers (saturating),
     * so that they do not depend on the order of the rows (a partial's arcs add them up
     * before: tracekit/profile_partial.h) */
    uint64_t *in_w, *self_w;
    inner_arc *arcs; /* inside SCCs, by callee then caller, pairs added */
    uint64_t *arc_cost; /* per arc: nev values */
    size_t narcs;
    size_t *arc_first; /* k + 1: the arcs into local v start at arc_first[v] */
    uint32_t *out_first; /* k + 1, and out_to: the callees of local v */
    uint32_t *out_to;
    double work; /* arc visits of the walks so far */
} est;

static void est_free(est *e)
{
    tk_free(e->comp);
    tk_free(e->comp_size);
    tk_free(e->comp_loop);
    tk_free(e->in_ext);
    tk_free(e->local);
    tk_free(e->node);
    tk_free(e->cq);
    tk_free(e->in_other);
    tk_free(e->out_in);
    tk_free(e->out_ext);
    tk_free(e->nest_free_max);
    tk_free(e->has_caller);
    tk_free(e->in_w);
    tk_free(e->self_w);
    tk_free(e->arcs);
    tk_free(e->arc_cost);
    tk_free(e->arc_first);
    tk_free(e->out_first);
    tk_free(e->out_to);
}

/* The costs of call row `row` (global number; part_start: first row of each
 * part, nparts + 1 entries). */
static const uint64_t *row_costs(const est *e, const size_t *part_start, size_t row)
{
    size_t lo = 0, hi = e->m->nparts; /* the part holding row: part_start[lo] <= row */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (part_start[mid] <= row)
            lo = mid;
        else
            hi = mid;
    }
    return e->m->parts[lo]->calls.values + (row - part_start[lo]) * (e->nev + 1) + 1;
}

static tk_status est_components(est *e)
{
    uint32_t *first = NULL, *to = NULL;
    size_t n = e->n;
    e->comp = tk_malloc((n ? n : 1) * sizeof *e->comp);
    if (!e->comp) return TK_ERR_NOMEM;
    tk_status st = tk_call_graph_csr(e->m, &first, &to);
    if (st == TK_OK) st = tk_scc(n, first, to, e->comp);
    tk_free(first);
    tk_free(to);
    if (st != TK_OK) return st;
    for (size_t v = 0; v < n; v++)
        if (e->comp[v] + 1 > e->ncomp) e->ncomp = e->comp[v] + 1;
    e->comp_size = tk_calloc(e->ncomp ? e->ncomp : 1, sizeof *e->comp_size);
    e->comp_loop = tk_calloc(e->ncomp ? e->ncomp : 1, 1);
    if (!e->comp_size || !e->comp_loop) return TK_ERR_NOMEM;
    for (size_t v = 0; v < n; v++) e->comp_size[e->comp[v]]++;
    return TK_OK;
}

/* Calls between SCCs: into the callee's in_ext, onto the caller's incl.
 * Notes the SCCs that call themselves, and whether recursion levels hold. */
static tk_status est_between(est *e)
{
    size_t nev = e->nev, row = 0;
    int plain_loop = 0;
    e->in_ext = tk_calloc((e->n ? e->n : 1) * (nev ? nev : 1), sizeof *e->in_ext);
    if (!e->in_ext) return TK_ERR_NOMEM;
    for (size_t v = 0; v < e->n && e->level; v++)
        if (e->level[v]) e->leveled = 1;
    for (size_t i = 0; i < e->m->nparts; i++) {
        const tk_prof_call *rows = e->m->parts[i]->calls.rows;
        const uint64_t *values = e->m->parts[i]->calls.values;
        for (size_t r = 0; r < e->m->parts[i]->calls.count; r++, row++) {
            uint32_t a, b;
            nodes_of(e->m, rows, r, row, &a, &b);
            const uint64_t *v = values + r * (nev + 1) + 1;
            if (e->comp[a] == e->comp[b]) {
                if (a == b) {
                    e->comp_loop[e->comp[a]] = 1;
                    if (e->level && !e->level[a]) plain_loop = 1;
                }
                continue;
            }
            tk_status st = add_vec(e->in_ext + (size_t)b * nev, v, nev);
            if (st == TK_OK) st = add_vec(e->incl + (size_t)a * e->stride, v, nev);
            if (st != TK_OK) return st;
        }
    }
    /* a level-1 name calling itself: the names do not separate the levels
     * (--separate-recs=1 with a per-function setting) */
    if (plain_loop) e->leveled = 0;
    return TK_OK;
}

static int in_cycle(const est *e, size_t v)
{
    return e->comp_size[e->comp[v]] > 1 || e->comp_loop[e->comp[v]];
}

static tk_status est_cycle_nodes(est *e)
{
    size_t k = 0, nev = e->nev ? e->nev : 1;
    for (size_t v = 0; v < e->n; v++) k += (size_t)in_cycle(e, v);
    e->k = k;
    if (!k) return TK_OK;
    e->local = tk_malloc(e->n * sizeof *e->local);
    e->node = tk_malloc(k * sizeof *e->node);
    e->cq = tk_malloc(k * sizeof *e->cq);
    e->in_other = tk_calloc(k * nev, sizeof *e->in_other);
    e->out_in = tk_calloc(k * nev, sizeof *e->out_in);
    e->out_ext = tk_calloc(k * nev, sizeof *e->out_ext);
    e->nest_free_max = tk_calloc(k * nev, sizeof *e->nest_free_max);
    e->has_caller = tk_calloc(k, 1);
    e->in_w = tk_calloc(k, sizeof *e->in_w);
    e->self_w = tk_calloc(k, sizeof *e->self_w);
    if (!e->local || !e->node || !e->cq || !e->in_other || !e->out_in || !e->out_ext ||
        !e->nest_free_max || !e->has_caller || !e->in_w || !e->self_w)
        return TK_ERR_NOMEM;
    /* the SCCs with cycles, numbered densely (the rest are most of them) */
    uint32_t *qmap = tk_malloc(e->ncomp * sizeof *qmap);
    if (!qmap) return TK_ERR_NOMEM;
    for (size_t q = 0; q < e->ncomp; q++) qmap[q] = UINT32_MAX;
    size_t j = 0;
    for (size_t v = 0; v < e->n; v++) {
        e->local[v] = UINT32_MAX;
        if (in_cycle(e, v)) {
            uint32_t q = e->comp[v];
            if (qmap[q] == UINT32_MAX) qmap[q] = (uint32_t)e->nq++;
            e->cq[j] = qmap[q];
            e->local[v] = (uint32_t)j;
            e->node[j++] = (uint32_t)v;
        }
    }
    tk_free(qmap);
    return TK_OK;
}

/* Every call touching a node in a cycle; the arcs inside SCCs. */
static tk_status est_cycle_rows(est *e)
{
    size_t nev = e->nev, ninner = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            e->arcs = tk_malloc((ninner ? ninner : 1) * sizeof *e->arcs);
            if (!e->arcs) return TK_ERR_NOMEM;
            ninner = 0;
        }
        size_t row = 0;
        for (size_t i = 0; i < e->m->nparts; i++) {
            const tk_prof_call *rows = e->m->parts[i]->calls.rows;
            const uint64_t *values = e->m->parts[i]->calls.values;
            for (size_t r = 0; r < e->m->parts[i]->calls.count; r++, row++) {
                uint32_t a, b;
                nodes_of(e->m, rows, r, row, &a, &b);
                uint32_t la = e->local[a], lb = e->local[b];
                if (la == UINT32_MAX && lb == UINT32_MAX) continue;
                int inner = e->comp[a] == e->comp[b];
                if (inner && a != b) {
                    if (pass == 1) e->arcs[ninner] = (inner_arc){lb, la, row};
                    ninner++;
                }
                if (pass == 1) continue;
                const uint64_t *v = values + r * (nev + 1) + 1;
                tk_status st = TK_OK;
                if (la != UINT32_MAX)
                    st = add_vec((inner ? e->out_in : e->out_ext) + (size_t)la * nev, v, nev);
                if (lb != UINT32_MAX && st == TK_OK) {
                    uint64_t w = nev ? v[0] : 0;
                    e->in_w[lb] = add_sat(e->in_w[lb], w);
                    if (a == b) {
                        e->self_w[lb] = add_sat(e->self_w[lb], w);
                    } else {
                        e->has_caller[lb] = 1;
                        st = add_vec(e->in_other + (size_t)lb * nev, v, nev);
                    }
                }
                if (st != TK_OK) return st;
            }
        }
    }
    e->narcs = ninner;
    return TK_OK;
}

/* The inner arcs in order with the rows of a pair added, indexed both ways;
 * the heaviest arc into each node that cannot nest (under callgrind's
 * recursion levels a level-1 node is never active twice at once: neither
 * are the calls it makes or receives). */
static tk_status est_inner_arcs(est *e)
{
    size_t nev = e->nev, k = e->k, nparts = e->m->nparts;
    qsort(e->arcs, e->narcs, sizeof *e->arcs, cmp_inner);
    e->arc_cost = tk_calloc((e->narcs ? e->narcs : 1) * (nev ? nev : 1), sizeof *e->arc_cost);
    e->arc_first = tk_calloc(k + 1, sizeof *e->arc_first);
    e->out_first = tk_calloc(k + 1, sizeof *e->out_first);
    size_t *part_start = tk_malloc((nparts + 1) * sizeof *part_start);
    if (!e->arc_cost || !e->arc_first || !e->out_first || !part_start) {
        tk_free(part_start);
        return TK_ERR_NOMEM;
    }
    part_start[0] = 0;
    for (size_t i = 0; i < nparts; i++)
        part_start[i + 1] = part_start[i] + e->m->parts[i]->calls.count;
    size_t na = 0;
    tk_status st = TK_OK;
    for (size_t x = 0; x < e->narcs && st == TK_OK; x++) {
        const uint64_t *v = row_costs(e, part_start, e->arcs[x].row);
        if (na && e->arcs[na - 1].callee == e->arcs[x].callee &&
            e->arcs[na - 1].caller == e->arcs[x].caller) {
            st = add_vec(e->arc_cost + (na - 1) * nev, v, nev);
        } else {
            e->arcs[na] = e->arcs[x];
            memcpy(e->arc_cost + na * nev, v, nev * sizeof *v);
            na++;
        }
    }
    tk_free(part_start);
    if (st != TK_OK) return st;
    e->narcs = na;
    e->out_to = tk_malloc((na ? na : 1) * sizeof *e->out_to);
    if (!e->out_to) return TK_ERR_NOMEM;
    for (size_t x = 0; x < na; x++) {
        e->arc_first[e->arcs[x].callee + 1]++;
        e->out_first[e->arcs[x].caller + 1]++;
    }
    for (size_t v = 0; v < k; v++) {
        e->arc_first[v + 1] += e->arc_first[v];
        e->out_first[v + 1] += e->out_first[v];
    }
    for (size_t x = 0; x < na; x++)
        e->out_to[e->out_first[e->arcs[x].caller]++] = e->arcs[x].callee;
    for (size_t v = k; v > 0; v--) e->out_first[v] = e->out_first[v - 1];
    e->out_first[0] = 0;
    for (size_t x = 0; x < na && e->leveled; x++) {
        uint32_t a = e->node[e->arcs[x].caller], b = e->node[e->arcs[x].callee];
        if (e->level[a] && e->level[b]) continue;
        uint64_t *mx = e->nest_free_max + (size_t)e->arcs[x].callee * nev;
        for (size_t j = 0; j < nev; j++)
            if (e->arc_cost[x * nev + j] > mx[j]) mx[j] = e->arc_cost[x * nev + j];
    }
    return TK_OK;
}

/* Gauss-Seidel sweeps stop when no value moves by more than SWEEP_EPSILON,
 * or after MAX_SWEEPS. Past WORK_BUDGET arc visits in one estimate, the
 * remaining members get the middle of their bounds (never reached on the
 * profiles measured: docs/formats/callgrind.md). */
#define SWEEP_EPSILON 1e-9
#define MAX_SWEEPS 200
#define WORK_BUDGET 4e8

/* under[pos[c]] for the members of target f's SCC: the share of c's incoming
 * cost (first event) that comes from under f, the probability that a walk
 * backwards along the callers, each taken in proportion to its arc's cost,
 * reaches f before it leaves the SCC. pos: local -> position among the SCC's
 * mq members; order: mq cells, seen: mq bytes of scratch. */
static void under_target(est *e, size_t mq, const uint32_t *pos, uint32_t f, double *under,
                         uint32_t *order, unsigned char *seen)
{
    for (size_t i = 0; i < mq; i++) under[i] = 0.0;
    memset(seen, 0, mq);
    under[pos[f]] = 1.0;
    /* the members in breadth-first order from f along calls: the values
     * flow that way */
    size_t head = 0, tail = 0, visits = 0;
    order[tail++] = f;
    seen[pos[f]] = 1;
    while (head < tail) {
        uint32_t v = order[head++];
        visits += e->arc_first[v + 1] - e->arc_first[v];
        for (uint32_t x = e->out_first[v]; x < e->out_first[v + 1]; x++) {
            uint32_t w = e->out_to[x];
            if (!seen[pos[w]]) {
                seen[pos[w]] = 1;
                order[tail++] = w;
            }
        }
    }
    for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
        double delta = 0.0;
        for (size_t i = 1; i < tail; i++) {
            uint32_t v = order[i];
            double denom = (double)e->in_w[v] - (double)e->self_w[v], s = 0.0;
            for (size_t x = e->arc_first[v]; x < e->arc_first[v + 1]; x++)
                s += (double)e->arc_cost[x * e->nev] * under[pos[e->arcs[x].caller]];
            double nv = denom > 0.0 ? s / denom : 0.0;
            if (nv > 1.0) nv = 1.0;
            double d = fabs(nv - under[pos[v]]);
            if (d > delta) delta = d;
            under[pos[v]] = nv;
        }
        e->work += (double)(visits + tail);
        if (delta < SWEEP_EPSILON) break;
    }
}

/* The inclusive cost of each member of SCC q (mem: its mq local indexes).
 * region: the SCC's cost as a unit (nev values). */
static void est_component(est *e, const uint32_t *mem, size_t mq, const uint64_t *region,
                          uint32_t *pos, double *under, uint32_t *order, unsigned char *seen,
                          unsigned char *estimated)
{
    size_t nev = e->nev;
    uint64_t lo[TK_PROFILE_MAX_EVENTS], hi[TK_PROFILE_MAX_EVENTS];
    for (size_t i = 0; i < mq; i++) pos[mem[i]] = (uint32_t)i;
    for (size_t i = 0; i < mq; i++) {
        uint32_t l = mem[i], v = e->node[l];
        uint64_t *x = e->incl + (size_t)v * e->stride; /* self + calls out of the SCC */
        const uint64_t *ie = e->in_ext + (size_t)v * nev, *io = e->in_other + (size_t)l * nev;
        const uint64_t *oi = e->out_in + (size_t)l * nev, *nf = e->nest_free_max + (size_t)l * nev;
        int open = 0;
        for (size_t j = 0; j < nev; j++) {
            /* proven: no activation chain counted twice */
            lo[j] = x[j] > ie[j] ? x[j] : ie[j];
            if (nf[j] > lo[j]) lo[j] = nf[j];
            /* every activation counted at least once */
            hi[j] = add_sat(x[j], oi[j]);
            if (e->has_caller[l] && io[j] < hi[j]) hi[j] = io[j];
            if (region[j] < hi[j]) hi[j] = region[j];
            if (e->totals[j] < hi[j]) hi[j] = e->totals[j];
            if (hi[j] < lo[j]) hi[j] = lo[j];
            if (lo[j] < hi[j]) open = 1;
        }
        if (e->leveled && !e->level[v]) {
            /* a level-1 node: none of its calls nest, each sum is exact */
            for (size_t j = 0; j < nev; j++) {
                uint64_t own = add_sat(x[j], oi[j]);
                x[j] = lo[j] > io[j] ? lo[j] : io[j];
                if (own > x[j]) x[j] = own;
            }
            continue;
        }
        if (!open) {
            memcpy(x, lo, nev * sizeof *x);
            continue;
        }
        estimated[v] = 1;
        if (e->work > WORK_BUDGET) {
            for (size_t j = 0; j < nev; j++) x[j] = lo[j] + (hi[j] - lo[j]) / 2;
            continue;
        }
        under_target(e, mq, pos, l, under, order, seen);
        for (size_t j = 0; j < nev; j++) {
            double t = (double)ie[j];
            for (size_t a = e->arc_first[l]; a < e->arc_first[l + 1]; a++)
                t += (1.0 - under[pos[e->arcs[a].caller]]) * (double)e->arc_cost[a * nev + j];
            uint64_t est_j = t >= (double)hi[j] ? hi[j] : (uint64_t)llround(t);
            x[j] = est_j < lo[j] ? lo[j] : est_j > hi[j] ? hi[j] : est_j;
        }
    }
}

typedef struct cycle_key {
    uint64_t cost; /* inclusive, first event */
    uint32_t first_node, q; /* its first node; its SCC (e->cq numbering) */
} cycle_key;

static int cmp_cycle_key(const void *x, const void *y)
{
    const cycle_key *a = x, *b = y;
    if (a->cost != b->cost) return a->cost > b->cost ? -1 : 1;
    return (a->first_node > b->first_node) - (a->first_node < b->first_node);
}

/* The SCCs with cycles as units (indexed by e->cq). */
typedef struct units {
    uint64_t *region; /* nev each: the SCC's cost as a unit */
    uint64_t *self; /* nev each: its members' self costs added */
    uint64_t *calls; /* calls into it from outside */
    uint32_t *start; /* nq + 1: its members are by_comp[start[q] .. start[q + 1]) */
    uint32_t *by_comp;
} units;

static void units_free(units *u)
{
    tk_free(u->region);
    tk_free(u->self);
    tk_free(u->calls);
    tk_free(u->start);
    tk_free(u->by_comp);
}

/* Each SCC's cost as a unit: the calls into it from outside and its members'
 * own cost plus their calls out of it (equal in a whole profile; the larger,
 * as a bound, and no more than the total). Before the members' estimates. */
static tk_status units_build(const est *e, units *u)
{
    size_t nev = e->nev, k = e->k, nq = e->nq, ne = nev ? nev : 1;
    uint64_t *own = tk_calloc(nq * ne, sizeof *own);
    u->region = tk_calloc(nq * ne, sizeof *u->region);
    u->self = tk_calloc(nq * ne, sizeof *u->self);
    u->calls = tk_calloc(nq, sizeof *u->calls);
    u->start = tk_calloc(nq + 1, sizeof *u->start);
    u->by_comp = tk_malloc(k * sizeof *u->by_comp);
    if (!own || !u->region || !u->self || !u->calls || !u->start || !u->by_comp) {
        tk_free(own);
        return TK_ERR_NOMEM;
    }
    for (size_t l = 0; l < k; l++) {
        uint32_t v = e->node[l], q = e->cq[l];
        u->start[q + 1]++;
        for (size_t j = 0; j < nev; j++) {
            uint64_t x = e->incl[(size_t)v * e->stride + j];
            uint64_t *r = &u->region[q * ne + j], *o = &own[q * ne + j], *sf = &u->self[q * ne + j];
            *r = add_sat(*r, e->in_ext[(size_t)v * nev + j]);
            *o = add_sat(*o, x);
            *sf = add_sat(*sf, x - e->out_ext[l * nev + j]);
        }
    }
    for (size_t q = 0; q < nq; q++) {
        u->start[q + 1] += u->start[q];
        for (size_t j = 0; j < nev; j++) {
            uint64_t *r = &u->region[q * ne + j];
            if (own[q * ne + j] > *r) *r = own[q * ne + j];
            if (e->totals[j] < *r) *r = e->totals[j];
        }
    }
    tk_free(own);
    for (size_t l = 0; l < k; l++) u->by_comp[u->start[e->cq[l]]++] = (uint32_t)l;
    for (size_t q = nq; q > 0; q--) u->start[q] = u->start[q - 1];
    u->start[0] = 0;
    size_t row = 0;
    for (size_t i = 0; i < e->m->nparts; i++) {
        const tk_prof_call *rows = e->m->parts[i]->calls.rows;
        const uint64_t *values = e->m->parts[i]->calls.values;
        for (size_t r = 0; r < e->m->parts[i]->calls.count; r++, row++) {
            uint32_t a, b;
            nodes_of(e->m, rows, r, row, &a, &b);
            if (e->local[b] != UINT32_MAX && e->comp[a] != e->comp[b]) {
                uint32_t q = e->cq[e->local[b]];
                u->calls[q] = add_sat(u->calls[q], values[r * (nev + 1)]);
            }
        }
    }
    return TK_OK;
}

/* The cycles in order, heaviest first, and each node's cycle number. */
static tk_status make_cycles(const est *e, const units *u, cycle_key *keys, size_t ncycles,
                             uint32_t *cycle, tk_prof_cycle **out)
{
    size_t nev = e->nev, ne = nev ? nev : 1;
    qsort(keys, ncycles, sizeof *keys, cmp_cycle_key);
    tk_prof_cycle *cycles = tk_calloc(ncycles ? ncycles : 1, sizeof *cycles);
    if (!cycles) return TK_ERR_NOMEM;
    for (size_t c = 0; c < ncycles; c++) {
        uint32_t q = keys[c].q;
        tk_prof_cycle *cy = &cycles[c];
        cy->members = u->start[q + 1] - u->start[q];
        cy->calls = u->calls[q];
        cy->self = tk_malloc(ne * sizeof *cy->self);
        cy->inclusive = tk_malloc(ne * sizeof *cy->inclusive);
        if (!cy->self || !cy->inclusive) {
            tk_prof_cycles_free(cycles, ncycles);
            return TK_ERR_NOMEM;
        }
        memcpy(cy->self, u->self + q * ne, nev * sizeof *cy->self);
        memcpy(cy->inclusive, u->region + q * ne, nev * sizeof *cy->inclusive);
        for (uint32_t i = u->start[q]; i < u->start[q + 1]; i++)
            cycle[e->node[u->by_comp[i]]] = (uint32_t)c + 1;
    }
    *out = cycles;
    return TK_OK;
}

/* The estimate for every node in a cycle, and the cycles as units. */
static tk_status est_cycles(est *e, uint32_t *cycle, unsigned char *estimated,
                            tk_prof_cycle **cycles_out, size_t *ncycles_out)
{
    size_t k = e->k, nq = e->nq, ne = e->nev ? e->nev : 1, ncycles = 0;
    units u;
    memset(&u, 0, sizeof u);
    uint32_t *pos = tk_malloc(k * sizeof *pos), *order = tk_malloc(k * sizeof *order);
    double *under = tk_malloc(k * sizeof *under);
    unsigned char *seen = tk_malloc(k);
    cycle_key *keys = tk_malloc(nq * sizeof *keys);
    tk_status st = pos && order && under && seen && keys ? units_build(e, &u) : TK_ERR_NOMEM;
    for (size_t q = 0; q < nq && st == TK_OK; q++) {
        size_t mq = u.start[q + 1] - u.start[q];
        if (!mq) continue;
        est_component(e, u.by_comp + u.start[q], mq, u.region + q * ne, pos, under, order, seen,
                      estimated);
        keys[ncycles++] =
            (cycle_key){e->nev ? u.region[q * ne] : 0, e->node[u.by_comp[u.start[q]]], (uint32_t)q};
    }
    if (st == TK_OK) st = make_cycles(e, &u, keys, ncycles, cycle, cycles_out);
    *ncycles_out = st == TK_OK ? ncycles : 0;
    units_free(&u);
    tk_free(pos);
    tk_free(order);
    tk_free(under);
    tk_free(seen);
    tk_free(keys);
    return st;
}

tk_status tk_inclusive_estimate(const tk_call_nodes *m, size_t nev, const uint64_t *totals,
                                const unsigned char *level, uint64_t *incl, size_t stride,
                                uint32_t *cycle, unsigned char *estimated, tk_prof_cycle **cycles,
                                size_t *ncycles)
{
    *cycles = NULL;
    *ncycles = 0;
    est e;
    memset(&e, 0, sizeof e);
    e.m = m;
    e.n = m->n;
    e.nev = nev;
    e.stride = stride;
    e.incl = incl;
    e.totals = totals;
    e.level = level;
    if (e.n) {
        memset(cycle, 0, e.n * sizeof *cycle);
        memset(estimated, 0, e.n);
    }
    tk_status st = est_components(&e);
    if (st == TK_OK) st = est_between(&e);
    if (st == TK_OK) st = est_cycle_nodes(&e);
    /* nodes outside cycles: both sums count each activation once */
    for (size_t v = 0; v < e.n && st == TK_OK; v++) {
        if (in_cycle(&e, v)) continue;
        uint64_t *x = incl + v * stride;
        for (size_t j = 0; j < nev; j++)
            if (e.in_ext[v * nev + j] > x[j]) x[j] = e.in_ext[v * nev + j];
    }
    if (st == TK_OK && e.k) st = est_cycle_rows(&e);
    if (st == TK_OK && e.k) st = est_inner_arcs(&e);
    if (st == TK_OK && e.k) st = est_cycles(&e, cycle, estimated, cycles, ncycles);
    est_free(&e);
    return st;
}

void tk_prof_cycles_free(tk_prof_cycle *cycles, size_t n)
{
    if (!cycles) return;
    for (size_t i = 0; i < n; i++) {
        tk_free(cycles[i].self);
        tk_free(cycles[i].inclusive);
    }
    tk_free(cycles);
}
