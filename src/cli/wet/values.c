/* tracekit values: the values instructions of a WET trace computed. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wet.h"

const cli_opt cli_wet_values_opts[] = {
    CLI_OUTPUT_OPTS,
    {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

void cli_wet_values_help(FILE *f)
{
    fputs("INSTR is ID, ID:INSTANCE, 0xADDR[#INSTANCE] or FILE:LINE[#INSTANCE] (every\n"
          "instruction of the line). Without an instance, prints every value of the\n"
          "instruction as 'INSTANCE 0xVALUE' lines under a '# ID file:line function'\n"
          "header; with one, only that instance.\n",
          f);
}

int cli_wet_values(int argc, char **argv)
{
    const char *cmd = "values";
    cli_args a;
    int rc;
    if (!cli_parse_command(cmd, argc, argv, cli_wet_values_opts, 2,
                           "expected TRACE INSTR (see 'tracekit values --help')", &a, &rc))
        return rc;
    tk_deps *d = NULL;
    tk_node *nodes = NULL;
    if ((rc = cli_wet_load_path(a.pos[0], 0, &d)) != CLI_EXIT_OK) goto done;
    if (tk_deps_get_form(d) == TK_DEPS_HISTORY) {
        fprintf(stderr, "tracekit: %s: a limited-history trace records no values\n", a.pos[0]);
        rc = CLI_EXIT_BAD_INPUT;
        goto done;
    }
    tk_error err;
    tk_error_clear(&err);
    size_t n;
    if (tk_criterion_parse(d, a.pos[1], &nodes, &n, &err) != TK_OK) {
        rc = cli_usage_error(cmd, "%s", err.message);
        goto done;
    }
    int one = tk_criterion_has_instance(a.pos[1]);
    for (size_t j = 0; j < n; j++) {
        tk_deps_instr in;
        tk_deps_get_instr(d, nodes[j].instr, &in);
        printf("# %" PRIu64 " %s:%" PRIu32 " %s\n", in.id, in.file ? in.file : "??", in.line,
               in.function ? in.function : "??");
        if (!in.has_values) {
            printf("no values (the instruction defines none)\n");
            continue;
        }
        uint32_t ks[256];
        size_t nv = tk_deps_values(d, nodes[j].instr, 0, NULL, NULL, 0), shown = 0;
        char hex[TK_DEPS_VALUE_HEX];
        for (size_t k = 0; k < nv; k++) {
            if (k % 256 == 0) tk_deps_values(d, nodes[j].instr, k, ks, NULL, 256);
            if (one && ks[k % 256] != nodes[j].inst) continue;
            tk_deps_value_hex(d, nodes[j].instr, k, hex);
            printf("%" PRIu32 " 0x%s\n", ks[k % 256], hex);
            shown++;
        }
        if (one && !shown) printf("%" PRIu32 " no value\n", nodes[j].inst);
    }
done:
    tk_nodes_free(nodes);
    tk_deps_free(d);
    cli_args_free(&a);
    return rc;
}
