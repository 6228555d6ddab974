/* Callgrind writer: a function of the profile model only.
 *
 * Every part is written with a full header (so readers that start a part at
 * "# callgrind format" or "events:" see each one). Rows are grouped by
 * function, the functions in the order of their first row in the part (block_order), and
 * sorted by file and position inside a function, so the output is deterministic.
 * Name compression ids are reset per part, as callgrind does. After cost lines of an inlined
 * file ("fi="), a function's block ends with "fe=" back to the function's file, as valgrind's
 * writer does (callgrind_annotate books the next function's costs to the last "fi=" file
 * otherwise; tk_callgrind_write_parts writes a file per part, valgrind's
 * --separate-threads=yes naming. */
#include "core/writer.h"
#include "tracekit/callgrind.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/output.h"
#include "core/hash.h"
#include "core/num.h"
#include "model/profile.h"
#include "tracekit/output.h"

static tk_status callgrind_write_stream(const tk_profile *p, FILE *out,
                                        const tk_callgrind_write_options *opt, tk_error *err);

enum { KIND_OBJECT = 0, KIND_FILE = 1, KIND_FUNCTION = 2 };

typedef struct writer {
    const tk_profile *p;
    FILE *out;
    tk_callgrind_write_options opt;
    const uint32_t *str_rank;
    /* string id (objects, files) or function index (functions) -> compressed id (0 = not yet
     * written). A function's id stands for the function, not its name: KCachegrind binds
     * "(N)" to the function (object, file, name) it was defined with, so two functions of one
     * name ("(below main)" of the program and of libc) get an id each, as valgrind gives */
    uint32_t *ids[3];
    uint32_t next_id[3];
    /* function ids never given out: N of every "(N)" inside a name that starts
     * with "(digit" (see next_function_id) */
    tk_hmap reserved_fn_ids;
    unsigned positions;
    size_t cols[TK_PROFILE_MAX_EVENTS];
    size_t ncols;
    uint64_t last[3];
    int have_last;
} writer;

static void put_name_of(writer *w, int kind, uint32_t key, const char *s)
{
    /* A name that starts like "(12" would read as a compressed reference when
     * written plain, so it always gets an id; an empty name never does. */
    int looks_like_id = s[0] == '(' && s[1] >= '0' && s[1] <= '9';
    if ((w->opt.plain_names && !looks_like_id) || !*s) {
        fputs(s, w->out);
        return;
    }
    uint32_t id = w->ids[kind][key];
    if (id) {
        fprintf(w->out, "(%" PRIu32 ")", id);
        return;
    }
    do id = ++w->next_id[kind];
    while (kind == KIND_FUNCTION && tk_hmap_get(&w->reserved_fn_ids, id, NULL));
    w->ids[kind][key] = id;
    fprintf(w->out, "(%" PRIu32 ") %s", id, s);
}

/* A function defined as "(7) (3)'2" reads back as the context name
 * --compress-mangled=yes writes, with the name of function id 3 in place of
 * "(3)", whenever id 3 is defined (such names come from references to ids a
 * profile never defined). So the writer never gives out the ids such names
 * mention: the definition then reads back as the plain name. */
static int reserve_function_ids(writer *w)
{
    size_t ns = tk_profile_string_count(w->p);
    for (size_t i = 0; i < ns; i++) {
        const char *s = tk_profile_str(w->p, (uint32_t)i);
        if (s[0] != '(' || s[1] < '0' || s[1] > '9') continue;
        const char *se = s + strlen(s); /* as written: fputs stops at a NUL */
        for (const char *q = s; (q = memchr(q, '(', (size_t)(se - q))) != NULL; q++) {
            uint64_t v;
            const char *d = q + 1;
            if (tk_num_scan_dec(&d, se, &v) == TK_OK && d < se && *d == ')' && v <= UINT32_MAX &&
                tk_hmap_put(&w->reserved_fn_ids, v, 0) != 0)
                return -1;
        }
    }
    return 0;
}

static void put_name(writer *w, int kind, uint32_t sid)
{
    put_name_of(w, kind, sid, tk_profile_str(w->p, sid));
}

/* "fn=", "cfn=" or "jfn=" of function index fn */
static void fn_line(writer *w, const char *key, uint32_t fn)
{
    fputs(key, w->out);
    put_name_of(w, KIND_FUNCTION, fn, tk_profile_str(w->p, tk_profile_function_at(w->p, fn)->name));
    fputc('\n', w->out);
}

static void name_line(writer *w, const char *key, int kind, uint32_t sid)
{
    fputs(key, w->out);
    put_name(w, kind, sid);
    fputc('\n', w->out);
}

/* Subpositions of pos in `positions:` order; update=1 makes them the new last. */
static void put_pos(writer *w, const tk_prof_pos *pos, int update)
{
    uint64_t v[3];
    int hex[3];
    size_t n = 0;
    if (w->positions & TK_POS_INSTR) {
        v[n] = pos->addr;
        hex[n++] = 1;
    }
    if (w->positions & TK_POS_BB) {
        v[n] = pos->bb;
        hex[n++] = 1;
    }
    if (w->positions & TK_POS_LINE) {
        v[n] = pos->line;
        hex[n++] = 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (i) fputc(' ', w->out);
        if (!w->opt.plain_positions && w->have_last) {
            if (v[i] == w->last[i]) {
                fputc('*', w->out);
                continue;
            }
            if (v[i] > w->last[i] && v[i] - w->last[i] < 1000000) {
                fprintf(w->out, "+%" PRIu64, v[i] - w->last[i]);
                continue;
            }
            if (v[i] < w->last[i] && w->last[i] - v[i] < 1000000) {
                fprintf(w->out, "-%" PRIu64, w->last[i] - v[i]);
                continue;
            }
        }
        if (hex[i])
            fprintf(w->out, "0x%" PRIx64, v[i]);
        else
            fprintf(w->out, "%" PRIu64, v[i]);
    }
    if (update) {
        memcpy(w->last, v, n * sizeof *v);
        w->have_last = 1;
    }
}

/* Costs in the part's column order, trailing zeros dropped; at least one
 * number when `at_least_one`. */
static void put_costs(writer *w, const uint64_t *costs, int at_least_one)
{
    size_t n = w->ncols;
    while (n > (size_t)(at_least_one ? 1 : 0) && costs[w->cols[n - 1]] == 0) n--;
    for (size_t i = 0; i < n; i++) fprintf(w->out, " %" PRIu64, costs[w->cols[i]]);
}

typedef struct row_ref {
    uint64_t k[8];
    uint32_t kind; /* 0 self, 1 call, 2 jump */
    uint32_t row;
} row_ref;

static int cmp_row_ref(const void *a, const void *b)
{
    const row_ref *x = a, *y = b;
    for (int i = 0; i < 8; i++)
        if (x->k[i] != y->k[i]) return x->k[i] < y->k[i] ? -1 : 1;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

static void fill_ref(writer *w, const uint64_t *order, row_ref *r, uint32_t fn, uint32_t file,
                     const tk_prof_pos *pos)
{
    memset(r, 0, sizeof *r);
    r->k[0] = order[fn];
    r->k[1] = w->str_rank[file];
    r->k[2] = pos->addr;
    r->k[3] = pos->bb;
    r->k[4] = pos->line;
}

static void write_header(writer *w, const tk_prof_part *part)
{
    const tk_profile *p = w->p;
    FILE *o = w->out;
    fputs("# callgrind format\nversion: 1\n", o);
    if (part->creator) fprintf(o, "creator: %s\n", part->creator);
    if (part->has_pid) fprintf(o, "pid: %" PRIu64 "\n", part->pid);
    if (part->cmd) fprintf(o, "cmd: %s\n", part->cmd);
    if (part->has_number) fprintf(o, "part: %" PRIu64 "\n", part->number);
    if (part->has_thread) fprintf(o, "thread: %" PRIu64 "\n", part->thread);
    for (size_t i = 0; i < part->desc_count; i++) fprintf(o, "desc: %s\n", part->desc[i]);
    fputs("positions:", o);
    if (w->positions & TK_POS_INSTR) fputs(" instr", o);
    if (w->positions & TK_POS_BB) fputs(" bb", o);
    if (w->positions & TK_POS_LINE) fputs(" line", o);
    fputc('\n', o);
    for (size_t i = 0; i < w->ncols; i++) {
        const tk_prof_event *e = tk_profile_event(p, w->cols[i]);
        if (e->long_name != TK_PROF_NONE)
            fprintf(o, "event: %s : %s\n", tk_profile_str(p, e->name),
                    tk_profile_str(p, e->long_name));
    }
    for (size_t i = 0; i < tk_profile_derived_count(p); i++) {
        const tk_prof_derived *d = tk_profile_derived(p, i);
        fprintf(o, "event: %s = %s", tk_profile_str(p, d->name), tk_profile_str(p, d->formula));
        if (d->long_name != TK_PROF_NONE) fprintf(o, " : %s", tk_profile_str(p, d->long_name));
        fputc('\n', o);
    }
    fputs("events:", o);
    for (size_t i = 0; i < w->ncols; i++)
        fprintf(o, " %s", tk_profile_str(p, tk_profile_event(p, w->cols[i])->name));
    fputc('\n', o);
    if (part->has_summary) {
        fputs("summary:", o);
        put_costs(w, part->summary, 1);
        fputc('\n', o);
    }
    fputc('\n', o);
}

/* The order of the part's functions: by their first cost line in the part (rows are kept in
 * the order they were first added: a profile read from a file keeps the file's order of
 * function blocks), then those with calls only, then those with jumps only. callgrind_annotate
 * shows a file:function present in two objects with the object of its last "fn=" block, so
 * the order of the blocks is part of what it prints. */
static uint64_t *block_order(const tk_profile *p, const tk_prof_part *part)
{
    size_t nfn = tk_profile_function_count(p);
    uint64_t *order = tk_malloc((nfn ? nfn : 1) * sizeof *order);
    if (!order) return NULL;
    for (size_t f = 0; f < nfn; f++) order[f] = UINT64_MAX;
    const tk_prof_self *srows = part->self.rows;
    const tk_prof_call *crows = part->calls.rows;
    const tk_prof_jump *jrows = part->jumps.rows;
    uint64_t k = 0;
    for (size_t r = 0; r < part->self.count; r++, k++)
        if (order[srows[r].fn] == UINT64_MAX) order[srows[r].fn] = k;
    for (size_t r = 0; r < part->calls.count; r++, k++)
        if (order[crows[r].fn] == UINT64_MAX) order[crows[r].fn] = k;
    for (size_t r = 0; r < part->jumps.count; r++, k++)
        if (order[jrows[r].fn] == UINT64_MAX) order[jrows[r].fn] = k;
    return order;
}

/* The part's columns (events present) and fresh name ids; then its header. */
static void begin_part(writer *w, const tk_prof_part *part)
{
    const tk_profile *p = w->p;
    size_t nev = tk_profile_event_count(p);
    w->positions = w->opt.positions  ? w->opt.positions
                   : part->positions ? part->positions
                                     : TK_POS_LINE;
    w->ncols = 0;
    for (size_t i = 0; i < nev; i++)
        if (!part->events_mask_valid || ((part->events_present >> i) & 1)) w->cols[w->ncols++] = i;
    if (w->ncols == 0) /* events: must name at least one type */
        for (size_t i = 0; i < nev; i++) w->cols[w->ncols++] = i;
    for (int k = 0; k < 3; k++) {
        memset(w->ids[k], 0,
               (k == KIND_FUNCTION ? tk_profile_function_count(p) : tk_profile_string_count(p)) *
                   sizeof *w->ids[k]);
        w->next_id[k] = 0;
    }
    write_header(w, part);
}

/* Every row of the part (self, calls, jumps) in the order they are written; NULL when out of
 * memory. */
static row_ref *sorted_refs(writer *w, const tk_prof_part *part, const uint32_t *fn_rank,
                            size_t *count)
{
    size_t n = part->self.count + part->calls.count + part->jumps.count;
    row_ref *refs = tk_malloc((n ? n : 1) * sizeof *refs);
    uint64_t *order = block_order(w->p, part);
    if (!refs || !order) {
        tk_free(refs);
        tk_free(order);
        return NULL;
    }
    size_t k = 0;
    const tk_prof_self *srows = part->self.rows;
    const tk_prof_call *crows = part->calls.rows;
    const tk_prof_jump *jrows = part->jumps.rows;
    for (size_t r = 0; r < part->self.count; r++, k++) {
        fill_ref(w, order, &refs[k], srows[r].fn, srows[r].file, &srows[r].pos);
        refs[k].kind = 0;
        refs[k].row = (uint32_t)r;
    }
    for (size_t r = 0; r < part->calls.count; r++, k++) {
        const tk_prof_call *c = &crows[r];
        fill_ref(w, order, &refs[k], c->fn, c->file, &c->pos);
        refs[k].k[5] = 1 + (uint64_t)fn_rank[c->callee];
        refs[k].k[6] = c->target.addr ^ (c->target.line << 32);
        refs[k].kind = 1;
        refs[k].row = (uint32_t)r;
    }
    for (size_t r = 0; r < part->jumps.count; r++, k++) {
        const tk_prof_jump *j = &jrows[r];
        fill_ref(w, order, &refs[k], j->fn, j->file, &j->pos);
        refs[k].k[5] = 1 + (uint64_t)fn_rank[j->target_fn];
        refs[k].k[6] = j->target.addr ^ (j->target.line << 32);
        refs[k].k[7] = j->conditional;
        refs[k].kind = 2;
        refs[k].row = (uint32_t)r;
    }
    qsort(refs, n, sizeof *refs, cmp_row_ref);
    tk_free(order);
    *count = n;
    return refs;
}

static tk_status write_part(writer *w, const tk_prof_part *part, const uint32_t *fn_rank)
{
    const tk_profile *p = w->p;
    FILE *o = w->out;
    size_t nev = tk_profile_event_count(p);
    begin_part(w, part);
    size_t n;
    row_ref *refs = sorted_refs(w, part, fn_rank, &n);
    if (!refs) return TK_ERR_NOMEM;
    const tk_prof_self *srows = part->self.rows;
    const tk_prof_call *crows = part->calls.rows;
    const tk_prof_jump *jrows = part->jumps.rows;

    uint32_t cur_fn = UINT32_MAX, cur_file = UINT32_MAX, cur_ob = UINT32_MAX, cur_fl = UINT32_MAX;
    for (size_t i = 0; i < n; i++) {
        const row_ref *r = &refs[i];
        uint32_t fn, file;
        const tk_prof_pos *pos;
        if (r->kind == 0) {
            fn = srows[r->row].fn;
            file = srows[r->row].file;
            pos = &srows[r->row].pos;
        } else if (r->kind == 1) {
            fn = crows[r->row].fn;
            file = crows[r->row].file;
            pos = &crows[r->row].pos;
        } else {
            fn = jrows[r->row].fn;
            file = jrows[r->row].file;
            pos = &jrows[r->row].pos;
        }
        const tk_prof_function *f = tk_profile_function_at(p, fn);
        if (fn != cur_fn) {
            /* back to the function's own file before the next "fn=", as valgrind writes it:
             * callgrind_annotate keeps the inlined file of "fi=" across "fn=" */
            if (cur_fn != UINT32_MAX && cur_file != cur_fl) name_line(w, "fe=", KIND_FILE, cur_fl);
            if (cur_fn != UINT32_MAX) fputc('\n', o);
            /* readers start a part with the empty object: no "ob=" needed for it */
            if (f->object != cur_ob && !(cur_ob == UINT32_MAX && !*tk_profile_str(p, f->object)))
                name_line(w, "ob=", KIND_OBJECT, f->object);
            /* nor "fl=" for the empty file (a profile without "fl=" lines) */
            if (f->file != cur_fl && !(cur_fl == UINT32_MAX && !*tk_profile_str(p, f->file)))
                name_line(w, "fl=", KIND_FILE, f->file);
            fn_line(w, "fn=", fn);
            cur_fn = fn;
            cur_ob = f->object;
            cur_fl = f->file;
            cur_file = f->file;
            w->have_last = 0;
        }
        if (file != cur_file) {
            name_line(w, file == f->file ? "fe=" : "fi=", KIND_FILE, file);
            cur_file = file;
            w->have_last = 0;
        }
        if (r->kind == 0) {
            put_pos(w, pos, 1);
            put_costs(w, part->self.values + (size_t)r->row * nev, 1);
            fputc('\n', o);
        } else if (r->kind == 1) {
            const tk_prof_call *c = &crows[r->row];
            const tk_prof_function *cf = tk_profile_function_at(p, c->callee);
            const uint64_t *v = part->calls.values + (size_t)r->row * (nev + 1);
            if (cf->object != f->object) name_line(w, "cob=", KIND_OBJECT, cf->object);
            if (cf->file != cur_file) name_line(w, "cfi=", KIND_FILE, cf->file);
            fn_line(w, "cfn=", c->callee);
            fprintf(o, "calls=%" PRIu64 " ", v[0]);
            put_pos(w, &c->target, 0);
            fputc('\n', o);
            put_pos(w, pos, 1);
            put_costs(w, v + 1, 0);
            fputc('\n', o);
        } else {
            const tk_prof_jump *j = &jrows[r->row];
            const uint64_t *v = part->jumps.values + (size_t)r->row * 2;
            if (j->target_file != cur_file) name_line(w, "jfi=", KIND_FILE, j->target_file);
            if (j->target_fn != fn) fn_line(w, "jfn=", j->target_fn);
            if (j->conditional)
                fprintf(o, "jcnd=%" PRIu64 "/%" PRIu64 " ", v[1], v[0]);
            else
                fprintf(o, "jump=%" PRIu64 " ", v[1]);
            put_pos(w, &j->target, 0);
            fputc('\n', o);
            put_pos(w, pos, 1);
            fputc('\n', o);
        }
    }
    tk_free(refs);
    if (cur_fn != UINT32_MAX && cur_file != cur_fl) name_line(w, "fe=", KIND_FILE, cur_fl);
    if (part->has_totals) {
        fputs("\ntotals:", o);
        put_costs(w, part->totals, 1);
        fputc('\n', o);
    }
    return TK_OK;
}

static tk_status callgrind_write_stream(const tk_profile *p, FILE *out,
                                        const tk_callgrind_write_options *opt, tk_error *err)
{
    writer w;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.out = out;
    if (opt) {
        w.opt = *opt;
    } else {
        tk_callgrind_write_options d = TK_CALLGRIND_WRITE_OPTIONS_INIT;
        w.opt = d;
    }
    uint32_t *sr = NULL, *fr = NULL;
    if (tk_profile_string_ranks(p, &sr, NULL) == TK_OK)
        (void)tk_profile_function_ranks(p, sr, &fr, NULL);
    size_t ns = tk_profile_string_count(p);
    tk_status st = TK_OK;
    for (int k = 0; k < 3 && fr; k++) {
        size_t nk = k == KIND_FUNCTION ? tk_profile_function_count(p) : ns;
        w.ids[k] = tk_calloc(nk ? nk : 1, sizeof *w.ids[k]);
        if (!w.ids[k]) st = TK_ERR_NOMEM;
    }
    if (!sr || !fr || reserve_function_ids(&w) != 0) st = TK_ERR_NOMEM;
    w.str_rank = sr;
    for (size_t i = 0; i < tk_profile_part_count(p) && st == TK_OK; i++) {
        if (w.opt.part && (size_t)w.opt.part != i + 1) continue;
        if (i && !w.opt.part) fputc('\n', out);
        st = write_part(&w, tk_profile_part(p, i), fr);
    }
    for (int k = 0; k < 3; k++) tk_free(w.ids[k]);
    tk_hmap_free(&w.reserved_fn_ids);
    tk_free(sr);
    tk_free(fr);
    if (st == TK_OK && ferror(out)) st = TK_ERR_IO;
    if (st != TK_OK)
        return tk_error_set(err, st, st == TK_ERR_IO ? "write error" : "out of memory");
    return TK_OK;
}

tk_status tk_callgrind_write_parts(const tk_profile *p, const char *path,
                                   const tk_callgrind_write_options *opt, unsigned flags,
                                   char ***paths, tk_error *err)
{
    size_t n = tk_profile_part_count(p);
    tk_callgrind_write_options o = TK_CALLGRIND_WRITE_OPTIONS_INIT;
    if (opt) o = *opt;
    char **names = paths ? tk_calloc(n + 1, sizeof *names) : NULL;
    if (paths && !names) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    tk_status st = TK_OK;
    for (size_t i = 0; i < n && st == TK_OK; i++) {
        size_t len = strlen(path) + 24;
        char *name = tk_malloc(len);
        if (!name) {
            st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
            break;
        }
        snprintf(name, len, "%s-%02zu", path, i + 1);
        tk_output *out = NULL;
        st = tk_output_open(&out, name, flags, err);
        o.part = (int)(i + 1);
        if (st == TK_OK) st = callgrind_write_stream(p, tk_output_stream(out), &o, err);
        if (st == TK_OK)
            st = tk_output_commit(out, err);
        else
            tk_output_abort(out);
        if (names)
            names[i] = name;
        else
            tk_free(name);
    }
    if (paths) *paths = names;
    return st;
}

tk_status tk_callgrind_write(const tk_profile *p, const tk_writer *out,
                             const tk_callgrind_write_options *opt, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, callgrind_write_stream(p, s.f, opt, err), err);
}
