/* Command handlers for dcfg files. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dcfg.h"

static int read_dcfg(cli_ctx *ctx, int i, tk_diag *diag, tk_cfg **out)
{
    tk_error err;
    tk_error_clear(&err);
    tk_dcfg_read_options o = TK_DCFG_READ_OPTIONS_INIT;
    o.diag = diag;
    /* regular files: by path (mapped, the pages released behind the reader,
     * so the file does not stay resident) and re-read to locate late errors;
     * the input the format was detected on is closed first (its buffers are
     * over a megabyte, resident while the graph is built) */
    struct stat sb; /* not a pipe (`report <(bzcat ...)`): it cannot be opened again */
    int by_path = strcmp(ctx->paths[i], "-") != 0 && stat(ctx->paths[i], &sb) == 0 &&
                  S_ISREG(sb.st_mode);
    if (by_path) {
        tk_input_free(ctx->inputs[i]);
        ctx->inputs[i] = NULL;
    }
    tk_status st = by_path ? (o.input = &ctx->input_opt, tk_dcfg_read_path(out, ctx->paths[i], &o, &err))
                           : tk_dcfg_read(out, ctx->inputs[i], &o, &err);
    if (st != TK_OK) {
        if (diag) {
            tk_diag_error(diag, &err);
            return CLI_EXIT_BAD_INPUT;
        }
        return cli_error(&err);
    }
    return CLI_EXIT_OK;
}

/* ---- info ------------------------------------------------------------------- */

static int run_info(cli_ctx *ctx, const cli_args *a)
{
    (void)a;
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < ctx->ninputs && rc == CLI_EXIT_OK; i++) {
        tk_cfg *cfg;
        if ((rc = read_dcfg(ctx, i, NULL, &cfg)) != CLI_EXIT_OK) break;
        printf("dcfg version: %" PRIu32 ".%02" PRIu32 "\n", cfg->major_version, cfg->minor_version);
        printf("file names: %" PRIu32 "\nedge types: %" PRIu32 "\nspecial nodes: %" PRIu32 "\nprocesses: %" PRIu32 "\n",
               cfg->nfile_names, cfg->nedge_types, cfg->nspecials, cfg->nprocesses);
        for (uint32_t k = 0; k < cfg->nprocesses; k++) {
            const tk_cfg_process *p = &cfg->processes[k];
            printf("process %" PRIu64 ": threads %" PRIu32 ", images %" PRIu32 ", blocks %" PRIu32 ", edges %" PRIu32
                   ", routines %" PRIu32 "%s, loops %" PRIu32 ", symbols %" PRIu32 ", source lines %" PRIu32
                   ", instructions %" PRIu64 "\n",
                   p->pid, p->nthreads, p->nimages, p->nblocks, p->nedges, p->nroutines,
                   p->routines_computed ? " (computed)" : "", p->nloops, p->nsymbols, p->nsources,
                   tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}));
        }
        tk_cfg_free(cfg);
    }
    return rc;
}

/* ---- check ------------------------------------------------------------------ */

static const cli_opt check_opts[] = {
    {"max-errors", 0, "N", "stop printing after N errors (0 = all)"},
    {NULL, 0, NULL, NULL},
};

static int run_check(cli_ctx *ctx, const cli_args *a)
{
    uint64_t max_errors;
    if (cli_get_u64(ctx->command, a, "max-errors", 0, &max_errors)) return CLI_EXIT_USAGE;
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_diag d;
        cli_diag_init(&d);
        d.max_errors = max_errors;
        tk_cfg *cfg = NULL;
        if (read_dcfg(ctx, i, &d, &cfg) == CLI_EXIT_OK) {
            tk_status st = tk_dcfg_check(cfg, ctx->paths[i], &d);
            if (st == TK_ERR_NOMEM) {
                tk_error err;
                tk_error_set(&err, st, "out of memory");
                tk_diag_error(&d, &err);
            }
            tk_cfg_free(cfg);
        }
        if (cli_diag_summary(&d, ctx->paths[i])) rc = CLI_EXIT_BAD_INPUT;
    }
    return rc;
}

/* ---- dump ------------------------------------------------------------------- */

static int run_dump(cli_ctx *ctx, const cli_args *a)
{
    (void)a;
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_cfg *cfg;
        int rc = read_dcfg(ctx, i, NULL, &cfg);
        if (rc != CLI_EXIT_OK) return rc;
        tk_error err;
        tk_error_clear(&err);
        tk_status st = tk_dcfg_dump(cfg, stdout, &err);
        tk_cfg_free(cfg);
        if (st != TK_OK) return cli_error(&err);
    }
    return CLI_EXIT_OK;
}

/* ---- report ----------------------------------------------------------------- */

static const cli_opt report_opts[] = {
    {"format", 0, "FMT", "text, json or csv (default text)"},
    {"top", 0, "N", "rows of the block, routine and loop tables (default 20, 0 = all)"},
    {"table", 0, "NAME", "only one table: summary, blocks, routines or loops"},
    {"image", 0, "ID", "only this image's blocks, routines and loops"},
    {"routine", 0, "ID", "only the routine with this entry node id, and its loops"},
    {"loop", 0, "ID", "only the loop with this head node id, its nested loops and its blocks"},
    {NULL, 0, NULL, NULL},
};

static int get_id(const cli_ctx *ctx, const cli_args *a, const char *name, int *has, uint32_t *out)
{
    uint64_t v;
    *has = cli_has(a, name);
    if (!*has) return 0;
    if (cli_get_u64(ctx->command, a, name, 0, &v)) return -1;
    if (v > UINT32_MAX) {
        cli_usage_error(ctx->command, "--%s: %" PRIu64 " is not a 32-bit id", name, v);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* --format: the library's report formats */
static const cli_choice report_formats[] = {
    {"text", TK_DCFG_REPORT_TEXT}, {"json", TK_DCFG_REPORT_JSON}, {"csv", TK_DCFG_REPORT_CSV},
    {NULL, 0}};
/* --table: checked here, passed to the library by name */
static const cli_choice report_tables[] = {
    {"summary", 0}, {"blocks", 0}, {"routines", 0}, {"loops", 0}, {NULL, 0}};

static int run_report(cli_ctx *ctx, const cli_args *a)
{
    tk_dcfg_report_options o = TK_DCFG_REPORT_OPTIONS_INIT;
    int fmt = cli_get_choice(ctx->command, a, "format", report_formats, TK_DCFG_REPORT_TEXT);
    if (fmt < 0) return CLI_EXIT_USAGE;
    o.format = (tk_dcfg_report_format)fmt;
    uint64_t top;
    if (cli_get_u64(ctx->command, a, "top", 20, &top)) return CLI_EXIT_USAGE;
    o.top = top > UINT32_MAX ? UINT32_MAX : (uint32_t)top;
    o.table = cli_get(a, "table");
    if (o.table && cli_get_choice(ctx->command, a, "table", report_tables, 0) < 0)
        return CLI_EXIT_USAGE;
    if (get_id(ctx, a, "image", &o.has_image, &o.image_id) || get_id(ctx, a, "routine", &o.has_routine, &o.routine_id) ||
        get_id(ctx, a, "loop", &o.has_loop, &o.loop_id))
        return CLI_EXIT_USAGE;
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_cfg *cfg;
        int rc = read_dcfg(ctx, i, NULL, &cfg);
        if (rc != CLI_EXIT_OK) return rc;
        tk_error err;
        tk_error_clear(&err);
        tk_status st = tk_dcfg_report(cfg, &o, stdout, &err);
        tk_cfg_free(cfg);
        if (st != TK_OK) return cli_error(&err);
    }
    return CLI_EXIT_OK;
}

/* ---- convert ---------------------------------------------------------------- */

static const cli_opt convert_opts[] = {
    {"to", 't', "FMT", "dcfg (canonical DCFG JSON, also: json), dot (Graphviz), callgrind, or csi "
                       "(Ball-Larus path-tracing metadata of every routine)"},
    {"output", 'o', "OUT", "output file (default: standard output)"},
    {"force", 'f', NULL, "overwrite OUT if it exists"},
    {"routine", 0, "ID", "dot: draw the routine containing this node (repeatable)"},
    {"loop", 0, "ID", "dot: draw the loop with this head node (repeatable)"},
    {"image", 0, "ID", "dot: draw this image (repeatable)"},
    {NULL, 0, NULL, NULL},
};

#define MAX_SELECT 256

static int get_ids(const cli_ctx *ctx, const cli_args *a, const char *name, uint32_t *ids, size_t *n)
{
    const char *vals[MAX_SELECT];
    int k = cli_get_all(a, name, vals, MAX_SELECT);
    *n = 0;
    for (int i = 0; i < k; i++) {
        char *end;
        unsigned long long v = strtoull(vals[i], &end, 0);
        if (!*vals[i] || *end || v > UINT32_MAX) {
            cli_usage_error(ctx->command, "--%s: '%s' is not an id", name, vals[i]);
            return -1;
        }
        ids[(*n)++] = (uint32_t)v;
    }
    return 0;
}

/* --to (json: the canonical DCFG JSON, as dcfg) */
enum { TO_DCFG, TO_DOT, TO_CALLGRIND, TO_CSI };
static const cli_choice convert_targets[] = {
    {"dcfg", TO_DCFG}, {"json", TO_DCFG}, {"dot", TO_DOT}, {"callgrind", TO_CALLGRIND},
    {"csi", TO_CSI},   {NULL, 0}};

static int run_convert(cli_ctx *ctx, const cli_args *a)
{
    int to = cli_get_choice(ctx->command, a, "to", convert_targets, -1);
    if (to < 0) {
        if (!cli_has(a, "to")) cli_usage_error(ctx->command, "--to FMT is required (dcfg, json, dot, callgrind or csi)");
        return CLI_EXIT_USAGE;
    }
    if (ctx->ninputs != 1) return cli_usage_error(ctx->command, "convert takes one FILE");
    uint32_t routines[MAX_SELECT], loops[MAX_SELECT], images[MAX_SELECT];
    tk_cfg_dot_options dot = TK_CFG_DOT_OPTIONS_INIT;
    if (get_ids(ctx, a, "routine", routines, &dot.nroutines) || get_ids(ctx, a, "loop", loops, &dot.nloops) ||
        get_ids(ctx, a, "image", images, &dot.nimages))
        return CLI_EXIT_USAGE;
    if (to != TO_DOT && (dot.nroutines || dot.nloops || dot.nimages))
        return cli_usage_error(ctx->command, "--routine, --loop and --image select what --to dot draws");
    dot.routines = routines;
    dot.loops = loops;
    dot.images = images;
    tk_cfg *cfg;
    int rc = read_dcfg(ctx, 0, NULL, &cfg);
    if (rc != CLI_EXIT_OK) return rc;
    tk_output *out;
    rc = cli_output_open(a, 0, &out);
    if (rc != 0) {
        tk_cfg_free(cfg);
        return rc;
    }
    tk_error err;
    tk_error_clear(&err);
    tk_status st;
    uint64_t skipped = 0;
    if (to == TO_CALLGRIND) {
        tk_profile *prof = NULL;
        st = tk_dcfg_to_profile(cfg, &prof, &err);
        if (st == TK_OK) {
            tk_callgrind_write_options wo = TK_CALLGRIND_WRITE_OPTIONS_INIT;
            st = tk_callgrind_write(prof, tk_output_file(out), &wo, &err);
        }
        tk_profile_free(prof);
    } else if (to == TO_CSI) {
        st = tk_csi_write_cfg(tk_output_file(out), cfg, &skipped, &err);
    } else if (to == TO_DOT) {
        st = tk_cfg_write_dot(cfg, &dot, tk_output_file(out), &err);
    } else {
        st = tk_dcfg_write(cfg, tk_output_file(out), &err);
    }
    if (skipped)
        fprintf(stderr, "tracekit: warning: %llu routines left out: their path count overflows 64 bits\n",
                (unsigned long long)skipped);
    tk_cfg_free(cfg);
    if (st != TK_OK) {
        tk_output_abort(out);
        return cli_error(&err);
    }
    return cli_output_commit(out);
}

/* ---- diff ------------------------------------------------------------------- */

static const cli_opt diff_opts[] = {
    {"all", 0, NULL, "also list blocks and edges whose counts are equal"},
    {"format", 0, "FMT", "text (default) or json"},
    {"output", 'o', "FILE", "write to FILE instead of standard output"},
    {"force", 'f', NULL, "overwrite FILE"},
    {NULL, 0, NULL, NULL},
};

/* Blocks are matched by (image id, address offset), edges by their end
 * blocks and type name: ids may differ between two runs of a program. */
typedef struct diff_key {
    uint64_t a, b; /* block: (image id, offset); edge: (src key hash, tgt key hash) */
    uint32_t c;    /* edge: type kind */
    uint32_t index;
} diff_key;

static int cmp_diff_key(const void *x, const void *y)
{
    const diff_key *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    if (p->c != q->c) return p->c < q->c ? -1 : 1;
    return (p->index > q->index) - (p->index < q->index);
}

static uint64_t node_key(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t n)
{
    if (n >= p->nblocks) return UINT64_MAX - (uint64_t)tk_cfg_node_special(cfg, p, n);
    const tk_cfg_block *b = &p->blocks[n];
    return ((uint64_t)p->images[tk_cfg_block_image(p, n)].id << 40) ^ b->addr_offset;
}

static diff_key *block_keys(const tk_cfg_process *p)
{
    diff_key *k = malloc(sizeof *k * (p->nblocks ? p->nblocks : 1));
    if (!k) return NULL;
    for (uint32_t i = 0; i < p->nblocks; i++) {
        k[i].a = p->images[tk_cfg_block_image(p, i)].id;
        k[i].b = p->blocks[i].addr_offset;
        k[i].c = 0;
        k[i].index = i;
    }
    qsort(k, p->nblocks, sizeof *k, cmp_diff_key);
    return k;
}

static diff_key *edge_keys(const tk_cfg *cfg, const tk_cfg_process *p)
{
    diff_key *k = malloc(sizeof *k * (p->nedges ? p->nedges : 1));
    if (!k) return NULL;
    for (uint32_t i = 0; i < p->nedges; i++) {
        const tk_cfg_edge *e = &p->edges[i];
        k[i].a = e->src == TK_CFG_NONE ? 0 : node_key(cfg, p, e->src);
        k[i].b = e->tgt == TK_CFG_NONE ? 0 : node_key(cfg, p, e->tgt);
        k[i].c = (uint32_t)tk_cfg_edge_kind(cfg, e);
        k[i].index = i;
    }
    qsort(k, p->nedges, sizeof *k, cmp_diff_key);
    return k;
}

/* Where the differences go: text lines, or the items of a JSON array. */
typedef struct diff_out {
    FILE *f;
    int json, first;
} diff_out;

static void put_delta(FILE *f, uint64_t x, uint64_t y)
{
    if (y >= x) fprintf(f, " +%" PRIu64 "\n", y - x);
    else fprintf(f, " -%" PRIu64 "\n", x - y);
}

/* A block of one side (b1 or b2 NULL) or of both. */
static void diff_block(diff_out *o, uint64_t image, const tk_cfg_block *b1, const tk_cfg_block *b2)
{
    const tk_cfg_block *b = b1 ? b1 : b2;
    if (o->json) {
        fprintf(o->f, "%s\n{\"image\":%" PRIu64 ",\"offset\":%" PRIu64 ",\"id\":[", o->first ? "" : ",",
                image, b->addr_offset);
        o->first = 0;
        if (b1) fprintf(o->f, "%" PRIu32, b1->id); else fputs("null", o->f);
        if (b2) fprintf(o->f, ",%" PRIu32, b2->id); else fputs(",null", o->f);
        fprintf(o->f, "],\"count\":[%" PRIu64 ",%" PRIu64 "]}", b1 ? b1->count : 0, b2 ? b2->count : 0);
        return;
    }
    if (!b2)
        fprintf(o->f, "block image %" PRIu64 " offset 0x%" PRIx64 ": only in the first (id %" PRIu32 ", count %" PRIu64 ")\n",
                image, b->addr_offset, b->id, b->count);
    else if (!b1)
        fprintf(o->f, "block image %" PRIu64 " offset 0x%" PRIx64 ": only in the second (id %" PRIu32 ", count %" PRIu64 ")\n",
                image, b->addr_offset, b->id, b->count);
    else {
        fprintf(o->f, "block image %" PRIu64 " offset 0x%" PRIx64 " (ids %" PRIu32 " / %" PRIu32 "): count %" PRIu64 " / %" PRIu64,
                image, b1->addr_offset, b1->id, b2->id, b1->count, b2->count);
        put_delta(o->f, b1->count, b2->count);
    }
}

/* An edge of one side (e1 or e2 NULL) or of both, with its counts c1, c2. */
static void diff_edge(diff_out *o, const char *type, const tk_cfg_edge *e1, const tk_cfg_edge *e2,
                      uint64_t c1, uint64_t c2)
{
    if (o->json) {
        fprintf(o->f, "%s\n{\"id\":[", o->first ? "" : ",");
        o->first = 0;
        if (e1) fprintf(o->f, "%" PRIu32, e1->id); else fputs("null", o->f);
        if (e2) fprintf(o->f, ",%" PRIu32, e2->id); else fputs(",null", o->f);
        fputs("],\"type\":", o->f);
        tk_put_json_string(o->f, type);
        fprintf(o->f, ",\"count\":[%" PRIu64 ",%" PRIu64 "]}", c1, c2);
        return;
    }
    if (!e2)
        fprintf(o->f, "edge %" PRIu32 " (%s): only in the first (count %" PRIu64 ")\n", e1->id, type, c1);
    else if (!e1)
        fprintf(o->f, "edge %" PRIu32 " (%s): only in the second (count %" PRIu64 ")\n", e2->id, type, c2);
    else {
        fprintf(o->f, "edge %" PRIu32 " / %" PRIu32 " (%s): count %" PRIu64 " / %" PRIu64, e1->id, e2->id, type, c1,
                c2);
        put_delta(o->f, c1, c2);
    }
}

static int run_diff(cli_ctx *ctx, const cli_args *a)
{
    if (ctx->ninputs != 2) return cli_usage_error(ctx->command, "diff takes two FILEs");
    int all = cli_has(a, "all");
    int fmt = cli_get_choice(ctx->command, a, "format", cli_out_text_json, CLI_OUT_TEXT);
    if (fmt < 0) return CLI_EXIT_USAGE;
    int json = fmt == CLI_OUT_JSON;
    tk_cfg *x, *y;
    int rc = read_dcfg(ctx, 0, NULL, &x);
    if (rc != CLI_EXIT_OK) return rc;
    if ((rc = read_dcfg(ctx, 1, NULL, &y)) != CLI_EXIT_OK) {
        tk_cfg_free(x);
        return rc;
    }
    tk_output *out;
    if ((rc = cli_output_open(a, 0, &out)) != CLI_EXIT_OK) {
        tk_cfg_free(x);
        tk_cfg_free(y);
        return rc;
    }
    diff_out o = {tk_output_file(out), json, 1};
    FILE *f = o.f;
    if (json) fputs("{\"version\":1,\"format\":\"dcfg-diff\",\"processes\":[", f);
    uint64_t differences = 0;
    for (uint32_t pi = 0; pi < x->nprocesses && pi < y->nprocesses; pi++) {
        const tk_cfg_process *p = &x->processes[pi], *q = &y->processes[pi];
        uint64_t ia = tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0});
        uint64_t ib = tk_cfg_scope_instr_count(q, (tk_cfg_scope){TK_SCOPE_PROCESS, 0});
        if (json)
            fprintf(f, "%s\n{\"pid\":[%" PRIu64 ",%" PRIu64 "],\"instructions\":[%" PRIu64 ",%" PRIu64 "],\"blocks\":[",
                    pi ? "," : "", p->pid, q->pid, ia, ib);
        else
            fprintf(f, "process %" PRIu64 " / %" PRIu64 ": instructions %" PRIu64 " / %" PRIu64 "\n", p->pid, q->pid, ia,
                    ib);
        diff_key *bp = block_keys(p), *bq = block_keys(q), *ep = edge_keys(x, p), *eq = edge_keys(y, q);
        if (!bp || !bq || !ep || !eq) {
            free(bp); free(bq); free(ep); free(eq);
            tk_cfg_free(x);
            tk_cfg_free(y);
            tk_output_abort(out);
            fprintf(stderr, "tracekit: out of memory\n");
            return CLI_EXIT_BAD_INPUT;
        }
        o.first = 1;
        uint32_t i = 0, j = 0;
        while (i < p->nblocks || j < q->nblocks) {
            int c = i == p->nblocks ? 1 : j == q->nblocks ? -1 : cmp_diff_key(&(diff_key){bp[i].a, bp[i].b, 0, 0}, &(diff_key){bq[j].a, bq[j].b, 0, 0});
            if (c < 0) {
                diff_block(&o, bp[i].a, &p->blocks[bp[i].index], NULL);
                i++;
                differences++;
            } else if (c > 0) {
                diff_block(&o, bq[j].a, NULL, &q->blocks[bq[j].index]);
                j++;
                differences++;
            } else {
                const tk_cfg_block *b1 = &p->blocks[bp[i].index], *b2 = &q->blocks[bq[j].index];
                if (b1->count != b2->count || all) {
                    diff_block(&o, bp[i].a, b1, b2);
                    differences += b1->count != b2->count;
                }
                i++;
                j++;
            }
        }
        if (json) fputs("],\"edges\":[", f);
        o.first = 1;
        i = j = 0;
        while (i < p->nedges || j < q->nedges) {
            int c = i == p->nedges ? 1 : j == q->nedges ? -1
                    : cmp_diff_key(&(diff_key){ep[i].a, ep[i].b, ep[i].c, 0}, &(diff_key){eq[j].a, eq[j].b, eq[j].c, 0});
            if (c < 0) {
                const tk_cfg_edge *e = &p->edges[ep[i++].index];
                diff_edge(&o, tk_cfg_edge_type_name(x, e), e, NULL, tk_cfg_edge_count(p, e), 0);
                differences++;
            } else if (c > 0) {
                const tk_cfg_edge *e = &q->edges[eq[j++].index];
                diff_edge(&o, tk_cfg_edge_type_name(y, e), NULL, e, 0, tk_cfg_edge_count(q, e));
                differences++;
            } else {
                const tk_cfg_edge *e1 = &p->edges[ep[i++].index], *e2 = &q->edges[eq[j++].index];
                uint64_t c1 = tk_cfg_edge_count(p, e1), c2 = tk_cfg_edge_count(q, e2);
                if (c1 != c2 || all) {
                    diff_edge(&o, tk_cfg_edge_type_name(x, e1), e1, e2, c1, c2);
                    differences += c1 != c2;
                }
            }
        }
        if (json) fputs("]}", f);
        free(bp); free(bq); free(ep); free(eq);
    }
    if (x->nprocesses != y->nprocesses) {
        if (!json) fprintf(f, "processes: %" PRIu32 " / %" PRIu32 "\n", x->nprocesses, y->nprocesses);
        differences++;
    }
    if (json)
        fprintf(f, "\n],\"process_count\":[%" PRIu32 ",%" PRIu32 "],\"differences\":%" PRIu64 "}\n",
                x->nprocesses, y->nprocesses, differences);
    else
        fprintf(f, "%" PRIu64 " difference%s\n", differences, differences == 1 ? "" : "s");
    tk_cfg_free(x);
    tk_cfg_free(y);
    return cli_output_commit(out);
}

const cli_format_ops cli_fmt_dcfg = {
    .format = "dcfg",
    .opts = {[CLI_CHECK] = check_opts, [CLI_REPORT] = report_opts, [CLI_CONVERT] = convert_opts, [CLI_DIFF] = diff_opts},
    .run = {[CLI_INFO] = run_info, [CLI_CHECK] = run_check, [CLI_REPORT] = run_report,
            [CLI_CONVERT] = run_convert, [CLI_DUMP] = run_dump, [CLI_DIFF] = run_diff},
};
