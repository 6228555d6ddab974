/* DCFG-Trace -> profile model (for convert --to callgrind): event Ir
 * (instructions); one part per thread; self cost of each block execution
 * (the source block of every edge, as INSTR_COUNT counts them) at
 * the block's address in the function of its routine (object = image file);
 * CALL edges are call arcs (count, inclusive Ir until the matching RETURN,
 * or until the thread's end for calls that never return). */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/num.h"
#include "dt_internal.h"
#include "model/cfg_internal.h"
#include "model/profile.h"
#include "tracekit/cfg.h"
#include "tracekit/profile.h"

typedef struct open_call {
    tk_prof_call key;
    uint64_t start;     /* instruction count at the call */
} open_call;

typedef struct prof_run {
    const tk_dcfg_trace *t;
    const tk_cfg *cfg;
    const tk_cfg_process *p;
    tk_profile *prof;
    tk_prof_part *part;
    uint32_t *fn_of_block;      /* profile function id per block index (TK_PROF_NONE = not yet) */
    uint32_t unknown_file;
    uint64_t time;
    open_call *stack;
    size_t depth, cap;
    size_t cur_chunk;
    tk_status st;
    uint32_t bad_edge;
    const char *bad_time;       /* why the instruction count cannot go on (TK_ERR_FORMAT) */
} prof_run;

static uint32_t block_fn(prof_run *r, uint32_t b) {
    if (r->fn_of_block[b] != TK_PROF_NONE)
        return r->fn_of_block[b];
    const tk_cfg_process *p = r->p;
    uint32_t entry = b;
    uint32_t rt = p->blocks[b].routine;
    if (rt != TK_CFG_NONE && rt < p->nroutines)
        entry = p->routines[rt].entry;
    char name[512];
    uint64_t off = 0;
    const char *sym = tk_cfg_block_symbol(r->cfg, p, entry, &off);
    if (sym && off == 0)
        snprintf(name, sizeof name, "%s", sym);
    else if (sym)
        snprintf(name, sizeof name, "%s+0x%llx", sym, (unsigned long long)off);
    else
        snprintf(name, sizeof name, "block %u", p->blocks[entry].id);
    const char *obj = tk_cfg_file_name(r->cfg, p->images[tk_cfg_block_image(p, b)].file_name_id);
    if (!obj || !*obj)
        obj = "???";
    uint32_t sname, sobj, fn;
    if (tk_profile_intern(r->prof, name, strlen(name), &sname, NULL) != TK_OK ||
        tk_profile_intern(r->prof, obj, strlen(obj), &sobj, NULL) != TK_OK ||
        tk_profile_function(r->prof, sobj, r->unknown_file, sname, &fn, NULL) != TK_OK) {
        r->st = TK_ERR_NOMEM;
        return TK_PROF_NONE;
    }
    r->fn_of_block[b] = fn;
    return fn;
}

static void exec_block(prof_run *r, uint32_t b) {
    uint32_t fn = block_fn(r, b);
    if (fn == TK_PROF_NONE)
        return;
    tk_prof_self key;
    memset(&key, 0, sizeof key);
    key.fn = fn;
    key.file = r->unknown_file;
    key.pos.addr = cfg_block_addr(r->p, &r->p->blocks[b]);
    uint64_t cost = r->p->blocks[b].num_instrs;
    tk_status st = tk_profile_add_self(r->prof, r->part, &key, &cost, NULL);
    if (st != TK_OK)
        r->st = st; /* TK_ERR_NOMEM, or TK_ERR_LIMIT: a cost beyond 64 bits */
}

static void close_call(prof_run *r, const open_call *c) {
    if (r->time < c->start) {
        /* a later chunk starts before the call (check reports it) */
        r->st = TK_ERR_FORMAT;
        r->bad_time = "PRECEDING_INSTR_COUNT goes back to before an open call";
        return;
    }
    uint64_t incl = r->time - c->start;
    tk_status st = tk_profile_add_call(r->prof, r->part, &c->key, 1, &incl, NULL);
    if (st != TK_OK)
        r->st = st;
}

static int on_chunk(void *ctx, size_t chunk, const uint32_t *edges, size_t n) {
    prof_run *r = ctx;
    const tk_cfg_process *p = r->p;
    if (chunk != r->cur_chunk) {
        r->cur_chunk = chunk;
        r->time = r->t->chunks[chunk].preceding_instr_count;
    }
    for (size_t i = 0; i < n && r->st == TK_OK; i++) {
        uint32_t e = tk_cfg_find_edge(p, edges[i]);
        if (e == TK_CFG_NONE) {
            r->bad_edge = edges[i];
            r->st = TK_ERR_FORMAT;
            return 1;
        }
        const tk_cfg_edge *ed = &p->edges[e];
        /* the source block of every edge executes once (INSTR_COUNT's rule) */
        if (cfg_is_block(p, ed->src)) {
            exec_block(r, ed->src);
            if (tk_add_u64(r->time, p->blocks[ed->src].num_instrs, &r->time)) {
                r->st = TK_ERR_FORMAT;
                r->bad_time = "the thread's instruction count passes 2^64 - 1 in this chunk (its "
                              "source blocks hold more than its INSTR_COUNT)";
                return 1;
            }
        }
        tk_edge_kind k = cfg_edge_kind(r->cfg, ed);
        if (tk_edge_kind_is_any_call(k) && cfg_is_block(p, ed->src) && cfg_is_block(p, ed->tgt)) {
            if (r->depth == r->cap) {
                size_t cap = r->cap ? r->cap * 2 : 64;
                open_call *q = tk_realloc(r->stack, cap * sizeof *q);
                if (!q) {
                    r->st = TK_ERR_NOMEM;
                    return 1;
                }
                r->stack = q;
                r->cap = cap;
            }
            open_call *c = &r->stack[r->depth++];
            memset(c, 0, sizeof *c);
            c->key.fn = block_fn(r, ed->src);
            c->key.file = r->unknown_file;
            c->key.pos.addr = cfg_block_last_instr_addr(p, &p->blocks[ed->src]);
            c->key.callee = block_fn(r, ed->tgt);
            c->key.target.addr = cfg_block_addr(p, &p->blocks[ed->tgt]);
            c->start = r->time;
        } else if (tk_edge_kind_is_any_return(k) && r->depth > 0) {
            close_call(r, &r->stack[--r->depth]);
        }
    }
    return r->st != TK_OK;
}

tk_status tk_dcfg_trace_to_profile(const tk_dcfg_trace *t, const tk_cfg *cfg, tk_profile *prof,
                                   tk_error *err) {
    size_t ir;
    tk_status st = tk_profile_add_event(prof, "Ir", 2, &ir, err);
    if (st != TK_OK)
        return st;
    prof_run r;
    memset(&r, 0, sizeof r);
    r.t = t;
    r.cfg = cfg;
    r.prof = prof;
    if (tk_profile_intern(prof, "???", 3, &r.unknown_file, NULL) != TK_OK)
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (size_t th = 0; th < t->nthreads && st == TK_OK; th++) {
        const dt_process *P = NULL;
        for (size_t i = 0; i < t->nprocs; i++)
            if (th >= t->procs[i].first_thread && th < t->procs[i].first_thread + t->procs[i].nthreads)
                P = &t->procs[i];
        uint32_t pix = P ? tk_cfg_find_process(cfg, P->pid) : TK_CFG_NONE;
        if (pix == TK_CFG_NONE) {
            st = dt_error_at(t, err, TK_ERR_FORMAT, P ? P->offset : -1, "process %llu is not in the DCFG",
                             P ? (unsigned long long)P->pid : 0ULL);
            break;
        }
        r.p = &cfg->processes[pix];
        tk_free(r.fn_of_block);
        r.fn_of_block = tk_malloc((r.p->nblocks ? r.p->nblocks : 1) * sizeof *r.fn_of_block);
        if (!r.fn_of_block || tk_profile_add_part(prof, &r.part, NULL) != TK_OK) {
            st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
            break;
        }
        for (uint32_t b = 0; b < r.p->nblocks; b++)
            r.fn_of_block[b] = TK_PROF_NONE;
        r.part->positions = TK_POS_INSTR;
        r.part->has_pid = 1;
        r.part->pid = P->pid;
        r.part->has_thread = 1;
        r.part->thread = t->threads[th].thread_id;
        r.part->has_number = 1;
        r.part->number = th + 1;
        r.depth = 0;
        r.cur_chunk = SIZE_MAX;
        r.st = TK_OK;
        tk_dcfg_trace_decode_options opt = TK_DCFG_TRACE_DECODE_OPTIONS_INIT;
        opt.has_pid = 1;
        opt.pid = P->pid;
        opt.has_thread = 1;
        opt.thread_id = t->threads[th].thread_id;
        uint64_t total;
        st = tk_dcfg_trace_decode(t, &opt, on_chunk, &r, &total, NULL, err);
        if (st == TK_OK) {
            /* calls that never returned end with the thread */
            while (r.depth > 0 && r.st == TK_OK)
                close_call(&r, &r.stack[--r.depth]);
            if (r.st == TK_OK)
                r.st = tk_profile_part_fill_totals(prof, r.part, NULL);
        }
        if (st == TK_END || r.st != TK_OK) {
            if (r.st == TK_ERR_FORMAT && r.bad_time)
                st = dt_error_at(t, err, TK_ERR_FORMAT, t->chunks[r.cur_chunk].row_offset, "%s",
                                 r.bad_time);
            else if (r.st == TK_ERR_FORMAT)
                st = tk_error_set_at(err, TK_ERR_FORMAT, t->path, -1, 0, 0,
                                     "edge %u is not an edge of process %llu in the DCFG",
                                     r.bad_edge, (unsigned long long)P->pid);
            else if (r.st == TK_ERR_LIMIT)
                st = tk_error_set(err, TK_ERR_LIMIT,
                                  "process %llu thread %llu: a cost passes 2^64 - 1 instructions",
                                  (unsigned long long)P->pid,
                                  (unsigned long long)t->threads[th].thread_id);
            else
                st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
            break;
        }
        if (st != TK_OK)
            break;
    }
    tk_free(r.fn_of_block);
    tk_free(r.stack);
    return st;
}
