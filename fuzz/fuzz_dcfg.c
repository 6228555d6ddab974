/* Fuzz the DCFG reader in both modes (strict, and check mode with a
 * diagnostics sink), then the checker, the report, the dump, the writer and
 * the dot export on whatever was read. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void consume(const tk_cfg *cfg, FILE *sink)
{
    tk_error err;
    tk_error_clear(&err);
    tk_dcfg_report_options ro = TK_DCFG_REPORT_OPTIONS_INIT;
    ro.top = 5;
    (void)tk_dcfg_report(cfg, &ro, sink, &err);
    (void)tk_dcfg_dump(cfg, sink, &err);
    (void)tk_dcfg_write(cfg, sink, &err);
    tk_cfg_dot_options dot = TK_CFG_DOT_OPTIONS_INIT;
    (void)tk_cfg_write_dot(cfg, &dot, sink, &err);
    for (uint32_t i = 0; i < cfg->nprocesses; i++) {
        const tk_cfg_process *p = &cfg->processes[i];
        uint32_t hits[4];
        for (uint32_t b = 0; b < p->nblocks && b < 64; b++)
            (void)tk_cfg_blocks_at(p, tk_cfg_block_addr(p, &p->blocks[b]), hits, 4);
        for (uint32_t l = 0; l < p->nloops; l++) (void)tk_cfg_loop_entry_count(cfg, p, l);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *sink = fopen("/dev/null", "w");
    if (!sink) return 0;
    for (int mode = 0; mode < 2; mode++) {
        tk_input *in;
        tk_error err;
        tk_error_clear(&err);
        if (tk_input_open_memory(&in, data, size, "fuzz", NULL, &err) != TK_OK) break;
        tk_diag diag;
        tk_diag_init(&diag, NULL, NULL);
        tk_dcfg_read_options o = TK_DCFG_READ_OPTIONS_INIT;
        o.diag = mode ? &diag : NULL;
        tk_cfg *cfg = NULL;
        if (tk_dcfg_read(&cfg, in, &o, &err) == TK_OK) {
            if (mode) (void)tk_dcfg_check(cfg, "fuzz", &diag);
            consume(cfg, sink);
            tk_cfg_free(cfg);
        }
        tk_input_free(in);
    }
    fclose(sink);
    return 0;
}
