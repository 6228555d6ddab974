/* DCFG-Trace: transition-table validation and compilation (spec 3.5).
 *
 * Rules checked per CURRENT_EDGE_ID: codes are '0'/'1' strings of at most 32
 * bits; unique as left-aligned 32-bit values; prefix-free; "" only for a
 * sole transition; NEXT_EDGE_IDS not empty. The codes of an edge are put in a
 * binary trie which is then flattened into lookup tables of up to
 * DT_LOOKUP_BITS bits per level. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/vec.h"
#include "formats/dcfg_trace/dt_internal.h"

typedef struct code_ref {
    uint64_t current;
    uint32_t value; /* left-aligned 32-bit value */
    uint8_t len;
    uint32_t row;
} code_ref;

typedef struct trie_node {
    uint32_t child[2]; /* node index + 1, 0 = none */
    uint32_t row; /* row index + 1 for a leaf */
    uint8_t height; /* longest path below */
} trie_node;

static int cmp_code(const void *a, const void *b)
{
    const code_ref *x = a, *y = b;
    if (x->current != y->current) return x->current < y->current ? -1 : 1;
    if (x->value != y->value) return x->value < y->value ? -1 : 1;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return x->row < y->row ? -1 : (x->row > y->row);
}

static uint64_t mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
}

uint32_t tk_dt_table_state_of(const dt_table *t, uint64_t edge)
{
    if (t->map_cap == 0) return UINT32_MAX;
    size_t mask = t->map_cap - 1;
    for (size_t i = mix(edge) & mask;; i = (i + 1) & mask) {
        if (t->map_keys[i] == 0) return UINT32_MAX;
        if (t->map_keys[i] == edge + 1) return t->map_vals[i];
    }
}

static void map_put(dt_table *t, uint64_t edge, uint32_t state)
{
    size_t mask = t->map_cap - 1;
    size_t i = mix(edge) & mask;
    while (t->map_keys[i] != 0 && t->map_keys[i] != edge + 1) i = (i + 1) & mask;
    t->map_keys[i] = edge + 1;
    t->map_vals[i] = state;
}

void tk_dt_table_free(dt_table *t)
{
    if (!t) return;
    tk_free(t->states);
    tk_free(t->entries);
    tk_free(t->multi_edges);
    tk_free(t->map_keys);
    tk_free(t->map_vals);
    memset(t, 0, sizeof *t);
}

static void code_text(const dt_row *r, char *buf, size_t size)
{
    size_t n = r->code_len < size - 1 ? r->code_len : size - 1;
    memcpy(buf, r->code, n);
    buf[n] = 0;
}

typedef struct builder {
    dt_table *t;
    size_t cap_states, cap_entries, cap_multi;
    trie_node *nodes;
    size_t nnodes, cap_nodes;
} builder;

static uint32_t new_state(builder *b, uint32_t edge, uint8_t depth)
{
    dt_table *t = b->t;
    if (tk_vec_reserve_((void **)&t->states, &b->cap_states, t->nstates + 1, sizeof(dt_state)))
        return UINT32_MAX;
    dt_state *s = &t->states[t->nstates];
    memset(s, 0, sizeof *s);
    s->edge = edge;
    s->depth = depth;
    return (uint32_t)t->nstates++;
}

/* Fill the lookup table of `state` from trie node `root`. Sub-tables are
 * created for deeper codes; done with an explicit work list (no recursion). */
static tk_status fill_tables(builder *b, uint32_t state, uint32_t root, const dt_row *rows,
                             tk_error *err)
{
    typedef struct work {
        uint32_t state, node;
    } work;
    work *todo = NULL;
    size_t ntodo = 0, cap = 0;
    tk_status st = TK_OK;
    if (tk_vec_reserve_((void **)&todo, &cap, 1, sizeof(work)))
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    todo[ntodo++] = (work){state, root};
    while (ntodo > 0) {
        work w = todo[--ntodo];
        dt_table *t = b->t;
        unsigned k = b->nodes[w.node].height;
        if (k > DT_LOOKUP_BITS) k = DT_LOOKUP_BITS;
        size_t n = (size_t)1 << k;
        if (tk_vec_reserve_((void **)&t->entries, &b->cap_entries, t->nentries + n,
                            sizeof(dt_entry))) {
            st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
            break;
        }
        t->states[w.state].first = (uint32_t)t->nentries;
        t->states[w.state].bits = (uint8_t)k;
        size_t base = t->nentries;
        t->nentries += n;
        for (size_t v = 0; v < n; v++) {
            dt_entry *e = &t->entries[base + v];
            uint32_t node = w.node;
            unsigned used = 0;
            while (b->nodes[node].row == 0 && used < k) {
                unsigned bit = (unsigned)(v >> (k - 1 - used)) & 1u;
                uint32_t c = b->nodes[node].child[bit];
                if (c == 0) break;
                node = c - 1;
                used++;
            }
            e->len = (uint8_t)used;
            if (b->nodes[node].row != 0) {
                const dt_row *r = &rows[b->nodes[node].row - 1];
                e->kind = DT_ENTRY_TRANSITION;
                e->nedges = (uint16_t)r->next_count;
                /* next state and edge are resolved after all states exist */
                e->next = b->nodes[node].row - 1; /* row index for now */
                e->edge = 0;
            } else if (used == k && k > 0) {
                /* a longer code continues below this node: sub-table */
                uint32_t sub =
                    new_state(b, t->states[w.state].edge, (uint8_t)(t->states[w.state].depth + k));
                if (sub == UINT32_MAX ||
                    tk_vec_reserve_((void **)&todo, &cap, ntodo + 1, sizeof(work))) {
                    st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
                    break;
                }
                e = &b->t->entries[base + v];
                e->kind = DT_ENTRY_SUBTABLE;
                e->next = sub;
                e->nedges = 0;
                todo[ntodo++] = (work){sub, node};
            } else {
                e->kind = DT_ENTRY_NONE;
                e->next = 0;
                e->nedges = 0;
                e->len = (uint8_t)(used + 1); /* bits looked at before the pattern failed */
            }
        }
        if (st != TK_OK) break;
    }
    tk_free(todo);
    return st;
}

static tk_status nomem(tk_error *err) { return tk_error_set(err, TK_ERR_NOMEM, "out of memory"); }

/* 1. each code on its own: into refs[i] (current edge, left-aligned value,
 * length, row), checked for its length, digits and NEXT_EDGE_IDS count. */
static tk_status read_codes(const dt_row *rows, size_t nrows, code_ref *refs, int64_t *err_offset,
                            tk_error *err)
{
    for (size_t i = 0; i < nrows; i++) {
        const dt_row *r = &rows[i];
        if (r->code_len > TK_DCFG_TRACE_MAX_CODE_BITS) {
            *err_offset = r->code_offset;
            return tk_error_set(err, TK_ERR_FORMAT,
                                "transition code of edge %llu has %u bits; at most %d are allowed",
                                (unsigned long long)r->current, r->code_len,
                                TK_DCFG_TRACE_MAX_CODE_BITS);
        }
        uint32_t v = 0;
        for (uint32_t j = 0; j < r->code_len; j++) {
            char c = r->code[j];
            if (c != '0' && c != '1') {
                *err_offset = r->code_offset + j;
                return tk_error_set(err, TK_ERR_FORMAT,
                                    "transition code of edge %llu: expected '0' or '1', found '%c'",
                                    (unsigned long long)r->current, c);
            }
            v = (v << 1) | (uint32_t)(c - '0');
        }
        if (r->code_len > 0 && r->code_len < 32) v <<= 32 - r->code_len;
        if (r->next_count == 0) {
            *err_offset = r->row_offset;
            return tk_error_set(err, TK_ERR_FORMAT, "NEXT_EDGE_IDS of edge %llu is empty",
                                (unsigned long long)r->current);
        }
        if (r->next_count > UINT16_MAX) {
            *err_offset = r->row_offset;
            return tk_error_set(err, TK_ERR_LIMIT,
                                "NEXT_EDGE_IDS of edge %llu holds %u edges (limit %u)",
                                (unsigned long long)r->current, r->next_count, UINT16_MAX);
        }
        refs[i] = (code_ref){r->current, v, (uint8_t)r->code_len, (uint32_t)i};
    }
    return TK_OK;
}

/* Two neighbours a, n of one edge's sorted codes: distinct, and a no prefix
 * of n. */
static tk_status check_pair(const dt_row *rows, const code_ref *a, const code_ref *n,
                            int64_t *err_offset, tk_error *err)
{
    char c1[40], c2[40];
    const dt_row *ra = &rows[a->row], *rn = &rows[n->row];
    const dt_row *later = a->row > n->row ? ra : rn;
    code_text(ra, c1, sizeof c1);
    code_text(rn, c2, sizeof c2);
    if (a->value == n->value && a->len == n->len) {
        *err_offset = later->code_offset;
        return tk_error_set(err, TK_ERR_FORMAT, "duplicate transition code \"%s\" for edge %llu",
                            c1, (unsigned long long)a->current);
    }
    if (a->value == n->value) {
        *err_offset = later->code_offset;
        return tk_error_set(err, TK_ERR_FORMAT,
                            "transition codes \"%s\" and \"%s\" of edge %llu are equal as "
                            "left-aligned 32-bit values",
                            c1, c2, (unsigned long long)a->current);
    }
    /* a sorts before n: a is a prefix of n when n's top a->len bits equal a */
    uint32_t mask = a->len == 0 ? 0 : (uint32_t)(0xffffffffu << (32 - a->len));
    if (a->len < n->len && (n->value & mask) == a->value) {
        *err_offset = later->code_offset;
        return tk_error_set(err, TK_ERR_FORMAT,
                            "transition codes of edge %llu are not prefix-free: \"%s\" is a "
                            "prefix of \"%s\"",
                            (unsigned long long)a->current, c1, c2);
    }
    return TK_OK;
}

/* 2. per edge (refs sorted): "" alone, unique left-aligned values,
 * prefix-free; *ngroups gets the number of edges, t->max_code_len is set. */
static tk_status check_groups(dt_table *t, const dt_row *rows, const code_ref *refs, size_t nrows,
                              size_t *ngroups, int64_t *err_offset, tk_error *err)
{
    *ngroups = 0;
    for (size_t i = 0; i < nrows;) {
        size_t j = i;
        while (j < nrows && refs[j].current == refs[i].current) j++;
        (*ngroups)++;
        for (size_t k = i; k < j; k++) {
            const dt_row *r = &rows[refs[k].row];
            if (refs[k].len == 0 && j - i > 1) {
                *err_offset = r->code_offset;
                return tk_error_set(err, TK_ERR_FORMAT,
                                    "edge %llu has %zu transitions; the empty code \"\" is only "
                                    "legal for a sole transition",
                                    (unsigned long long)r->current, j - i);
            }
            tk_status st =
                k + 1 < j ? check_pair(rows, &refs[k], &refs[k + 1], err_offset, err) : TK_OK;
            if (st != TK_OK) return st;
            if (refs[k].len > t->max_code_len) t->max_code_len = refs[k].len;
        }
        i = j;
    }
    return TK_OK;
}

/* The trie of the codes refs[i .. j) of one edge, in b->nodes. */
static tk_status build_trie(builder *b, const code_ref *refs, size_t i, size_t j, tk_error *err)
{
    b->nnodes = 0;
    if (tk_vec_reserve_((void **)&b->nodes, &b->cap_nodes, 1, sizeof(trie_node))) return nomem(err);
    memset(&b->nodes[0], 0, sizeof b->nodes[0]);
    b->nnodes = 1;
    for (size_t k = i; k < j; k++) {
        uint32_t node = 0;
        for (unsigned d = 0; d < refs[k].len; d++) {
            unsigned bit = (refs[k].value >> (31 - d)) & 1u;
            if (b->nodes[node].height < refs[k].len - d)
                b->nodes[node].height = (uint8_t)(refs[k].len - d);
            if (b->nodes[node].child[bit] == 0) {
                if (tk_vec_reserve_((void **)&b->nodes, &b->cap_nodes, b->nnodes + 1,
                                    sizeof(trie_node)))
                    return nomem(err);
                memset(&b->nodes[b->nnodes], 0, sizeof b->nodes[0]);
                b->nodes[node].child[bit] = (uint32_t)++b->nnodes;
            }
            node = b->nodes[node].child[bit] - 1;
        }
        b->nodes[node].row = refs[k].row + 1;
    }
    return TK_OK;
}

/* 3 and 4: the edge -> state map (one state per CURRENT_EDGE_ID and per
 * target-only edge), then the tries and lookup tables, one group at a time. */
static tk_status build_states(builder *b, const dt_row *rows, const code_ref *refs, size_t nrows,
                              size_t ngroups, tk_error *err)
{
    dt_table *t = b->t;
    size_t want = 16;
    size_t nkeys = ngroups + nrows; /* currents + at most one target-only edge per row */
    while (want < nkeys * 2) want *= 2;
    t->map_cap = want;
    t->map_keys = tk_calloc(want, sizeof *t->map_keys);
    t->map_vals = tk_malloc(want * sizeof *t->map_vals);
    if (!t->map_keys || !t->map_vals) return nomem(err);
    for (size_t i = 0; i < nrows;) {
        size_t j = i;
        while (j < nrows && refs[j].current == refs[i].current) j++;
        uint32_t s = new_state(b, (uint32_t)refs[i].current, 0);
        if (s == UINT32_MAX) return nomem(err);
        map_put(t, refs[i].current, s);
        tk_status st = build_trie(b, refs, i, j, err);
        if (st == TK_OK) st = fill_tables(b, s, 0, rows, err);
        if (st != TK_OK) return st;
        i = j;
    }
    return TK_OK;
}

/* The state of edge `last` (the last edge a row emits): a dead-end state
 * when it is only a target. */
static tk_status target_state(builder *b, uint32_t last, uint32_t *state, tk_error *err)
{
    dt_table *t = b->t;
    uint32_t s = tk_dt_table_state_of(t, last);
    if (s == UINT32_MAX) {
        s = new_state(b, last, 0);
        if (s == UINT32_MAX || tk_vec_reserve_((void **)&t->entries, &b->cap_entries,
                                               t->nentries + 1, sizeof(dt_entry)))
            return nomem(err);
        t->states[s].dead = 1;
        t->states[s].first = (uint32_t)t->nentries;
        dt_entry *none = &t->entries[t->nentries++];
        memset(none, 0, sizeof *none);
        none->kind = DT_ENTRY_NONE;
        map_put(t, last, s);
    }
    *state = s;
    return TK_OK;
}

/* 5. resolve transitions: the edges each row emits and the state of the
 * last one, into the entries. */
static tk_status resolve_rows(builder *b, const dt_row *rows, size_t nrows, const uint32_t *pool,
                              tk_error *err)
{
    dt_table *t = b->t;
    uint32_t *row_edge = NULL, *row_state = NULL;
    tk_status st = TK_OK;
    if (nrows > 0 && (!(row_edge = tk_malloc(nrows * sizeof *row_edge)) ||
                      !(row_state = tk_malloc(nrows * sizeof *row_state))))
        st = nomem(err);
    for (size_t i = 0; i < nrows && st == TK_OK; i++) {
        const dt_row *r = &rows[i];
        const uint32_t *next = pool + r->next_first;
        st = target_state(b, next[r->next_count - 1], &row_state[i], err);
        if (st != TK_OK) break;
        if (r->next_count == 1) {
            row_edge[i] = next[0];
        } else if (tk_vec_reserve_((void **)&t->multi_edges, &b->cap_multi,
                                   t->nmulti + r->next_count, sizeof(uint32_t))) {
            st = nomem(err);
        } else {
            row_edge[i] = (uint32_t)t->nmulti;
            memcpy(t->multi_edges + t->nmulti, next, r->next_count * sizeof(uint32_t));
            t->nmulti += r->next_count;
        }
    }
    for (size_t i = 0; i < t->nentries && st == TK_OK; i++) {
        dt_entry *e = &t->entries[i];
        if (e->kind != DT_ENTRY_TRANSITION) continue;
        uint32_t row = e->next;
        e->edge = row_edge[row];
        e->next = row_state[row];
    }
    tk_free(row_edge);
    tk_free(row_state);
    return st;
}

tk_status tk_dt_table_build(dt_table *t, const dt_row *rows, size_t nrows, const uint32_t *pool,
                            int64_t *err_offset, tk_error *err)
{
    memset(t, 0, sizeof *t);
    t->nrows = nrows;
    *err_offset = -1;
    builder b;
    memset(&b, 0, sizeof b);
    b.t = t;
    code_ref *refs = NULL;
    if (nrows > 0 && !(refs = tk_malloc(nrows * sizeof *refs))) return nomem(err);
    size_t ngroups = 0;
    tk_status st = read_codes(rows, nrows, refs, err_offset, err);
    if (st == TK_OK && nrows > 0) qsort(refs, nrows, sizeof *refs, cmp_code);
    if (st == TK_OK) st = check_groups(t, rows, refs, nrows, &ngroups, err_offset, err);
    if (st == TK_OK) st = build_states(&b, rows, refs, nrows, ngroups, err);
    if (st == TK_OK) st = resolve_rows(&b, rows, nrows, pool, err);
    tk_free(refs);
    tk_free(b.nodes);
    if (st != TK_OK) tk_dt_table_free(t);
    return st;
}
