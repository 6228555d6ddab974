/* Dynamic slicing (breadth-first over instance nodes, a bitset of visited
 * nodes), shortest dependence chains and longest chains over the deps model. */
#include "model/deps_internal.h"
#include "tracekit/slice.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/num.h"
#include "core/vec.h"

struct tk_slice {
    uint64_t *bits;
    uint64_t nodes;
    uint64_t size;
};

static tk_status nomem(tk_error *err) { return tk_error_set(err, TK_ERR_NOMEM, "out of memory"); }

static int kind_allowed(tk_dep_kind kind, tk_slice_deps deps)
{
    switch (deps) {
    case TK_SLICE_DATA: return kind == TK_DEP_DATA;
    case TK_SLICE_CONTROL: return kind == TK_DEP_CONTROL;
    default: return 1;
    }
}

static tk_status check_node(const tk_deps *d, tk_node n, tk_error *err)
{
    if (n.instr >= tk_deps_count(d)) return tk_error_set(err, TK_ERR_ARG, "no such instruction");
    tk_deps_instr in;
    tk_deps_get_instr(d, n.instr, &in);
    if (n.inst >= in.ninstances)
        return tk_error_set(err, TK_ERR_ARG,
                            "instance %u of instruction %llu does not exist (it has %u "
                            "instance%s, 0..%u)",
                            n.inst, (unsigned long long)in.id, in.ninstances,
                            in.ninstances == 1 ? "" : "s", in.ninstances ? in.ninstances - 1 : 0);
    return TK_OK;
}

static tk_status check_deps_kind(const tk_deps *d, tk_slice_deps deps, tk_error *err)
{
    if (deps != TK_SLICE_ALL && tk_deps_get_form(d) == TK_DEPS_HISTORY)
        return tk_error_set(err, TK_ERR_ARG,
                            "a limited-history trace does not say which dependences are data "
                            "and which control: only --deps all is possible");
    return TK_OK;
}

static int test_and_set(uint64_t *bits, uint64_t node)
{
    uint64_t mask = 1ull << (node & 63);
    if (bits[node >> 6] & mask) return 1;
    bits[node >> 6] |= mask;
    return 0;
}

typedef TK_VEC(tk_node) node_vec;

tk_status tk_slice_compute(tk_deps *d, const tk_node *criterion, size_t ncriterion,
                           const tk_slice_options *opt, tk_slice **out, tk_error *err)
{
    tk_slice_options o = TK_SLICE_OPTIONS_INIT;
    if (opt) o = *opt;
    tk_status st = check_deps_kind(d, o.deps, err);
    for (size_t c = 0; st == TK_OK && c < ncriterion; c++) st = check_node(d, criterion[c], err);
    if (st == TK_OK && o.forward) st = tk_deps_build_reverse(d, err);
    if (st != TK_OK) return st;
    tk_slice *s = tk_calloc(1, sizeof *s);
    uint64_t nodes = tk_deps_node_count(d);
    if (!s || !(s->bits = tk_calloc(nodes / 64 + 1, sizeof *s->bits))) {
        tk_free(s);
        return nomem(err);
    }
    s->nodes = nodes;
    node_vec queue = {0};
    for (size_t c = 0; c < ncriterion; c++) {
        tk_node n = criterion[c];
        if (!test_and_set(s->bits, tk_deps_node_base(d, n.instr) + n.inst) &&
            TK_VEC_PUSH(&queue, n) != 0)
            goto oom;
    }
    size_t head = 0;
    size_t level_end = queue.len;
    uint64_t depth = 0;
    while (head < queue.len) {
        if (head == level_end) {
            depth++;
            level_end = queue.len;
        }
        tk_node n = queue.data[head++];
        if (o.max_depth && depth >= o.max_depth) continue;
        if (!o.forward) {
            tk_deps_instr in;
            tk_deps_get_instr(d, n.instr, &in);
            for (uint32_t p = 0; p < in.nports; p++) {
                if (!kind_allowed(tk_deps_port_kind(d, p), o.deps)) continue;
                const tk_dep *e;
                size_t cnt = tk_deps_port_find_span(d, n.instr, p, n.inst, &e);
                for (size_t j = 0; j < cnt; j++) {
                    tk_node m = {e[j].dep, e[j].dep_inst};
                    if (!test_and_set(s->bits, tk_deps_node_base(d, m.instr) + m.inst) &&
                        TK_VEC_PUSH(&queue, m) != 0)
                        goto oom;
                }
            }
        } else {
            const tk_dep_use *u;
            size_t cnt = tk_deps_users_span(d, n.instr, n.inst, &u);
            for (size_t j = 0; j < cnt; j++) {
                if (!kind_allowed(tk_deps_port_kind(d, u[j].port), o.deps)) continue;
                tk_node m = {u[j].user, u[j].inst};
                if (!test_and_set(s->bits, tk_deps_node_base(d, m.instr) + m.inst) &&
                    TK_VEC_PUSH(&queue, m) != 0)
                    goto oom;
            }
        }
    }
    s->size = queue.len;
    TK_VEC_FREE(&queue);
    *out = s;
    return TK_OK;
oom:
    TK_VEC_FREE(&queue);
    tk_slice_free(s);
    return nomem(err);
}

void tk_slice_free(tk_slice *s)
{
    if (!s) return;
    tk_free(s->bits);
    tk_free(s);
}

uint64_t tk_slice_size(const tk_slice *s) { return s->size; }

int tk_slice_contains(const tk_slice *s, const tk_deps *d, uint32_t instr, uint32_t inst)
{
    uint64_t node = tk_deps_node_base(d, instr) + inst;
    if (node >= s->nodes) return 0;
    return (int)((s->bits[node >> 6] >> (node & 63)) & 1);
}

uint64_t tk_slice_count_instr(const tk_slice *s, const tk_deps *d, uint32_t instr)
{
    tk_deps_instr in;
    tk_deps_get_instr(d, instr, &in);
    uint64_t base = tk_deps_node_base(d, instr), count = 0;
    for (uint64_t k = 0; k < in.ninstances; k++) {
        uint64_t node = base + k;
        count += (s->bits[node >> 6] >> (node & 63)) & 1;
    }
    return count;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted distinct strings tmp[0..n) (each tk_free'd here, tmp too) packed as one block:
 * the pointers, then the strings. NULL when out of memory. */
static char **pack_lines(char **tmp, size_t n, size_t *nout)
{
    qsort(tmp, n, sizeof *tmp, cmp_str);
    size_t u = 0, bytes = 0;
    for (size_t j = 0; j < n; j++) {
        if (u > 0 && strcmp(tmp[u - 1], tmp[j]) == 0) {
            tk_free(tmp[j]);
            continue;
        }
        bytes += strlen(tmp[j]) + 1;
        tmp[u++] = tmp[j];
    }
    char **out = tk_malloc((u ? u : 1) * sizeof *out + bytes);
    char *text = out ? (char *)(out + (u ? u : 1)) : NULL;
    for (size_t j = 0; j < u; j++) {
        if (out) {
            size_t len = strlen(tmp[j]) + 1;
            memcpy(text, tmp[j], len);
            out[j] = text;
            text += len;
        }
        tk_free(tmp[j]);
    }
    tk_free(tmp);
    *nout = u;
    return out;
}

tk_status tk_slice_lines(const tk_slice *s, const tk_deps *d, const tk_deps *statics, char ***lines,
                         size_t *n, tk_error *err)
{
    *lines = NULL;
    *n = 0;
    uint32_t count = tk_deps_count(d);
    char **tmp = tk_calloc(count ? count : 1, sizeof *tmp);
    if (!tmp) return nomem(err);
    size_t k = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (tk_slice_count_instr(s, d, i) == 0) continue;
        char buf[512];
        if (!(tmp[k++] = tk_strdup(tk_deps_source(d, statics, i, buf, sizeof buf)))) {
            while (k > 0) tk_free(tmp[--k]);
            tk_free(tmp);
            return nomem(err);
        }
    }
    *lines = pack_lines(tmp, k, n);
    return *lines ? TK_OK : nomem(err);
}

/* ---- node numbers back to (instr, inst) ------------------------------------ */

static tk_node node_of(const tk_deps *d, uint64_t node)
{
    uint32_t lo = 0, hi = tk_deps_count(d);
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (tk_deps_node_base(d, mid) <= node)
            lo = mid;
        else
            hi = mid;
    }
    /* Skip instructions with no instances sharing the same base. */
    while (lo + 1 < tk_deps_count(d) && tk_deps_node_base(d, lo + 1) <= node) lo++;
    tk_node n = {lo, (uint32_t)(node - tk_deps_node_base(d, lo))};
    return n;
}

/* ---- shortest chain ---------------------------------------------------------- */

#define NO_PARENT UINT32_MAX

/* BFS from `from` along "depends upon" until `to`; parent[] holds the node
 * reached from and pport[] the port used. 1 when found. */
static int bfs_chain(const tk_deps *d, tk_node from, tk_node to, tk_slice_deps deps,
                     uint32_t *parent, uint32_t *pport, uint32_t *queue, int *oom)
{
    uint64_t nodes = tk_deps_node_count(d);
    for (uint64_t i = 0; i < nodes; i++) parent[i] = NO_PARENT;
    uint64_t src = tk_deps_node_base(d, from.instr) + from.inst;
    uint64_t dst = tk_deps_node_base(d, to.instr) + to.inst;
    size_t head = 0, tail = 0;
    parent[src] = (uint32_t)src;
    queue[tail++] = (uint32_t)src;
    (void)oom;
    while (head < tail) {
        uint64_t node = queue[head++];
        if (node == dst) return 1;
        tk_node n = node_of(d, node);
        tk_deps_instr in;
        tk_deps_get_instr(d, n.instr, &in);
        for (uint32_t p = 0; p < in.nports; p++) {
            if (!kind_allowed(tk_deps_port_kind(d, p), deps)) continue;
            const tk_dep *e;
            size_t cnt = tk_deps_port_find_span(d, n.instr, p, n.inst, &e);
            for (size_t j = 0; j < cnt; j++) {
                uint64_t m = tk_deps_node_base(d, e[j].dep) + e[j].dep_inst;
                if (parent[m] != NO_PARENT) continue;
                parent[m] = (uint32_t)node;
                pport[m] = p;
                queue[tail++] = (uint32_t)m;
            }
        }
    }
    return 0;
}

tk_status tk_chain_find(const tk_deps *d, tk_node from, tk_node to, tk_slice_deps deps,
                        tk_chain_step **steps, size_t *nsteps, int *reversed, tk_error *err)
{
    tk_status st = check_deps_kind(d, deps, err);
    if (st == TK_OK) st = check_node(d, from, err);
    if (st == TK_OK) st = check_node(d, to, err);
    if (st != TK_OK) return st;
    uint64_t nodes = tk_deps_node_count(d);
    uint32_t *parent = tk_reallocarray(NULL, nodes, sizeof *parent);
    uint32_t *pport = tk_reallocarray(NULL, nodes, sizeof *pport);
    uint32_t *queue = tk_reallocarray(NULL, nodes, sizeof *queue);
    if (!parent || !pport || !queue) {
        tk_free(parent);
        tk_free(pport);
        tk_free(queue);
        return nomem(err);
    }
    int oom = 0;
    *reversed = 0;
    int found = bfs_chain(d, from, to, deps, parent, pport, queue, &oom);
    if (!found) {
        tk_node t = from;
        from = to;
        to = t;
        found = bfs_chain(d, from, to, deps, parent, pport, queue, &oom);
        *reversed = found;
    }
    st = TK_END;
    if (found) {
        uint64_t src = tk_deps_node_base(d, from.instr) + from.inst;
        uint64_t node = tk_deps_node_base(d, to.instr) + to.inst;
        size_t len = 1;
        for (uint64_t m = node; m != src; m = parent[m]) len++;
        tk_chain_step *out = tk_reallocarray(NULL, len, sizeof *out);
        if (!out) {
            st = nomem(err);
        } else {
            size_t k = len;
            for (uint64_t m = node;; m = parent[m]) {
                tk_node n = node_of(d, m);
                out[--k] = (tk_chain_step){n.instr, n.inst, m == src ? 0 : pport[m]};
                if (m == src) break;
            }
            *steps = out;
            *nsteps = len;
            st = TK_OK;
        }
    }
    tk_free(parent);
    tk_free(pport);
    tk_free(queue);
    return st;
}

void tk_chain_free(tk_chain_step *steps) { tk_free(steps); }

/* ---- longest chains ---------------------------------------------------------- */

#define LEN_ACTIVE UINT32_MAX

typedef struct dfs_frame {
    uint32_t node;
    uint32_t port;
    uint32_t entry;
    uint32_t ndeps; /* the dependences of port, found once per port */
    uint32_t looked_up; /* deps / ndeps hold port's */
    const tk_dep *deps;
} dfs_frame;

typedef TK_VEC(dfs_frame) dfs_stack;

/* len[node] = nodes in the longest chain starting at node; next[node] = the
 * node after it in that chain (or itself). Iterative post-order DFS. */
static tk_status longest_from(const tk_deps *d, uint32_t root, uint32_t *len, uint32_t *next,
                              dfs_stack *stack, int *cyclic, tk_error *err)
{
    stack->len = 0;
    dfs_frame f0 = {root, 0, 0, 0, 0, NULL};
    if (TK_VEC_PUSH(stack, f0) != 0) return nomem(err);
    len[root] = LEN_ACTIVE;
    next[root] = root;
    while (stack->len > 0) {
        dfs_frame *f = &stack->data[stack->len - 1];
        tk_node n = node_of(d, f->node);
        tk_deps_instr in;
        tk_deps_get_instr(d, n.instr, &in);
        int pushed = 0;
        while (!pushed && f->port < in.nports) {
            if (!f->looked_up) { /* a node resumes once per dependence: look the port up once */
                f->ndeps = (uint32_t)tk_deps_port_find_span(d, n.instr, f->port, n.inst, &f->deps);
                f->looked_up = 1;
            }
            if (f->entry >= f->ndeps) {
                f->port++;
                f->entry = 0;
                f->looked_up = 0;
                continue;
            }
            const tk_dep *e = f->deps;
            uint32_t m = (uint32_t)(tk_deps_node_base(d, e[f->entry].dep) + e[f->entry].dep_inst);
            f->entry++;
            if (len[m] == LEN_ACTIVE) {
                *cyclic = 1;
                continue;
            }
            if (len[m] == 0) {
                len[m] = LEN_ACTIVE;
                next[m] = m;
                dfs_frame nf = {m, 0, 0, 0, 0, NULL};
                if (TK_VEC_PUSH(stack, nf) != 0) return nomem(err);
                pushed = 1;
            }
        }
        if (pushed) continue;
        /* All dependences done: len = 1 + max over them. */
        uint32_t node = f->node, best = 0, best_node = node;
        for (uint32_t p = 0; p < in.nports; p++) {
            const tk_dep *e;
            size_t cnt = tk_deps_port_find_span(d, n.instr, p, n.inst, &e);
            for (size_t j = 0; j < cnt; j++) {
                uint32_t m = (uint32_t)(tk_deps_node_base(d, e[j].dep) + e[j].dep_inst);
                if (len[m] != LEN_ACTIVE && len[m] > best) {
                    best = len[m];
                    best_node = m;
                }
            }
        }
        len[node] = best + 1;
        next[node] = best_node;
        stack->len--;
    }
    return TK_OK;
}

tk_status tk_chain_longest(const tk_deps *d, size_t max, tk_chain_summary *out, size_t *nout,
                           int *cyclic, tk_error *err)
{
    uint64_t nodes = tk_deps_node_count(d);
    *nout = 0;
    *cyclic = 0;
    uint32_t *len = tk_calloc(nodes ? nodes : 1, sizeof *len);
    uint32_t *next = tk_reallocarray(NULL, nodes ? nodes : 1, sizeof *next);
    dfs_stack stack = {0};
    tk_status st = TK_OK;
    if (!len || !next) {
        st = nomem(err);
        goto done;
    }
    for (uint64_t node = 0; node < nodes && st == TK_OK; node++)
        if (len[node] == 0) st = longest_from(d, (uint32_t)node, len, next, &stack, cyclic, err);
    if (st != TK_OK) goto done;
    /* Best start per instruction, then the `max` best instructions. */
    uint32_t ninstr = tk_deps_count(d);
    for (uint32_t i = 0; i < ninstr; i++) {
        tk_deps_instr in;
        tk_deps_get_instr(d, i, &in);
        uint64_t base = tk_deps_node_base(d, i);
        uint64_t best_node = 0, best = 0;
        for (uint64_t k = 0; k < in.ninstances; k++)
            if (len[base + k] > best) {
                best = len[base + k];
                best_node = base + k;
            }
        if (best == 0) continue;
        size_t pos = *nout;
        while (pos > 0 && out[pos - 1].length < best) pos--;
        if (pos >= max) continue;
        size_t last = *nout < max ? *nout : max - 1;
        memmove(out + pos + 1, out + pos, (last - pos) * sizeof *out);
        uint64_t end = best_node;
        while (next[end] != end) end = next[end];
        out[pos].start = node_of(d, best_node);
        out[pos].end = node_of(d, end);
        out[pos].length = best;
        if (*nout < max) (*nout)++;
    }
done:
    tk_free(len);
    tk_free(next);
    TK_VEC_FREE(&stack);
    return st;
}

/* ---- criteria ---------------------------------------------------------------- */

void tk_nodes_free(tk_node *nodes) { tk_free(nodes); }

/* All of [s, e) as a decimal (base 10) or hex (16, no prefix) number: 0, or
 * -1 when it is not one, -2 when over 64 bits. */
static int parse_u64_range(const char *s, const char *e, int base, uint64_t *out)
{
    unsigned syntax = base == 16 ? TK_NUM_BARE_HEX : TK_NUM_DEC;
    tk_status st = tk_num_parse(s, (size_t)(e - s), syntax, out);
    return st == TK_OK ? 0 : st == TK_ERR_LIMIT ? -2 : -1;
}

static int file_matches(const char *file, const char *want, size_t want_len)
{
    if (!file) return 0;
    size_t n = strlen(file);
    if (n == want_len && memcmp(file, want, n) == 0) return 1;
    return n > want_len && file[n - want_len - 1] == '/' &&
           memcmp(file + n - want_len, want, want_len) == 0;
}

static tk_status one_node(const tk_deps *d, uint32_t instr, int has_inst, uint64_t inst,
                          const char *text, tk_node **nodes, size_t *n, tk_error *err)
{
    if (instr == TK_DEPS_NONE)
        return tk_error_set(err, TK_ERR_ARG, "criterion '%s': no such instruction", text);
    tk_deps_instr in;
    tk_deps_get_instr(d, instr, &in);
    if (!has_inst) inst = in.ninstances ? in.ninstances - 1 : 0;
    if (inst >= in.ninstances)
        return tk_error_set(err, TK_ERR_ARG,
                            "criterion '%s': instance %llu does not exist (the instruction has "
                            "%u instance%s, 0..%u)",
                            text, (unsigned long long)inst, in.ninstances,
                            in.ninstances == 1 ? "" : "s", in.ninstances ? in.ninstances - 1 : 0);
    *nodes = tk_malloc(sizeof **nodes);
    if (!*nodes) return nomem(err);
    (*nodes)[0] = (tk_node){instr, (uint32_t)inst};
    *n = 1;
    return TK_OK;
}

int tk_criterion_has_instance(const char *text)
{
    const char *end = text + strlen(text);
    uint64_t id;
    if (end - text > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        return strchr(text, '#') != NULL; /* 0xADDR#INSTANCE */
    const char *colon = strrchr(text, ':');
    if (parse_u64_range(text, colon ? colon : end, 10, &id) != -1)
        return colon != NULL; /* ID:INSTANCE */
    return strrchr(text, '#') != NULL; /* FILE:LINE#INSTANCE */
}

tk_status tk_criterion_parse(const tk_deps *d, const char *text, tk_node **nodes, size_t *n,
                             tk_error *err)
{
    const char *end = text + strlen(text);
    *nodes = NULL;
    *n = 0;
    uint64_t id, inst = 0;
    if (end - text > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        const char *hash = strchr(text, '#');
        const char *ae = hash ? hash : end;
        if (parse_u64_range(text + 2, ae, 16, &id) != 0 ||
            (hash && parse_u64_range(hash + 1, end, 10, &inst) != 0))
            return tk_error_set(err, TK_ERR_ARG,
                                "criterion '%s': expected 0xADDR or 0xADDR#INSTANCE", text);
        return one_node(d, tk_deps_find_addr(d, id), hash != NULL, inst, text, nodes, n, err);
    }
    const char *colon = strrchr(text, ':');
    const char *ie = colon ? colon : end;
    int idr = parse_u64_range(text, ie, 10, &id);
    if (idr == -2) /* all digits: an id, not a file name */
        return tk_error_set(err, TK_ERR_ARG, "criterion '%s': the id does not fit in 64 bits",
                            text);
    if (idr == 0) {
        if (colon && parse_u64_range(colon + 1, end, 10, &inst) != 0)
            return tk_error_set(err, TK_ERR_ARG, "criterion '%s': expected ID:INSTANCE", text);
        return one_node(d, tk_deps_find_id(d, id), colon != NULL, inst, text, nodes, n, err);
    }
    /* FILE:LINE[#INSTANCE] */
    const char *hash = strrchr(text, '#');
    uint64_t line;
    if (!colon || (hash && hash < colon) ||
        parse_u64_range(colon + 1, hash ? hash : end, 10, &line) != 0 ||
        (hash && parse_u64_range(hash + 1, end, 10, &inst) != 0))
        return tk_error_set(err, TK_ERR_ARG,
                            "criterion '%s': expected ID:INSTANCE, 0xADDR#INSTANCE or "
                            "FILE:LINE[#INSTANCE]",
                            text);
    TK_VEC(tk_node) out = {0};
    uint32_t count = tk_deps_count(d);
    int missing_instance = 0;
    for (uint32_t i = 0; i < count; i++) {
        tk_deps_instr in;
        tk_deps_get_instr(d, i, &in);
        if (in.line != line || !file_matches(in.file, text, (size_t)(colon - text))) continue;
        uint64_t k = hash ? inst : (in.ninstances ? in.ninstances - 1 : 0);
        if (k >= in.ninstances) {
            missing_instance = 1;
            continue;
        }
        tk_node nd = {i, (uint32_t)k};
        if (TK_VEC_PUSH(&out, nd) != 0) {
            TK_VEC_FREE(&out);
            return nomem(err);
        }
    }
    if (out.len == 0)
        return tk_error_set(err, TK_ERR_ARG, "criterion '%s': %s", text,
                            missing_instance ? "no instruction of that line has that instance"
                                             : "no instruction at that source line");
    *nodes = out.data;
    *n = out.len;
    return TK_OK;
}
