/* tracekit info for DCFG files: version, and per process its threads, images, blocks... */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dcfg.h"

int cli_dcfg_info(cli_ctx *ctx, const cli_args *a)
{
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < ctx->ninputs && rc == CLI_EXIT_OK; i++) {
        tk_cfg *cfg;
        if ((rc = cli_dcfg_read(ctx, i, NULL, &cfg)) != CLI_EXIT_OK) break;
        printf("dcfg version: %" PRIu32 ".%02" PRIu32 "\n", cfg->major_version, cfg->minor_version);
        if (cli_has(a, "verbose")) /* the tables of the file */
            printf("file names: %" PRIu32 "\nedge types: %" PRIu32 "\nspecial nodes: %" PRIu32
                   "\n", cfg->nfile_names, cfg->nedge_types, cfg->nspecials);
        printf("processes: %" PRIu32 "\n", cfg->nprocesses);
        for (uint32_t k = 0; k < cfg->nprocesses; k++) {
            const tk_cfg_process *p = &cfg->processes[k];
            printf("process %" PRIu64 ": threads %" PRIu32 ", images %" PRIu32 ", blocks %" PRIu32
                   ", edges %" PRIu32 ", routines %" PRIu32 "%s, loops %" PRIu32
                   ", symbols %" PRIu32 ", source lines %" PRIu32 ", instructions %" PRIu64 "\n",
                   p->pid, p->nthreads, p->nimages, p->nblocks, p->nedges, p->nroutines,
                   p->routines_computed ? " (computed)" : "", p->nloops, p->nsymbols, p->nsources,
                   tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}));
        }
        tk_cfg_free(cfg);
    }
    return rc;
}
