/* `report` for DCFG: process and image summaries (the numbers of Intel's
 * dcfg-reader), hot blocks, hot routines, and the loop table of Intel's
 * loop reports / LoopPoint's loop_info. Text, JSON or CSV. */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/writer.h"
#include "core/alloc.h"
#include "core/textout.h"
#include "analysis/dcfg_report.h"

typedef tk_dcfg_rep rep;

/* ---- helpers ------------------------------------------------------------- */

typedef struct ranked {
    uint64_t key;
    uint32_t index;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->key != y->key) return x->key > y->key ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* Filters: does the block pass --image/--routine/--loop? */
static int block_selected(const rep *r, uint32_t b)
{
    const tk_cfg_process *p = r->p;
    const tk_dcfg_report_options *o = r->o;
    const tk_cfg_block *bl = &p->blocks[b];
    if (o->has_image && p->images[tk_cfg_block_image(p, b)].id != o->image_id) return 0;
    if (o->has_routine &&
        (bl->routine == TK_CFG_NONE || cfg_routine_id(p, bl->routine) != o->routine_id))
        return 0;
    if (o->has_loop) {
        uint32_t l = tk_cfg_find_loop(p, tk_cfg_find_block(p, o->loop_id));
        if (l == TK_CFG_NONE || !tk_cfg_scope_contains(p, (tk_cfg_scope){TK_SCOPE_LOOP, l}, b))
            return 0;
    }
    return 1;
}

int tk_dcfg_rep_loop_selected(const rep *r, uint32_t l)
{
    const tk_cfg_process *p = r->p;
    uint32_t h = p->loops[l].head;
    if (h == TK_CFG_NONE) return 0;
    if (r->o->has_loop) {
        /* the loop and the loops nested in it */
        uint32_t want = tk_cfg_find_loop(p, tk_cfg_find_block(p, r->o->loop_id));
        if (!cfg_loop_encloses(p, want, l)) return 0;
    }
    if (r->o->has_image && p->images[tk_cfg_block_image(p, h)].id != r->o->image_id) return 0;
    if (r->o->has_routine && cfg_routine_id(p, p->loops[l].routine) != r->o->routine_id) return 0;
    return 1;
}

static int routine_selected(const rep *r, uint32_t ro)
{
    const tk_cfg_process *p = r->p;
    const tk_cfg_routine *rt = &p->routines[ro];
    if (rt->entry == TK_CFG_NONE) return 0;
    if (r->o->has_image && p->images[rt->image].id != r->o->image_id) return 0;
    if (r->o->has_routine && p->blocks[rt->entry].id != r->o->routine_id) return 0;
    if (r->o->has_loop) return 0;
    return 1;
}

static int want(const rep *r, const char *table)
{
    return !r->o->table || strcmp(r->o->table, table) == 0;
}

static const char *pct(uint64_t part, uint64_t total, char *buf, size_t n)
{
    snprintf(buf, n, "%.2f", total ? 100.0 * (double)part / (double)total : 0.0);
    return buf;
}

/* Text: a table without rows says so, and why, in one line instead of its header
 * ("hot routines: none (--loop ...)"). routines: the table of routines. */
static void none_line(const rep *r, const char *title, int routines)
{
    const tk_dcfg_report_options *o = r->o;
    fprintf(r->f, "\n%s: none", title);
    if (routines && o->has_loop)
        fputs(" (--loop shows a loop, the loops in it and its blocks; --routine ID shows a "
              "routine)",
              r->f);
    else if (o->has_image || o->has_routine || o->has_loop) {
        fputs(" selected by", r->f);
        if (o->has_image) fprintf(r->f, " --image %" PRIu32, o->image_id);
        if (o->has_routine) fprintf(r->f, " --routine %" PRIu32, o->routine_id);
        if (o->has_loop) fprintf(r->f, " --loop %" PRIu32, o->loop_id);
    } else
        fputs(" in the file", r->f);
    fputc('\n', r->f);
}

/* The plural ending of a count. */
static const char *plural(uint64_t n) { return n == 1 ? "" : "s"; }

/* Text: the line under a table cut at n of `total` rows (nothing when none is left out), as
 * the command line words it for every table. */
static void more_line(const rep *r, uint32_t n, uint32_t total, const char *what)
{
    if (r->o->format == TK_DCFG_REPORT_TEXT && n < total)
        fprintf(r->f, "(%" PRIu32 " more %s%s not shown: --all shows them)\n", total - n, what,
                plural(total - n));
}

/* A table of rows: its header in each format, its columns as data. */
typedef struct table_col {
    int width; /* of the text header's field; negative: left-aligned */
    const char *name;
} table_col;

typedef struct table_head {
    const char *none; /* text, no row: none_line's title */
    int routines; /* none_line's flag */
    const char *json; /* the JSON key of the rows' array */
    const char *csv; /* the CSV header line */
    const char *title; /* text: the title over the columns */
    const table_col *cols;
    size_t ncols;
} table_head;

/* The header of a table of n rows (text: none_line when there is none), after a blank line
 * in CSV unless it is the first table. */
static void table_begin(const rep *r, const table_head *h, uint32_t n, int first_table)
{
    FILE *f = r->f;
    if (n == 0 && r->o->format == TK_DCFG_REPORT_TEXT) {
        none_line(r, h->none, h->routines);
    } else if (r->o->format == TK_DCFG_REPORT_JSON) {
        fprintf(f, ", \"%s\": [", h->json);
    } else if (r->o->format == TK_DCFG_REPORT_CSV) {
        if (!first_table) fputc('\n', f);
        fprintf(f, "%s\n", h->csv);
    } else if (n) {
        fprintf(f, "\n%s\n", h->title);
        for (size_t i = 0; i < h->ncols; i++)
            fprintf(f, "  %*s", h->cols[i].width, h->cols[i].name);
        fputc('\n', f);
    }
}

/* After the n rows shown of `total`: the line of those left out, the end of the JSON array. */
static void table_end(const rep *r, uint32_t n, uint32_t total, const char *what, int *first_table)
{
    more_line(r, n, total, what);
    if (r->o->format == TK_DCFG_REPORT_JSON) fputs("]", r->f);
    *first_table = 0;
}

/* The source line and file of the block of each of the n rows shown (the block itself, or
 * with loop_heads the head of the loop), in one pass over the source table: *lines and *files
 * the caller's (tk_free); 0 when out of memory. */
static int row_sources(const rep *r, const ranked *rk, uint32_t n, int loop_heads, uint32_t **lines,
                       const char ***files)
{
    uint32_t *shown = tk_malloc(sizeof *shown * (n ? n : 1));
    *lines = tk_malloc(sizeof **lines * (n ? n : 1));
    *files = tk_malloc(sizeof **files * (n ? n : 1));
    int ok = shown && *lines && *files;
    for (uint32_t k = 0; ok && k < n; k++)
        shown[k] = loop_heads ? r->p->loops[rk[k].index].head : rk[k].index;
    if (ok) ok = tk_cfg_blocks_source(r->cfg, r->p, shown, n, *lines, *files, NULL) == TK_OK;
    tk_free(shown);
    if (!ok) {
        tk_free(*lines);
        tk_free(*files);
        *lines = NULL;
        *files = NULL;
    }
    return ok;
}

/* Is this table the one --table names? */
static int asked(const rep *r, const char *table)
{
    return r->o->table && strcmp(r->o->table, table) == 0;
}

/* ---- summary -------------------------------------------------------------- */

typedef struct image_stats {
    uint64_t blocks, routines, loops, inner_loops, statics, instrs, execs, calls, iterations;
} image_stats;

static void image_stats_of(const rep *r, uint32_t i, image_stats *s)
{
    const tk_cfg_process *p = r->p;
    const tk_cfg_image *im = &p->images[i];
    memset(s, 0, sizeof *s);
    s->blocks = im->nblocks;
    s->routines = im->nroutines;
    for (uint32_t k = 0; k < im->nblocks; k++) {
        const tk_cfg_block *b = &p->blocks[im->first_block + k];
        s->statics += b->num_instrs;
        s->instrs += b->count * b->num_instrs;
        s->execs += b->count;
    }
    for (uint32_t k = 0; k < im->nroutines; k++)
        s->calls += tk_cfg_stored_routine_entry_count(p, &p->routines[im->first_routine + k]);
    for (uint32_t k = 0; k < im->nroutines; k++) {
        const tk_cfg_routine *ro = &p->routines[im->first_routine + k];
        for (uint32_t l = ro->first_loop; l < ro->first_loop + ro->nloops; l++) {
            s->loops++;
            s->iterations += tk_cfg_loop_iteration_count(p, l);
        }
    }
    /* inner-most loops: loops that are no parent of a loop of their routine
     * (a mark per loop: a routine can have thousands) */
    uint8_t *is_parent = tk_calloc(p->nloops ? p->nloops : 1, 1);
    for (uint32_t k = 0; k < im->nroutines; k++) {
        const tk_cfg_routine *ro = &p->routines[im->first_routine + k];
        uint32_t lo = ro->first_loop, hi = ro->first_loop + ro->nloops;
        if (is_parent)
            for (uint32_t m = lo; m < hi; m++)
                if (p->loops[m].parent >= lo && p->loops[m].parent < hi)
                    is_parent[p->loops[m].parent] = 1;
        for (uint32_t l = lo; l < hi; l++) {
            int parent = is_parent ? is_parent[l] : 0;
            for (uint32_t m = lo; !is_parent && m < hi && !parent; m++) /* out of memory */
                parent = p->loops[m].parent == l;
            if (!parent) s->inner_loops++;
        }
    }
    tk_free(is_parent);
}

/* What the summary of a process shows: its totals over the images, each
 * image's figures (stats, NULL when out of memory: computed again), the
 * instructions per thread (per_thread, NULL: counted per thread). */
typedef struct process_summary {
    image_stats tot;
    image_stats *stats;
    uint64_t *per_thread;
    size_t nint; /* internal edges */
} process_summary;

static void process_summary_of(const rep *r, process_summary *ps)
{
    const tk_cfg_process *p = r->p;
    image_stats *tot = &ps->tot, s;
    memset(ps, 0, sizeof *ps);
    /* each image's figures once (kept for the image table when memory allows) */
    ps->stats = tk_malloc(sizeof *ps->stats * (p->nimages ? p->nimages : 1));
    for (uint32_t i = 0; i < p->nimages; i++) {
        image_stats_of(r, i, &s);
        if (ps->stats) ps->stats[i] = s;
        tot->blocks += s.blocks;
        tot->routines += s.routines;
        tot->loops += s.loops;
        tot->inner_loops += s.inner_loops;
        tot->statics += s.statics;
        tot->instrs += s.instrs;
        tot->execs += s.execs;
        tot->calls += s.calls;
        tot->iterations += s.iterations;
    }
    tk_cfg_scope_edges(r->cfg, p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}, TK_EDGES_INTERNAL, NULL,
                       &ps->nint, NULL, NULL);
    /* instructions per thread, all threads in one pass (one per thread when
     * out of memory) */
    ps->per_thread = tk_malloc(sizeof *ps->per_thread * (p->nthreads ? p->nthreads : 1));
    if (ps->per_thread)
        tk_cfg_scope_instr_count_threads(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}, ps->per_thread,
                                         p->nthreads);
}

static void image_stats_at(const rep *r, const process_summary *ps, uint32_t i, image_stats *s)
{
    if (ps->stats)
        *s = ps->stats[i];
    else
        image_stats_of(r, i, s);
}

static uint64_t thread_instrs(const rep *r, const process_summary *ps, uint32_t t)
{
    return ps->per_thread
               ? ps->per_thread[t]
               : tk_cfg_scope_instr_count_thread(r->p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}, t);
}

/* --image: the image table lists that image only */
static int other_image(const rep *r, const tk_cfg_image *im)
{
    return r->o->has_image && im->id != r->o->image_id;
}

static void summary_json(rep *r, const process_summary *ps, int first_process)
{
    const tk_cfg_process *p = r->p;
    const image_stats *tot = &ps->tot;
    FILE *f = r->f;
    image_stats s;
    fprintf(f,
            "%s{\"pid\": %" PRIu64 ", \"threads\": %" PRIu32 ", \"images\": %" PRIu32
            ", \"blocks\": %" PRIu64 ", \"edges\": %" PRIu32 ", \"internal_edges\": %zu"
            ", \"routines\": %" PRIu64 ", \"routines_computed\": %s, \"loops\": %" PRIu64
            ", \"instr_count\": %" PRIu64,
            first_process ? "" : ", ", p->pid, p->nthreads, p->nimages, tot->blocks, p->nedges,
            ps->nint, tot->routines, p->routines_computed ? "true" : "false", tot->loops,
            tot->instrs);
    if (p->has_file_instr_count)
        fprintf(f, ", \"file_instr_count\": %" PRIu64, p->file_instr_count);
    fputs(", \"instr_count_per_thread\": [", f);
    for (uint32_t t = 0; t < p->nthreads; t++)
        fprintf(f, "%s%" PRIu64, t ? ", " : "", thread_instrs(r, ps, t));
    fprintf(f,
            "], \"routine_calls\": %" PRIu64 ", \"loop_iterations\": %" PRIu64
            ", \"block_executions\": %" PRIu64 ", \"static_instrs\": %" PRIu64,
            tot->calls, tot->iterations, tot->execs, tot->statics);
    fputs(", \"image_table\": [", f);
    int first_image = 1;
    for (uint32_t i = 0; i < p->nimages; i++) {
        const tk_cfg_image *im = &p->images[i];
        if (other_image(r, im)) continue;
        image_stats_at(r, ps, i, &s);
        fprintf(f,
                "%s{\"id\": %" PRIu32 ", \"load_addr\": \"0x%" PRIx64 "\", \"size\": %" PRIu64
                ", \"file\": ",
                first_image ? "" : ", ", im->id, im->load_addr, im->size);
        first_image = 0;
        tk_put_json_string(f, tk_cfg_file_name(r->cfg, im->file_name_id));
        fprintf(f,
                ", \"blocks\": %" PRIu64 ", \"routines\": %" PRIu64 ", \"loops\": %" PRIu64
                ", \"inner_loops\": %" PRIu64 ", \"static_instrs\": %" PRIu64
                ", \"instr_count\": %" PRIu64 "}",
                s.blocks, s.routines, s.loops, s.inner_loops, s.statics, s.instrs);
    }
    fputs("]", f);
}

static void summary_csv(rep *r, const process_summary *ps)
{
    const tk_cfg_process *p = r->p;
    FILE *f = r->f;
    image_stats s;
    fputs("image,load_addr,size,file,blocks,routines,loops,inner_loops,static_instrs,"
          "instr_count\n",
          f);
    for (uint32_t i = 0; i < p->nimages; i++) {
        const tk_cfg_image *im = &p->images[i];
        if (other_image(r, im)) continue;
        image_stats_at(r, ps, i, &s);
        fprintf(f, "%" PRIu32 ",0x%" PRIx64 ",%" PRIu64 ",", im->id, im->load_addr, im->size);
        tk_put_csv_field(f, tk_cfg_file_name(r->cfg, im->file_name_id));
        fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
                s.blocks, s.routines, s.loops, s.inner_loops, s.statics, s.instrs);
    }
}

static void summary_text(rep *r, const process_summary *ps)
{
    const tk_cfg_process *p = r->p;
    const image_stats *tot = &ps->tot;
    FILE *f = r->f;
    image_stats s;
    fprintf(f,
            "process %" PRIu64 ": %" PRIu32 " thread%s, %" PRIu32 " image%s, %" PRIu64
            " block%s, %" PRIu32 " edge%s (%zu internal), %" PRIu64 " routine%s%s, %" PRIu64
            " loop%s\n",
            p->pid, p->nthreads, plural(p->nthreads), p->nimages, plural(p->nimages), tot->blocks,
            plural(tot->blocks), p->nedges, plural(p->nedges), ps->nint, tot->routines,
            plural(tot->routines), p->routines_computed ? " (computed)" : "", tot->loops,
            plural(tot->loops));
    fprintf(f, "  instructions      %" PRIu64, tot->instrs);
    if (p->has_file_instr_count && p->file_instr_count != tot->instrs) /* it differs: say so */
        fprintf(f, " (INSTR_COUNT in the file: %" PRIu64 ")", p->file_instr_count);
    fputc('\n', f);
    for (uint32_t t = 0; t < p->nthreads; t++)
        fprintf(f, "    thread %-4" PRIu32 "    %" PRIu64 "\n", t, thread_instrs(r, ps, t));
    fprintf(f,
            "  routine calls     %" PRIu64 "\n  loop iterations   %" PRIu64
            "\n  block executions  %" PRIu64 "\n  static instrs     %" PRIu64 "\n",
            tot->calls, tot->iterations, tot->execs, tot->statics);
    fputs("\nimages\n  image  load-addr           size      blocks  routines  loops  inner  "
          "static-instrs  instructions  file\n",
          f);
    for (uint32_t i = 0; i < p->nimages; i++) {
        const tk_cfg_image *im = &p->images[i];
        if (other_image(r, im)) continue;
        image_stats_at(r, ps, i, &s);
        const char *fn = tk_cfg_file_name(r->cfg, im->file_name_id);
        fprintf(f,
                "  %5" PRIu32 "  0x%-16" PRIx64 "  %-8" PRIu64 "  %6" PRIu64 "  %8" PRIu64
                "  %5" PRIu64 "  %5" PRIu64 "  %13" PRIu64 "  %12" PRIu64 "  %s\n",
                im->id, im->load_addr, im->size, s.blocks, s.routines, s.loops, s.inner_loops,
                s.statics, s.instrs, fn ? fn : "-");
    }
}

static void summary(rep *r, int first_process)
{
    process_summary ps;
    process_summary_of(r, &ps);
    if (r->o->format == TK_DCFG_REPORT_JSON)
        summary_json(r, &ps, first_process);
    else if (r->o->format == TK_DCFG_REPORT_CSV)
        summary_csv(r, &ps);
    else
        summary_text(r, &ps);
    tk_free(ps.per_thread);
    tk_free(ps.stats);
}

/* ---- hot blocks --------------------------------------------------------------- */

/* The selected blocks by instructions executed, best first; with --top N
 * only the N best are kept (a bounded min-heap): no array as large as the
 * block table. *total: the instructions of all blocks. NULL when out of memory. */
static ranked *top_blocks(const rep *r, uint32_t *count, uint32_t *selected, uint64_t *total)
{
    const tk_cfg_process *p = r->p;
    uint32_t cap = r->o->top && r->o->top < p->nblocks ? r->o->top : p->nblocks;
    ranked *rk = tk_malloc(sizeof *rk * (cap ? cap : 1));
    if (!rk) return NULL;
    uint32_t n = 0;
    *total = 0;
    for (uint32_t b = 0; b < p->nblocks; b++) {
        *total += p->blocks[b].count * p->blocks[b].num_instrs;
        if (!block_selected(r, b)) continue;
        ++*selected;
        ranked x = {p->blocks[b].count * p->blocks[b].num_instrs, b};
        if (n < cap) {
            /* sift up: heap root = worst kept (cmp_ranked sorts best first) */
            uint32_t i = n++;
            while (i && cmp_ranked(&rk[(i - 1) / 2], &x) < 0) {
                rk[i] = rk[(i - 1) / 2];
                i = (i - 1) / 2;
            }
            rk[i] = x;
        } else if (cap && cmp_ranked(&x, &rk[0]) < 0) {
            /* better than the worst kept: replace the root, sift down */
            uint32_t i = 0;
            for (;;) {
                uint32_t l = 2 * i + 1, w = i;
                const ranked *worst = &x;
                if (l < n && cmp_ranked(&rk[l], worst) > 0) {
                    w = l;
                    worst = &rk[l];
                }
                if (l + 1 < n && cmp_ranked(&rk[l + 1], worst) > 0) w = l + 1;
                if (w == i) break;
                rk[i] = rk[w];
                i = w;
            }
            rk[i] = x;
        }
    }
    qsort(rk, n, sizeof *rk, cmp_ranked);
    *count = n;
    return rk;
}

/* Row k of the table: block rk->index with its source line and file. */
static void hot_block_row(rep *r, uint32_t k, const ranked *rk, uint32_t line, const char *file,
                          uint64_t total)
{
    const tk_cfg_process *p = r->p;
    FILE *f = r->f;
    char pbuf[32];
    uint32_t b = rk->index;
    const tk_cfg_block *bl = &p->blocks[b];
    uint64_t off = 0;
    const char *sym = tk_cfg_block_symbol(r->cfg, r->p, b, &off);
    uint64_t addr = tk_cfg_stored_block_addr(p, bl);
    uint32_t image = p->images[tk_cfg_block_image(p, b)].id;
    if (r->o->format == TK_DCFG_REPORT_JSON) {
        fprintf(f,
                "%s{\"block\": %" PRIu32 ", \"image\": %" PRIu32 ", \"address\": \"0x%" PRIx64
                "\", \"symbol\": ",
                k ? ", " : "", bl->id, image, addr);
        if (sym)
            tk_put_json_string(f, sym);
        else
            fputs("null", f);
        fprintf(f, ", \"offset\": %" PRIu64 ", \"file\": ", off);
        if (file)
            tk_put_json_string(f, file);
        else
            fputs("null", f);
        fprintf(f,
                ", \"line\": %" PRIu32 ", \"count\": %" PRIu64 ", \"instrs\": %" PRIu32
                ", \"instructions\": %" PRIu64 ", \"percent\": %s}",
                line, bl->count, bl->num_instrs, rk->key, pct(rk->key, total, pbuf, sizeof pbuf));
    } else if (r->o->format == TK_DCFG_REPORT_CSV) {
        fprintf(f, "%" PRIu32 ",%" PRIu32 ",0x%" PRIx64 ",", bl->id, image, addr);
        tk_put_csv_field(f, sym);
        fprintf(f, ",%" PRIu64 ",", off);
        tk_put_csv_field(f, file);
        fprintf(f, ",%" PRIu32 ",%" PRIu64 ",%" PRIu32 ",%" PRIu64 ",%s\n", line, bl->count,
                bl->num_instrs, rk->key, pct(rk->key, total, pbuf, sizeof pbuf));
    } else {
        char symbuf[64], srcbuf[64];
        if (sym)
            snprintf(symbuf, sizeof symbuf, "%s+0x%" PRIx64, sym, off);
        else
            snprintf(symbuf, sizeof symbuf, "-");
        if (line) {
            const char *base = file ? strrchr(file, '/') : NULL;
            snprintf(srcbuf, sizeof srcbuf, "%s:%" PRIu32,
                     base   ? base + 1
                     : file ? file
                            : "?",
                     line);
        } else
            snprintf(srcbuf, sizeof srcbuf, "-");
        fprintf(f,
                "  %5" PRIu32 "  %8" PRIu32 "  %5" PRIu32 "  0x%-16" PRIx64
                "  %-30s  %-30s  %10" PRIu64 "  %6" PRIu32 "  %12" PRIu64 "  %6s\n",
                k + 1, bl->id, image, addr, symbuf, srcbuf, bl->count, bl->num_instrs, rk->key,
                pct(rk->key, total, pbuf, sizeof pbuf));
    }
}

static const table_col hot_blocks_cols[] = {
    {5, "rank"},     {8, "block"},  {5, "image"},  {-18, "address"},     {-30, "symbol+offset"},
    {-30, "source"}, {10, "count"}, {6, "instrs"}, {12, "instructions"}, {6, "%"},
};
static const table_head hot_blocks_head = {
    "hot blocks",
    0,
    "hot_blocks",
    "block,image,address,symbol,offset,file,line,count,instrs,instructions,percent",
    "hot blocks (by instructions executed)",
    hot_blocks_cols,
    sizeof hot_blocks_cols / sizeof hot_blocks_cols[0],
};

static int hot_blocks(rep *r, int *first_table)
{
    uint32_t n = 0, selected = 0;
    uint64_t total = 0;
    ranked *rk = top_blocks(r, &n, &selected, &total);
    if (!rk) return 0;
    uint32_t *lines;
    const char **files;
    if (!row_sources(r, rk, n, 0, &lines, &files)) {
        tk_free(rk);
        return 0;
    }
    table_begin(r, &hot_blocks_head, n, *first_table);
    for (uint32_t k = 0; k < n; k++) hot_block_row(r, k, &rk[k], lines[k], files[k], total);
    table_end(r, n, selected, "block", first_table);
    tk_free(lines);
    tk_free(files);
    tk_free(rk);
    return 1;
}

/* ---- hot routines ------------------------------------------------------------- */

static const table_col hot_routines_cols[] = {
    {5, "rank"},   {8, "routine"}, {-32, "name"}, {5, "image"},         {-18, "address"},
    {6, "blocks"}, {5, "loops"},   {10, "calls"}, {12, "instructions"}, {6, "%"},
};
static const table_head hot_routines_head = {
    "hot routines",
    1,
    "hot_routines",
    "routine,name,image,address,blocks,loops,calls,static_instrs,instructions,percent",
    "hot routines (instructions in the routine's own blocks)",
    hot_routines_cols,
    sizeof hot_routines_cols / sizeof hot_routines_cols[0],
};

static int hot_routines(rep *r, int *first_table)
{
    const tk_cfg_process *p = r->p;
    FILE *f = r->f;
    ranked *rk = tk_malloc(sizeof *rk * (p->nroutines ? p->nroutines : 1));
    if (!rk) return 0;
    uint32_t n = 0;
    uint64_t total = tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0});
    /* instructions of every routine in one pass over the blocks (a routine's
     * nodes are the blocks whose routine it is); one scope each when short of memory */
    uint64_t *sums = tk_calloc(p->nroutines ? p->nroutines : 1, sizeof *sums);
    if (sums)
        for (uint32_t b = 0; b < p->nblocks; b++)
            if (p->blocks[b].routine < p->nroutines)
                sums[p->blocks[b].routine] += p->blocks[b].count * p->blocks[b].num_instrs;
    for (uint32_t ro = 0; ro < p->nroutines; ro++) {
        if (!routine_selected(r, ro)) continue;
        rk[n].key =
            sums ? sums[ro] : tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_ROUTINE, ro});
        rk[n++].index = ro;
    }
    tk_free(sums);
    qsort(rk, n, sizeof *rk, cmp_ranked);
    uint32_t uncut = n;
    if (r->o->top && n > r->o->top) n = r->o->top;
    char pbuf[32];
    /* --loop selects no routine: CSV leaves the table out unless --table asks for it */
    if (r->o->format == TK_DCFG_REPORT_CSV && r->o->has_loop && !asked(r, "routines")) {
        tk_free(rk);
        return 1;
    }
    table_begin(r, &hot_routines_head, n, *first_table);
    for (uint32_t k = 0; k < n; k++) {
        const tk_cfg_routine *ro = &p->routines[rk[k].index];
        const tk_cfg_block *e = &p->blocks[ro->entry];
        uint64_t off = 0;
        const char *sym = tk_cfg_block_symbol(r->cfg, r->p, ro->entry, &off);
        char namebuf[80];
        if (sym && off)
            snprintf(namebuf, sizeof namebuf, "%s+0x%" PRIx64, sym, off);
        else
            snprintf(namebuf, sizeof namebuf, "%s", sym ? sym : "-");
        uint64_t calls = tk_cfg_stored_routine_entry_count(p, ro);
        uint64_t statics =
            tk_cfg_scope_static_instrs(p, (tk_cfg_scope){TK_SCOPE_ROUTINE, rk[k].index});
        uint64_t addr = tk_cfg_stored_block_addr(p, e);
        if (r->o->format == TK_DCFG_REPORT_JSON) {
            fprintf(f, "%s{\"routine\": %" PRIu32 ", \"name\": ", k ? ", " : "", e->id);
            tk_put_json_string(f, namebuf);
            fprintf(f,
                    ", \"image\": %" PRIu32 ", \"address\": \"0x%" PRIx64 "\", \"blocks\": %" PRIu32
                    ", \"loops\": %" PRIu32 ", \"calls\": %" PRIu64 ", \"static_instrs\": %" PRIu64
                    ", \"instructions\": %" PRIu64 ", \"percent\": %s}",
                    p->images[ro->image].id, addr, ro->nnodes, ro->nloops, calls, statics,
                    rk[k].key, pct(rk[k].key, total, pbuf, sizeof pbuf));
        } else if (r->o->format == TK_DCFG_REPORT_CSV) {
            fprintf(f, "%" PRIu32 ",", e->id);
            tk_put_csv_field(f, namebuf);
            fprintf(f,
                    ",%" PRIu32 ",0x%" PRIx64 ",%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%" PRIu64
                    ",%" PRIu64 ",%s\n",
                    p->images[ro->image].id, addr, ro->nnodes, ro->nloops, calls, statics,
                    rk[k].key, pct(rk[k].key, total, pbuf, sizeof pbuf));
        } else {
            fprintf(f,
                    "  %5" PRIu32 "  %8" PRIu32 "  %-32s  %5" PRIu32 "  0x%-16" PRIx64 "  %6" PRIu32
                    "  %5" PRIu32 "  %10" PRIu64 "  %12" PRIu64 "  %6s\n",
                    k + 1, e->id, namebuf, p->images[ro->image].id, addr, ro->nnodes, ro->nloops,
                    calls, rk[k].key, pct(rk[k].key, total, pbuf, sizeof pbuf));
        }
    }
    table_end(r, n, uncut, "routine", first_table);
    tk_free(rk);
    return 1;
}

/* ---- loops ------------------------------------------------------------------- */

/* One row of the loops table: the k-th loop shown, loop l. */
static void loop_row(const rep *r, uint32_t k, uint32_t l, const char *file, uint32_t line,
                     uint64_t visits)
{
    const tk_cfg_process *p = r->p;
    FILE *f = r->f;
    const tk_cfg_loop *lo = &p->loops[l];
    const tk_cfg_block *h = &p->blocks[lo->head];
    uint32_t parent = cfg_loop_id(p, lo->parent);
    uint32_t routine = cfg_routine_id(p, lo->routine);
    uint64_t iters = tk_cfg_loop_iteration_count(p, l);
    tk_cfg_scope s = {TK_SCOPE_LOOP, l};
    uint64_t statics = tk_cfg_scope_static_instrs(p, s), dyn = tk_cfg_scope_instr_count(p, s);
    uint64_t addr = tk_cfg_stored_block_addr(p, h);
    if (r->o->format == TK_DCFG_REPORT_JSON) {
        fprintf(f,
                "%s{\"loop\": %" PRIu32 ", \"image\": %" PRIu32 ", \"address\": \"0x%" PRIx64
                "\", \"file\": ",
                k ? ", " : "", h->id, p->images[tk_cfg_block_image(p, lo->head)].id, addr);
        if (file)
            tk_put_json_string(f, file);
        else
            fputs("null", f);
        fprintf(f,
                ", \"line\": %" PRIu32 ", \"depth\": %" PRIu32 ", \"parent\": %" PRIu32
                ", \"routine\": %" PRIu32 ", \"visits\": %" PRIu64 ", \"iterations\": %" PRIu64
                ", \"static_instrs\": %" PRIu64 ", \"dynamic_instrs\": %" PRIu64 "}",
                line, lo->depth, parent, routine, visits, iters, statics, dyn);
    } else if (r->o->format == TK_DCFG_REPORT_CSV) {
        fprintf(f, "%" PRIu32 ",%" PRIu32 ",0x%" PRIx64 ",", h->id,
                p->images[tk_cfg_block_image(p, lo->head)].id, addr);
        tk_put_csv_field(f, file);
        fprintf(f,
                ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                ",%" PRIu64 "\n",
                line, lo->depth, parent, routine, visits, iters, statics, dyn);
    } else {
        char srcbuf[64], parbuf[16];
        if (line) {
            const char *base = file ? strrchr(file, '/') : NULL;
            snprintf(srcbuf, sizeof srcbuf, "%s:%" PRIu32,
                     base   ? base + 1
                     : file ? file
                            : "?",
                     line);
        } else
            snprintf(srcbuf, sizeof srcbuf, "-");
        if (parent)
            snprintf(parbuf, sizeof parbuf, "%" PRIu32, parent);
        else
            snprintf(parbuf, sizeof parbuf, "-");
        fprintf(f,
                "  %8" PRIu32 "  %5" PRIu32 "  0x%-16" PRIx64 "  %-30s  %5" PRIu32
                "  %8s  %8" PRIu32 "  %10" PRIu64 "  %10" PRIu64 "  %7" PRIu64 "  %12" PRIu64 "\n",
                h->id, p->images[tk_cfg_block_image(p, lo->head)].id, addr, srcbuf, lo->depth,
                parbuf, routine, visits, iters, statics, dyn);
    }
}

static const table_col loops_cols[] = {
    {8, "loop"},        {5, "image"},  {-18, "head-address"}, {-30, "source"},
    {5, "depth"},       {8, "parent"}, {8, "routine"},        {10, "visits"},
    {10, "iterations"}, {7, "static"}, {12, "dynamic"},
};
static const table_head loops_head = {
    "loops",
    0,
    "loop_table",
    "loop,image,address,file,line,depth,parent,routine,visits,iterations,static_instrs,"
    "dynamic_instrs",
    "loops (by dynamic instructions)",
    loops_cols,
    sizeof loops_cols / sizeof loops_cols[0],
};

static int loops_table(rep *r, int *first_table)
{
    const tk_cfg_process *p = r->p;
    /* hottest first (dynamic instructions), like the other tables; --top applies */
    ranked *rk = tk_malloc(sizeof *rk * (p->nloops ? p->nloops : 1));
    if (!rk) return 0;
    uint32_t n = 0;
    for (uint32_t l = 0; l < p->nloops; l++) {
        if (!tk_dcfg_rep_loop_selected(r, l)) continue;
        rk[n].key = tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_LOOP, l});
        rk[n++].index = l;
    }
    qsort(rk, n, sizeof *rk, cmp_ranked);
    uint32_t uncut = n;
    if (r->o->top && n > r->o->top) n = r->o->top;
    /* visits of the loops shown in one pass over the edges, the source lines
     * of their heads in one pass over the source table */
    uint32_t *shown = tk_malloc(sizeof *shown * (n ? n : 1)), *lines;
    uint64_t *visits = tk_malloc(sizeof *visits * (n ? n : 1));
    const char **files;
    int ok = shown && visits;
    for (uint32_t k = 0; ok && k < n; k++) shown[k] = rk[k].index;
    if (ok) ok = tk_cfg_loop_entry_counts(r->cfg, p, shown, n, visits);
    tk_free(shown);
    if (!ok || !row_sources(r, rk, n, 1, &lines, &files)) {
        tk_free(visits);
        tk_free(rk);
        return 0;
    }
    table_begin(r, &loops_head, n, *first_table);
    for (uint32_t k = 0; k < n; k++) loop_row(r, k, rk[k].index, files[k], lines[k], visits[k]);
    table_end(r, n, uncut, "loop", first_table);
    tk_free(lines);
    tk_free(visits);
    tk_free(files);
    tk_free(rk);
    return 1;
}

/* --table names of the tables of Intel's dcfg-reader */
static const struct {
    const char *name;
    tk_dcfg_intel_table table;
} intel_tables[] = {
    {"statistics", TK_DCFG_INTEL_STATISTICS},
    {"source-loops", TK_DCFG_INTEL_SOURCE_LOOPS},
    {"inner-source-loops", TK_DCFG_INTEL_INNER_SOURCE_LOOPS},
};

static tk_status dcfg_report_stream(const tk_cfg *cfg, const tk_dcfg_report_options *opt, FILE *f,
                                    tk_error *err)
{
    /* inside: top 0 is every row */
    tk_dcfg_report_options oo = TK_DCFG_REPORT_OPTIONS_INIT;
    if (opt) oo = *opt;
    oo.top = oo.all_rows ? 0 : oo.top ? oo.top : 20;
    const tk_dcfg_report_options *o = &oo;
    if (o->format == TK_DCFG_REPORT_JSON)
        fprintf(f,
                "{\"version\": 1, \"format\": \"dcfg\", \"dcfg_version\": \"%" PRIu32 ".%02" PRIu32
                "\", \"processes\": [",
                cfg->major_version, cfg->minor_version);
    for (uint32_t i = 0; i < cfg->nprocesses; i++) {
        rep r = {cfg, &cfg->processes[i], o, f};
        int first_table = 1, ok = 1;
        if (i && o->format == TK_DCFG_REPORT_TEXT) fputc('\n', f);
        if (o->format == TK_DCFG_REPORT_CSV && i) fputc('\n', f);
        if (o->format == TK_DCFG_REPORT_JSON || want(&r, "summary")) {
            if (o->format != TK_DCFG_REPORT_CSV || want(&r, "summary")) {
                summary(&r, i == 0);
                first_table = 0;
            }
        }
        if (ok && want(&r, "blocks")) ok = hot_blocks(&r, &first_table);
        if (ok && want(&r, "routines")) ok = hot_routines(&r, &first_table);
        if (ok && want(&r, "loops")) ok = loops_table(&r, &first_table);
        /* the tables of Intel's dcfg-reader: when --table names one */
        for (size_t k = 0; ok && k < sizeof intel_tables / sizeof *intel_tables; k++)
            if (asked(&r, intel_tables[k].name))
                ok = tk_dcfg_rep_intel_table(&r, intel_tables[k].table, &first_table);
        if (o->format == TK_DCFG_REPORT_JSON) fputs("}", f);
        if (!ok) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    if (o->format == TK_DCFG_REPORT_JSON) fputs("]}\n", f);
    if (ferror(f)) return tk_error_set(err, TK_ERR_IO, "write error");
    return TK_OK;
}

tk_status tk_dcfg_report(const tk_cfg *cfg, const tk_dcfg_report_options *o, const tk_writer *f,
                         tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, f, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, dcfg_report_stream(cfg, o, s.f, err), err);
}
