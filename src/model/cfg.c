/* The control-flow-graph model: lifetime, lookups, queries. */
#include "model/cfg_internal.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

static const char *const kind_names[TK_EDGE_KIND_COUNT] = {"ENTRY",
                                                           "EXIT",
                                                           "CALL",
                                                           "DIRECT_CALL",
                                                           "INDIRECT_CALL",
                                                           "RETURN",
                                                           "CALL_BYPASS",
                                                           "BRANCH",
                                                           "CONDITIONAL_BRANCH",
                                                           "UNCONDITIONAL_BRANCH",
                                                           "DIRECT_BRANCH",
                                                           "INDIRECT_BRANCH",
                                                           "DIRECT_CONDITIONAL_BRANCH",
                                                           "INDIRECT_CONDITIONAL_BRANCH",
                                                           "DIRECT_UNCONDITIONAL_BRANCH",
                                                           "INDIRECT_UNCONDITIONAL_BRANCH",
                                                           "REP",
                                                           "FALL_THROUGH",
                                                           "SYSTEM_CALL",
                                                           "SYSTEM_RETURN",
                                                           "SYSTEM_CALL_BYPASS",
                                                           "CONTEXT_CHANGE",
                                                           "CONTEXT_CHANGE_RETURN",
                                                           "CONTEXT_CHANGE_BYPASS",
                                                           "EXCLUDED_CODE_BYPASS",
                                                           "UNKNOWN",
                                                           "OTHER"};

const char *tk_edge_kind_name(tk_edge_kind k)
{
    return (unsigned)k < TK_EDGE_KIND_COUNT ? kind_names[k] : "OTHER";
}

tk_edge_kind tk_edge_kind_from_name(const char *name, size_t len)
{
    for (int k = 0; k < TK_EDGE_OTHER; k++)
        if (strlen(kind_names[k]) == len && memcmp(kind_names[k], name, len) == 0)
            return (tk_edge_kind)k;
    return TK_EDGE_OTHER;
}

int tk_edge_kind_is_any_branch(tk_edge_kind k)
{
    return k >= TK_EDGE_BRANCH && k <= TK_EDGE_INDIRECT_UNCONDITIONAL_BRANCH;
}

int tk_edge_kind_is_any_call(tk_edge_kind k)
{
    return k == TK_EDGE_CALL || k == TK_EDGE_DIRECT_CALL || k == TK_EDGE_INDIRECT_CALL ||
           k == TK_EDGE_SYSTEM_CALL || k == TK_EDGE_CONTEXT_CHANGE;
}

int tk_edge_kind_is_any_return(tk_edge_kind k)
{
    return k == TK_EDGE_RETURN || k == TK_EDGE_SYSTEM_RETURN || k == TK_EDGE_CONTEXT_CHANGE_RETURN;
}

int tk_edge_kind_is_any_bypass(tk_edge_kind k)
{
    return k == TK_EDGE_CALL_BYPASS || k == TK_EDGE_SYSTEM_CALL_BYPASS ||
           k == TK_EDGE_CONTEXT_CHANGE_BYPASS || k == TK_EDGE_EXCLUDED_CODE_BYPASS;
}

int tk_edge_kind_is_any_inter_routine(tk_edge_kind k)
{
    return tk_edge_kind_is_any_call(k) || tk_edge_kind_is_any_return(k) || k == TK_EDGE_ENTRY ||
           k == TK_EDGE_EXIT;
}

/* ---- id maps ------------------------------------------------------------ */


tk_cfg_idmap *tk_cfg_idmap_new(uint32_t count, uint32_t max_key)
{
    tk_cfg_idmap *m = tk_calloc(1, sizeof *m);
    if (!m) return NULL;
    if ((uint64_t)max_key <= 2 * (uint64_t)count + 1024) {
        m->direct = 1;
        m->cap = max_key + 1;
        m->vals = tk_malloc(sizeof *m->vals * (size_t)m->cap);
    } else {
        uint32_t cap = 16;
        while (cap < 2 * (uint64_t)count) cap *= 2;
        m->cap = cap;
        m->key = (uint32_t)tk_hash_new_key();
        m->vals = tk_malloc(sizeof *m->vals * (size_t)cap);
        m->keys = tk_malloc(sizeof *m->keys * (size_t)cap);
        if (!m->keys) {
            tk_free(m->vals);
            m->vals = NULL;
        }
    }
    if (!m->vals) {
        tk_free(m);
        return NULL;
    }
    memset(m->vals, 0xff, sizeof *m->vals * (size_t)m->cap);
    return m;
}

void tk_cfg_idmap_free(tk_cfg_idmap *m)
{
    if (!m) return;
    tk_free(m->keys);
    tk_free(m->vals);
    tk_free(m);
}


uint32_t tk_cfg_idmap_put(tk_cfg_idmap *m, uint32_t key, uint32_t val)
{
    if (m->direct) {
        if (key >= m->cap) return TK_CFG_NONE; /* cannot happen: sized by max key */
        uint32_t old = m->vals[key];
        if (old == TK_CFG_NONE) m->vals[key] = val;
        return old;
    }
    uint32_t mask = m->cap - 1;
    for (uint32_t i = tk_cfg_hash32(m->key, key) & mask;; i = (i + 1) & mask) {
        if (m->vals[i] == TK_CFG_NONE) {
            m->keys[i] = key;
            m->vals[i] = val;
            return TK_CFG_NONE;
        }
        if (m->keys[i] == key) return m->vals[i];
    }
}


/* ---- lifetime ----------------------------------------------------------- */

tk_status tk_cfg_open(tk_cfg **out, tk_error *err)
{
    tk_cfg *cfg = *out = tk_calloc(1, sizeof *cfg);
    if (!cfg) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (pthread_mutex_init(&cfg->cache_lock, NULL) != 0) {
        tk_free(cfg);
        *out = NULL;
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    if (tk_cfg_add_string(cfg, "", 0) == UINT32_MAX) {
        pthread_mutex_destroy(&cfg->cache_lock);
        tk_free(cfg);
        *out = NULL;
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    return TK_OK;
}

void tk_cfg_process_release(tk_cfg_process *p)
{
    tk_free(p->blocks_by_addr);
    tk_free(p->symbols_by_addr);
    tk_free(p->images);
    tk_free(p->blocks);
    tk_free(p->block_flags);
    tk_free(p->block_wide);
    tk_free(p->symbols);
    tk_free(p->sources);
    tk_free(p->source_sizes);
    tk_free(p->edges);
    tk_free(p->routines);
    tk_free(p->loops);
    tk_free(p->pool);
    tk_free(p->node_idom_ids);
    tk_free(p->counts32);
    tk_free(p->counts64);
    tk_free(p->edge_counts);
    tk_free(p->edge_nthreads);
    tk_free(p->file_instr_count_per_thread);
    tk_free(p->block_locs);
    tk_free(p->edge_locs);
    if (p->adjacency) {
        tk_free(p->adjacency->out_start);
        tk_free(p->adjacency->out_edges);
        tk_free(p->adjacency->in_start);
        tk_free(p->adjacency->in_edges);
        tk_free(p->adjacency);
    }
    tk_cfg_idmap_free(p->node_map);
    tk_cfg_idmap_free(p->edge_map);
    tk_cfg_idmap_free(p->loop_map);
    tk_cfg_idmap_free(p->routine_map);
    memset(p, 0, sizeof *p);
}

void tk_cfg_free(tk_cfg *cfg)
{
    if (!cfg) return;
    for (uint32_t i = 0; i < cfg->nprocesses; i++) tk_cfg_process_release(&cfg->processes[i]);
    tk_free(cfg->processes);
    tk_free(cfg->file_names);
    tk_cfg_idmap_free(cfg->file_name_map);
    tk_free(cfg->edge_types);
    tk_free(cfg->specials);
    tk_free(cfg->strings);
    pthread_mutex_destroy(&cfg->cache_lock);
    tk_free(cfg);
}

static uint64_t addr_at(const void *base, size_t stride, size_t off, uint32_t i)
{
    uint64_t v;
    memcpy(&v, (const char *)base + (size_t)i * stride + off, sizeof v);
    return v;
}

#define SORT_DIGIT 11u /* bits a pass: 2 passes for addresses below 4 MiB */

/* A run of ord in address order: ord[start .. start+len), addresses first .. last. */
typedef struct addr_run {
    uint64_t first, last;
    uint32_t start, len;
} addr_run;

static int cmp_run(const void *a, const void *b)
{
    const addr_run *x = a, *y = b;
    if (x->first != y->first) return x->first < y->first ? -1 : 1;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Files list blocks and source lines routine by routine: the entries are a
 * few runs in address order that do not overlap.  Then sorting the runs by
 * their first address and putting them end to end sorts everything (with
 * equal addresses in index order).  1 when done, 0 when the runs are too
 * many or overlap (or out of memory): ord is then unchanged. */
static int sort_runs(uint32_t *ord, uint32_t n, const void *base, size_t stride, size_t off)
{
    uint32_t nruns = 1;
    for (uint32_t i = 1; i < n; i++)
        if (addr_at(base, stride, off, ord[i]) < addr_at(base, stride, off, ord[i - 1])) nruns++;
    if (nruns > n / 8) return 0;
    addr_run *runs = tk_malloc(sizeof *runs * nruns);
    uint32_t *tmp = tk_malloc(sizeof *tmp * n);
    int ok = runs && tmp;
    if (ok) {
        uint32_t k = 0;
        runs[0].start = 0;
        runs[0].first = addr_at(base, stride, off, ord[0]);
        for (uint32_t i = 1; i <= n; i++) {
            uint64_t a = i < n ? addr_at(base, stride, off, ord[i]) : 0;
            uint64_t prev = addr_at(base, stride, off, ord[i - 1]);
            if (i == n || a < prev) {
                runs[k].last = prev;
                runs[k].len = i - runs[k].start;
                if (i < n) {
                    k++;
                    runs[k].start = i;
                    runs[k].first = a;
                }
            }
        }
        qsort(runs, nruns, sizeof *runs, cmp_run);
        for (uint32_t r = 1; r < nruns && ok; r++)
            ok = runs[r - 1].last < runs[r].first ||
                 (runs[r - 1].last == runs[r].first && runs[r - 1].start < runs[r].start);
        if (ok) {
            uint32_t w = 0;
            for (uint32_t r = 0; r < nruns; r++) {
                memcpy(tmp + w, ord + runs[r].start, sizeof *tmp * runs[r].len);
                w += runs[r].len;
            }
            memcpy(ord, tmp, sizeof *ord * n);
        }
    }
    tk_free(runs);
    tk_free(tmp);
    return ok;
}

int tk_cfg_sort_by_addr(uint32_t *ord, uint32_t n, const void *base, size_t stride, size_t off,
                        int pairs)
{
    if (n < 2) return 1;
    if (sort_runs(ord, n, base, stride, off)) return 1;
    uint64_t max = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t a = addr_at(base, stride, off, ord[i]);
        if (a > max) max = a;
    }
    uint32_t count[1u << SORT_DIGIT];
    const uint32_t mask = (1u << SORT_DIGIT) - 1;
    if (pairs && max <= UINT32_MAX) {
        /* pairs (address << 32 | index): the passes read one array in order */
        uint64_t *k = tk_malloc(sizeof *k * n), *tmp = tk_malloc(sizeof *tmp * n);
        if (!k || !tmp) {
            tk_free(k);
            tk_free(tmp);
            return 0;
        }
        for (uint32_t i = 0; i < n; i++) k[i] = addr_at(base, stride, off, ord[i]) << 32 | ord[i];
        uint64_t *src = k, *dst = tmp;
        for (unsigned shift = 32; shift < 64 && (max >> (shift - 32)); shift += SORT_DIGIT) {
            memset(count, 0, sizeof count);
            for (uint32_t i = 0; i < n; i++) count[(src[i] >> shift) & mask]++;
            if (count[(src[0] >> shift) & mask] == n) continue;
            uint32_t pos = 0;
            for (uint32_t d = 0; d <= mask; d++) {
                uint32_t c = count[d];
                count[d] = pos;
                pos += c;
            }
            for (uint32_t i = 0; i < n; i++) dst[count[(src[i] >> shift) & mask]++] = src[i];
            uint64_t *t = src;
            src = dst;
            dst = t;
        }
        for (uint32_t i = 0; i < n; i++) ord[i] = (uint32_t)src[i];
        tk_free(k);
        tk_free(tmp);
        return 1;
    }
    uint32_t *tmp = tk_malloc(sizeof *tmp * n), *src = ord, *dst = tmp;
    if (!tmp) return 0;
    for (unsigned shift = 0; shift < 64 && (max >> shift); shift += SORT_DIGIT) {
        memset(count, 0, sizeof count);
        for (uint32_t i = 0; i < n; i++)
            count[(addr_at(base, stride, off, src[i]) >> shift) & mask]++;
        if (count[(addr_at(base, stride, off, src[0]) >> shift) & mask] == n) continue;
        uint32_t pos = 0;
        for (uint32_t d = 0; d <= mask; d++) {
            uint32_t c = count[d];
            count[d] = pos;
            pos += c;
        }
        for (uint32_t i = 0; i < n; i++)
            dst[count[(addr_at(base, stride, off, src[i]) >> shift) & mask]++] = src[i];
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != ord) memcpy(ord, src, sizeof *ord * n);
    tk_free(tmp);
    return 1;
}

int tk_cfg_grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap) return 1;
    if (need > UINT32_MAX / 2) return 0;
    uint64_t c = *cap ? *cap : 8;
    while (c < need) c *= 2;
    if (c > UINT32_MAX) c = UINT32_MAX;
    void *p = tk_realloc(*arr, (size_t)c * elem);
    if (!p) return 0;
    *arr = p;
    *cap = (uint32_t)c;
    return 1;
}

/* The caches of a process (adjacency, edge-id map, blocks by address) are
 * built on first use through a const pointer, like a lookup, by whichever
 * thread asks first: under the model's lock (each is built once), and the
 * finished cache is published with a release store that the readers' acquire
 * loads pair with (cfg_adjacency_of in cfg_internal.h). A process that no
 * tk_cfg_finish has seen yet has no lock: only its reader uses it. */
static void cache_lock(const tk_cfg_process *p)
{
    if (p->cache_lock) pthread_mutex_lock(p->cache_lock);
}

static void cache_unlock(const tk_cfg_process *p)
{
    if (p->cache_lock) pthread_mutex_unlock(p->cache_lock);
}

#define CACHE_LOAD(field) __atomic_load_n(&(field), __ATOMIC_ACQUIRE)
#define CACHE_PUBLISH(field, value) __atomic_store_n(&(field), (value), __ATOMIC_RELEASE)

static tk_status build_adjacency(tk_cfg_process *p);

tk_status tk_cfg_need_adjacency(const tk_cfg_process *cp, tk_error *err)
{
    if (CACHE_LOAD(cp->adjacency)) return TK_OK;
    cache_lock(cp);
    tk_status st = cp->adjacency ? TK_OK : build_adjacency((tk_cfg_process *)cp);
    cache_unlock(cp);
    return tk_error_from(err, st, "adjacency");
}

static tk_status build_adjacency(tk_cfg_process *p)
{
    size_t nn = (size_t)p->nnodes + 1;
    tk_cfg_adjacency *a = tk_calloc(1, sizeof *a);
    if (!a) return TK_ERR_NOMEM;
    a->out_start = tk_calloc(nn, sizeof *a->out_start);
    a->in_start = tk_calloc(nn, sizeof *a->in_start);
    a->out_edges = tk_malloc(sizeof *a->out_edges * (p->nedges ? p->nedges : 1));
    a->in_edges = tk_malloc(sizeof *a->in_edges * (p->nedges ? p->nedges : 1));
    if (!a->out_start || !a->in_start || !a->out_edges || !a->in_edges) {
        tk_free(a->out_start);
        tk_free(a->in_start);
        tk_free(a->out_edges);
        tk_free(a->in_edges);
        tk_free(a);
        return TK_ERR_NOMEM;
    }
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        if (ed->src >= p->nnodes || ed->tgt >= p->nnodes) continue; /* did not resolve */
        a->out_start[ed->src + 1]++;
        a->in_start[ed->tgt + 1]++;
    }
    for (uint32_t n = 0; n < p->nnodes; n++) {
        a->out_start[n + 1] += a->out_start[n];
        a->in_start[n + 1] += a->in_start[n];
    }
    /* fill with start[n] as the cursor of node n (it ends at the start of
     * n + 1), then shift the starts back: no scratch arrays */
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        if (ed->src >= p->nnodes || ed->tgt >= p->nnodes) continue;
        a->out_edges[a->out_start[ed->src]++] = e;
        a->in_edges[a->in_start[ed->tgt]++] = e;
    }
    memmove(a->out_start + 1, a->out_start, sizeof *a->out_start * (nn - 1));
    memmove(a->in_start + 1, a->in_start, sizeof *a->in_start * (nn - 1));
    a->out_start[0] = a->in_start[0] = 0;
    CACHE_PUBLISH(p->adjacency, a);
    return TK_OK;
}

uint32_t tk_cfg_add_string(tk_cfg *cfg, const char *s, size_t len)
{
    if (cfg->nstrings + len + 1 > UINT32_MAX) return UINT32_MAX;
    if (cfg->nstrings + len + 1 > cfg->cap_strings) {
        size_t c = cfg->cap_strings ? cfg->cap_strings : 256;
        while (c < cfg->nstrings + len + 1) c *= 2;
        char *p = tk_realloc(cfg->strings, c);
        if (!p) return UINT32_MAX;
        cfg->strings = p;
        cfg->cap_strings = c;
    }
    uint32_t off = (uint32_t)cfg->nstrings;
    if (len) memcpy(cfg->strings + off, s, len);
    cfg->strings[off + len] = 0;
    cfg->nstrings += len + 1;
    return off;
}

/* ---- tables ------------------------------------------------------------- */

const char *tk_cfg_file_name(const tk_cfg *cfg, uint32_t id)
{
    if (cfg->file_name_map) {
        uint32_t i = tk_cfg_idmap_get(cfg->file_name_map, id);
        return i == TK_CFG_NONE ? NULL : cfg_str(cfg, cfg->file_names[i].name);
    }
    for (uint32_t i = 0; i < cfg->nfile_names; i++) /* a graph not finished yet */
        if (cfg->file_names[i].id == id) return cfg_str(cfg, cfg->file_names[i].name);
    return NULL;
}

tk_edge_kind tk_cfg_stored_edge_kind(const tk_cfg *cfg, const tk_cfg_edge *e)
{
    return e->type < cfg->nedge_types ? cfg->edge_types[e->type].kind : TK_EDGE_OTHER;
}

const char *tk_cfg_stored_edge_type_name(const tk_cfg *cfg, const tk_cfg_edge *e)
{
    return e->type < cfg->nedge_types ? cfg_str(cfg, cfg->edge_types[e->type].name) : "?";
}

/* ---- lookups ------------------------------------------------------------ */

uint32_t tk_cfg_find_process(const tk_cfg *cfg, uint64_t pid)
{
    for (uint32_t i = 0; i < cfg->nprocesses; i++)
        if (cfg->processes[i].pid == pid) return i;
    return TK_CFG_NONE;
}

uint32_t tk_cfg_find_node(const tk_cfg_process *p, uint32_t id)
{
    return tk_cfg_idmap_get(p->node_map, id);
}

uint32_t tk_cfg_find_block(const tk_cfg_process *p, uint32_t id)
{
    uint32_t n = tk_cfg_find_node(p, id);
    return n < p->nblocks ? n : TK_CFG_NONE;
}

static tk_status build_edge_map(tk_cfg_process *p)
{
    uint32_t max_id = 0;
    for (uint32_t e = 0; e < p->nedges; e++)
        if (p->edges[e].id > max_id) max_id = p->edges[e].id;
    tk_cfg_idmap *m = tk_cfg_idmap_new(p->nedges, max_id);
    if (!m) return TK_ERR_NOMEM;
    for (uint32_t e = 0; e < p->nedges; e++) tk_cfg_idmap_put(m, p->edges[e].id, e);
    CACHE_PUBLISH(p->edge_map, m);
    return TK_OK;
}

tk_status tk_cfg_need_edge_map(const tk_cfg_process *cp, tk_error *err)
{
    if (CACHE_LOAD(cp->edge_map)) return TK_OK;
    cache_lock(cp);
    tk_status st = cp->edge_map ? TK_OK : build_edge_map((tk_cfg_process *)cp);
    cache_unlock(cp);
    return tk_error_from(err, st, "edge map");
}

uint32_t tk_cfg_find_edge(const tk_cfg_process *p, uint32_t id)
{
    if (tk_cfg_need_edge_map(p, NULL) != TK_OK) {
        for (uint32_t e = 0; e < p->nedges; e++) /* out of memory: a scan */
            if (p->edges[e].id == id) return e;
        return TK_CFG_NONE;
    }
    return tk_cfg_idmap_get(CACHE_LOAD(p->edge_map), id);
}

uint32_t tk_cfg_find_edge_between(const tk_cfg_process *p, uint32_t src, uint32_t tgt)
{
    uint32_t n;
    const uint32_t *out = cfg_out_edges(p, src, &n);
    for (uint32_t k = 0; k < n; k++)
        if (p->edges[out[k]].tgt == tgt) return out[k];
    return TK_CFG_NONE;
}

uint32_t tk_cfg_find_routine(const tk_cfg_process *p, uint32_t block)
{
    return tk_cfg_idmap_get(p->routine_map, block);
}

uint32_t tk_cfg_find_loop(const tk_cfg_process *p, uint32_t block)
{
    return tk_cfg_idmap_get(p->loop_map, block);
}

uint32_t tk_cfg_find_image(const tk_cfg_process *p, uint32_t id)
{
    for (uint32_t i = 0; i < p->nimages; i++)
        if (p->images[i].id == id) return i;
    return TK_CFG_NONE;
}

/* p->blocks_by_addr: each image's block indexes sorted by address. */
static int build_blocks_by_addr(tk_cfg_process *p)
{
    uint32_t *ord = tk_malloc(sizeof *ord * (p->nblocks ? p->nblocks : 1));
    if (!ord) return 0;
    for (uint32_t b = 0; b < p->nblocks; b++) ord[b] = b;
    for (uint32_t i = 0; i < p->nimages; i++) {
        const tk_cfg_image *im = &p->images[i];
        int sorted = 1;
        for (uint32_t k = 1; k < im->nblocks && sorted; k++)
            sorted = p->blocks[im->first_block + k].addr_offset >=
                     p->blocks[im->first_block + k - 1].addr_offset;
        if (!sorted &&
            !tk_cfg_sort_by_addr(ord + im->first_block, im->nblocks, p->blocks, sizeof *p->blocks,
                                 offsetof(tk_cfg_block, addr_offset), 1)) {
            tk_free(ord);
            return 0;
        }
    }
    CACHE_PUBLISH(p->blocks_by_addr, ord);
    return 1;
}

/* An address index of the process (*field), built by build now if needed;
 * NULL when out of memory. */
static const uint32_t *address_index(const tk_cfg_process *cp, uint32_t *const *field,
                                     int (*build)(tk_cfg_process *))
{
    const uint32_t *ord = CACHE_LOAD(*field);
    if (ord) return ord;
    cache_lock(cp);
    if (!*field) (void)build((tk_cfg_process *)cp);
    ord = *field;
    cache_unlock(cp);
    return ord;
}

static const uint32_t *blocks_by_addr(const tk_cfg_process *cp)
{
    return address_index(cp, &cp->blocks_by_addr, build_blocks_by_addr);
}

size_t tk_cfg_blocks_at(const tk_cfg_process *p, uint64_t addr, uint32_t *out, size_t max)
{
    size_t hits = 0;
    const uint32_t *sorted = blocks_by_addr(p);
    if (!sorted) { /* out of memory for the index: a scan */
        for (uint32_t b = 0; b < p->nblocks; b++) {
            uint64_t start = tk_cfg_stored_block_addr(p, &p->blocks[b]);
            uint32_t size = cfg_block_size(p, b);
            if (addr < start || addr - start >= (uint64_t)(size ? size : 1)) continue;
            if (hits < max) out[hits] = b;
            hits++;
        }
        return hits;
    }
    for (uint32_t i = 0; i < p->nimages; i++) {
        const tk_cfg_image *im = &p->images[i];
        if (addr < im->load_addr) continue;
        const uint32_t *by_addr = sorted + im->first_block;
        uint64_t off = addr - im->load_addr;
        /* last block with addr_offset <= off */
        uint32_t lo = 0, hi = im->nblocks;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (p->blocks[by_addr[mid]].addr_offset <= off)
                lo = mid + 1;
            else
                hi = mid;
        }
        /* blocks may overlap (mid-instruction starts): scan back while they cover */
        for (uint32_t k = lo; k-- > 0;) {
            const tk_cfg_block *b = &p->blocks[by_addr[k]];
            uint32_t size = cfg_block_size(p, by_addr[k]);
            if (off - b->addr_offset >= (uint64_t)(size ? size : 1)) {
                if (off - b->addr_offset > (1u << 16)) break;
                continue;
            }
            if (hits < max) out[hits] = by_addr[k];
            hits++;
        }
    }
    return hits;
}

/* ---- nodes ---------------------------------------------------------------- */

tk_special_kind tk_cfg_node_special(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t node)
{
    if (node < p->nblocks || node - p->nblocks >= cfg->nspecials) return TK_SPECIAL_OTHER;
    return cfg->specials[node - p->nblocks].kind;
}

uint32_t tk_cfg_node_id(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t node)
{
    if (node < p->nblocks) return p->blocks[node].id;
    if (node - p->nblocks < cfg->nspecials) return cfg->specials[node - p->nblocks].id;
    return 0;
}

uint32_t tk_cfg_special_node(const tk_cfg *cfg, const tk_cfg_process *p, tk_special_kind k)
{
    for (uint32_t i = 0; i < cfg->nspecials; i++)
        if (cfg->specials[i].kind == k) return p->nblocks + i;
    return TK_CFG_NONE;
}

/* ---- blocks --------------------------------------------------------------- */

uint32_t tk_cfg_block_image(const tk_cfg_process *p, uint32_t block)
{
    if (block >= p->nblocks) return TK_CFG_NONE;
    /* images hold consecutive block ranges in image order: the block's image
     * is the last one starting at or before it */
    uint32_t lo = 0, hi = p->nimages;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->images[mid].first_block <= block)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? lo - 1 : TK_CFG_NONE;
}

uint64_t tk_cfg_stored_block_addr(const tk_cfg_process *p, const tk_cfg_block *b)
{
    return p->images[tk_cfg_block_image(p, (uint32_t)(b - p->blocks))].load_addr + b->addr_offset;
}

uint64_t tk_cfg_stored_block_last_instr_addr(const tk_cfg_process *p, const tk_cfg_block *b)
{
    return tk_cfg_stored_block_addr(p, b) +
           cfg_block_last_instr_offset(p, (uint32_t)(b - p->blocks));
}

/* The edges a node's per-thread counts come from: its in-edges, or its
 * out-edges when it has no in-edges. */
static const uint32_t *count_edges(const tk_cfg_process *p, uint32_t node, uint32_t *n)
{
    const uint32_t *ed = cfg_in_edges(p, node, n);
    return *n ? ed : cfg_out_edges(p, node, n);
}

uint64_t tk_cfg_block_count_thread(const tk_cfg_process *p, uint32_t block, uint32_t thread)
{
    uint64_t sum = 0;
    uint32_t n;
    const uint32_t *ed = count_edges(p, block, &n);
    for (uint32_t k = 0; k < n; k++) sum += cfg_edge_count_thread(p, &p->edges[ed[k]], thread);
    return sum;
}

/* p->symbols_by_addr: each image's symbol indexes sorted by address, equal
 * addresses in file order (the sort is stable). */
static int build_symbols_by_addr(tk_cfg_process *p)
{
    uint32_t *ord = tk_malloc(sizeof *ord * (p->nsymbols ? p->nsymbols : 1));
    if (!ord) return 0;
    for (uint32_t i = 0; i < p->nsymbols; i++) ord[i] = i;
    for (uint32_t i = 0; i < p->nimages; i++) {
        const tk_cfg_image *im = &p->images[i];
        if (!tk_cfg_sort_by_addr(ord + im->first_symbol, im->nsymbols, p->symbols,
                                 sizeof *p->symbols, offsetof(tk_cfg_symbol, addr_offset), 1)) {
            tk_free(ord);
            return 0;
        }
    }
    CACHE_PUBLISH(p->symbols_by_addr, ord);
    return 1;
}

static const uint32_t *symbols_by_addr(const tk_cfg_process *cp)
{
    return address_index(cp, &cp->symbols_by_addr, build_symbols_by_addr);
}

/* The symbol starting last at or before the block, the first in file order
 * among symbols at the same address: a binary search in the address order
 * (a scan of the image's symbols when out of memory). */
const char *tk_cfg_block_symbol(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t block,
                                uint64_t *offset)
{
    const tk_cfg_block *b = &p->blocks[block];
    const tk_cfg_image *im = &p->images[tk_cfg_block_image(p, block)];
    const tk_cfg_symbol *best = NULL;
    const uint32_t *sorted = symbols_by_addr(p);
    if (sorted) {
        const uint32_t *ord = sorted + im->first_symbol;
        uint32_t lo = 0, hi = im->nsymbols;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (p->symbols[ord[mid]].addr_offset <= b->addr_offset)
                lo = mid + 1;
            else
                hi = mid;
        }
        while (lo > 1 && p->symbols[ord[lo - 2]].addr_offset == p->symbols[ord[lo - 1]].addr_offset)
            lo--;
        if (lo > 0) best = &p->symbols[ord[lo - 1]];
    } else {
        for (uint32_t i = 0; i < im->nsymbols; i++) {
            const tk_cfg_symbol *s = &p->symbols[im->first_symbol + i];
            if (s->addr_offset <= b->addr_offset && (!best || s->addr_offset > best->addr_offset))
                best = s;
        }
    }
    if (!best) return NULL;
    if (offset) *offset = b->addr_offset - best->addr_offset;
    return cfg_str(cfg, best->name);
}

/* Of two source lines, whether x is the better candidate of a block at or
 * after both: the one starting later, the later in file order among equal
 * starts. */
static int source_later(const tk_cfg_process *p, uint32_t x, uint32_t y)
{
    return p->sources[x].addr_offset > p->sources[y].addr_offset ||
           (p->sources[x].addr_offset == p->sources[y].addr_offset && x > y);
}

uint32_t tk_cfg_block_source(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t block,
                             const char **file)
{
    /* what tk_cfg_blocks_source finds for one block, without its sort */
    if (file) *file = NULL;
    uint32_t i = tk_cfg_block_image(p, block);
    if (i == TK_CFG_NONE) return 0;
    const tk_cfg_image *im = &p->images[i];
    uint64_t off = p->blocks[block].addr_offset;
    uint32_t best = TK_CFG_NONE;
    for (uint32_t j = im->first_source; j < im->first_source + im->nsources; j++)
        if (p->sources[j].addr_offset <= off && (best == TK_CFG_NONE || source_later(p, j, best)))
            best = j;
    if (best == TK_CFG_NONE || off - p->sources[best].addr_offset >= cfg_source_size(p, best))
        return 0;
    if (file) *file = tk_cfg_file_name(cfg, p->sources[best].file_name_id);
    return p->sources[best].line_num;
}

typedef struct line_query {
    uint64_t off;
    uint32_t image, slot;
} line_query;

static int cmp_line_query(const void *a, const void *b)
{
    const line_query *x = a, *y = b;
    if (x->image != y->image) return x->image < y->image ? -1 : 1;
    if (x->off != y->off) return x->off < y->off ? -1 : 1;
    return (x->slot > y->slot) - (x->slot < y->slot);
}

/* One pass over each image's source table with the blocks sorted by address:
 * each source line is a candidate of the first block at or after its start,
 * and of every later block through a running best. */
tk_status tk_cfg_blocks_source(const tk_cfg *cfg, const tk_cfg_process *p, const uint32_t *blocks,
                               uint32_t n, uint32_t *lines, const char **files, tk_error *err)
{
    line_query *q = tk_malloc(sizeof *q * (n ? n : 1));
    uint32_t *cand = tk_malloc(sizeof *cand * (n ? n : 1)); /* best source per query, NONE */
    if (!q || !cand) {
        tk_free(q);
        tk_free(cand);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    for (uint32_t k = 0; k < n; k++) {
        q[k].off = p->blocks[blocks[k]].addr_offset;
        q[k].image = tk_cfg_block_image(p, blocks[k]);
        q[k].slot = k;
        cand[k] = TK_CFG_NONE;
        lines[k] = 0;
        files[k] = NULL;
    }
    qsort(q, n, sizeof *q, cmp_line_query);
    for (uint32_t qa = 0, qb; qa < n; qa = qb) {
        const tk_cfg_image *im = &p->images[q[qa].image];
        for (qb = qa; qb < n && q[qb].image == q[qa].image; qb++) {
        }
        for (uint32_t j = im->first_source; j < im->first_source + im->nsources; j++) {
            uint64_t a = p->sources[j].addr_offset;
            uint32_t lo = qa, hi = qb;
            while (lo < hi) {
                uint32_t mid = lo + (hi - lo) / 2;
                if (q[mid].off < a)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo < qb && (cand[lo] == TK_CFG_NONE || source_later(p, j, cand[lo]))) cand[lo] = j;
        }
        uint32_t best = TK_CFG_NONE;
        for (uint32_t k = qa; k < qb; k++) {
            if (cand[k] != TK_CFG_NONE && (best == TK_CFG_NONE || source_later(p, cand[k], best)))
                best = cand[k];
            if (best == TK_CFG_NONE ||
                q[k].off - p->sources[best].addr_offset >= cfg_source_size(p, best))
                continue;
            lines[q[k].slot] = p->sources[best].line_num;
            files[q[k].slot] = tk_cfg_file_name(cfg, p->sources[best].file_name_id);
        }
    }
    tk_free(q);
    tk_free(cand);
    return TK_OK;
}

/* ---- scopes --------------------------------------------------------------- */

/* The loop is the block's innermost loop or encloses it. */
static int loop_contains(const tk_cfg_process *p, uint32_t loop, uint32_t block)
{
    uint32_t l = p->blocks[block].loop;
    return l != TK_CFG_NONE && cfg_loop_encloses(p, loop, l);
}

int tk_cfg_scope_contains(const tk_cfg_process *p, tk_cfg_scope s, uint32_t node)
{
    if (node >= p->nnodes) return 0;
    if (s.kind == TK_SCOPE_PROCESS) return node < p->nblocks;
    if (node >= p->nblocks) return 0;
    const tk_cfg_block *b = &p->blocks[node];
    switch (s.kind) {
    case TK_SCOPE_IMAGE:
        return s.index < p->nimages &&
               node - p->images[s.index].first_block < p->images[s.index].nblocks;
    case TK_SCOPE_ROUTINE: return b->routine == s.index;
    case TK_SCOPE_LOOP: return loop_contains(p, s.index, node);
    case TK_SCOPE_BLOCK: return node == s.index;
    default: return 0;
    }
}

/* Blocks of a scope: calls fn(ctx, block) for each. */
static void scope_blocks(const tk_cfg_process *p, tk_cfg_scope s,
                         void (*fn)(void *, const tk_cfg_process *, uint32_t), void *ctx)
{
    switch (s.kind) {
    case TK_SCOPE_PROCESS:
        for (uint32_t b = 0; b < p->nblocks; b++) fn(ctx, p, b);
        break;
    case TK_SCOPE_IMAGE: {
        const tk_cfg_image *im = &p->images[s.index];
        for (uint32_t b = 0; b < im->nblocks; b++) fn(ctx, p, im->first_block + b);
        break;
    }
    case TK_SCOPE_ROUTINE: {
        const tk_cfg_routine *r = &p->routines[s.index];
        for (uint32_t k = 0; k < r->nnodes; k++)
            if (p->pool[r->nodes + k] < p->nblocks) fn(ctx, p, p->pool[r->nodes + k]);
        break;
    }
    case TK_SCOPE_LOOP: {
        const tk_cfg_loop *l = &p->loops[s.index];
        for (uint32_t k = 0; k < l->nnodes; k++)
            if (p->pool[l->nodes + k] < p->nblocks) fn(ctx, p, p->pool[l->nodes + k]);
        break;
    }
    case TK_SCOPE_BLOCK: fn(ctx, p, s.index); break;
    }
}

typedef struct sum_ctx {
    uint64_t instrs, statics, blocks;
    uint32_t thread;
} sum_ctx;

static void add_counts(void *ctx, const tk_cfg_process *p, uint32_t b)
{
    sum_ctx *c = ctx;
    c->instrs += p->blocks[b].count * p->blocks[b].num_instrs;
    c->statics += p->blocks[b].num_instrs;
    c->blocks++;
}

static void add_thread_counts(void *ctx, const tk_cfg_process *p, uint32_t b)
{
    sum_ctx *c = ctx;
    c->instrs += tk_cfg_block_count_thread(p, b, c->thread) * p->blocks[b].num_instrs;
}

uint64_t tk_cfg_scope_instr_count(const tk_cfg_process *p, tk_cfg_scope s)
{
    sum_ctx c = {0, 0, 0, 0};
    scope_blocks(p, s, add_counts, &c);
    return c.instrs;
}

uint64_t tk_cfg_scope_instr_count_thread(const tk_cfg_process *p, tk_cfg_scope s, uint32_t thread)
{
    sum_ctx c = {0, 0, 0, thread};
    scope_blocks(p, s, add_thread_counts, &c);
    return c.instrs;
}

typedef struct threads_ctx {
    uint64_t *out;
    uint32_t nthreads;
} threads_ctx;

static void add_all_thread_counts(void *ctx, const tk_cfg_process *p, uint32_t b)
{
    threads_ctx *c = ctx;
    uint32_t ne_b;
    const uint32_t *ed = count_edges(p, b, &ne_b);
    uint64_t n = p->blocks[b].num_instrs;
    for (uint32_t k = 0; k < ne_b; k++) {
        const tk_cfg_edge *e = &p->edges[ed[k]];
        uint32_t ne = cfg_edge_nthreads(p, ed[k]), nt = ne < c->nthreads ? ne : c->nthreads;
        for (uint32_t t = 0; t < nt; t++) c->out[t] += cfg_edge_count_thread(p, e, t) * n;
    }
}

void tk_cfg_scope_instr_count_threads(const tk_cfg_process *p, tk_cfg_scope s, uint64_t *out,
                                      uint32_t nthreads)
{
    threads_ctx c = {out, nthreads};
    for (uint32_t t = 0; t < nthreads; t++) out[t] = 0;
    if (s.kind == TK_SCOPE_PROCESS) {
        /* one pass in edge order: an edge counts for its target block (whose
         * in-edges it is one of) and for its source block when that block has
         * no in-edges (its count then comes from its out-edges) */
        for (uint32_t e = 0; e < p->nedges; e++) {
            const tk_cfg_edge *ed = &p->edges[e];
            if (e + 16 < p->nedges) { /* the blocks are random accesses: asked for ahead */
                uint32_t ahead = p->edges[e + 16].tgt;
                if (ahead < p->nblocks) __builtin_prefetch(&p->blocks[ahead]);
            }
            if (ed->src >= p->nnodes || ed->tgt >= p->nnodes) continue; /* not in the adjacency */
            uint64_t n = 0;
            if (ed->tgt < p->nblocks) n += p->blocks[ed->tgt].num_instrs;
            if (ed->src < p->nblocks && !(p->block_flags[ed->src] & TK_CFG_BLOCK_HAS_IN_EDGES))
                n += p->blocks[ed->src].num_instrs;
            if (!n) continue;
            uint32_t ne = cfg_edge_nthreads(p, e), nt = ne < nthreads ? ne : nthreads;
            for (uint32_t t = 0; t < nt; t++) out[t] += cfg_edge_count_thread(p, ed, t) * n;
        }
        return;
    }
    scope_blocks(p, s, add_all_thread_counts, &c);
}

uint64_t tk_cfg_scope_static_instrs(const tk_cfg_process *p, tk_cfg_scope s)
{
    sum_ctx c = {0, 0, 0, 0};
    scope_blocks(p, s, add_counts, &c);
    return c.statics;
}

uint64_t tk_cfg_scope_block_count(const tk_cfg_process *p, tk_cfg_scope s)
{
    sum_ctx c = {0, 0, 0, 0};
    scope_blocks(p, s, add_counts, &c);
    return c.blocks;
}

typedef struct edges_ctx {
    const tk_cfg_process *p;
    tk_cfg_scope s;
    tk_cfg_edge_class cls;
    uint32_t **out;
    size_t *n, *cap;
    int failed;
} edges_ctx;

static void push_edge(edges_ctx *c, uint32_t e)
{
    if (!c->out) { /* counting only */
        (*c->n)++;
        return;
    }
    if (*c->n == *c->cap) {
        size_t nc = *c->cap ? *c->cap * 2 : 16;
        uint32_t *q = tk_realloc(*c->out, nc * sizeof *q); /* the caller's array (tk_free) */
        if (!q) {
            c->failed = 1;
            return;
        }
        *c->out = q;
        *c->cap = nc;
    }
    (*c->out)[(*c->n)++] = e;
}

static void collect_edges(void *ctx, const tk_cfg_process *p, uint32_t b)
{
    edges_ctx *c = ctx;
    uint32_t n;
    if (c->cls == TK_EDGES_INBOUND) {
        const uint32_t *in = cfg_in_edges(p, b, &n);
        for (uint32_t k = 0; k < n; k++)
            if (!tk_cfg_scope_contains(p, c->s, p->edges[in[k]].src)) push_edge(c, in[k]);
    } else {
        const uint32_t *out = cfg_out_edges(p, b, &n);
        for (uint32_t k = 0; k < n; k++) {
            int inside = tk_cfg_scope_contains(p, c->s, p->edges[out[k]].tgt);
            if (inside == (c->cls == TK_EDGES_INTERNAL)) push_edge(c, out[k]);
        }
    }
}

tk_status tk_cfg_scope_edges(const tk_cfg *cfg, const tk_cfg_process *p, tk_cfg_scope s,
                             tk_cfg_edge_class cls, uint32_t **out, size_t *n, size_t *cap,
                             tk_error *err)
{
    (void)cfg;
    edges_ctx c = {p, s, cls, out, n, cap, 0};
    if (!out && s.kind == TK_SCOPE_PROCESS && cls == TK_EDGES_INTERNAL) {
        /* counting only: one pass over the edges (block to block) */
        for (uint32_t e = 0; e < p->nedges; e++)
            if (p->edges[e].src < p->nblocks && p->edges[e].tgt < p->nblocks) (*n)++;
    } else if (s.kind == TK_SCOPE_PROCESS && cls != TK_EDGES_INTERNAL) {
        /* edges from / to special nodes */
        for (uint32_t e = 0; e < p->nedges; e++) {
            const tk_cfg_edge *ed = &p->edges[e];
            if (ed->src == TK_CFG_NONE || ed->tgt == TK_CFG_NONE) continue;
            int src_in = ed->src < p->nblocks, tgt_in = ed->tgt < p->nblocks;
            if ((cls == TK_EDGES_INBOUND && !src_in && tgt_in) ||
                (cls == TK_EDGES_OUTBOUND && src_in && !tgt_in))
                push_edge(&c, e);
        }
    } else {
        if (tk_cfg_need_adjacency(p, err) != TK_OK)
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        scope_blocks(p, s, collect_edges, &c);
    }
    return c.failed ? tk_error_set(err, TK_ERR_NOMEM, "out of memory") : TK_OK;
}

/* ---- routines and loops --------------------------------------------------- */

uint64_t tk_cfg_stored_routine_entry_count(const tk_cfg_process *p, const tk_cfg_routine *r)
{
    return r->entry < p->nblocks ? p->blocks[r->entry].count : 0;
}

uint32_t tk_cfg_routine_idom(const tk_cfg_process *p, uint32_t routine, uint32_t block)
{
    if (block >= p->nblocks || p->blocks[block].routine != routine) return TK_CFG_NONE;
    return p->blocks[block].idom;
}

static uint64_t loop_entries(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t loop, int thread)
{
    const tk_cfg_loop *l = &p->loops[loop];
    uint64_t sum = 0;
    tk_cfg_scope s = {TK_SCOPE_LOOP, loop};
    for (uint32_t k = 0; k < l->nnodes; k++) {
        uint32_t b = p->pool[l->nodes + k];
        if (b >= p->nblocks) continue;
        uint32_t n;
        const uint32_t *in = cfg_in_edges(p, b, &n);
        for (uint32_t q = 0; q < n; q++) {
            const tk_cfg_edge *e = &p->edges[in[q]];
            if (tk_cfg_scope_contains(p, s, e->src)) continue;
            if (tk_edge_kind_is_any_return(tk_cfg_stored_edge_kind(cfg, e))) continue;
            sum +=
                thread < 0 ? cfg_edge_count(p, e) : cfg_edge_count_thread(p, e, (uint32_t)thread);
        }
    }
    return sum;
}

uint64_t tk_cfg_loop_entry_count(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t loop)
{
    return loop_entries(cfg, p, loop, -1);
}

uint64_t tk_cfg_loop_entry_count_thread(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t loop,
                                        uint32_t thread)
{
    return loop_entries(cfg, p, loop, (int)thread);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int tk_cfg_loop_entry_counts(const tk_cfg *cfg, const tk_cfg_process *p, const uint32_t *loops,
                             uint32_t n, uint64_t *out)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++) total += p->loops[loops[i]].nnodes;
    if (total > p->nblocks / 4 + 64) {
        /* many nodes: the adjacency is worth building */
        if (tk_cfg_need_adjacency(p, NULL) != TK_OK) return 0;
        for (uint32_t i = 0; i < n; i++) out[i] = tk_cfg_loop_entry_count(cfg, p, loops[i]);
        return 1;
    }
    /* (block << 32 | slot) of every node of the loops, by block; a bit per
     * block that is a node of one of them */
    uint64_t *pairs = tk_malloc(sizeof *pairs * (total ? total : 1));
    uint64_t *marked = tk_calloc(((size_t)p->nblocks + 63) / 64 + 1, sizeof *marked);
    if (!pairs || !marked) {
        tk_free(pairs);
        tk_free(marked);
        return 0;
    }
    size_t np = 0;
    for (uint32_t i = 0; i < n; i++) {
        const tk_cfg_loop *l = &p->loops[loops[i]];
        out[i] = 0;
        for (uint32_t k = 0; k < l->nnodes; k++) {
            uint32_t b = p->pool[l->nodes + k];
            if (b >= p->nblocks) continue;
            pairs[np++] = (uint64_t)b << 32 | i;
            marked[b / 64] |= 1ull << (b % 64);
        }
    }
    qsort(pairs, np, sizeof *pairs, cmp_u64);
    /* every in-edge of such a block (the edges of the adjacency: both ends
     * resolved) counts for each of its loops that does not contain the source */
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        uint32_t b = ed->tgt;
        if (b >= p->nblocks || ed->src >= p->nnodes || !(marked[b / 64] >> (b % 64) & 1)) continue;
        if (tk_edge_kind_is_any_return(tk_cfg_stored_edge_kind(cfg, ed))) continue;
        size_t lo = 0, hi = np;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if ((pairs[mid] >> 32) < b)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < np && (pairs[lo] >> 32) == b; lo++) {
            uint32_t slot = (uint32_t)pairs[lo];
            if (!tk_cfg_scope_contains(p, (tk_cfg_scope){TK_SCOPE_LOOP, loops[slot]}, ed->src))
                out[slot] += cfg_edge_count(p, ed);
        }
    }
    tk_free(pairs);
    tk_free(marked);
    return 1;
}

uint64_t tk_cfg_loop_iteration_count(const tk_cfg_process *p, uint32_t loop)
{
    uint32_t h = p->loops[loop].head;
    return h < p->nblocks ? p->blocks[h].count : 0;
}

int tk_cfg_loop_is_back_edge(const tk_cfg_process *p, uint32_t loop, uint32_t edge)
{
    const tk_cfg_loop *l = &p->loops[loop];
    const tk_cfg_edge *e = &p->edges[edge];
    if (e->tgt != l->head) return 0;
    for (uint32_t k = 0; k < l->nback_srcs; k++)
        if (p->pool[l->back_srcs + k] == e->src) return 1;
    return 0;
}
