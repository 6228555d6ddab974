/* DCFG-Trace encoder: choosing variable-length multi-edge rows (see dt_phrase.h). */
#include <string.h>

#include "core/alloc.h"
#include "formats/dcfg_trace/dt_phrase.h"

/* ---- the trie ----------------------------------------------------------------- */

static uint32_t new_node(dt_phrases *ph, uint32_t edge)
{
    if (ph->n == ph->cap) {
        size_t cap = ph->cap ? ph->cap * 2 : 1024;
        dt_phrase_node *p = tk_realloc(ph->nodes, cap * sizeof *p);
        if (!p) return DT_PHRASE_NONE;
        ph->nodes = p;
        ph->cap = cap;
    }
    if (ph->n >= DT_PHRASE_NONE) return DT_PHRASE_NONE;
    ph->nodes[ph->n] = (dt_phrase_node){edge, DT_PHRASE_NONE, DT_PHRASE_NONE, DT_PHRASE_NONE, 0};
    return (uint32_t)ph->n++;
}

static inline uint32_t find_child(const dt_phrases *ph, uint32_t node, uint32_t edge)
{
    uint32_t c = ph->nodes[node].child;
    while (c != DT_PHRASE_NONE && ph->nodes[c].edge != edge) c = ph->nodes[c].sib;
    return c;
}

static uint32_t add_child(dt_phrases *ph, uint32_t node, uint32_t edge)
{
    uint32_t c = find_child(ph, node, edge);
    if (c != DT_PHRASE_NONE) return c;
    c = new_node(ph, edge);
    if (c == DT_PHRASE_NONE) return c;
    ph->nodes[c].sib = ph->nodes[node].child;
    ph->nodes[node].child = c;
    return c;
}

static uint32_t root_of(dt_phrases *ph, uint32_t x, int create)
{
    unsigned slot = (x * 0x9e3779b1u) >> 24;
    if (ph->cache_edge[slot] == x && x != 0) return ph->cache_root[slot];
    uint64_t v;
    uint32_t r;
    if (tk_hmap_get(&ph->roots, x, &v)) {
        r = (uint32_t)v;
    } else {
        if (!create) return DT_PHRASE_NONE;
        r = new_node(ph, x);
        if (r == DT_PHRASE_NONE || tk_hmap_put(&ph->roots, x, r)) return DT_PHRASE_NONE;
    }
    ph->cache_edge[slot] = x;
    ph->cache_root[slot] = r;
    return r;
}

static int insert_path(dt_phrases *ph, uint32_t x, const uint32_t *e, size_t n)
{
    uint32_t node = root_of(ph, x, 1);
    for (size_t i = 0; i < n && node != DT_PHRASE_NONE; i++) node = add_child(ph, node, e[i]);
    if (node == DT_PHRASE_NONE) return -1;
    ph->nodes[node].end = 1;
    if (n > ph->max_depth) ph->max_depth = (unsigned)n;
    return 0;
}

uint32_t tk_dt_phrases_match(dt_phrases *ph, uint32_t x, const uint32_t *e, size_t avail,
                             int create, unsigned *len)
{
    *len = 0;
    uint32_t root = root_of(ph, x, create);
    if (root == DT_PHRASE_NONE || avail == 0) return DT_PHRASE_NONE;
    const dt_phrase_node *nodes = ph->nodes;
    uint32_t node = root, best = DT_PHRASE_NONE;
    size_t lim = avail < ph->max_depth ? avail : ph->max_depth;
    for (size_t d = 0; d < lim; d++) {
        uint32_t c = nodes[node].child;
        while (c != DT_PHRASE_NONE && nodes[c].edge != e[d]) c = nodes[c].sib;
        if (c == DT_PHRASE_NONE) break;
        node = c;
        if (nodes[c].end) {
            best = c;
            *len = (unsigned)(d + 1);
        }
    }
    if (best != DT_PHRASE_NONE) return best;
    /* one edge */
    uint32_t c = create ? add_child(ph, root, e[0]) : find_child(ph, root, e[0]);
    if (c == DT_PHRASE_NONE || (!create && !ph->nodes[c].end)) return DT_PHRASE_NONE;
    ph->nodes[c].end = 1;
    *len = 1;
    return c;
}

int tk_dt_phrases_automaton(dt_phrases *ph)
{
    size_t n = ph->n;
    uint32_t *queue = tk_malloc((n ? n : 1) * sizeof *queue);
    ph->fail = tk_malloc((n ? n : 1) * sizeof *ph->fail);
    ph->out = tk_malloc((n ? n : 1) * sizeof *ph->out);
    ph->depth = tk_calloc(n ? n : 1, sizeof *ph->depth);
    ph->next_out = tk_malloc((n ? n : 1) * sizeof *ph->next_out);
    if (!queue || !ph->fail || !ph->out || !ph->depth || !ph->next_out) {
        tk_free(queue);
        return -1;
    }
    /* roots are the nodes no node has as a child (depth marks children here) */
    for (size_t u = 0; u < n; u++)
        for (uint32_t c = ph->nodes[u].child; c != DT_PHRASE_NONE; c = ph->nodes[c].sib)
            ph->depth[c] = 1;
    size_t head = 0, tail = 0;
    for (size_t u = 0; u < n; u++)
        if (!ph->depth[u]) {
            ph->fail[u] = DT_PHRASE_NONE;
            ph->out[u] = DT_PHRASE_NONE;
            ph->next_out[u] = DT_PHRASE_NONE;
            queue[tail++] = (uint32_t)u;
        }
    /* breadth first: a node's failure link is shallower than the node */
    while (head < tail) {
        uint32_t u = queue[head++];
        for (uint32_t c = ph->nodes[u].child; c != DT_PHRASE_NONE; c = ph->nodes[c].sib) {
            uint32_t f = tk_dt_phrases_step(ph, ph->fail[u], ph->nodes[c].edge);
            ph->fail[c] = f;
            ph->depth[c] = ph->depth[u] + 1;
            if (ph->nodes[c].end && ph->nodes[c].sym != DT_PHRASE_NONE)
                ph->out[c] = c;
            else
                ph->out[c] = f == DT_PHRASE_NONE ? DT_PHRASE_NONE : ph->out[f];
            ph->next_out[c] = f == DT_PHRASE_NONE ? DT_PHRASE_NONE : ph->out[f];
            queue[tail++] = c;
        }
    }
    tk_free(queue);
    return 0;
}

uint32_t tk_dt_phrases_step(dt_phrases *ph, uint32_t s, uint32_t x)
{
    while (s != DT_PHRASE_NONE) {
        uint32_t c = find_child(ph, s, x);
        if (c != DT_PHRASE_NONE) return c;
        s = ph->fail[s];
    }
    return root_of(ph, x, 0);
}

void tk_dt_phrases_free(dt_phrases *ph)
{
    tk_free(ph->nodes);
    tk_free(ph->fail);
    tk_free(ph->out);
    tk_free(ph->depth);
    tk_free(ph->next_out);
    tk_hmap_free(&ph->roots);
    memset(ph, 0, sizeof *ph);
}

/* ---- choosing the phrases ------------------------------------------------------- */

/* Pair counts: open addressing, key (a << 32 | b) with a, b < DT_PHRASE_NONE
 * (so UINT64_MAX marks a free slot); value: count, and new token + 1 << 32. */
typedef struct pair_map {
    uint64_t *keys, *vals;
    size_t cap, n;
} pair_map;

static void pm_clear(pair_map *m)
{
    if (m->cap > 4096 && m->n * 8 < m->cap) {
        /* much bigger than the last use needed: let it grow again */
        tk_free(m->keys);
        tk_free(m->vals);
        m->keys = m->vals = NULL;
        m->cap = 0;
    } else if (m->cap) {
        memset(m->keys, 0xff, m->cap * sizeof *m->keys);
    }
    m->n = 0;
}

static int pm_grow(pair_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 4096;
    uint64_t *k = tk_malloc(cap * sizeof *k), *v = tk_malloc(cap * sizeof *v);
    if (!k || !v) {
        tk_free(k);
        tk_free(v);
        return -1;
    }
    memset(k, 0xff, cap * sizeof *k);
    for (size_t i = 0; i < m->cap; i++) {
        if (m->keys[i] == UINT64_MAX) continue;
        size_t j = tk_hash_u64(m->keys[i]) & (cap - 1);
        while (k[j] != UINT64_MAX) j = (j + 1) & (cap - 1);
        k[j] = m->keys[i];
        v[j] = m->vals[i];
    }
    tk_free(m->keys);
    tk_free(m->vals);
    m->keys = k;
    m->vals = v;
    m->cap = cap;
    return 0;
}

/* The value of key, inserted as 0 when absent; NULL when out of memory. */
static uint64_t *pm_slot(pair_map *m, uint64_t key)
{
    if ((m->n + 1) * 2 > m->cap && pm_grow(m)) return NULL;
    size_t j = tk_hash_u64(key) & (m->cap - 1);
    while (m->keys[j] != key) {
        if (m->keys[j] == UINT64_MAX) {
            m->keys[j] = key;
            m->vals[j] = 0;
            m->n++;
            break;
        }
        j = (j + 1) & (m->cap - 1);
    }
    return &m->vals[j];
}

static void pm_free(pair_map *m)
{
    tk_free(m->keys);
    tk_free(m->vals);
}

/* Flags of a token during the rounds: created in the last round, left or
 * right of a pair that occurred at least min_count times in the last round.
 * A pair's count can only grow when one of its tokens is new, so the other
 * pairs need not be counted again. */
#define TF_NEW 1u
#define TF_LEFT 2u
#define TF_RIGHT 4u

typedef struct tokens {
    uint32_t *l, *r; /* pair tokens: children; leaves: l = NONE, r = the edge */
    uint32_t *len; /* edges */
    uint8_t *flag;
    size_t n, cap;
} tokens;

static uint32_t new_token(tokens *t, uint32_t l, uint32_t r, uint32_t len)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        uint32_t *a = tk_realloc(t->l, cap * sizeof *a);
        if (!a) return DT_PHRASE_NONE;
        t->l = a;
        if (!(a = tk_realloc(t->r, cap * sizeof *a))) return DT_PHRASE_NONE;
        t->r = a;
        if (!(a = tk_realloc(t->len, cap * sizeof *a))) return DT_PHRASE_NONE;
        t->len = a;
        uint8_t *f = tk_realloc(t->flag, cap);
        if (!f) return DT_PHRASE_NONE;
        t->flag = f;
        t->cap = cap;
    }
    if (t->n >= DT_PHRASE_NONE) return DT_PHRASE_NONE;
    t->l[t->n] = l;
    t->r[t->n] = r;
    t->len[t->n] = len;
    t->flag[t->n] = TF_NEW;
    return (uint32_t)t->n++;
}

/* The edges of token k into out (room for t->len[k]); explicit stack (the
 * depth is at most the number of rounds). */
#define MAX_ROUNDS 60

static size_t expand(const tokens *t, uint32_t k, uint32_t *out)
{
    uint32_t stack[MAX_ROUNDS + 2];
    size_t sp = 0, n = 0;
    stack[sp++] = k;
    while (sp > 0) {
        uint32_t x = stack[--sp];
        if (t->l[x] == DT_PHRASE_NONE) {
            out[n++] = t->r[x];
            continue;
        }
        stack[sp++] = t->r[x];
        stack[sp++] = t->l[x];
    }
    return n;
}

static uint32_t last_edge(const tokens *t, uint32_t k)
{
    while (t->l[k] != DT_PHRASE_NONE) k = t->r[k];
    return t->r[k];
}

/* The state of the selection: the tokens, the sequence of tokens seq
 * (segments bound[s] .. bound[s + 1]), the pair counts. */
typedef struct selection {
    tokens t;
    pair_map pairs;
    uint32_t *seq;
    size_t *bound, nseg;
    const dt_phrase_params *prm;
} selection;

/* seq[i]: the leaf token of edges[i]; -1 when out of memory. */
static int make_leaves(selection *S, const uint32_t *edges, size_t n)
{
    tk_hmap leaf = TK_HMAP_INIT;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        int inserted;
        uint64_t *v = tk_hmap_slot(&leaf, edges[i], 0, &inserted);
        if (!v) {
            rc = -1;
            break;
        }
        if (inserted) {
            uint32_t k = new_token(&S->t, DT_PHRASE_NONE, edges[i], 1);
            if (k == DT_PHRASE_NONE) {
                rc = -1;
                break;
            }
            *v = k;
        }
        S->seq[i] = (uint32_t)*v;
    }
    tk_hmap_free(&leaf);
    return rc;
}

/* The adjacent pairs worth counting (a new token on either side, or a
 * left-right pair of the last round), within max_len: counted in S->pairs,
 * the highest count into *maxc; -1 when out of memory. */
static int count_pairs(selection *S, uint64_t *maxc)
{
    tokens *t = &S->t;
    const uint32_t *seq = S->seq;
    pm_clear(&S->pairs);
    *maxc = 0;
    for (size_t s = 0; s < S->nseg; s++)
        for (size_t i = S->bound[s]; i + 1 < S->bound[s + 1]; i++) {
            uint8_t fa = t->flag[seq[i]], fb = t->flag[seq[i + 1]];
            if (!((fa | fb) & TF_NEW) && !((fa & TF_LEFT) && (fb & TF_RIGHT))) continue;
            if ((uint64_t)t->len[seq[i]] + t->len[seq[i + 1]] > S->prm->max_len) continue;
            uint64_t *v = pm_slot(&S->pairs, ((uint64_t)seq[i] << 32) | seq[i + 1]);
            if (!v) return -1;
            if (++*v > *maxc) *maxc = *v;
        }
    return 0;
}

/* One round: the pairs counted at least thr times become tokens (flagged
 * left and right first), replaced in the sequence left to right; *created
 * gets the number of new tokens; -1 when out of memory. */
static int replace_pairs(selection *S, uint64_t thr, size_t *created)
{
    tokens *t = &S->t;
    uint32_t *seq = S->seq;
    for (size_t k = 0; k < t->n; k++) t->flag[k] = 0;
    for (size_t k = 0; k < S->pairs.cap; k++)
        if (S->pairs.keys[k] != UINT64_MAX && S->pairs.vals[k] >= S->prm->min_count) {
            t->flag[S->pairs.keys[k] >> 32] |= TF_LEFT;
            t->flag[(uint32_t)S->pairs.keys[k]] |= TF_RIGHT;
        }
    size_t w = 0;
    *created = 0;
    for (size_t s = 0; s < S->nseg; s++) {
        size_t i = S->bound[s], end = S->bound[s + 1];
        S->bound[s] = w;
        while (i < end) {
            uint64_t *v = NULL;
            if (i + 1 < end && (t->flag[seq[i]] & TF_LEFT) && (t->flag[seq[i + 1]] & TF_RIGHT) &&
                (uint64_t)t->len[seq[i]] + t->len[seq[i + 1]] <= S->prm->max_len)
                v = pm_slot(&S->pairs, ((uint64_t)seq[i] << 32) | seq[i + 1]);
            if (v && (*v & 0xffffffffu) >= thr) {
                uint32_t id = (uint32_t)(*v >> 32);
                if (id == 0) {
                    uint32_t k =
                        new_token(t, seq[i], seq[i + 1], t->len[seq[i]] + t->len[seq[i + 1]]);
                    if (k == DT_PHRASE_NONE) return -1;
                    id = k + 1;
                    *v |= (uint64_t)id << 32;
                    (*created)++;
                }
                seq[w++] = id - 1;
                i += 2;
                continue;
            }
            seq[w++] = seq[i++];
        }
    }
    S->bound[S->nseg] = w;
    return 0;
}

/* (current edge, token) of the final parse: those that recur become
 * phrases of ph; -1 when out of memory. */
static int keep_phrases(selection *S, dt_phrases *ph)
{
    tokens *t = &S->t;
    const uint32_t *seq = S->seq;
    pm_clear(&S->pairs);
    for (size_t s = 0; s < S->nseg; s++)
        for (size_t i = S->bound[s] + 1; i < S->bound[s + 1]; i++) {
            if (t->len[seq[i]] < 2) continue;
            uint64_t *v = pm_slot(&S->pairs, ((uint64_t)last_edge(t, seq[i - 1]) << 32) | seq[i]);
            if (!v) return -1;
            ++*v;
        }
    uint32_t *path = tk_malloc((S->prm->max_len + 1) * sizeof *path);
    if (!path) return -1;
    int rc = 0;
    for (size_t it = 0; it < S->pairs.cap && rc == 0; it++) {
        uint64_t key = S->pairs.keys[it], count = S->pairs.vals[it];
        if (key == UINT64_MAX || count < S->prm->min_uses) continue;
        size_t len = expand(t, (uint32_t)key, path);
        if (insert_path(ph, (uint32_t)(key >> 32), path, len)) rc = -1;
    }
    tk_free(path);
    return rc;
}

int tk_dt_phrases_select(dt_phrases *ph, const uint32_t *edges, const size_t *seg, size_t nseg,
                         const dt_phrase_params *prm)
{
    int rc = -1;
    size_t n = seg[nseg];
    selection S;
    memset(&S, 0, sizeof S);
    S.nseg = nseg;
    S.prm = prm;
    S.seq = tk_malloc((n ? n : 1) * sizeof *S.seq);
    S.bound = tk_malloc((nseg + 1) * sizeof *S.bound);
    if (ph->max_depth == 0) ph->max_depth = 1;
    if (!S.seq || !S.bound || make_leaves(&S, edges, n) != 0) goto done;
    memcpy(S.bound, seg, (nseg + 1) * sizeof *S.bound);
    /* rounds of pair replacement */
    for (int round = 0; round < MAX_ROUNDS; round++) {
        uint64_t maxc;
        size_t created;
        if (count_pairs(&S, &maxc) != 0) goto done;
        if (maxc < prm->min_count) break;
        /* the pairs within 80 % of the most frequent (closer to Re-Pair's one
         * pair per round than a factor 2: fewer, more useful phrases) */
        uint64_t thr = maxc - maxc / 5 > prm->min_count ? maxc - maxc / 5 : prm->min_count;
        if (replace_pairs(&S, thr, &created) != 0) goto done;
        if (created == 0) break;
    }
    rc = keep_phrases(&S, ph);
done:
    tk_free(S.seq);
    tk_free(S.bound);
    tk_free(S.t.l);
    tk_free(S.t.r);
    tk_free(S.t.len);
    tk_free(S.t.flag);
    pm_free(&S.pairs);
    return rc;
}
