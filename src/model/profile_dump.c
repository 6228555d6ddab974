/* Canonical dump of a profile: deterministic (sorted by names and positions),
 * independent of row order and of callgrind name/position compression. */
#include "core/writer.h"
#include "model/profile.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

typedef struct fn_sort {
    uint32_t name, object, file, id;
} fn_sort;

static int cmp_fn_sort(const void *a, const void *b)
{
    const fn_sort *x = a, *y = b;
    if (x->name != y->name) return x->name < y->name ? -1 : 1;
    if (x->object != y->object) return x->object < y->object ? -1 : 1;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    return 0;
}

tk_status tk_profile_function_ranks(const tk_profile *p, const uint32_t *str_rank, uint32_t **out,
                                    tk_error *err)
{
    size_t n = tk_profile_function_count(p);
    fn_sort *v = tk_malloc((n ? n : 1) * sizeof *v);
    uint32_t *rank = *out = tk_malloc((n ? n : 1) * sizeof *rank); /* the caller's (tk_free) */
    if (!v || !rank) {
        tk_free(v);
        tk_free(rank);
        *out = NULL;
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        const tk_prof_function *f = tk_profile_function_at(p, (uint32_t)i);
        v[i].name = str_rank[f->name];
        v[i].object = str_rank[f->object];
        v[i].file = str_rank[f->file];
        v[i].id = (uint32_t)i;
    }
    qsort(v, n, sizeof *v, cmp_fn_sort);
    for (size_t i = 0; i < n; i++) rank[v[i].id] = (uint32_t)i;
    tk_free(v);
    return TK_OK;
}

/* A row's sort key: up to 12 numbers compared in order, then the row index. */
#define KEY_WORDS 12
typedef struct row_sort {
    uint64_t k[KEY_WORDS];
    size_t row;
} row_sort;

static int cmp_row_sort(const void *a, const void *b)
{
    const row_sort *x = a, *y = b;
    for (int i = 0; i < KEY_WORDS; i++)
        if (x->k[i] != y->k[i]) return x->k[i] < y->k[i] ? -1 : 1;
    return 0;
}

static void put_str(FILE *out, const tk_profile *p, uint32_t id)
{
    if (id == TK_PROF_NONE) {
        fputs("-", out);
        return;
    }
    const char *s = tk_profile_str(p, id);
    size_t n = tk_profile_str_len(p, id);
    fputc('"', out);
    size_t run = 0; /* s[run, i): plain characters not yet written, one fwrite for them all
                     * (a call per character locked the stream each time: most of the CPU of
                     * a profile's dump) */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c != '"' && c != '\\' && c >= 0x20 && c != 0x7f) continue;
        if (i > run) fwrite(s + run, 1, i - run, out);
        run = i + 1;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else
            fprintf(out, "\\x%02x", c);
    }
    if (n > run) fwrite(s + run, 1, n - run, out);
    fputc('"', out);
}

static void put_fn(FILE *out, const tk_profile *p, uint32_t fn)
{
    const tk_prof_function *f = tk_profile_function_at(p, fn);
    put_str(out, p, f->name);
    fputs(" ob ", out);
    put_str(out, p, f->object);
    fputs(" fl ", out);
    put_str(out, p, f->file);
}

static void put_pos(FILE *out, unsigned positions, const tk_prof_pos *pos)
{
    if (positions & TK_POS_INSTR) fprintf(out, " addr 0x%" PRIx64, pos->addr);
    if (positions & TK_POS_BB) fprintf(out, " bb 0x%" PRIx64, pos->bb);
    if (!positions || (positions & TK_POS_LINE)) fprintf(out, " line %" PRIu64, pos->line);
}

static void put_costs(FILE *out, const uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) fprintf(out, " %" PRIu64, v[i]);
}

/* The part's header: number, pid, thread, creator, command, positions,
 * summary, totals and the sum of its self costs. */
static tk_status dump_part_head(const tk_profile *p, const tk_prof_part *part, size_t index,
                                FILE *out)
{
    size_t w = tk_profile_event_count(p);
    fprintf(out, "part %zu\n", index + 1);
    if (part->has_number) fprintf(out, "  part-number: %" PRIu64 "\n", part->number);
    if (part->has_pid) fprintf(out, "  pid: %" PRIu64 "\n", part->pid);
    if (part->has_thread) fprintf(out, "  thread: %" PRIu64 "\n", part->thread);
    if (part->creator) fprintf(out, "  creator: %s\n", part->creator);
    if (part->cmd) fprintf(out, "  cmd: %s\n", part->cmd);
    for (size_t i = 0; i < part->desc_count; i++) fprintf(out, "  desc: %s\n", part->desc[i]);
    fputs("  positions:", out);
    if (part->positions & TK_POS_INSTR) fputs(" instr", out);
    if (part->positions & TK_POS_BB) fputs(" bb", out);
    if (!part->positions || (part->positions & TK_POS_LINE)) fputs(" line", out);
    fputc('\n', out);
    if (part->has_summary) {
        fputs("  summary:", out);
        put_costs(out, part->summary, w);
        fputc('\n', out);
    }
    if (part->has_totals) {
        fputs("  totals:", out);
        put_costs(out, part->totals, w);
        fputc('\n', out);
    }
    uint64_t sum[TK_PROFILE_MAX_EVENTS];
    tk_status st = tk_profile_part_sum(p, part, sum, NULL);
    if (st != TK_OK) return st;
    fputs("  sum of self costs:", out);
    put_costs(out, sum, w);
    fputc('\n', out);
    return TK_OK;
}

/* Every row of the part (self, call, jump) with its sort key: by function
 * rank, kind (self, call, jump), file rank, position, then the other end.
 * sr, fr: string and function ranks. Sorted; NULL when out of memory. */
static row_sort *sorted_rows(const tk_prof_part *part, const uint32_t *sr, const uint32_t *fr,
                             size_t *count)
{
    size_t n = part->self.count + part->calls.count + part->jumps.count;
    row_sort *v = tk_malloc((n ? n : 1) * sizeof *v);
    if (!v) return NULL;
    size_t k = 0;
    const tk_prof_self *srows = part->self.rows;
    const tk_prof_call *crows = part->calls.rows;
    const tk_prof_jump *jrows = part->jumps.rows;
    for (size_t r = 0; r < part->self.count; r++, k++) {
        const tk_prof_self *s = &srows[r];
        row_sort *o = &v[k];
        memset(o, 0, sizeof *o);
        o->k[0] = fr[s->fn];
        o->k[1] = 0; /* self rows first */
        o->k[2] = sr[s->file];
        o->k[3] = s->pos.line;
        o->k[4] = s->pos.addr;
        o->k[5] = s->pos.bb;
        o->row = r;
    }
    for (size_t r = 0; r < part->calls.count; r++, k++) {
        const tk_prof_call *c = &crows[r];
        row_sort *o = &v[k];
        memset(o, 0, sizeof *o);
        o->k[0] = fr[c->fn];
        o->k[1] = 1;
        o->k[2] = sr[c->file];
        o->k[3] = c->pos.line;
        o->k[4] = c->pos.addr;
        o->k[5] = c->pos.bb;
        o->k[6] = fr[c->callee];
        o->k[7] = c->target.line;
        o->k[8] = c->target.addr;
        o->k[9] = c->target.bb;
        o->row = r;
    }
    for (size_t r = 0; r < part->jumps.count; r++, k++) {
        const tk_prof_jump *j = &jrows[r];
        row_sort *o = &v[k];
        memset(o, 0, sizeof *o);
        o->k[0] = fr[j->fn];
        o->k[1] = 2;
        o->k[2] = sr[j->file];
        o->k[3] = j->pos.line;
        o->k[4] = j->pos.addr;
        o->k[5] = j->pos.bb;
        o->k[6] = fr[j->target_fn];
        o->k[7] = sr[j->target_file];
        o->k[8] = j->target.line;
        o->k[9] = j->target.addr;
        o->k[10] = j->target.bb;
        o->k[11] = j->conditional;
        o->row = r;
    }
    qsort(v, n, sizeof *v, cmp_row_sort);
    *count = n;
    return v;
}

/* One row: "self", "call", "jump" or "jcnd" with its positions and costs. */
static void dump_row(const tk_profile *p, const tk_prof_part *part, const row_sort *o, FILE *out)
{
    size_t w = tk_profile_event_count(p);
    const tk_prof_self *srows = part->self.rows;
    const tk_prof_call *crows = part->calls.rows;
    const tk_prof_jump *jrows = part->jumps.rows;
    if (o->k[1] == 0) {
        const tk_prof_self *s = &srows[o->row];
        fputs("    self fi ", out);
        put_str(out, p, s->file);
        put_pos(out, part->positions, &s->pos);
        fputs(":", out);
        put_costs(out, part->self.values + o->row * w, w);
    } else if (o->k[1] == 1) {
        const tk_prof_call *c = &crows[o->row];
        const uint64_t *cv = part->calls.values + o->row * (w + 1);
        fputs("    call fi ", out);
        put_str(out, p, c->file);
        put_pos(out, part->positions, &c->pos);
        fputs(" -> ", out);
        put_fn(out, p, c->callee);
        fputs(" at", out);
        put_pos(out, part->positions, &c->target);
        fprintf(out, ": calls %" PRIu64 " inclusive:", cv[0]);
        put_costs(out, cv + 1, w);
    } else {
        const tk_prof_jump *j = &jrows[o->row];
        const uint64_t *jv = part->jumps.values + o->row * 2;
        fputs(j->conditional ? "    jcnd fi " : "    jump fi ", out);
        put_str(out, p, j->file);
        put_pos(out, part->positions, &j->pos);
        fputs(" -> ", out);
        put_fn(out, p, j->target_fn);
        fputs(" fi ", out);
        put_str(out, p, j->target_file);
        put_pos(out, part->positions, &j->target);
        if (j->conditional)
            fprintf(out, ": executed %" PRIu64 " followed %" PRIu64, jv[0], jv[1]);
        else
            fprintf(out, ": count %" PRIu64, jv[1]);
    }
    fputc('\n', out);
}

static tk_status dump_part(const tk_profile *p, const tk_prof_part *part, size_t index,
                           const uint32_t *sr, const uint32_t *fr, FILE *out)
{
    tk_status st = dump_part_head(p, part, index, out);
    if (st != TK_OK) return st;
    size_t n;
    row_sort *v = sorted_rows(part, sr, fr, &n);
    if (!v) return TK_ERR_NOMEM;
    const tk_prof_self *srows = part->self.rows;
    const tk_prof_call *crows = part->calls.rows;
    const tk_prof_jump *jrows = part->jumps.rows;
    uint32_t cur_fn = UINT32_MAX;
    for (size_t i = 0; i < n; i++) {
        const row_sort *o = &v[i];
        uint32_t fn = o->k[1] == 0   ? srows[o->row].fn
                      : o->k[1] == 1 ? crows[o->row].fn
                                     : jrows[o->row].fn;
        if (fn != cur_fn) {
            fputs("  function ", out);
            put_fn(out, p, fn);
            fputc('\n', out);
            cur_fn = fn;
        }
        dump_row(p, part, o, out);
    }
    tk_free(v);
    return TK_OK;
}

static tk_status profile_dump_stream(const tk_profile *p, FILE *out, tk_error *err)
{
    uint32_t *sr = NULL, *fr = NULL;
    if (tk_profile_string_ranks(p, &sr, err) != TK_OK ||
        tk_profile_function_ranks(p, sr, &fr, err) != TK_OK) {
        tk_free(sr);
        return TK_ERR_NOMEM;
    }
    size_t w = tk_profile_event_count(p);
    fputs("tracekit profile dump 1\nevents:", out);
    for (size_t i = 0; i < w; i++) {
        fputc(' ', out);
        fputs(tk_profile_str(p, tk_profile_event(p, i)->name), out);
    }
    fputc('\n', out);
    for (size_t i = 0; i < w; i++) {
        const tk_prof_event *e = tk_profile_event(p, i);
        if (e->long_name == TK_PROF_NONE) continue;
        fprintf(out, "event %s long-name ", tk_profile_str(p, e->name));
        put_str(out, p, e->long_name);
        fputc('\n', out);
    }
    for (size_t i = 0; i < tk_profile_derived_count(p); i++) {
        const tk_prof_derived *d = tk_profile_derived(p, i);
        fprintf(out, "derived %s = %s", tk_profile_str(p, d->name), tk_profile_str(p, d->formula));
        if (d->long_name != TK_PROF_NONE) {
            fputs(" long-name ", out);
            put_str(out, p, d->long_name);
        }
        fputc('\n', out);
    }
    tk_status st = TK_OK;
    for (size_t i = 0; i < tk_profile_part_count(p) && st == TK_OK; i++)
        st = dump_part(p, tk_profile_part(p, i), i, sr, fr, out);
    tk_free(sr);
    tk_free(fr);
    if (st == TK_OK && ferror(out)) st = TK_ERR_IO;
    return st;
}

tk_status tk_profile_dump(const tk_profile *p, const tk_writer *out, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, profile_dump_stream(p, s.f, err), err);
}
