/* Callgrind reader: name ids ("fn=(12) main" defines id 12, "fn=(12)" uses
 * it), ids used before their definition, and valgrind's compressed context
 * names. See callgrind_parser.h. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/num.h"
#include "formats/callgrind/callgrind_parser.h"

static const char *const kind_names[KIND_COUNT] = {"object", "file", "function"};

/* ---- id maps ------------------------------------------------------------ */

void tk_cg_id_map_clear(id_map *m)
{
    tk_free(m->keys);
    tk_free(m->vals);
    tk_free(m->direct);
    tk_free(m->set);
    memset(m, 0, sizeof *m);
}

void tk_cg_id_map_reset(id_map *m)
{
    for (size_t i = 0; i < m->nset; i++) m->direct[m->set[i]] = 0;
    m->nset = 0;
    tk_free(m->keys);
    tk_free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->count = 0;
}

int tk_cg_id_map_put(id_map *m, uint64_t key, uint32_t val)
{
    if (key < ID_DIRECT_MAX) {
        if (!grow_u32(&m->direct, &m->direct_cap, (size_t)key + 1)) return 0;
        if (!m->direct[key]) {
            if (!grow_u32(&m->set, &m->set_cap, m->nset + 1)) return 0;
            m->set[m->nset++] = (uint32_t)key;
        }
        m->direct[key] = val + 1;
        return 1;
    }
    if ((m->count + 1) * 2 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 64;
        if (!m->cap) m->hash_key = tk_hash_new_key();
        uint64_t *nk = tk_calloc(ncap, sizeof *nk);
        uint32_t *nv = tk_calloc(ncap, sizeof *nv);
        if (!nk || !nv) {
            tk_free(nk);
            tk_free(nv);
            return 0;
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->vals[i]) continue;
            size_t j = id_hash(m, m->keys[i]) & (ncap - 1);
            while (nv[j]) j = (j + 1) & (ncap - 1);
            nk[j] = m->keys[i];
            nv[j] = m->vals[i];
        }
        tk_free(m->keys);
        tk_free(m->vals);
        m->keys = nk;
        m->vals = nv;
        m->cap = ncap;
    }
    size_t mask = m->cap - 1;
    size_t j = id_hash(m, key) & mask;
    while (m->vals[j] && m->keys[j] != key) j = (j + 1) & mask;
    if (!m->vals[j]) m->count++;
    m->keys[j] = key;
    m->vals[j] = val + 1;
    return 1;
}

/* ---- names -------------------------------------------------------------- */

static int key_kind(const char *k, size_t n)
{
    if (n == 2 && k[0] == 'o' && k[1] == 'b') return KIND_OBJECT;
    if (n == 3 && memcmp(k, "cob", 3) == 0) return KIND_OBJECT;
    if (n == 2 && k[0] == 'f' && (k[1] == 'l' || k[1] == 'i' || k[1] == 'e')) return KIND_FILE;
    if (n == 3 &&
        (memcmp(k, "cfi", 3) == 0 || memcmp(k, "cfl", 3) == 0 || memcmp(k, "jfi", 3) == 0))
        return KIND_FILE;
    if (n == 2 && memcmp(k, "fn", 2) == 0) return KIND_FUNCTION;
    if (n == 3 && (memcmp(k, "cfn", 3) == 0 || memcmp(k, "jfn", 3) == 0)) return KIND_FUNCTION;
    return -1;
}

static const char *find_bytes(const char *s, const char *e, const char *pat, size_t n)
{
    while ((size_t)(e - s) >= n) {
        const char *c = memchr(s, pat[0], (size_t)(e - s) - n + 1);
        if (!c) return NULL;
        if (memcmp(c, pat, n) == 0) return c;
        s = c + 1;
    }
    return NULL;
}

/* ps->fwd: every definition line "key=(id) name" (key as key_kind, the id
 * in plain decimal, a name) from `from` to `end`, the first of each id. */
static tk_status index_definitions(tk_callgrind_parser *ps, const char *buf, const char *end,
                                   const char *from)
{
    for (int k = 0; k < KIND_COUNT; k++) tk_hmap_clear(&ps->fwd[k]);
    ps->fwd_base = NULL;
    for (const char *s = from; s < end;) {
        const char *le = memchr(s, '\n', (size_t)(end - s));
        if (!le) le = end;
        const char *eq = s;
        while (eq < le && eq - s < 3 && *eq != '=') eq++;
        int kind = eq + 2 < le && eq[0] == '=' && eq[1] == '(' ? key_kind(s, (size_t)(eq - s)) : -1;
        const char *d = eq + 2;
        uint64_t id;
        /* the id as forward_define's search writes it: no leading zero */
        if (kind >= 0 && !(*d == '0' && d + 1 < le && d[1] != ')') &&
            tk_num_scan_dec(&d, le, &id) == TK_OK) {
            if (d + 1 < le && d[0] == ')' && d[1] == ' ' && trim_end(d + 2, le) > d + 2) {
                int inserted;
                if (!tk_hmap_slot(&ps->fwd[kind], id, (uint64_t)(d + 2 - buf) + 1, &inserted))
                    return tk_cg_nomem(ps);
            }
        }
        s = le + 1;
    }
    ps->fwd_base = buf;
    ps->fwd_from = (size_t)(from - buf);
    return TK_OK;
}

/* An id used before its definition (old callgrind versions do this): the
 * first "key=(id) name" of the same kind from this line on, found in the
 * index of definitions (made once from here to the end of the input); a
 * search of the input when the index's first one lies before this line (the
 * id was defined, then a new part dropped it). */
static tk_status forward_define(tk_callgrind_parser *ps, int kind, uint64_t id, const char *at,
                                uint32_t *have)
{
    if (!ps->line) return TK_OK;
    const char *buf = ps->buf, *buf_end = ps->buf_end, *s = ps->line;
    if (!buf) {
        const uint8_t *v;
        size_t vlen;
        if (!ps->in || tk_input_file_view(ps->in, &v, &vlen, NULL) != TK_OK || ps->offset < 0 ||
            (uint64_t)ps->offset >= vlen)
            return TK_OK;
        buf = (const char *)v;
        buf_end = buf + vlen;
        s = buf + ps->offset;
    }
    tk_status st;
    if ((ps->fwd_base != buf || (size_t)(s - buf) < ps->fwd_from) &&
        (st = index_definitions(ps, buf, buf_end, s)) != TK_OK)
        return st;
    uint64_t at_name;
    if (!tk_hmap_get(&ps->fwd[kind], id, &at_name)) return TK_OK; /* none from here on */
    const char *name = buf + at_name - 1;
    if (name < s) { /* before this line: search from here */
        if (ps->forward_scans >= MAX_FORWARD_SCANS) return TK_OK;
        ps->forward_scans++;
        char pat[32];
        int plen = snprintf(pat, sizeof pat, "=(%llu) ", (unsigned long long)id);
        for (name = NULL; s < buf_end && !name;) {
            const char *hit = find_bytes(s, buf_end, pat, (size_t)plen);
            if (!hit) return TK_OK;
            const char *ls = hit;
            while (ls > buf && ls[-1] != '\n') ls--;
            s = hit + plen;
            const char *ne = memchr(s, '\n', (size_t)(buf_end - s));
            if (key_kind(ls, (size_t)(hit - ls)) == kind && trim_end(s, ne ? ne : buf_end) > s)
                name = s;
        }
        if (!name) return TK_OK;
    }
    const char *ne = memchr(name, '\n', (size_t)(buf_end - name));
    ne = trim_end(name, ne ? ne : buf_end);
    uint32_t sid;
    if (tk_profile_intern(ps->p, name, (size_t)(ne - name), &sid, NULL) != TK_OK)
        return tk_cg_nomem(ps);
    if (!tk_cg_id_map_put(&ps->ids[kind], id, sid)) return tk_cg_nomem(ps);
    tk_cg_warn_at(ps, at, "%s id (%llu) is used before its definition", kind_names[kind],
                  (unsigned long long)id);
    *have = sid + 1;
    return TK_OK;
}

/* valgrind's hidden --compress-mangled=yes writes a context name
 * (`f'2'caller'caller2`) as the ids of its parts in the function id space:
 * `fn=(12) (10)'2'(7)'(3)`, after definitions `fn=(10) f` of the parts
 * (callgrind's dump.c, print_mangled_fn). n..e is the text after the id; when
 * it is such a list of `(id)` parts (the first one an id) and recursion
 * numbers, all ids defined, the expanded name is interned into *sid and 1 is
 * returned (*st: TK_OK or an error). Otherwise 0: the text is a plain name. */
static int expand_mangled(tk_callgrind_parser *ps, const char *n, const char *e, uint32_t *sid,
                          tk_status *st)
{
    enum { MAX_PARTS = 64 };
    uint32_t parts[MAX_PARTS]; /* string id + 1, or 0 for a literal part */
    const char *lit[MAX_PARTS], *lit_end[MAX_PARTS];
    size_t np = 0, len = 0;
    for (const char *s = n; s < e;) {
        const char *q = memchr(s, '\'', (size_t)(e - s));
        const char *pe = q ? q : e;
        if (np == MAX_PARTS || pe == s) return 0;
        if (*s == '(') {
            const char *d = s + 1;
            uint64_t id;
            if (d >= pe || (unsigned)(*d - '0') >= 10 ||
                tk_cg_parse_u64(&d, pe, &id, ')') != TK_OK || d + 1 != pe || *d != ')')
                return 0;
            uint32_t have = id_map_get(&ps->ids[KIND_FUNCTION], id);
            if (!have) return 0;
            parts[np] = have;
            len += tk_profile_str_len(ps->p, have - 1);
        } else {
            if (np == 0) return 0;
            for (const char *d = s; d < pe; d++)
                if ((unsigned)(*d - '0') >= 10) return 0;
            parts[np] = 0;
            len += (size_t)(pe - s);
        }
        lit[np] = s;
        lit_end[np] = pe;
        np++;
        if (!q) break;
        s = q + 1;
        if (s == e) return 0; /* trailing quote */
    }
    len += np - 1;
    char *buf = tk_malloc(len ? len : 1);
    if (!buf) {
        *st = tk_cg_nomem(ps);
        return 1;
    }
    size_t k = 0;
    for (size_t i = 0; i < np; i++) {
        if (i) buf[k++] = '\'';
        if (parts[i]) {
            size_t l = tk_profile_str_len(ps->p, parts[i] - 1);
            memcpy(buf + k, tk_profile_str(ps->p, parts[i] - 1), l);
            k += l;
        } else {
            memcpy(buf + k, lit[i], (size_t)(lit_end[i] - lit[i]));
            k += (size_t)(lit_end[i] - lit[i]);
        }
    }
    *st = tk_profile_intern(ps->p, buf, k, sid, NULL) == TK_OK ? TK_OK : tk_cg_nomem(ps);
    tk_free(buf);
    return 1;
}

tk_status tk_cg_parse_name(tk_callgrind_parser *ps, int kind, const char *s, const char *e,
                           uint32_t *out)
{
    /* the common cases (a fast path, core/fastpath.h): a defined "(id)"
     * reference and nothing else, and a definition "(id) name", with up to 9
     * decimal digits */
    const char *d;
    uint64_t id;
    if (CG_FAST(ps) && e - s >= 3 && s[0] == '(' && (d = tk_fast_dec(s + 1, e, 9, &id))) {
        if (d < e && *d == ')') {
            if (d + 1 == e) {
                uint32_t have = id_map_get(&ps->ids[kind], id);
                if (have) {
                    *out = have - 1;
                    return TK_OK;
                }
            } else {
                e = trim_end(s, e); /* the general code's trim; the ')' stays */
                goto have_id;
            }
        }
    }
    s = skip_space(s, e);
    e = trim_end(s, e);
    if (e - s >= 2 && s[0] == '(' && (unsigned)(s[1] - '0') < 10) {
        d = s + 1;
        tk_status rc = tk_cg_parse_u64(&d, e, &id, ')');
        if (rc != TK_OK || d >= e || *d != ')') {
            if (rc == TK_ERR_LIMIT) return tk_cg_number_error(ps, rc, s + 1, e, "a name id");
            return tk_cg_fail_at(ps, TK_ERR_FORMAT, d, "expected ')' after the %s id",
                                 kind_names[kind]);
        }
    have_id:;
        const char *at = s;
        const char *n = skip_space(d + 1, e);
        uint32_t have = id_map_get(&ps->ids[kind], id);
        if (n >= e) {
            if (!have) {
                tk_status fst = forward_define(ps, kind, id, at, &have);
                if (fst != TK_OK) return fst;
            }
            if (!have) {
                /* Check mode: an error. Read mode: accepted like KCachegrind
                 * does, the name is the reference text "(id)" (some old
                 * callgrind files use ids they never define). */
                if (ps->opt.diag)
                    return tk_cg_fail_at(ps, TK_ERR_FORMAT, at, "undefined %s id (%llu)",
                                         kind_names[kind], (unsigned long long)id);
                uint32_t sid;
                if (tk_profile_intern(ps->p, at, (size_t)(d + 1 - at), &sid, NULL) != TK_OK)
                    return tk_cg_nomem(ps);
                if (!tk_cg_id_map_put(&ps->ids[kind], id, sid)) return tk_cg_nomem(ps);
                have = sid + 1;
            }
            *out = have - 1;
            return TK_OK;
        }
        uint32_t sid;
        tk_status xst = TK_OK;
        if (kind == KIND_FUNCTION && *n == '(' && expand_mangled(ps, n, e, &sid, &xst)) {
            if (xst != TK_OK) return xst;
        } else if (tk_profile_intern(ps->p, n, (size_t)(e - n), &sid, NULL) != TK_OK) {
            return tk_cg_nomem(ps);
        }
        if (have && have - 1 != sid)
            return tk_cg_fail_at(ps, TK_ERR_FORMAT, at,
                                 "%s id (%llu) redefined as '%.*s' (was '%s')", kind_names[kind],
                                 (unsigned long long)id, (int)(e - n > 80 ? 80 : e - n), n,
                                 tk_profile_str(ps->p, have - 1));
        if (!have && !tk_cg_id_map_put(&ps->ids[kind], id, sid)) return tk_cg_nomem(ps);
        *out = sid;
        return TK_OK;
    }
    if (tk_profile_intern(ps->p, s, (size_t)(e - s), out, NULL) != TK_OK) return tk_cg_nomem(ps);
    return TK_OK;
}
