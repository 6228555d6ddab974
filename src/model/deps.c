/* The deps model: static instructions, per-port sorted dependence arrays,
 * values, dense instance numbering and an on-demand reverse index. */
#include "tracekit/deps.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "model/deps_internal.h"
#include "core/hash.h"
#include "core/strpool.h"
#include "core/vec.h"

typedef struct deps_instr {
    uint64_t id;
    uint64_t addr;
    uint64_t def_line; /* 0 while undefined */
    uint64_t ref_line; /* first reference */
    uint64_t node_base;
    uint64_t values_start;
    uint32_t ref_col;
    uint32_t def_seq; /* order of definition */
    uint32_t file; /* string ids, TK_STR_NONE when unknown */
    uint32_t function;
    uint32_t line;
    uint32_t nports;
    uint32_t first_port;
    uint32_t ninstances;
    uint32_t nvalues;
    uint8_t has_values;
} deps_instr;

typedef struct deps_port {
    uint64_t start;
    uint32_t count;
    uint32_t dense; /* entries[j].inst == j for every j */
} deps_port;

/* The upper words of a value wider than 64 bits (its low word is in values). */
typedef struct wide_value {
    uint64_t at; /* index in values */
    uint64_t hi[TK_DEPS_VALUE_WORDS - 1];
} wide_value;

typedef struct hist_edge {
    uint32_t from, from_inst, to, to_inst;
} hist_edge;

struct tk_deps {
    tk_deps_form form;
    TK_VEC(deps_instr) instrs;
    TK_VEC(deps_port) ports;
    TK_VEC(tk_dep) entries;
    TK_VEC(uint32_t) value_insts;
    TK_VEC(uint64_t) values;
    TK_VEC(wide_value) wide; /* by at, increasing */
    TK_VEC(hist_edge) edges;
    tk_hmap by_id;
    tk_hmap by_addr;
    tk_strpool strings;
    uint32_t current; /* instruction being defined, or TK_DEPS_NONE */
    uint32_t ndefined;
    uint64_t node_count;
    int finished;
    uint64_t *rev_offsets; /* node -> first reverse entry; node_count + 1 */
    tk_dep_use *rev;
};

static tk_status nomem(tk_error *err)
{
    return tk_error_set(err, TK_ERR_NOMEM, "out of memory building the dependence model");
}

tk_status tk_deps_open(tk_deps **out, tk_deps_form form, tk_error *err)
{
    tk_deps *d = tk_calloc(1, sizeof *d);
    if (!d) return nomem(err);
    d->form = form;
    d->current = TK_DEPS_NONE;
    tk_strpool_init(&d->strings);
    *out = d;
    return TK_OK;
}

void tk_deps_free(tk_deps *d)
{
    if (!d) return;
    TK_VEC_FREE(&d->instrs);
    TK_VEC_FREE(&d->ports);
    TK_VEC_FREE(&d->entries);
    TK_VEC_FREE(&d->value_insts);
    TK_VEC_FREE(&d->values);
    TK_VEC_FREE(&d->wide);
    TK_VEC_FREE(&d->edges);
    tk_hmap_free(&d->by_id);
    tk_hmap_free(&d->by_addr);
    tk_strpool_free(&d->strings);
    tk_free(d->rev_offsets);
    tk_free(d->rev);
    tk_free(d);
}

tk_status tk_deps_ref(tk_deps *d, uint64_t id, uint64_t loc_line, uint32_t loc_col, uint32_t *index,
                      tk_error *err)
{
    int inserted = 0;
    uint64_t *slot = tk_hmap_slot(&d->by_id, id, d->instrs.len, &inserted);
    if (!slot) return nomem(err);
    if (!inserted) {
        *index = (uint32_t)*slot;
        return TK_OK;
    }
    if (d->instrs.len >= TK_DEPS_NONE - 1)
        return tk_error_set(err, TK_ERR_LIMIT, "more than %u instructions", TK_DEPS_NONE - 1);
    deps_instr in;
    memset(&in, 0, sizeof in);
    in.id = id;
    in.addr = d->form == TK_DEPS_HISTORY ? id : 0;
    in.ref_line = loc_line;
    in.ref_col = loc_col;
    in.file = in.function = TK_STR_NONE;
    if (TK_VEC_PUSH(&d->instrs, in) != 0) return nomem(err);
    *index = (uint32_t)(d->instrs.len - 1);
    return TK_OK;
}

int tk_deps_is_defined(const tk_deps *d, uint32_t index, uint64_t *def_line)
{
    const deps_instr *in = &d->instrs.data[index];
    if (def_line) *def_line = in->def_line;
    return in->def_line != 0 || (d->form == TK_DEPS_HISTORY);
}

static tk_status push_port(tk_deps *d, tk_error *err)
{
    deps_port p = {d->entries.len, 0, 0};
    if (TK_VEC_PUSH(&d->ports, p) != 0) return nomem(err);
    return TK_OK;
}

tk_status tk_deps_define(tk_deps *d, uint32_t index, uint64_t def_line, uint32_t nports,
                         uint64_t addr, const char *file, size_t file_len, const char *function,
                         size_t function_len, uint32_t line, tk_error *err)
{
    deps_instr *in = &d->instrs.data[index];
    in->def_line = def_line ? def_line : 1;
    in->def_seq = d->ndefined++;
    in->addr = addr;
    in->line = line;
    in->nports = nports;
    in->first_port = (uint32_t)d->ports.len;
    if (file) {
        in->file = tk_strpool_intern(&d->strings, file, file_len);
        if (in->file == TK_STR_NONE) return nomem(err);
    }
    if (function) {
        in->function = tk_strpool_intern(&d->strings, function, function_len);
        if (in->function == TK_STR_NONE) return nomem(err);
    }
    in->values_start = d->values.len;
    d->current = index;
    if (nports > 0) return push_port(d, err);
    return TK_OK;
}

tk_status tk_deps_next_port(tk_deps *d, tk_error *err) { return push_port(d, err); }

uint64_t tk_deps_entry_count(const tk_deps *d) { return d->entries.len; }

tk_status tk_deps_add_dep(tk_deps *d, uint32_t inst, uint32_t dep, uint32_t dep_inst, tk_error *err)
{
    tk_dep e = {inst, dep, dep_inst};
    if (TK_VEC_PUSH(&d->entries, e) != 0) return nomem(err);
    d->ports.data[d->ports.len - 1].count++;
    return TK_OK;
}

void tk_deps_set_values(tk_deps *d, int has_values)
{
    deps_instr *in = &d->instrs.data[d->current];
    in->has_values = has_values ? 1 : 0;
    in->values_start = d->values.len;
}

tk_status tk_deps_add_value(tk_deps *d, uint32_t inst, uint64_t value, tk_error *err)
{
    if (TK_VEC_PUSH(&d->value_insts, inst) != 0 || TK_VEC_PUSH(&d->values, value) != 0)
        return nomem(err);
    d->instrs.data[d->current].nvalues++;
    return TK_OK;
}

tk_status tk_deps_add_value_wide(tk_deps *d, uint32_t inst, const uint64_t *words, uint32_t nwords,
                                 tk_error *err)
{
    assert(nwords >= 1 && nwords <= TK_DEPS_VALUE_WORDS);
    wide_value w;
    memset(&w, 0, sizeof w);
    w.at = d->values.len;
    int wide = 0;
    for (uint32_t k = 1; k < nwords; k++) {
        w.hi[k - 1] = words[k];
        wide |= words[k] != 0;
    }
    if (wide && TK_VEC_PUSH(&d->wide, w) != 0) return nomem(err);
    return tk_deps_add_value(d, inst, words[0], err);
}

tk_status tk_deps_add_edge(tk_deps *d, uint32_t from, uint32_t from_inst, uint32_t to,
                           uint32_t to_inst, tk_error *err)
{
    hist_edge e = {from, from_inst, to, to_inst};
    if (TK_VEC_PUSH(&d->edges, e) != 0) return nomem(err);
    return TK_OK;
}

/* ---- finish ---------------------------------------------------------------- */

static int cmp_dep(const void *a, const void *b)
{
    const tk_dep *x = a, *y = b;
    if (x->inst != y->inst) return x->inst < y->inst ? -1 : 1;
    if (x->dep != y->dep) return x->dep < y->dep ? -1 : 1;
    if (x->dep_inst != y->dep_inst) return x->dep_inst < y->dep_inst ? -1 : 1;
    return 0;
}

static int cmp_edge(const void *a, const void *b)
{
    const hist_edge *x = a, *y = b;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    if (x->from_inst != y->from_inst) return x->from_inst < y->from_inst ? -1 : 1;
    if (x->to != y->to) return x->to < y->to ? -1 : 1;
    if (x->to_inst != y->to_inst) return x->to_inst < y->to_inst ? -1 : 1;
    return 0;
}

typedef struct addr_rank {
    uint64_t addr;
    uint32_t index;
} addr_rank;

static int cmp_addr_rank(const void *a, const void *b)
{
    const addr_rank *x = a, *y = b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

/* History form: number the instructions in address order, so every output
 * is independent of the order of the lines. */
static tk_status order_by_address(tk_deps *d, tk_error *err)
{
    size_t n = d->instrs.len;
    addr_rank *ranks = tk_reallocarray(NULL, n ? n : 1, sizeof *ranks);
    uint32_t *newpos = tk_reallocarray(NULL, n ? n : 1, sizeof *newpos);
    deps_instr *sorted = tk_reallocarray(NULL, n ? n : 1, sizeof *sorted);
    if (!ranks || !newpos || !sorted) {
        tk_free(ranks);
        tk_free(newpos);
        tk_free(sorted);
        return nomem(err);
    }
    for (size_t i = 0; i < n; i++) {
        ranks[i].addr = d->instrs.data[i].addr;
        ranks[i].index = (uint32_t)i;
    }
    qsort(ranks, n, sizeof *ranks, cmp_addr_rank);
    for (size_t r = 0; r < n; r++) {
        newpos[ranks[r].index] = (uint32_t)r;
        sorted[r] = d->instrs.data[ranks[r].index];
        uint64_t *slot = tk_hmap_slot(&d->by_id, sorted[r].id, 0, NULL);
        if (slot) *slot = r;
    }
    for (size_t e = 0; e < d->edges.len; e++) {
        d->edges.data[e].from = newpos[d->edges.data[e].from];
        d->edges.data[e].to = newpos[d->edges.data[e].to];
    }
    tk_free(d->instrs.data);
    d->instrs.data = sorted;
    d->instrs.cap = n;
    tk_free(ranks);
    tk_free(newpos);
    return TK_OK;
}

/* Turn the history edges into one port per instruction. */
static tk_status build_history_ports(tk_deps *d, tk_error *err)
{
    tk_status st = order_by_address(d, err);
    if (st != TK_OK) return st;
    if (d->edges.len > 1) qsort(d->edges.data, d->edges.len, sizeof *d->edges.data, cmp_edge);
    if (TK_VEC_RESERVE(&d->entries, d->edges.len) != 0 ||
        TK_VEC_RESERVE(&d->ports, d->instrs.len) != 0)
        return nomem(err);
    size_t e = 0;
    for (uint32_t i = 0; i < d->instrs.len; i++) {
        deps_instr *in = &d->instrs.data[i];
        in->def_seq = i;
        in->nports = 1;
        in->first_port = (uint32_t)d->ports.len;
        deps_port p = {d->entries.len, 0, 0};
        while (e < d->edges.len && d->edges.data[e].from == i) {
            const hist_edge *h = &d->edges.data[e++];
            tk_dep dep = {h->from_inst, h->to, h->to_inst};
            d->entries.data[d->entries.len++] = dep;
            p.count++;
        }
        d->ports.data[d->ports.len++] = p;
    }
    TK_VEC_FREE(&d->edges);
    return TK_OK;
}

/* Put instructions in definition order (the order of the blocks in the file). */
static tk_status order_by_definition(tk_deps *d, tk_error *err)
{
    size_t n = d->instrs.len;
    int identity = 1;
    for (size_t i = 0; i < n && identity; i++) identity = d->instrs.data[i].def_seq == i;
    if (identity) return TK_OK;
    uint32_t *newpos = tk_reallocarray(NULL, n, sizeof *newpos);
    deps_instr *sorted = tk_reallocarray(NULL, n, sizeof *sorted);
    if (!newpos || !sorted) {
        tk_free(newpos);
        tk_free(sorted);
        return nomem(err);
    }
    for (size_t i = 0; i < n; i++) {
        newpos[i] = d->instrs.data[i].def_seq;
        sorted[newpos[i]] = d->instrs.data[i];
    }
    for (size_t e = 0; e < d->entries.len; e++)
        d->entries.data[e].dep = newpos[d->entries.data[e].dep];
    tk_free(d->instrs.data);
    d->instrs.data = sorted;
    d->instrs.cap = n;
    for (size_t i = 0; i < n; i++) {
        uint64_t *slot = tk_hmap_slot(&d->by_id, sorted[i].id, 0, NULL);
        if (slot) *slot = i;
    }
    tk_free(newpos);
    return TK_OK;
}

tk_status tk_deps_finish(tk_deps *d, tk_error *err)
{
    tk_status st;
    if (d->finished) return TK_OK;
    if (d->form == TK_DEPS_HISTORY) {
        st = build_history_ports(d, err);
        if (st != TK_OK) return st;
    } else {
        for (uint32_t i = 0; i < d->instrs.len; i++)
            if (d->instrs.data[i].def_line == 0)
                return tk_error_set(err, TK_ERR_FORMAT,
                                    "instruction id %llu is used but never defined",
                                    (unsigned long long)d->instrs.data[i].id);
        st = order_by_definition(d, err);
        if (st != TK_OK) return st;
    }
    /* Sort ports that arrived out of order, mark dense ones, count instances. */
    for (size_t i = 0; i < d->instrs.len; i++) {
        deps_instr *in = &d->instrs.data[i];
        uint64_t max_plus1 = d->form == TK_DEPS_COMPREHENSIVE ? 1 : 0;
        for (uint32_t p = 0; p < in->nports; p++) {
            deps_port *port = &d->ports.data[in->first_port + p];
            if (port->count == 0) continue;
            tk_dep *e = d->entries.data + port->start;
            int sorted = 1, dense = 1;
            for (uint32_t j = 0; j < port->count; j++) {
                if (j > 0 && cmp_dep(&e[j - 1], &e[j]) > 0) sorted = 0;
                if (e[j].inst != j) dense = 0;
            }
            if (!sorted) qsort(e, port->count, sizeof *e, cmp_dep);
            port->dense = (uint32_t)dense;
            if (port->count > 0 && (uint64_t)e[port->count - 1].inst + 1 > max_plus1)
                max_plus1 = (uint64_t)e[port->count - 1].inst + 1;
        }
        for (uint32_t v = 0; v < in->nvalues; v++) {
            uint32_t k = d->value_insts.data[in->values_start + v];
            if ((uint64_t)k + 1 > max_plus1) max_plus1 = (uint64_t)k + 1;
        }
        in->ninstances = (uint32_t)max_plus1;
    }
    for (size_t e = 0; e < d->entries.len; e++) {
        const tk_dep *x = &d->entries.data[e];
        deps_instr *t = &d->instrs.data[x->dep];
        if (x->dep_inst >= t->ninstances) t->ninstances = x->dep_inst + 1;
    }
    uint64_t base = 0;
    for (size_t i = 0; i < d->instrs.len; i++) {
        d->instrs.data[i].node_base = base;
        base += d->instrs.data[i].ninstances;
    }
    if (base > 0xFFFFFFFEull)
        return tk_error_set(err, TK_ERR_LIMIT,
                            "%llu instruction instances: more than the limit of 4294967294",
                            (unsigned long long)base);
    d->node_count = base;
    for (size_t i = 0; i < d->instrs.len; i++) {
        uint64_t *slot = tk_hmap_slot(&d->by_addr, d->instrs.data[i].addr, i, NULL);
        if (!slot) return nomem(err);
    }
    d->current = TK_DEPS_NONE;
    d->finished = 1;
    return TK_OK;
}

/* ---- reading ---------------------------------------------------------------- */

tk_deps_form tk_deps_get_form(const tk_deps *d) { return d->form; }

uint32_t tk_deps_count(const tk_deps *d) { return (uint32_t)d->instrs.len; }

void tk_deps_get_instr(const tk_deps *d, uint32_t index, tk_deps_instr *out)
{
    const deps_instr *in = &d->instrs.data[index];
    out->id = in->id;
    out->addr = in->addr;
    out->file = in->file == TK_STR_NONE ? NULL : tk_strpool_get(&d->strings, in->file);
    out->function = in->function == TK_STR_NONE ? NULL : tk_strpool_get(&d->strings, in->function);
    out->line = in->line;
    out->nports = in->nports;
    out->ninstances = in->ninstances;
    out->nvalues = in->nvalues;
    out->has_values = in->has_values;
}

uint32_t tk_deps_find_id(const tk_deps *d, uint64_t id)
{
    uint64_t v;
    return tk_hmap_get(&d->by_id, id, &v) ? (uint32_t)v : TK_DEPS_NONE;
}

uint32_t tk_deps_find_addr(const tk_deps *d, uint64_t addr)
{
    uint64_t v;
    return tk_hmap_get(&d->by_addr, addr, &v) ? (uint32_t)v : TK_DEPS_NONE;
}

const char *tk_deps_source(const tk_deps *d, const tk_deps *statics, uint32_t instr, char *buf,
                           size_t size)
{
    tk_deps_instr in;
    tk_deps_get_instr(d, instr, &in);
    if (!in.file && statics) {
        uint32_t s = tk_deps_find_addr(statics, in.addr);
        if (s != TK_DEPS_NONE) tk_deps_get_instr(statics, s, &in);
    }
    if (in.file)
        snprintf(buf, size, "%s:%" PRIu32, in.file, in.line);
    else
        snprintf(buf, size, "0x%" PRIx64, in.addr);
    return buf;
}

tk_dep_kind tk_deps_port_kind(const tk_deps *d, uint32_t port)
{
    if (d->form == TK_DEPS_HISTORY) return TK_DEP_UNKNOWN;
    return port == 0 ? TK_DEP_CONTROL : TK_DEP_DATA;
}

void tk_deps_get_stats(const tk_deps *d, tk_deps_stats *out)
{
    memset(out, 0, sizeof *out);
    out->instructions = d->instrs.len;
    out->instances = d->node_count;
    out->values = d->values.len;
    out->ports = d->ports.len;
    for (size_t i = 0; i < d->instrs.len; i++) {
        const deps_instr *in = &d->instrs.data[i];
        for (uint32_t p = 0; p < in->nports; p++) {
            uint64_t n = d->ports.data[in->first_port + p].count;
            switch (tk_deps_port_kind(d, p)) {
            case TK_DEP_CONTROL: out->deps_control += n; break;
            case TK_DEP_DATA: out->deps_data += n; break;
            default: out->deps_unknown += n; break;
            }
        }
    }
}

size_t tk_deps_port_span(const tk_deps *d, uint32_t index, uint32_t port, const tk_dep **out)
{
    const deps_instr *in = &d->instrs.data[index];
    if (port >= in->nports) {
        *out = NULL;
        return 0;
    }
    const deps_port *p = &d->ports.data[in->first_port + port];
    *out = p->count ? d->entries.data + p->start : NULL;
    return p->count;
}

size_t tk_deps_port_find_span(const tk_deps *d, uint32_t index, uint32_t port, uint32_t inst,
                              const tk_dep **out)
{
    const deps_instr *in = &d->instrs.data[index];
    const deps_port *p = &d->ports.data[in->first_port + port];
    if (p->count == 0) {
        *out = NULL;
        return 0;
    }
    const tk_dep *e = d->entries.data + p->start;
    if (p->dense) {
        if (inst < p->count) {
            *out = &e[inst];
            return 1;
        }
        return 0;
    }
    size_t lo = 0, hi = p->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e[mid].inst < inst)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < p->count && e[end].inst == inst) end++;
    *out = e + lo;
    return end - lo;
}

size_t tk_deps_values_span(const tk_deps *d, uint32_t index, const uint32_t **insts,
                           const uint64_t **values)
{
    const deps_instr *in = &d->instrs.data[index];
    *insts = in->nvalues ? d->value_insts.data + in->values_start : NULL;
    *values = in->nvalues ? d->values.data + in->values_start : NULL;
    return in->nvalues;
}

size_t tk_deps_value_hex(const tk_deps *d, uint32_t index, size_t k, char *buf)
{
    static const char digits[] = "0123456789abcdef";
    const deps_instr *in = &d->instrs.data[index];
    uint64_t at = in->values_start + k, words[TK_DEPS_VALUE_WORDS] = {d->values.data[at]};
    size_t lo = 0, hi = d->wide.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->wide.data[mid].at < at)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < d->wide.len && d->wide.data[lo].at == at)
        memcpy(words + 1, d->wide.data[lo].hi, sizeof d->wide.data[lo].hi);
    size_t n = 0;
    int started = 0;
    for (int w = TK_DEPS_VALUE_WORDS - 1; w >= 0; w--)
        for (int sh = 60; sh >= 0; sh -= 4) {
            unsigned x = (unsigned)(words[w] >> sh) & 15u;
            started |= x != 0;
            if (started) buf[n++] = digits[x];
        }
    if (!n) buf[n++] = '0';
    buf[n] = 0;
    return n;
}

int tk_deps_value_at(const tk_deps *d, uint32_t index, uint32_t inst, uint64_t *value)
{
    const uint32_t *ks;
    const uint64_t *vs;
    size_t n = tk_deps_values_span(d, index, &ks, &vs);
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ks[mid] < inst)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < n && ks[lo] == inst) {
        *value = vs[lo];
        return 1;
    }
    return 0;
}

uint64_t tk_deps_node_count(const tk_deps *d) { return d->node_count; }

uint64_t tk_deps_node_base(const tk_deps *d, uint32_t index)
{
    return d->instrs.data[index].node_base;
}

tk_status tk_deps_build_reverse(tk_deps *d, tk_error *err)
{
    if (d->rev_offsets) return TK_OK;
    uint64_t *off = tk_calloc(d->node_count + 1, sizeof *off);
    tk_dep_use *rev = tk_reallocarray(NULL, d->entries.len ? d->entries.len : 1, sizeof *rev);
    if (!off || !rev) {
        tk_free(off);
        tk_free(rev);
        return nomem(err);
    }
    for (size_t e = 0; e < d->entries.len; e++) {
        const tk_dep *x = &d->entries.data[e];
        off[d->instrs.data[x->dep].node_base + x->dep_inst + 1]++;
    }
    for (uint64_t n = 0; n < d->node_count; n++) off[n + 1] += off[n];
    /* Fill in node order of the users so each list is sorted by (user, inst). */
    uint64_t *fill = tk_reallocarray(NULL, d->node_count ? d->node_count : 1, sizeof *fill);
    if (!fill) {
        tk_free(off);
        tk_free(rev);
        return nomem(err);
    }
    if (d->node_count) memcpy(fill, off, d->node_count * sizeof *fill);
    for (uint32_t i = 0; i < d->instrs.len; i++) {
        const deps_instr *in = &d->instrs.data[i];
        for (uint32_t p = 0; p < in->nports; p++) {
            const deps_port *port = &d->ports.data[in->first_port + p];
            for (uint32_t j = 0; j < port->count; j++) {
                const tk_dep *x = &d->entries.data[port->start + j];
                uint64_t node = d->instrs.data[x->dep].node_base + x->dep_inst;
                tk_dep_use u = {i, x->inst, p};
                rev[fill[node]++] = u;
            }
        }
    }
    tk_free(fill);
    d->rev_offsets = off;
    d->rev = rev;
    return TK_OK;
}

size_t tk_deps_users_span(const tk_deps *d, uint32_t index, uint32_t inst, const tk_dep_use **out)
{
    uint64_t node = d->instrs.data[index].node_base + inst;
    if (!d->rev_offsets || node >= d->node_count) {
        *out = NULL;
        return 0;
    }
    *out = d->rev + d->rev_offsets[node];
    return (size_t)(d->rev_offsets[node + 1] - d->rev_offsets[node]);
}

/* ---- the public reads: copies of the spans ------------------------------ */

/* Items first .. first + max - 1 of n items of size `size` at src, into out. */
static void copy_range(void *out, const void *src, size_t n, size_t first, size_t max, size_t size)
{
    if (!out || !src || first >= n) return;
    size_t k = n - first < max ? n - first : max;
    memcpy(out, (const char *)src + first * size, k * size);
}

size_t tk_deps_port_entries(const tk_deps *d, uint32_t index, uint32_t port, size_t first,
                            tk_dep *out, size_t max)
{
    const tk_dep *e;
    size_t n = tk_deps_port_span(d, index, port, &e);
    copy_range(out, e, n, first, max, sizeof *e);
    return n;
}

size_t tk_deps_port_find(const tk_deps *d, uint32_t index, uint32_t port, uint32_t inst,
                         tk_dep *out, size_t max)
{
    const tk_dep *e;
    size_t n = tk_deps_port_find_span(d, index, port, inst, &e);
    copy_range(out, e, n, 0, max, sizeof *e);
    return n;
}

size_t tk_deps_values(const tk_deps *d, uint32_t index, size_t first, uint32_t *insts,
                      uint64_t *values, size_t max)
{
    const uint32_t *ks;
    const uint64_t *vs;
    size_t n = tk_deps_values_span(d, index, &ks, &vs);
    copy_range(insts, ks, n, first, max, sizeof *ks);
    copy_range(values, vs, n, first, max, sizeof *vs);
    return n;
}

size_t tk_deps_users(const tk_deps *d, uint32_t index, uint32_t inst, size_t first, tk_dep_use *out,
                     size_t max)
{
    const tk_dep_use *u;
    size_t n = tk_deps_users_span(d, index, inst, &u);
    copy_range(out, u, n, first, max, sizeof *u);
    return n;
}
