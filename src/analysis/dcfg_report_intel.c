/* The tables of Intel's dcfg-reader that `report --table` prints as Intel's tool does:
 * its statistics lines ("Num routines , 132, ave routines/image , 44.00 max , 79, min ,
 * 15"), the file of -all_source_loops_stats (every loop whose head has a source line and
 * ran) and the file of -inner_source_loops_stats (-inner_loops_stats in older kits: each
 * such inner-most loop, then the loops around it that have a source line, outwards).
 * docs/formats/dcfg.md lists where the rows and the numbers come from, and the three
 * points where tracekit does not repeat what the tool does. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/textout.h"
#include "analysis/dcfg_report.h"

/* ---- statistics ----------------------------------------------------------------- */

/* One of dcfg-reader's statistics: the values added, their sum, largest and smallest.
 * `count` grows by the weight of a value (a block's executions for the dynamic
 * instructions), and the largest and smallest start again from a value added while
 * `count` is 0, as the tool's do: a block that never ran before the first that did is
 * not the smallest. */
typedef struct intel_stat {
    uint64_t count, sum, max, min;
} intel_stat;

static void stat_add(intel_stat *s, uint64_t val, uint64_t weight)
{
    s->sum += val;
    if (!s->count || val > s->max) s->max = val;
    if (!s->count || val < s->min) s->min = val;
    s->count += weight;
}

/* The tool's average: single precision, sum and count each rounded to a float first. */
static double stat_average(const intel_stat *s)
{
    float avg = s->count ? (float)s->sum / (float)s->count : 0.0f;
    return (double)avg;
}

enum {
    ST_ROUTINES,
    ST_CALLS,
    ST_LOOPS,
    ST_ITERATIONS,
    ST_BLOCKS,
    ST_STATICS,
    ST_EXECS,
    ST_DYNAMIC,
    ST_N
};

/* The names the tool prints: what is counted, and per what. */
static const char *const stat_names[ST_N][2] = {
    {"routines", "image"},
    {"routine calls", "routine"},
    {"loops", "image"},
    {"loop iterations", "loop"},
    {"basic blocks", "image"},
    {"static instrs", "basic block"},
    {"basic-block executions", "basic block"},
    {"dynamic instrs", "basic block execution"},
};

/* The statistics of image i, added to st. */
static void image_statistics(const tk_cfg_process *p, uint32_t i, intel_stat st[ST_N])
{
    const tk_cfg_image *im = &p->images[i];
    stat_add(&st[ST_BLOCKS], im->nblocks, 1);
    for (uint32_t k = 0; k < im->nblocks; k++) {
        const tk_cfg_block *b = &p->blocks[im->first_block + k];
        stat_add(&st[ST_STATICS], b->num_instrs, 1);
        stat_add(&st[ST_EXECS], b->count, 1);
        stat_add(&st[ST_DYNAMIC], b->count * b->num_instrs, b->count);
    }
    stat_add(&st[ST_ROUTINES], im->nroutines, 1);
    uint64_t loops = 0;
    for (uint32_t k = 0; k < im->nroutines; k++) {
        const tk_cfg_routine *ro = &p->routines[im->first_routine + k];
        stat_add(&st[ST_CALLS], tk_cfg_stored_routine_entry_count(p, ro), 1);
        loops += ro->nloops;
    }
    stat_add(&st[ST_LOOPS], loops, 1);
    for (uint32_t k = 0; k < im->nroutines; k++) {
        const tk_cfg_routine *ro = &p->routines[im->first_routine + k];
        for (uint32_t l = ro->first_loop; l < ro->first_loop + ro->nloops; l++)
            stat_add(&st[ST_ITERATIONS], tk_cfg_loop_iteration_count(p, l), 1);
    }
}

/* Statistic k as text (the tool's line), a CSV row or a JSON object. */
static void statistic_row(tk_dcfg_rep *r, int k, const intel_stat *s)
{
    FILE *f = r->f;
    const char *what = stat_names[k][0], *per = stat_names[k][1];
    if (r->o->format == TK_DCFG_REPORT_TEXT) {
        fprintf(f, "  Num %s , %" PRIu64, what, s->sum);
        if (s->count)
            fprintf(f, ", ave %s/%s , %.2f max , %" PRIu64 ", min , %" PRIu64, what, per,
                    stat_average(s), s->max, s->min);
        fputc('\n', f);
    } else if (r->o->format == TK_DCFG_REPORT_CSV) {
        fprintf(f, "%s,%s,%" PRIu64 ",%" PRIu64 ",", what, per, s->count, s->sum);
        if (s->count)
            fprintf(f, "%.2f,%" PRIu64 ",%" PRIu64 "\n", stat_average(s), s->max, s->min);
        else
            fputs(",,\n", f);
    } else {
        fprintf(f,
                "%s{\"statistic\": \"%s\", \"per\": \"%s\", \"count\": %" PRIu64
                ", \"total\": %" PRIu64,
                k ? ", " : "", what, per, s->count, s->sum);
        if (s->count)
            fprintf(f, ", \"average\": %.2f, \"max\": %" PRIu64 ", \"min\": %" PRIu64 "}",
                    stat_average(s), s->max, s->min);
        else
            fputs(", \"average\": null, \"max\": null, \"min\": null}", f);
    }
}

static void statistics(tk_dcfg_rep *r)
{
    intel_stat st[ST_N];
    memset(st, 0, sizeof st);
    for (uint32_t i = 0; i < r->p->nimages; i++)
        if (!r->o->has_image || r->p->images[i].id == r->o->image_id) image_statistics(r->p, i, st);
    if (r->o->format == TK_DCFG_REPORT_CSV)
        fputs("statistic,per,count,total,average,max,min\n", r->f);
    if (r->o->format == TK_DCFG_REPORT_JSON) fputs(", \"statistics\": [", r->f);
    for (int k = 0; k < ST_N; k++) statistic_row(r, k, &st[k]);
    if (r->o->format == TK_DCFG_REPORT_JSON) fputc(']', r->f);
}

/* ---- source loops ----------------------------------------------------------------- */

/* What the loop files show of every loop of the process (by loop index): its head's
 * source line (file NULL: none), its visits (the counts of the edges entering it). */
typedef struct loop_facts {
    uint32_t *lines;
    const char **files;
    uint64_t *visits;
    uint32_t *order; /* loop indexes, by image, then by head id */
    uint8_t *inner; /* no loop has it as its parent */
} loop_facts;

static void facts_free(loop_facts *lf)
{
    tk_free(lf->lines);
    tk_free(lf->files);
    tk_free(lf->visits);
    tk_free(lf->order);
    tk_free(lf->inner);
}

/* A loop in the files' order: by the image of its head, then by head id. */
typedef struct loop_key {
    uint32_t image, head_id, loop;
} loop_key;

static int cmp_loop_key(const void *a, const void *b)
{
    const loop_key *x = a, *y = b;
    if (x->image != y->image) return x->image < y->image ? -1 : 1;
    return (x->head_id > y->head_id) - (x->head_id < y->head_id);
}

/* lf->order: the n loops whose head is a block, in the files' order. Returns 1, or 0
 * when out of memory. */
static int order_loops(const tk_cfg_process *p, loop_facts *lf, uint32_t *n)
{
    loop_key *keys = tk_malloc(sizeof *keys * (p->nloops ? p->nloops : 1));
    if (!keys) return 0;
    *n = 0;
    for (uint32_t l = 0; l < p->nloops; l++) {
        uint32_t h = p->loops[l].head;
        if (h >= p->nblocks) continue;
        keys[*n].image = tk_cfg_block_image(p, h);
        keys[*n].head_id = p->blocks[h].id;
        keys[(*n)++].loop = l;
    }
    qsort(keys, *n, sizeof *keys, cmp_loop_key);
    for (uint32_t k = 0; k < *n; k++) lf->order[k] = keys[k].loop;
    tk_free(keys);
    return 1;
}

/* The facts of every loop whose head is a block. Returns 1, or 0 when out of memory. */
static int facts_of(const tk_dcfg_rep *r, loop_facts *lf, uint32_t *n)
{
    const tk_cfg_process *p = r->p;
    size_t cap = p->nloops ? p->nloops : 1;
    memset(lf, 0, sizeof *lf);
    uint32_t *heads = tk_malloc(sizeof *heads * cap);
    lf->lines = tk_malloc(sizeof *lf->lines * cap);
    lf->files = tk_malloc(sizeof *lf->files * cap);
    lf->visits = tk_malloc(sizeof *lf->visits * cap);
    lf->order = tk_malloc(sizeof *lf->order * cap);
    lf->inner = tk_malloc(cap);
    int ok = heads && lf->lines && lf->files && lf->visits && lf->order && lf->inner;
    for (uint32_t l = 0; ok && l < p->nloops; l++) {
        heads[l] = p->loops[l].head < p->nblocks ? p->loops[l].head : 0;
        lf->inner[l] = 1;
    }
    for (uint32_t l = 0; ok && l < p->nloops; l++)
        if (p->loops[l].parent < p->nloops) lf->inner[p->loops[l].parent] = 0;
    if (ok && p->nblocks)
        ok = tk_cfg_blocks_source(r->cfg, p, heads, p->nloops, lf->lines, lf->files, NULL) == TK_OK;
    for (uint32_t l = 0; ok && l < p->nloops; l++) heads[l] = l;
    if (ok) ok = tk_cfg_loop_entry_counts(r->cfg, p, heads, p->nloops, lf->visits);
    tk_free(heads);
    if (ok) ok = order_loops(p, lf, n);
    if (!ok) facts_free(lf);
    return ok;
}

/* Is loop l one the files show: its head has a source file and ran? */
static int shown(const tk_cfg_process *p, const loop_facts *lf, uint32_t l)
{
    uint32_t h = p->loops[l].head;
    return h < p->nblocks && lf->files[l] && p->blocks[h].count > 0;
}

/* The cells after the loop id or depth: "file:line,visits,iterations,static,dynamic"
 * (visits 0 as "*NA*" with na), text and CSV; JSON "file", "line", ... */
static void loop_cells(tk_dcfg_rep *r, const loop_facts *lf, uint32_t l, int na)
{
    FILE *f = r->f;
    const tk_cfg_process *p = r->p;
    tk_cfg_scope s = {TK_SCOPE_LOOP, l};
    uint64_t iterations = p->blocks[p->loops[l].head].count;
    uint64_t statics = tk_cfg_scope_static_instrs(p, s), dynamic = tk_cfg_scope_instr_count(p, s);
    if (r->o->format == TK_DCFG_REPORT_JSON) {
        fputs(", \"file\": ", f);
        tk_put_json_string(f, lf->files[l]);
        fprintf(f, ", \"line\": %" PRIu32 ", \"visits\": ", lf->lines[l]);
        if (na && !lf->visits[l])
            fputs("null", f);
        else
            fprintf(f, "%" PRIu64, lf->visits[l]);
        fprintf(f,
                ", \"iterations\": %" PRIu64 ", \"static_instrs\": %" PRIu64
                ", \"dynamic_instrs\": %" PRIu64 "}",
                iterations, statics, dynamic);
        return;
    }
    fputc(',', f);
    if (r->o->format == TK_DCFG_REPORT_CSV)
        tk_put_csv_field(f, lf->files[l]);
    else
        fputs(lf->files[l], f);
    fprintf(f, ":%" PRIu32 ",", lf->lines[l]);
    if (na && !lf->visits[l])
        fputs("*NA*", f);
    else
        fprintf(f, "%" PRIu64, lf->visits[l]);
    fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", iterations, statics, dynamic);
}

/* -all_source_loops_stats: every loop shown. */
static void source_loops(tk_dcfg_rep *r, const loop_facts *lf, uint32_t n)
{
    const tk_cfg_process *p = r->p;
    int json = r->o->format == TK_DCFG_REPORT_JSON, first = 1;
    if (json)
        fputs(", \"source_loops\": [", r->f);
    else
        fputs("loopid,filename:linenumber,#visits, #iterations,#static-instrs,"
              "#dynamic-instructions\n",
              r->f);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t l = lf->order[k];
        if (!shown(p, lf, l) || !tk_dcfg_rep_loop_selected(r, l)) continue;
        const tk_cfg_block *h = &p->blocks[p->loops[l].head];
        if (json)
            fprintf(r->f, "%s{\"loop\": %" PRIu32 ", \"image\": %" PRIu32, first ? "" : ", ", h->id,
                    p->images[tk_cfg_block_image(p, p->loops[l].head)].id);
        else
            fprintf(r->f, "%" PRIu32, h->id);
        first = 0;
        loop_cells(r, lf, l, 1);
    }
    if (json) fputc(']', r->f);
}

/* The loops around inner-most loop l that are shown, l first, each with its depth. */
static void nest_rows(tk_dcfg_rep *r, const loop_facts *lf, uint32_t l)
{
    const tk_cfg_process *p = r->p;
    int json = r->o->format == TK_DCFG_REPORT_JSON, first = 1;
    /* a parent chain is at most nloops long (a cycle is a reader's error) */
    for (uint32_t k = 0; l < p->nloops && k < p->nloops; l = p->loops[l].parent, k++) {
        if (!shown(p, lf, l)) continue;
        if (json)
            fprintf(r->f, "%s{\"depth\": %" PRIu32 ", \"loop\": %" PRIu32, first ? "" : ", ",
                    p->loops[l].depth, p->blocks[p->loops[l].head].id);
        else
            fprintf(r->f, "%" PRIu32, p->loops[l].depth);
        first = 0;
        loop_cells(r, lf, l, 0);
    }
}

/* -inner_source_loops_stats: each inner-most loop shown, then its nest, and an empty
 * line (JSON: the loop and its nest); the header before the first. */
static void inner_source_loops(tk_dcfg_rep *r, const loop_facts *lf, uint32_t n)
{
    const tk_cfg_process *p = r->p;
    int json = r->o->format == TK_DCFG_REPORT_JSON, first = 1;
    if (json) fputs(", \"inner_source_loops\": [", r->f);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t l = lf->order[k];
        if (!lf->inner[l] || !shown(p, lf, l) || !tk_dcfg_rep_loop_selected(r, l)) continue;
        if (json)
            fprintf(r->f, "%s{\"loop\": %" PRIu32 ", \"image\": %" PRIu32 ", \"nest\": [",
                    first ? "" : ", ", p->blocks[p->loops[l].head].id,
                    p->images[tk_cfg_block_image(p, p->loops[l].head)].id);
        else if (first)
            fputs("nesting-depth,filename:linenumber,#visits, #iterations,#static-instrs,"
                  "#dynamic-instructions\n",
                  r->f);
        first = 0;
        nest_rows(r, lf, l);
        fputs(json ? "]}" : "\n", r->f);
    }
    if (json) fputc(']', r->f);
}

int tk_dcfg_rep_intel_table(tk_dcfg_rep *r, tk_dcfg_intel_table t, int *first_table)
{
    if (!*first_table && r->o->format != TK_DCFG_REPORT_JSON) fputc('\n', r->f);
    *first_table = 0;
    if (t == TK_DCFG_INTEL_STATISTICS) {
        statistics(r);
        return 1;
    }
    loop_facts lf;
    uint32_t n;
    if (!facts_of(r, &lf, &n)) return 0;
    if (t == TK_DCFG_INTEL_SOURCE_LOOPS)
        source_loops(r, &lf, n);
    else
        inner_source_loops(r, &lf, n);
    facts_free(&lf);
    return 1;
}
