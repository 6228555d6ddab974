/* DCFG -> profile model (written as callgrind): one event "Ir"; a function
 * per routine (object = image file, name = symbol[+offset] of the entry);
 * self cost of each block = COUNT x NUM_INSTRS at (first instruction
 * address, source line); one part per thread. The arcs between routines, with their counts
 * and inclusive costs (arc_sources): CALL edges; a jump into another routine's entry block (a
 * tail call, a PLT stub's jump to its function, ld.so's jump to the program's _start), an arc
 * from the jumping routine, as valgrind's callgrind books it; a jump into another block of
 * another routine, unless that routine enters the jumping one (a jump back); a return into a
 * routine other than that of its call (the call's CALL_BYPASS edge says where it resumes), an
 * arc from the calling routine. Each thread gets a root function "thread T" (T: the DCFG's
 * thread index, as DCFG-Trace's folded stacks name it) with no cost of its own that calls the
 * routines its ENTRY edges (from START) enter, and those that returns no call matches enter
 * (the thread began inside a call: SDE's DCFGs start in ld.so's _dl_start, which returns into
 * ld.so's _start): viewers start their call trees at functions nobody calls. So every routine
 * that ran is reachable from a root, as in the DCFG-Trace's exports (dt_stack.h), and with
 * the inclusive costs shared out by the arcs' counts (inclusive()), the roots hold the
 * threads' totals. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "graph/scc.h"
#include "model/cfg_internal.h"
#include "model/profile.h"
#include "tracekit/callgrind.h"
#include "tracekit/dcfg.h"
#include "tracekit/profile.h"

typedef struct conv {
    const tk_cfg *cfg;
    const tk_cfg_process *p;
    tk_profile *prof;
    uint32_t *fn; /* per routine: profile function id */
    uint32_t *file; /* per block: string id of its source file (or routine file) */
    uint32_t *line; /* per block: source line (0 unknown) */
    double *incl; /* per routine: inclusive Ir per entry from outside its recursion */
    double *incl_in; /* per routine: inclusive Ir per entry from inside it (inclusive()) */
    uint32_t *comp; /* per routine: its strongly connected component of the call graph */
    uint32_t *arc_src; /* per edge: the block of the caller's routine where the edge is an
                            arc (its source, or a return's call), ARC_ROOT, or TK_CFG_NONE */
    uint32_t *resumes; /* per block: the call block whose bypass edge ends there, or NONE */
    uint64_t *root_cnt; /* per ARC_ROOT edge: its calls of the root (root_counts) */
} conv;

static tk_status intern(conv *c, const char *s, uint32_t *id)
{
    return tk_profile_intern(c->prof, s, strlen(s), id, NULL);
}

static tk_status make_functions(conv *c)
{
    const tk_cfg_process *p = c->p;
    for (uint32_t r = 0; r < p->nroutines; r++) {
        const tk_cfg_routine *ro = &p->routines[r];
        c->fn[r] = TK_PROF_NONE;
        if (ro->entry == TK_CFG_NONE) continue;
        char name[512];
        uint64_t off = 0;
        const char *sym = tk_cfg_block_symbol(c->cfg, p, ro->entry, &off);
        if (sym && off)
            snprintf(name, sizeof name, "%s+0x%" PRIx64, sym, off);
        else if (sym)
            snprintf(name, sizeof name, "%s", sym);
        else
            snprintf(name, sizeof name, "routine_%" PRIu32, p->blocks[ro->entry].id);
        const char *obj = tk_cfg_file_name(c->cfg, p->images[ro->image].file_name_id);
        uint32_t name_id, obj_id;
        tk_status st;
        if ((st = intern(c, name, &name_id)) != TK_OK) return st;
        if ((st = intern(c, obj ? obj : "???", &obj_id)) != TK_OK) return st;
        if ((st = tk_profile_function(c->prof, obj_id, c->file[ro->entry], name_id, &c->fn[r],
                                      NULL)) != TK_OK)
            return st;
    }
    return TK_OK;
}

static tk_status block_sources(conv *c)
{
    const tk_cfg_process *p = c->p;
    uint32_t unknown;
    tk_status st = intern(c, "???", &unknown);
    if (st != TK_OK) return st;
    uint32_t *all = tk_malloc(sizeof *all * (p->nblocks ? p->nblocks : 1));
    const char **files = tk_malloc(sizeof *files * (p->nblocks ? p->nblocks : 1));
    if (!all || !files) st = TK_ERR_NOMEM;
    for (uint32_t b = 0; st == TK_OK && b < p->nblocks; b++) all[b] = b;
    if (st == TK_OK &&
        tk_cfg_blocks_source(c->cfg, p, all, p->nblocks, c->line, files, NULL) != TK_OK)
        st = TK_ERR_NOMEM;
    for (uint32_t b = 0; st == TK_OK && b < p->nblocks; b++) {
        c->file[b] = unknown;
        if (files[b]) st = intern(c, files[b], &c->file[b]);
    }
    tk_free(all);
    tk_free(files);
    return st;
}

static uint64_t edge_count(const conv *c, const tk_cfg_edge *ed, uint32_t thread, int all_threads)
{
    return all_threads ? cfg_edge_count(c->p, ed) : cfg_edge_count_thread(c->p, ed, thread);
}

/* arc_src of an edge that is a call of the thread's root: a return into a routine no arc
 * enters (its caller's frame was the thread's outermost: SDE's DCFGs start in _dl_start,
 * which returns into ld.so's _start) */
#define ARC_ROOT (TK_CFG_NONE - 1)

/* The routine that edge e enters as a call of the thread's root (an edge from START, a
 * thread's ENTRY, or an ARC_ROOT), else NONE. */
static uint32_t entered_routine(const conv *c, uint32_t e)
{
    const tk_cfg_process *p = c->p;
    const tk_cfg_edge *ed = &p->edges[e];
    if (ed->tgt >= p->nblocks) return TK_CFG_NONE;
    if (c->arc_src[e] == ARC_ROOT ||
        (ed->src >= p->nblocks && tk_cfg_node_special(c->cfg, p, ed->src) == TK_SPECIAL_START))
        return p->blocks[ed->tgt].routine;
    return TK_CFG_NONE;
}

/* The block where edge e is an arc from another routine (arc_sources), else NONE. */
static uint32_t arc_from(const conv *c, uint32_t e)
{
    return c->arc_src[e] == ARC_ROOT ? TK_CFG_NONE : c->arc_src[e];
}

/* c->root_cnt of the ARC_ROOT edges for a thread (or all): the returns into a call's
 * return site beyond the calls made there (its frame was not open: the thread began inside
 * the function it returns from), each edge taking its share of them in turn. */
static tk_status root_counts(conv *c, uint32_t thread, int all_threads)
{
    const tk_cfg_process *p = c->p;
    uint64_t *rets = tk_calloc(p->nblocks ? p->nblocks : 1, sizeof *rets);
    uint64_t *calls = tk_calloc(p->nblocks ? p->nblocks : 1, sizeof *calls);
    if (!rets || !calls) {
        tk_free(rets);
        tk_free(calls);
        return TK_ERR_NOMEM;
    }
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        uint64_t n = edge_count(c, ed, thread, all_threads);
        if (c->arc_src[e] == ARC_ROOT)
            rets[ed->tgt] += n;
        else if (ed->src < p->nblocks &&
                 tk_edge_kind_is_any_call(tk_cfg_stored_edge_kind(c->cfg, ed)))
            calls[ed->src] += n;
    }
    for (uint32_t b = 0; b < p->nblocks; b++) {
        uint32_t call = c->resumes[b];
        if (call != TK_CFG_NONE) rets[b] = rets[b] > calls[call] ? rets[b] - calls[call] : 0;
    }
    for (uint32_t e = 0; e < p->nedges; e++) {
        if (c->arc_src[e] != ARC_ROOT) continue;
        uint32_t x = p->edges[e].tgt;
        uint64_t n = edge_count(c, &p->edges[e], thread, all_threads);
        c->root_cnt[e] = n < rets[x] ? n : rets[x];
        rets[x] -= c->root_cnt[e];
    }
    tk_free(rets);
    tk_free(calls);
    return TK_OK;
}

/* The calls of the thread's root that edge e makes (entered_routine), in the part filled. */
static uint64_t root_calls(const conv *c, uint32_t e, uint32_t thread, int all_threads)
{
    if (c->arc_src[e] == ARC_ROOT) return c->root_cnt[e];
    return edge_count(c, &c->p->edges[e], thread, all_threads);
}

/* The arc of edge ed, an edge between blocks of two routines, but for a jump into a block
 * other than its routine's entry (second_arc): the block of the caller's routine, ARC_ROOT
 * for a return to a call's own routine (a call of the root where no call matches it:
 * root_counts), or NONE. */
static uint32_t first_arc(const conv *c, const tk_cfg_edge *ed)
{
    const tk_cfg_process *p = c->p;
    uint32_t a = p->blocks[ed->src].routine, r = p->blocks[ed->tgt].routine;
    tk_edge_kind k = tk_cfg_stored_edge_kind(c->cfg, ed);
    if (tk_edge_kind_is_any_call(k)) return ed->src;
    if (a == r || tk_edge_kind_is_any_bypass(k)) return TK_CFG_NONE;
    if (tk_edge_kind_is_any_return(k)) {
        uint32_t call = c->resumes[ed->tgt];
        if (call == TK_CFG_NONE || p->blocks[call].routine >= p->nroutines) return TK_CFG_NONE;
        return p->blocks[call].routine != r ? call : ARC_ROOT;
    }
    return ed->tgt == p->routines[r].entry ? ed->src : TK_CFG_NONE;
}

/* Whether ed jumps into a block of another routine that is not its entry. */
static int mid_jump(const conv *c, const tk_cfg_edge *ed)
{
    const tk_cfg_process *p = c->p;
    uint32_t a = p->blocks[ed->src].routine, r = p->blocks[ed->tgt].routine;
    tk_edge_kind k = tk_cfg_stored_edge_kind(c->cfg, ed);
    return a != r && ed->tgt != p->routines[r].entry && !tk_edge_kind_is_any_call(k) &&
           !tk_edge_kind_is_any_return(k) && !tk_edge_kind_is_any_bypass(k);
}

/* c->resumes and c->arc_src of every edge (the header says which edges are arcs): first the
 * calls, the jumps into routine entries and the returns (first_arc); then a jump into another
 * routine's block that is not its entry is an arc unless that routine enters the jumping one
 * (a jump back: main.cold to main), so that PLT stubs' jumps to the PLT's first entry, inside
 * the routine of the first stub, enter it. */
static tk_status arc_sources(conv *c)
{
    const tk_cfg_process *p = c->p;
    tk_hmap entering = TK_HMAP_INIT; /* (caller routine << 32 | callee routine) of the arcs */
    for (uint32_t b = 0; b < p->nblocks; b++) c->resumes[b] = TK_CFG_NONE;
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        if (ed->src < p->nblocks && ed->tgt < p->nblocks &&
            tk_edge_kind_is_any_bypass(tk_cfg_stored_edge_kind(c->cfg, ed)))
            c->resumes[ed->tgt] = ed->src;
    }
    tk_status st = TK_OK;
    for (int pass = 0; pass < 2 && st == TK_OK; pass++) {
        for (uint32_t e = 0; e < p->nedges && st == TK_OK; e++) {
            const tk_cfg_edge *ed = &p->edges[e];
            if (pass == 0) c->arc_src[e] = TK_CFG_NONE;
            if (ed->src >= p->nblocks || ed->tgt >= p->nblocks) continue;
            uint64_t a = p->blocks[ed->src].routine, r = p->blocks[ed->tgt].routine;
            if (a >= p->nroutines || r >= p->nroutines) continue;
            uint64_t v;
            if (pass == 0) {
                c->arc_src[e] = first_arc(c, ed);
                if (c->arc_src[e] < p->nblocks &&
                    tk_hmap_put(&entering, (uint64_t)p->blocks[c->arc_src[e]].routine << 32 | r,
                                1) < 0)
                    st = TK_ERR_NOMEM;
            } else if (mid_jump(c, ed) && !tk_hmap_get(&entering, r << 32 | a, &v)) {
                c->arc_src[e] = ed->src;
            }
        }
    }
    tk_hmap_free(&entering);
    return st;
}

/* What inclusive() works with: per routine its self cost and its entries (the arcs into it
 * from other routines and the root's calls); the arcs between routines grouped by caller (the
 * arcs of caller r: arcs[first[r] .. first[r + 1]], edge indexes, and their callees to[]), the
 * call graph's strongly connected components (comp, numbered callees first), their members in
 * that order. */
typedef struct incl_work {
    double *self, *entries, *local, *total, *ext;
    uint32_t *first, *arcs, *to, *comp, *members, *comp_first;
    uint32_t ncomp;
} incl_work;

static void incl_work_free(incl_work *w)
{
    tk_free(w->self);
    tk_free(w->entries);
    tk_free(w->local);
    tk_free(w->total);
    tk_free(w->ext);
    tk_free(w->first);
    tk_free(w->arcs);
    tk_free(w->to);
    tk_free(w->comp);
    tk_free(w->members);
    tk_free(w->comp_first);
}

/* The caller of arc edge e between two routines, else NONE (not an arc, or a call of itself). */
static uint32_t arc_caller(const conv *c, uint32_t e)
{
    uint32_t from = arc_from(c, e);
    if (from == TK_CFG_NONE) return TK_CFG_NONE;
    uint32_t a = c->p->blocks[from].routine;
    return a == c->p->blocks[c->p->edges[e].tgt].routine ? TK_CFG_NONE : a;
}

static tk_status incl_work_fill(const conv *c, incl_work *w, uint32_t thread, int all_threads)
{
    const tk_cfg_process *p = c->p;
    size_t n = p->nroutines ? p->nroutines : 1, ne = p->nedges ? p->nedges : 1;
    memset(w, 0, sizeof *w);
    w->self = tk_calloc(n, sizeof *w->self);
    w->entries = tk_calloc(n, sizeof *w->entries);
    w->local = tk_calloc(n, sizeof *w->local);
    w->first = tk_calloc(n + 1, sizeof *w->first);
    w->arcs = tk_malloc(ne * sizeof *w->arcs);
    w->to = tk_malloc(ne * sizeof *w->to);
    w->comp = tk_malloc(n * sizeof *w->comp);
    if (!w->self || !w->entries || !w->local || !w->first || !w->arcs || !w->to || !w->comp)
        return TK_ERR_NOMEM;
    for (uint32_t b = 0; b < p->nblocks; b++) {
        uint32_t r = p->blocks[b].routine;
        uint64_t cnt = all_threads ? p->blocks[b].count : tk_cfg_block_count_thread(p, b, thread);
        if (r != TK_CFG_NONE) w->self[r] += (double)cnt * p->blocks[b].num_instrs;
    }
    for (uint32_t e = 0; e < p->nedges; e++) {
        uint32_t r = entered_routine(c, e), a = arc_caller(c, e);
        if (r != TK_CFG_NONE) w->entries[r] += (double)root_calls(c, e, thread, all_threads);
        uint64_t cnt = a != TK_CFG_NONE ? edge_count(c, &p->edges[e], thread, all_threads) : 0;
        if (!cnt) continue; /* (an arc of another thread makes no recursion of this one) */
        w->first[a + 1]++;
        w->entries[p->blocks[p->edges[e].tgt].routine] += (double)cnt;
    }
    for (uint32_t r = 0; r < p->nroutines; r++) w->first[r + 1] += w->first[r];
    uint32_t *at = w->comp; /* the next slot of each caller, borrowed until tk_scc */
    memcpy(at, w->first, p->nroutines * sizeof *at);
    for (uint32_t e = 0; e < p->nedges; e++) {
        uint32_t a = arc_caller(c, e);
        if (a == TK_CFG_NONE || !edge_count(c, &p->edges[e], thread, all_threads)) continue;
        w->to[at[a]] = p->blocks[p->edges[e].tgt].routine;
        w->arcs[at[a]++] = e;
    }
    if (tk_scc(p->nroutines, w->first, w->to, w->comp) != TK_OK) return TK_ERR_NOMEM;
    for (uint32_t r = 0; r < p->nroutines; r++)
        if (w->comp[r] + 1 > w->ncomp) w->ncomp = w->comp[r] + 1;
    size_t nc = w->ncomp ? w->ncomp : 1;
    w->total = tk_calloc(nc, sizeof *w->total);
    w->ext = tk_calloc(nc, sizeof *w->ext);
    w->comp_first = tk_calloc(nc + 1, sizeof *w->comp_first);
    w->members = tk_malloc(n * sizeof *w->members);
    if (!w->total || !w->ext || !w->comp_first || !w->members) return TK_ERR_NOMEM;
    for (uint32_t r = 0; r < p->nroutines; r++) w->comp_first[w->comp[r] + 1]++;
    for (uint32_t k = 0; k < w->ncomp; k++) w->comp_first[k + 1] += w->comp_first[k];
    uint32_t *cursor = tk_malloc(nc * sizeof *cursor);
    if (!cursor) return TK_ERR_NOMEM;
    memcpy(cursor, w->comp_first, w->ncomp * sizeof *cursor);
    for (uint32_t r = 0; r < p->nroutines; r++) w->members[cursor[w->comp[r]]++] = r;
    tk_free(cursor);
    return TK_OK;
}

/* Inclusive Ir per entry of each routine, callees before callers, a strongly connected
 * component of the call graph (a recursion: is_expr, is_term, is_factor) as one: its total is
 * its members' self costs and the shares of the calls out of it, shared out by the entries
 * from outside it (c->incl: the value per entry of an arc from outside, of the root's calls
 * and of a call of itself), so that the cost of a recursion reaches its callers (with Kahn's
 * order alone, every routine above a recursion kept its self cost only: the threads' roots of
 * a DCFG of a program with a recursive parser showed 7 instructions of 243,496). An arc
 * between two members costs the callee's self cost and calls out of the component per entry
 * (c->incl_in). A routine's entries are the arcs written into it, so that the inclusive costs
 * of the arcs into a routine add up to its own (speedscope builds its call tree from them). */
static tk_status inclusive(conv *c, uint32_t thread, int all_threads)
{
    const tk_cfg_process *p = c->p;
    incl_work w;
    tk_status st = incl_work_fill(c, &w, thread, all_threads);
    for (uint32_t k = 0; k < w.ncomp && st == TK_OK; k++) {
        for (uint32_t i = w.comp_first[k]; i < w.comp_first[k + 1]; i++) {
            uint32_t m = w.members[i];
            w.local[m] = w.self[m];
            w.ext[k] += w.entries[m];
            for (uint32_t q = w.first[m]; q < w.first[m + 1]; q++) {
                double cnt = (double)edge_count(c, &p->edges[w.arcs[q]], thread, all_threads);
                if (w.comp[w.to[q]] == k)
                    w.ext[k] -= cnt; /* an entry from inside */
                else
                    w.local[m] += c->incl[w.to[q]] * cnt;
            }
            w.total[k] += w.local[m];
        }
        double per_entry = w.ext[k] > 0 ? w.total[k] / w.ext[k] : 0;
        for (uint32_t i = w.comp_first[k]; i < w.comp_first[k + 1]; i++) {
            uint32_t m = w.members[i];
            c->incl[m] = per_entry;
            c->incl_in[m] = w.entries[m] > 0 ? w.local[m] / w.entries[m] : 0;
            c->comp[m] = k;
        }
    }
    incl_work_free(&w);
    return st;
}

/* The call of thread's root ("thread T") to the routine of each ENTRY edge's target, with the
 * edge's count and the routine's inclusive cost per entry (at most total). */
static tk_status add_roots(conv *c, tk_prof_part *part, uint32_t thread, int all_threads,
                           uint64_t total)
{
    const tk_cfg_process *p = c->p;
    uint32_t root = TK_PROF_NONE;
    tk_status st = TK_OK;
    for (uint32_t e = 0; e < p->nedges && st == TK_OK; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        uint32_t r = entered_routine(c, e);
        uint64_t cnt = r != TK_CFG_NONE ? root_calls(c, e, thread, all_threads) : 0;
        if (r == TK_CFG_NONE || c->fn[r] == TK_PROF_NONE || !cnt) continue;
        tk_prof_call key;
        memset(&key, 0, sizeof key);
        if (root == TK_PROF_NONE) {
            char name[32];
            uint32_t name_id, unknown;
            snprintf(name, sizeof name, "thread %" PRIu32, thread);
            if ((st = intern(c, name, &name_id)) != TK_OK ||
                (st = intern(c, "???", &unknown)) != TK_OK)
                return st;
            const tk_prof_function *f = tk_profile_function_at(c->prof, c->fn[r]);
            if ((st = tk_profile_function(c->prof, f->object, unknown, name_id, &root, NULL)) !=
                TK_OK)
                return st;
        }
        key.fn = root;
        key.file = tk_profile_function_at(c->prof, root)->file;
        key.callee = c->fn[r];
        key.target.addr = tk_cfg_stored_block_addr(p, &p->blocks[ed->tgt]);
        key.target.line = c->line[ed->tgt];
        double share = c->incl[r] * (double)cnt + 0.5;
        uint64_t incl = share < 18446744073709551616.0 ? (uint64_t)share : UINT64_MAX;
        st = tk_profile_add_call(c->prof, part, &key, cnt, incl > total ? &total : &incl, NULL);
    }
    return st;
}

static tk_status fill_part(conv *c, tk_prof_part *part, uint32_t thread, int all_threads)
{
    const tk_cfg_process *p = c->p;
    tk_status st;
    for (uint32_t b = 0; b < p->nblocks; b++) {
        const tk_cfg_block *bl = &p->blocks[b];
        if (bl->routine == TK_CFG_NONE || c->fn[bl->routine] == TK_PROF_NONE) continue;
        uint64_t cnt = all_threads ? bl->count : tk_cfg_block_count_thread(p, b, thread);
        if (!cnt) continue;
        tk_prof_self key;
        memset(&key, 0, sizeof key);
        key.fn = c->fn[bl->routine];
        key.file = c->file[b];
        key.pos.addr = tk_cfg_stored_block_addr(p, bl);
        key.pos.line = c->line[b];
        uint64_t cost = cnt * bl->num_instrs;
        if ((st = tk_profile_add_self(c->prof, part, &key, &cost, NULL)) != TK_OK) return st;
    }
    uint64_t total;
    if ((st = tk_profile_part_sum(c->prof, part, &total, NULL)) != TK_OK) return st;
    if ((st = root_counts(c, thread, all_threads)) != TK_OK) return st;
    if ((st = inclusive(c, thread, all_threads)) != TK_OK) return st;
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        uint32_t from = arc_from(c, e);
        if (from == TK_CFG_NONE) continue;
        uint64_t cnt = edge_count(c, ed, thread, all_threads);
        if (!cnt) continue;
        const tk_cfg_block *s = &p->blocks[from], *t = &p->blocks[ed->tgt];
        if (c->fn[s->routine] == TK_PROF_NONE || c->fn[t->routine] == TK_PROF_NONE) continue;
        tk_prof_call key;
        memset(&key, 0, sizeof key);
        key.fn = c->fn[s->routine];
        key.file = c->file[from];
        key.pos.addr = tk_cfg_stored_block_last_instr_addr(p, s);
        key.pos.line = c->line[from];
        key.callee = c->fn[t->routine];
        key.target.addr = tk_cfg_stored_block_addr(p, t);
        key.target.line = c->line[ed->tgt];
        /* an estimate (shared out by call counts) that cannot exceed the part's
         * total, which is exact: counts inconsistent with the entries' (a
         * `check` error) could make it larger, and a double at or above 2^64
         * has no uint64_t */
        double per_entry = c->comp[s->routine] == c->comp[t->routine] && s->routine != t->routine
                               ? c->incl_in[t->routine]
                               : c->incl[t->routine];
        double share = per_entry * (double)cnt + 0.5;
        uint64_t incl = share < 18446744073709551616.0 ? (uint64_t)share : UINT64_MAX;
        if (incl > total) incl = total;
        if ((st = tk_profile_add_call(c->prof, part, &key, cnt, &incl, NULL)) != TK_OK) return st;
    }
    if ((st = add_roots(c, part, thread, all_threads, total)) != TK_OK) return st;
    return tk_profile_part_fill_totals(c->prof, part, NULL);
}

tk_status tk_dcfg_to_profile(const tk_cfg *cfg, tk_profile **out, tk_error *err)
{
    *out = NULL;
    tk_profile *prof;
    tk_status st = tk_profile_open(&prof, NULL);
    if (st != TK_OK) return tk_error_set(err, st, "out of memory");
    size_t ev;
    if ((st = tk_profile_add_event(prof, "Ir", 2, &ev, err)) != TK_OK) {
        tk_profile_free(prof);
        return st;
    }
    for (uint32_t i = 0; i < cfg->nprocesses && st == TK_OK; i++) {
        const tk_cfg_process *p = &cfg->processes[i];
        conv c = {cfg, p, prof, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
        c.fn = tk_malloc(sizeof *c.fn * (p->nroutines ? p->nroutines : 1));
        c.file = tk_malloc(sizeof *c.file * (p->nblocks ? p->nblocks : 1));
        c.line = tk_malloc(sizeof *c.line * (p->nblocks ? p->nblocks : 1));
        c.incl = tk_malloc(sizeof *c.incl * (p->nroutines ? p->nroutines : 1));
        c.incl_in = tk_malloc(sizeof *c.incl_in * (p->nroutines ? p->nroutines : 1));
        c.comp = tk_malloc(sizeof *c.comp * (p->nroutines ? p->nroutines : 1));
        c.arc_src = tk_malloc(sizeof *c.arc_src * (p->nedges ? p->nedges : 1));
        c.resumes = tk_malloc(sizeof *c.resumes * (p->nblocks ? p->nblocks : 1));
        c.root_cnt = tk_calloc(p->nedges ? p->nedges : 1, sizeof *c.root_cnt);
        st = c.fn && c.file && c.line && c.incl && c.incl_in && c.comp && c.arc_src && c.resumes &&
                     c.root_cnt && tk_cfg_need_adjacency(p, err) == TK_OK
                 ? TK_OK
                 : TK_ERR_NOMEM;
        if (st == TK_OK) st = arc_sources(&c);
        if (st == TK_OK) st = block_sources(&c);
        if (st == TK_OK) st = make_functions(&c);
        /* one part per thread (all threads together when there is one) */
        uint32_t nparts = p->nthreads > 1 ? p->nthreads : 1;
        for (uint32_t t = 0; t < nparts && st == TK_OK; t++) {
            tk_prof_part *part;
            if ((st = tk_profile_add_part(prof, &part, err)) != TK_OK) break;
            part->has_pid = 1;
            part->pid = p->pid;
            part->has_thread = 1;
            part->thread = t + 1;
            part->positions = TK_POS_INSTR | TK_POS_LINE;
            const char *cmd = p->nimages ? tk_cfg_file_name(cfg, p->images[0].file_name_id) : NULL;
            if (cmd &&
                (st = tk_profile_part_set_string(&part->cmd, cmd, strlen(cmd), err)) != TK_OK)
                break;
            const char *creator = "tracekit convert --to callgrind (from an Intel DCFG)";
            if ((st = tk_profile_part_set_string(&part->creator, creator, strlen(creator), err)) !=
                TK_OK)
                break;
            st = fill_part(&c, part, t, p->nthreads <= 1);
        }
        tk_free(c.fn);
        tk_free(c.file);
        tk_free(c.line);
        tk_free(c.incl);
        tk_free(c.incl_in);
        tk_free(c.comp);
        tk_free(c.arc_src);
        tk_free(c.resumes);
        tk_free(c.root_cnt);
    }
    if (st != TK_OK) {
        tk_profile_free(prof);
        if (st == TK_ERR_NOMEM) return tk_error_set(err, st, "out of memory");
        return tk_error_set(err, st, "cannot build the profile: %s", tk_status_name(st));
    }
    *out = prof;
    return TK_OK;
}
