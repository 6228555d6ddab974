/* tracekit diff for DCFG files: blocks and edges matched by address and type. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg.h"

const cli_opt cli_dcfg_diff_opts[] = {
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
        fprintf(o->f, "%s\n{\"image\":%" PRIu64 ",\"offset\":%" PRIu64 ",\"id\":[",
                o->first ? "" : ",", image, b->addr_offset);
        o->first = 0;
        if (b1) fprintf(o->f, "%" PRIu32, b1->id); else fputs("null", o->f);
        if (b2) fprintf(o->f, ",%" PRIu32, b2->id); else fputs(",null", o->f);
        fprintf(o->f, "],\"count\":[%" PRIu64 ",%" PRIu64 "]}", b1 ? b1->count : 0,
                b2 ? b2->count : 0);
        return;
    }
    if (!b2)
        fprintf(o->f,
                "block image %" PRIu64 " offset 0x%" PRIx64 ": only in the first (id %" PRIu32
                ", count %" PRIu64 ")\n",
                image, b->addr_offset, b->id, b->count);
    else if (!b1)
        fprintf(o->f,
                "block image %" PRIu64 " offset 0x%" PRIx64 ": only in the second (id %" PRIu32
                ", count %" PRIu64 ")\n",
                image, b->addr_offset, b->id, b->count);
    else {
        fprintf(o->f,
                "block image %" PRIu64 " offset 0x%" PRIx64 " (ids %" PRIu32 " / %" PRIu32
                "): count %" PRIu64 " / %" PRIu64,
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
        fprintf(o->f, "edge %" PRIu32 " (%s): only in the first (count %" PRIu64 ")\n", e1->id,
                type, c1);
    else if (!e1)
        fprintf(o->f, "edge %" PRIu32 " (%s): only in the second (count %" PRIu64 ")\n", e2->id,
                type, c2);
    else {
        fprintf(o->f, "edge %" PRIu32 " / %" PRIu32 " (%s): count %" PRIu64 " / %" PRIu64, e1->id,
                e2->id, type, c1, c2);
        put_delta(o->f, c1, c2);
    }
}

/* The sorted keys of a process of each side (to free), or -1 when out of memory. */
typedef struct process_keys {
    diff_key *bp, *bq, *ep, *eq;
} process_keys;

static void process_keys_free(process_keys *k)
{
    free(k->bp);
    free(k->bq);
    free(k->ep);
    free(k->eq);
}

static int process_keys_make(const tk_cfg *x, const tk_cfg_process *p, const tk_cfg *y,
                             const tk_cfg_process *q, process_keys *k)
{
    k->bp = block_keys(p);
    k->bq = block_keys(q);
    k->ep = edge_keys(x, p);
    k->eq = edge_keys(y, q);
    return k->bp && k->bq && k->ep && k->eq ? 0 : -1;
}

/* The blocks of p and q matched by key, in key order: those of one side, and
 * those of both whose counts differ (with all, every one). Returns how many
 * differ. */
static uint64_t diff_blocks(diff_out *o, const tk_cfg_process *p, const tk_cfg_process *q,
                            const process_keys *k, int all)
{
    const diff_key *bp = k->bp, *bq = k->bq;
    uint64_t differences = 0;
    uint32_t i = 0, j = 0;
    while (i < p->nblocks || j < q->nblocks) {
        int c = i == p->nblocks   ? 1
                : j == q->nblocks ? -1
                                  : cmp_diff_key(&(diff_key){bp[i].a, bp[i].b, 0, 0},
                                                 &(diff_key){bq[j].a, bq[j].b, 0, 0});
        if (c < 0) {
            diff_block(o, bp[i].a, &p->blocks[bp[i].index], NULL);
            i++;
            differences++;
        } else if (c > 0) {
            diff_block(o, bq[j].a, NULL, &q->blocks[bq[j].index]);
            j++;
            differences++;
        } else {
            const tk_cfg_block *b1 = &p->blocks[bp[i].index], *b2 = &q->blocks[bq[j].index];
            if (b1->count != b2->count || all) {
                diff_block(o, bp[i].a, b1, b2);
                differences += b1->count != b2->count;
            }
            i++;
            j++;
        }
    }
    return differences;
}

/* The same for the edges (matched by their end blocks and type). */
static uint64_t diff_edges(diff_out *o, const tk_cfg *x, const tk_cfg_process *p, const tk_cfg *y,
                           const tk_cfg_process *q, const process_keys *k, int all)
{
    const diff_key *ep = k->ep, *eq = k->eq;
    uint64_t differences = 0;
    uint32_t i = 0, j = 0;
    while (i < p->nedges || j < q->nedges) {
        int c = i == p->nedges   ? 1
                : j == q->nedges ? -1
                                 : cmp_diff_key(&(diff_key){ep[i].a, ep[i].b, ep[i].c, 0},
                                                &(diff_key){eq[j].a, eq[j].b, eq[j].c, 0});
        if (c < 0) {
            const tk_cfg_edge *e = &p->edges[ep[i++].index];
            diff_edge(o, tk_cfg_edge_type_name(x, e), e, NULL, tk_cfg_edge_count(p, e), 0);
            differences++;
        } else if (c > 0) {
            const tk_cfg_edge *e = &q->edges[eq[j++].index];
            diff_edge(o, tk_cfg_edge_type_name(y, e), NULL, e, 0, tk_cfg_edge_count(q, e));
            differences++;
        } else {
            const tk_cfg_edge *e1 = &p->edges[ep[i++].index], *e2 = &q->edges[eq[j++].index];
            uint64_t c1 = tk_cfg_edge_count(p, e1), c2 = tk_cfg_edge_count(q, e2);
            if (c1 != c2 || all) {
                diff_edge(o, tk_cfg_edge_type_name(x, e1), e1, e2, c1, c2);
                differences += c1 != c2;
            }
        }
    }
    return differences;
}

/* Process pi of both graphs; adds its differences to *differences. Returns an
 * exit code (out of memory). */
static int diff_process(diff_out *o, const tk_cfg *x, const tk_cfg *y, uint32_t pi, int all,
                        uint64_t *differences)
{
    FILE *f = o->f;
    const tk_cfg_process *p = &x->processes[pi], *q = &y->processes[pi];
    uint64_t ia = tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0});
    uint64_t ib = tk_cfg_scope_instr_count(q, (tk_cfg_scope){TK_SCOPE_PROCESS, 0});
    if (o->json)
        fprintf(f, "%s\n{\"pid\":[%" PRIu64 ",%" PRIu64 "],\"instructions\":[%" PRIu64
                   ",%" PRIu64 "],\"blocks\":[",
                pi ? "," : "", p->pid, q->pid, ia, ib);
    else
        fprintf(f, "process %" PRIu64 " / %" PRIu64 ": instructions %" PRIu64 " / %" PRIu64 "\n",
                p->pid, q->pid, ia, ib);
    process_keys k;
    if (process_keys_make(x, p, y, q, &k) != 0) {
        process_keys_free(&k);
        fprintf(stderr, "tracekit: out of memory\n");
        return CLI_EXIT_BAD_INPUT;
    }
    o->first = 1;
    *differences += diff_blocks(o, p, q, &k, all);
    if (o->json) fputs("],\"edges\":[", f);
    o->first = 1;
    *differences += diff_edges(o, x, p, y, q, &k, all);
    if (o->json) fputs("]}", f);
    process_keys_free(&k);
    return CLI_EXIT_OK;
}

/* Every process of both graphs, then the number of differences. */
static int diff_graphs(diff_out *o, const tk_cfg *x, const tk_cfg *y, int all)
{
    FILE *f = o->f;
    if (o->json) fputs("{\"version\":1,\"format\":\"dcfg-diff\",\"processes\":[", f);
    uint64_t differences = 0;
    for (uint32_t pi = 0; pi < x->nprocesses && pi < y->nprocesses; pi++) {
        int rc = diff_process(o, x, y, pi, all, &differences);
        if (rc != CLI_EXIT_OK) return rc;
    }
    if (x->nprocesses != y->nprocesses) {
        if (!o->json)
            fprintf(f, "processes: %" PRIu32 " / %" PRIu32 "\n", x->nprocesses, y->nprocesses);
        differences++;
    }
    if (o->json)
        fprintf(f, "\n],\"process_count\":[%" PRIu32 ",%" PRIu32 "],\"differences\":%" PRIu64
                   "}\n",
                x->nprocesses, y->nprocesses, differences);
    else
        fprintf(f, "%" PRIu64 " difference%s\n", differences, differences == 1 ? "" : "s");
    return CLI_EXIT_OK;
}

int cli_dcfg_diff(cli_ctx *ctx, const cli_args *a)
{
    if (ctx->ninputs != 2) return cli_usage_error(ctx->command, "diff takes two FILEs");
    int all = cli_has(a, "all");
    int fmt = cli_get_choice(ctx->command, a, "format", cli_out_text_json, CLI_OUT_TEXT);
    if (fmt < 0) return CLI_EXIT_USAGE;
    tk_cfg *x, *y;
    int rc = cli_dcfg_read(ctx, 0, NULL, &x);
    if (rc != CLI_EXIT_OK) return rc;
    if ((rc = cli_dcfg_read(ctx, 1, NULL, &y)) != CLI_EXIT_OK) {
        tk_cfg_free(x);
        return rc;
    }
    tk_output *out;
    if ((rc = cli_output_open(a, 0, &out)) == CLI_EXIT_OK) {
        diff_out o = {tk_output_file(out), fmt == CLI_OUT_JSON, 1};
        rc = diff_graphs(&o, x, y, all);
        if (rc == CLI_EXIT_OK)
            rc = cli_output_commit(out);
        else
            tk_output_abort(out);
    }
    tk_cfg_free(x);
    tk_cfg_free(y);
    return rc;
}

const cli_opt_choices cli_dcfg_diff_choices[] = {{"format", cli_out_text_json}, {NULL, NULL}};
