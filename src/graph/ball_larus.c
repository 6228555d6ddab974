/* Ball–Larus numbering, path counting (checked 64-bit) and regeneration. */
#include "tracekit/ball_larus.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

/* Kinds of DAG edges. */
enum { DAG_REAL = 0, DAG_FROM_ENTRY = 1, DAG_TO_EXIT = 2 };

typedef struct dag_edge {
    uint32_t src, dst;
    uint32_t origin; /* index into the caller's edges */
    uint8_t kind;
    uint8_t known; /* weight is known (given, or rebuilt from a gap) */
    uint8_t guessed; /* TO_EXIT weight taken from a gap shared by several back edges */
    uint64_t weight;
} dag_edge;

/* Decode table: the out-edges of each node as contiguous intervals. */
typedef struct out_slot {
    uint64_t lo, hi; /* path numbers [lo, hi) go through this edge */
    uint32_t dst, origin;
    uint8_t kind, guessed;
} out_slot;

struct tk_bl {
    uint32_t n, entry, exit;
    out_slot *slots; /* ne, in out_list order */
    size_t slots_cap;
    dag_edge *e;
    size_t ne, ecap;
    size_t norig;
    uint32_t *exit_dummy; /* per original edge: its TO_EXIT dag edge, or NONE */
    size_t exit_dummy_cap;
    uint32_t *out_start; /* n + 1 */
    uint32_t *out_list; /* ne: dag edges grouped by source, sorted by weight */
    uint32_t *topo; /* n: topological order of the DAG */
    uint64_t *np; /* n: NumPaths */
    uint32_t *scratch; /* n */
    uint32_t *scratch2; /* n */
    size_t ncap;
    uint32_t ntopo;
    uint64_t total;
    int counted; /* np is valid */
};

static void report(tk_bl_issue_fn fn, void *ctx, tk_bl_issue_kind kind, tk_severity sev,
                   uint32_t node, uint32_t edge, uint32_t other, int64_t a, int64_t b)
{
    if (!fn) return;
    tk_bl_issue is = {kind, sev, node, edge, other, a, b};
    fn(ctx, &is);
}

tk_status tk_bl_open(tk_bl **out, tk_error *err)
{
    *out = tk_calloc(1, sizeof **out);
    return *out ? TK_OK : tk_error_set(err, TK_ERR_NOMEM, "out of memory");
}

void tk_bl_free(tk_bl *bl)
{
    if (!bl) return;
    tk_free(bl->e);
    tk_free(bl->slots);
    tk_free(bl->exit_dummy);
    tk_free(bl->out_start);
    tk_free(bl->out_list);
    tk_free(bl->topo);
    tk_free(bl->np);
    tk_free(bl->scratch);
    tk_free(bl->scratch2);
    tk_free(bl);
}

static int grow_nodes(tk_bl *bl, uint32_t n)
{
    if (n + (size_t)1 <= bl->ncap) return 0;
    size_t cap = bl->ncap ? bl->ncap : 16;
    while (cap < n + (size_t)1) cap *= 2;
    uint32_t *os = tk_reallocarray(bl->out_start, cap, sizeof *os);
    if (!os) return -1;
    bl->out_start = os;
    uint32_t *tp = tk_reallocarray(bl->topo, cap, sizeof *tp);
    if (!tp) return -1;
    bl->topo = tp;
    uint64_t *np = tk_reallocarray(bl->np, cap, sizeof *np);
    if (!np) return -1;
    bl->np = np;
    uint32_t *s = tk_reallocarray(bl->scratch, cap, sizeof *s);
    if (!s) return -1;
    bl->scratch = s;
    s = tk_reallocarray(bl->scratch2, cap, sizeof *s);
    if (!s) return -1;
    bl->scratch2 = s;
    bl->ncap = cap;
    return 0;
}

static int push_edge(tk_bl *bl, dag_edge de)
{
    if (bl->ne == bl->ecap) {
        size_t cap = bl->ecap ? bl->ecap * 2 : 32;
        dag_edge *e = tk_reallocarray(bl->e, cap, sizeof *e);
        if (!e) return -1;
        bl->e = e;
        bl->ecap = cap;
        uint32_t *ol = tk_reallocarray(bl->out_list, cap, sizeof *ol);
        if (!ol) return -1;
        bl->out_list = ol;
    }
    bl->e[bl->ne++] = de;
    return 0;
}

/* Build DAG edges from the caller's edges. ENTRY's hidden edges come after
 * every real edge so that fresh numbering puts them last at ENTRY. */
static tk_status build_dag(tk_bl *bl, uint32_t nnodes, uint32_t entry, uint32_t exit,
                           const tk_bl_edge *edges, size_t nedges)
{
    if (entry >= nnodes || exit >= nnodes || nedges >= UINT32_MAX / 2 || nnodes >= UINT32_MAX - 1)
        return TK_ERR_ARG;
    for (size_t i = 0; i < nedges; i++)
        if (edges[i].src >= nnodes || edges[i].dst >= nnodes) return TK_ERR_ARG;
    if (grow_nodes(bl, nnodes) != 0) return TK_ERR_NOMEM;
    if (bl->exit_dummy_cap < nedges + 1) {
        uint32_t *ed = tk_reallocarray(bl->exit_dummy, nedges + 1, sizeof *ed);
        if (!ed) return TK_ERR_NOMEM;
        bl->exit_dummy = ed;
        bl->exit_dummy_cap = nedges + 1;
    }
    bl->n = nnodes;
    bl->entry = entry;
    bl->exit = exit;
    bl->ne = 0;
    bl->norig = nedges;
    bl->total = 0;
    bl->counted = 0;
    for (size_t i = 0; i < nedges; i++) {
        const tk_bl_edge *ed = &edges[i];
        bl->exit_dummy[i] = TK_BL_NONE;
        if (!ed->back) {
            dag_edge de = {ed->src, ed->dst, (uint32_t)i, DAG_REAL, 1, 0, ed->weight};
            if (push_edge(bl, de) != 0) return TK_ERR_NOMEM;
        } else {
            bl->exit_dummy[i] = (uint32_t)bl->ne;
            dag_edge de = {ed->src, exit, (uint32_t)i, DAG_TO_EXIT, 0, 0, 0};
            if (push_edge(bl, de) != 0) return TK_ERR_NOMEM;
        }
    }
    for (size_t i = 0; i < nedges; i++) {
        if (!edges[i].back) continue;
        dag_edge de = {entry, edges[i].dst, (uint32_t)i, DAG_FROM_ENTRY, 1, 0, edges[i].weight};
        if (push_edge(bl, de) != 0) return TK_ERR_NOMEM;
    }
    /* group out-edges by source (stable: keeps edge order) */
    memset(bl->out_start, 0, (nnodes + (size_t)1) * sizeof *bl->out_start);
    for (size_t i = 0; i < bl->ne; i++) bl->out_start[bl->e[i].src + 1]++;
    for (uint32_t v = 0; v < nnodes; v++) bl->out_start[v + 1] += bl->out_start[v];
    memcpy(bl->scratch, bl->out_start, nnodes * sizeof *bl->scratch);
    for (size_t i = 0; i < bl->ne; i++) bl->out_list[bl->scratch[bl->e[i].src]++] = (uint32_t)i;
    return TK_OK;
}

/* Kahn's algorithm over the DAG. Returns 0 if acyclic. */
static int topo_sort(tk_bl *bl, tk_bl_issue_fn fn, void *ctx)
{
    uint32_t n = bl->n;
    uint32_t *indeg = bl->scratch;
    memset(indeg, 0, n * sizeof *indeg);
    for (size_t i = 0; i < bl->ne; i++) indeg[bl->e[i].dst]++;
    uint32_t head = 0, tail = 0;
    for (uint32_t v = 0; v < n; v++)
        if (indeg[v] == 0) bl->topo[tail++] = v;
    while (head < tail) {
        uint32_t v = bl->topo[head++];
        for (uint32_t k = bl->out_start[v]; k < bl->out_start[v + 1]; k++) {
            uint32_t t = bl->e[bl->out_list[k]].dst;
            if (--indeg[t] == 0) bl->topo[tail++] = t;
        }
    }
    bl->ntopo = tail;
    if (tail == n) return 0;
    /* Left over: nodes on a cycle and nodes downstream of one. Peel off,
     * backwards, every left-over node whose left-over successors are all
     * gone: what remains lies on a cycle (or between two). outdeg counts
     * left-over successors; a predecessor CSR walks edges backwards. */
    uint32_t *outdeg = bl->scratch2;
    uint32_t *pred_start = tk_calloc(n + (size_t)1, sizeof *pred_start);
    uint32_t *pred_list = tk_reallocarray(NULL, bl->ne ? bl->ne : 1, sizeof *pred_list);
    if (!pred_start || !pred_list) {
        tk_free(pred_start);
        tk_free(pred_list);
        for (uint32_t v = 0; v < n; v++)
            if (indeg[v] != 0)
                report(fn, ctx, TK_BL_ISSUE_CYCLE, TK_SEV_ERROR, v, TK_BL_NONE, TK_BL_NONE, 0, 0);
        return -1;
    }
    memset(outdeg, 0, n * sizeof *outdeg);
    for (size_t i = 0; i < bl->ne; i++) {
        pred_start[bl->e[i].dst + 1]++;
        if (indeg[bl->e[i].src] != 0 && indeg[bl->e[i].dst] != 0) outdeg[bl->e[i].src]++;
    }
    for (uint32_t v = 0; v < n; v++) pred_start[v + 1] += pred_start[v];
    uint32_t *pos = bl->topo; /* free until the graph is acyclic */
    memcpy(pos, pred_start, n * sizeof *pos);
    for (size_t i = 0; i < bl->ne; i++) pred_list[pos[bl->e[i].dst]++] = (uint32_t)i;
    uint32_t *queue = pos;
    head = tail = 0;
    for (uint32_t v = 0; v < n; v++)
        if (indeg[v] != 0 && outdeg[v] == 0) queue[tail++] = v;
    while (head < tail) {
        uint32_t v = queue[head++];
        indeg[v] = 0; /* peeled */
        for (uint32_t k = pred_start[v]; k < pred_start[v + 1]; k++) {
            uint32_t u = bl->e[pred_list[k]].src;
            if (indeg[u] != 0 && outdeg[u] > 0 && --outdeg[u] == 0) queue[tail++] = u;
        }
    }
    tk_free(pred_start);
    tk_free(pred_list);
    for (uint32_t v = 0; v < n; v++)
        if (indeg[v] != 0)
            report(fn, ctx, TK_BL_ISSUE_CYCLE, TK_SEV_ERROR, v, TK_BL_NONE, TK_BL_NONE, 0, 0);
    return -1;
}

/* NumPaths in reverse topological order, checked. 0 if fine, -1 on overflow. */
static int count_paths(tk_bl *bl, tk_bl_issue_fn fn, void *ctx, int *dead_ends)
{
    int overflow = 0;
    *dead_ends = 0;
    for (uint32_t i = bl->n; i-- > 0;) {
        uint32_t v = bl->topo[i];
        if (v == bl->exit) {
            bl->np[v] = 1;
            continue;
        }
        uint64_t sum = 0;
        int ovf = 0;
        for (uint32_t k = bl->out_start[v]; k < bl->out_start[v + 1]; k++) {
            uint64_t t = bl->np[bl->e[bl->out_list[k]].dst];
            if (__builtin_add_overflow(sum, t, &sum)) ovf = 1;
        }
        if (ovf) {
            if (!overflow)
                report(fn, ctx, TK_BL_ISSUE_OVERFLOW, TK_SEV_ERROR, v, TK_BL_NONE, TK_BL_NONE, 0,
                       0);
            overflow = 1;
            sum = UINT64_MAX;
        }
        bl->np[v] = sum;
        if (sum == 0 && bl->out_start[v] == bl->out_start[v + 1]) {
            report(fn, ctx, TK_BL_ISSUE_DEAD_END, TK_SEV_ERROR, v, TK_BL_NONE, TK_BL_NONE, 0, 0);
            (*dead_ends)++;
        }
    }
    return overflow ? -1 : 0;
}

/* Sort edge indices by weight (stable merge sort; tmp holds n entries). */
static void sort_by_weight(const dag_edge *e, uint32_t *list, uint32_t n, uint32_t *tmp)
{
    if (n < 2) return;
    if (n <= 16) {
        for (uint32_t i = 1; i < n; i++) {
            uint32_t x = list[i];
            uint32_t j = i;
            while (j > 0 && e[list[j - 1]].weight > e[x].weight) {
                list[j] = list[j - 1];
                j--;
            }
            list[j] = x;
        }
        return;
    }
    uint32_t h = n / 2;
    sort_by_weight(e, list, h, tmp);
    sort_by_weight(e, list + h, n - h, tmp);
    uint32_t i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = e[list[j]].weight < e[list[i]].weight ? list[j++] : list[i++];
    while (i < h) tmp[k++] = list[i++];
    while (j < n) tmp[k++] = list[j++];
    memcpy(list, tmp, n * sizeof *list);
}

/* Check the intervals of known out-edges, rebuild TO_EXIT weights from the
 * gaps, and leave out_list sorted by weight. Returns the number of errors. */
static size_t check_intervals(tk_bl *bl, tk_bl_issue_fn fn, void *ctx, uint32_t *tmp)
{
    size_t errors = 0;
    for (uint32_t v = 0; v < bl->n; v++) {
        uint32_t lo = bl->out_start[v], hi = bl->out_start[v + 1];
        if (lo == hi) continue;
        /* put known edges first, unknown (hidden exits) after, keeping order */
        uint32_t nk = 0;
        for (uint32_t k = lo; k < hi; k++)
            if (bl->e[bl->out_list[k]].known) tmp[nk++] = bl->out_list[k];
        uint32_t nu = nk;
        for (uint32_t k = lo; k < hi; k++)
            if (!bl->e[bl->out_list[k]].known) tmp[nu++] = bl->out_list[k];
        memcpy(bl->out_list + lo, tmp, (hi - lo) * sizeof *tmp);
        uint32_t *known = bl->out_list + lo;
        sort_by_weight(bl->e, known, nk, tmp);
        uint64_t npv = bl->np[v];
        uint64_t cursor = 0; /* first number not yet covered */
        uint32_t next_unknown = lo + nk;
        uint32_t unknown_left = hi - lo - nk;
        uint32_t prev = TK_BL_NONE;
        uint64_t prev_end = 0;
        for (uint32_t k = 0; k < nk; k++) {
            dag_edge *d = &bl->e[known[k]];
            uint64_t w = d->weight;
            uint64_t end;
            if (__builtin_add_overflow(w, bl->np[d->dst], &end) || end > npv) {
                report(fn, ctx, TK_BL_ISSUE_WEIGHT_RANGE, TK_SEV_ERROR, v, d->origin, TK_BL_NONE,
                       (int64_t)w, (int64_t)npv);
                errors++;
                continue;
            }
            if (prev != TK_BL_NONE && w < prev_end) {
                report(fn, ctx, TK_BL_ISSUE_WEIGHT_OVERLAP, TK_SEV_ERROR, v, d->origin,
                       bl->e[prev].origin, (int64_t)w, (int64_t)bl->e[prev].weight);
                errors++;
                continue;
            }
            /* the gap [cursor, w) holds hidden exit edges, one number each */
            while (cursor < w && unknown_left > 0) {
                dag_edge *u = &bl->e[bl->out_list[next_unknown++]];
                u->weight = cursor++;
                u->known = 1;
                unknown_left--;
            }
            cursor = end > cursor ? end : cursor;
            prev = known[k];
            prev_end = end;
        }
        while (unknown_left > 0 && cursor < npv) {
            dag_edge *u = &bl->e[bl->out_list[next_unknown++]];
            u->weight = cursor++;
            u->known = 1;
            unknown_left--;
        }
        /* several back edges leaving v: which gap is whose is not recorded */
        if (hi - lo - nk > 1)
            for (uint32_t k = lo + nk; k < hi; k++) bl->e[bl->out_list[k]].guessed = 1;
        /* with no collision the gaps are exactly as many as the hidden exits;
         * anything left means a collision was reported above */
        sort_by_weight(bl->e, bl->out_list + lo, hi - lo, tmp);
    }
    return errors;
}

/* Σinc − Σweight must be the same along every path into a node, and 0 at EXIT. */
static size_t check_increments(tk_bl *bl, const tk_bl_edge *edges, tk_bl_issue_fn fn, void *ctx)
{
    size_t errors = 0;
    uint32_t n = bl->n;
    /* potential per node; scratch2 marks which are set (1) and which had an error (2) */
    int64_t *phi = tk_calloc(n ? n : 1, sizeof *phi);
    if (!phi) return 0;
    uint32_t *state = bl->scratch2;
    memset(state, 0, n * sizeof *state);
    uint32_t *via = bl->scratch;
    state[bl->entry] = 1;
    via[bl->entry] = TK_BL_NONE;
    for (uint32_t i = 0; i < bl->ntopo; i++) {
        uint32_t v = bl->topo[i];
        if (state[v] != 1) continue;
        for (uint32_t k = bl->out_start[v]; k < bl->out_start[v + 1]; k++) {
            const dag_edge *d = &bl->e[bl->out_list[k]];
            if (d->kind == DAG_TO_EXIT) continue; /* hidden bottom increment: free */
            const tk_bl_edge *orig = &edges[d->origin];
            int64_t val;
            __int128 wide = (__int128)phi[v] + orig->inc - (__int128)d->weight;
            if (wide > INT64_MAX || wide < INT64_MIN) {
                report(fn, ctx, TK_BL_ISSUE_INC_MISMATCH, TK_SEV_ERROR, d->dst, d->origin,
                       TK_BL_NONE, INT64_MAX, 0);
                errors++;
                continue;
            }
            val = (int64_t)wide;
            if (state[d->dst] == 0) {
                state[d->dst] = 1;
                phi[d->dst] = val;
                via[d->dst] = d->origin;
            } else if (state[d->dst] == 1 && phi[d->dst] != val) {
                report(fn, ctx, TK_BL_ISSUE_INC_MISMATCH, TK_SEV_ERROR, d->dst, d->origin,
                       via[d->dst], val, phi[d->dst]);
                state[d->dst] = 2;
                errors++;
            }
            if (d->dst == bl->exit && val != 0 && state[d->dst] != 2) {
                report(fn, ctx, TK_BL_ISSUE_INC_EXIT, TK_SEV_ERROR, d->dst, d->origin, TK_BL_NONE,
                       val, 0);
                state[d->dst] = 2;
                errors++;
            }
        }
    }
    tk_free(phi);
    return errors;
}

/* Nodes not reachable from ENTRY over DAG edges. */
static void check_reachable(tk_bl *bl, tk_bl_issue_fn fn, void *ctx)
{
    uint32_t *seen = bl->scratch2;
    memset(seen, 0, bl->n * sizeof *seen);
    uint32_t *stack = bl->scratch;
    uint32_t sp = 0;
    stack[sp++] = bl->entry;
    seen[bl->entry] = 1;
    while (sp > 0) {
        uint32_t v = stack[--sp];
        for (uint32_t k = bl->out_start[v]; k < bl->out_start[v + 1]; k++) {
            uint32_t t = bl->e[bl->out_list[k]].dst;
            if (!seen[t]) {
                seen[t] = 1;
                stack[sp++] = t;
            }
        }
    }
    for (uint32_t v = 0; v < bl->n; v++)
        if (!seen[v])
            report(fn, ctx, TK_BL_ISSUE_UNREACHABLE, TK_SEV_WARNING, v, TK_BL_NONE, TK_BL_NONE, 0,
                   0);
}

/* Known out-edges as [lo, hi) slots in weight order (unknown ones left out). */
static int build_slots(tk_bl *bl)
{
    if (bl->slots_cap < bl->ne + 1) {
        out_slot *sl = tk_reallocarray(bl->slots, bl->ne + 1, sizeof *sl);
        if (!sl) return -1;
        bl->slots = sl;
        bl->slots_cap = bl->ne + 1;
    }
    for (size_t k = 0; k < bl->ne; k++) {
        const dag_edge *d = &bl->e[bl->out_list[k]];
        out_slot *o = &bl->slots[k];
        o->dst = d->dst;
        o->origin = d->origin;
        o->kind = d->kind;
        o->guessed = d->guessed;
        o->lo = d->weight;
        /* unknown or overflowing: an empty slot never matches */
        if (!d->known || __builtin_add_overflow(d->weight, bl->np[d->dst], &o->hi)) o->hi = o->lo;
    }
    return 0;
}

static tk_status load_built(tk_bl *bl, const tk_bl_edge *edges, tk_bl_issue_fn fn, void *ctx)
{
    size_t errors = 0;
    for (size_t i = 0; i < bl->ne; i++) {
        if (bl->e[i].src == bl->exit && bl->e[i].kind != DAG_FROM_ENTRY) {
            report(fn, ctx, TK_BL_ISSUE_EXIT_HAS_OUT, TK_SEV_ERROR, bl->exit, bl->e[i].origin,
                   TK_BL_NONE, 0, 0);
            errors++;
        }
    }
    if (topo_sort(bl, fn, ctx) != 0) return TK_ERR_CHECK;
    int dead = 0;
    if (count_paths(bl, fn, ctx, &dead) != 0) return TK_ERR_LIMIT;
    bl->counted = 1;
    bl->total = bl->np[bl->entry];
    check_reachable(bl, fn, ctx);
    uint32_t *tmp = tk_reallocarray(NULL, bl->ne ? bl->ne : 1, sizeof *tmp);
    if (!tmp) return TK_ERR_NOMEM;
    errors += check_intervals(bl, fn, ctx, tmp);
    tk_free(tmp);
    errors += check_increments(bl, edges, fn, ctx);
    errors += (size_t)dead;
    if (build_slots(bl) != 0) return TK_ERR_NOMEM;
    return errors ? TK_ERR_CHECK : TK_OK;
}

/* The status of a numbering step, with err filled for an error. */
static tk_status numbering_status(tk_status st, tk_error *err)
{
    switch (st) {
    case TK_OK: return st;
    case TK_ERR_CHECK:
        return tk_error_set(err, st, "the numbering has problems (passed to the issue callback)");
    case TK_ERR_LIMIT: return tk_error_set(err, st, "the number of paths is over 64 bits");
    case TK_ERR_ARG: return tk_error_set(err, st, "a node outside the graph");
    default: return tk_error_from(err, st, "Ball-Larus numbering");
    }
}

tk_status tk_bl_load(tk_bl *bl, uint32_t nnodes, uint32_t entry, uint32_t exit,
                     const tk_bl_edge *edges, size_t nedges, tk_bl_issue_fn fn, void *ctx,
                     tk_error *err)
{
    tk_status st = build_dag(bl, nnodes, entry, exit, edges, nedges);
    if (st != TK_OK) return numbering_status(st, err);
    return numbering_status(load_built(bl, edges, fn, ctx), err);
}

/* Iterative DFS marking back edges (edge to a node on the stack). */
static tk_status mark_back_edges(tk_bl *bl, uint32_t nnodes, uint32_t entry, tk_bl_edge *edges,
                                 size_t nedges)
{
    /* CSR of successors in edge order */
    uint32_t *start = tk_calloc(nnodes + (size_t)1, sizeof *start);
    uint32_t *list = tk_reallocarray(NULL, nedges ? nedges : 1, sizeof *list);
    uint8_t *color = tk_calloc(nnodes ? nnodes : 1, 1);
    uint32_t *stack = tk_reallocarray(NULL, nnodes ? nnodes : 1, sizeof *stack);
    uint32_t *pos = tk_reallocarray(NULL, nnodes ? nnodes : 1, sizeof *pos);
    tk_status st = TK_OK;
    if (!start || !list || !color || !stack || !pos) {
        st = TK_ERR_NOMEM;
        goto done;
    }
    (void)bl;
    for (size_t i = 0; i < nedges; i++) start[edges[i].src + 1]++;
    for (uint32_t v = 0; v < nnodes; v++) start[v + 1] += start[v];
    memcpy(pos, start, nnodes * sizeof *pos);
    for (size_t i = 0; i < nedges; i++) list[pos[edges[i].src]++] = (uint32_t)i;
    for (uint32_t root_i = 0; root_i <= nnodes; root_i++) {
        uint32_t root = root_i == 0 ? entry : root_i - 1;
        if (root >= nnodes || color[root]) continue;
        uint32_t sp = 0;
        stack[sp++] = root;
        pos[root] = start[root];
        color[root] = 1;
        while (sp > 0) {
            uint32_t v = stack[sp - 1];
            if (pos[v] == start[v + 1]) {
                color[v] = 2;
                sp--;
                continue;
            }
            tk_bl_edge *ed = &edges[list[pos[v]++]];
            ed->back = 0;
            if (color[ed->dst] == 1) {
                ed->back = 1;
            } else if (color[ed->dst] == 0) {
                color[ed->dst] = 1;
                pos[ed->dst] = start[ed->dst];
                stack[sp++] = ed->dst;
            }
        }
    }
done:
    tk_free(start);
    tk_free(list);
    tk_free(color);
    tk_free(stack);
    tk_free(pos);
    return st;
}

/* csi-cc's placement of increments (from LLVM's path profiler): with every
 * increment equal to its weight, "push initialisation" moves the increment
 * of each edge out of ENTRY down through every block that has a single
 * predecessor (a back edge counts twice: itself and its hidden ENTRY edge)
 * onto that block's edges, recursively, stopping at EXIT. */
static tk_status push_initialization(uint32_t n, uint32_t entry, uint32_t exit, tk_bl_edge *edges,
                                     size_t ne)
{
    uint32_t *preds = tk_calloc(n + (size_t)1, sizeof *preds);
    uint32_t *start = tk_calloc(n + (size_t)2, sizeof *start);
    uint32_t *list = tk_reallocarray(NULL, ne + 1, sizeof *list);
    uint32_t *work = tk_reallocarray(NULL, ne + 1, sizeof *work);
    uint32_t *fill = tk_reallocarray(NULL, n + (size_t)1, sizeof *fill);
    tk_status st = TK_OK;
    if (!preds || !start || !list || !work || !fill) {
        st = TK_ERR_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < ne; i++) {
        preds[edges[i].dst] += edges[i].back ? 2 : 1;
        if (!edges[i].back) start[edges[i].src + 1]++;
    }
    for (uint32_t v = 0; v < n; v++) start[v + 1] += start[v];
    memcpy(fill, start, n * sizeof *fill);
    for (size_t i = 0; i < ne; i++)
        if (!edges[i].back) list[fill[edges[i].src]++] = (uint32_t)i;
    size_t sp = 0;
    for (uint32_t k = start[entry]; k < start[entry + 1]; k++) work[sp++] = list[k];
    while (sp > 0) {
        tk_bl_edge *e = &edges[work[--sp]];
        uint32_t t = e->dst;
        if (preds[t] != 1 || t == exit) continue;
        for (uint32_t k = start[t]; k < start[t + 1]; k++) {
            if (__builtin_add_overflow(edges[list[k]].inc, e->inc, &edges[list[k]].inc)) {
                st = TK_ERR_LIMIT; /* not reached when the paths fit in int64 */
                goto done;
            }
            work[sp++] = list[k];
        }
        e->inc = 0;
    }
done:
    tk_free(preds);
    tk_free(start);
    tk_free(list);
    tk_free(work);
    tk_free(fill);
    return st;
}

static tk_status number_common(tk_bl *bl, uint32_t nnodes, uint32_t entry, uint32_t exit,
                               tk_bl_edge *edges, size_t nedges, tk_bl_issue_fn fn, void *ctx)
{
    tk_status st = build_dag(bl, nnodes, entry, exit, edges, nedges);
    if (st != TK_OK) return st;
    for (size_t i = 0; i < bl->ne; i++) bl->e[i].known = 0;
    if (topo_sort(bl, fn, ctx) != 0) return TK_ERR_CHECK;
    int dead = 0;
    if (count_paths(bl, fn, ctx, &dead) != 0) return TK_ERR_LIMIT;
    /* increments are signed 64-bit (csi-cc's long): more paths than
     * INT64_MAX cannot be instrumented (csi-cc stops at ULONG_MAX/2-1) */
    if (bl->np[entry] > (uint64_t)INT64_MAX) {
        report(fn, ctx, TK_BL_ISSUE_TOO_MANY, TK_SEV_ERROR, entry, TK_BL_NONE, TK_BL_NONE, 0, 0);
        bl->counted = 0;
        return TK_ERR_LIMIT;
    }
    /* Val(e_i) = sum of NumPaths of the targets of the earlier out-edges */
    for (uint32_t v = 0; v < nnodes; v++) {
        uint64_t val = 0;
        for (uint32_t k = bl->out_start[v]; k < bl->out_start[v + 1]; k++) {
            dag_edge *d = &bl->e[bl->out_list[k]];
            d->weight = val;
            d->known = 1;
            val += bl->np[d->dst]; /* cannot overflow: bounded by np[v] */
            if (d->kind == DAG_REAL) {
                edges[d->origin].weight = d->weight;
                edges[d->origin].inc = (int64_t)d->weight;
            } else if (d->kind == DAG_FROM_ENTRY) {
                edges[d->origin].weight = d->weight;
                edges[d->origin].inc = (int64_t)d->weight;
            }
        }
    }
    st = push_initialization(nnodes, entry, exit, edges, nedges);
    if (st != TK_OK) return st;
    /* reload as given weights: the hidden exits come back from the gaps, in
     * the same order, and everything is checked once more */
    st = build_dag(bl, nnodes, entry, exit, edges, nedges);
    if (st != TK_OK) return st;
    st = load_built(bl, edges, fn, ctx);
    if (st == TK_OK)
        for (size_t i = 0; i < bl->ne; i++)
            bl->e[i].guessed = bl->slots[i].guessed =
                0; /* fresh numbering: the gap order is ours */
    return st;
}

tk_status tk_bl_number(tk_bl *bl, uint32_t nnodes, uint32_t entry, uint32_t exit, tk_bl_edge *edges,
                       size_t nedges, tk_bl_issue_fn fn, void *ctx, tk_error *err)
{
    if (entry >= nnodes || exit >= nnodes) return numbering_status(TK_ERR_ARG, err);
    for (size_t i = 0; i < nedges; i++)
        if (edges[i].src >= nnodes || edges[i].dst >= nnodes)
            return numbering_status(TK_ERR_ARG, err);
    tk_status st = mark_back_edges(bl, nnodes, entry, edges, nedges);
    if (st != TK_OK) return numbering_status(st, err);
    return numbering_status(number_common(bl, nnodes, entry, exit, edges, nedges, fn, ctx), err);
}

tk_status tk_bl_number_keep_back(tk_bl *bl, uint32_t nnodes, uint32_t entry, uint32_t exit,
                                 tk_bl_edge *edges, size_t nedges, tk_bl_issue_fn fn, void *ctx,
                                 tk_error *err)
{
    return numbering_status(number_common(bl, nnodes, entry, exit, edges, nedges, fn, ctx), err);
}

uint64_t tk_bl_total(const tk_bl *bl) { return bl->counted ? bl->total : 0; }

uint64_t tk_bl_num_paths(const tk_bl *bl, uint32_t node)
{
    return bl->counted && node < bl->n ? bl->np[node] : 0;
}

tk_status tk_bl_exit_weight(const tk_bl *bl, size_t edge, uint64_t *weight, tk_error *err)
{
    if (edge >= bl->norig || bl->exit_dummy[edge] == TK_BL_NONE)
        return tk_error_set(err, TK_ERR_ARG, "edge %zu is not a back edge", edge);
    const dag_edge *d = &bl->e[bl->exit_dummy[edge]];
    if (!d->known)
        return tk_error_set(err, TK_ERR_ARG, "the exit weight of edge %zu is unknown", edge);
    *weight = d->weight;
    return TK_OK;
}

size_t tk_bl_max_nodes(const tk_bl *bl) { return (size_t)bl->n + 1; }

/* The slot of v whose interval holds r, or NULL. */
static const out_slot *find_slot(const tk_bl *bl, uint32_t v, uint64_t r)
{
    uint32_t lo = bl->out_start[v], hi = bl->out_start[v + 1];
    const out_slot *s = bl->slots;
    if (hi - lo > 8) {
        /* last slot starting at or before r */
        uint32_t a = lo, b = hi;
        while (b - a > 1) {
            uint32_t m = a + (b - a) / 2;
            if (s[m].lo <= r)
                a = m;
            else
                b = m;
        }
        /* equal starts (a broken numbering) may precede: scan back */
        lo = a;
        while (lo > bl->out_start[v] && s[lo - 1].lo == s[a].lo) lo--;
        hi = a + 1;
    }
    for (uint32_t k = lo; k < hi; k++)
        if (s[k].lo <= r && r < s[k].hi) return &s[k];
    return NULL;
}

static tk_status broken(tk_error *err, uint64_t id)
{
    return tk_error_set(err, TK_ERR_FORMAT,
                        "path %" PRIu64 " does not decode: the numbering is broken", id);
}

tk_status tk_bl_decode(const tk_bl *bl, uint64_t id, tk_bl_path *path, tk_error *err)
{
    path->len = 0;
    path->start_edge = TK_BL_NONE;
    path->end_edge = TK_BL_NONE;
    path->end_ambiguous = 0;
    if (!bl->counted || id >= bl->total)
        return tk_error_set(err, TK_ERR_ARG, "no path %" PRIu64 " (the graph has %" PRIu64 ")", id,
                            tk_bl_total(bl));
    uint64_t r = id;
    uint32_t v = bl->entry;
    uint32_t *nodes = path->nodes, *edges = path->edges;
    size_t len = 0;
    for (size_t steps = 0; steps <= bl->n; steps++) {
        if (v == bl->exit) {
            nodes[len++] = v;
            path->len = len;
            return r == 0 ? TK_OK : broken(err, id);
        }
        const out_slot *d = find_slot(bl, v, r);
        if (!d) {
            path->len = len;
            return broken(err, id);
        }
        r -= d->lo;
        if (d->kind == DAG_FROM_ENTRY && steps == 0) {
            path->start_edge = d->origin;
        } else {
            if (d->kind == DAG_TO_EXIT) {
                nodes[len++] = v;
                path->len = len;
                path->end_edge = d->origin;
                path->end_ambiguous = d->guessed;
                return r == 0 ? TK_OK : broken(err, id);
            }
            if (edges) edges[len] = d->origin;
            nodes[len++] = v;
        }
        v = d->dst;
    }
    path->len = len;
    return broken(err, id);
}
