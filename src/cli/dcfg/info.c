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
        tk_cfg_info ci;
        tk_cfg_get(cfg, &ci);
        printf("dcfg version: %" PRIu32 ".%02" PRIu32 "\n", ci.major_version, ci.minor_version);
        if (cli_has(a, "verbose")) /* the tables of the file */
            printf("file names: %" PRIu32 "\nedge types: %" PRIu32 "\nspecial nodes: %" PRIu32 "\n",
                   ci.nfile_names, ci.nedge_types, ci.nspecials);
        printf("processes: %" PRIu32 "\n", ci.nprocesses);
        for (uint32_t k = 0; k < ci.nprocesses; k++) {
            const tk_cfg_process *p = tk_cfg_process_at(cfg, k);
            tk_cfg_process_info pi;
            tk_cfg_process_get(cfg, p, &pi);
            uint64_t instrs = tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0});
            printf("process %" PRIu64 ": %" PRIu32 " thread%s, %" PRIu32 " image%s, %" PRIu32
                   " block%s, %" PRIu32 " edge%s, %" PRIu32 " routine%s%s, %" PRIu32
                   " loop%s, %" PRIu64 " instruction%s",
                   pi.pid, pi.nthreads, cli_s(pi.nthreads), pi.nimages, cli_s(pi.nimages),
                   pi.nblocks, cli_s(pi.nblocks), pi.nedges, cli_s(pi.nedges), pi.nroutines,
                   cli_s(pi.nroutines), pi.routines_computed ? " (computed)" : "", pi.nloops,
                   cli_s(pi.nloops), instrs, cli_s(instrs));
            if (cli_has(a, "verbose")) /* rows of the file's tables */
                printf("; %" PRIu32 " symbol%s, %" PRIu32 " source line%s", pi.nsymbols,
                       cli_s(pi.nsymbols), pi.nsources, cli_s(pi.nsources));
            printf("\n");
        }
        tk_cfg_free(cfg);
    }
    return rc;
}
