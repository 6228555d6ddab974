/* WET: a limited-history trace checked against the comprehensive trace of the same run
 * (`tracekit check HISTORY TRACE`): every dependence the history records must be one of the
 * comprehensive trace's. */
#include <inttypes.h>

#include "model/deps_internal.h"
#include "tracekit/wet.h"

/* Whether the comprehensive trace c has "instance inst of the instruction at addr depends
 * on instance dep_inst of the instruction at dep_addr". */
static int comprehensive_has(const tk_deps *c, uint64_t addr, uint32_t inst, uint64_t dep_addr,
                             uint32_t dep_inst)
{
    uint32_t ci = tk_deps_find_addr(c, addr);
    if (ci == TK_DEPS_NONE) return 0;
    tk_deps_instr cin;
    tk_deps_get_instr(c, ci, &cin);
    for (uint32_t p = 0; p < cin.nports; p++) {
        const tk_dep *ce;
        size_t cc = tk_deps_port_find_span(c, ci, p, inst, &ce);
        for (size_t k = 0; k < cc; k++) {
            tk_deps_instr ct;
            tk_deps_get_instr(c, ce[k].dep, &ct);
            if (ct.addr == dep_addr && ce[k].dep_inst == dep_inst) return 1;
        }
    }
    return 0;
}

tk_status tk_wet_check_history(tk_input *history, const tk_deps *comprehensive, tk_diag *diag,
                               tk_error *err)
{
    tk_wet_reader *r;
    tk_wet_rec rec;
    uint64_t missing = 0;
    tk_status st = tk_wet_reader_open(&r, history, err);
    while (st == TK_OK && (st = tk_wet_reader_next(r, &rec, err)) == TK_OK) {
        if (rec.kind != TK_WET_REC_EDGE ||
            comprehensive_has(comprehensive, rec.addr_from, rec.inst, rec.dep_id, rec.dep_inst))
            continue;
        tk_location loc = {tk_input_path(history), -1, rec.line, 1};
        tk_diag_report(diag, TK_SEV_ERROR, &loc,
                       "dependence 0x%" PRIx64 "#%" PRIu32 " --> 0x%" PRIx64 "#%" PRIu32
                       " is not in the comprehensive trace",
                       rec.addr_from, rec.inst, rec.dep_id, rec.dep_inst);
        missing++;
    }
    tk_wet_reader_free(r);
    if (st != TK_END) return st;
    return missing ? TK_ERR_CHECK : TK_OK;
}
