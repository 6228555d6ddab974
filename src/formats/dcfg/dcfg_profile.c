/* DCFG -> profile model (written as callgrind): one event "Ir"; a function
 * per routine (object = image file, name = symbol[+offset] of the entry);
 * self cost of each block = COUNT x NUM_INSTRS at (first instruction
 * address, source line); CALL edges become calls with their counts and
 * inclusive costs; one part per thread. Each thread gets a root function "thread T" (T: the
 * DCFG's thread index, as DCFG-Trace's folded stacks name it) with no cost of its own that
 * calls the routines its ENTRY edges (from START) enter: viewers start their call trees at
 * functions nobody calls, and a thread's first routine often has callers elsewhere. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "tracekit/callgrind.h"
#include "tracekit/dcfg.h"
#include "tracekit/profile.h"

typedef struct conv {
    const tk_cfg *cfg;
    const tk_cfg_process *p;
    tk_profile *prof;
    uint32_t *fn;        /* per routine: profile function id */
    uint32_t *file;      /* per block: string id of its source file (or routine file) */
    uint32_t *line;      /* per block: source line (0 unknown) */
    double *incl;        /* per routine: inclusive Ir per entry */
} conv;

static tk_status intern(conv *c, const char *s, uint32_t *id)
{
    return tk_profile_intern(c->prof, s, strlen(s), id);
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
        if (sym && off) snprintf(name, sizeof name, "%s+0x%" PRIx64, sym, off);
        else if (sym) snprintf(name, sizeof name, "%s", sym);
        else snprintf(name, sizeof name, "routine_%" PRIu32, p->blocks[ro->entry].id);
        const char *obj = tk_cfg_file_name(c->cfg, p->images[ro->image].file_name_id);
        uint32_t name_id, obj_id;
        tk_status st;
        if ((st = intern(c, name, &name_id)) != TK_OK) return st;
        if ((st = intern(c, obj ? obj : "???", &obj_id)) != TK_OK) return st;
        if ((st = tk_profile_function(c->prof, obj_id, c->file[ro->entry], name_id, &c->fn[r])) != TK_OK)
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
    if (st == TK_OK && !tk_cfg_blocks_source(c->cfg, p, all, p->nblocks, c->line, files))
        st = TK_ERR_NOMEM;
    for (uint32_t b = 0; st == TK_OK && b < p->nblocks; b++) {
        c->file[b] = unknown;
        if (files[b]) st = intern(c, files[b], &c->file[b]);
    }
    tk_free(all);
    tk_free(files);
    return st;
}

static int is_call(const tk_cfg *cfg, const tk_cfg_process *p, const tk_cfg_edge *e)
{
    return e->src < p->nblocks && e->tgt < p->nblocks && p->blocks[e->src].routine != TK_CFG_NONE &&
           p->blocks[e->tgt].routine != TK_CFG_NONE && tk_edge_kind_is_any_call(tk_cfg_edge_kind(cfg, e));
}

static uint64_t edge_count(const conv *c, const tk_cfg_edge *ed, uint32_t thread, int all_threads)
{
    return all_threads ? tk_cfg_edge_count(c->p, ed) : tk_cfg_edge_count_thread(c->p, ed, thread);
}

/* An edge from START into a block of a routine (a thread's ENTRY): the routine, else NONE. */
static uint32_t entered_routine(const conv *c, const tk_cfg_edge *ed)
{
    const tk_cfg_process *p = c->p;
    if (ed->src < p->nblocks || ed->tgt >= p->nblocks ||
        tk_cfg_node_special(c->cfg, p, ed->src) != TK_SPECIAL_START)
        return TK_CFG_NONE;
    return p->blocks[ed->tgt].routine;
}

/* What inclusive() works with: per routine its self cost, its entries and how many of its
 * calls to other routines wait for their callee; the calls between routines grouped by
 * callee (the calls of callee r: calls[first[r] .. first[r + 1])). */
typedef struct incl_work {
    double *self, *entries;
    uint32_t *pending, *queue, *first, *calls;
} incl_work;

static void incl_work_free(incl_work *w)
{
    tk_free(w->self);
    tk_free(w->entries);
    tk_free(w->pending);
    tk_free(w->queue);
    tk_free(w->first);
    tk_free(w->calls);
}

static tk_status incl_work_fill(const conv *c, incl_work *w, uint32_t thread, int all_threads)
{
    const tk_cfg_process *p = c->p;
    size_t n = p->nroutines ? p->nroutines : 1;
    memset(w, 0, sizeof *w);
    w->self = tk_calloc(n, sizeof *w->self);
    w->entries = tk_calloc(n, sizeof *w->entries);
    w->pending = tk_calloc(n, sizeof *w->pending);
    w->queue = tk_malloc(n * sizeof *w->queue);
    w->first = tk_calloc(n + 1, sizeof *w->first);
    w->calls = tk_malloc((p->nedges ? p->nedges : 1) * sizeof *w->calls);
    if (!w->self || !w->entries || !w->pending || !w->queue || !w->first || !w->calls)
        return TK_ERR_NOMEM;
    for (uint32_t b = 0; b < p->nblocks; b++) {
        uint32_t r = p->blocks[b].routine;
        uint64_t cnt = all_threads ? p->blocks[b].count : tk_cfg_block_count_thread(p, b, thread);
        if (r != TK_CFG_NONE) w->self[r] += (double)cnt * p->blocks[b].num_instrs;
    }
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        uint32_t r = entered_routine(c, ed);
        if (r != TK_CFG_NONE) w->entries[r] += (double)edge_count(c, ed, thread, all_threads);
        if (!is_call(c->cfg, p, ed)) continue;
        uint32_t a = p->blocks[ed->src].routine, b = p->blocks[ed->tgt].routine;
        if (a == b) continue;
        w->pending[a]++;
        w->first[b + 1]++;
        w->entries[b] += (double)edge_count(c, ed, thread, all_threads);
    }
    for (uint32_t r = 0; r < p->nroutines; r++) w->first[r + 1] += w->first[r];
    uint32_t *at = w->queue; /* the next slot of each callee, borrowed until the queue runs */
    memcpy(at, w->first, p->nroutines * sizeof *at);
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        if (!is_call(c->cfg, p, ed)) continue;
        uint32_t a = p->blocks[ed->src].routine, b = p->blocks[ed->tgt].routine;
        if (a != b) w->calls[at[b]++] = e;
    }
    return TK_OK;
}

/* Inclusive Ir per entry of each routine: self + calls' inclusive shares, callees before
 * callers (Kahn's order on the call graph); routines in a recursion cycle get their self cost
 * plus what is known of their callees. A routine's entries are the arcs written into it: the
 * calls from other routines and the thread's ENTRY edges (its root's calls), so that the
 * inclusive costs of the arcs into a routine add up to its own (speedscope builds its call
 * tree from them: a routine's entry block count, loops and all, undercounted it). */
static tk_status inclusive(conv *c, uint32_t thread, int all_threads)
{
    const tk_cfg_process *p = c->p;
    uint32_t n = p->nroutines;
    incl_work w;
    tk_status st = incl_work_fill(c, &w, thread, all_threads);
    if (st != TK_OK) {
        incl_work_free(&w);
        return st;
    }
    uint32_t head = 0, tail = 0;
    for (uint32_t r = 0; r < n; r++) {
        c->incl[r] = w.self[r];
        if (!w.pending[r]) w.queue[tail++] = r;
    }
    while (head < tail) {
        uint32_t b = w.queue[head++];
        double per_entry = w.entries[b] > 0 ? c->incl[b] / w.entries[b] : 0;
        for (uint32_t q = w.first[b]; q < w.first[b + 1]; q++) {
            const tk_cfg_edge *ed = &p->edges[w.calls[q]];
            uint32_t a = p->blocks[ed->src].routine;
            c->incl[a] += per_entry * (double)edge_count(c, ed, thread, all_threads);
            if (--w.pending[a] == 0) w.queue[tail++] = a;
        }
        c->incl[b] = per_entry; /* from now on: per entry */
    }
    /* routines left (recursion): per entry too */
    for (uint32_t r = 0; r < n; r++)
        if (w.pending[r]) c->incl[r] = w.entries[r] > 0 ? c->incl[r] / w.entries[r] : 0;
    incl_work_free(&w);
    return TK_OK;
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
        uint32_t r = entered_routine(c, ed);
        uint64_t cnt = r != TK_CFG_NONE ? edge_count(c, ed, thread, all_threads) : 0;
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
            if ((st = tk_profile_function(c->prof, f->object, unknown, name_id, &root)) != TK_OK)
                return st;
        }
        key.fn = root;
        key.file = tk_profile_function_at(c->prof, root)->file;
        key.callee = c->fn[r];
        key.target.addr = tk_cfg_block_addr(p, &p->blocks[ed->tgt]);
        key.target.line = c->line[ed->tgt];
        double share = c->incl[r] * (double)cnt + 0.5;
        uint64_t incl = share < 18446744073709551616.0 ? (uint64_t)share : UINT64_MAX;
        st = tk_profile_add_call(c->prof, part, &key, cnt, incl > total ? &total : &incl);
    }
    return st;
}

static tk_status fill_part(conv *c, tk_prof_part *part, uint32_t thread, int all_threads)
{
    const tk_cfg *cfg = c->cfg;
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
        key.pos.addr = tk_cfg_block_addr(p, bl);
        key.pos.line = c->line[b];
        uint64_t cost = cnt * bl->num_instrs;
        if ((st = tk_profile_add_self(c->prof, part, &key, &cost)) != TK_OK) return st;
    }
    uint64_t total;
    if ((st = tk_profile_part_sum(c->prof, part, &total)) != TK_OK) return st;
    if ((st = inclusive(c, thread, all_threads)) != TK_OK) return st;
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        if (!is_call(cfg, p, ed)) continue;
        uint64_t cnt =
            all_threads ? tk_cfg_edge_count(p, ed) : tk_cfg_edge_count_thread(p, ed, thread);
        if (!cnt) continue;
        const tk_cfg_block *s = &p->blocks[ed->src], *t = &p->blocks[ed->tgt];
        if (c->fn[s->routine] == TK_PROF_NONE || c->fn[t->routine] == TK_PROF_NONE) continue;
        tk_prof_call key;
        memset(&key, 0, sizeof key);
        key.fn = c->fn[s->routine];
        key.file = c->file[ed->src];
        key.pos.addr = tk_cfg_block_last_instr_addr(p, s);
        key.pos.line = c->line[ed->src];
        key.callee = c->fn[t->routine];
        key.target.addr = tk_cfg_block_addr(p, t);
        key.target.line = c->line[ed->tgt];
        /* an estimate (shared out by call counts) that cannot exceed the part's
         * total, which is exact: counts inconsistent with the entries' (a
         * `check` error) could make it larger, and a double at or above 2^64
         * has no uint64_t */
        double share = c->incl[t->routine] * (double)cnt + 0.5;
        uint64_t incl = share < 18446744073709551616.0 ? (uint64_t)share : UINT64_MAX;
        if (incl > total) incl = total;
        if ((st = tk_profile_add_call(c->prof, part, &key, cnt, &incl)) != TK_OK) return st;
    }
    if ((st = add_roots(c, part, thread, all_threads, total)) != TK_OK) return st;
    return tk_profile_part_fill_totals(c->prof, part);
}

tk_status tk_dcfg_to_profile(const tk_cfg *cfg, tk_profile **out, tk_error *err)
{
    *out = NULL;
    tk_profile *prof;
    tk_status st = tk_profile_new(&prof);
    if (st != TK_OK) return tk_error_set(err, st, "out of memory");
    size_t ev;
    if ((st = tk_profile_add_event(prof, "Ir", 2, &ev, err)) != TK_OK) {
        tk_profile_free(prof);
        return st;
    }
    for (uint32_t i = 0; i < cfg->nprocesses && st == TK_OK; i++) {
        const tk_cfg_process *p = &cfg->processes[i];
        conv c = {cfg, p, prof, NULL, NULL, NULL, NULL};
        c.fn = tk_malloc(sizeof *c.fn * (p->nroutines ? p->nroutines : 1));
        c.file = tk_malloc(sizeof *c.file * (p->nblocks ? p->nblocks : 1));
        c.line = tk_malloc(sizeof *c.line * (p->nblocks ? p->nblocks : 1));
        c.incl = tk_malloc(sizeof *c.incl * (p->nroutines ? p->nroutines : 1));
        st = c.fn && c.file && c.line && c.incl && tk_cfg_need_adjacency(p) == TK_OK ? TK_OK
                                                                              : TK_ERR_NOMEM;
        if (st == TK_OK) st = block_sources(&c);
        if (st == TK_OK) st = make_functions(&c);
        /* one part per thread (all threads together when there is one) */
        uint32_t nparts = p->nthreads > 1 ? p->nthreads : 1;
        for (uint32_t t = 0; t < nparts && st == TK_OK; t++) {
            tk_prof_part *part;
            if ((st = tk_profile_add_part(prof, &part)) != TK_OK) break;
            part->has_pid = 1;
            part->pid = p->pid;
            part->has_thread = 1;
            part->thread = t + 1;
            part->positions = TK_POS_INSTR | TK_POS_LINE;
            const char *cmd = p->nimages ? tk_cfg_file_name(cfg, p->images[0].file_name_id) : NULL;
            if (cmd && (st = tk_profile_part_set_string(&part->cmd, cmd, strlen(cmd))) != TK_OK) break;
            const char *creator = "tracekit convert --to callgrind (from an Intel DCFG)";
            if ((st = tk_profile_part_set_string(&part->creator, creator, strlen(creator))) != TK_OK) break;
            st = fill_part(&c, part, t, p->nthreads <= 1);
        }
        tk_free(c.fn);
        tk_free(c.file);
        tk_free(c.line);
        tk_free(c.incl);
    }
    if (st != TK_OK) {
        tk_profile_free(prof);
        if (st == TK_ERR_NOMEM) return tk_error_set(err, st, "out of memory");
        return tk_error_set(err, st, "cannot build the profile: %s", tk_status_name(st));
    }
    *out = prof;
    return TK_OK;
}
