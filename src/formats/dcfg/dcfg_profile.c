/* DCFG -> profile model (written as callgrind): one event "Ir"; a function
 * per routine (object = image file, name = symbol[+offset] of the entry);
 * self cost of each block = COUNT x NUM_INSTRS at (first instruction
 * address, source line); CALL edges become calls with their counts and
 * inclusive costs; one part per thread. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "model/cfg_internal.h"
#include "model/profile.h"
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
        if (sym && off) snprintf(name, sizeof name, "%s+0x%" PRIx64, sym, off);
        else if (sym) snprintf(name, sizeof name, "%s", sym);
        else snprintf(name, sizeof name, "routine_%" PRIu32, p->blocks[ro->entry].id);
        const char *obj = tk_cfg_file_name(c->cfg, p->images[ro->image].file_name_id);
        uint32_t name_id, obj_id;
        tk_status st;
        if ((st = intern(c, name, &name_id)) != TK_OK) return st;
        if ((st = intern(c, obj ? obj : "???", &obj_id)) != TK_OK) return st;
        if ((st = tk_profile_function(c->prof, obj_id, c->file[ro->entry], name_id, &c->fn[r], NULL)) != TK_OK)
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
    if (st == TK_OK && tk_cfg_blocks_source(c->cfg, p, all, p->nblocks, c->line, files, NULL) != TK_OK)
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
           p->blocks[e->tgt].routine != TK_CFG_NONE && tk_edge_kind_is_any_call(cfg_edge_kind(cfg, e));
}

/* Inclusive Ir per entry of each routine: self + calls' inclusive shares,
 * callees before callers (Kahn's order on the call graph); routines in a
 * recursion cycle get their self cost plus what is known of their callees. */
static tk_status inclusive(conv *c, uint32_t thread, int all_threads)
{
    const tk_cfg *cfg = c->cfg;
    const tk_cfg_process *p = c->p;
    uint32_t n = p->nroutines;
    double *self = tk_calloc(n ? n : 1, sizeof *self);
    uint32_t *pending = tk_calloc(n ? n : 1, sizeof *pending), *queue = tk_malloc(sizeof *queue * (n ? n : 1));
    if (!self || !pending || !queue) {
        tk_free(self);
        tk_free(pending);
        tk_free(queue);
        return TK_ERR_NOMEM;
    }
    for (uint32_t b = 0; b < p->nblocks; b++) {
        uint32_t r = p->blocks[b].routine;
        if (r == TK_CFG_NONE) continue;
        uint64_t cnt = all_threads ? p->blocks[b].count : tk_cfg_block_count_thread(p, b, thread);
        self[r] += (double)cnt * p->blocks[b].num_instrs;
    }
    /* pending[r] = number of call edges out of r (to other routines) */
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        if (!is_call(cfg, p, ed)) continue;
        uint32_t a = p->blocks[ed->src].routine, b = p->blocks[ed->tgt].routine;
        if (a != b) pending[a]++;
    }
    uint32_t head = 0, tail = 0;
    for (uint32_t r = 0; r < n; r++) {
        c->incl[r] = self[r];
        if (!pending[r]) queue[tail++] = r;
    }
    while (head < tail) {
        uint32_t b = queue[head++];
        uint64_t entries = cfg_routine_entry_count(p, &p->routines[b]);
        double per_entry = entries ? c->incl[b] / (double)entries : 0;
        /* callers of b: in-edges of b's entry that are calls */
        uint32_t eb = p->routines[b].entry;
        if (eb == TK_CFG_NONE) continue;
        uint32_t nin;
        const uint32_t *in = cfg_in_edges(p, eb, &nin);
        for (uint32_t q = 0; q < nin; q++) {
            const tk_cfg_edge *ed = &p->edges[in[q]];
            if (!is_call(cfg, p, ed)) continue;
            uint32_t a = p->blocks[ed->src].routine;
            if (a == b) continue;
            uint64_t cnt =
                all_threads ? cfg_edge_count(p, ed) : cfg_edge_count_thread(p, ed, thread);
            c->incl[a] += per_entry * (double)cnt;
            if (--pending[a] == 0) queue[tail++] = a;
        }
        c->incl[b] = per_entry; /* from now on: per entry */
    }
    /* routines left (recursion): per entry too */
    for (uint32_t r = 0; r < n; r++) {
        if (pending[r] == 0) continue;
        uint64_t entries = cfg_routine_entry_count(p, &p->routines[r]);
        c->incl[r] = entries ? c->incl[r] / (double)entries : 0;
    }
    tk_free(self);
    tk_free(pending);
    tk_free(queue);
    return TK_OK;
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
        key.pos.addr = cfg_block_addr(p, bl);
        key.pos.line = c->line[b];
        uint64_t cost = cnt * bl->num_instrs;
        if ((st = tk_profile_add_self(c->prof, part, &key, &cost, NULL)) != TK_OK) return st;
    }
    uint64_t total;
    if ((st = tk_profile_part_sum(c->prof, part, &total, NULL)) != TK_OK) return st;
    if ((st = inclusive(c, thread, all_threads)) != TK_OK) return st;
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        if (!is_call(cfg, p, ed)) continue;
        uint64_t cnt =
            all_threads ? cfg_edge_count(p, ed) : cfg_edge_count_thread(p, ed, thread);
        if (!cnt) continue;
        const tk_cfg_block *s = &p->blocks[ed->src], *t = &p->blocks[ed->tgt];
        if (c->fn[s->routine] == TK_PROF_NONE || c->fn[t->routine] == TK_PROF_NONE) continue;
        tk_prof_call key;
        memset(&key, 0, sizeof key);
        key.fn = c->fn[s->routine];
        key.file = c->file[ed->src];
        key.pos.addr = cfg_block_last_instr_addr(p, s);
        key.pos.line = c->line[ed->src];
        key.callee = c->fn[t->routine];
        key.target.addr = cfg_block_addr(p, t);
        key.target.line = c->line[ed->tgt];
        /* an estimate (shared out by call counts) that cannot exceed the part's
         * total, which is exact: counts inconsistent with the entries' (a
         * `check` error) could make it larger, and a double at or above 2^64
         * has no uint64_t */
        double share = c->incl[t->routine] * (double)cnt + 0.5;
        uint64_t incl = share < 18446744073709551616.0 ? (uint64_t)share : UINT64_MAX;
        if (incl > total) incl = total;
        if ((st = tk_profile_add_call(c->prof, part, &key, cnt, &incl, NULL)) != TK_OK) return st;
    }
    return tk_profile_part_fill_totals(c->prof, part, NULL);
}

tk_status tk_dcfg_to_profile(const tk_cfg *cfg, tk_profile **out, tk_error *err)
{
    *out = NULL;
    tk_profile *prof;
    tk_status st = tk_profile_open(&prof, err);
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
        st = c.fn && c.file && c.line && c.incl && tk_cfg_need_adjacency(p, err) == TK_OK ? TK_OK
                                                                              : TK_ERR_NOMEM;
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
            if (cmd && (st = tk_profile_part_set_string(&part->cmd, cmd, strlen(cmd), err)) != TK_OK) break;
            const char *creator = "tracekit convert --to callgrind (from an Intel DCFG)";
            if ((st = tk_profile_part_set_string(&part->creator, creator, strlen(creator), err)) != TK_OK) break;
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
