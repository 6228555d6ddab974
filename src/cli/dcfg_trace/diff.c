/* diff for dcfg-trace files: the first divergence between two traces of the
 * same program (thread, chunk, edge index, both edges, block addresses). */
#include <stdlib.h>
#include <string.h>

#include "dcfg_trace.h"

const cli_opt cli_dcfg_trace_diff_opts[] = {
    {"dcfg", 0, "DCFG", "describe the diverging edges (types, block addresses)"},
    CLI_VS_OPT("one trace a side for DCFG-Trace (traces have no merge)"),
    CLI_OUTPUT_OPTS, /* written also when the traces differ (exit 1) */
    {NULL, 0, NULL, NULL},
};

static void describe_edge(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t id)
{
    printf("edge %u", id);
    uint32_t e = p ? tk_cfg_find_edge(p, id) : TK_CFG_NONE;
    if (e == TK_CFG_NONE) {
        printf("\n");
        return;
    }
    tk_cfg_edge_info ed;
    tk_cfg_edge_get(cfg, p, e, &ed);
    printf(" (%s) %u -> %u", tk_cfg_edge_type_name(cfg, p, e), tk_cfg_node_id(cfg, p, ed.src),
           tk_cfg_node_id(cfg, p, ed.tgt));
    uint32_t ends[2] = {ed.src, ed.tgt};
    for (int k = 0; k < 2; k++) {
        uint32_t image = tk_cfg_block_image(p, ends[k]);
        if (image == TK_CFG_NONE) /* a special node */
            continue;
        tk_cfg_block_info b;
        tk_cfg_block_get(p, ends[k], &b);
        tk_cfg_image_info im;
        tk_cfg_image_get(cfg, p, image, &im);
        const char *file = im.file_name;
        printf("%s %s+0x%llx", k ? " ->" : ":", file && *file ? file : "?",
               (unsigned long long)b.addr_offset);
    }
    printf("\n");
}

static void print_divergence(const tk_dcfg_trace_diff *dv, uint64_t pid, uint64_t tid,
                             const char *const names[2], const tk_cfg *cfg, const tk_cfg_process *p)
{
    printf("first divergence: process %llu thread %llu, edge %llu of the thread\n",
           (unsigned long long)pid, (unsigned long long)tid, (unsigned long long)dv->index + 1);
    for (int k = 0; k < 2; k++) {
        if (!dv->has[k]) {
            printf("  %s: ends after %llu edge%s\n", names[k], (unsigned long long)dv->index,
                   cli_s(dv->index));
            continue;
        }
        printf("  %s: chunk %zu, edge %llu of the chunk: ", names[k], dv->chunk[k],
               (unsigned long long)dv->chunk_pos[k]);
        describe_edge(cfg, p, dv->edge[k]);
    }
}

/* The first difference of the traces (tk_dcfg_trace_compare), printed; *differ set when
 * there is one. Returns an exit code. */
static int diff_traces(const tk_dcfg_trace *ta, const tk_dcfg_trace *tb, const char *const names[2],
                       const tk_cfg *cfg, int *differ)
{
    tk_error err;
    tk_error_clear(&err);
    tk_dcfg_trace_diff dv;
    if (tk_dcfg_trace_compare(ta, tb, &dv, &err) != TK_OK) return cli_error(&err);
    *differ = dv.kind != TK_DCFG_TRACE_SAME;
    if (dv.kind == TK_DCFG_TRACE_ONLY_IN) {
        printf("process %llu thread %llu: only in %s\n", (unsigned long long)dv.pid,
               (unsigned long long)dv.tid, names[dv.side]);
    } else if (dv.kind == TK_DCFG_TRACE_DIVERGE) {
        const tk_cfg_process *p = NULL;
        if (cfg) {
            uint32_t pix = tk_cfg_find_process(cfg, dv.pid);
            p = tk_cfg_process_at(cfg, pix);
        }
        print_divergence(&dv, dv.pid, dv.tid, names, cfg, p);
    }
    return CLI_EXIT_OK;
}

int cli_dcfg_trace_diff(cli_ctx *ctx, const cli_args *a)
{
    if (ctx->ninputs != 2) return cli_usage_error("diff", "expected two traces");
    tk_cfg *cfg = NULL;
    int rc = cli_dcfg_trace_load_dcfg(a, ctx->progress, &cfg);
    if (rc != CLI_EXIT_OK) return rc;
    tk_dcfg_trace *ta = NULL, *tb = NULL;
    tk_error err;
    tk_error_clear(&err);
    const char *const names[2] = {ctx->paths[0], ctx->paths[1]};
    int differ = 0;
    cli_stdout_redirect out = {NULL, -1};
    if (tk_dcfg_trace_open_input(&ta, ctx->inputs[0], NULL, &err) != TK_OK ||
        tk_dcfg_trace_open_input(&tb, ctx->inputs[1], NULL, &err) != TK_OK)
        rc = cli_error(&err);
    else if ((rc = cli_stdout_open(a, &out)) == CLI_EXIT_OK)
        rc = diff_traces(ta, tb, names, cfg, &differ);
    if (rc == CLI_EXIT_OK && !differ)
        printf("no difference: the traces hold the same edge sequences\n");
    rc = cli_stdout_close(&out, rc);
    if (rc == CLI_EXIT_OK && differ) rc = CLI_EXIT_BAD_INPUT;
    tk_dcfg_trace_free(ta);
    tk_dcfg_trace_free(tb);
    tk_cfg_free(cfg);
    return rc;
}
