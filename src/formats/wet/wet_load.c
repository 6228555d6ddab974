/* Load a WET trace into the deps model, checking references on the way. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/deps_internal.h"
#include "core/alloc.h"
#include "core/vec.h"
#include "tracekit/wet.h"
#include "formats/wet/wet_internal.h"

/* A dependence whose target was not complete when it was read. */
typedef struct pending_ref {
    uint64_t line;
    uint32_t col;
    uint32_t target;
    uint32_t target_inst;
} pending_ref;

/* A reference problem kept until the end of the file, so that `check`
 * prints them in file order (some are only found at the end). */
typedef struct held_problem {
    uint64_t line;
    uint64_t col;
    uint64_t seq;
    char *message;
} held_problem;

/* Problems held for sorting; past this many they are reported at once. */
#define WET_MAX_HELD 10000

typedef struct loader {
    tk_input *in;
    tk_diag *diag;
    tk_error *err;
    tk_deps *deps;
    uint32_t current; /* block being read */
    TK_VEC(pending_ref) pending;
    uint8_t *reported; /* per instruction: "never defined" already reported */
    uint64_t problems;
    TK_VEC(held_problem) held;
    /* the last dependence target (entries of a port often repeat it); reset per block */
    int cache_valid;
    uint64_t cache_id;
    uint32_t cache_target;
    int cache_complete; /* defined in an earlier block */
    int cache_has_count;
    uint64_t cache_count;
} loader;

/* Report a reference problem: to the diag (and go on) or as the error. */
static tk_status problem(loader *l, uint64_t line, uint64_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static tk_status problem(loader *l, uint64_t line, uint64_t col, const char *fmt, ...)
{
    char msg[TK_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    l->problems++;
    if (l->diag) {
        if (l->held.len < WET_MAX_HELD) {
            held_problem h = {line, col, l->held.len, tk_strdup(msg)};
            if (h.message && TK_VEC_PUSH(&l->held, h) == 0) return TK_OK;
            tk_free(h.message);
        }
        tk_location loc = {tk_input_path(l->in), -1, line, col};
        tk_diag_report(l->diag, TK_SEV_ERROR, &loc, "%s", msg);
        return TK_OK;
    }
    return tk_error_set_at(l->err, TK_ERR_FORMAT, tk_input_path(l->in), -1, line, col, "%s", msg);
}

/* Executions of a complete instruction when known: from its VALUES list. */
static int known_count(const tk_deps *d, uint32_t index, uint64_t *count)
{
    tk_deps_instr in;
    tk_deps_get_instr(d, index, &in);
    if (!in.has_values || in.nvalues == 0) return 0;
    const uint32_t *ks;
    const uint64_t *vs;
    size_t n = tk_deps_values_span(d, index, &ks, &vs);
    *count = (uint64_t)ks[n - 1] + 1;
    return 1;
}

static tk_status check_target_instance(loader *l, uint64_t line, uint32_t col, uint32_t target,
                                       uint32_t inst)
{
    uint64_t count;
    if (!known_count(l->deps, target, &count) || inst < count) return TK_OK;
    tk_deps_instr t;
    tk_deps_get_instr(l->deps, target, &t);
    return problem(l, line, col,
                   "instance %u of instruction %llu does not exist: its VALUES list shows %llu "
                   "execution%s (instances 0..%llu)",
                   inst, (unsigned long long)t.id, (unsigned long long)count, count == 1 ? "" : "s",
                   (unsigned long long)count - 1);
}

static tk_status on_dep(loader *l, const tk_wet_rec *rec)
{
    tk_status st = TK_OK;
    if (!l->cache_valid || l->cache_id != rec->dep_id) {
        uint32_t target;
        st = tk_deps_ref(l->deps, rec->dep_id, rec->line, rec->col_dep, &target, l->err);
        if (st != TK_OK) return st;
        l->cache_valid = 1;
        l->cache_id = rec->dep_id;
        l->cache_target = target;
        l->cache_complete = tk_deps_is_defined(l->deps, target, NULL) && target != l->current;
        l->cache_has_count = l->cache_complete && known_count(l->deps, target, &l->cache_count);
    }
    uint32_t target = l->cache_target;
    if (target == l->current && rec->dep_inst == rec->inst) {
        st = problem(l, rec->line, rec->col_dep_inst,
                     "instance %u of instruction %llu depends on itself", rec->inst,
                     (unsigned long long)rec->dep_id);
        if (st != TK_OK) return st;
    }
    if (l->cache_complete) {
        if (l->cache_has_count && rec->dep_inst >= l->cache_count)
            st = check_target_instance(l, rec->line, rec->col_dep_inst, target, rec->dep_inst);
    } else {
        pending_ref p = {rec->line, rec->col_dep, target, rec->dep_inst};
        if (TK_VEC_PUSH(&l->pending, p) != 0)
            return tk_error_set(l->err, TK_ERR_NOMEM, "out of memory");
    }
    if (st != TK_OK) return st;
    return tk_deps_add_dep(l->deps, rec->inst, target, rec->dep_inst, l->err);
}

static tk_status on_instr(loader *l, const tk_wet_rec *rec)
{
    uint32_t index;
    uint64_t first;
    tk_status st = tk_deps_ref(l->deps, rec->id, rec->line, 1, &index, l->err);
    if (st != TK_OK) return st;
    if (tk_deps_is_defined(l->deps, index, &first))
        return tk_error_set_at(l->err, TK_ERR_FORMAT, tk_input_path(l->in), -1, rec->line, 1,
                               "instruction id %llu is defined twice (first at line %llu)",
                               (unsigned long long)rec->id, (unsigned long long)first);
    l->current = index;
    l->cache_valid = 0;
    return tk_deps_define(l->deps, index, rec->line, rec->nports, rec->addr, rec->file,
                          rec->file_len, rec->function, rec->function_len, rec->src_line, l->err);
}

static tk_status on_edge(loader *l, const tk_wet_rec *rec)
{
    uint32_t from, to;
    tk_status st;
    if (rec->addr_from == rec->dep_id && rec->inst == rec->dep_inst) {
        st = problem(l, rec->line, rec->col_dep, "instance 0x%llx#%u depends on itself",
                     (unsigned long long)rec->addr_from, rec->inst);
        if (st != TK_OK) return st;
    }
    if ((st = tk_deps_ref(l->deps, rec->addr_from, rec->line, 1, &from, l->err)) != TK_OK ||
        (st = tk_deps_ref(l->deps, rec->dep_id, rec->line, rec->col_dep, &to, l->err)) != TK_OK)
        return st;
    return tk_deps_add_edge(l->deps, from, rec->inst, to, rec->dep_inst, l->err);
}

static tk_status on_record(loader *l, const tk_wet_rec *rec)
{
    switch (rec->kind) {
    case TK_WET_REC_COUNT: return TK_OK;
    case TK_WET_REC_INSTR: return on_instr(l, rec);
    case TK_WET_REC_PORT: return rec->port > 0 ? tk_deps_next_port(l->deps, l->err) : TK_OK;
    case TK_WET_REC_DEP: return on_dep(l, rec);
    case TK_WET_REC_VALUES: tk_deps_set_values(l->deps, rec->has_values); return TK_OK;
    case TK_WET_REC_VALUE: {
        if (rec->value_words <= 1) return tk_deps_add_value(l->deps, rec->inst, rec->value, l->err);
        uint64_t w[TK_DEPS_VALUE_WORDS] = {rec->value};
        memcpy(w + 1, rec->value_hi, sizeof rec->value_hi);
        return tk_deps_add_value_wide(l->deps, rec->inst, w, rec->value_words, l->err);
    }
    case TK_WET_REC_EDGE: return on_edge(l, rec);
    }
    return TK_OK;
}

/* References to instructions that were not complete when read. */
static tk_status resolve_pending(loader *l)
{
    uint32_t n = tk_deps_count(l->deps);
    l->reported = tk_calloc(n ? n : 1, 1);
    if (!l->reported) return tk_error_set(l->err, TK_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < l->pending.len; i++) {
        const pending_ref *p = &l->pending.data[i];
        tk_status st;
        if (!tk_deps_is_defined(l->deps, p->target, NULL)) {
            if (l->reported[p->target]) continue;
            l->reported[p->target] = 1;
            tk_deps_instr t;
            tk_deps_get_instr(l->deps, p->target, &t);
            st = problem(l, p->line, p->col,
                         "dependence on instruction id %llu, which has no instruction block",
                         (unsigned long long)t.id);
        } else {
            st = check_target_instance(l, p->line, p->col, p->target, p->target_inst);
        }
        if (st != TK_OK) return st;
    }
    return TK_OK;
}

static int cmp_held(const void *a, const void *b)
{
    const held_problem *x = a, *y = b;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    if (x->col != y->col) return x->col < y->col ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Report the held problems in file order. */
static void flush_held(loader *l)
{
    if (l->held.len > 1) qsort(l->held.data, l->held.len, sizeof *l->held.data, cmp_held);
    for (size_t i = 0; i < l->held.len; i++) {
        held_problem *h = &l->held.data[i];
        tk_location loc = {tk_input_path(l->in), -1, h->line, h->col};
        tk_diag_report(l->diag, TK_SEV_ERROR, &loc, "%s", h->message);
        tk_free(h->message);
    }
    TK_VEC_FREE(&l->held);
}

tk_status tk_wet_read_paths(tk_deps **out, tk_input *in, tk_diag *diag, int fast, tk_error *err)
{
    loader l;
    memset(&l, 0, sizeof l);
    l.in = in;
    l.diag = diag;
    l.err = err;
    l.current = TK_DEPS_NONE;
    *out = NULL;
    tk_wet_reader *r = NULL;
    tk_wet_rec rec;
    tk_status st = tk_wet_reader_open(&r, in, err);
    if (st != TK_OK) return st;
    tk_wet_reader_paths(r, fast);
    st = tk_wet_reader_next(r, &rec, err);
    if (st == TK_OK) st = tk_deps_open(&l.deps, tk_wet_reader_form(r), err);
    while (st == TK_OK) {
        st = on_record(&l, &rec);
        if (st == TK_OK) st = tk_wet_reader_next(r, &rec, err);
    }
    if (st == TK_END && l.deps && tk_wet_reader_form(r) == TK_DEPS_COMPREHENSIVE)
        st = resolve_pending(&l);
    else if (st == TK_END)
        st = TK_OK;
    if (diag) flush_held(&l);
    if (st == TK_OK && l.problems > 0)
        st = tk_error_set(err, TK_ERR_CHECK, "%llu problems found", (unsigned long long)l.problems);
    if (st == TK_OK) st = tk_deps_finish(l.deps, err);
    if ((st == TK_ERR_LIMIT || st == TK_ERR_NOMEM) && err && err->line == 0 && err->offset < 0)
        tk_error_locate(err, tk_input_path(in), -1, 0, 0);
    tk_wet_reader_free(r);
    TK_VEC_FREE(&l.pending);
    tk_free(l.reported);
    if (st != TK_OK) {
        tk_deps_free(l.deps);
        return st;
    }
    *out = l.deps;
    return TK_OK;
}

tk_status tk_wet_read(tk_deps **out, tk_input *in, tk_diag *diag, tk_error *err)
{
    return tk_wet_read_paths(out, in, diag, 1, err);
}
