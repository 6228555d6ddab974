/* The profile model: string table, events, functions, parts with cost tables. */
#include "model/profile.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/vec.h"
#include "core/hash.h"
#include "core/num.h"

#define STR_CHUNK (64 * 1024)
#define STR_CHUNK_MAX ((size_t)8 << 20) /* chunks double up to this (big ones: huge pages) */
/* a chunk with its header and the allocator's is a power of two: a full
 * chunk of 2 MiB or more ends where its last huge page does */
#define STR_CHUNK_SLACK (sizeof(str_chunk) + TK_ALLOC_BIG_HEADER)

typedef struct str_chunk {
    struct str_chunk *next;
    size_t used, size;
    char data[];
} str_chunk;

struct tk_profile {
    uint64_t hash_key; /* of the string set and the rows' slots (tk_hash_new_key) */
    /* strings: pointers into chunks, deduplicated by an open-addressing set */
    const char **strs;
    uint32_t *str_lens;
    uint64_t *str_hashes;
    size_t str_count, str_cap;
    /* open addressing: string index + 1 in the low half, the high half of
     * its hash in the high half (a probe past another string costs no visit
     * to str_hashes); 0 = empty */
    uint64_t *str_slots;
    size_t str_slot_count;
    str_chunk *chunks;

    tk_prof_event events[TK_PROFILE_MAX_EVENTS];
    size_t event_count;
    tk_prof_derived *derived;
    size_t derived_count, derived_cap;

    tk_prof_function *fns;
    size_t fn_count, fn_cap;
    /* Functions are found by name (string id): by_name[name] holds the last
     * function found with that name, its object and file beside it (a hit
     * costs one memory access), and the first of the name's chain through
     * fn_next (functions of one name in other objects or files; few). */
    struct fn_by_name {
        uint32_t object, file, fn; /* fn: the last found; UINT32_MAX = none yet */
        uint32_t head; /* the chain's first function */
    } * by_name;
    size_t by_name_count;
    uint32_t *fn_next; /* per function: the next of its name, UINT32_MAX at the end */
    /* names whose chain grew long (bit per name) have every function of the
     * chain in fn_index, keyed by a hash of (object, file, name): a miss
     * there means a new function, without walking the chain */
    uint64_t *long_chain;
    tk_hmap fn_index;

    tk_prof_part **parts;
    size_t part_count, part_cap;
    int has_rows;
    tk_profile_read_sums read_sums;
};

/* ---- hashing ------------------------------------------------------------ */

static uint64_t hash_words(uint64_t hk, const void *key, size_t size)
{
    const unsigned char *b = key;
    uint64_t h = tk_hash_u64(0x9e3779b97f4a7c15ULL ^ hk); /* keys hold the file's addresses */
    for (size_t i = 0; i < size; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 31;
    }
    return tk_hash_u64(h);
}

static int grow_array(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 1;
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elem) return 0;
        n *= 2;
    }
    void *p = tk_realloc(*arr, n * elem);
    if (!p) return 0;
    *arr = p;
    *cap = n;
    return 1;
}

/* ---- profile ------------------------------------------------------------ */

tk_status tk_profile_open(tk_profile **out, tk_error *err)
{
    *out = NULL;
    tk_profile *p = tk_calloc(1, sizeof *p);
    if (!p) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    p->hash_key = tk_hash_new_key();
    *out = p;
    return TK_OK;
}

static void table_free(tk_prof_table *t)
{
    tk_free(t->rows);
    tk_free(t->values);
    tk_free(t->slots);
}

static void part_free(tk_prof_part *part)
{
    if (!part) return;
    tk_free(part->cmd);
    tk_free(part->creator);
    for (size_t i = 0; i < part->desc_count; i++) tk_free(part->desc[i]);
    tk_free(part->desc);
    table_free(&part->self);
    table_free(&part->calls);
    table_free(&part->jumps);
    tk_free(part->calls_into);
    tk_free(part);
}

void tk_profile_free(tk_profile *p)
{
    if (!p) return;
    tk_free(p->strs);
    tk_free(p->str_lens);
    tk_free(p->str_hashes);
    tk_free(p->str_slots);
    for (str_chunk *c = p->chunks, *n; c; c = n) {
        n = c->next;
        tk_free(c);
    }
    tk_free(p->derived);
    tk_free(p->fns);
    tk_free(p->by_name);
    tk_free(p->fn_next);
    tk_free(p->long_chain);
    tk_hmap_free(&p->fn_index);
    for (size_t i = 0; i < p->part_count; i++) part_free(p->parts[i]);
    tk_free(p->parts);
    tk_free(p);
}

tk_profile_read_sums *tk_profile_read_sums_of(tk_profile *p) { return &p->read_sums; }

/* ---- strings ------------------------------------------------------------ */

static char *str_store(tk_profile *p, const char *s, size_t len)
{
    str_chunk *c = p->chunks;
    if (!c || c->size - c->used < len + 1) {
        size_t whole = !c ? STR_CHUNK : (c->size + STR_CHUNK_SLACK) * 2;
        if (whole > STR_CHUNK_MAX) whole = STR_CHUNK_MAX;
        size_t chunk = whole - STR_CHUNK_SLACK;
        size_t size = len + 1 > chunk ? len + 1 : chunk;
        str_chunk *n = tk_malloc(sizeof *n + size);
        if (!n) return NULL;
        n->size = size;
        n->used = 0;
        if (c && len + 1 > chunk) { /* keep filling the current chunk */
            n->next = c->next;
            c->next = n;
        } else {
            n->next = c;
            p->chunks = n;
        }
        c = n;
    }
    char *d = c->data + c->used;
    memcpy(d, s, len);
    d[len] = 0;
    c->used += len + 1;
    return d;
}

static uint64_t str_slot(uint64_t h, size_t i) { return (h & 0xffffffff00000000ULL) | (i + 1); }

static int str_rehash(tk_profile *p, size_t slots)
{
    uint64_t *ns = tk_calloc(slots, sizeof *ns);
    if (!ns) return 0;
    for (size_t i = 0; i < p->str_count; i++) {
        size_t j = p->str_hashes[i] & (slots - 1);
        while (ns[j]) j = (j + 1) & (slots - 1);
        ns[j] = str_slot(p->str_hashes[i], i);
    }
    tk_free(p->str_slots);
    p->str_slots = ns;
    p->str_slot_count = slots;
    return 1;
}

tk_status tk_profile_intern(tk_profile *p, const char *s, size_t len, uint32_t *id, tk_error *err)
{
    if (len > UINT32_MAX) return tk_error_set(err, TK_ERR_LIMIT, "a string over 4 GiB");
    uint64_t h = tk_hash_bytes(p->hash_key, s, len);
    if (p->str_slot_count) {
        size_t mask = p->str_slot_count - 1;
        uint64_t high = h & 0xffffffff00000000ULL;
        for (size_t j = h & mask;; j = (j + 1) & mask) {
            uint64_t slot = p->str_slots[j];
            if (!slot) break;
            if ((slot & 0xffffffff00000000ULL) != high) continue;
            uint32_t v = (uint32_t)slot - 1;
            if (p->str_hashes[v] == h && p->str_lens[v] == len && memcmp(p->strs[v], s, len) == 0) {
                *id = v;
                return TK_OK;
            }
        }
    }
    if (p->str_count >= UINT32_MAX - 1)
        return tk_error_set(err, TK_ERR_LIMIT, "more than 2^32 - 2 strings");
    if ((p->str_count + 1) * 2 > p->str_slot_count &&
        !str_rehash(p, p->str_slot_count ? p->str_slot_count * 2 : 1024))
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    size_t cap = p->str_cap;
    if (!grow_array((void **)&p->strs, &cap, p->str_count + 1, sizeof *p->strs))
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    cap = p->str_cap;
    if (!grow_array((void **)&p->str_lens, &cap, p->str_count + 1, sizeof *p->str_lens))
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    cap = p->str_cap;
    if (!grow_array((void **)&p->str_hashes, &cap, p->str_count + 1, sizeof *p->str_hashes))
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    p->str_cap = cap;
    char *d = str_store(p, s, len);
    if (!d) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    size_t i = p->str_count++;
    p->strs[i] = d;
    p->str_lens[i] = (uint32_t)len;
    p->str_hashes[i] = h;
    size_t mask = p->str_slot_count - 1;
    size_t j = h & mask;
    while (p->str_slots[j]) j = (j + 1) & mask;
    p->str_slots[j] = str_slot(h, i);
    *id = (uint32_t)i;
    return TK_OK;
}

const char *tk_profile_str(const tk_profile *p, uint32_t id)
{
    return id < p->str_count ? p->strs[id] : "";
}

size_t tk_profile_str_len(const tk_profile *p, uint32_t id)
{
    return id < p->str_count ? p->str_lens[id] : 0;
}

/* ---- events ------------------------------------------------------------- */

size_t tk_profile_event_count(const tk_profile *p) { return p->event_count; }

const tk_prof_event *tk_profile_event(const tk_profile *p, size_t i)
{
    return i < p->event_count ? &p->events[i] : NULL;
}

void tk_profile_event_get(const tk_profile *p, size_t i, tk_prof_event_info *out)
{
    out->name = out->long_name = TK_PROF_NONE;
    if (i >= p->event_count) return;
    out->name = p->events[i].name;
    out->long_name = p->events[i].long_name;
}

const char *tk_profile_event_name(const tk_profile *p, size_t i)
{
    return i < p->event_count ? tk_profile_str(p, p->events[i].name) : NULL;
}

int tk_profile_find_event(const tk_profile *p, const char *name, size_t len)
{
    for (size_t i = 0; i < p->event_count; i++) {
        uint32_t n = p->events[i].name;
        if (p->str_lens[n] == len && memcmp(p->strs[n], name, len) == 0) return (int)i;
    }
    return -1;
}

tk_status tk_profile_add_event(tk_profile *p, const char *name, size_t len, size_t *index,
                               tk_error *err)
{
    int found = tk_profile_find_event(p, name, len);
    if (found >= 0) {
        *index = (size_t)found;
        return TK_OK;
    }
    if (p->has_rows)
        return tk_error_set(err, TK_ERR_UNSUPPORTED,
                            "event type '%.*s' appears after costs were recorded without it",
                            (int)(len > 200 ? 200 : len), name);
    if (p->event_count >= TK_PROFILE_MAX_EVENTS)
        return tk_error_set(err, TK_ERR_LIMIT, "more than %d event types", TK_PROFILE_MAX_EVENTS);
    uint32_t id;
    tk_status st = tk_profile_intern(p, name, len, &id, err);
    if (st != TK_OK) return tk_error_set(err, st, "out of memory");
    p->events[p->event_count].name = id;
    p->events[p->event_count].long_name = TK_PROF_NONE;
    *index = p->event_count++;
    return TK_OK;
}

void tk_profile_set_event_long_name(tk_profile *p, size_t index, uint32_t long_name)
{
    if (index < p->event_count) p->events[index].long_name = long_name;
}

tk_status tk_profile_add_derived(tk_profile *p, uint32_t name, uint32_t formula, uint32_t long_name,
                                 tk_error *err)
{
    for (size_t i = 0; i < p->derived_count; i++) {
        if (p->derived[i].name == name) {
            p->derived[i].formula = formula;
            if (long_name != TK_PROF_NONE) p->derived[i].long_name = long_name;
            return TK_OK;
        }
    }
    if (p->derived_count >= TK_PROFILE_MAX_EVENTS)
        return tk_error_set(err, TK_ERR_LIMIT, "more than %d derived events",
                            TK_PROFILE_MAX_EVENTS); /* results go in event-sized arrays */
    if (!grow_array((void **)&p->derived, &p->derived_cap, p->derived_count + 1,
                    sizeof *p->derived))
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    tk_prof_derived *d = &p->derived[p->derived_count++];
    d->name = name;
    d->formula = formula;
    d->long_name = long_name;
    return TK_OK;
}

size_t tk_profile_derived_count(const tk_profile *p) { return p->derived_count; }

const tk_prof_derived *tk_profile_derived(const tk_profile *p, size_t i)
{
    return i < p->derived_count ? &p->derived[i] : NULL;
}

void tk_profile_derived_get(const tk_profile *p, size_t i, tk_prof_derived_info *out)
{
    out->name = out->formula = out->long_name = TK_PROF_NONE;
    if (i >= p->derived_count) return;
    out->name = p->derived[i].name;
    out->formula = p->derived[i].formula;
    out->long_name = p->derived[i].long_name;
}

static int is_space(char c) { return c == ' ' || c == '\t'; }
static int is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Grammar (spec InheritedExpr): term ('+' term)*, term = [Number ['*']] Name. */
tk_status tk_profile_eval_derived(const tk_profile *p, size_t i, const uint64_t *costs,
                                  uint64_t *result, tk_error *err)
{
    if (i >= p->derived_count) return tk_error_set(err, TK_ERR_ARG, "no derived event %zu", i);
    const char *s = p->strs[p->derived[i].formula];
    const char *e = s + p->str_lens[p->derived[i].formula];
    uint64_t sum = 0;
    for (;;) {
        while (s < e && is_space(*s)) s++;
        uint64_t coef = 1;
        tk_status nst = tk_num_scan_dec(&s, e, &coef);
        if (nst == TK_ERR_LIMIT) return tk_error_set(err, nst, "a coefficient over 64 bits");
        if (nst == TK_OK) {
            while (s < e && is_space(*s)) s++;
            if (s < e && *s == '*') s++;
            while (s < e && is_space(*s)) s++;
        }
        const char *n = s;
        while (s < e && is_name_char(*s)) s++;
        if (s == n)
            return tk_error_set(err, TK_ERR_FORMAT, "an event name expected in the formula");
        int ev = tk_profile_find_event(p, n, (size_t)(s - n));
        if (ev < 0) return tk_error_set(err, TK_ERR_FORMAT, "an unknown event in the formula");
        uint64_t term;
        if (__builtin_mul_overflow(coef, costs[ev], &term) ||
            __builtin_add_overflow(sum, term, &sum))
            return tk_error_set(err, TK_ERR_LIMIT, "the value is over 64 bits");
        while (s < e && is_space(*s)) s++;
        if (s == e) break;
        if (*s != '+') return tk_error_set(err, TK_ERR_FORMAT, "'+' expected in the formula");
        s++;
    }
    *result = sum;
    return TK_OK;
}

/* ---- functions ---------------------------------------------------------- */

/* Chains longer than this are indexed (N functions of one name in N files
 * made creating them quadratic). */
#define FN_CHAIN_INDEX 8

static uint64_t fn_key(uint32_t object, uint32_t file, uint32_t name)
{
    return tk_hash_u64(((uint64_t)object << 32 | file) ^
                       tk_hash_u64((uint64_t)name + 0x9e3779b97f4a7c15ULL));
}

/* Index the whole chain of name; 0 when out of memory (the chain is then
 * walked as before). */
static int index_chain(tk_profile *p, uint32_t name)
{
    for (uint32_t f = p->by_name[name].head; f != UINT32_MAX; f = p->fn_next[f]) {
        const tk_prof_function *x = &p->fns[f];
        if (tk_hmap_put(&p->fn_index, fn_key(x->object, x->file, x->name), f) != 0) return 0;
    }
    p->long_chain[name / 64] |= 1ull << (name % 64);
    return 1;
}

tk_status tk_profile_function(tk_profile *p, uint32_t object, uint32_t file, uint32_t name,
                              uint32_t *fn, tk_error *err)
{
    if (name >= p->by_name_count) {
        size_t n = p->by_name_count ? p->by_name_count : 1024;
        while (n <= name) {
            if (n > SIZE_MAX / 2 / sizeof *p->by_name)
                return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
            n *= 2;
        }
        struct fn_by_name *h = tk_realloc(p->by_name, n * sizeof *h);
        if (!h) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        memset(h + p->by_name_count, 0xff, (n - p->by_name_count) * sizeof *h);
        p->by_name = h;
        uint64_t *lc = tk_realloc(p->long_chain, n / 64 * sizeof *lc); /* n: a multiple of 1024 */
        if (!lc) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        memset(lc + p->by_name_count / 64, 0, (n - p->by_name_count) / 64 * sizeof *lc);
        p->long_chain = lc;
        p->by_name_count = n;
    }
    struct fn_by_name *h = &p->by_name[name];
    if (h->fn != UINT32_MAX) {
        if (h->object == object && h->file == file) {
            *fn = h->fn;
            return TK_OK;
        }
        int walk = 1;
        if (p->long_chain[name / 64] >> (name % 64) & 1) {
            uint64_t f;
            if (!tk_hmap_get(&p->fn_index, fn_key(object, file, name), &f)) {
                walk = 0; /* every function of the chain is in the index: a new one */
            } else if (p->fns[f].object == object && p->fns[f].file == file &&
                       p->fns[f].name == name) {
                *h = (struct fn_by_name){object, file, (uint32_t)f, h->head};
                *fn = (uint32_t)f;
                return TK_OK;
            } /* else two keys collided: walk */
        }
        uint32_t steps = 0;
        for (uint32_t f = walk ? h->head : UINT32_MAX; f != UINT32_MAX;
             f = p->fn_next[f], steps++) {
            if (p->fns[f].object == object && p->fns[f].file == file) {
                *h = (struct fn_by_name){object, file, f, h->head};
                *fn = f;
                return TK_OK;
            }
        }
        if (steps > FN_CHAIN_INDEX && !(p->long_chain[name / 64] >> (name % 64) & 1))
            (void)index_chain(p, name);
    }
    if (p->fn_count >= UINT32_MAX - 1)
        return tk_error_set(err, TK_ERR_LIMIT, "more than 2^32 - 2 functions");
    if (p->fn_count + 1 > p->fn_cap) {
        size_t cap = p->fn_cap;
        if (!grow_array((void **)&p->fns, &cap, p->fn_count + 1, sizeof *p->fns))
            return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        uint32_t *nx = tk_realloc(p->fn_next, cap * sizeof *nx);
        if (!nx) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        p->fn_next = nx;
        p->fn_cap = cap;
    }
    uint32_t f = (uint32_t)p->fn_count++;
    p->fns[f] = (tk_prof_function){object, file, name};
    p->fn_next[f] = h->head; /* UINT32_MAX for the first of its name */
    *h = (struct fn_by_name){object, file, f, f};
    if ((p->long_chain[name / 64] >> (name % 64) & 1) &&
        tk_hmap_put(&p->fn_index, fn_key(object, file, name), f) != 0)
        p->long_chain[name / 64] &=
            ~(1ull << (name % 64)); /* out of memory: walk the chain again */
    *fn = f;
    return TK_OK;
}

size_t tk_profile_function_count(const tk_profile *p) { return p->fn_count; }

const tk_prof_function *tk_profile_function_at(const tk_profile *p, uint32_t fn)
{
    return fn < p->fn_count ? &p->fns[fn] : NULL;
}

void tk_profile_function_get(const tk_profile *p, uint32_t fn, tk_prof_function_info *out)
{
    out->object = out->file = out->name = TK_PROF_NONE;
    if (fn >= p->fn_count) return;
    out->object = p->fns[fn].object;
    out->file = p->fns[fn].file;
    out->name = p->fns[fn].name;
}

/* ---- parts -------------------------------------------------------------- */

tk_status tk_profile_add_part(tk_profile *p, tk_prof_part **out, tk_error *err)
{
    if (!grow_array((void **)&p->parts, &p->part_cap, p->part_count + 1, sizeof *p->parts))
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    tk_prof_part *part = tk_calloc(1, sizeof *part);
    if (!part) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    p->parts[p->part_count++] = part;
    *out = part;
    return TK_OK;
}

size_t tk_profile_part_count(const tk_profile *p) { return p->part_count; }

int tk_profile_has_rows(const tk_profile *p) { return p->has_rows; }

void tk_profile_drop_parts(tk_profile *p)
{
    for (size_t i = 0; i < p->part_count; i++) part_free(p->parts[i]);
    tk_free(p->parts);
    p->parts = NULL;
    p->part_count = p->part_cap = 0;
    p->has_rows = 0;
}

tk_prof_part *tk_profile_part(const tk_profile *p, size_t i)
{
    return i < p->part_count ? p->parts[i] : NULL;
}

void tk_prof_part_get(const tk_prof_part *part, tk_prof_part_info *out)
{
    memset(out, 0, sizeof *out);
    out->has_number = part->has_number;
    out->has_thread = part->has_thread;
    out->has_pid = part->has_pid;
    out->number = part->number;
    out->thread = part->thread;
    out->pid = part->pid;
    out->cmd = part->cmd;
    out->creator = part->creator;
    out->desc_count = part->desc_count;
    out->positions = part->positions;
    out->has_summary = part->has_summary;
    out->has_totals = part->has_totals;
    out->summary = part->summary;
    out->totals = part->totals;
    out->events_mask_valid = part->events_mask_valid != 0;
    out->events_present = part->events_present;
    out->self_rows = part->self.count;
    out->call_rows = part->calls.count;
    out->jump_rows = part->jumps.count;
    out->call_lines = part->call_lines;
    out->jump_lines = part->jump_lines;
    out->has_line_sum = part->has_line_sum;
    out->line_sum = part->line_sum;
    out->calls_into = part->calls_into;
    out->calls_into_len = part->calls_into_len;
}

const char *tk_prof_part_desc(const tk_prof_part *part, size_t i)
{
    return i < part->desc_count ? part->desc[i] : NULL;
}

int tk_prof_part_self(const tk_prof_part *part, size_t i, tk_prof_self *key, uint64_t *costs)
{
    if (i >= part->self.count) return 0;
    size_t w = part->self.width;
    if (key) *key = ((const tk_prof_self *)part->self.rows)[i];
    if (costs && w) memcpy(costs, part->self.values + i * w, w * sizeof *costs);
    return 1;
}

int tk_prof_part_call(const tk_prof_part *part, size_t i, tk_prof_call *key, uint64_t *count,
                      uint64_t *inclusive)
{
    if (i >= part->calls.count) return 0;
    size_t w = part->calls.width;
    const uint64_t *v = part->calls.values + i * w;
    if (key) *key = ((const tk_prof_call *)part->calls.rows)[i];
    if (count) *count = v[0];
    if (inclusive) memcpy(inclusive, v + 1, (w - 1) * sizeof *inclusive);
    return 1;
}

int tk_prof_part_jump(const tk_prof_part *part, size_t i, tk_prof_jump *key, uint64_t *executed,
                      uint64_t *followed)
{
    if (i >= part->jumps.count) return 0;
    const uint64_t *v = part->jumps.values + i * 2;
    if (key) *key = ((const tk_prof_jump *)part->jumps.rows)[i];
    if (executed) *executed = v[0];
    if (followed) *followed = v[1];
    return 1;
}

void tk_prof_part_set_number(tk_prof_part *part, uint64_t number)
{
    part->has_number = 1;
    part->number = number;
}

void tk_prof_part_set_thread(tk_prof_part *part, uint64_t thread)
{
    part->has_thread = 1;
    part->thread = thread;
}

void tk_prof_part_set_pid(tk_prof_part *part, uint64_t pid)
{
    part->has_pid = 1;
    part->pid = pid;
}

void tk_prof_part_set_positions(tk_prof_part *part, unsigned positions)
{
    part->positions = positions;
}

void tk_prof_part_set_summary(const tk_profile *p, tk_prof_part *part, const uint64_t *summary)
{
    part->has_summary = summary != NULL;
    if (summary) memcpy(part->summary, summary, p->event_count * sizeof *summary);
}

tk_status tk_prof_part_set_cmd(tk_prof_part *part, const char *s, size_t len, tk_error *err)
{
    return tk_profile_part_set_string(&part->cmd, s, len, err);
}

tk_status tk_prof_part_set_creator(tk_prof_part *part, const char *s, size_t len, tk_error *err)
{
    return tk_profile_part_set_string(&part->creator, s, len, err);
}

tk_status tk_profile_part_set_string(char **field, const char *s, size_t len, tk_error *err)
{
    char *d = tk_malloc(len + 1);
    if (!d) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    memcpy(d, s, len);
    d[len] = 0;
    tk_free(*field);
    *field = d;
    return TK_OK;
}

tk_status tk_profile_part_add_desc(tk_prof_part *part, const char *s, size_t len, tk_error *err)
{
    char **nd = tk_realloc(part->desc, (part->desc_count + 1) * sizeof *nd);
    if (!nd) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    part->desc = nd;
    part->desc[part->desc_count] = NULL;
    tk_status st = tk_profile_part_set_string(&part->desc[part->desc_count], s, len, err);
    if (st == TK_OK) part->desc_count++;
    return st;
}

/* ---- cost tables -------------------------------------------------------- */

static int table_rehash(tk_prof_table *t, uint64_t hk, size_t row_size, size_t slots)
{
    uint32_t *ns = tk_calloc(slots, sizeof *ns);
    if (!ns) return 0;
    const char *rows = t->rows;
    for (size_t i = 0; i < t->count; i++) {
        size_t j = hash_words(hk, rows + i * row_size, row_size) & (slots - 1);
        while (ns[j]) j = (j + 1) & (slots - 1);
        ns[j] = (uint32_t)i + 1;
    }
    tk_free(t->slots);
    t->slots = ns;
    t->slot_count = slots;
    return 1;
}

/* Append a zeroed row with this key, which the caller knows is not in the
 * table; *row gets its index. A table without an index (slot_count 0) stays
 * without one: table_upsert builds it when it first needs it. */
static tk_status table_append(tk_prof_table *t, uint64_t hk, const void *key, size_t row_size,
                              size_t width, uint64_t h, size_t *row)
{
    if (t->count >= UINT32_MAX - 1) return TK_ERR_LIMIT;
    if (t->slot_count && (t->count + 1) * 2 > t->slot_count &&
        !table_rehash(t, hk, row_size, t->slot_count * 2))
        return TK_ERR_NOMEM;
    if (t->count + 1 > t->capacity) {
        size_t cap = t->capacity ? t->capacity * 2 : 16; /* parts can be tiny (and many) */
        void *nr = tk_realloc(t->rows, cap * row_size);
        if (!nr) return TK_ERR_NOMEM;
        t->rows = nr;
        if (width) {
            uint64_t *nv = tk_realloc(t->values, cap * width * sizeof *nv);
            if (!nv) return TK_ERR_NOMEM;
            t->values = nv;
        }
        t->capacity = cap;
    }
    size_t i = t->count++;
    t->width = width;
    memcpy((char *)t->rows + i * row_size, key, row_size);
    if (width) memset(t->values + i * width, 0, width * sizeof *t->values);
    if (t->slot_count) {
        size_t mask = t->slot_count - 1;
        size_t j = h & mask;
        while (t->slots[j]) j = (j + 1) & mask;
        t->slots[j] = (uint32_t)i + 1;
    }
    t->last = i + 1;
    *row = i;
    return TK_OK;
}

/* Find the row with this key or append a zeroed one; *row gets its index. */
static tk_status table_upsert(tk_prof_table *t, uint64_t hk, const void *key, size_t row_size,
                              size_t width, size_t *row)
{
    char *rows = t->rows;
    if (t->last && memcmp(rows + (t->last - 1) * row_size, key, row_size) == 0) {
        *row = t->last - 1;
        return TK_OK;
    }
    if (t->slot_count < 256 || t->count * 2 > t->slot_count) {
        /* no index yet (rows appended without one), or one too small */
        size_t slots = 256;
        while (slots < (t->count + 1) * 2) slots *= 2;
        if (!table_rehash(t, hk, row_size, slots)) return TK_ERR_NOMEM;
    }
    uint64_t h = hash_words(hk, key, row_size);
    size_t mask = t->slot_count - 1;
    for (size_t j = h & mask;; j = (j + 1) & mask) {
        uint32_t v = t->slots[j];
        if (!v) break;
        if (memcmp(rows + (v - 1) * row_size, key, row_size) == 0) {
            *row = v - 1;
            t->last = v;
            return TK_OK;
        }
    }
    return table_append(t, hk, key, row_size, width, h, row);
}

static tk_status add_values(uint64_t *dst, const uint64_t *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (__builtin_add_overflow(dst[i], src[i], &dst[i])) return TK_ERR_LIMIT;
    return TK_OK;
}

tk_status tk_profile_add_self(tk_profile *p, tk_prof_part *part, const tk_prof_self *key,
                              const uint64_t *costs, tk_error *err)
{
    size_t row;
    size_t w = p->event_count;
    tk_status st = table_upsert(&part->self, p->hash_key, key, sizeof *key, w, &row);
    if (st != TK_OK) return tk_error_from(err, st, "self costs");
    p->has_rows = 1;
    return tk_error_from(err, add_values(part->self.values + row * w, costs, w), "self costs");
}

tk_status tk_profile_append_self(tk_profile *p, tk_prof_part *part, const tk_prof_self *key,
                                 const uint64_t *costs, size_t *row, tk_error *err)
{
    size_t w = p->event_count;
    uint64_t h = part->self.slot_count ? hash_words(p->hash_key, key, sizeof *key) : 0;
    tk_status st = table_append(&part->self, p->hash_key, key, sizeof *key, w, h, row);
    if (st != TK_OK) return tk_error_from(err, st, "self costs");
    p->has_rows = 1;
    memcpy(part->self.values + *row * w, costs, w * sizeof *costs);
    return TK_OK;
}

tk_status tk_profile_part_count_calls(tk_prof_part *part, uint32_t fn, uint64_t count,
                                      tk_error *err)
{
    if (fn >= part->calls_into_len &&
        tk_vec_reserve_zeroed_((void **)&part->calls_into, &part->calls_into_len, (size_t)fn + 1,
                               sizeof *part->calls_into))
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (__builtin_add_overflow(part->calls_into[fn], count, &part->calls_into[fn]))
        return tk_error_set(err, TK_ERR_LIMIT, "a call count over 64 bits");
    return TK_OK;
}

tk_status tk_profile_append_call(tk_profile *p, tk_prof_part *part, const tk_prof_call *key,
                                 uint64_t count, const uint64_t *inclusive, size_t *row,
                                 tk_error *err)
{
    size_t w = p->event_count + 1;
    uint64_t h = part->calls.slot_count ? hash_words(p->hash_key, key, sizeof *key) : 0;
    tk_status st = table_append(&part->calls, p->hash_key, key, sizeof *key, w, h, row);
    if (st != TK_OK) return tk_error_from(err, st, "calls");
    p->has_rows = 1;
    uint64_t *v = part->calls.values + *row * w;
    v[0] = count;
    memcpy(v + 1, inclusive, (w - 1) * sizeof *inclusive);
    return TK_OK;
}

tk_status tk_profile_add_call(tk_profile *p, tk_prof_part *part, const tk_prof_call *key,
                              uint64_t count, const uint64_t *inclusive, tk_error *err)
{
    size_t row;
    size_t w = p->event_count + 1;
    tk_status st = table_upsert(&part->calls, p->hash_key, key, sizeof *key, w, &row);
    if (st != TK_OK) return tk_error_from(err, st, "calls");
    p->has_rows = 1;
    uint64_t *v = part->calls.values + row * w;
    if (__builtin_add_overflow(v[0], count, &v[0]))
        return tk_error_set(err, TK_ERR_LIMIT, "a call count over 64 bits");
    return tk_error_from(err, add_values(v + 1, inclusive, w - 1), "inclusive costs");
}

tk_status tk_profile_add_jump(tk_profile *p, tk_prof_part *part, const tk_prof_jump *key,
                              uint64_t executed, uint64_t followed, tk_error *err)
{
    size_t row;
    tk_status st = table_upsert(&part->jumps, p->hash_key, key, sizeof *key, 2, &row);
    if (st != TK_OK) return tk_error_from(err, st, "jumps");
    p->has_rows = 1;
    uint64_t *v = part->jumps.values + row * 2;
    if (__builtin_add_overflow(v[0], executed, &v[0]) ||
        __builtin_add_overflow(v[1], followed, &v[1]))
        return tk_error_set(err, TK_ERR_LIMIT, "a jump count over 64 bits");
    return TK_OK;
}

tk_status tk_profile_part_sum(const tk_profile *p, const tk_prof_part *part, uint64_t *sum,
                              tk_error *err)
{
    size_t w = p->event_count;
    memset(sum, 0, w * sizeof *sum);
    for (size_t r = 0; r < part->self.count; r++) {
        tk_status st = add_values(sum, part->self.values + r * w, w);
        if (st != TK_OK) return tk_error_set(err, st, "a cost sum over 64 bits");
    }
    return TK_OK;
}

tk_status tk_profile_part_fill_totals(const tk_profile *p, tk_prof_part *part, tk_error *err)
{
    tk_status st = tk_profile_part_sum(p, part, part->totals, err);
    if (st == TK_OK) part->has_totals = 1;
    return st;
}

/* ---- merge -------------------------------------------------------------- */

static tk_status remap_str(tk_profile *dst, const tk_profile *src, uint32_t id, uint32_t *out)
{
    if (id == TK_PROF_NONE) {
        *out = TK_PROF_NONE;
        return TK_OK;
    }
    return tk_profile_intern(dst, src->strs[id], src->str_lens[id], out, NULL);
}

static tk_status remap_fn(tk_profile *dst, const tk_profile *src, uint32_t fn, uint32_t *out)
{
    const tk_prof_function *f = &src->fns[fn];
    uint32_t o, fl, n;
    tk_status st;
    if ((st = remap_str(dst, src, f->object, &o)) != TK_OK) return st;
    if ((st = remap_str(dst, src, f->file, &fl)) != TK_OK) return st;
    if ((st = remap_str(dst, src, f->name, &n)) != TK_OK) return st;
    return tk_profile_function(dst, o, fl, n, out, NULL);
}

static tk_status copy_part_header(tk_prof_part *d, const tk_prof_part *s)
{
    tk_status st = TK_OK;
    d->has_number = s->has_number;
    d->number = s->number;
    d->has_thread = s->has_thread;
    d->thread = s->thread;
    d->has_pid = s->has_pid;
    d->pid = s->pid;
    d->positions = s->positions;
    if (s->cmd && (st = tk_profile_part_set_string(&d->cmd, s->cmd, strlen(s->cmd), NULL)) != TK_OK)
        return st;
    if (s->creator && (st = tk_profile_part_set_string(&d->creator, s->creator, strlen(s->creator),
                                                       NULL)) != TK_OK)
        return st;
    for (size_t i = 0; i < s->desc_count; i++)
        if ((st = tk_profile_part_add_desc(d, s->desc[i], strlen(s->desc[i]), NULL)) != TK_OK)
            return st;
    return TK_OK;
}

/* src's function fn in dst: fn_map's, or remapped by its names. */
static tk_status map_fn(tk_profile *dst, const tk_profile *src, const uint32_t *fn_map, uint32_t fn,
                        uint32_t *out)
{
    if (!fn_map) return remap_fn(dst, src, fn, out);
    *out = fn_map[fn];
    return TK_OK;
}

tk_status tk_profile_merge(tk_profile *dst, const tk_profile *src, tk_prof_part *into,
                           tk_error *err)
{
    return tk_profile_merge_mapped(dst, src, into, NULL, err);
}

tk_status tk_profile_merge_mapped(tk_profile *dst, const tk_profile *src, tk_prof_part *into,
                                  const uint32_t *fn_map, tk_error *err)
{
    size_t map[TK_PROFILE_MAX_EVENTS];
    tk_status st;
    for (size_t i = 0; i < src->event_count; i++) {
        uint32_t n = src->events[i].name;
        st = tk_profile_add_event(dst, src->strs[n], src->str_lens[n], &map[i], err);
        if (st != TK_OK) return st;
        if (src->events[i].long_name != TK_PROF_NONE) {
            uint32_t ln;
            if ((st = remap_str(dst, src, src->events[i].long_name, &ln)) != TK_OK)
                return tk_error_set(err, st, "out of memory");
            tk_profile_set_event_long_name(dst, map[i], ln);
        }
    }
    for (size_t i = 0; i < src->derived_count; i++) {
        uint32_t n, f, l;
        if ((st = remap_str(dst, src, src->derived[i].name, &n)) != TK_OK ||
            (st = remap_str(dst, src, src->derived[i].formula, &f)) != TK_OK ||
            (st = remap_str(dst, src, src->derived[i].long_name, &l)) != TK_OK ||
            (st = tk_profile_add_derived(dst, n, f, l, err)) != TK_OK)
            return tk_error_set(
                err, st, st == TK_ERR_LIMIT ? "more than %d derived events" : "out of memory",
                TK_PROFILE_MAX_EVENTS);
    }
    size_t dw = dst->event_count, sw = src->event_count;
    uint64_t costs[TK_PROFILE_MAX_EVENTS];
    for (size_t pi = 0; pi < src->part_count; pi++) {
        const tk_prof_part *sp = src->parts[pi];
        tk_prof_part *dp = into;
        if (!dp) {
            if ((st = tk_profile_add_part(dst, &dp, err)) != TK_OK ||
                (st = copy_part_header(dp, sp)) != TK_OK)
                return tk_error_set(err, st, "out of memory");
            dp->has_summary = sp->has_summary;
            dp->has_totals = sp->has_totals;
            for (size_t i = 0; i < sw; i++) {
                dp->summary[map[i]] = sp->summary[i];
                dp->totals[map[i]] = sp->totals[i];
                dp->events_present |= (uint64_t)((sp->events_present >> i) & 1) << map[i];
            }
            dp->events_mask_valid = sp->events_mask_valid;
        } else {
            dp->positions |= sp->positions;
            if (!sp->has_totals) dp->has_totals = 0;
            if (!sp->has_summary) dp->has_summary = 0;
            for (size_t i = 0; i < sw; i++) {
                if (__builtin_add_overflow(dp->summary[map[i]], sp->summary[i],
                                           &dp->summary[map[i]]) ||
                    __builtin_add_overflow(dp->totals[map[i]], sp->totals[i], &dp->totals[map[i]]))
                    return tk_error_set(err, TK_ERR_LIMIT, "totals overflow 64 bits");
                dp->events_present |= (uint64_t)((sp->events_present >> i) & 1) << map[i];
            }
        }
        const tk_prof_self *srows = sp->self.rows;
        for (size_t r = 0; r < sp->self.count; r++) {
            tk_prof_self k = srows[r];
            if ((st = map_fn(dst, src, fn_map, k.fn, &k.fn)) != TK_OK ||
                (st = remap_str(dst, src, k.file, &k.file)) != TK_OK)
                return tk_error_set(err, st, "out of memory");
            memset(costs, 0, dw * sizeof *costs);
            for (size_t i = 0; i < sw; i++) costs[map[i]] = sp->self.values[r * sw + i];
            if ((st = tk_profile_add_self(dst, dp, &k, costs, err)) != TK_OK)
                return tk_error_set(
                    err, st, st == TK_ERR_LIMIT ? "cost overflows 64 bits" : "out of memory");
        }
        const tk_prof_call *crows = sp->calls.rows;
        for (size_t r = 0; r < sp->calls.count; r++) {
            tk_prof_call k = crows[r];
            if ((st = map_fn(dst, src, fn_map, k.fn, &k.fn)) != TK_OK ||
                (st = map_fn(dst, src, fn_map, k.callee, &k.callee)) != TK_OK ||
                (st = remap_str(dst, src, k.file, &k.file)) != TK_OK)
                return tk_error_set(err, st, "out of memory");
            const uint64_t *v = sp->calls.values + r * (sw + 1);
            memset(costs, 0, dw * sizeof *costs);
            for (size_t i = 0; i < sw; i++) costs[map[i]] = v[1 + i];
            if ((st = tk_profile_add_call(dst, dp, &k, v[0], costs, err)) != TK_OK)
                return tk_error_set(
                    err, st, st == TK_ERR_LIMIT ? "cost overflows 64 bits" : "out of memory");
        }
        const tk_prof_jump *jrows = sp->jumps.rows;
        for (size_t r = 0; r < sp->jumps.count; r++) {
            tk_prof_jump k = jrows[r];
            if ((st = map_fn(dst, src, fn_map, k.fn, &k.fn)) != TK_OK ||
                (st = map_fn(dst, src, fn_map, k.target_fn, &k.target_fn)) != TK_OK ||
                (st = remap_str(dst, src, k.file, &k.file)) != TK_OK ||
                (st = remap_str(dst, src, k.target_file, &k.target_file)) != TK_OK)
                return tk_error_set(err, st, "out of memory");
            const uint64_t *v = sp->jumps.values + r * 2;
            if ((st = tk_profile_add_jump(dst, dp, &k, v[0], v[1], err)) != TK_OK)
                return tk_error_set(
                    err, st, st == TK_ERR_LIMIT ? "count overflows 64 bits" : "out of memory");
        }
    }
    return TK_OK;
}

tk_status tk_profile_one_part(tk_profile **prof, tk_error *err)
{
    if ((*prof)->part_count < 2) return TK_OK;
    tk_profile *m;
    tk_prof_part *part;
    if (tk_profile_open(&m, NULL) != TK_OK) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    const tk_prof_part *first = (*prof)->parts[0];
    tk_status st = tk_profile_add_part(m, &part, err);
    if (st == TK_OK) {
        part->positions = first->positions;
        part->has_pid = first->has_pid;
        part->pid = first->pid;
        if (first->cmd)
            st = tk_profile_part_set_string(&part->cmd, first->cmd, strlen(first->cmd), err);
        if (st == TK_OK && first->creator)
            st = tk_profile_part_set_string(&part->creator, first->creator, strlen(first->creator),
                                            err);
    }
    if (st != TK_OK) st = tk_error_set(err, st, "out of memory");
    if (st == TK_OK) st = tk_profile_merge(m, *prof, part, err);
    if (st == TK_OK && (st = tk_profile_part_fill_totals(m, part, err)) != TK_OK)
        st =
            tk_error_set(err, st, st == TK_ERR_LIMIT ? "totals overflow 64 bits" : "out of memory");
    if (st != TK_OK) {
        tk_profile_free(m);
        return st;
    }
    tk_profile_free(*prof);
    *prof = m;
    return TK_OK;
}

/* ---- string ranks (for deterministic output) ---------------------------- */

typedef struct str_ref {
    const char *s;
    size_t len;
    uint32_t id;
} str_ref;

static int cmp_str_ref(const void *a, const void *b)
{
    const str_ref *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->s, y->s, n);
    if (c) return c;
    return (x->len > y->len) - (x->len < y->len);
}

tk_status tk_profile_string_ranks(const tk_profile *p, uint32_t **out, tk_error *err)
{
    size_t n = p->str_count;
    str_ref *refs = tk_malloc((n ? n : 1) * sizeof *refs);
    uint32_t *rank = *out = tk_malloc((n ? n : 1) * sizeof *rank); /* the caller's (tk_free) */
    if (!refs || !rank) {
        tk_free(refs);
        tk_free(rank);
        *out = NULL;
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        refs[i].s = p->strs[i];
        refs[i].len = p->str_lens[i];
        refs[i].id = (uint32_t)i;
    }
    qsort(refs, n, sizeof *refs, cmp_str_ref);
    for (size_t i = 0; i < n; i++) rank[refs[i].id] = (uint32_t)i;
    tk_free(refs);
    return TK_OK;
}

size_t tk_profile_string_count(const tk_profile *p) { return p->str_count; }

/* src appended to dst as reading src's file into dst after dst's files would make it
 * (tk_profile_append, src/model/profile.h). Equal to reading in order requires: every string
 * of src interned in src's id order (the reader interns each name when it first meets it, and
 * so did src's), then every function in src's id order (likewise), before anything else of
 * src; the events and derived events in src's order (tk_profile_add_event refuses a new one
 * after rows, as the reader does); each part new, its header, descriptions, summary, totals,
 * events seen, the reader's counts (call and jump lines, line sums, calls into a function)
 * and rows in their order; the reader's running sums (read_sums) added. */
tk_status tk_profile_append(tk_profile *dst, const tk_profile *src, tk_error *err)
{
    tk_status st = TK_OK;
    uint32_t id;
    for (size_t i = 0; i < src->str_count; i++)
        if ((st = tk_profile_intern(dst, src->strs[i], src->str_lens[i], &id, err)) != TK_OK)
            return st;
    uint32_t *fn_map = NULL;
    if (src->fn_count) {
        fn_map = tk_malloc(src->fn_count * sizeof *fn_map);
        if (!fn_map) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    for (size_t f = 0; f < src->fn_count && st == TK_OK; f++)
        st = remap_fn(dst, src, (uint32_t)f, &fn_map[f]);
    if (st != TK_OK) {
        tk_free(fn_map);
        return tk_error_set(err, st, st == TK_ERR_LIMIT ? "too many functions" : "out of memory");
    }
    size_t first = dst->part_count;
    st = tk_profile_merge_mapped(dst, src, NULL, fn_map, err);
    size_t map[TK_PROFILE_MAX_EVENTS];
    for (size_t i = 0; i < src->event_count && st == TK_OK; i++) {
        uint32_t n = src->events[i].name;
        int at = tk_profile_find_event(dst, src->strs[n], src->str_lens[n]);
        map[i] = (size_t)at;
    }
    for (size_t pi = 0; pi < src->part_count && st == TK_OK; pi++) {
        const tk_prof_part *sp = src->parts[pi];
        tk_prof_part *dp = dst->parts[first + pi];
        dp->call_lines = sp->call_lines;
        dp->jump_lines = sp->jump_lines;
        dp->has_line_sum = sp->has_line_sum;
        for (size_t i = 0; i < src->event_count; i++) dp->line_sum[map[i]] = sp->line_sum[i];
        for (size_t f = 0; f < sp->calls_into_len && st == TK_OK; f++)
            if (sp->calls_into[f])
                st = tk_profile_part_count_calls(dp, fn_map[f], sp->calls_into[f], err);
    }
    tk_free(fn_map);
    if (st != TK_OK) return st;
    tk_profile_read_sums *d = &dst->read_sums;
    const tk_profile_read_sums *s = &src->read_sums;
    int over = 0;
    over += __builtin_add_overflow(d->calls, s->calls, &d->calls);
    over += __builtin_add_overflow(d->jumps[0], s->jumps[0], &d->jumps[0]);
    over += __builtin_add_overflow(d->jumps[1], s->jumps[1], &d->jumps[1]);
    for (size_t i = 0; i < src->event_count; i++) {
        size_t j = map[i];
        over += __builtin_add_overflow(d->self[j], s->self[i], &d->self[j]);
        over += __builtin_add_overflow(d->costs[j], s->costs[i], &d->costs[j]);
        over += __builtin_add_overflow(d->summary[j], s->summary[i], &d->summary[j]);
        over += __builtin_add_overflow(d->totals[j], s->totals[i], &d->totals[j]);
    }
    d->reported |= s->reported;
    d->rows |= s->rows;
    if (over || s->reported)
        return tk_error_set(err, TK_ERR_LIMIT, "the read sums overflow 64 bits");
    return TK_OK;
}
