/* tracekit check for WET traces; a limited-history trace against its comprehensive one. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wet.h"

/* Whether the comprehensive trace c has "instance inst of the instruction at
 * addr depends on instance dep_inst of the instruction at dep_addr". */
static int comprehensive_has(const tk_deps *c, uint64_t addr, uint32_t inst, uint64_t dep_addr,
                             uint32_t dep_inst)
{
    uint32_t ci = tk_deps_find_addr(c, addr);
    if (ci == TK_DEPS_NONE)
        return 0;
    tk_deps_instr cin;
    tk_deps_get_instr(c, ci, &cin);
    for (uint32_t p = 0; p < cin.nports; p++) {
        const tk_dep *ce;
        size_t cc = tk_deps_port_find(c, ci, p, inst, &ce);
        for (size_t k = 0; k < cc; k++) {
            tk_deps_instr ct;
            tk_deps_get_instr(c, ce[k].dep, &ct);
            if (ct.addr == dep_addr && ce[k].dep_inst == dep_inst)
                return 1;
        }
    }
    return 0;
}

/* Every dependence of the history trace at hpath must be one of the
 * comprehensive trace c: the history file is read again to locate each miss. */
static int check_join(const char *hpath, const tk_deps *c, tk_diag *diag)
{
    tk_input *in;
    tk_input_options opt = TK_INPUT_OPTIONS_INIT;
    tk_error err;
    tk_error_clear(&err);
    if (tk_input_open(&in, hpath, &opt, &err) != TK_OK) {
        tk_diag_error(diag, &err);
        return 1;
    }
    tk_wet_reader *r;
    tk_wet_rec rec;
    tk_status st = tk_wet_reader_open(&r, in, &err);
    while (st == TK_OK && (st = tk_wet_reader_next(r, &rec, &err)) == TK_OK) {
        if (rec.kind != TK_WET_REC_EDGE ||
            comprehensive_has(c, rec.addr_from, rec.inst, rec.dep_id, rec.dep_inst))
            continue;
        tk_location loc = {tk_input_path(in), -1, rec.line, 1};
        tk_diag_report(diag, TK_SEV_ERROR, &loc,
                       "dependence 0x%" PRIx64 "#%" PRIu32 " --> 0x%" PRIx64 "#%" PRIu32
                       " is not in the comprehensive trace",
                       rec.addr_from, rec.inst, rec.dep_id, rec.dep_inst);
    }
    if (st != TK_END && st != TK_OK)
        tk_diag_error(diag, &err);
    tk_wet_reader_free(r);
    tk_input_free(in);
    return 0;
}

int cli_wet_check(cli_ctx *ctx, const cli_args *a)
{
    (void)a;
    int rc = CLI_EXIT_OK;
    tk_deps *models[2] = {NULL, NULL};
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_diag diag;
        cli_diag_init(&diag);
        tk_error err;
        tk_error_clear(&err);
        tk_deps *d = NULL;
        tk_status st = tk_wet_read(ctx->inputs[i], &diag, &d, &err);
        if (st != TK_OK && st != TK_ERR_CHECK)
            tk_diag_error(&diag, &err);
        if (cli_diag_summary(&diag, ctx->paths[i]) != 0)
            rc = CLI_EXIT_BAD_INPUT;
        if (i < 2)
            models[i] = d;
        else
            tk_deps_free(d);
    }
    /* A limited-history trace with its comprehensive trace: they must agree. */
    if (ctx->ninputs == 2 && models[0] && models[1] &&
        tk_deps_get_form(models[0]) != tk_deps_get_form(models[1])) {
        int h = tk_deps_get_form(models[0]) == TK_DEPS_HISTORY ? 0 : 1;
        tk_diag diag;
        cli_diag_init(&diag);
        if (strcmp(ctx->paths[h], "-") == 0) {
            tk_location loc = {"<stdin>", -1, 0, 0};
            tk_diag_report(&diag, TK_SEV_WARNING, &loc,
                           "standard input cannot be read twice: not checked against %s",
                           ctx->paths[1 - h]);
        } else {
            check_join(ctx->paths[h], models[1 - h], &diag);
        }
        char what[1024];
        snprintf(what, sizeof what, "%s against %s", ctx->paths[h], ctx->paths[1 - h]);
        if (cli_diag_summary(&diag, what) != 0)
            rc = CLI_EXIT_BAD_INPUT;
    }
    tk_deps_free(models[0]);
    tk_deps_free(models[1]);
    return rc;
}
