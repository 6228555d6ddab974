/* A DCFG-Trace profile (tk_dcfg_trace_to_profile's: events, functions, parts of self and
 * call rows) as bytes and back (tk_dcfg_trace_profile_serialize, _deserialize), the partial
 * that tracekit-mpi's ranks send for convert --to callgrind and dot: every table in its order
 * (the strings and functions by id, each part's rows as they were added), so that the profile
 * read back has the ids and the row order of the one written, and appending the profiles of
 * consecutive thread ranges in order (tk_profile_append) gives the profile of all of them.
 * LEB128 varints in their shortest form; no string, function or row twice. */
#include <string.h>

#include "core/alloc.h"
#include "core/bytes.h"
#include "model/profile.h"
#include "tracekit/dcfg_trace.h"
#include "tracekit/profile.h"

static const uint8_t magic[5] = {'T', 'K', 'D', 'P', 1};

enum { HAS_NUMBER = 1, HAS_THREAD = 2, HAS_PID = 4, HAS_TOTALS = 8, FLAGS = 15 };

/* ---- writing ---------------------------------------------------------------------------- */

static void put_pos(tk_bytes_out *b, const tk_prof_pos *pos)
{
    tk_bytes_put_u64(b, pos->addr);
    tk_bytes_put_u64(b, pos->bb);
    tk_bytes_put_u64(b, pos->line);
}

/* What the bytes do not hold, or NULL. */
static const char *not_held(const tk_profile *p)
{
    if (tk_profile_derived_count(p)) return "derived events";
    for (size_t i = 0; i < tk_profile_part_count(p); i++) {
        tk_prof_part_info pi;
        tk_prof_part_get(tk_profile_part(p, i), &pi);
        if (pi.jump_rows) return "jumps";
        if (pi.cmd || pi.creator || pi.desc_count) return "a part's command or descriptions";
        if (pi.has_summary || pi.events_mask_valid || pi.calls_into || pi.call_lines ||
            pi.jump_lines || pi.has_line_sum)
            return "a part's summary or what a reader saw";
    }
    return NULL;
}

static void put_part(tk_bytes_out *b, size_t nev, const tk_prof_part *part)
{
    tk_prof_part_info pi;
    tk_prof_part_get(part, &pi);
    tk_bytes_put_u64(b, (pi.has_number ? HAS_NUMBER : 0) | (pi.has_thread ? HAS_THREAD : 0) |
                            (pi.has_pid ? HAS_PID : 0) | (pi.has_totals ? HAS_TOTALS : 0));
    tk_bytes_put_u64(b, pi.number);
    tk_bytes_put_u64(b, pi.thread);
    tk_bytes_put_u64(b, pi.pid);
    tk_bytes_put_u64(b, pi.positions);
    for (size_t e = 0; pi.has_totals && e < nev; e++) tk_bytes_put_u64(b, pi.totals[e]);
    uint64_t v[TK_PROFILE_MAX_EVENTS + 1];
    tk_bytes_put_u64(b, pi.self_rows);
    for (size_t i = 0; i < pi.self_rows; i++) {
        tk_prof_self k;
        tk_prof_part_self(part, i, &k, v);
        tk_bytes_put_u64(b, k.fn);
        tk_bytes_put_u64(b, k.file);
        put_pos(b, &k.pos);
        for (size_t e = 0; e < nev; e++) tk_bytes_put_u64(b, v[e]);
    }
    tk_bytes_put_u64(b, pi.call_rows);
    for (size_t i = 0; i < pi.call_rows; i++) {
        tk_prof_call k;
        uint64_t count;
        tk_prof_part_call(part, i, &k, &count, v);
        tk_bytes_put_u64(b, k.fn);
        tk_bytes_put_u64(b, k.file);
        put_pos(b, &k.pos);
        tk_bytes_put_u64(b, k.callee);
        put_pos(b, &k.target);
        tk_bytes_put_u64(b, count);
        for (size_t e = 0; e < nev; e++) tk_bytes_put_u64(b, v[e]);
    }
}

tk_status tk_dcfg_trace_profile_serialize(const tk_profile *p, uint8_t **data, size_t *size,
                                          tk_error *err)
{
    *data = NULL;
    *size = 0;
    const char *what = not_held(p);
    if (what) return tk_error_set(err, TK_ERR_FORMAT, "not a DCFG-Trace profile: it has %s", what);
    tk_bytes_out b = {NULL, 0, 0, 0};
    tk_bytes_put(&b, magic, sizeof magic);
    size_t ns = tk_profile_string_count(p), nev = tk_profile_event_count(p);
    tk_bytes_put_u64(&b, ns);
    for (uint32_t i = 0; i < ns; i++) {
        size_t len = tk_profile_str_len(p, i);
        tk_bytes_put_u64(&b, len);
        tk_bytes_put(&b, tk_profile_str(p, i), len);
    }
    tk_bytes_put_u64(&b, nev);
    for (size_t e = 0; e < nev; e++) {
        tk_prof_event_info ei;
        tk_profile_event_get(p, e, &ei);
        tk_bytes_put_u64(&b, ei.name);
        tk_bytes_put_u64(&b, ei.long_name == TK_PROF_NONE ? 0 : (uint64_t)ei.long_name + 1);
    }
    size_t nf = tk_profile_function_count(p);
    tk_bytes_put_u64(&b, nf);
    for (uint32_t f = 0; f < nf; f++) {
        tk_prof_function_info fi;
        tk_profile_function_get(p, f, &fi);
        tk_bytes_put_u64(&b, fi.object);
        tk_bytes_put_u64(&b, fi.file);
        tk_bytes_put_u64(&b, fi.name);
    }
    tk_bytes_put_u64(&b, tk_profile_part_count(p));
    for (size_t i = 0; i < tk_profile_part_count(p); i++) put_part(&b, nev, tk_profile_part(p, i));
    return tk_bytes_take(&b, data, size, "a DCFG-Trace profile", err);
}

/* ---- reading ---------------------------------------------------------------------------- */

typedef struct rd {
    tk_bytes_in in;
    tk_profile *p;
    uint32_t ns, nf;
    size_t nev;
} rd;

static int get_strings(rd *r)
{
    if (tk_bytes_get_count(&r->in, 1, &r->ns, "the number of strings")) return -1;
    for (uint32_t i = 0; i < r->ns; i++) {
        char *s = NULL;
        if (tk_bytes_get_str(&r->in, &s)) return -1;
        uint32_t id;
        tk_status st = tk_profile_intern(r->p, s, strlen(s), &id, NULL);
        tk_free(s);
        if (st != TK_OK) return tk_bytes_nomem(&r->in);
        if (id != i) return tk_bytes_fail(&r->in, "a string twice, or one with a NUL");
    }
    return 0;
}

static int get_events(rd *r)
{
    uint32_t n;
    if (tk_bytes_get_count(&r->in, 2, &n, "the number of events")) return -1;
    if (n > TK_PROFILE_MAX_EVENTS) return tk_bytes_fail(&r->in, "too many events");
    if (n && !r->ns) return tk_bytes_fail(&r->in, "events without strings");
    for (uint32_t e = 0; e < n; e++) {
        uint32_t name, lng;
        if (tk_bytes_get_u32(&r->in, r->ns - 1, &name, "an event's name") ||
            tk_bytes_get_u32(&r->in, r->ns, &lng, "an event's long name"))
            return -1;
        size_t index;
        const char *s = tk_profile_str(r->p, name);
        tk_status st = tk_profile_add_event(r->p, s, strlen(s), &index, NULL);
        if (st == TK_ERR_NOMEM) return tk_bytes_nomem(&r->in);
        if (st != TK_OK || index != e) return tk_bytes_fail(&r->in, "an event twice");
        if (lng) tk_profile_set_event_long_name(r->p, e, lng - 1);
    }
    r->nev = n;
    return 0;
}

static int get_functions(rd *r)
{
    if (tk_bytes_get_count(&r->in, 3, &r->nf, "the number of functions")) return -1;
    if (r->nf && !r->ns) return tk_bytes_fail(&r->in, "functions without strings");
    for (uint32_t f = 0; f < r->nf; f++) {
        uint32_t obj, file, name, fn;
        if (tk_bytes_get_u32(&r->in, r->ns - 1, &obj, "a function's object") ||
            tk_bytes_get_u32(&r->in, r->ns - 1, &file, "a function's file") ||
            tk_bytes_get_u32(&r->in, r->ns - 1, &name, "a function's name"))
            return -1;
        if (tk_profile_function(r->p, obj, file, name, &fn, NULL) != TK_OK)
            return tk_bytes_nomem(&r->in);
        if (fn != f) return tk_bytes_fail(&r->in, "a function twice");
    }
    return 0;
}

static int get_pos(rd *r, tk_prof_pos *pos)
{
    return tk_bytes_get_u64(&r->in, &pos->addr, "an address") ||
           tk_bytes_get_u64(&r->in, &pos->bb, "a basic block") ||
           tk_bytes_get_u64(&r->in, &pos->line, "a line");
}

/* A row's function and file. */
static int get_where(rd *r, uint32_t *fn, uint32_t *file)
{
    if (!r->nf || !r->ns) return tk_bytes_fail(&r->in, "a row without functions");
    return tk_bytes_get_u32(&r->in, r->nf - 1, fn, "a row's function") ||
           tk_bytes_get_u32(&r->in, r->ns - 1, file, "a row's file");
}

static int get_values(rd *r, uint64_t *v, size_t n)
{
    for (size_t e = 0; e < n; e++)
        if (tk_bytes_get_u64(&r->in, &v[e], "a cost")) return -1;
    return 0;
}

static int get_rows(rd *r, tk_prof_part *part)
{
    uint32_t n;
    uint64_t v[TK_PROFILE_MAX_EVENTS + 1];
    if (tk_bytes_get_count(&r->in, 5, &n, "the number of self rows")) return -1;
    for (uint32_t i = 0; i < n; i++) {
        tk_prof_self k;
        memset(&k, 0, sizeof k);
        if (get_where(r, &k.fn, &k.file) || get_pos(r, &k.pos) || get_values(r, v, r->nev))
            return -1;
        if (tk_profile_add_self(r->p, part, &k, v, NULL) != TK_OK) return tk_bytes_nomem(&r->in);
        if (part->self.count != (size_t)i + 1) return tk_bytes_fail(&r->in, "a self row twice");
    }
    if (tk_bytes_get_count(&r->in, 10, &n, "the number of call rows")) return -1;
    for (uint32_t i = 0; i < n; i++) {
        tk_prof_call k;
        memset(&k, 0, sizeof k);
        uint64_t count;
        if (get_where(r, &k.fn, &k.file) || get_pos(r, &k.pos) ||
            tk_bytes_get_u32(&r->in, r->nf - 1, &k.callee, "a call's callee") ||
            get_pos(r, &k.target) || tk_bytes_get_u64(&r->in, &count, "a call count") ||
            get_values(r, v, r->nev))
            return -1;
        if (tk_profile_add_call(r->p, part, &k, count, v, NULL) != TK_OK)
            return tk_bytes_nomem(&r->in);
        if (part->calls.count != (size_t)i + 1) return tk_bytes_fail(&r->in, "a call row twice");
    }
    return 0;
}

static int get_part(rd *r)
{
    tk_prof_part *part;
    if (tk_profile_add_part(r->p, &part, NULL) != TK_OK) return tk_bytes_nomem(&r->in);
    uint64_t flags, positions;
    if (tk_bytes_get_max(&r->in, FLAGS, &flags, "a part's header") ||
        tk_bytes_get_u64(&r->in, &part->number, "a part's number") ||
        tk_bytes_get_u64(&r->in, &part->thread, "a part's thread") ||
        tk_bytes_get_u64(&r->in, &part->pid, "a part's pid") ||
        tk_bytes_get_max(&r->in, UINT32_MAX, &positions, "a part's positions"))
        return -1;
    part->has_number = (flags & HAS_NUMBER) != 0;
    part->has_thread = (flags & HAS_THREAD) != 0;
    part->has_pid = (flags & HAS_PID) != 0;
    part->has_totals = (flags & HAS_TOTALS) != 0;
    if ((!part->has_number && part->number) || (!part->has_thread && part->thread) ||
        (!part->has_pid && part->pid))
        return tk_bytes_fail(&r->in, "a part's value it does not have");
    part->positions = (unsigned)positions;
    if (part->has_totals && get_values(r, part->totals, r->nev)) return -1;
    return get_rows(r, part);
}

tk_status tk_dcfg_trace_profile_deserialize(tk_profile **out, const uint8_t *data, size_t size,
                                            tk_error *err)
{
    *out = NULL;
    rd r;
    memset(&r, 0, sizeof r);
    r.in = (tk_bytes_in){data, 0, size, "DCFG-Trace profile", err, TK_OK};
    if (size < sizeof magic || memcmp(data, magic, sizeof magic) != 0) {
        tk_bytes_fail(&r.in, "not a DCFG-Trace profile (no \"TKDP\" 1)");
        return r.in.st;
    }
    r.in.pos = sizeof magic;
    if (tk_profile_open(&r.p, err) != TK_OK) return TK_ERR_NOMEM;
    uint32_t nparts = 0;
    int bad = get_strings(&r) || get_events(&r) || get_functions(&r) ||
              tk_bytes_get_count(&r.in, 6, &nparts, "the number of parts");
    for (uint32_t i = 0; !bad && i < nparts; i++) bad = get_part(&r);
    if (!bad && r.in.pos != size) bad = tk_bytes_fail(&r.in, "bytes after the profile");
    if (bad) {
        tk_profile_free(r.p);
        return r.in.st;
    }
    *out = r.p;
    return TK_OK;
}
