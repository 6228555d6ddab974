/* tracekit chain: one shortest dependence chain between two instances of a WET trace. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wet.h"

const cli_opt cli_wet_chain_opts[] = {
    {"deps", 0, "KIND", "follow all (default), data or control dependences"},
    CLI_OUTPUT_OPTS,
    {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

void cli_wet_chain_help(FILE *f)
{
    fputs("FROM and TO are instances (ID:INSTANCE, 0xADDR#INSTANCE or FILE:LINE#INSTANCE\n"
          "naming one instruction). Prints a shortest chain FROM -> ... -> TO where each\n"
          "instance depends on the next; when there is none, a chain from TO to FROM;\n"
          "else 'no chain'. Each step shows the kind and use port of the dependence.\n",
          f);
}

static int one_node(const char *cmd, const tk_deps *d, const char *text, tk_node *out)
{
    tk_error err;
    tk_error_clear(&err);
    tk_node *nodes;
    size_t n;
    if (tk_criterion_parse(d, text, &nodes, &n, &err) != TK_OK)
        return cli_usage_error(cmd, "%s", err.message);
    if (n != 1) {
        tk_nodes_free(nodes);
        return cli_usage_error(cmd, "'%s' names %zu instances; give one (ID:INSTANCE)", text, n);
    }
    *out = nodes[0];
    tk_nodes_free(nodes);
    return CLI_EXIT_OK;
}

static void print_step(const tk_deps *d, const tk_chain_step *st)
{
    char src[512];
    cli_wet_print_node(stdout, d, st->instr, st->inst, "#");
    printf("  %s\n", tk_deps_source(d, NULL, st->instr, src, sizeof src));
}

int cli_wet_chain(int argc, char **argv)
{
    const char *cmd = "chain";
    cli_args a;
    int rc;
    if (!cli_parse_command(cmd, argc, argv, cli_wet_chain_opts, 3,
                           "expected TRACE FROM TO (see 'tracekit chain --help')", &a, &rc))
        return rc;
    tk_deps *d = NULL;
    tk_slice_deps deps = TK_SLICE_ALL;
    if (cli_wet_deps_option(cmd, &a, &deps) != 0) {
        rc = CLI_EXIT_USAGE;
        goto done;
    }
    if ((rc = cli_wet_load_path(a.pos[0], 0, &d)) != CLI_EXIT_OK) goto done;
    tk_node from, to;
    if ((rc = one_node(cmd, d, a.pos[1], &from)) != CLI_EXIT_OK ||
        (rc = one_node(cmd, d, a.pos[2], &to)) != CLI_EXIT_OK)
        goto done;
    tk_error err;
    tk_error_clear(&err);
    tk_chain_step *steps = NULL;
    size_t n = 0;
    int reversed = 0;
    tk_status st = tk_chain_find(d, from, to, deps, &steps, &n, &reversed, &err);
    if (st == TK_END) {
        printf("no chain between %s and %s\n", a.pos[1], a.pos[2]);
        goto done;
    }
    if (st != TK_OK) {
        rc = st == TK_ERR_ARG ? cli_usage_error(cmd, "%s", err.message) : cli_error(&err);
        goto done;
    }
    if (reversed)
        printf("no chain from %s to %s; %s depends on %s:\n", a.pos[1], a.pos[2], a.pos[2],
               a.pos[1]);
    print_step(d, &steps[0]);
    for (size_t k = 1; k < n; k++) {
        tk_dep_kind kind = tk_deps_port_kind(d, steps[k].port);
        if (kind == TK_DEP_UNKNOWN)
            printf("  depends on\n");
        else
            printf("  depends on (%s, port %" PRIu32 ")\n",
                   kind == TK_DEP_CONTROL ? "control" : "data", steps[k].port);
        print_step(d, &steps[k]);
    }
    tk_chain_free(steps);
done:
    tk_deps_free(d);
    cli_args_free(&a);
    return rc;
}

const cli_opt_choices cli_wet_chain_choices[] = {{"deps", cli_wet_deps}, {NULL, NULL}};
