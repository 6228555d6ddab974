/* The call stack of a DCFG-Trace thread (dt_stack.h has the rules). */
#include "formats/dcfg_trace/dt_stack.h"

#include <string.h>

#include "core/alloc.h"

tk_status tk_dt_stack_begin(dt_stack *s, const tk_cfg *cfg, const tk_cfg_process *p)
{
    s->cfg = cfg;
    if (s->p == p && s->top_of) {
        for (size_t i = s->depth; i > 0; i--) /* a thread left open */
            s->top_of[s->frames[i - 1].fn] = s->frames[i - 1].below;
        s->depth = 0;
        return TK_OK;
    }
    s->depth = 0;
    size_t n = p->nblocks ? p->nblocks : 1;
    size_t *t = tk_reallocarray(s->top_of, n, sizeof *t);
    if (!t) return TK_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) t[i] = DT_NO_FRAME;
    s->top_of = t;
    s->p = p;
    s->nblocks = p->nblocks;
    return TK_OK;
}

void tk_dt_stack_free(dt_stack *s)
{
    tk_free(s->frames);
    tk_free(s->top_of);
    memset(s, 0, sizeof *s);
}

uint32_t tk_dt_stack_fn(const tk_cfg_process *p, uint32_t block)
{
    uint32_t r = p->blocks[block].routine;
    if (r != TK_CFG_NONE && r < p->nroutines && p->routines[r].entry < p->nblocks)
        return p->routines[r].entry;
    return block;
}

/* The top frame after closing [keep, depth) must be fn's: close down to fn's frame in the top
 * chain, or open one (a jump, or a top-level frame when none is left). */
static void reconcile(const dt_stack *s, size_t keep, uint32_t fn, dt_step *step)
{
    step->keep = keep;
    step->open = 0;
    if (keep > 0 && s->frames[keep - 1].fn == fn) return;
    if (keep > 0) {
        /* frames of fn at or above keep close: one at most (they are the top chain) */
        size_t i = s->top_of[fn];
        while (i != DT_NO_FRAME && i >= keep) i = s->frames[i].below;
        if (i != DT_NO_FRAME && i >= s->frames[keep - 1].base) {
            step->keep = i + 1;
            return;
        }
    }
    step->open = 1;
    step->called = keep == 0;
    step->fn = fn;
}

void tk_dt_stack_at_block(const dt_stack *s, uint32_t block, dt_step *step)
{
    reconcile(s, s->depth, tk_dt_stack_fn(s->p, block), step);
}

void tk_dt_stack_edge(const dt_stack *s, const tk_cfg_edge *ed, dt_step *step)
{
    const tk_cfg_process *p = s->p;
    tk_edge_kind k = tk_cfg_stored_edge_kind(s->cfg, ed);
    int from_block = cfg_is_block(p, ed->src), to_block = cfg_is_block(p, ed->tgt);
    if (tk_edge_kind_is_any_call(k) && from_block && to_block) {
        step->keep = s->depth;
        step->open = 1;
        step->called = 1;
        step->fn = tk_dt_stack_fn(p, ed->tgt);
        return;
    }
    size_t keep = s->depth;
    if (tk_edge_kind_is_any_return(k) && from_block && keep > 0) keep = s->frames[keep - 1].base;
    if (to_block) {
        reconcile(s, keep, tk_dt_stack_fn(p, ed->tgt), step);
    } else {
        step->keep = keep;
        step->open = 0;
    }
}

void tk_dt_stack_end(const dt_stack *s, dt_step *step)
{
    (void)s;
    step->keep = 0;
    step->open = 0;
}

tk_status tk_dt_stack_apply(dt_stack *s, const dt_step *step)
{
    if (step->open && s->depth == s->cap && step->keep == s->depth) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        dt_stack_frame *f = tk_reallocarray(s->frames, cap, sizeof *f);
        if (!f) return TK_ERR_NOMEM;
        s->frames = f;
        s->cap = cap;
    }
    for (size_t i = s->depth; i > step->keep; i--)
        s->top_of[s->frames[i - 1].fn] = s->frames[i - 1].below;
    s->depth = step->keep;
    if (!step->open) return TK_OK;
    dt_stack_frame *f = &s->frames[s->depth];
    f->fn = step->fn;
    f->called = step->called || s->depth == 0;
    f->base = f->called ? s->depth : s->frames[s->depth - 1].base;
    f->below = s->top_of[step->fn];
    s->top_of[step->fn] = s->depth;
    s->depth++;
    return TK_OK;
}
