/* Fuzz the callgrind reader in read and check mode, its fast paths against
 * its general code, the block reader against the buffer reader, the summary,
 * the writer, and the round trip: what the writer writes must read back to
 * the same dump. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/profile_summary.h"
#include "formats/callgrind/callgrind_parser.h"
#include "tracekit/tracekit.h"

/* A writer (tracekit/writer.h) into the stream f. */
static int fuzz_write_file(void *f, const void *data, size_t len)
{
    return len && fwrite(data, 1, len, (FILE *)f) != len ? -1 : 0;
}
#define FUZZ_WRITER(f) (&(tk_writer){fuzz_write_file, (f)})

/* The callers and callees of a sorted summary (report --tree): every arc is
 * listed once into its callee and once out of its caller, and the calls of the
 * arcs into an entry are its calls (by function: all of them). */
static void check_arcs(const tk_profile *p, tk_prof_group group)
{
    tk_error err;
    tk_prof_summary *s;
    if (tk_profile_summarize(p, 0, group, &s, &err) != TK_OK) return;
    size_t ev0 = 0;
    (void)tk_prof_summary_sort(s, p, &ev0, tk_profile_event_count(p) ? 1 : 0, 0, NULL);
    tk_prof_arcs *a;
    if (tk_profile_summary_arcs(p, 0, s, group, &a, &err) == TK_OK) {
        size_t into = 0, out = 0;
        for (size_t i = 0; i < s->count; i++) {
            size_t first, n = tk_prof_arcs_into(a, i, &first);
            uint64_t calls = 0;
            for (size_t k = 0; k < n; k++) {
                if (a->arcs[first + k].callee != i) abort();
                calls += a->arcs[first + k].calls;
            }
            if (calls > s->entries[i].calls ||
                (group == TK_GROUP_FUNCTION && calls != s->entries[i].calls)) {
                fprintf(stderr, "arcs into entry %zu: %llu calls, the summary %llu\n", i,
                        (unsigned long long)calls, (unsigned long long)s->entries[i].calls);
                abort();
            }
            into += n;
            n = tk_prof_arcs_out_of(a, i, &first);
            for (size_t k = 0; k < n; k++)
                if (a->arcs[a->by_caller[first + k]].caller != i) abort();
            out += n;
        }
        if (into != a->count || out != a->count) abort();
        tk_prof_arcs_free(a);
    }
    tk_prof_summary_free(s);
}

/* Inclusive costs by function (docs/formats/callgrind.md, "Inclusive cost in
 * call cycles"): never above the program total; never below the calls into
 * the function from other recursion classes, nor below its self cost plus its
 * calls to other classes (both proven, capped at the total); the members of
 * the cycles are the entries marked with them. */
static void check_inclusive_bounds(const tk_profile *p)
{
    tk_error err;
    tk_prof_summary *s;
    uint32_t *cls;
    if (tk_profile_summarize(p, 0, TK_GROUP_FUNCTION, &s, &err) != TK_OK) return;
    if (tk_profile_recursion_classes(p, 0, 0, &cls, &err) != TK_OK) {
        tk_prof_summary_free(s);
        return;
    }
    size_t nev = s->n_events, nfn = tk_profile_function_count(p);
    uint64_t *in = calloc(nfn * nev + 1, sizeof *in), *own = calloc(nfn * nev + 1, sizeof *own);
    size_t *members = calloc(s->n_cycles + 1, sizeof *members);
    if (!in || !own || !members) abort();
    for (size_t i = 0; i < s->count; i++)
        memcpy(own + s->entries[i].fn * nev, s->entries[i].self, nev * sizeof *own);
    for (size_t i = 0; i < tk_profile_part_count(p); i++) {
        const tk_prof_part *pt = tk_profile_part(p, i);
        const tk_prof_call *rows = pt->calls.rows;
        for (size_t r = 0; r < pt->calls.count; r++) {
            if (cls[rows[r].fn] == cls[rows[r].callee]) continue;
            const uint64_t *v = pt->calls.values + r * (nev + 1) + 1;
            for (size_t j = 0; j < nev; j++) {
                uint64_t *a = &in[rows[r].callee * nev + j], *b = &own[rows[r].fn * nev + j];
                *a = *a + v[j] < *a ? UINT64_MAX : *a + v[j];
                *b = *b + v[j] < *b ? UINT64_MAX : *b + v[j];
            }
        }
    }
    for (size_t i = 0; i < s->count; i++) {
        const tk_prof_entry *e = &s->entries[i];
        for (size_t j = 0; j < nev; j++) {
            uint64_t t = s->totals[j], lo = in[e->fn * nev + j];
            if (own[e->fn * nev + j] > lo) lo = own[e->fn * nev + j];
            if (lo > t) lo = t;
            if (e->inclusive[j] > t || e->inclusive[j] < lo) {
                fprintf(stderr,
                        "function %u event %zu: inclusive %llu outside [%llu, total %llu]\n", e->fn,
                        j, (unsigned long long)e->inclusive[j], (unsigned long long)lo,
                        (unsigned long long)t);
                abort();
            }
        }
        if (e->cycle > s->n_cycles || (e->estimated && !e->cycle)) abort();
        if (e->cycle) members[e->cycle - 1]++;
    }
    for (size_t c = 0; c < s->n_cycles; c++) {
        if (members[c] != s->cycles[c].members || !members[c]) abort();
        for (size_t j = 0; j < nev; j++)
            if (s->cycles[c].inclusive[j] > s->totals[j]) abort();
    }
    free(in);
    free(own);
    free(members);
    tk_free(cls);
    tk_prof_summary_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dump_text(const tk_profile *p, size_t *len);

/* Aborts with `what` when the two profiles dump differently. */
static void require_same_dump(const tk_profile *p, const tk_profile *q, const char *what)
{
    size_t la, lb;
    char *a = dump_text(p, &la), *b = dump_text(q, &lb);
    if (a && b && (la != lb || memcmp(a, b, la) != 0)) {
        fprintf(stderr, "%s\n", what);
        abort();
    }
    free(a);
    free(b);
}

static char *dump_text(const tk_profile *p, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) return NULL;
    tk_status st = tk_profile_dump(p, FUZZ_WRITER(f), NULL);
    fclose(f);
    if (st != TK_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* What `report` reads (function rows only, one per function, no jumps) must
 * summarise to the same numbers as the full profile p (summary s). */
static void check_function_rows(const uint8_t *data, size_t size, const tk_profile *p,
                                const tk_prof_summary *s)
{
    tk_profile *q;
    if (tk_profile_open(&q, NULL) != TK_OK) return;
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    o.detail = TK_CALLGRIND_DETAIL_FUNCTIONS;
    o.drop_files = 1;
    o.skip_jumps = 1;
    tk_error err;
    tk_error_clear(&err);
    tk_prof_summary *t = NULL;
    if (tk_callgrind_read_buffer(q, (const char *)data, size, &o, &err) != TK_OK ||
        tk_profile_summarize(q, 0, TK_GROUP_FUNCTION, &t, &err) != TK_OK) {
        fprintf(stderr, "function rows: the input read in full but not by function\n");
        abort();
    }
    size_t nev = s->n_events;
    int same = t->count == s->count && t->n_events == nev &&
               memcmp(t->totals, s->totals, nev * sizeof *s->totals) == 0;
    for (size_t i = 0; same && i < s->count; i++) {
        const tk_prof_entry *a = &s->entries[i], *b = &t->entries[i];
        same = a->fn == b->fn && a->calls == b->calls &&
               memcmp(a->self, b->self, nev * sizeof *a->self) == 0 &&
               memcmp(a->inclusive, b->inclusive, nev * sizeof *a->inclusive) == 0 &&
               strcmp(tk_profile_str(p, a->name), tk_profile_str(q, b->name)) == 0;
    }
    if (!same) {
        fprintf(stderr, "function rows: another summary than the full profile's\n");
        abort();
    }
    tk_prof_summary_free(t);
    /* what the text report reads and summarises (call counts only, no
     * inclusive costs): the same self costs and calls, in the same order
     * once sorted */
    tk_profile *q2;
    if (tk_profile_open(&q2, NULL) != TK_OK) abort();
    o.call_counts_only = 1;
    if (tk_callgrind_read_buffer(q2, (const char *)data, size, &o, &err) != TK_OK ||
        tk_profile_summarize_self(q2, 0, TK_GROUP_FUNCTION, &t, &err) != TK_OK) {
        fprintf(stderr, "self summary: failed where the full one did not\n");
        abort();
    }
    tk_prof_summary *full = NULL;
    if (tk_profile_summarize(q, 0, TK_GROUP_FUNCTION, &full, &err) != TK_OK) abort();
    size_t ev0 = 0;
    /* the text report's default list (99 % coverage): the rows up to its
     * cut as the full sort has them */
    size_t sorted = 0;
    (void)tk_prof_summary_sort_cover(t, q2, &ev0, nev ? 1 : 0, 0, 99.0, &sorted, NULL);
    (void)tk_prof_summary_sort(full, q, &ev0, nev ? 1 : 0, 0, NULL);
    same = t->count == full->count && memcmp(t->totals, full->totals, nev * sizeof *t->totals) == 0;
    size_t cut = 0;
    uint64_t sum = 0, total = nev ? full->totals[0] : 0;
    while (same && cut < full->count && !tk_prof_covered(sum, total, 99.0))
        sum += nev ? full->entries[cut++].self[0] : (cut++, 0);
    if (same && (sorted < cut || (t->count && !sorted))) same = 0;
    for (size_t i = 0; same && i < cut; i++) {
        const tk_prof_entry *a = &full->entries[i], *b = &t->entries[i];
        same = a->fn == b->fn && a->calls == b->calls && !b->inclusive &&
               memcmp(a->self, b->self, nev * sizeof *a->self) == 0;
    }
    if (!same) {
        fprintf(stderr, "self summary: other self costs, calls or order than the full one\n");
        abort();
    }
    tk_prof_summary_free(full);
    tk_prof_summary_free(t);
    tk_profile_free(q2);
    tk_profile_free(q);
}

/* Diagnostics as text: severity, location and message of each. */
typedef struct diag_text {
    FILE *f;
    char *buf;
    size_t len;
} diag_text;

static void diag_to_text(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    diag_text *t = ctx;
    if (t->f)
        fprintf(t->f, "%d %llu:%llu %lld %s\n", (int)sev, (unsigned long long)loc->line,
                (unsigned long long)loc->column, (long long)loc->offset, msg);
}

/* One read of the input with the fast paths (fast = 1) or the general code
 * only: the status, the error, the diagnostics (check mode) and the dump. */
typedef struct path_result {
    tk_status st;
    tk_error err;
    diag_text diag;
    char *dump;
    size_t dump_len;
} path_result;

static void read_path(const uint8_t *data, size_t size, tk_callgrind_read_options o, int fast,
                      path_result *r)
{
    memset(r, 0, sizeof *r);
    tk_error_clear(&r->err);
    tk_diag d;
    if (o.diag) {
        r->diag.f = open_memstream(&r->diag.buf, &r->diag.len);
        tk_diag_init(&d, diag_to_text, &r->diag);
        o.diag = &d;
    }
    tk_profile *p;
    if (tk_profile_open(&p, NULL) != TK_OK) abort();
    r->st = tk_cg_read_buffer_paths(p, (const char *)data, size, &o, fast, &r->err);
    if (r->diag.f) fclose(r->diag.f);
    r->diag.f = NULL;
    if (r->st == TK_OK) r->dump = dump_text(p, &r->dump_len);
    tk_profile_free(p);
}

static int same_bytes(const char *a, size_t la, const char *b, size_t lb)
{
    return la == lb && (la == 0 || memcmp(a, b, la) == 0);
}

/* The fast paths (core/fastpath.h) against the general code, in check mode
 * and in each detail `report`, `annotate` and `convert` read with: the same
 * status, error (code, line, column, message), diagnostics and dump. */
static void compare_paths(const uint8_t *data, size_t size)
{
    /* check; annotate and convert (all of it); a check keeping function rows
     * (the cost runs with their errors); the text report */
    static const tk_callgrind_detail details[] = {
        TK_CALLGRIND_DETAIL_NONE, TK_CALLGRIND_DETAIL_FULL, TK_CALLGRIND_DETAIL_FUNCTIONS,
        TK_CALLGRIND_DETAIL_FUNCTIONS};
    tk_diag marker; /* read_path gives each read a sink of its own */
    for (int k = 0; k < 4; k++) {
        tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
        o.path = "f";
        o.detail = details[k];
        o.diag = k == 0 || k == 2 ? &marker : NULL;
        o.skip_jumps = o.drop_files = o.call_counts_only = k == 3;
        path_result f, g;
        read_path(data, size, o, 1, &f);
        read_path(data, size, o, 0, &g);
        int same = f.st == g.st && f.err.code == g.err.code && f.err.line == g.err.line &&
                   f.err.column == g.err.column && strcmp(f.err.message, g.err.message) == 0 &&
                   same_bytes(f.diag.buf, f.diag.len, g.diag.buf, g.diag.len) &&
                   same_bytes(f.dump, f.dump_len, g.dump, g.dump_len);
        if (!same) {
            fprintf(stderr,
                    "fast and general paths differ (options %d): status %d/%d, error %llu:%llu "
                    "'%s' / %llu:%llu '%s'\nfast diagnostics:\n%.*s\ngeneral diagnostics:\n%.*s\n",
                    k, (int)f.st, (int)g.st, (unsigned long long)f.err.line,
                    (unsigned long long)f.err.column, f.err.message, (unsigned long long)g.err.line,
                    (unsigned long long)g.err.column, g.err.message,
                    (int)(f.diag.len < 2000 ? f.diag.len : 2000), f.diag.buf ? f.diag.buf : "",
                    (int)(g.diag.len < 2000 ? g.diag.len : 2000), g.diag.buf ? g.diag.buf : "");
            abort();
        }
        free(f.diag.buf);
        free(g.diag.buf);
        free(f.dump);
        free(g.dump);
    }
}

/* The input read `times` times into one profile with `o`; NULL when that
 * succeeds, else what failed. */
static const char *read_times(const uint8_t *data, size_t size, int times,
                              const tk_callgrind_read_options *o, tk_profile **out)
{
    tk_error err;
    if (tk_profile_open(out, NULL) != TK_OK) return NULL;
    for (int i = 0; i < times; i++)
        if (tk_callgrind_read_buffer(*out, (const char *)data, size, o, &err) != TK_OK)
            return err.message[0] ? "reading" : "reading (no message)";
    return NULL;
}

/* annotate --all --instr: TK_OK or its failure; every line's and instruction's inclusive
 * cost is at least its self cost and at most the program total (an abort otherwise), the
 * files and functions hottest first. */
static tk_status annotate_checked(const tk_profile *p, tk_error *err)
{
    tk_prof_annotate_options o = TK_PROF_ANNOTATE_OPTIONS_INIT;
    o.instructions = 1;
    tk_prof_annotation *a;
    tk_status st = tk_prof_annotate_open(&a, p, &o, err);
    if (st != TK_OK) return st;
    tk_prof_annotation_info ai;
    tk_prof_annotation_get(a, &ai);
    size_t nev = ai.n_events, sites = 0;
    uint64_t last = UINT64_MAX;
    for (size_t i = 0; i < ai.files + ai.functions; i++) {
        tk_prof_annotate_file_info f;
        tk_prof_annotate_function_info fn;
        const uint64_t *self;
        size_t end;
        if (i < ai.files) {
            tk_prof_annotate_file_get(a, i, &f);
            self = f.self, end = f.first_site + f.sites;
        } else {
            tk_prof_annotate_function_get(a, i - ai.files, &fn);
            self = fn.self, end = fn.first_site + fn.sites;
        }
        if (i == ai.files) last = UINT64_MAX;
        if (nev && self[0] > last) abort(); /* hottest first */
        last = nev ? self[0] : 0;
        if (end > sites) sites = end;
    }
    for (size_t k = 0; k < sites; k++) {
        tk_prof_annotate_site_info si;
        tk_prof_annotate_site_get(a, k, &si);
        for (size_t j = 0; j < nev; j++)
            if (si.inclusive[j] < si.self[j] || si.inclusive[j] > ai.totals[j]) abort();
        for (size_t c = si.first_call; c < si.first_call + si.calls; c++) {
            tk_prof_annotate_call_info ci;
            tk_prof_annotate_call_get(a, c, &ci);
            if (!ci.inclusive) abort();
        }
    }
    tk_prof_annotation_free(a);
    return TK_OK;
}

/* What the commands do with the input given `times` times (report of every
 * kind, annotate, convert, dump, merge, diff): NULL when all of it succeeds,
 * else what failed first. */
static const char *commands_refuse(const uint8_t *data, size_t size, int times)
{
    static const tk_callgrind_detail details[] = {
        TK_CALLGRIND_DETAIL_FULL, TK_CALLGRIND_DETAIL_LINES, TK_CALLGRIND_DETAIL_FUNCTIONS};
    const char *why = NULL;
    tk_error err;
    tk_error_clear(&err);
    for (size_t k = 0; k < 3 && !why; k++) {
        for (int variant = 0; variant < 3 && !why; variant++) {
            tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
            o.detail = details[k];
            o.skip_jumps = variant > 0; /* report */
            o.drop_files = variant == 1; /* report --by=function */
            o.call_counts_only = variant == 2 && k == 2; /* report's text table */
            tk_profile *p = NULL;
            why = read_times(data, size, times, &o, &p);
            if (!p) return NULL;
            tk_prof_summary *s = NULL;
            for (int g = TK_GROUP_FUNCTION; g <= TK_GROUP_LINE && !why; g++) {
                if (o.call_counts_only) {
                    if (tk_profile_summarize_self(p, 0, (tk_prof_group)g, &s, &err) != TK_OK)
                        why = "summarize_self";
                } else if (tk_profile_summarize(p, 0, (tk_prof_group)g, &s, &err) != TK_OK) {
                    why = "summarize";
                } else if (g <= TK_GROUP_FILE_FUNCTION) {
                    size_t ev0 = 0;
                    tk_prof_arcs *a = NULL;
                    (void)tk_prof_summary_sort(s, p, &ev0, tk_profile_event_count(p) ? 1 : 0, 0,
                                               NULL);
                    if (tk_profile_summary_arcs(p, 0, s, (tk_prof_group)g, &a, &err) != TK_OK)
                        why = "summary_arcs (report --tree)";
                    tk_prof_arcs_free(a);
                }
                tk_prof_summary_free(s);
                s = NULL;
            }
            if (!why && k == 0 && variant == 0) {
                /* dump, convert (callgrind, dot, folded), merge into one part */
                FILE *sink = fopen("/dev/null", "w");
                tk_folded_profile_options fo = TK_FOLDED_PROFILE_OPTIONS_INIT;
                tk_dot_options dot = TK_DOT_OPTIONS_INIT;
                tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
                if (!sink) {
                    tk_profile_free(p);
                    return NULL;
                }
                if (tk_profile_dump(p, FUZZ_WRITER(sink), NULL) != TK_OK)
                    why = "dump";
                else if (annotate_checked(p, &err) != TK_OK)
                    why = "annotate";
                else if (tk_callgrind_write(p, FUZZ_WRITER(sink), &wo, &err) != TK_OK)
                    why = "convert --to callgrind";
                else if (tk_profile_write_dot(p, &dot, FUZZ_WRITER(sink), &err) != TK_OK)
                    why = "convert --to dot";
                else if (tk_profile_write_folded(p, &fo, FUZZ_WRITER(sink), &err) != TK_OK)
                    why = "convert --to folded";
                fo.per_part = 1;
                if (!why && tk_profile_write_folded(p, &fo, FUZZ_WRITER(sink), &err) != TK_OK)
                    why = "convert --to folded --per-thread";
                fclose(sink);
                tk_profile *m;
                tk_prof_part *into;
                if (!why && tk_profile_open(&m, NULL) == TK_OK) {
                    if (tk_profile_add_part(m, &into, NULL) == TK_OK &&
                        (tk_profile_merge(m, p, into, &err) != TK_OK ||
                         tk_profile_part_fill_totals(m, into, NULL) != TK_OK))
                        why = "merge";
                    tk_profile_free(m);
                }
            }
            tk_profile_free(p);
        }
    }
    return why;
}

static void count_errors(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    (void)loc;
    (void)msg;
    if (sev == TK_SEV_ERROR) ++*(int *)ctx;
}

/* check mode: every problem reported, never a crash; and what check passes (read once,
 * and twice into one profile as for `report F F`), every command takes */
static void check_mode(const uint8_t *data, size_t size)
{
    tk_error err;
    tk_error_clear(&err);
    for (int times = 1; times <= 2; times++) {
        tk_profile *c;
        if (tk_profile_open(&c, NULL) != TK_OK) return;
        int errors = 0;
        tk_diag d;
        tk_diag_init(&d, count_errors, &errors);
        tk_callgrind_read_options co = TK_CALLGRIND_READ_OPTIONS_INIT;
        co.diag = &d;
        co.detail = TK_CALLGRIND_DETAIL_NONE;
        for (int i = 0; i < times; i++)
            (void)tk_callgrind_read_buffer(c, (const char *)data, size, &co, &err);
        tk_profile_free(c);
        const char *why = errors ? NULL : commands_refuse(data, size, times);
        if (why) {
            fprintf(stderr, "check passes the input (given %d time%s) but %s refuses it\n", times,
                    times == 1 ? "" : "s", why);
            abort();
        }
    }
}

/* the block reader over input cut into small chunks: the same result as the buffer
 * (status, location and message of an error, or the dump) */
static void block_reader(const uint8_t *data, size_t size)
{
    tk_profile *b1, *b2;
    if (tk_profile_open(&b1, NULL) != TK_OK) return;
    if (tk_profile_open(&b2, NULL) != TK_OK) {
        tk_profile_free(b1);
        return;
    }
    tk_callgrind_read_options ro = TK_CALLGRIND_READ_OPTIONS_INIT;
    ro.path = "f";
    tk_error e1, e2;
    tk_error_clear(&e1);
    tk_error_clear(&e2);
    tk_status s1 = tk_callgrind_read_buffer(b1, (const char *)data, size, &ro, &e1);
    tk_input_options io = TK_INPUT_OPTIONS_INIT;
    io.chunk_max = 1 + size % 17;
    io.no_decompress = 1; /* the buffer reader sees the bytes as they are */
    tk_input *in;
    if (tk_input_open_memory(&in, data, size, "f", &io, &e2) == TK_OK) {
        tk_status s2 = tk_callgrind_read_input(b2, in, &ro, &e2);
        if (s1 != s2 || (s1 != TK_OK && (e1.line != e2.line || e1.column != e2.column ||
                                         strcmp(e1.message, e2.message) != 0))) {
            fprintf(stderr, "block reader: status %d %s at %llu:%llu, buffer: %d %s at %llu:%llu\n",
                    (int)s2, e2.message, (unsigned long long)e2.line, (unsigned long long)e2.column,
                    (int)s1, e1.message, (unsigned long long)e1.line,
                    (unsigned long long)e1.column);
            abort();
        }
        if (s1 == TK_OK) require_same_dump(b1, b2, "block reader: another dump than the buffer's");
        tk_input_free(in);
    }
    tk_profile_free(b1);
    tk_profile_free(b2);
}

/* the summaries, call arcs, inclusive bounds, folded stacks and dot of a profile read */
static void check_profile(const uint8_t *data, size_t size, const tk_profile *p)
{
    tk_error err;
    tk_error_clear(&err);
    tk_prof_summary *s;
    if (tk_profile_summarize(p, 0, TK_GROUP_FUNCTION, &s, &err) == TK_OK) {
        check_function_rows(data, size, p, s);
        tk_prof_summary_free(s);
    }
    if (tk_profile_summarize(p, 0, TK_GROUP_LINE, &s, &err) == TK_OK) tk_prof_summary_free(s);
    check_arcs(p, TK_GROUP_FUNCTION);
    check_arcs(p, TK_GROUP_FILE_FUNCTION);
    check_inclusive_bounds(p);
    FILE *sink = fopen("/dev/null", "w");
    if (sink) { /* flame graphs of any call graph: a bounded walk, no NaN counts */
        tk_folded_profile_options fo = TK_FOLDED_PROFILE_OPTIONS_INIT;
        fo.min_share = 1e-3;
        (void)tk_profile_write_folded(p, &fo, FUZZ_WRITER(sink), &err);
        tk_dot_options dot = TK_DOT_OPTIONS_INIT;
        dot.node_threshold = dot.edge_threshold = 0;
        (void)tk_profile_write_dot(p, &dot, FUZZ_WRITER(sink), &err);
        fclose(sink);
    }
}

/* the profile written (with and without compressed names and positions) reads back to
 * the same dump */
static void round_trip(const tk_profile *p)
{
    tk_error err;
    tk_error_clear(&err);
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    for (int plain = 0; plain < 2; plain++) {
        char *out = NULL;
        size_t outlen = 0;
        FILE *f = open_memstream(&out, &outlen);
        if (!f) break;
        tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
        if (plain) wo.plain_names = wo.plain_positions = 1;
        tk_status st = tk_callgrind_write(p, FUZZ_WRITER(f), &wo, &err);
        fclose(f);
        tk_profile *q;
        if (st == TK_OK && tk_profile_open(&q, NULL) == TK_OK) {
            if (tk_callgrind_read_buffer(q, out, outlen, &o, &err) != TK_OK) {
                fprintf(stderr, "written profile does not read back: %s (line %llu)\n", err.message,
                        (unsigned long long)err.line);
                abort();
            }
            require_same_dump(p, q, "round trip changed the dump");
            tk_profile_free(q);
        }
        free(out);
    }
}

/* The input cut in two at a line start near its middle, as two files: read one after the
 * other into one profile, and each into its own, the second appended (tk_profile_append):
 * both fail, or the same dump and the same string and function tables. */
static void split_append(const uint8_t *data, size_t size)
{
    size_t cut = size / 2;
    while (cut > 0 && cut < size && data[cut - 1] != '\n') cut++;
    const char *a = (const char *)data, *b = (const char *)data + cut;
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    tk_profile *all = NULL, *one = NULL, *two = NULL;
    if (tk_profile_open(&all, NULL) != TK_OK || tk_profile_open(&one, NULL) != TK_OK ||
        tk_profile_open(&two, NULL) != TK_OK)
        goto done;
    int in_order = tk_callgrind_read_buffer(all, a, cut, &o, NULL) == TK_OK &&
                   tk_callgrind_read_buffer(all, b, size - cut, &o, NULL) == TK_OK;
    int apart = tk_callgrind_read_buffer(one, a, cut, &o, NULL) == TK_OK &&
                tk_callgrind_read_buffer(two, b, size - cut, &o, NULL) == TK_OK &&
                tk_profile_append(one, two, NULL) == TK_OK;
    if (in_order && !apart) {
        fprintf(stderr, "split: read in order but not apart and appended\n");
        abort();
    }
    if (in_order) {
        require_same_dump(all, one, "split: appended, another dump than read in order");
        int same = tk_profile_string_count(all) == tk_profile_string_count(one) &&
                   tk_profile_function_count(all) == tk_profile_function_count(one);
        for (size_t i = 0; same && i < tk_profile_string_count(all); i++)
            same = strcmp(tk_profile_str(all, (uint32_t)i), tk_profile_str(one, (uint32_t)i)) == 0;
        for (size_t i = 0; same && i < tk_profile_function_count(all); i++) {
            tk_prof_function_info x, y;
            tk_profile_function_get(all, (uint32_t)i, &x);
            tk_profile_function_get(one, (uint32_t)i, &y);
            same = x.object == y.object && x.file == y.file && x.name == y.name;
        }
        if (!same) {
            fprintf(stderr, "split: appended, other string or function ids\n");
            abort();
        }
    }
done:
    tk_profile_free(all);
    tk_profile_free(one);
    tk_profile_free(two);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    split_append(data, size);
    compare_paths(data, size);
    check_mode(data, size);
    block_reader(data, size);
    /* read mode, then summary, writer and round trip */
    tk_profile *p;
    if (tk_profile_open(&p, NULL) != TK_OK) return 0;
    tk_error err;
    tk_error_clear(&err);
    tk_callgrind_read_options o = TK_CALLGRIND_READ_OPTIONS_INIT;
    if (tk_callgrind_read_buffer(p, (const char *)data, size, &o, &err) == TK_OK) {
        check_profile(data, size, p);
        round_trip(p);
    }
    tk_profile_free(p);
    return 0;
}
